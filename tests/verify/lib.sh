# shellcheck shell=bash
# Shared helpers for tests/verify, sourced by the bash tests.
#
# Environment (set by tests/verify/meson.build):
#   MESON         the meson program, to `meson install --destdir`
#   BUILD_ROOT    the build directory
#   UNITDIR       where units are installed (absolute, as in the build)
#   SBINDIR_NFS SBINDIR_STATD MODPROBE STATEDIR   the configured paths
#
# Exit codes follow meson: 0 pass, 77 skip (only when a tool is absent),
# anything else fails.  Every check that cannot run fails.

set -euo pipefail

fail() {
	printf 'FAIL: %s\n' "$*" >&2
	exit 1
}

skip() {
	printf 'SKIP: %s\n' "$*" >&2
	exit 77
}

need_tool() {
	command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed"
}

for v in MESON BUILD_ROOT UNITDIR GENERATORDIR SBINDIR_NFS SBINDIR_STATD MODPROBE STATEDIR; do
	[ -n "${!v:-}" ] || fail "environment variable $v is not set (run through meson test)"
done

need_tool systemd-analyze

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/nfs-systemd-verify.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT

# Daemons the units may name, by configured directory.  A stub exists
# only where the chosen options put the daemon, so a unit naming any
# other path fails `systemd-analyze verify` ("is not executable").
NFS_DAEMONS="exportfs rpc.nfsd rpc.mountd rpc.idmapd rpc.gssd rpc.svcgssd nfsdcld blkmapd fsidd nfsv4.exportd"
STATD_DAEMONS="rpc.statd sm-notify"

install_project() { # DESTDIR
	"$MESON" install -C "$BUILD_ROOT" --destdir "$1" --no-rebuild --quiet >"$SCRATCH/install.log" 2>&1 ||
		{ cat "$SCRATCH/install.log" >&2; fail "meson install --destdir failed"; }
	[ -d "$1$UNITDIR" ] || fail "meson install put no units in $UNITDIR"
}

stub() { # ROOT PATH
	mkdir -p "$1$(dirname "$2")"
	printf '#!/bin/sh\nexit 0\n' >"$1$2"
	chmod 755 "$1$2"
}

# make_root ROOT: a scratch root for `systemd-analyze verify --root=ROOT`:
#  - the host's own units (/usr/lib/systemd/system) as the distribution,
#    in a merged-/usr layout like Debian 12;
#  - rpcbind units when the host has none (as Debian's rpcbind ships them);
#  - this project installed with `meson install --destdir`, its units
#    copied to ROOT/etc/systemd/system (the place an administrator's units
#    and, for these tests, generator output go: verify does not run
#    generators or read their directories under --root);
#  - executable stubs for the daemons at the configured paths.
make_root() {
	local root=$1 dest="$SCRATCH/destdir"
	[ -d "$dest" ] || install_project "$dest"
	mkdir -p "$root/usr/lib/systemd" "$root/usr/bin" "$root/usr/sbin" \
		"$root/etc/systemd/system" "$root/dev" "$root/run" "$root/var/lib"
	ln -s usr/lib "$root/lib"
	ln -s usr/bin "$root/bin"
	ln -s usr/sbin "$root/sbin"
	cp -a /usr/lib/systemd/system "$root/usr/lib/systemd/"
	if [ ! -e "$root/usr/lib/systemd/system/rpcbind.socket" ]; then
		cat >"$root/usr/lib/systemd/system/rpcbind.socket" <<-'UNIT'
		[Unit]
		Description=RPCbind Server Activation Socket
		DefaultDependencies=no
		Wants=rpcbind.target
		Before=rpcbind.target

		[Socket]
		ListenStream=/run/rpcbind.sock

		[Install]
		WantedBy=sockets.target
		UNIT
		cat >"$root/usr/lib/systemd/system/rpcbind.service" <<-'UNIT'
		[Unit]
		Description=RPC bind portmap service
		DefaultDependencies=no
		Requires=rpcbind.socket
		After=rpcbind.socket
		Wants=rpcbind.target
		Before=rpcbind.target

		[Service]
		ExecStart=/sbin/rpcbind -f -w
		UNIT
		stub "$root" /sbin/rpcbind
	fi
	# Everything but the units goes where it is installed (the failure
	# helper in libexecdir, generators); the units go to /etc.
	(cd "$dest" && tar --exclude=".$UNITDIR" -cf - .) | (cd "$root" && tar -xf - --keep-directory-symlink)
	cp -a "$dest$UNITDIR/." "$root/etc/systemd/system/"
	local d
	for d in $NFS_DAEMONS; do stub "$root" "$SBINDIR_NFS/$d"; done
	for d in $STATD_DAEMONS; do stub "$root" "$SBINDIR_STATD/$d"; done
	stub "$root" "$MODPROBE"
	[ -x "$root/bin/true" ] || stub "$root" /bin/true
	[ -x "$root/bin/sh" ] || stub "$root" /bin/sh
	add_reexport_mount "$root"
}

# A loopback re-export: the mount nfs-reexport@srv-re.service is for.
add_reexport_mount() { # ROOT
	cat >"$1/etc/systemd/system/srv-re.mount" <<-'UNIT'
	[Mount]
	What=localhost:/srv/data
	Where=/srv/re
	Type=nfs
	UNIT
}

mask() { # ROOT UNIT...
	local root=$1 u
	shift
	for u in "$@"; do ln -sf /dev/null "$root/etc/systemd/system/$u"; done
}

# Our unit names, as installed (files and symlinks in UNITDIR; a
# template is verified through an instance).
our_units() {
	local f
	for f in "$SCRATCH/destdir$UNITDIR"/*; do
		[ -d "$f" ] && continue
		f=${f##*/}
		case $f in
		*@.service) verify_instance "$f" ;;
		*) printf '%s\n' "$f" ;;
		esac
	done
}

# The instance through which a template is verified: nfs-reexport@ takes a
# mount (make_root writes srv-re.mount for it), the others a server unit.
verify_instance() { # TEMPLATE
	case $1 in
	nfs-reexport@.service) echo nfs-reexport@srv-re.service ;;
	*) echo "${1%@.service}@nfs-server.service.service" ;;
	esac
}

# verify ROOT OUT UNIT...: run `systemd-analyze verify`, stdout+stderr to
# OUT; returns its exit status.  Documentation= man pages are checked by
# verify-docs.sh (it needs the nfs-utils pages), not here.
verify() {
	local root=$1 out=$2
	shift 2
	(cd "$SCRATCH" && systemd-analyze verify --man=no --root="$root" "$@") >"$out" 2>&1
}

# dump ROOT OUT UNIT...: verify at debug level.  OUT gets each unit's
# dependency dump (" After: x (origin-file)", stdout) followed by the log
# with the start transaction and any ordering cycle (stderr); they are
# captured apart and then joined, because on one pipe the two streams
# interleave mid-line.  Returns verify's exit status.
dump() {
	local root=$1 out=$2 status=0
	shift 2
	(cd "$SCRATCH" && SYSTEMD_LOG_LEVEL=debug SYSTEMD_LOG_COLOR=0 SYSTEMD_UTF8=0 \
		systemd-analyze verify --man=no --root="$root" "$@") >"$out.stdout" 2>"$out.stderr" || status=$?
	cat "$out.stdout" "$out.stderr" >"$out"
	rm -f "$out.stdout" "$out.stderr"
	return "$status"
}

FIXTURES="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/fixtures"

enable_units() { # ROOT UNIT...
	local root=$1
	shift
	systemctl --root="$root" --quiet enable "$@" >/dev/null 2>&1 ||
		fail "systemctl --root enable $* failed"
}

# add_mounts ROOT SOURCE: the fixture system's fstab as mount units
# (made by the host's systemd-fstab-generator, as at boot) and the
# nfs-server ordering drop-in, from SOURCE: "generator" (this project's
# nfs-server-generator as installed) or "fixture" (the same contract,
# written by hand in fixtures/order-with-mounts.conf).
add_mounts() {
	local root=$1 source=$2 fstabgen=""
	local d
	for d in /usr/lib/systemd/system-generators /lib/systemd/system-generators; do
		[ -x "$d/systemd-fstab-generator" ] && fstabgen="$d/systemd-fstab-generator" && break
	done
	[ -n "$fstabgen" ] || skip "systemd-fstab-generator is not installed"
	local out="$SCRATCH/fstab-gen.$RANDOM"
	mkdir -p "$out"
	SYSTEMD_FSTAB="$FIXTURES/system/etc/fstab" SYSTEMD_LOG_LEVEL=err \
		"$fstabgen" "$out" "$out" "$out" || fail "systemd-fstab-generator failed on the fixture fstab"
	cp -a "$out/." "$root/etc/systemd/system/"
	mkdir -p "$root/etc/systemd/system/nfs-server.service.d"
	case $source in
	generator)
		local gen="$SCRATCH/destdir$GENERATORDIR/nfs-server-generator"
		[ -x "$gen" ] || fail "nfs-server-generator is not installed in $GENERATORDIR"
		mkdir -p "$SCRATCH/gen-out"
		"$gen" --root="$FIXTURES/system" "$SCRATCH/gen-out" 2>"$SCRATCH/gen.log" ||
			{ cat "$SCRATCH/gen.log" >&2; fail "nfs-server-generator failed on fixtures/system"; }
		[ -f "$SCRATCH/gen-out/nfs-server.service.d/order-with-mounts.conf" ] ||
			fail "nfs-server-generator wrote no nfs-server.service.d/order-with-mounts.conf"
		cp -a "$SCRATCH/gen-out/." "$root/etc/systemd/system/"
		;;
	fixture)
		cp "$FIXTURES/order-with-mounts.conf" "$root/etc/systemd/system/nfs-server.service.d/"
		;;
	*) fail "add_mounts: unknown source $source" ;;
	esac
}

generator_installed() { # NAME
	[ -x "$SCRATCH/destdir$GENERATORDIR/$1" ]
}

# expect_clean OUT WHAT: verify printed nothing.
expect_clean() {
	if [ -s "$1" ]; then
		cat "$1" >&2
		fail "$2: systemd-analyze verify printed the warnings above"
	fi
}

# expect_transaction DUMP WHAT UNIT...: the debug dump shows no ordering
# cycle and a start job installed for every UNIT.
expect_transaction() {
	local dump=$1 what=$2 u
	shift 2
	if grep -qi 'cycle' "$dump"; then
		grep -i -B2 -A8 'cycle' "$dump" >&2
		fail "$what: ordering cycle"
	fi
	for u in "$@"; do
		grep -qF "Installed new job $u/start" "$dump" ||
			fail "$what: no start job for $u in the transaction"
	done
}

#!/bin/bash
# Another layout is one option set: configure the project (configure
# only, nothing is compiled) with Debian's layout (prefix /usr, statd and
# sm-notify in /sbin), a state directory whose unit name needs escaping
# ("%" is also a specifier), and the optional units forced on (fsidd, the
# NFSv4-only server); then check the configured units:
#  - the rpc_pipefs mount unit is named as `systemd-escape --path` says
#    and systemd accepts it (Where= must match the name);
#  - each daemon is named at its configured path, and only there;
#  - `systemd-analyze verify` is clean on the whole set, optional units
#    included, and the NFSv4-only server starts without rpcbind or statd.
. "$(dirname "$0")/lib.sh"

statedir='/srv/nfs%state.d'
build="$SCRATCH/build"
"$MESON" setup "$build" "$SOURCE_ROOT" --prefix=/usr -Dsbindir_statd=/sbin \
	-Dstatedir="$statedir" -Dfsidd=enabled -Dnfsv4_server=enabled \
	-Dunitdir=/usr/lib/systemd/system >"$SCRATCH/setup.log" 2>&1 ||
	{ cat "$SCRATCH/setup.log" >&2; fail "meson setup with Debian's layout failed"; }
dest="$SCRATCH/layout-destdir"
# Only this project's "units" install tag: nothing needs compiling.
"$MESON" install -C "$build" --no-rebuild --tags units --destdir "$dest" --quiet >"$SCRATCH/install2.log" 2>&1 ||
	{ cat "$SCRATCH/install2.log" >&2; fail "meson install --tags units failed for Debian's layout"; }
installed="$dest/usr/lib/systemd/system"

pipefs=$(systemd-escape --path --suffix=mount "$statedir/rpc_pipefs")
[ -f "$installed/$pipefs" ] || fail "$pipefs not installed: $(ls "$installed")"
grep -qxF "Where=${statedir//%/%%}/rpc_pipefs" "$installed/$pipefs" ||
	fail "$pipefs: Where= is not the escaped $statedir/rpc_pipefs"
grep -qxF "Requires=$pipefs" "$installed/rpc_pipefs.target" || fail "rpc_pipefs.target does not require $pipefs"

grep -qxF 'ExecStart=/sbin/rpc.statd' "$installed/rpc-statd.service" || fail "rpc.statd is not run from /sbin"
grep -qxF 'ExecStart=-/sbin/sm-notify' "$installed/rpc-statd-notify.service" || fail "sm-notify is not run from /sbin"
if grep -rl '/usr/sbin/\(rpc.statd\|sm-notify\)' "$installed"; then
	fail "a unit names statd or sm-notify in /usr/sbin although sbindir_statd=/sbin"
fi
[ -x "$dest/usr/libexec/nfs-systemd/nfs-server-failed" ] || fail "the failure helper is not in /usr/libexec/nfs-systemd"
grep -qxF 'ExecStart=/usr/libexec/nfs-systemd/nfs-server-failed %i' "$installed/nfs-server-failed@.service" ||
	fail "the failure helper is not run from /usr/libexec/nfs-systemd"
for u in fsidd.service nfsv4-server.service nfsv4-exportd.service nfs-mountd.service.d/fsidd.conf \
	nfs-idmapd.service.d/nfsv4-server.conf nfs-server-failed@.service.d/nfsv4-server.conf; do
	[ -f "$installed/$u" ] || fail "$u not installed although forced on"
done
[ "$(readlink "$installed/nfs-kernel-server.service")" = nfs-server.service ] ||
	fail "nfs-kernel-server.service is not a link to nfs-server.service"

# A root with these units instead of the main build's.
root="$SCRATCH/root"
make_root "$root"
rm -rf "$root/etc/systemd/system"
mkdir -p "$root/etc/systemd/system"
cp -a "$installed/." "$root/etc/systemd/system/"
cp -a "$dest/usr/libexec/." "$root/usr/libexec/"
for d in $STATD_DAEMONS; do stub "$root" "/sbin/$d"; done
# the compiled helpers (the "units" tag builds nothing)
stub "$root" /usr/libexec/nfs-systemd/unexport-below
stub "$root" /usr/libexec/nfs-systemd/keep-statd-monitors
add_reexport_mount "$root"

mapfile -t names < <(cd "$root/etc/systemd/system" && for f in *; do
	[ -d "$f" ] && continue
	case $f in *@.service) verify_instance "$f" ;; *) echo "$f" ;; esac
done)
verify "$root" "$SCRATCH/out" "${names[@]}" || { cat "$SCRATCH/out" >&2; fail "verify failed on the Debian-layout units"; }
expect_clean "$SCRATCH/out" "Debian layout, $statedir"

mask "$root" rpcbind.service rpcbind.socket rpc-statd.service
dump "$root" "$SCRATCH/v4" nfsv4-server.service || fail "verify nfsv4-server.service failed"
expect_transaction "$SCRATCH/v4" "NFSv4-only server" nfsv4-server.service nfsv4-exportd.service "$pipefs"
if grep -E 'Installed new job (rpcbind|rpc-statd|nfs-mountd|nfs-server)\.' "$SCRATCH/v4"; then
	fail "the NFSv4-only server pulls in rpcbind, statd, mountd or nfs-server"
fi
echo "ok: ${#names[@]} units of the Debian layout with statedir $statedir"

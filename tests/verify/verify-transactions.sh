#!/bin/bash
# Start transactions without ordering cycle or warning, as systemd builds
# them at boot, in one scenario (argument):
#   plain | keytab | rpcbind-masked | keytab-rpcbind-masked
# For each: nfs-server.service alone, nfs-client.target alone, both in one
# verify call, and multi-user.target with both enabled on the fixture
# system (local, _netdev, nofail, re-exported and loopback NFS mounts)
# with the nfs-server ordering drop-in from the generator and from the
# hand-written contract.
. "$(dirname "$0")/lib.sh"

scenario=${1:?scenario}
setup() { # ROOT
	make_root "$1"
	case $scenario in
	plain) ;;
	keytab) : >"$1/etc/krb5.keytab" ;;
	rpcbind-masked) mask "$1" rpcbind.service rpcbind.socket ;;
	keytab-rpcbind-masked)
		: >"$1/etc/krb5.keytab"
		mask "$1" rpcbind.service rpcbind.socket
		;;
	*) fail "unknown scenario $scenario" ;;
	esac
}

check() { # ROOT WHAT EXPECTED-JOBS -- UNITS...
	local root=$1 what=$2 jobs=() units=()
	shift 2
	while [ "$1" != -- ]; do jobs+=("$1"); shift; done
	shift
	units=("$@")
	local out="$SCRATCH/out.$RANDOM" status=0
	verify "$root" "$out" "${units[@]}" || status=$?
	[ "$status" -eq 0 ] || { cat "$out" >&2; fail "$what: systemd-analyze verify exited $status"; }
	expect_clean "$out" "$what"
	dump "$root" "$out.debug" "${units[@]}" || fail "$what: debug verify failed"
	expect_transaction "$out.debug" "$what" "${jobs[@]}"
	LAST_DEBUG="$out.debug"
	if [ "${scenario%rpcbind-masked}" != "$scenario" ] && grep -q 'Installed new job rpcbind\.' "$out.debug"; then
		fail "$what: rpcbind is masked but a job for it was installed"
	fi
	echo "ok: $scenario: $what"
}

root="$SCRATCH/root"
setup "$root"
check "$root" "nfs-server.service" nfs-server.service nfs-mountd.service -- nfs-server.service
check "$root" "nfs-client.target" nfs-client.target -- nfs-client.target
check "$root" "nfs-server.service and nfs-client.target" \
	nfs-server.service nfs-client.target -- nfs-server.service nfs-client.target

sources=(fixture)
generator_installed nfs-server-generator && sources+=(generator)
for source in "${sources[@]}"; do
	r="$SCRATCH/root-$source"
	setup "$r"
	add_mounts "$r" "$source"
	enable_units "$r" nfs-server.service nfs-client.target remote-fs.target
	check "$r" "multi-user.target, both enabled, fixture mounts, drop-in from $source" \
		nfs-server.service nfs-client.target srv-export.mount srv-iscsi.mount srv-nofail.mount \
		srv-reexport.mount mnt-loop.mount -- multi-user.target
done

# Debian's default nfs.conf puts rpc_pipefs at /run/rpc_pipefs:
# rpc-pipefs-generator's mount unit and rpc_pipefs.target replace the
# static ones (written to /etc here, which outranks the units there, as
# the generator directory outranks the installed units at boot).
if generator_installed rpc-pipefs-generator; then
	r="$SCRATCH/root-debian-nfs-conf"
	setup "$r"
	add_mounts "$r" fixture
	gen_out="$SCRATCH/pipefs-gen"
	mkdir -p "$gen_out"
	"$SCRATCH/destdir$GENERATORDIR/rpc-pipefs-generator" --root="$FIXTURES/debian-nfs-conf" "$gen_out" 2>"$SCRATCH/pipefs-gen.log" ||
		{ cat "$SCRATCH/pipefs-gen.log" >&2; fail "rpc-pipefs-generator failed on a Debian nfs.conf"; }
	pipefs_unit=$(systemd-escape --path --suffix=mount /run/rpc_pipefs)
	[ -f "$gen_out/$pipefs_unit" ] || fail "rpc-pipefs-generator wrote no $pipefs_unit"
	cp -a "$gen_out/." "$r/etc/systemd/system/"
	enable_units "$r" nfs-server.service nfs-client.target remote-fs.target
	check "$r" "Debian nfs.conf: multi-user.target, both enabled, pipefs at /run/rpc_pipefs" \
		nfs-server.service nfs-client.target nfs-idmapd.service "$pipefs_unit" -- multi-user.target
	! grep -qF "Installed new job $PIPEFS_MOUNT_UNIT/start" "$LAST_DEBUG" ||
		fail "Debian nfs.conf: the default $PIPEFS_MOUNT_UNIT is still mounted"
else
	fail "rpc-pipefs-generator is not installed in $GENERATORDIR"
fi

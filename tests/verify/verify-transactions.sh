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

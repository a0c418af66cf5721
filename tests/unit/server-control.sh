#!/bin/bash
# nfs-server-control start: the threads start with the tool the kernel
# allows; the first start of a boot leaves the announcement to
# rpc-statd-notify.service, every later one runs `sm-notify -f` so the
# NFSv3 clients reclaim their locks in the new grace period; a start that
# fails notifies nobody and fails.
#
# The configured helper is run as is, but for its paths of tools and of the
# marker (its variables at the top), which point into a scratch directory.
set -u
helper=$1
. "$(dirname "$0")/helper-test-lib.sh"

mkdir -p "$work/bin"
for tool in rpc.nfsd nfsdctl sm-notify genl-family-exists; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\nexit ${%s_STATUS:-0}\n' \
		"$tool" "$work" "$(echo "$tool" | tr -c 'a-z\n' _)" >"$work/bin/$tool"
	chmod 755 "$work/bin/$tool"
done
grep -q '^started=/run/nfs-systemd/server-started$' "$helper" ||
	{ echo "FAIL: $helper: no marker in /run (the variable this test replaces)"; exit 1; }
sed -e "s|^nfsdctl=.*|nfsdctl=$work/bin/nfsdctl|" \
	-e "s|^rpc_nfsd=.*|rpc_nfsd=$work/bin/rpc.nfsd|" \
	-e "s|^sm_notify=.*|sm_notify=$work/bin/sm-notify|" \
	-e "s|^started=.*|started=$work/run/nfs-systemd/server-started|" \
	-e "s|[^ ]*/genl-family-exists|$work/bin/genl-family-exists|" "$helper" >"$work/control"
run() { : >"$work/calls"; sh "$work/control" "$@" >"$work/out" 2>&1; status=$?; }

# A kernel without the netlink families (Debian 12 and 13): rpc.nfsd.
export genl_family_exists_STATUS=1
run start
expect '[ $status -eq 0 ]' "first start failed: $(cat "$work/out")"
expect '[ "$(cat "$work/calls")" = "$(printf "genl-family-exists nfsd lockd\nrpc.nfsd ")" ]' \
	"first start ran: $(cat "$work/calls")"
expect '[ -e "$work/run/nfs-systemd/server-started" ]' "first start left no marker"

run start
expect '[ $status -eq 0 ]' "second start failed: $(cat "$work/out")"
expect 'grep -qx "sm-notify -f" "$work/calls"' "a restart told no client: $(cat "$work/calls")"
expect '[ "$(tail -n1 "$work/calls")" = "sm-notify -f" ]' "sm-notify ran before the threads: $(cat "$work/calls")"

# sm-notify failing (a peer list it cannot read) is said, never fails the start.
sm_notify_STATUS=1 run start
expect '[ $status -eq 0 ]' "a failing sm-notify failed the start"
expect 'grep -q "may not reclaim" "$work/out"' "a failing sm-notify was not reported: $(cat "$work/out")"

# The threads fail: the start fails with rpc.nfsd's status, nobody is told.
rpc_nfsd_STATUS=3 run start
expect '[ $status -eq 3 ]' "a failing rpc.nfsd did not fail the start with its status"
expect '! grep -q sm-notify "$work/calls"' "clients were told of a server that did not start"

# Linux 6.15 and later with nfsdctl: nfsdctl autostart, and the same notification.
export genl_family_exists_STATUS=0
run start
expect 'grep -qx "nfsdctl autostart" "$work/calls" && ! grep -q rpc.nfsd "$work/calls"' \
	"nfsdctl path ran: $(cat "$work/calls")"
expect 'grep -qx "sm-notify -f" "$work/calls"' "nfsdctl restart told no client"
nfsdctl_STATUS=4 run start
expect '[ $status -eq 4 ] && ! grep -q sm-notify "$work/calls"' "a failing nfsdctl was not a failed start"

# A fresh boot (/run empty) again: no notification, marker made.
rm -rf "$work/run"
run start
expect '! grep -q sm-notify "$work/calls" && [ -e "$work/run/nfs-systemd/server-started" ]' \
	"the first start after a boot notified (rpc-statd-notify.service does that)"

# stop: the tool's own stop, no notification.
run stop
expect '[ "$(grep -v genl "$work/calls")" = "nfsdctl threads 0" ]' "stop ran: $(cat "$work/calls")"

finish

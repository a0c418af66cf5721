#!/bin/bash
# rpcbind-reregister restarts exactly the running NFS units whose programs a
# (re)started rpcbind does not list: statd for "status", the server when
# none of nfs, mountd and nlockmgr is left; nothing when the table is
# complete (a clean restart with -w), when rpcbind does not answer, or when
# rpcinfo is missing.
#
# The configured helper is run with its PATH line pointing at stubs of
# rpcinfo and systemctl.
set -u
helper=$1
. "$(dirname "$0")/helper-test-lib.sh"

mkdir -p "$work/bin"
cat >"$work/bin/rpcinfo" <<STUB
#!/bin/sh
[ -e "$work/rpcinfo.fails" ] && exit 1
cat "$work/table"
STUB
stub_systemctl
for t in awk sh cat grep printf timeout; do ln -s "$(command -v $t)" "$work/bin/$t"; done
chmod 755 "$work/bin/rpcinfo"
grep -q '^PATH=' "$helper" || { echo "FAIL: $helper sets no PATH (the line this test replaces)"; exit 1; }
sed "s|^PATH=.*|PATH=$work/bin|" "$helper" >"$work/reregister"

header='   program vers proto   port  service'
full="$header
    100000    4   tcp    111  portmapper
    100024    1   udp  37553  status
    100005    3   tcp  20048  mountd
    100003    3   tcp   2049  nfs
    100021    4   tcp  40031  nlockmgr"
empty="$header
    100000    4   tcp    111  portmapper
    100000    2   udp    111  portmapper"

case_() { # TABLE ACTIVE-UNITS: run, the systemctl calls in $work/calls
	printf '%s\n' "$1" >"$work/table"
	printf '%s\n' $2 >"$work/active"
	: >"$work/calls"
	"$work/bin/sh" "$work/reregister" >"$work/out" 2>&1
	status=$?
}

case_ "$empty" "rpc-statd.service nfs-server.service"
expect '[ $status -eq 0 ]' "empty table: exit $status"
expect '[ "$(cat "$work/calls")" = "$(printf "systemctl restart rpc-statd.service\nsystemctl --no-block try-restart nfs-server.service")" ]' \
	"empty table, statd and server running: statd restarted to the end first, then the server: $(cat "$work/calls")"
expect 'grep -q "restarting" "$work/out"' "the restart was not said in the journal"

case_ "$full" "rpc-statd.service nfs-server.service"
expect '[ ! -s "$work/calls" ]' "complete table: restarted $(cat "$work/calls")"

case_ "$empty" "rpc-statd.service"
expect '[ "$(cat "$work/calls")" = "systemctl restart rpc-statd.service" ]' \
	"a client (statd only): $(cat "$work/calls")"

case_ "$empty" ""
expect '[ ! -s "$work/calls" ]' "nothing running: restarted $(cat "$work/calls")"

# statd registered, the server's programs gone; one of them left is enough.
case_ "$header
    100024    1   udp  37553  status" "rpc-statd.service nfs-server.service"
expect '[ "$(cat "$work/calls")" = "systemctl --no-block try-restart nfs-server.service" ]' \
	"server programs gone: $(cat "$work/calls")"
case_ "$header
    100024    1   udp  37553  status
    100003    4   tcp   2049  nfs" "rpc-statd.service nfs-server.service"
expect '[ ! -s "$work/calls" ]' "an NFSv4-only server's nfs entry: restarted $(cat "$work/calls")"
# A program number is matched as a whole field, never as a prefix or a port.
case_ "$header
    1000240    1   udp  100024  status" "rpc-statd.service"
expect '[ -s "$work/calls" ]' "100024 matched inside another number"

touch "$work/rpcinfo.fails"
case_ "$empty" "rpc-statd.service nfs-server.service"
expect '[ $status -eq 0 ] && [ ! -s "$work/calls" ]' "rpcbind not answering: exit $status, $(cat "$work/calls")"
rm "$work/rpcinfo.fails" "$work/bin/rpcinfo"
case_ "$empty" "rpc-statd.service nfs-server.service"
expect '[ $status -eq 0 ] && [ ! -s "$work/calls" ]' "no rpcinfo: exit $status, $(cat "$work/calls")"

finish

#!/bin/bash
# nfs-keytab-changed starts the RPCSEC_GSS module and rpc.gssd when the keytab
# is there, rpc.svcgssd too where the server runs, and nothing when the keytab
# went away. The configured helper is run with its keytab and systemctl
# pointing into a scratch directory.
set -u
helper=$1
. "$(dirname "$0")/helper-test-lib.sh"
stub_systemctl
grep -q '^keytab=/etc/krb5.keytab$' "$helper" || { echo "FAIL: $helper: no keytab variable to replace"; exit 1; }
sed "s|^keytab=.*|keytab=$work/krb5.keytab|" "$helper" >"$work/changed"
run() { : >"$work/calls"; printf '%s\n' $1 >"$work/active"; PATH=$work/bin:$PATH sh "$work/changed" >"$work/out" 2>&1; status=$?; }

run ""
expect '[ $status -eq 0 ] && [ ! -s "$work/calls" ]' "no keytab: started $(cat "$work/calls")"
touch "$work/krb5.keytab"
run ""
expect '[ "$(cat "$work/calls")" = "systemctl --no-block start auth-rpcgss-module.service rpc-gssd.service" ]' \
	"a client: $(cat "$work/calls")"
run "nfs-server.service"
expect '[ "$(cat "$work/calls")" = "systemctl --no-block start auth-rpcgss-module.service rpc-gssd.service rpc-svcgssd.service" ]' \
	"a server: $(cat "$work/calls")"
expect 'grep -q "starting" "$work/out"' "nothing said in the journal"
finish

#!/bin/bash
# CI's boot tier (tests/boot/tier-ci) names only boots that exist: run-ci --list accepts
# it, lists every name it holds, and refuses a copy that names a boot nobody has.
set -u
top=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
if ! "$top/tests/boot/run-ci" --list "$tmp/b" >"$tmp/jobs" 2>&1; then
        echo "FAIL: run-ci --list refuses tests/boot/tier-ci:"; cat "$tmp/jobs"; fail=1
fi
while read -r where names; do
        for n in $names; do
                kind=single release=$where
                [[ $where == wire ]] && kind=wire release=trixie
                grep -q "^$kind $release $n " "$tmp/jobs" ||
                        { echo "FAIL: tier-ci names $where $n; run-ci --list has no such job"; fail=1; }
        done
done < <(grep -v '^#' "$top/tests/boot/tier-ci")
{ grep -v '^#' "$top/tests/boot/tier-ci"; echo "trixie no-such-boot"; } >"$tmp/bad-tier"
if NFS_BOOT_TIER_FILE=$tmp/bad-tier "$top/tests/boot/run-ci" --list "$tmp/b" >"$tmp/bad" 2>&1 ||
        ! grep -q "names trixie no-such-boot, which is not a boot there" "$tmp/bad"; then
        echo "FAIL: a tier naming trixie no-such-boot was not refused:"; cat "$tmp/bad"; fail=1
fi
n=$(grep -c -E "^(single|wire) " "$tmp/jobs")
[ $fail -eq 0 ] && echo "PASS: tier-ci is ${n} jobs of run-ci --list, all real boots; a made-up name is refused"
exit $fail

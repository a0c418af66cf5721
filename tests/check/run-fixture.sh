#!/bin/bash
# One fixture of nfs-systemd-check: run-fixture.sh CHECK FIXTURE_DIR
#
# FIXTURE_DIR/pos       a root that must produce exactly expected.txt (human)
#                       and expected.json (--json), with exit status `exit`
# FIXTURE_DIR/neg*      near-identical roots that must not produce any id
#                       listed in FIXTURE_DIR/id ("-": no negative roots)
#
# The expected files are written by hand from the specification of each
# finding, never copied from the program's output.
set -u
check=$1 dir=$2
. "$(dirname "$0")/test-lib.sh"

expected_status=$(cat "$dir/exit")

"$check" --root="$dir/pos" >"$work/human" 2>"$work/stderr"
status=$?
[ "$status" -eq "$expected_status" ] || fail "human output: exit status $status, expected $expected_status"
[ -s "$work/stderr" ] && fail "stderr not empty: $(cat "$work/stderr")"
diff -u "$dir/expected.txt" "$work/human" || fail "human output differs from expected.txt"

"$check" --root="$dir/pos" --json >"$work/json" 2>"$work/stderr"
status=$?
[ "$status" -eq "$expected_status" ] || fail "--json: exit status $status, expected $expected_status"
diff -u "$dir/expected.json" "$work/json" || fail "JSON output differs from expected.json"
if command -v python3 >/dev/null; then
        python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$work/json" ||
                fail "--json output is not valid JSON"
fi

"$check" --root="$dir/pos" --quiet >"$work/quiet" 2>&1
status=$?
[ "$status" -eq "$expected_status" ] || fail "--quiet: exit status $status, expected $expected_status"
[ -s "$work/quiet" ] && fail "--quiet printed something"

while read -r id; do
        [ "$id" = "-" ] && continue
        grep -q "\"id\":\"$id\"" "$work/json" || fail "pos does not report $id"
        for neg in "$dir"/neg*; do
                [ -d "$neg" ] || continue
                "$check" --root="$neg" --json >"$work/neg" 2>"$work/stderr"
                status=$?
                [ "$status" -le 2 ] || fail "$(basename "$neg"): exit status $status: $(cat "$work/stderr")"
                if grep -q "\"id\":\"$id\"" "$work/neg"; then
                        fail "$(basename "$neg") reports $id:"
                        cat "$work/neg"
                fi
        done
done <"$dir/id"

# a fixture is named after the finding it tests: its id, or its id and a
# variant ("-" fixtures test no one finding)
name=$(basename "$dir")
named=false
while read -r id; do
        [ "$id" = "-" ] && named=true
        case "$name" in "$id" | "$id"-*) named=true ;; esac
done <"$dir/id"
$named || fail "fixture $name is not named after a finding it tests ($(tr '\n' ' ' <"$dir/id"))"

[ "$failures" -eq 0 ] || exit 1
echo "ok: $(basename "$dir")"

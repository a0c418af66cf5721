#!/bin/bash
# help.sh PROGRAM OPTION...: PROGRAM --help exits 0, writes nothing to
# stderr, and its help names the program on a usage line and documents every
# OPTION given (each on a line of its own, with text after it); a usage
# error exits non-zero and says where to look. Fails on an empty help.
set -u
program=$1
shift
name=$(basename "$program")
. "$(dirname "$0")/test-lib.sh"

"$program" --help >"$work/out" 2>"$work/err"
status=$?
[ "$status" -eq 0 ] || fail "--help: exit status $status"
[ -s "$work/err" ] && fail "--help wrote to stderr: $(cat "$work/err")"
head -n1 "$work/out" | grep -q "^Usage: $name " || fail "--help does not start with \"Usage: $name \": $(head -n1 "$work/out")"
for option in "$@" --help --version; do
        grep -qE "^  $option +[a-z]" "$work/out" || fail "--help does not document $option"
done

"$program" --no-such-option >/dev/null 2>"$work/err"
status=$?
[ "$status" -ne 0 ] || fail "--no-such-option: exit status 0"
grep -q "^Usage: $name " "$work/err" || fail "a usage error does not show the usage on stderr"

if [ "$failures" -gt 0 ]; then
        echo "help was:"
        cat "$work/out"
        exit 1
fi
echo "ok: $name --help documents $* --help --version"

#!/bin/bash
# systemd reads back the sysroot.mount that nfsroot-generator writes, for
# every case of tests/golden/nfsroot-intended: the generator runs on the
# case's root, the unit goes into a scratch root with this project's units,
# and `systemd-analyze verify sysroot.mount` must
#   - pass, with no ordering cycle and no complaint about the unit;
#   - show in its dump the What=, type and options written by hand in
#     nfsroot-intended (so a specifier or escape the generator got wrong
#     reaches mount(8) as something else, and fails here).
source "$(dirname "$0")/../verify/lib.sh"

GENERATOR=$1
here=$(cd "$(dirname "$0")" && pwd)
passed=0 failed=0
bad() { echo "FAIL $1: $2"; failed=$((failed + 1)); }

while IFS='|' read -r name what type options; do
	case $name in '' | '#'*) continue ;; esac
	case_dir=$here/nfsroot/$name
	[ -d "$case_dir" ] || { bad "$name" "no such golden case"; continue; }
	root=$SCRATCH/root-$name out=$SCRATCH/out-$name
	make_root "$root"
	mkdir -p "$out"
	"$GENERATOR" --root="$case_dir/root" "$out" 2>/dev/null
	if [ ! -f "$out/sysroot.mount" ]; then
		bad "$name" "the generator wrote no sysroot.mount"
		continue
	fi
	cp "$out/sysroot.mount" "$root/etc/systemd/system/"
	log=$SCRATCH/dump-$name
	if ! dump "$root" "$log" sysroot.mount; then
		bad "$name" "systemd-analyze verify failed: $(grep -v '^[[:space:]]' "$log" | grep -i 'sysroot\|fail' | head -3)"
		continue
	fi
	errors=$(grep -iE 'ordering cycle|sysroot\.mount:[0-9]+: ' "$log" | head -3 || true)
	[ -z "$errors" ] || { bad "$name" "systemd complained: $errors"; continue; }
	got_what=$(sed -n 's/^\t\tWhat: //p' "$log" | head -1)
	got_type=$(sed -n 's/^\t\tFile System Type: //p' "$log" | head -1)
	got_options=$(sed -n 's/^\t\tOptions: //p' "$log" | head -1)
	if [ "$got_what|$got_type|$got_options" != "$what|$type|$options" ]; then
		bad "$name" "systemd read What=$got_what type=$got_type Options=$got_options; intended $what, $type, $options"
		continue
	fi
	passed=$((passed + 1))
done <"$here/nfsroot-intended"

echo "$passed read back as intended, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]

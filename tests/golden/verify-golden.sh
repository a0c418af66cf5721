#!/bin/bash
# systemd reads back what nfs-server-generator wrote, for every golden case
# that has an `intended-paths` file (the paths, one per line, C-escaped,
# written by hand): the unit set is installed into a scratch root, the case's
# fstab becomes mount units through systemd-fstab-generator, the drop-in goes
# to /etc/systemd/system (verify does not read generator directories), and
#   - `systemd-analyze verify nfs-server.service` passes with no ordering cycle
#     and no complaint about the drop-in;
#   - the RequiresMountsFor: paths in its dependency dump are the intended ones.
source "$(dirname "$0")/../verify/lib.sh"

GENERATOR=$1
CASES=$(cd "$(dirname "$0")" && pwd)/nfs-server
fstabgen=/lib/systemd/system-generators/systemd-fstab-generator
[ -x "$fstabgen" ] || fstabgen=/usr/lib/systemd/system-generators/systemd-fstab-generator
[ -x "$fstabgen" ] || fail "systemd-fstab-generator is not installed"

passed=0 failed=0
for case_dir in "$CASES"/*/; do
	name=$(basename "$case_dir")
	[ -f "$case_dir/intended-paths" ] || continue
	root="$SCRATCH/root-$name"
	make_root "$root"
	out="$SCRATCH/out-$name"
	mkdir -p "$out"
	if [ -f "$case_dir/root/etc/fstab" ]; then
		# a duplicate mount point makes it fail after writing the first
		# line's unit (case fstab-duplicate): that is the rule we follow
		if ! SYSTEMD_FSTAB="$case_dir/root/etc/fstab" SYSTEMD_LOG_LEVEL=err "$fstabgen" "$out" "$out" "$out" \
			2>"$SCRATCH/fstabgen-$name"; then
			if grep -qv "as it already exists. Duplicate entry in" "$SCRATCH/fstabgen-$name"; then
				cat "$SCRATCH/fstabgen-$name" >&2
				exit 1
			fi
		fi
	fi
	"$GENERATOR" --root="$case_dir/root" "$out" 2>/dev/null
	cp -a "$out/." "$root/etc/systemd/system/"
	log="$SCRATCH/dump-$name"
	dump "$root" "$log" nfs-server.service || true
	problems=""
	grep -qiE 'ordering cycle|found.*cycle' "$log" && problems+="ordering cycle; "
	grep -E 'order-with-mounts.conf' "$log" | grep -viE 'Loading|Parsing|drop-in|DropIn Path' >"$SCRATCH/complaints-$name" || true
	[ -s "$SCRATCH/complaints-$name" ] && problems+="complaints about the drop-in: $(cat "$SCRATCH/complaints-$name"); "
	if ! python3 - "$log" "$case_dir/intended-paths" <<-'PY'
		import sys, codecs
		dump = open(sys.argv[1], "rb").read().split(b"\n")
		# the dump of nfs-server.service itself: from its header to the next unit
		got, inside = set(), False
		for line in dump:
		    # "->" (lib.sh's dump asks for ASCII), or systemd 257's UTF-8 arrow
		    if line.startswith((b"\t-> Unit ", "\t\u2192 Unit ".encode())):
		        inside = line.strip().endswith(b" Unit nfs-server.service:")
		    elif inside and line.startswith(b"\t\tRequiresMountsFor: "):
		        got.add(line[len(b"\t\tRequiresMountsFor: "):].rsplit(b" (", 1)[0])
		want = set()
		for line in open(sys.argv[2], "rb").read().split(b"\n"):
		    if line:
		        want.add(codecs.escape_decode(line)[0])
		if got != want:
		    print("RequiresMountsFor: got", sorted(got), "intended", sorted(want))
		    sys.exit(1)
	PY
	then problems+="RequiresMountsFor differs; "; fi
	if [ -n "$problems" ]; then
		echo "FAIL $name: $problems"
		failed=$((failed + 1))
	else
		echo "ok   $name"
		passed=$((passed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]

#!/bin/bash
# `systemd-analyze verify` on every installed unit: no warning, no
# unknown directive, no missing executable.  Any output at all fails:
# systemd-analyze verify prints nothing for a clean unit.
. "$(dirname "$0")/lib.sh"

root="$SCRATCH/root"
make_root "$root"
mapfile -t units < <(our_units)
[ "${#units[@]}" -ge 15 ] || fail "only ${#units[@]} units installed: ${units[*]}"

status=0
verify "$root" "$SCRATCH/out" "${units[@]}" || status=$?
if [ "$status" -ne 0 ] || [ -s "$SCRATCH/out" ]; then
	cat "$SCRATCH/out" >&2
	fail "systemd-analyze verify (exit $status) reported the output above for: ${units[*]}"
fi
printf 'verified %d units: %s\n' "${#units[@]}" "${units[*]}"

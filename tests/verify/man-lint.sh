#!/bin/bash
# Every man page in man/ is clean under `mandoc -T lint` (all message
# levels, style included) and is installed by `meson install` to
# MANDIR/manN.
. "$(dirname "$0")/lib.sh"
need_tool mandoc

mandir_src="$SOURCE_ROOT/man"
shopt -s nullglob
pages=("$mandir_src"/*.[1-9])
[ "${#pages[@]}" -gt 0 ] || fail "no man pages in $mandir_src"

failed=0
for page in "${pages[@]}"; do
	status=0
	out=$(mandoc -T lint -W all "$page" 2>&1) || status=$?
	if [ "$status" -ne 0 ] || [ -n "$out" ]; then
		printf '%s\n' "$out" >&2
		printf 'FAIL: %s: mandoc -T lint exited %d\n' "${page##*/}" "$status" >&2
		failed=1
		continue
	fi
	# It must also render: mandoc -T ascii gives the text man -l shows.
	mandoc -T ascii "$page" >/dev/null 2>&1 || { echo "FAIL: ${page##*/} does not render" >&2; failed=1; }
	echo "ok: ${page##*/}"
done

install_project "$SCRATCH/destdir"
for page in "${pages[@]}"; do
	name=${page##*/}
	section=${name##*.}
	found=$(find "$SCRATCH/destdir" -path "*/man/man$section/$name" -print -quit)
	[ -n "$found" ] || { echo "FAIL: $name is not installed to a man$section directory (add it to man/meson.build)" >&2; failed=1; }
done
[ "$failed" -eq 0 ] || exit 1

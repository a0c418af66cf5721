#!/bin/bash
# The format check: every C file of the repository, as git tracks it, against the one
# .clang-format (systemd's layout). Fails on any difference and names the lines; skipped
# (exit 77) only where clang-format is not installed (the roots of other releases).
set -uo pipefail
top=${1:?usage: check.sh SOURCE_ROOT}
command -v clang-format >/dev/null || { echo "SKIP: clang-format is not installed"; exit 77; }
cd "$top" || exit 1
mapfile -t files < <(git ls-files '*.c' '*.h' 2>/dev/null || find src tests -name '*.[ch]')
((${#files[@]} > 0)) || { echo "FAIL: no C file found to check"; exit 1; }
if ! clang-format --dry-run --Werror "${files[@]}"; then
	echo "FAIL: the files above differ from .clang-format (fix: clang-format -i FILE)"
	exit 1
fi
echo "${#files[@]} files formatted as .clang-format says ($(clang-format --version))"

# shellcheck shell=bash
# Sourced by the tests of the units' shell helpers (server-control.sh,
# rpcbind-reregister.sh, keytab-changed.sh): a scratch directory $work,
# expect/finish for the checks, and a systemctl stub.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0 checks=0

# expect SHELL-CONDITION MESSAGE: one check; the message is printed when it fails.
expect() {
	checks=$((checks + 1))
	if ! eval "$1"; then echo "FAIL: $2"; failures=$((failures + 1)); fi
}

# finish: the count line, and the exit status of the test.
finish() {
	echo "$checks checks, $failures failed"
	[ "$failures" -eq 0 ]
}

# stub_systemctl: $work/bin/systemctl answers `--quiet is-active UNIT` from the unit
# names listed in $work/active and appends every other call to $work/calls.
stub_systemctl() {
	mkdir -p "$work/bin"
	cat >"$work/bin/systemctl" <<STUB
#!/bin/sh
if [ "\$1" = --quiet ] && [ "\$2" = is-active ]; then grep -qx "\$3" "$work/active"; exit; fi
echo "systemctl \$*" >>"$work/calls"
STUB
	chmod 755 "$work/bin/systemctl"
}

#!/bin/bash
# Text from the configuration in every output sink: file names (of
# exports.d and nfs.conf.d files, and include= targets) with a newline, a
# carriage return and a terminal escape, and the values that name paths. A
# newline printed raw into a comment of a unit file starts a directive of its
# own (systemd applied "Options=remount,ro" this way); printed raw into a log
# line or --explain it forges lines. Every sink must show such text escaped:
#   unit files     each line is a comment, blank, a [section] or one of the
#                  directives we write
#   --explain      the same
#   log (stderr)   each line starts with the program's name
#   the checker    each line starts with a severity, "  fix:" or the summary;
#                  --json is valid JSON
# Usage: hostile-names.sh NFS_SERVER_GENERATOR RPC_PIPEFS_GENERATOR CHECKER
set -uo pipefail
server_gen=$1 pipefs_gen=$2 checker=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

nl=$'\n' cr=$'\r' esc=$'\e'
root=$tmp/root
mkdir -p "$root/etc/exports.d" "$root/etc/nfs.conf.d"
# exports.d: a file whose name carries directives, with a bad line so that
# its name is printed in a diagnostic, and a good line for --explain
printf '/srv/a *(rw)\n' >"$root/etc/exports"
printf '/srv/b *(rw,bogus)\n/srv/c "unterminated\n' >"$root/etc/exports.d/x${nl}[Service]${nl}ExecStart=INJECTED${cr}${esc}[2J.exports"
# nfs.conf.d: a name that once became "Options=remount,ro" in the mount unit
printf '[general]\npipefs-directory=/run/pipefs\n' >"$root/etc/nfs.conf.d/p${nl}[Mount]${nl}Options=remount,ro,INJECTED${nl}.conf"
# include= of a file that is missing, named with a carriage return and ESC
printf '[general]\ninclude=/etc/INJECTED%s%s[2Jmissing\nbogus line\n' "$cr" "$esc" >"$root/etc/nfs.conf"
printf '/dev/sdb1 /srv/a ext4 defaults 0 2\n' >"$root/etc/fstab"
# pipefs-directory ending in a backslash continued Where= onto the next line
root2=$tmp/root2
mkdir -p "$root2/etc"
printf '[general]\npipefs-directory=/run/pipe\\\n' >"$root2/etc/nfs.conf"

# Lines of a unit file (or --explain) we may write
unit_line_ok() {
	case $1 in
	'' | '#'* | '['*']') return 0 ;;
	RequiresMountsFor=* | Requires=* | After=* | Before=* | Description=* | Documentation=*) return 0 ;;
	DefaultDependencies=* | Conflicts=* | What=* | Where=* | Type=*) return 0 ;;
	esac
	return 1
}

check_unit_text() { # name file
	local bad=0 line
	while IFS= read -r line || [ -n "$line" ]; do
		unit_line_ok "$line" || { fail "$1: line not written by us: $(printf '%q' "$line")"; bad=1; break; }
		case $line in
		*"$cr"* | *"$esc"*) fail "$1: raw control byte in $(printf '%q' "$line")"; bad=1; break ;;
		Where=* | What=* | RequiresMountsFor=*)
			case $line in *'\') fail "$1: line ends in a backslash: $line"; bad=1; break ;; esac ;;
		esac
	done <"$2"
	[ $bad -eq 0 ] && ok "$1"
}

check_log_text() { # name file prefix...
	local name=$1 file=$2 bad=0 line p match
	shift 2
	while IFS= read -r line || [ -n "$line" ]; do
		match=0
		for p in "$@"; do
			case $line in "$p"*) match=1 ;; esac
		done
		[ $match -eq 1 ] || { fail "$name: forged line $(printf '%q' "$line")"; bad=1; break; }
		case $line in *"$cr"* | *"$esc"*) fail "$name: raw control byte in $(printf '%q' "$line")"; bad=1; break ;; esac
	done <"$file"
	[ $bad -eq 0 ] && ok "$name"
}

# Proves the checks can fail: a raw name is caught.
printf '# from %s\n' "p${nl}[Mount]${nl}Options=remount,ro" >"$tmp/control"
control_out=$(check_unit_text control "$tmp/control")
if [[ $control_out == FAIL* ]]; then ok "control: a raw file name in a comment is caught"; else fail "control: not caught"; fi

for r in "$root" "$root2"; do
	for gen in "$server_gen" "$pipefs_gen"; do
		g=$(basename "$gen")
		rm -rf "$tmp/out"
		"$gen" --root="$r" "$tmp/out" 2>"$tmp/log"
		status=$?
		[ $status -eq 0 ] && ok "$g $(basename "$r"): exit 0" || fail "$g $(basename "$r"): exit $status"
		check_log_text "$g $(basename "$r"): log lines" "$tmp/log" "$g: "
		while IFS= read -r -d '' f; do
			check_unit_text "$g $(basename "$r"): unit ${f#"$tmp/out/"}" "$f"
		done < <(find "$tmp/out" -type f -print0 2>/dev/null)
		"$gen" --root="$r" --explain >"$tmp/explain" 2>"$tmp/log"
		check_unit_text "$g $(basename "$r"): --explain" "$tmp/explain"
		check_log_text "$g $(basename "$r"): --explain log lines" "$tmp/log" "$g: "
	done
	"$checker" --root="$r" >"$tmp/human" 2>&1
	check_log_text "checker $(basename "$r"): human output" "$tmp/human" "error " "warning " "note " "  fix: " "No problems" \
		"0 errors" "1 error" "2 errors" "3 errors" "4 errors" "5 errors"
	"$checker" --root="$r" --json >"$tmp/json" 2>/dev/null
	if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/json"; then ok "checker $(basename "$r"): --json is valid JSON"; else fail "checker $(basename "$r"): --json invalid"; fi
done

# The names did reach the sinks (else the checks above prove nothing)
"$server_gen" --root="$root" --explain >"$tmp/explain" 2>"$tmp/log"
grep -q 'x\\x0a\[Service\]\\x0aExecStart=INJECTED\\x0d\\x1b\[2J.exports' "$tmp/explain" "$tmp/log" &&
	ok "the exports.d name is shown, escaped" || fail "the exports.d name is not shown escaped"
"$pipefs_gen" --root="$root" --explain >"$tmp/explain" 2>"$tmp/log"
grep -q 'p\\x0a\[Mount\]\\x0aOptions=remount,ro,INJECTED\\x0a.conf' "$tmp/explain" &&
	ok "the nfs.conf.d name is shown in the mount unit, escaped" || fail "the nfs.conf.d name is not shown escaped"
grep -q 'INJECTED\\x0d\\x1b\[2Jmissing' "$tmp/log" &&
	ok "the include= name is shown in the log, escaped" || fail "the include= name is not shown escaped"
"$pipefs_gen" --root="$root2" "$tmp/out2" 2>"$tmp/log"
grep -q 'pipefs-directory=/run/pipe\\x5c cannot be written in a unit file' "$tmp/log" && [ ! -e "$tmp/out2" ] &&
	ok "pipefs-directory ending in a backslash: refused, nothing written" || fail "pipefs-directory ending in a backslash: $(cat "$tmp/log")"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]

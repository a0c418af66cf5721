#!/bin/bash
# Every kind of file that is not a regular file, in place of every
# configuration file the tools read: both generators and the checker must
# finish at once (a FIFO used to hang all three), a generator must exit 0,
# and the file must be named in a message that says what is wrong.
# Usage: hostile-files.sh NFS_SERVER_GENERATOR RPC_PIPEFS_GENERATOR CHECKER
set -uo pipefail
server_gen=$1 pipefs_gen=$2 checker=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 skipped=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

# make_node KIND PATH: a file of that kind; returns 1 when it cannot be made
make_node() {
	case $1 in
	fifo) mkfifo "$2" ;;
	socket) python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$2" ;;
	directory) mkdir "$2" ;;
	chardev) [ "$(id -u)" -eq 0 ] && mknod "$2" c 1 3 2>/dev/null ;; # like /dev/null
	esac
}

# A root where everything is well-formed except FILE, which is a KIND.
make_root() { # root file kind
	local root=$1 file=$2 kind=$3
	mkdir -p "$root/etc/exports.d" "$root/etc/nfs.conf.d" "$root/etc/systemd/system"
	printf '/srv/a *(rw)\n' >"$root/etc/exports"
	printf '/dev/sdb1 /srv/a ext4 defaults 0 2\n' >"$root/etc/fstab"
	printf '[general]\npipefs-directory=/run/pipefs\ninclude=/etc/nfs-extra.conf\n' >"$root/etc/nfs.conf"
	printf '[nfsd]\nthreads=8\n' >"$root/etc/nfs-extra.conf"
	rm -f "$root$file"
	make_node "$kind" "$root$file"
}

# The message a tool must print about FILE of KIND (or, for the entries of
# a .d directory, nothing: those are skipped like any file that is not one).
expect_for() { # kind
	case $1 in
	directory) echo "is a directory, not a regular file" ;;
	*) echo "is not a regular file" ;;
	esac
}

# Proves the limit works at all: a FIFO with no writer blocks a plain read.
mkfifo "$tmp/probe"
timeout 2 cat "$tmp/probe" >/dev/null 2>&1
if [ $? -eq 124 ]; then ok "control: reading a FIFO without a writer blocks (so the checks below can fail)"; else fail "control: a FIFO read did not block"; fi

for file in /etc/exports /etc/fstab /etc/nfs.conf /etc/nfs-extra.conf /etc/exports.d/x.exports /etc/nfs.conf.d/x.conf \
	/etc/systemd/system/mnt-x.mount; do
	for kind in fifo socket directory chardev; do
		root="$tmp/root-${file//\//_}-$kind"
		if ! make_root "$root" "$file" "$kind"; then
			echo "skipped $kind as $file: cannot make one here (needs root)"
			skipped=$((skipped + 1))
			continue
		fi
		want=$(expect_for "$kind")
		for tool in server pipefs check; do
			case $tool in
			server) cmd=("$server_gen" --root="$root" "$tmp/out-$tool") ;;
			pipefs) cmd=("$pipefs_gen" --root="$root" "$tmp/out-$tool") ;;
			check) cmd=("$checker" --root="$root") ;;
			esac
			case $tool:$file in
			pipefs:/etc/exports | pipefs:/etc/exports.d/* | pipefs:/etc/systemd/system/*) continue ;; # not read by it
			esac
			rm -rf "$tmp/out-$tool"
			timeout 10 "${cmd[@]}" >"$tmp/stdout" 2>"$tmp/stderr"
			status=$?
			name="$tool: $kind as $file"
			if [ $status -eq 124 ]; then
				fail "$name: hangs"
				continue
			fi
			if [ "$tool" != check ] && [ $status -ne 0 ]; then
				fail "$name: exit status $status, want 0"
				continue
			fi
			case $kind:$file in
			chardev:/etc/systemd/system/*)
				# a device node in place of a unit masks it, as in systemd
				ok "$name: finishes, exit $status (a masked unit)"
				continue
				;;
			esac
			case $file in
			/etc/exports.d/* | /etc/nfs.conf.d/*)
				# directory entries that are not regular files are not read
				ok "$name: finishes, exit $status"
				continue
				;;
			esac
			if grep -qF "$file" "$tmp/stdout" "$tmp/stderr" && grep -qF "$want" "$tmp/stdout" "$tmp/stderr"; then
				ok "$name: finishes, names the file: $want"
			else
				fail "$name: no message naming $file with \"$want\""
				cat "$tmp/stderr" "$tmp/stdout" | head -5 | sed 's/^/     /'
			fi
		done
	done
done

# Size limit: a sparse file just over the limit is refused, fast, by name.
root="$tmp/root-big"
make_root "$root" /etc/exports fifo && rm "$root/etc/exports"
truncate -s 65M "$root/etc/exports"
start=$(date +%s)
timeout 10 "$server_gen" --root="$root" "$tmp/out-big" 2>"$tmp/stderr"
status=$?
if [ $status -eq 0 ] && grep -qF "/etc/exports: cannot be read: is larger than the limit of 64 MiB" "$tmp/stderr" &&
	[ $(($(date +%s) - start)) -le 2 ]; then
	ok "65 MiB /etc/exports: refused at once, by name"
else
	fail "65 MiB /etc/exports: status $status, $(head -c 300 "$tmp/stderr")"
fi

# --root= with an empty value is a usage error, not the host
for tool in "$server_gen" "$pipefs_gen" "$checker"; do
	if [ "$tool" = "$checker" ]; then "$tool" --root= >/dev/null 2>"$tmp/stderr"; else "$tool" --root= "$tmp/out-empty" 2>"$tmp/stderr"; fi
	status=$?
	if [ $status -ne 0 ] && grep -q -- "--root= needs a directory" "$tmp/stderr" && [ ! -e "$tmp/out-empty" ]; then
		ok "$(basename "$tool") --root=: usage error"
	else
		fail "$(basename "$tool") --root=: status $status, $(cat "$tmp/stderr")"
	fi
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]

#!/bin/bash
# keep-statd-monitors copies statd's records (sm/) into sm.bak/ with their
# owner, mode and bytes, in the state directory nfs.conf names or the
# default; it follows no link out of sm/, keeps nothing that is not a
# regular file, leaves sm/ as it was, and does nothing where there is no sm/.
set -u
helper=$1 default=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0 checks=0
ok() { checks=$((checks + 1)); }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); checks=$((checks + 1)); }
expect() { if eval "$1"; then ok; else fail "$2"; fi; }

# 1: nfs.conf moves the state directory; records of two peers, one a name
# with a space and a byte above 127, a link to a file outside, a FIFO, a
# dot file (statd's own temporary) and an old sm.bak entry of a third peer.
r=$work/r1
mkdir -p "$r/etc" "$r/srv/statd/sm" "$r/srv/statd/sm.bak" "$work/outside"
printf '[statd]\nstate-directory-path = /srv/statd\n' >"$r/etc/nfs.conf"
printf '0100007f 000186b5 00000003 00000010 aa host-a\n' >"$r/srv/statd/sm/host-a"
printf 'record b\n' >"$r/srv/statd/sm/host b$(printf '\351')"
chmod 0640 "$r/srv/statd/sm/host-a"
chown 1:1 "$r/srv/statd/sm/host-a"
echo secret >"$work/outside/file"
ln -s "$work/outside/file" "$r/srv/statd/sm/link"
mkfifo "$r/srv/statd/sm/fifo"
echo tmp >"$r/srv/statd/sm/.tmp"
echo old >"$r/srv/statd/sm.bak/host-c"
before=$(cd "$r/srv/statd/sm" && ls -la --time-style=+ . | sha256sum)
"$helper" --root="$r" >"$work/out1" 2>&1
rc=$?
expect '[ $rc -eq 1 ]' "run 1: exit $rc, want 1 (the link and the FIFO are not kept and said so)"
expect 'cmp -s "$r/srv/statd/sm/host-a" "$r/srv/statd/sm.bak/host-a"' "run 1: host-a not kept byte for byte"
expect '[ "$(stat -c %a:%u:%g "$r/srv/statd/sm.bak/host-a")" = 640:1:1 ]' \
	"run 1: host-a kept with mode/owner $(stat -c %a:%u:%g "$r/srv/statd/sm.bak/host-a" 2>&1), want 640:1:1"
expect 'cmp -s "$r/srv/statd/sm/host b"$'"'"'\351'"'"' "$r/srv/statd/sm.bak/host b"$'"'"'\351'"'"'' "run 1: the odd name not kept"
expect '[ ! -e "$r/srv/statd/sm.bak/link" ] && [ ! -e "$r/srv/statd/sm.bak/fifo" ]' "run 1: a link or FIFO was kept"
expect '[ ! -e "$r/srv/statd/sm.bak/.tmp" ]' "run 1: a dot file was kept"
expect '[ -z "$(ls -A "$r/srv/statd/sm.bak" | grep keep-statd-monitors)" ]' "run 1: a temporary file was left"
expect '[ "$(cat "$r/srv/statd/sm.bak/host-c")" = old ]' "run 1: an older sm.bak record was lost"
expect '[ "$(cd "$r/srv/statd/sm" && ls -la --time-style=+ . | sha256sum)" = "$before" ]' "run 1: sm/ changed"
expect 'grep -q "sm/link: .*not kept\|sm/link: cannot be read" "$work/out1"' "run 1: the link is not named: $(cat "$work/out1")"
expect '! grep -q secret "$r/srv/statd/sm.bak/"* 2>/dev/null' "run 1: the link's target was copied"

# 2: no nfs.conf: the default state directory; sm.bak is missing and is
# created with sm's owner and mode.
r=$work/r2
mkdir -p "$r$default/sm"
chmod 0700 "$r$default/sm"
chown 2:2 "$r$default/sm"
echo peer >"$r$default/sm/peer"
"$helper" --root="$r" >"$work/out2" 2>&1
rc=$?
expect '[ $rc -eq 0 ]' "run 2: exit $rc: $(cat "$work/out2")"
expect '[ "$(cat "$r$default/sm.bak/peer" 2>/dev/null)" = peer ]' "run 2: not kept in $default/sm.bak"
expect '[ "$(stat -c %a:%u:%g "$r$default/sm.bak")" = 700:2:2 ]' "run 2: sm.bak made as $(stat -c %a:%u:%g "$r$default/sm.bak" 2>&1)"

# 3: no state directory at all (statd never ran): nothing to do, exit 0.
mkdir -p "$work/r3/etc"
"$helper" --root="$work/r3" >"$work/out3" 2>&1
rc=$?
expect '[ $rc -eq 0 ] && [ ! -e "$work/r3$default" ]' "run 3: exit $rc or a directory made: $(cat "$work/out3")"

# 5: names of 1 to 250 bytes (statd's limit) are all kept; a temporary
# name built from the record's name passed NAME_MAX from 235 bytes on.
r=$work/r5
mkdir -p "$r$default/sm" "$r$default/sm.bak"
for n in 1 2 100 234 235 240 249 250; do
	name=$(head -c "$n" /dev/zero | tr '\0' x)
	echo "record $n" >"$r$default/sm/$name"
done
"$helper" --root="$r" >"$work/out5" 2>&1
rc=$?
expect '[ $rc -eq 0 ]' "run 5: exit $rc: $(cat "$work/out5")"
for n in 1 2 100 234 235 240 249 250; do
	name=$(head -c "$n" /dev/zero | tr '\0' x)
	expect '[ "$(cat "$r$default/sm.bak/$name" 2>/dev/null)" = "record $n" ]' "run 5: the record of a $n-byte name was not kept"
done
expect '[ -z "$(ls -A "$r$default/sm.bak" | grep keep-statd-monitors)" ]' "run 5: a temporary file was left"

# 6: sm.bak that is a link to a directory elsewhere is not followed.
r=$work/r6
mkdir -p "$r$default/sm" "$work/elsewhere"
echo peer >"$r$default/sm/peer"
ln -s "$work/elsewhere" "$r$default/sm.bak"
"$helper" --root="$r" >"$work/out6" 2>&1
rc=$?
expect '[ $rc -ne 0 ] && [ ! -e "$work/elsewhere/peer" ]' "run 6: exit $rc, or the link was followed"

# 4: a usage error is one.
"$helper" extra >/dev/null 2>&1
rc=$?
expect '[ $rc -eq 2 ]' "run 4: an extra argument exited $rc, want 2"

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ] && [ "$checks" -gt 0 ]

#!/bin/bash
# --root reads only below the root: links whose targets are real absolute
# paths of this host (files that exist there, full of findings) must resolve
# inside the root, where they lead nowhere. A control run with the same tree
# copied into the root proves that the test would see those files if read.
set -u
check=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
outside=$work/outside root=$work/root failures=0

fail() {
        echo "FAIL: $*"
        failures=$((failures + 1))
}

mkdir -p "$outside/exports.d" "$outside/units/multi-user.target.wants" "$root/etc/systemd"
echo "/srv/outside *(bogus_outside)" >"$outside/exports"
echo "/srv/outside2 *(bogus_outside_d)" >"$outside/exports.d/a.exports"
echo "localhost:/srv/outside /mnt/outside nfs defaults 0 0" >"$outside/fstab"
printf '[general]\npipefs-directory=/srv/outside-pipes\n' >"$outside/nfs.conf"
echo "tmpfs /srv/outside-pipes tmpfs defaults 0 0" >>"$outside/fstab"
ln -s /lib/systemd/system/nfs-server.service "$outside/units/multi-user.target.wants/nfs-server.service"
ln -s /dev/null "$outside/units/rpc-statd.service"

ln -s "$outside/exports" "$root/etc/exports"
ln -s "$outside/exports.d" "$root/etc/exports.d"
ln -s "$outside/fstab" "$root/etc/fstab"
ln -s "$outside/nfs.conf" "$root/etc/nfs.conf"
ln -s "$outside/units" "$root/etc/systemd/system"

"$check" --root="$root" --json >"$work/out" 2>"$work/err"
status=$?
[ "$status" -eq 0 ] || fail "exit status $status (expected 0: nothing inside the root)"
[ "$(cat "$work/out")" = "[]" ] || fail "found something outside the root: $(cat "$work/out")"
grep -q outside "$work/err" && fail "stderr mentions the outside: $(cat "$work/err")"

# control: the same files inside the root are found
mkdir -p "$root/$(dirname "$outside")"
cp -a "$outside" "$root/$outside"
"$check" --root="$root" --json >"$work/out" 2>"$work/err"
for id in exports-malformed pipefs-directory-unusable rpc-statd-masked-nfsv3-on; do
        grep -q "\"id\":\"$id\"" "$work/out" || fail "control run misses $id: $(cat "$work/out")"
done
grep -q "bogus_outside_d" "$work/out" || fail "control run misses exports.d"
# the server is enabled inside the root now, so the loopback mount is fine,
# unless the unit links were not read: then it is reported
if grep -q '"id":"loopback-mount-without-server"' "$work/out"; then
        fail "control run did not see the enabled server through /etc/systemd/system"
fi

[ "$failures" -eq 0 ] || exit 1
echo "ok: root-escape"

#!/bin/bash
# A .mount unit whose Options= is one line continued over and over is read in
# linear time (it was quadratic: 300 KB took the generator 30 s, and near
# 600 KB it passed systemd's generator timeout). Measured by instructions
# executed (callgrind), which other load on the machine does not change: a
# unit 4x the size must cost less than 6x the instructions (linear: about 4x;
# the quadratic reader: about 16x). usage: continuation-linear.sh GENERATOR
set -uo pipefail
gen=$1
if ! valgrind --tool=callgrind --callgrind-out-file=/dev/null /bin/true >/dev/null 2>&1; then
        echo "skipped: valgrind (callgrind) does not run here"
        exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# instructions of one generator run on a unit of $1 continuation lines
count() {
        local root=$tmp/root$1 n=$1
        mkdir -p "$root/etc/systemd/system" "$tmp/out$1"
        echo "/srv/x *(ro)" >"$root/etc/exports"
        {
                printf '[Mount]\nWhat=srv:/x\nWhere=/mnt/x\nType=nfs\nOptions=ro\\\n'
                for ((i = 0; i < n; i++)); do printf ',x-opt%06d\\\n' "$i"; done
                printf ',_netdev\n'
        } >"$root/etc/systemd/system/mnt-x.mount"
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$gen" --root="$root" "$tmp/out$1" 2>&1 |
                sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
small=$(count 16384) # 256 KB
large=$(count 65536) # 1 MB
grep -q 'Before=mnt-x.mount' "$tmp/out65536/nfs-server.service.d/order-with-mounts.conf" || {
        echo "FAIL: the 1 MB unit was not read (no Before=mnt-x.mount)"
        exit 1
}
echo "instructions: 256 KB unit $small, 1 MB unit $large"
if [ -z "$small" ] || [ -z "$large" ] || [ "$large" -ge $((small * 6)) ]; then
        echo "FAIL: 4x the input cost $((large / (small > 0 ? small : 1)))x the instructions (linear: about 4x)"
        exit 1
fi
echo "ok: $((large * 10 / small / 10)).$((large * 10 / small % 10))x the instructions for 4x the input"

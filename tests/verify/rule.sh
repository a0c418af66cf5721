#!/bin/bash
# One rule of the unit set (argument: its name in rules.py), checked on a
# scratch root: the installed units, the fixture system's fstab mounts and
# the nfs-server ordering drop-in (the hand-written generator contract),
# nfs-server.service, nfs-client.target and remote-fs.target enabled.
. "$(dirname "$0")/lib.sh"
need_tool python3

root="$SCRATCH/root"
make_root "$root"
add_mounts "$root" fixture
enable_units "$root" nfs-server.service nfs-client.target remote-fs.target
status=0
python3 "$(dirname "$0")/rules.py" "$1" "$root" || status=$?
exit "$status"

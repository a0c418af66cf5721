"""Scenario 8 alone: a re-export needs an NFS server to re-export from. With no network,
that origin is a second kernel NFS server in its own network namespace inside the same
guest (nfsd is per network namespace), reached over a veth pair. The main server exports
/srv/re, which is an NFS mount from that origin."""
from lib.check import server_active, served_marker, shutdown_order

SCENARIOS = {8: 'Re-export: an exported path that is itself an NFS mount'}
DISKS = {'S8': {}}
FSTAB = [
    'LABEL=S8 /srv/up ext4 defaults 0 2',
    '10.88.0.2:/srv/up /srv/re nfs vers=4.2,x-systemd.requires=origin-nfs.service 0 0',
]
ORIGIN_SH = r'''#!/bin/bash
# The origin server of the re-export, in network namespace "origin" (10.88.0.2). It gets a
# mount namespace of its own (ip netns exec) with a private /etc/exports, /var/lib/nfs and
# /proc/fs/nfsd, so nothing of the main server's state is shared.
set -euo pipefail
ip netns add origin
ip link add veth-main type veth peer name veth-origin
ip link set veth-origin netns origin
ip addr add 10.88.0.1/24 dev veth-main
ip link set lo up
ip link set veth-main up
ip netns exec origin sh -euc '
	mount --make-rprivate /
	ip addr add 10.88.0.2/24 dev veth-origin
	ip link set lo up
	ip link set veth-origin up
	mount -t tmpfs tmpfs /var/lib/nfs
	mount --bind /etc/boot-suite/origin.exports /etc/exports
	umount /proc/fs/nfsd 2>/dev/null || true
	mount -t nfsd nfsd /proc/fs/nfsd
	exportfs -r
	rpc.mountd --no-nfs-version 3
	rpc.nfsd --no-nfs-version 3 4
'
'''
FILES = {
    'etc/exports': '/srv/re *(rw,no_subtree_check,no_root_squash,fsid=8)\n',
    'etc/boot-suite/origin.exports': '/srv/up *(rw,no_subtree_check,no_root_squash)\n',
    'usr/local/sbin/origin-nfs': ORIGIN_SH,
    'etc/systemd/system/origin-nfs.service': '''[Unit]
Description=Boot suite: origin NFS server of the re-export (network namespace)
DefaultDependencies=no
Wants=proc-fs-nfsd.mount
After=local-fs.target proc-fs-nfsd.mount systemd-modules-load.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/sbin/origin-nfs
''',
    'srv/up/UNDERNEATH': 'root fs\n',
    'srv/re/UNDERNEATH': 'root fs\n',
}
SCENARIO_SH = r'''
mkdir -p /mnt/c8
cap mount8 mount -t nfs -o vers=4.2,soft,timeo=100,retrans=2,retry=0 127.0.0.1:/srv/re /mnt/c8
cap ls8 ls -A /mnt/c8
umount /mnt/c8
'''


def check(n, sc, r):
    m = r.mount_at('/srv/re')
    sc.check(m and m['fstype'].startswith('nfs'), '/srv/re is an NFS mount at boot', m)
    cycles = r.text('ordering-cycle').strip()
    sc.check(not cycles, 'no ordering cycle in the journal', ' | '.join(cycles.splitlines()[:3]))
    server_active(sc, r)
    served_marker(sc, r, 'ls8', 're-exported /srv/re')
    sc.check(r.fact('boot-state') == 'running', 'system is running, not degraded', r.fact('boot-state'))
    shutdown_order(sc, r, 'Stopped nfs-server.service', 'Unmounting srv-re.mount',
                   'at poweroff the server stops before the re-exported NFS mount is unmounted')
    said = [l for l in r.text('generator-files').splitlines() if 're-export' in l]
    sc.note('generator output on the re-export: %s' % (said[0].strip('# ') if said else 'nothing'))

"""Scenario 6 alone: rpcbind masked changes the whole boot."""
from lib.check import served_marker, no_failed_units

SCENARIOS = {6: 'rpcbind masked with NFSv3 off: NFSv4-only server'}
DISKS = {'S6': {}}
FSTAB = ['LABEL=S6 /srv/s6 ext4 defaults 0 2']
FILES = {
    'etc/exports': '/srv/s6 *(rw,no_subtree_check,no_root_squash)\n',
    'srv/s6/UNDERNEATH': 'root fs\n',
    'etc/nfs.conf.d/v4only.conf': '[nfsd]\nvers3=n\n',
    # `systemctl mask rpcbind.service rpcbind.socket`, done as the links it makes.
    'etc/systemd/system/rpcbind.service': ('symlink', '/dev/null'),
    'etc/systemd/system/rpcbind.socket': ('symlink', '/dev/null'),
}
SCENARIO_SH = r'''
mkdir -p /mnt/c6
cap mount6 mount -t nfs4 -o soft,timeo=100,retrans=2,retry=0 127.0.0.1:/srv/s6 /mnt/c6
cap ls6 ls -A /mnt/c6
umount /mnt/c6
snap after
'''


def check(n, sc, r):
    served_marker(sc, r, 'ls6', 'NFSv4 loopback mount of /srv/s6')
    sc.check(not r.pids('rpcbind') and not r.pids('rpcbind', 'after'), 'no rpcbind process',
             r.pids('rpcbind'))
    started = r.journal_lines(r'rpc\.statd\[\d+\]')
    sc.check(not r.pids('rpc.statd') and not r.pids('rpc.statd', 'after') and not started,
             'no rpc.statd process ever started', (r.pids('rpc.statd'), started[:2]))
    no_failed_units(sc, r)
    no_failed_units(sc, r, 'after', ' after the NFSv4 mount')
    state = r.fact('boot-state')
    sc.check(state == 'running', '`systemctl is-system-running` says running', state)

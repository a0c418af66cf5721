"""Scenario 11 alone: it needs the upstream pipefs place (/var/lib/nfs/rpc_pipefs), not
Debian's nfs.conf that the other boots keep."""
from lib.check import server_active

SCENARIOS = {11: 'Volatile /var/lib/nfs, empty at boot'}
# /var/lib/nfs is a fresh tmpfs at every boot: whatever the NFS daemons need below it must
# be created during the boot (tmpfiles), and the pipefs mount must come after that.
FSTAB = ['tmpfs /var/lib/nfs tmpfs mode=0755 0 0']
FILES = {
    # Debian's nfs.conf without its pipefs-directory=, so the upstream default applies.
    'etc/nfs.conf': '[general]\n[nfsd]\n[mountd]\nmanage-gids=y\n',
    'etc/exports': '/srv/s11 *(rw,no_subtree_check)\n',
    'srv/s11/README': 'exported from the root fs\n',
}
SCENARIO_SH = r'''
cap varlibnfs ls -la /var/lib/nfs
'''


def check(n, sc, r):
    base = r.mount_at('/var/lib/nfs')
    sc.check(base and base['fstype'] == 'tmpfs', '/var/lib/nfs is a tmpfs (empty at boot)', base)
    m = r.mount_at('/var/lib/nfs/rpc_pipefs')
    sc.check(m and m['fstype'] == 'rpc_pipefs', 'rpc_pipefs is mounted at /var/lib/nfs/rpc_pipefs', m)
    sc.check(r.pids('rpc.idmapd'), 'rpc.idmapd is running', r.pids('rpc.idmapd'))
    server_active(sc, r)
    sc.note('rpc.statd running: %s' % (' '.join(r.pids('rpc.statd')) or 'no'))
    sc.note('/var/lib/nfs after boot: %s' % ' '.join(
        l.split()[-1] for l in r.text('varlibnfs').splitlines()[1:] if l.split()))

"""Scenario 5 alone: its server must not serve, which would spoil any other scenario."""
SCENARIOS = {5: 'Exported filesystem whose nofail device is missing'}
# The device never appears. x-systemd.device-timeout=10s keeps the boot short (systemd's
# default is 90 s); the outcome is the same either way.
FSTAB = ['LABEL=MISSING5 /srv/s5 ext4 nofail,x-systemd.device-timeout=10s 0 2']
FILES = {
    'etc/exports': '/srv/s5 *(rw,no_subtree_check,no_root_squash)\n',
    'srv/s5/UNDERNEATH': 'root fs: must never be served\n',
}
SCENARIO_SH = r'''
mkdir -p /mnt/c5
cap mount5 timeout 30 mount -t nfs -o vers=4.2,soft,timeo=50,retrans=1,retry=0 127.0.0.1:/srv/s5 /mnt/c5
cap ls5 ls -A /mnt/c5
umount /mnt/c5 2>/dev/null
cap etab cat /var/lib/nfs/etab
'''
ONLY_FOR_SERVER = ['rpc.mountd', 'rpc.idmapd', 'nfsdcld']


def check(n, sc, r):
    sc.check(r.fact('boot-state') in ('running', 'degraded'), 'boot completes',
             r.fact('boot-state'))
    exported = r.text('boot.exportfs') + r.text('etab')
    sc.check('/srv/s5' not in exported, 'the directory underneath /srv/s5 is not exported',
             exported.strip()[:200])
    sc.check('UNDERNEATH' not in r.text('ls5'), 'a loopback mount does not show the directory underneath',
             r.text('ls5').strip())
    status = r.text('boot.status-nfs-server')
    reason = ('srv-s5.mount' in status or '/srv/s5' in status or 'MISSING5' in status)
    sc.check(reason, '`systemctl status nfs-server` names the missing mount',
             ' | '.join(status.strip().splitlines()[:6]))
    lines = r.journal_lines(r'nfs-server|NFS server')
    why = [l for l in lines if 's5' in l or 'MISSING5' in l or 'ependency' in l]
    sc.check(why, 'the journal says why nfs-server did not start', ' | '.join(lines[-3:]))
    left = {d: r.pids(d) for d in ONLY_FOR_SERVER if r.pids(d)}
    sc.check(not left, 'no daemon that exists only for the server is left running', left)
    sc.note('rpc.statd running: %s; nfsd threads: %s' % (
        ' '.join(r.pids('rpc.statd')) or 'no', r.fact('boot.nfsd-threads')))

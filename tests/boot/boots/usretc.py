"""Scenario 17 alone: the configuration of an image-based system, nfs.conf under /usr/etc
and none in /etc (nfs-utils 6a714409, read by nfs-utils 2.7.1 and later: Debian 13 on).
Debian 12's daemons read only /etc, so this boot runs on later releases only."""
RELEASES = ('trixie', 'sid')
SCENARIOS = {17: 'nfs.conf under /usr/etc only: the generators and the daemons follow it'}
OPTS = '*(rw,no_subtree_check,no_root_squash)'
DISKS = {'S17': {}}
FSTAB = ['LABEL=S17 /srv/s17 ext4 defaults 0 2']
PIPEFS = '/run/vendor_pipefs'
FILES = {
    'etc/exports': '/srv/s17 %s\n' % OPTS,
    'srv/s17/UNDERNEATH': 'root fs\n',
    'usr/etc/nfs.conf': '[general]\npipefs-directory=%s\n[nfsd]\nthreads=4\n' % PIPEFS,
}
# The distribution's /etc/nfs.conf would override the vendor file key by key: an
# image-based system has none.
PREPARE = 'rm -f /etc/nfs.conf\n'
SCENARIO_SH = r'''
mkdir -p /mnt/c17
cap mount17 mount -t nfs -o vers=4.2,soft,timeo=100,retrans=2,retry=0 127.0.0.1:/srv/s17 /mnt/c17
cap ls17 ls -A /mnt/c17
# idmapd opens a client's pipes below the pipefs only while an NFSv4 mount exists.
cap idmapd-fds sh -c 'ls -l /proc/$(pgrep -xo rpc.idmapd)/fd'
umount /mnt/c17
'''


def check(n, sc, r):
    from lib.check import no_failed_units, served_marker
    sc.check(r.fact('boot-state') == 'running', 'the boot is not degraded', r.fact('boot-state'))
    m = r.mount_at(PIPEFS)
    sc.check(m and m['fstype'] == 'rpc_pipefs', 'rpc_pipefs is mounted at %s (from /usr/etc/nfs.conf)' % PIPEFS, m)
    fds = r.text('idmapd-fds')
    sc.check(PIPEFS + '/' in fds, 'rpc.idmapd has the pipefs at %s open' % PIPEFS, fds.strip()[-200:])
    sc.check(r.fact('boot.nfsd-threads') == '4', 'the server runs the 4 threads /usr/etc/nfs.conf asks for',
             r.fact('boot.nfsd-threads'))
    served_marker(sc, r, 'ls17', '/srv/s17')
    no_failed_units(sc, r)

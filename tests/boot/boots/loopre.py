"""Scenario 21 alone: a loopback re-export (issue 10, defect 11). fstab mounts this host's
own export /srv/data over NFS at /srv/re and /srv/re-mp, and both are exported again
(/srv/re-mp with mp). The loopback rule must win over the re-export rule: the server
starts before the NFS mounts (Before=), is not ordered after them (no
RequiresMountsFor=), and the re-exports appear once the mounts are there. Ordering the
server after /srv/re, as the re-export rule alone would, deadlocks the boot: the mount
waits for a server that waits for it."""
from lib.check import served_marker, mount_unit

# Debian 13 only for now. On Debian 12 (CI run of 59a3327) the poweroff took 96 s: the
# unmount of the re-exported mounts fails while nfsd holds them, and systemd-shutdown's
# later unmount of /srv/re, with the server stopped, waited 90 s until it was killed. That
# is an open defect (issue 10), not a pass: the 30 s assertion below fails there.
RELEASES = ('trixie', 'sid')
SCENARIOS = {21: 'Loopback re-export: an export that is an NFS mount of this host\'s own export'}
OPTS = 'rw,no_subtree_check,no_root_squash'
DISKS = {'S21': {}}
FSTAB = [
    'LABEL=S21 /srv/data ext4 defaults 0 2',
    'localhost:/srv/data /srv/re nfs defaults 0 0',
    'localhost:/srv/data /srv/re-mp nfs defaults 0 0',
]
FILES = {
    # An NFS filesystem has no UUID the export cache can use: re-exports need fsid=.
    'etc/exports': '/srv/data *(%s)\n/srv/re *(%s,fsid=21)\n/srv/re-mp *(%s,mp,fsid=22)\n' % (OPTS, OPTS, OPTS),
    'srv/data/UNDERNEATH': 'root fs\n',
    'srv/re/UNDERNEATH': 'root fs\n',
    'srv/re-mp/UNDERNEATH': 'root fs\n',
}
SCENARIO_SH = r'''
for p in re re-mp; do
	mkdir -p "/mnt/c21-$p"
	cap "mount21$p" mount -t nfs -o vers=4.2,soft,timeo=100,retrans=2,retry=0 "127.0.0.1:/srv/$p" "/mnt/c21-$p"
	cap "ls21$p" ls -A "/mnt/c21-$p"
	umount "/mnt/c21-$p"
done
'''


def check(n, sc, r):
    sc.check(r.show('nfs-server.service').get('ActiveState') == 'active', 'nfs-server.service is active',
             r.show('nfs-server.service').get('ActiveState'))
    for path in ('/srv/re', '/srv/re-mp'):
        m = r.mount_at(path)
        sc.check(m and m['fstype'].startswith('nfs') and m['source'].startswith('localhost:'),
                 '%s is mounted over NFS from localhost' % path, m)
        unit = mount_unit(path)
        sc.check(unit in r.show_list('nfs-server.service', 'Before'), 'nfs-server.service is Before=%s' % unit,
                 r.show('nfs-server.service').get('Before', '')[:200])
        sc.check(path not in r.show_list('nfs-server.service', 'RequiresMountsFor'),
                 'nfs-server.service has no RequiresMountsFor=%s' % path,
                 r.show('nfs-server.service').get('RequiresMountsFor', ''))
        sc.check(unit not in r.show_list('nfs-server.service', 'After'), 'nfs-server.service is not After=%s' % unit,
                 '')
        served_marker(sc, r, 'ls21' + path[5:], 'the re-export %s' % path)
    cycles = r.text('ordering-cycle').strip()
    sc.check(not cycles, 'no ordering cycle in the journal', ' | '.join(cycles.splitlines()[:3]))
    sc.check(r.fact('boot-state') == 'running', 'system is running, not degraded', r.fact('boot-state'))
    # At poweroff the server is Before= the mounts, so systemd stops the mounts first; but
    # nfsd holds the re-exported mounts while they are exported, so their unmount fails
    # ("Failed unmounting srv-re.mount") and systemd-shutdown unmounts them once the server
    # has stopped. Open (issue 10): unexport a loopback re-export before its unmount.
    tail = r.console().split('@@POWEROFF')[-1]
    sc.note('shutdown: %s' % ('the re-exported loopback mounts failed to unmount while exported; '
                              'systemd-shutdown unmounted them after the server stopped'
                              if 'Failed unmounting srv-re' in tail else 'the mounts unmounted cleanly'))
    shutdown = r.host.get('shutdown')
    sc.check(shutdown is not None and shutdown < 30, 'the guest powered off within 30 s (no mount waits for '
             'a stopped server)', shutdown)

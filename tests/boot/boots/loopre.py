"""Scenario 21 alone: a loopback re-export (issue 10, defect 11). fstab mounts this host's
own export /srv/data over NFS at /srv/re and /srv/re-mp, and both are exported again
(/srv/re-mp with mp). The loopback rule must win over the re-export rule: the server
starts before the NFS mounts (Before=), is not ordered after them (no
RequiresMountsFor=), and the re-exports appear once the mounts are there. Ordering the
server after /srv/re, as the re-export rule alone would, deadlocks the boot: the mount
waits for a server that waits for it."""
import re

from lib.check import served_marker, mount_unit, shutdown_order

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
cap reexport21 systemctl is-active 'nfs-reexport@srv-re.service' 'nfs-reexport@srv-re\x2dmp.service'
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
    sc.check(r.text('reexport21').split() == ['active', 'active'],
             'nfs-reexport@ is active for both re-exported loopback mounts (the generator\'s drop-ins)',
             r.text('reexport21').strip().replace('\n', ' '))
    cycles = r.text('ordering-cycle').strip()
    sc.check(not cycles, 'no ordering cycle in the journal', ' | '.join(cycles.splitlines()[:3]))
    sc.check(r.fact('boot-state') == 'running', 'system is running, not degraded', r.fact('boot-state'))
    # At poweroff the server is Before= the mounts, so systemd unmounts them first; nfsd
    # holds a filesystem it exports, so each re-exported mount wants nfs-reexport@ (from
    # the generator), which withdraws its exports before the unmount. Without it the
    # unmount failed with EBUSY, the server stopped, and systemd-shutdown's last unmount
    # sometimes waited 90 s for the stopped server (CI run of eb2fd0f: 95.5 s).
    tail = re.sub(r'\x1b\[[0-9;]*m', '', r.console().split('@@POWEROFF')[-1])
    failed = [l.strip() for l in tail.splitlines() if 'Failed unmounting' in l]
    sc.check(not failed, 'at poweroff no unmount failed', ' | '.join(failed)[:300])
    for path in ('/srv/re', '/srv/re-mp'):
        unit = mount_unit(path)
        shutdown_order(sc, r, 'Unmounted ' + unit, 'Stopping nfs-server.service',
                       '%s was unmounted while the server still ran' % path)
    shutdown = r.host.get('shutdown')
    sc.check(shutdown is not None and shutdown < 30, 'the guest powered off within 30 s (no mount waits for '
             'a stopped server)', shutdown)

"""Scenarios that a correct server satisfies all at once, with Debian's own nfs.conf:
exports on their own disks (plain, _netdev, nofail, odd characters), a loopback mount in
fstab, an NFSv3 lock, then restart/reload after everything else was looked at."""
import re

from lib.check import served_marker, ordered_after_mount, shutdown_order

SCENARIOS = {
    1: 'Export on its own disk mounted via fstab',
    2: 'Loopback NFS mount in fstab, clean poweroff',
    3: 'Exported filesystem with _netdev',
    4: 'Exported filesystem mounted nofail',
    7: 'NFSv3 loopback mount with a lock',
    9: 'Paths with a space and a % in exports and fstab',
    12: "Debian's nfs.conf (pipefs-directory=/run/rpc_pipefs)",
    14: 'restart nfs-utils.service and reload nfs-server.service',
    15: 'restart rpcbind.socket with an NFSv3 mount: quick, statd registered again',
}
OPTS = '*(rw,no_subtree_check,no_root_squash)'
DISKS = {'S1': {}, 'S3': {}, 'S4': {}, 'S9A': {}, 'S9B': {}}
SPACE, PCT = '/srv/with space', '/srv/pct%b'
FSTAB = [
    'LABEL=S1 /srv/s1 ext4 defaults 0 2',
    'LABEL=S3 /srv/s3 ext4 _netdev 0 2',
    'LABEL=S4 /srv/s4 ext4 nofail 0 2',
    r'LABEL=S9A /srv/with\040space ext4 defaults 0 2',
    'LABEL=S9B /srv/pct%b ext4 defaults 0 2',
    '127.0.0.1:/srv/s1 /mnt/loop nfs vers=4.2 0 0',
]
FILES = {
    'etc/exports': ''.join('%s %s\n' % (p, OPTS) for p in
                           ['/srv/s1', '/srv/s3', '/srv/s4', '"%s"' % SPACE, PCT]),
    # Under every mount point a file that must never be served.
    **{'srv/%s/UNDERNEATH' % d: 'root fs\n' for d in ['s1', 's3', 's4', 'with space', 'pct%b']},
}
SCENARIO_SH = r'''
# 1, 3, 4, 9: a loopback NFSv4 mount of each export; list what it serves.
for pair in s1:/srv/s1 s3:/srv/s3 s4:/srv/s4 "s9space:/srv/with space" "s9pct:/srv/pct%b"; do
	key=${pair%%:*} path=${pair#*:}
	mkdir -p "/mnt/c/$key"
	cap "mount.$key" mount -t nfs -o vers=4.2,soft,timeo=100,retrans=2,retry=0 "127.0.0.1:$path" "/mnt/c/$key"
	cap "ls.$key" ls -A "/mnt/c/$key"
	umount "/mnt/c/$key"
done
# 12: where idmapd looks for the pipefs.
cap idmapd-fds sh -c 'ls -l /proc/$(pgrep -xo rpc.idmapd)/fd'
# 7: NFSv3 mount and a lock on it: rpc.statd must come up (on demand or with the server).
fact 7.statd-before "$(pids rpc.statd)"
mkdir -p /mnt/v3
cap 7.mount mount -t nfs -o vers=3,soft,timeo=100,retrans=2,retry=0 127.0.0.1:/srv/s1 /mnt/v3
fact 7.statd-after "$(pids rpc.statd)"
cap 7.lock flock -n -E 77 /mnt/v3/lockfile sh -c 'flock -n -E 78 /mnt/v3/lockfile true; echo inner=$?; grep -c POSIX /proc/locks'
umount /mnt/v3
# 14: restart nfs-utils.service restarts every running NFS daemon.
for d in rpc.mountd rpc.idmapd rpc.statd nfsdcld rpc.gssd rpc.svcgssd; do fact "14.before.$d" "$(pids $d)"; done
cap 14.restart systemctl restart nfs-utils.service
settle
sleep 1
for d in rpc.mountd rpc.idmapd rpc.statd nfsdcld rpc.gssd rpc.svcgssd; do fact "14.after.$d" "$(pids $d)"; done
fact 14.server-after-restart "$(systemctl is-active nfs-server.service)"
cap 14.failed systemctl list-units --failed --plain --no-legend --no-pager
# 14: reload re-exports: a new export appears without a restart.
mkdir -p /srv/late /etc/exports.d
echo '/srv/late *(ro,no_subtree_check)' >/etc/exports.d/late.exports
fact 14.server-start-before "$(systemctl show -p InactiveExitTimestampMonotonic --value nfs-server.service)"
cap 14.reload systemctl reload nfs-server.service
cap 14.exportfs exportfs -v
fact 14.server-start-after "$(systemctl show -p InactiveExitTimestampMonotonic --value nfs-server.service)"
fact 14.server-after-reload "$(systemctl is-active nfs-server.service)"
# 14: a reload over a bad exports file is reported by systemctl, the server keeps serving.
echo '/srv/late2 *(rw,no_such_option)' >/etc/exports.d/bad.exports
cap 14.reload-bad systemctl reload nfs-server.service
cap 14.exportfs-bad exportfs -v
fact 14.server-after-bad-reload "$(systemctl is-active nfs-server.service)"
rm -f /etc/exports.d/bad.exports
# 15: with an NFSv3 mount (statd running), restart rpcbind.socket; nfs-utils df920ac1 orders
# statd after rpcbind.service too, or the restart stalls for about a minute.
mkdir -p /mnt/v3b
cap 15.mount mount -t nfs -o vers=3,soft,timeo=100,retrans=2,retry=0 127.0.0.1:/srv/s1 /mnt/v3b
fact 15.statd-before "$(pids rpc.statd)"
t0=$(date +%s.%N)
cap 15.restart systemctl restart rpcbind.socket
t1=$(date +%s.%N)
fact 15.restart-seconds "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b-a}')"
sleep 1
fact 15.statd-after "$(pids rpc.statd)"
cap 15.rpcinfo rpcinfo -p
cap 15.failed systemctl list-units --failed --plain --no-legend --no-pager
umount /mnt/v3b
'''

DAEMONS = ['rpc.mountd', 'rpc.idmapd', 'rpc.statd', 'nfsdcld', 'rpc.gssd', 'rpc.svcgssd']


def check(n, sc, r):
    exported = r.text('boot.exportfs')
    if n == 1:
        sc.check('/srv/s1' in exported, 'exportfs lists /srv/s1', exported.strip()[:200])
        served_marker(sc, r, 'ls.s1', '/srv/s1')
        ordered_after_mount(sc, r, '/srv/s1')
        shutdown_order(sc, r, 'Stopped nfs-server.service', 'Unmounting srv-s1.mount',
                       'at poweroff the server stops before its exported disk is unmounted')
    elif n == 2:
        m = r.mount_at('/mnt/loop')
        sc.check(m and m['fstype'].startswith('nfs'), '/mnt/loop is NFS-mounted at boot', m)
        shutdown = r.host.get('shutdown')
        sc.check(shutdown is not None and shutdown < 30, 'poweroff finishes within 30 s', shutdown)
        tail = r.console().split('@@POWEROFF')[-1]
        bad = [l for l in tail.splitlines()
               if 'Failed unmounting' in l or 'timed out' in l or 'stop job is running' in l]
        sc.check(not bad, 'no failed unmount or stop-job wait during shutdown', bad[:3])
        shutdown_order(sc, r, 'Unmounted mnt-loop.mount', 'Stopping nfs-server.service',
                       'at poweroff the loopback mount is gone before the server stops')
    elif n == 3:
        served_marker(sc, r, 'ls.s3', '/srv/s3 (_netdev)')
        ordered_after_mount(sc, r, '/srv/s3')
    elif n == 4:
        served_marker(sc, r, 'ls.s4', '/srv/s4 (nofail)')
        ordered_after_mount(sc, r, '/srv/s4')
    elif n == 7:
        sc.check(r.fact('rc.7.mount') == '0', 'NFSv3 loopback mount succeeds', r.text('7.mount'))
        sc.check(r.fact('7.statd-after') != '', 'rpc.statd is running after the NFSv3 mount',
                 r.fact('7.statd-after'))
        lock = r.text('7.lock')
        sc.check(r.fact('rc.7.lock') == '0' and 'inner=78' in lock,
                 'flock on the NFSv3 file succeeds and a second lock on it is refused',
                 'rc=%s %s' % (r.fact('rc.7.lock'), lock.strip()))
    elif n == 9:
        for key, path in [('s9space', SPACE), ('s9pct', PCT)]:
            served_marker(sc, r, 'ls.' + key, path)
            ordered_after_mount(sc, r, path)
            need = r.show_list('nfs-server.service', 'RequiresMountsFor')
            sc.check(path in need,
                     'RequiresMountsFor= of nfs-server holds %s exactly' % path, need)
    elif n == 12:
        m = r.mount_at('/run/rpc_pipefs')
        sc.check(m and m['fstype'] == 'rpc_pipefs', 'rpc_pipefs is mounted at /run/rpc_pipefs', m)
        sc.check(r.pids('rpc.idmapd'), 'rpc.idmapd is running', r.pids('rpc.idmapd'))
        fds = r.text('idmapd-fds')
        sc.check('/run/rpc_pipefs/' in fds, 'rpc.idmapd has the pipefs at /run/rpc_pipefs open',
                 fds.strip()[-200:])
        other = r.mount_at('/var/lib/nfs/rpc_pipefs')
        sc.note('pipefs also mounted at /var/lib/nfs/rpc_pipefs: %s' % ('yes' if other else 'no'))
    elif n == 14:
        for d in DAEMONS:
            before, after = r.fact('14.before.' + d), r.fact('14.after.' + d)
            if before:
                sc.check(after and after != before,
                         'restart nfs-utils.service restarted %s' % d,
                         'pid before %s, after %s' % (before, after or 'none'))
            else:
                sc.check(not after, 'restart nfs-utils.service did not start %s' % d,
                         'pid after %s' % after)
        failed = r.text('14.failed').strip()
        sc.check(not failed, 'no unit failed in the restart', failed.replace('\n', '; ')[:300])
        sc.check(r.fact('14.server-after-restart') == 'active',
                 'nfs-server.service is active after the restart', r.fact('14.server-after-restart'))
        sc.check('/srv/late' in r.text('14.exportfs'), 'reload nfs-server.service exports a new export',
                 r.text('14.exportfs').strip()[:200])
        sc.check(r.fact('14.server-start-before') == r.fact('14.server-start-after')
                 and r.fact('14.server-after-reload') == 'active',
                 'reload did not restart the server',
                 (r.fact('14.server-start-before'), r.fact('14.server-start-after')))
        sc.check(r.fact('rc.14.reload-bad') != '0', 'reload over a bad exports line is reported by systemctl',
                 'rc=%s %s' % (r.fact('rc.14.reload-bad'), r.text('14.reload-bad').strip()[:200]))
        sc.check(r.fact('14.server-after-bad-reload') == 'active' and '/srv/s1' in r.text('14.exportfs-bad'),
                 'after the bad reload the server is active and still serves /srv/s1',
                 '%s; %s' % (r.fact('14.server-after-bad-reload'), r.text('14.exportfs-bad').strip()[:200]))
    elif n == 15:
        sc.check(r.fact('rc.15.mount') == '0', 'NFSv3 loopback mount succeeds', r.text('15.mount'))
        sc.check(r.fact('15.statd-before'), 'rpc.statd runs before the restart', r.fact('15.statd-before'))
        try:
            took = float(r.fact('15.restart-seconds'))
        except ValueError:
            took = None
        sc.check(r.fact('rc.15.restart') == '0' and took is not None and took < 5,
                 'systemctl restart rpcbind.socket finishes in under 5 s',
                 'rc=%s, %s s' % (r.fact('rc.15.restart'), took))
        sc.check(r.fact('15.statd-after'), 'rpc.statd runs after the restart', r.fact('15.statd-after'))
        sc.check(re.search(r'\bstatus\b', r.text('15.rpcinfo')),
                 'statd is registered with rpcbind again (rpcinfo lists status)',
                 r.text('15.rpcinfo').strip()[-300:])
        failed = r.text('15.failed').strip()
        sc.check(not failed, 'no unit failed in the rpcbind restart', failed.replace('\n', '; ')[:300])

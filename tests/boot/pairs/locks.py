"""Scenarios 1, 2, 4, 6 and 7 in one server/client run: both boot at once and the client's
fstab mounts (NFSv4, and NFSv3 as an automount) come up by themselves (1); the client locks a
file on each, the server reboots itself, and after its grace period a process on the server
still cannot take either lock because the client reclaimed them (2); then the client powers
off normally and unmounts before its network goes down (4). Alongside: an NFS mount declared
as a native .mount unit on each side, on the server a loopback one that the generator must
order after nfs-server (6), and on the client a bind mount of the NFSv4 mount (7). None
spoils another: 2 starts after 1 was recorded, 4 is the client's ordinary poweroff at the
end, and the extra mounts are of the same export, read-only in use."""
from lib import net, payload
from lib.check import no_failed_units
from . import common

SCENARIOS = {
    1: 'Client and server boot together: fstab NFSv4 mount and NFSv3 automount come up, boot not degraded',
    2: 'NFSv3 and NFSv4 locks reclaimed after a server reboot; after grace the server cannot take them',
    4: 'Normal client poweroff: NFS mounts unmounted before the network goes down',
    6: 'NFS mounts as native .mount units (client; loopback on the server) ordered like fstab ones',
    7: 'A bind mount of an NFS mount (with _netdev): mounted at boot, unmounted before its source',
}

# 6: native units, enabled as an administrator would. The server's is a loopback mount of
# its own export: nfs-server-generator reads it from /etc/systemd/system and orders the
# server before it, as for an fstab line.
NATIVE_UNIT = '''[Unit]
Description=%s (a native NFS mount unit)

[Mount]
What=%s
Where=%s
Type=nfs4

[Install]
WantedBy=remote-fs.target
'''
SERVER_NATIVE = {'etc/systemd/system/mnt-loop.mount':
                 NATIVE_UNIT % ('loopback', 'localhost:' + common.EXPORT, '/mnt/loop')}
CLIENT_NATIVE = {'etc/systemd/system/mnt-native.mount':
                 NATIVE_UNIT % ('native', '%s:%s' % (net.SERVER_NAME, common.EXPORT), '/mnt/native')}
ENABLE = 'systemctl --no-reload enable %s >/dev/console 2>&1 || echo "preinit: enable %s failed" >/dev/console\n'
# 7: systemd #1258: without _netdev a bind mount of an NFS path is a local mount, ordered
# before local-fs.target and after the NFS mount: a cycle. nfs-systemd-check says to add it.
CLIENT_BIND = '/mnt/v4 /mnt/bind none bind,_netdev 0 0'
TIMEOUT = 1800   # s for the whole run: two boots at once, a server reboot, a poweroff each
# 2: the server's grace periods must outlast the reclaim. sm-notify tells the client only
# after nfs-server has started (rpc-statd-notify.service is After=nfs-server.service), and the
# client reclaims when told. With both guests emulated on two cores that took longer than
# the 10 s every other boot uses (lib/payload.py): measured 2026-12-07, sm-notify ran 7 s
# into nfsd's 10 s grace and the client's NLM reclaim came after it ended ("lockd: failed to
# reclaim lock", errno -37), so the server's probe took the lock. The kernel's default is 90 s.
GRACE = 40
SERVER_GRACE = payload.grace_files(GRACE)
GRACE_WAIT = GRACE + 15  # s after nfs-server started again: the grace and a margin

SERVER_SH = r'''
S=/srv/export/signal/state
cap 6.ls-loop ls -A /mnt/loop
cap 6.loop-unit systemctl show --no-pager -p Id,ActiveState,Result,After,Before mnt-loop.mount
if [ ! -e /var/lib/boot-suite/rebooted ]; then
	cap 2.exportfs exportfs -v
	link_facts
	wait_word $S locked 1200
	# The client's locks are seen here, and a free file can be locked: the probe tells both.
	cap 2.try3-before wire-lock try /srv/export/lock3
	cap 2.try4-before wire-lock try /srv/export/lock4
	cap 2.tryfree-before wire-lock try /srv/export/free
	cap 2.locks-before cat /proc/locks
	cap 2.sm-before ls -l /var/lib/nfs/sm
	mkdir -p /var/lib/boot-suite
	cp -a "$R" /var/lib/boot-suite/boot1
	touch /var/lib/boot-suite/rebooted
	sync
	say REBOOTING
	systemctl reboot
	sleep 900
	exit 0
fi
say REBOOTED
link_facts
started=$(systemctl show -p ActiveEnterTimestampMonotonic --value nfs-server.service)
fact 2.server-active-us "$started"
# Wait out the grace period, counted from nfs-server's start.
while [ "$(( $(cut -d. -f1 /proc/uptime) - ${started:-0} / 1000000 ))" -lt %(grace)d ]; do sleep 1; done
fact 2.checked-at-uptime "$(cut -d' ' -f1 /proc/uptime)"
cap 2.try3-after wire-lock try /srv/export/lock3
cap 2.try4-after wire-lock try /srv/export/lock4
cap 2.tryfree-after wire-lock try /srv/export/free
cap 2.locks-after cat /proc/locks
cap 2.sm-after ls -l /var/lib/nfs/sm /var/lib/nfs/sm.bak
cap 2.kernel-grace sh -c 'journalctl -b -k --no-pager -o short-monotonic | grep -iE "grace|reclaim|nfsd|lockd" || true'
cap 2.notify-journal journalctl -b --no-pager -o short-monotonic -u rpc-statd-notify.service -u rpc-statd.service -u nfsdcld.service -u nfs-server.service
echo checked >$S
say CHECKED
wait_word $S client-done 900
# 4: stay up until the client has unmounted at its poweroff. Only the client's connections
# count: the server's own loopback mount (6) stays up.
wait_client_gone %(client)s 4.server-waited-for-client
cp -a /var/lib/boot-suite/boot1 "$R/boot1"
''' % {'grace': GRACE_WAIT, 'client': net.CLIENT_ADDR}

CLIENT_SH = r'''
S=/mnt/v4/signal/state
link_facts
cap 1.v3-automount systemctl show --no-pager -p Id,ActiveState,Result mnt-v3.automount
cap 1.ls4 ls -A /mnt/v4
cap 1.ls3 ls -A /mnt/v3
cap 1.findmnt findmnt -rn -t nfs,nfs4 -o TARGET,SOURCE,FSTYPE,OPTIONS
cap 6.ls-native ls -A /mnt/native
cap 7.ls-bind ls -A /mnt/bind
cap 67.units systemctl show --no-pager -p Id,ActiveState,Result,After,RequiresMountsFor mnt-native.mount mnt-bind.mount
cap 1.units systemctl show --no-pager -p Id,ActiveState,Result,ActiveEnterTimestampMonotonic mnt-v4.mount mnt-v3.mount network-online.target systemd-networkd-wait-online.service remote-fs.target
fact 1.statd "$(pids rpc.statd)"
# 2 tests lock recovery, not the boot: a mount the boot failed to make (scenario 1 says
# so) is started again here, and the fact records it.
for m in mnt-v4.mount mnt-v3.mount; do
	systemctl is-active -q $m || { cap "2.restart.$m" systemctl start $m; fact "2.restarted.$m" yes; }
done
# 2: one NFSv3 and one NFSv4 lock, held by one process until the server has checked.
wire-lock hold /mnt/v3/lock3 /mnt/v4/lock4 >/run/wire-lock.log 2>&1 &
holder=$!
left=120
until [ "$(grep -c '^locked' /run/wire-lock.log)" = 2 ] || [ $left -le 0 ]; do sleep 1; left=$((left - 1)); done
fact 2.holder-locked "$(grep -c '^locked' /run/wire-lock.log)"
echo locked >$S
say LOCKED
wait_word $S checked 1200
say SAW-CHECKED
cap 2.holder-log cat /run/wire-lock.log
fact 2.holder-alive "$(kill -0 $holder 2>/dev/null && echo yes || echo no)"
cap 2.client-journal sh -c 'journalctl -b --no-pager -o short-monotonic | grep -iE "statd|sm-notify|lockd|nfs|reclaim" || true'
kill $holder
wait $holder 2>/dev/null
echo client-done >$S
say CLIENT-DONE
# 4: the driver's ordinary poweroff follows; the host reads its journal from the serial port.
'''

GUESTS = {
    'server': common.guest('server', net.SERVER_ADDR, fstab=common.SERVER_FSTAB,
                           files=dict(common.SERVER_FILES, **SERVER_NATIVE, **SERVER_GRACE), disks=common.SERVER_DISKS,
                           prepare=ENABLE % ('mnt-loop.mount', 'mnt-loop.mount'), script=SERVER_SH),
    'client': common.guest('client', net.CLIENT_ADDR, fstab=common.CLIENT_FSTAB + [CLIENT_BIND],
                           files=CLIENT_NATIVE, prepare=ENABLE % ('mnt-native.mount', 'mnt-native.mount'),
                           script=CLIENT_SH),
}
REBOOT = {'server'}   # this guest's qemu stays up when it reboots itself

TIMELINE = {
    'client': [('client boot finished', '@@SETTLED'), ('client holds both locks', '@@LOCKED'),
               ('client sees the server\'s verdict', '@@SAW-CHECKED'), ('client poweroff', '@@POWEROFF')],
    'server': [('server boot finished', '@@SETTLED'), ('server reboots', '@@REBOOTING'),
               ('server up again (scenario driver runs)', '@@BOOTED'), ('nfs-server started', 'Finished nfs-server.service'),
               ('sm-notify started (tells the clients)', 'Started rpc-statd-notify.service'),
               ('server tries the locks (after grace)', '@@CHECKED')],
}


def mount_row(r, target):
    for line in r.text('1.findmnt').splitlines():
        parts = line.split(' ')
        if parts[0] == target and len(parts) >= 4:
            return {'source': parts[1], 'fstype': parts[2], 'options': parts[3]}
    return None


def props_blocks(text):
    out = {}
    for block in text.split('\n\n'):
        fields = dict(l.partition('=')[::2] for l in block.splitlines() if '=' in l)
        if 'Id' in fields:
            out[fields['Id']] = fields
    return out


def check(n, sc, rs, guests):
    server, client = rs['server'], rs['client']
    if n == 1:
        common.link_carried(sc, client, 'client')
        sc.check(client.fact('boot-state') == 'running', 'the client boot is not degraded', client.fact('boot-state'))
        no_failed_units(sc, client, suffix=' on the client')
        sc.check(server.fact('boot-state') == 'running', 'the server boot is not degraded', server.fact('boot-state'))
        v4, v3 = mount_row(client, '/mnt/v4'), mount_row(client, '/mnt/v3')
        sc.check(v4 and v4['fstype'] == 'nfs4', 'the fstab NFSv4 mount is mounted at boot', v4)
        auto = props_blocks(client.text('1.v3-automount')).get('mnt-v3.automount', {})
        sc.check(auto.get('ActiveState') == 'active', 'the NFSv3 automount is set up by the boot', auto)
        sc.check(v3 and v3['fstype'] == 'nfs' and 'vers=3' in v3['options'] and 'nolock' not in v3['options'],
                 'the NFSv3 mount (with locking) is mounted at its first access, no manual action', v3)
        for key in ('1.ls4', '1.ls3'):
            lists_disk(sc, client, key, key[2:])
        units = props_blocks(client.text('1.units'))
        for unit in ('mnt-v4.mount', 'mnt-v3.mount'):
            u = units.get(unit, {})
            sc.check(u.get('ActiveState') == 'active' and u.get('Result') == 'success',
                     '%s is active, mounted without a failure' % unit, u)
        sc.check(client.fact('1.statd') != '', 'rpc.statd runs on the client (NFSv3 locks)', 'no rpc.statd')
        net_online = units.get('network-online.target', {}).get('ActiveEnterTimestampMonotonic', '0')
        mounted = units.get('mnt-v4.mount', {}).get('ActiveEnterTimestampMonotonic', '0')
        sc.note('client: network-online.target at %.1f s, /mnt/v4 mounted at %.1f s (guest uptime)'
                % (int(net_online or 0) / 1e6, int(mounted or 0) / 1e6))
    elif n == 2:
        boot1 = common.sub_results(server, 'boot1')
        sc.check(boot1.fact('waited.locked') == 'ok', 'the server saw the client take its locks',
                 boot1.fact('waited.locked') or 'no first-boot results')
        sc.check(client.fact('2.holder-locked') == '2', 'the client holds an NFSv3 and an NFSv4 POSIX lock',
                 client.text('2.holder-log') or client.fact('2.holder-locked'))
        # what the client's kernel said of a refused reclaim: tells a reclaim that came after
        # the server's grace from a lock the server never knew
        failures = [l.strip() for l in client.text('2.client-journal').splitlines() if 'reclaim' in l]
        reclaim_failures = ('; client: ' + ' | '.join(failures[:3])) if failures else ''
        for when, res in (('before the reboot', boot1), ('after the reboot and grace', server)):
            suffix = 'before' if res is boot1 else 'after'
            for lock in ('3', '4'):
                seen = res.text('2.try%s-%s' % (lock, suffix)).strip()
                sc.check(seen == 'busy', '%s, a process on the server cannot take the NFSv%s lock' % (when, lock),
                         '%s%s' % (seen or 'not tried', reclaim_failures))
            seen = res.text('2.tryfree-%s' % suffix).strip()
            sc.check(seen == 'taken', '%s, the same probe takes a lock nobody holds (control)' % when,
                     seen or 'not tried')
        sc.check(guests['server'].marker('@@REBOOTING') is not None and server.fact('waited.client-done') != '',
                 'the server rebooted (a second boot reported)',
                 'REBOOTING at %s' % guests['server'].marker('@@REBOOTING'))
        for m in ('mnt-v4.mount', 'mnt-v3.mount'):
            if client.fact('2.restarted.' + m):
                sc.note('%s was not mounted by the boot (scenario 1); started again before locking: rc=%s'
                        % (m, client.fact('rc.2.restart.' + m)))
        log = client.text('2.holder-log')
        sc.check('write failed' not in log and client.fact('2.holder-alive') == 'yes',
                 'the client\'s lock holder never lost its files', log.strip().replace('\n', '; ')[:300])
        for line in server.text('2.kernel-grace').splitlines():
            if 'grace' in line.lower():
                sc.note('server kernel: ' + line.strip())
        notify = [l for l in server.text('2.notify-journal').splitlines() if 'notify' in l.lower() or 'nfsdcld' in l]
        for line in notify[:8]:
            sc.note('server journal: ' + line.strip())
    elif n == 4:
        off, first, net_down = poweroff_journal(guests['client'])
        sc.check(off is not None and not client.host['hung'], 'the client powered off',
                 client.host['hung'] or 'no poweroff')
        for mnt in ('mnt-v4.mount', 'mnt-v3.mount'):
            unmounted_before(sc, first, 'Unmounted %s' % mnt, net_down, 'the network went down')
        failed = [l for l in first(None) if 'Failed unmounting' in l or 'timed out' in l]
        sc.check(not failed, 'no unmount failed or timed out at poweroff', failed[:3])
        sc.note('client shutdown %s s (host: @@POWEROFF to qemu exit)' % client.host.get('shutdown'))
    elif n == 6:
        units = props_blocks(client.text('67.units'))
        native = units.get('mnt-native.mount', {})
        sc.check(native.get('ActiveState') == 'active' and native.get('Result') == 'success',
                 'the client\'s native mnt-native.mount is mounted by the boot', native)
        sc.check('network-online.target' in native.get('After', '').split(),
                 'mnt-native.mount is after network-online.target, as an fstab NFS line is',
                 native.get('After', '')[:200])
        lists_disk(sc, client, '6.ls-native', '/mnt/native on the client')
        _, first, net_down = poweroff_journal(guests['client'])
        unmounted_before(sc, first, 'Unmounted mnt-native.mount', net_down, 'the network went down')
        loop = props_blocks(server.text('6.loop-unit')).get('mnt-loop.mount', {})
        sc.check(loop.get('ActiveState') == 'active', 'the server\'s native loopback mnt-loop.mount is mounted', loop)
        lists_disk(sc, server, '6.ls-loop', '/mnt/loop on the server (loopback)')
        before = server.show_list('nfs-server.service', 'Before')
        sc.check('mnt-loop.mount' in before, 'nfs-server.service is Before=mnt-loop.mount (the generator read '
                 'the native unit)', ' '.join(before)[:200])
        sc.check('mnt-loop.mount' not in server.show_list('nfs-server.service', 'After'),
                 'nfs-server.service is not After=mnt-loop.mount', '')
        # At the server's last poweroff the loopback mount goes first, while nfsd still
        # serves it (stock: the server stopped first and the unmount timed out after 90 s).
        _, first, _ = poweroff_journal(guests['server'])
        stop = first('Stopping nfs-server.service')
        unmounted_before(sc, first, 'Unmounted mnt-loop.mount', [stop] if stop is not None else [],
                         'the server stopped')
        hung = [l for l in first(None) if 'mnt-loop.mount' in l and ('timed out' in l or 'Failed' in l)]
        sc.check(not hung, 'the loopback unmount neither failed nor timed out', hung[:2])
        for role, r in (('server', server), ('client', client)):
            cycles = r.text('ordering-cycle').strip()
            sc.check(not cycles, 'no ordering cycle in the %s\'s journal' % role, ' | '.join(cycles.splitlines()[:3]))
    elif n == 7:
        bind = props_blocks(client.text('67.units')).get('mnt-bind.mount', {})
        sc.check(bind.get('ActiveState') == 'active' and bind.get('Result') == 'success',
                 'the bind mount of /mnt/v4 is mounted by the boot', bind)
        lists_disk(sc, client, '7.ls-bind', '/mnt/bind')
        _, first, net_down = poweroff_journal(guests['client'])
        unmounted_before(sc, first, 'Unmounted mnt-bind.mount', net_down, 'the network went down')
        v4 = first('Unmounted mnt-v4.mount')
        unmounted_before(sc, first, 'Unmounted mnt-bind.mount', [v4] if v4 is not None else [],
                         '/mnt/v4, its source, was unmounted')
        cycles = client.text('ordering-cycle').strip()
        sc.check(not cycles, 'no ordering cycle in the client\'s journal', ' | '.join(cycles.splitlines()[:3]))


def poweroff_journal(g):
    """The journal of a guest's last poweroff, forwarded on its serial port: (when it began,
    first(needle) -> index of the first line containing needle (None: every line), the
    indexes of the lines that say the network is going down)."""
    off = g.marker('@@POWEROFF', last=True)
    lines = [text for t, kind, text in g.events if kind == 'journal' and off is not None and t >= off]

    def first(needle):
        if needle is None:
            return lines
        return next((i for i, l in enumerate(lines) if needle in l), None)
    net_down = [i for i in (first('Stopping systemd-networkd.service'), first('Stopped target network.target'))
                if i is not None]
    return off, first, net_down


def unmounted_before(sc, first, line, later, what):
    i = first(line)
    sc.check(i is not None and later and i < min(later), '%s before %s (journal order)' % (line, what),
             'line %s, later lines %s' % (i, later))


def lists_disk(sc, r, key, what):
    listing = r.text(key)
    sc.check('DISK_CONTENT_MARKER' in listing and 'UNDERNEATH' not in listing, '%s lists the exported disk' % what,
             listing.strip().replace('\n', ' ')[:200])

"""Scenario 3: the client powers off while its server is down. The client has an NFSv4 and
an NFSv3 mount and a service with a file open for writing on each; once it says so, the host
ends the server's qemu (a power cut), the client sees the server's port stop answering and
powers off. The host times the poweroff and reads, from the journal the client forwards to
its serial port, which stop jobs waited.

The mounts carry what nfs.systemd(7) advises where losing unwritten data is acceptable:
softerr with a short timeo=/retrans=. With hard mounts (the default) the holders hang in
their exit, writing back to a server that is gone, for the stop timeout twice (180 s) before
any unit of NFS is even reached: the same with stock units and ours, and outside what
ordering can change (BOOT.md, measured by hand)."""
import re

from lib import net
from . import common

SCENARIOS = {3: 'Client poweroff while the server is down (files open, softerr as nfs.systemd(7) advises): under 30 s'}
TIMEOUT = 1500
NO_RESULTS = {'server'}   # the host cuts its power: it never writes a result disk
GOAL_S = 30
# nfs.systemd(7), "A poweroff while the server is down": a write-back to the gone server
# fails after about timeo*(retrans+1) instead of being retried for ever.
SOFTERR = 'softerr,timeo=20,retrans=2'
CLIENT_FSTAB = [l.replace(' 0 0', ',%s 0 0' % SOFTERR) for l in common.CLIENT_FSTAB]

SERVER_SH = r'''
link_facts
say SERVING
sleep 1400
'''

CLIENT_SH = r'''
link_facts
# A service with a file open for writing on each mount (ordered after its mount, as a
# service with RequiresMountsFor= is).
for v in v4 v3; do
	systemd-run --unit=wire-open-$v -p RequiresMountsFor=/mnt/$v sh -c "exec 3>>/mnt/$v/open-file; echo data >&3; exec sleep infinity"
done
sleep 2
# After the holders: the NFSv3 line is an automount, mounted by the first of them.
cap 3.findmnt findmnt -rn -t nfs,nfs4 -o TARGET,SOURCE,FSTYPE,OPTIONS
cap 3.open sh -c 'for v in v4 v3; do ls -l /proc/$(systemctl show -p MainPID --value wire-open-$v.service)/fd; done'
say HOLDING
# The host cuts the server's power now; wait until its NFS port stops answering.
left=300
while [ $left -gt 0 ] && timeout 3 bash -c 'exec 3<>/dev/tcp/192.0.2.1/2049' 2>/dev/null; do sleep 1; left=$((left - 1)); done
fact 3.server-gone "$([ $left -gt 0 ] && echo yes || echo no)"
say SERVER-GONE
'''

GUESTS = {
    'server': common.guest('server', net.SERVER_ADDR, fstab=common.SERVER_FSTAB, files=common.SERVER_FILES,
                           disks=common.SERVER_DISKS, script=SERVER_SH),
    'client': common.guest('client', net.CLIENT_ADDR, fstab=CLIENT_FSTAB, script=CLIENT_SH),
}

TIMELINE = {
    'client': [('client holds files open on both mounts', '@@HOLDING'),
               ('client sees the server gone', '@@SERVER-GONE'), ('client poweroff starts', '@@POWEROFF'),
               ('stop of the file holder v4', 'Stopping wire-open-v4.service'),
               ('holder killed after timeout', 'wire-open-v4.service: State'),
               ('unmount /mnt/v4 starts', 'Unmounting mnt-v4.mount'),
               ('unmount /mnt/v4 timed out', 'mnt-v4.mount: Unmounting timed out'),
               ('/mnt/v4 unmounted', 'Unmounted mnt-v4.mount'),
               ('/mnt/v4 unmount failed', 'Failed unmounting mnt-v4.mount'),
               ('unmount /mnt/v3 starts', 'Unmounting mnt-v3.mount'),
               ('/mnt/v3 unmounted', 'Unmounted mnt-v3.mount'),
               ('networkd stops', 'Stopping systemd-networkd.service'),
               ('final shutdown (systemd-shutdown)', 'systemd-shutdown'),
               ('journal stops', 'Journal stopped')],
    'server': [('host cuts the server\'s power', '@@KILLED-BY-HOST')],
}


def react(now, guests):
    server, client = guests['server'], guests['client']
    if client.marker('@@HOLDING') is not None and server.proc.poll() is None:
        server.kill()   # by its pid; a power cut, not a hang
        server.events.append((round(now, 1), 'marker', '@@KILLED-BY-HOST'))


def check(n, sc, rs, guests):
    client = rs['client']
    g = guests['client']
    common.link_carried(sc, client, 'client')
    mounts = client.text('3.findmnt')
    sc.check(' nfs4 ' in mounts and ' nfs ' in mounts, 'both NFS mounts were up when the files were opened',
             mounts.strip())
    sc.check('open-file' in client.text('3.open'), 'a service held a file open on the mounts',
             client.text('3.open')[:200])
    sc.check(client.fact('3.server-gone') == 'yes', 'the client saw the server go down',
             client.fact('3.server-gone'))
    sc.check(not client.host['hung'] and client.host.get('shutdown') is not None,
             'the client powered off (no shutdown hang)', client.host['hung'] or 'no poweroff')
    took = client.host.get('shutdown')
    sc.check(took is not None and took < GOAL_S, 'the poweroff took under %d s' % GOAL_S, '%s s' % took)
    # Which job waited: systemd's console status and the journal's timeouts.
    waited = sorted(set(re.findall(r'A stop job is running for ([^(]+?) \(', client.console())))
    sc.note('shutdown %s s; stop jobs the console showed waiting: %s' % (took, '; '.join(waited) or 'none'))
    off = g.marker('@@POWEROFF', last=True) or 0
    slow = slowest_stops(g, off)
    sc.check(any('wire-open-' in u for _, u in slow),
             'the forwarded journal shows how long each stop job of the poweroff took',
             ', '.join('%s %.1f s' % (u, d) for d, u in slow[:4]) or 'no Stopping/Stopped pair after the poweroff')
    sc.note('slowest stops: %s' % ', '.join('%s %.1f s' % (u, d) for d, u in slow[:4]))
    for t, text in g.journal(''):
        if t >= off and re.search(r'timed out|Failed unmounting|Killing|still around|not responding', text):
            sc.note('+%.1f s %s' % (t - off, text.strip()[:160]))


def slowest_stops(g, off):
    """[(seconds, unit)] of the poweroff's stop jobs, slowest first: from each unit's
    "Stopping"/"Unmounting" line to its "Stopped"/"Unmounted"/"Failed unmounting" line in the
    journal the guest forwarded (host clock)."""
    began, took = {}, []
    for t, text in g.journal(''):
        if t < off:
            continue
        m = re.search(r'\b(Stopping|Unmounting|Stopped|Unmounted|Failed unmounting) ([^ ]+\.(?:service|mount|scope))', text)
        if not m:
            continue
        if m.group(1) in ('Stopping', 'Unmounting'):
            began.setdefault(m.group(2), t)
        elif m.group(2) in began:
            took.append((round(t - began.pop(m.group(2)), 1), m.group(2)))
    return sorted(took, reverse=True)

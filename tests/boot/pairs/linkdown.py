"""Scenario 5: a client-only host (as boots/client.py: no server daemons, nfs-client.target
enabled) with systemd-networkd and its wait-online service enabled, no NFS mount in fstab,
boots with its link down: the NIC has no carrier from the first instruction (qemu starts
paused, the host sets the link down over QMP, then lets it run) and no peer listens on the
other end. Stock Debian pulls network-online.target in through nfs-client.target, so
wait-online waits for a carrier that never comes."""
import os

from boots import client as client_boot
from lib import net
from . import common

SCENARIOS = {5: 'Client with nfs-client.target enabled boots with the link down: no network-online wait'}
TIMEOUT = 900

CLIENT_SH = r'''
link_facts
cap 5.operstate cat /sys/class/net/eth0/operstate
cap 5.units systemctl show --no-pager -p Id,ActiveState,Result,ActiveEnterTimestampMonotonic,InactiveExitTimestampMonotonic network-online.target systemd-networkd-wait-online.service nfs-client.target
cap 5.wanted-by sh -c 'systemctl list-dependencies --reverse --plain --no-pager network-online.target'
cap 5.analyze systemd-analyze time
'''

GUESTS = {'client': common.guest('client', net.CLIENT_ADDR, prepare=client_boot.PREPARE, script=CLIENT_SH)}


def nics(role, port):
    """No peer: a listening socket nobody connects to, the link set down before the guest
    runs (-S, then QMP set_link and cont in started())."""
    return net.server_nic(port), ['-S', '-qmp', 'unix:%s,server=on,wait=off' % qmp_path_for(role)]


_QMP = {}


def qmp_path_for(role):
    return _QMP.setdefault(role, '/tmp/nfs-wire-qmp-%d-%s.sock' % (os.getpid(), role))


def started(g):
    try:
        net.qmp_link_down(qmp_path_for(g.role))
    finally:
        if os.path.exists(qmp_path_for(g.role)):
            os.unlink(qmp_path_for(g.role))


def check(n, sc, rs, guests):
    r = rs['client']
    link = r.text('link.ip')
    sc.check('NO-CARRIER' in link or r.text('5.operstate').strip() in ('down', 'lowerlayerdown'),
             'the client\'s link was down (no carrier) during the boot', link.strip()[:200])
    sc.check(r.fact('boot-state') == 'running', 'the boot is not degraded', r.fact('boot-state'))
    units = {}
    for block in r.text('5.units').split('\n\n'):
        fields = dict(l.partition('=')[::2] for l in block.splitlines() if '=' in l)
        units[fields.get('Id')] = fields
    wait = units.get('systemd-networkd-wait-online.service', {})
    online = units.get('network-online.target', {})
    sc.check(wait.get('InactiveExitTimestampMonotonic', '0') == '0',
             'systemd-networkd-wait-online never ran (nothing waited for the network)', wait)
    sc.check(online.get('ActiveEnterTimestampMonotonic', '0') == '0', 'network-online.target was not pulled in',
             online)
    sc.check(units.get('nfs-client.target', {}).get('ActiveState') == 'active', 'nfs-client.target is active',
             units.get('nfs-client.target'))
    sc.note('boot finished at %s s guest uptime; %s' % (r.fact('uptime-at-boot-finished'),
                                                       r.text('5.analyze').strip().splitlines()[0:1]))
    wanted = [l.strip() for l in r.text('5.wanted-by').splitlines()[1:] if l.strip()]
    sc.note('network-online.target is wanted by: %s' % (', '.join(wanted[:8]) or 'nothing'))

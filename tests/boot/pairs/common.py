"""What every multi-guest run shares: the exported disk, the client's fstab lines, the lock
helper, and the guest-side shell helpers for waiting on each other through the export."""
import os

from lib import net, pair
from lib.results import Results, read_facts

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, 'wire-lock')) as f:
    WIRE_LOCK = f.read()

EXPORT = '/srv/export'
# Both lines name the server by its /etc/hosts entry; NFSv3 locks need rpc.statd on both sides.
# The NFSv3 line is an automount, as nfs-systemd-check recommends
# (nfsv3-mount-gives-up-while-server-boots): mounted once at boot, it failed whenever the
# server was still booting (its rpcbind answers "program not registered" until nfsd runs,
# and mount.nfs gives up after three such answers), with stock units and ours alike.
V3_AUTOMOUNT = 'x-systemd.automount,x-systemd.mount-timeout=30s,x-systemd.idle-timeout=10min'
CLIENT_FSTAB = [
    '%s:%s /mnt/v4 nfs4 _netdev 0 0' % (net.SERVER_NAME, EXPORT),
    '%s:%s /mnt/v3 nfs vers=3,_netdev,%s 0 0' % (net.SERVER_NAME, EXPORT, V3_AUTOMOUNT),
]
SERVER_FSTAB = ['LABEL=EXPORT %s ext4 defaults 0 2' % EXPORT]
SERVER_DISKS = {'EXPORT': {'signal/state': 'none\n', 'lock3': '', 'lock4': '', 'free': ''}}
# 127.0.0.1 too: the server mounts its own export (a loopback mount, pairs/locks.py).
SERVER_FILES = {'etc/exports': '%s 192.0.2.0/24(rw,no_subtree_check,no_root_squash) '
                               '127.0.0.1(rw,no_subtree_check,no_root_squash)\n' % EXPORT,
                'srv/export/UNDERNEATH': 'root fs\n'}

# Guest-side helpers. The two guests talk through one file on the export: the client writes
# it over NFS, the server locally; each open() on the client revalidates (close-to-open), so
# a poll sees the other side's word without waiting out attribute caches.
SH = r'''
say() { echo "@@$1" >/dev/ttyS1; }   # a marker the host times
# wait_word FILE WORD SECONDS: until FILE holds WORD; the fact says how it ended.
wait_word() {
	local left=$3
	until grep -q "$2" "$1" 2>/dev/null; do
		sleep 1
		left=$((left - 1))
		[ "$left" -gt 0 ] || { fact "waited.$2" timeout; return 1; }
	done
	fact "waited.$2" ok
}
# The link carries traffic: counters and addresses of eth0, and whether the server's NFS
# port answers (bash's /dev/tcp: no ping in the image).
# wait_client_gone CLIENT-ADDR FACT: on the server, stay up until the client has unmounted
# at its poweroff (no NFS connection from it left, at most 300 s): a server that powered off
# first left the client's NFSv4 unmount hanging for its 90 s timeout. The fact says how long.
wait_client_gone() {
	local left=300
	while [ -n "$(ss -Htn state established '( sport = :2049 )' dst "$1")" ] && [ $left -gt 0 ]; do
		sleep 1
		left=$((left - 1))
	done
	fact "$2" "$((300 - left))"
}
link_facts() {
	cap link.ip ip -s link show eth0
	cap link.addr ip -br addr show eth0
	cap link.route ip route
}
'''


def guest(role, addr, fstab=(), files=None, disks=None, prepare='', script=''):
    """A guest's contents in the shape lib/payload.py reads from a boots/*.py module."""
    class Guest:
        pass
    g = Guest()
    g.FSTAB = list(fstab)
    g.FILES = dict(net.guest_files(role, addr), **pair.JOURNAL_FILES, **(files or {}))
    g.FILES['usr/local/bin/wire-lock'] = WIRE_LOCK
    # The scenario steps wait on the other guest: more than the driver's default 400 s.
    g.FILES['etc/systemd/system/boot-scenario.service.d/wire.conf'] = \
        '[Service]\nEnvironment=SCENARIO_TIMEOUT=1200\n'
    g.DISKS = disks or {}
    g.PREPARE = net.PREPARE + prepare
    g.SCENARIO_SH = SH + script
    return g


def rx_packets(r):
    """Received packets on eth0 from `ip -s link` (None when not captured)."""
    lines = r.text('link.ip').splitlines()
    for i, l in enumerate(lines):
        if l.strip().startswith('RX:') and i + 1 < len(lines):
            return int(lines[i + 1].split()[1])
    return None


def link_carried(sc, r, role):
    """The link carried traffic: eth0 has its address and received packets."""
    rx = rx_packets(r)
    sc.check(rx is not None and rx > 0 and '192.0.2.' in r.text('link.addr'),
             'the %s received packets on its 192.0.2.0/24 link' % role,
             'rx packets %s; %s' % (rx, r.text('link.addr').strip() or 'no address captured'))
    sc.check('default' not in r.text('link.route'), 'the %s has no default route' % role,
             r.text('link.route').strip())


def sub_results(r, name):
    """Results saved in a subdirectory of a guest's results (the server's first boot)."""
    sub = Results.__new__(Results)
    sub.__dict__.update(r.__dict__)
    sub.dir = os.path.join(r.dir, name)
    sub.facts = read_facts(sub.dir)
    return sub

"""Scenario 8 (issue 13): a diskless client whose root filesystem the server guest exports.
The client boots a dracut initrd (Debian's dracut and its systemd modules) made in the
client's own root tree: on our side with the nfs-systemd package installed in the tree and
its dracut module, so that nfsroot-generator writes sysroot.mount; on the stock side with
dracut's own nfs module, which mounts the root from its scripts. The client has no root
disk; it reaches multi-user.target with / on NFS, and powers off with the server still up:
nothing may hang on the root mount or on rpc_pipefs (systemd #28410).

The client starts once the server has booted: mount.nfs would retry a refused connection
for two minutes, longer than systemd's 90 s for a mount job, and two emulated boots on two
cores make that race a matter of load, not of ordering."""
import os
import subprocess
import time

from lib import disks, net, pair
from . import common

SCENARIOS = {8: 'Diskless client: root over NFS mounted in the initrd, multi-user reached, clean poweroff'}
TIMEOUT = 1200
NO_RESULTS = {'server'}   # the host ends the server's qemu once the client is off
EXPORT = '/srv/nfsroot'
SHUTDOWN_GOAL_S = 60

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CMDLINE = ('console=ttyS0 root=/dev/nfs nfsroot=%s:%s ip=%s:%s::255.255.255.0:nfs-client:eth0:off rw '
           'init=/usr/local/sbin/preinit panic=-1 net.ifnames=0 systemd.show_status=1'
           % (net.SERVER_ADDR, EXPORT, net.CLIENT_ADDR, net.SERVER_ADDR))

SERVER_SH = r'''
link_facts
say SERVING
sleep 1100
'''

# No network configuration in the client's root: the initrd configured eth0 from ip=, and
# nothing may take the address away while / is on NFS.
CLIENT_SH = r'''
link_facts
cap 8.root findmnt -no SOURCE,FSTYPE,OPTIONS /
cap 8.cmdline cat /proc/cmdline
cap 8.pipefs findmnt -rn -t rpc_pipefs -o TARGET,SOURCE
cap 8.multi-user systemctl show -p ActiveState multi-user.target
cap 8.failed systemctl list-units --failed --no-pager --plain
cap 8.initrd-sysroot journalctl -b -o short-monotonic --no-pager -u sysroot.mount
cap 8.initrd-switch journalctl -b -o short-monotonic --no-pager -u initrd-switch-root.service
cap 8.idmapd journalctl -b -o short-monotonic --no-pager -u nfs-idmapd.service
'''

client_files = dict(net.guest_files('nfs-client', net.CLIENT_ADDR), **pair.JOURNAL_FILES)
del client_files['etc/systemd/network/10-wire.network']


class _Client:
    FSTAB = []
    ROOT_FSTAB = ''      # the root is not in fstab: the initrd mounted it
    FILES = client_files
    DISKS = {}
    PREPARE = ''
    SCENARIO_SH = common.SH + CLIENT_SH


server = common.guest('server', net.SERVER_ADDR, fstab=['LABEL=NFSROOT %s ext4 defaults 0 2' % EXPORT],
                      files={'etc/exports': '%s %s(rw,no_subtree_check,no_root_squash)\n'
                                            % (EXPORT, net.CLIENT_ADDR)},
                      script=SERVER_SH)
# For run-ci's schedule: the client boots over NFS only once the server exports its root;
# measured 2026-12-07, 350 s wall for the pair against 107 s for downserver's.
COST = 3

GUESTS = {'server': server, 'client': _Client}
DISKLESS = {'client'}

TIMELINE = {
    'server': [('server booted', '@@SETTLED'), ('server exports the client root', '@@SERVING')],
    'client': [('initrd: sysroot.mount starts', 'Mounting sysroot.mount'),
               ('initrd: root mounted', 'Mounted sysroot.mount'),
               ('initrd: switch root', 'Switching root'),
               ('client booted', '@@SETTLED'), ('client poweroff starts', '@@POWEROFF'),
               ('rpc_pipefs unmount starts', 'Unmounting run-rpc_pipefs.mount'),
               ('final shutdown (systemd-shutdown)', 'systemd-shutdown'),
               ('journal stops', 'Journal stopped')],
}

_built = {}


def setup(top, side, deb, release):
    """Makes the client's tree, kernel and initrd for this side (lib/nfsroot-client) and
    puts the tree on the server's data disk."""
    tree = subprocess.run([os.path.join(HERE, 'image', 'nfsroot-tree'), release], check=True,
                          stdout=subprocess.PIPE, text=True).stdout.strip()
    out = os.path.join(top, 'client-tree')
    subprocess.run([os.path.join(HERE, 'lib', 'nfsroot-client'), tree, out] +
                   (['--stock'] if deb is None else ['--deb', deb]), check=True)
    _built.update(out=out)
    server.DISK_IMAGES = [os.path.join(out, 'nfsroot.raw')]


def boot(role):
    """The client's own kernel, initrd and command line (the server boots as usual)."""
    if role != 'client':
        return None
    return {'kernel': os.path.join(_built['out'], 'vmlinuz'),
            'initrd': os.path.join(_built['out'], 'initrd.img'), 'cmdline': CMDLINE}


def started(g):
    """The client starts once the server has booted (see the module's docstring)."""
    if g.role != 'server':
        return
    deadline = time.monotonic() + 600
    while g.marker('@@SERVING') is None and g.proc.poll() is None and time.monotonic() < deadline:
        g.poll(time.monotonic() - g.t0)
        time.sleep(0.5)


def react(now, guests):
    """The server stays up until the client's qemu has exited (its poweroff needs the root)."""
    if guests['client'].proc.poll() is not None and guests['server'].proc.poll() is None:
        guests['server'].kill()


def initrd_modules():
    with open(os.path.join(_built['out'], 'modules')) as f:
        return f.read().split()


def check(n, sc, rs, guests):
    r, client = rs['client'], guests['client']
    common.link_carried(sc, r, 'client')
    root = r.text('8.root').split()
    sc.check(len(root) >= 2 and root[0] == '%s:%s' % (net.SERVER_ADDR, EXPORT) and root[1] in ('nfs', 'nfs4'),
             '/ is the server\'s export over NFS', r.text('8.root').strip())
    sc.check('ActiveState=active' in r.text('8.multi-user'), 'multi-user.target was reached',
             r.text('8.multi-user').strip())
    sc.check(r.fact('boot-state') == 'running', 'the boot is not degraded',
             '%s; failed: %s' % (r.fact('boot-state'), r.text('8.failed').strip()))
    mods = initrd_modules()
    if sc.side == 'ours':
        sc.check('nfs-systemd' in mods and 'nfs' not in mods,
                 'the initrd holds the nfs-systemd dracut module and not dracut\'s nfs module',
                 ' '.join(mods))
        # "NFS root file system" is our generator's Description= (upstream's says "NFSv4 Root
        # File System"; dracut's nfs module mounts without a unit).
        mounted = r.text('8.initrd-sysroot')
        sc.check('Mounted sysroot.mount - NFS root file system' in mounted,
                 'the initrd mounted / through sysroot.mount from nfsroot-generator', mounted.strip()[-400:])
        idmapd = r.text('8.idmapd')
        sc.check('Started nfs-idmapd.service' in idmapd and 'Failed' not in idmapd,
                 'rpc.idmapd, which sysroot.mount wants for NFSv4, started in the initrd and never failed',
                 idmapd.strip()[-400:])
    else:
        sc.note('initrd modules: %s' % ' '.join(mods))
        sc.note('sysroot.mount in the initrd: %s' % (r.text('8.initrd-sysroot').strip()[-300:] or 'none'))
    h = r.host
    shut = h.get('shutdown')
    sc.check(not h['hung'] and shut is not None and shut < SHUTDOWN_GOAL_S,
             'the client powered off by itself in under %d s' % SHUTDOWN_GOAL_S,
             'hung: %s, shutdown %s s' % (h['hung'], shut))
    waited = [t for t in client.journal('A stop job is running')] + \
        [(0, l) for l in open(client.console, errors='replace') if 'A stop job is running' in l]
    sc.check(not waited, 'no stop job waited at the poweroff (root mount, rpc_pipefs)',
             '; '.join(l.strip()[:160] for _, l in waited[:3]))
    sc.note('rpc_pipefs: %s' % (r.text('8.pipefs').strip() or 'not mounted'))

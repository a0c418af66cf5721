"""Scenarios 18 and 19: the package taken over and given back on a running server, three
cold boots on one root disk (PHASES). Boot 1 runs the stock units; the boot's own steps
install the .deb with dpkg -i while a loopback NFS mount is in use, and check that nothing
was stopped. Boot 2 runs ours; the steps remove and purge the package, again on the
running server. Boot 3 runs the stock units again, byte for byte the files of boot 1.
Our side only: there is no stock column for installing ourselves."""
from lib.check import served_marker

SIDES = ('ours',)
# Three boots: on the current release only (Debian 13; sid by hand), which keeps the two
# releases' runs of the CI about equally long (usrlocal boots on Debian 12 instead).
RELEASES = ('trixie', 'sid')
INSTALL = 'runtime'
PHASES = 3
SCENARIOS = {
    18: 'Package installed on a running stock server, then a reboot: ours, nothing stopped',
    19: 'Package removed and purged on a running server, then a reboot: stock again, byte for byte',
}
OPTS = '*(rw,no_subtree_check,no_root_squash)'
FILES = {
    'etc/exports': '/srv/t %s\n' % OPTS,
    'srv/t/DISK_CONTENT_MARKER': 'root fs export\n',
}
# Stock Debian 13 fails an export on its own fstab disk (BOOT.md, scenario 1): this export
# is a directory of the root filesystem, which both sides serve, so each boot's "served"
# says which units ran, not whether stock can order a disk.
SCENARIO_SH = r'''
DEB=/var/cache/nfs-systemd-boot/nfs-systemd.deb
mkdir -p /var/lib/boot-suite
phase=$(( $(cat /var/lib/boot-suite/phase 2>/dev/null || echo 0) + 1 ))
echo "$phase" >/var/lib/boot-suite/phase
fact phase "$phase"
# Every file and symlink of the two stock packages, at its own path, with its sha256.
# (A command, not a function: cap runs it under timeout.)
# A symlink counts by its target ("link:TARGET" in place of a hash).
# /var/lib/nfs holds state the server rewrites (etab, rmtab): not the package's files.
stock_hashes='dpkg -L nfs-common nfs-kernel-server | grep -v "^/var/" | sort -u | while read -r f; do if [ -L "$f" ]; then echo "link:$(readlink "$f")  $f"; elif [ -f "$f" ]; then sha256sum "$f"; fi; done'
# What a running server is: when it became active, its threads, its daemons' pids.
server_state() { # prefix
	fact "$1.server-active" "$(systemctl show -p ActiveState --value nfs-server.service)"
	fact "$1.server-since" "$(systemctl show -p ActiveEnterTimestampMonotonic --value nfs-server.service)"
	fact "$1.threads" "$(cat /proc/fs/nfsd/threads)"
	for d in rpc.mountd rpc.statd rpc.idmapd nfsdcld; do fact "$1.pids.$d" "$(pids $d)"; done
	fact "$1.docs" "$(systemctl show -p Documentation --value nfs-server.service)"
	fact "$1.fragment" "$(systemctl show -p FragmentPath --value nfs-server.service)"
}
mkdir -p /mnt/t
cap "mount.p$phase" mount -t nfs -o vers=3,soft,timeo=100,retrans=2,retry=0 127.0.0.1:/srv/t /mnt/t
cap "ls.p$phase" ls -A /mnt/t
cap "p$phase.hashes" sh -c "$stock_hashes"
case $phase in
1)
	# A client of this server is busy while the package goes in.
	sleep 600 </mnt/t/DISK_CONTENT_MARKER &
	server_state p1.before
	cap p1.install dpkg -i "$DEB"
	settle
	server_state p1.after
	cap p1.diversions dpkg-divert --list
	cap p1.ls-during ls -A /mnt/t
	cap p1.reload-needed systemctl show -p NeedDaemonReload --value nfs-server.service
	kill %1
	;;
2)
	dpkg -L nfs-systemd | sort -u >/var/lib/boot-suite/ours.list
	server_state p2.before
	cap p2.remove dpkg -r nfs-systemd
	cap p2.purge dpkg -P nfs-systemd
	settle
	server_state p2.after
	cap p2.diversions dpkg-divert --list
	cap p2.ls-during ls -A /mnt/t
	cap p2.hashes-after sh -c "$stock_hashes"
	# Every path the package had that is still there and no directory: only the stock
	# files that were diverted and came back may remain.
	cap p2.left sh -c 'while read -r f; do [ -e "$f" ] && [ ! -d "$f" ] && echo "$f"; done </var/lib/boot-suite/ours.list; true'
	;;
esac
umount /mnt/t
'''


# Our nfs-server-generator's drop-in says this; the stock one's header does not.
OURS_GENERATED = '"nfs-server-generator --explain" says why'


def hashes(text):
    """sha256sum output as {path: hash}."""
    out = {}
    for line in text.splitlines():
        h, _, path = line.partition('  ')
        if path:
            out[path] = h
    return out


def diverted_by_us(text):
    return [l for l in text.splitlines() if l.endswith(' by nfs-systemd')]


def same_server(sc, r, before, after, when):
    """The server and its daemons kept running across a package step: same activation time,
    same threads, same daemon processes."""
    keys = ['server-active', 'server-since', 'threads'] + ['pids.' + d for d in
                                                          ('rpc.mountd', 'rpc.statd', 'rpc.idmapd', 'nfsdcld')]
    diff = {k: (r.fact(before + '.' + k), r.fact(after + '.' + k)) for k in keys
            if r.fact(before + '.' + k) != r.fact(after + '.' + k)}
    sc.check(r.fact(before + '.server-active') == 'active' and not diff,
             '%s: nfs-server.service stayed active, with the same threads and daemon processes' % when, diff)


def check(n, sc, rs):
    p1, p2, p3 = rs
    for i, r in enumerate(rs, 1):
        sc.check(r.fact('phase') == str(i), 'boot %d is phase %d of the disk' % (i, i), r.fact('phase'))
    stock = hashes(p1.text('p1.hashes'))
    sc.check(len(stock) > 20, 'the stock files were hashed before the install', len(stock))
    if n == 18:
        sc.check('nfs.systemd' not in p1.fact('p1.before.docs'), 'boot 1 ran the stock nfs-server.service',
                 p1.fact('p1.before.docs'))
        sc.check(p1.fact('rc.p1.install') == '0', 'dpkg -i on the running system succeeded',
                 p1.text('p1.install')[-300:])
        same_server(sc, p1, 'p1.before', 'p1.after', 'install')
        sc.check('nfs.systemd' in p1.fact('p1.after.docs') and p1.text('p1.reload-needed').strip() == 'no',
                 'after the install systemd has loaded our nfs-server.service (the package reloaded it)',
                 '%s, NeedDaemonReload=%s' % (p1.fact('p1.after.docs'), p1.text('p1.reload-needed').strip()))
        div = diverted_by_us(p1.text('p1.diversions'))
        sc.check(len(div) >= 10 and any('nfs-server.service' in l for l in div),
                 'dpkg-divert --list names the stock files as diverted by nfs-systemd', '%d diversions' % len(div))
        served_marker(sc, p1, 'p1.ls-during', 'the export, in use during the install,')
        docs = p2.show('nfs-server.service').get('Documentation', '')
        sc.check('nfs.systemd' in docs, 'boot 2 runs our nfs-server.service', docs)
        drop = p2.text('generator-files')
        sc.check(OURS_GENERATED in drop,
                 "boot 2's generator output is ours", drop[:200])
        sc.check(p2.show('nfs-server.service').get('ActiveState') == 'active',
                 'boot 2: nfs-server.service is active', p2.show('nfs-server.service').get('ActiveState'))
        served_marker(sc, p2, 'ls.p2', 'boot 2: the export')
        failed = p2.text('boot.failed').strip()
        sc.check(p2.fact('boot-state') == 'running' and not failed, 'boot 2 is running, not degraded',
                 '%s %s' % (p2.fact('boot-state'), failed[:200]))
    else:
        sc.check(p2.fact('rc.p2.remove') == '0' and p2.fact('rc.p2.purge') == '0',
                 'dpkg -r and dpkg -P on the running system succeeded',
                 (p2.text('p2.remove') + p2.text('p2.purge'))[-300:])
        same_server(sc, p2, 'p2.before', 'p2.after', 'removal')
        sc.check('nfs.systemd' not in p2.fact('p2.after.docs'),
                 'after the removal systemd has loaded the stock nfs-server.service again', p2.fact('p2.after.docs'))
        left = diverted_by_us(p2.text('p2.diversions'))
        sc.check(not left, 'no diversion by nfs-systemd is left', left[:3])
        after = hashes(p2.text('p2.hashes-after'))
        changed = sorted(set(stock.items()) ^ set(after.items()))
        sc.check(after and not changed, 'every stock file is back byte for byte (sha256 of boot 1)', changed[:4])
        strays = [p for p in p2.text('p2.left').split('\n') if p and p not in stock]
        sc.check(p2.fact('rc.p2.left') == '0' and not strays, 'no file of ours is left behind', strays[:5])
        docs = p3.show('nfs-server.service').get('Documentation', '')
        # (Debian 12's stock unit has no Documentation= at all.)
        sc.check('nfs.systemd' not in docs and p3.show('nfs-server.service').get('Id'),
                 'boot 3 runs the stock nfs-server.service', docs)
        gen = p3.text('generator-files')
        sc.check(OURS_GENERATED not in gen and 'nfs-server.service.d' in gen, "boot 3's generator output is the stock generator's", gen[:200])
        sc.check(p3.show('nfs-server.service').get('ActiveState') == 'active', 'boot 3: nfs-server.service is active',
                 p3.show('nfs-server.service').get('ActiveState'))
        served_marker(sc, p3, 'ls.p3', 'boot 3: the export')
        sc.check(hashes(p3.text('p3.hashes')) == stock, 'boot 3 has the stock files of boot 1', '')

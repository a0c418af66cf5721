"""Scenario 20 alone: the install for other distributions, `meson install` with prefix
/usr/local (README, "Other distributions"), over the stock packages, touching none of
their files and none of their enablement links. systemd must load our units from
/usr/local/lib/systemd/system and run our generators from
/usr/local/lib/systemd/system-generators in place of the same-named stock ones.
Our side only; it boots an install tree, not the package."""
import os

from lib.check import served_marker, ordered_after_mount, no_failed_units

SIDES = ('ours',)
# On the oldest supported systemd (252): the load path and the generator shadowing it
# relies on are older still. (Passed on Debian 13 too, by hand: tests/boot/run --release trixie --only 20.)
RELEASES = ('bookworm',)
PREFIX = '/usr/local'
SCENARIOS = {20: 'meson install --prefix=/usr/local over the stock packages: ours shadow theirs by name'}
OPTS = '*(rw,no_subtree_check,no_root_squash)'
DISKS = {'S20': {}}
FSTAB = ['LABEL=S20 /srv/s20 ext4 defaults 0 2']
FILES = {
    'etc/exports': '/srv/s20 %s\n' % OPTS,
    'srv/s20/UNDERNEATH': 'root fs\n',
}
UNITS = ['nfs-server.service', 'nfs-mountd.service', 'nfs-idmapd.service', 'rpc-statd.service',
         'nfs-utils.service', 'proc-fs-nfsd.mount']
SCENARIO_SH = r'''
for u in nfs-server.service nfs-mountd.service nfs-idmapd.service rpc-statd.service nfs-utils.service proc-fs-nfsd.mount; do
	fact "20.fragment.$u" "$(systemctl show -p FragmentPath --value "$u")"
done
# Which generators produced the drop-ins: systemd logs each generator it runs at debug
# level only, so ask the files: ours carry our header, the stock ones do not.
cap 20.verify-stock dpkg --verify nfs-common nfs-kernel-server
cap 20.enable-links sh -c 'ls -l /etc/systemd/system/*.wants/ | grep -i nfs'
mkdir -p /mnt/c20
cap mount20 mount -t nfs -o vers=4.2,soft,timeo=100,retrans=2,retry=0 127.0.0.1:/srv/s20 /mnt/c20
cap ls20 ls -A /mnt/c20
umount /mnt/c20
'''


def check(n, sc, r):
    for u in UNITS:
        frag = r.fact('20.fragment.' + u)
        sc.check(frag == '/usr/local/lib/systemd/system/' + u, '%s is loaded from /usr/local/lib/systemd/system' % u,
                 frag)
    gen = r.text('generator-files')
    sc.check('"nfs-server-generator --explain" says why' in gen,
             'the nfs-server.service drop-in is written by our generator from /usr/local', gen[:200])
    with open(os.path.join(r.bootdir, 'outside-prefix.txt')) as f:
        outside = f.read().split()
    sc.check(not outside, 'meson install wrote nothing outside /usr/local', outside[:5])
    sc.check(r.fact('rc.20.verify-stock') == '0' and not r.text('20.verify-stock').strip(),
             'dpkg --verify: every file of nfs-common and nfs-kernel-server is as the packages shipped it',
             r.text('20.verify-stock')[:300])
    sc.check(r.show('nfs-server.service').get('ActiveState') == 'active',
             'nfs-server.service, enabled by the stock package\'s link, is active',
             r.show('nfs-server.service').get('ActiveState'))
    sc.note('enablement links: %s' % r.text('20.enable-links').strip().replace('\n', ' | ')[:300])
    ordered_after_mount(sc, r, '/srv/s20')
    served_marker(sc, r, 'ls20', '/srv/s20')
    no_failed_units(sc, r)

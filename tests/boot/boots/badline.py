"""Scenario 13 alone: Debian's exportfs drops what follows a bad line, which would spoil
any other export in the same boot."""
import re

from lib.check import ordered_after_mount

SCENARIOS = {13: 'One malformed line in /etc/exports between two good exports'}
DISKS = {'G1': {}, 'G2': {}}
FSTAB = ['LABEL=G1 /srv/g1 ext4 defaults 0 2', 'LABEL=G2 /srv/g2 ext4 defaults 0 2']
FILES = {
    # Line 2 has an option exports(5) does not know.
    'etc/exports': ('/srv/g1 *(rw,no_subtree_check)\n'
                    '/srv/bad *(rw,no_subtree_check,no_such_option)\n'
                    '/srv/g2 *(rw,no_subtree_check)\n'),
    'srv/g1/UNDERNEATH': 'root fs\n',
    'srv/g2/UNDERNEATH': 'root fs\n',
    'srv/bad/README': 'root fs\n',
}


def check(n, sc, r):
    ordered_after_mount(sc, r, '/srv/g1')
    ordered_after_mount(sc, r, '/srv/g2')
    named = r.journal_lines(r'/etc/exports:2\b')
    sc.check(named, 'the journal names the bad line (/etc/exports:2)', 'no such line')
    # exportfs names it too, at server start; the generator runs first, at every boot and
    # daemon-reload, and is the one that decides the ordering. systemd.generator(7): a
    # generator has no syslog, its messages go to /dev/kmsg (stderr is not kept).
    by_generator = [l for l in named if 'generator' in l]
    sc.check(by_generator, 'nfs-server-generator\'s report of the bad line reaches the journal',
             'only: ' + ' | '.join(re.sub(r'^\[\s*[\d.]+\]\s*', '', l) for l in named[:2]))
    for l in named[:3]:
        sc.note('journal: ' + re.sub(r'^\[\s*[\d.]+\]\s*', '', l))
    served = [l.split()[0] for l in r.text('boot.exportfs').splitlines() if l.startswith('/')]
    sc.note("Debian's exportfs then serves: %s" % (' '.join(served) or 'nothing'))

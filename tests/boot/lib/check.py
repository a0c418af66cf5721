"""Assertions for one scenario: each is printed as PASS/FAIL with what was seen, and the
scenario passes only when every one of its assertions did."""
import re
import subprocess


class Scenario:
    def __init__(self, number, title, side):
        self.number, self.title, self.side = number, title, side
        self.assertions = []   # (ok, what, seen)
        self.notes = []        # recorded, not asserted (e.g. what Debian's exportfs serves)

    def check(self, ok, what, seen=''):
        seen = str(seen)
        self.assertions.append((bool(ok), what, seen))
        print('  %s  [%s] %2d: %s%s' % ('PASS' if ok else 'FAIL', self.side, self.number, what,
                                       '' if ok else '  (seen: %s)' % seen), flush=True)
        return bool(ok)

    def note(self, text):
        self.notes.append(text)
        print('  NOTE  [%s] %2d: %s' % (self.side, self.number, text), flush=True)

    @property
    def passed(self):
        return bool(self.assertions) and all(ok for ok, _, _ in self.assertions)

    def failures(self):
        return [(what, seen) for ok, what, seen in self.assertions if not ok]


def mount_unit(path):
    """The unit name systemd gives the mount at path (systemd-escape is the reference)."""
    return subprocess.run(['systemd-escape', '--path', '--suffix=mount', path], check=True,
                          capture_output=True, text=True).stdout.strip()


def served_marker(sc, r, key, what):
    """A loopback NFS mount listed the exported disk's files, not the directory below.
    key is the listing's name (ls.X or lsX); the mount's own output is mount.X or mountX."""
    listing = r.text(key)
    mount = r.text(key.replace('ls', 'mount', 1)).strip()
    sc.check(r.fact('rc.' + key) == '0' and 'DISK_CONTENT_MARKER' in listing
             and 'UNDERNEATH' not in listing,
             what + ' serves the disk\'s files over a loopback NFS mount',
             'listing: %s; mount: %s' % (listing.strip().replace('\n', ' ')[:200] or 'empty',
                                         mount[:200] or 'ok'))


def ordered_after_mount(sc, r, path):
    """nfs-server.service is After= the mount of path and started only once it was mounted."""
    unit = mount_unit(path)
    after = r.show_list('nfs-server.service', 'After')
    mounted = r.usec(unit, 'ActiveEnterTimestampMonotonic')
    started = r.usec('nfs-server.service', 'InactiveExitTimestampMonotonic')
    sc.check(unit in after, 'nfs-server.service is ordered after %s' % unit,
             'After= lacks it' if unit not in after else '')
    sc.check(mounted is not None and started is not None and mounted <= started,
             'nfs-server started only after %s was mounted' % path,
             'mounted at %s s, server start at %s s' % (mounted, started))


def no_failed_units(sc, r, when='boot', suffix=''):
    failed = r.text(when + '.failed').strip()
    sc.check(failed == '', 'no failed unit' + suffix, failed.replace('\n', '; ')[:300])


def server_active(sc, r, when='boot'):
    state = r.show('nfs-server.service', when).get('ActiveState', '?')
    sc.check(state == 'active', 'nfs-server.service is active', state)


def shutdown_order(sc, r, first, then, what):
    """At poweroff, systemd's status line `first` (e.g. 'Unmounted mnt-loop.mount') came
    before `then` (e.g. 'Stopping nfs-server.service'), as the console shows them."""
    tail = r.console().split('@@POWEROFF')[-1]
    lines = [re.sub(r'\x1b\[[0-9;]*m', '', l) for l in tail.splitlines()]

    def index(event):
        word, unit = event.split(' ', 1)
        for i, l in enumerate(lines):
            if re.search(r'\b%s %s\b' % (re.escape(word), re.escape(unit)), l):
                return i
        return None
    a, b = index(first), index(then)
    sc.check(a is not None and b is not None and a < b, what,
             'console line %s for %r, %s for %r' % (a, first, b, then))

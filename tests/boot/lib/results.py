"""What one boot left behind, read on the host: the guest's result tar (facts.txt and one
.txt per captured command), the console log, and the host's own timings."""
import os
import re
import shlex


def read_facts(resultdir):
    """facts.txt of a result directory as a dict ({} when the guest wrote none)."""
    facts = {}
    path = os.path.join(resultdir, 'facts.txt')
    if os.path.exists(path):
        with open(path, errors='replace') as f:
            for line in f:
                key, _, value = line.rstrip('\n').partition('=')
                facts[key] = value
    return facts


class Results:
    def __init__(self, bootdir, host):
        self.dir = os.path.join(bootdir, 'results')
        self.bootdir = bootdir
        self.host = host
        self.facts = read_facts(self.dir)

    @property
    def complete(self):
        """The driver ran to the end and its results reached the host."""
        return 'rc.journal' in self.facts

    def fact(self, key, default=''):
        return self.facts.get(key, default)

    def text(self, name):
        path = os.path.join(self.dir, name + '.txt')
        if not os.path.exists(path):
            return ''
        with open(path, errors='replace') as f:
            return f.read()

    def console(self):
        with open(os.path.join(self.bootdir, 'console.log'), errors='replace') as f:
            return f.read()

    def show(self, unit, when='boot'):
        """systemctl show properties of unit at snapshot when ({} if not shown)."""
        for name in (when + '.show', when + '.show-mounts'):
            # Several units per file, one block each, each with its Id=.
            for block in self.text(name).split('\n\n'):
                fields = dict(l.partition('=')[::2] for l in block.splitlines())
                if fields.get('Id') == unit:
                    return fields
        return {}

    def show_list(self, unit, prop, when='boot'):
        """A list property (After=, RequiresMountsFor=...) as systemctl show quotes it."""
        try:
            return shlex.split(self.show(unit, when).get(prop, ''))
        except ValueError:
            return self.show(unit, when).get(prop, '').split()

    def usec(self, unit, prop, when='boot'):
        """A monotonic timestamp property in seconds since kernel start (None if never)."""
        value = self.show(unit, when).get(prop, '0')
        return int(value) / 1e6 if value.isdigit() and int(value) > 0 else None

    def pids(self, name, when='boot'):
        return self.fact('%s.pids.%s' % (when, name)).split()

    def mounts(self, when='boot'):
        """findmnt -r rows as dicts; TARGET and SOURCE keep findmnt's \\x20 escapes decoded."""
        rows = []
        for line in self.text(when + '.findmnt').splitlines():
            parts = line.split(' ')
            if len(parts) >= 3:
                dec = [re.sub(r'\\x([0-9a-f]{2})', lambda m: chr(int(m.group(1), 16)), p) for p in parts]
                rows.append({'target': dec[0], 'source': dec[1], 'fstype': dec[2],
                             'options': dec[3] if len(dec) > 3 else ''})
        return rows

    def mount_at(self, target, when='boot'):
        for row in self.mounts(when):
            if row['target'] == target:
                return row
        return None

    def journal_lines(self, pattern):
        rx = re.compile(pattern)
        return [l for l in self.text('journal').splitlines() if rx.search(l)]

    def nfs_server_active_s(self):
        return self.usec('nfs-server.service', 'ActiveEnterTimestampMonotonic')

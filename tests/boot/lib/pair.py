"""Runs several guests at once (a server and a client on one link) and times what they say on
one host clock: each guest's driver markers (second serial port) and its journal, which
journald forwards to a third serial port (JOURNAL_FILES). Every guest has a hard timeout and
every qemu is ended by its own pid."""
import os
import subprocess
import time

from . import vm

# journald copies every entry to ttyS2, which qemu writes to a file on the host: the host
# sees the shutdown's journal too (the result disk is written before the poweroff) and
# stamps each line with its own clock, the same for both guests.
JOURNAL_FILES = {
    'etc/systemd/journald.conf.d/boot-suite-serial.conf':
        '[Journal]\nForwardToConsole=yes\nTTYPath=/dev/ttyS2\nMaxLevelConsole=info\n',
}


class Guest:
    def __init__(self, role, workdir, image, root, payload, result, data, nics, reboot=False,
                 extra=(), shutdown_timeout=240, boot=None):
        self.role, self.workdir = role, workdir
        self.console = os.path.join(workdir, 'console.log')
        self.markers_log = os.path.join(workdir, 'markers.log')
        self.journal_log = os.path.join(workdir, 'journal-serial.log')
        for p in (self.console, self.markers_log, self.journal_log):
            open(p, 'w').close()
        self.cmd = vm.command(image, self.console, self.markers_log, root, payload, result, data,
                              nics=nics, smp=1, reboot=reboot,
                              extra=['-serial', 'file:' + self.journal_log] + list(extra),
                              **(boot or {}))
        self.shutdown_timeout = shutdown_timeout
        self.proc = None
        self.events = []     # (host time, 'marker'|'journal', text), in the order seen
        self._read = {'marker': 0, 'journal': 0}
        self._partial = {'marker': b'', 'journal': b''}
        self.hung = False

    def start(self, t0):
        self.t0 = t0
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL,
                                     stdout=open(os.path.join(self.workdir, 'qemu.out'), 'w'),
                                     stderr=subprocess.STDOUT)
        with open(os.path.join(self.workdir, 'qemu.pid'), 'w') as f:
            f.write('%d\n' % self.proc.pid)

    def _lines(self, kind, path, now):
        with open(path, 'rb') as f:
            f.seek(self._read[kind])
            data = f.read()
        self._read[kind] += len(data)
        data = self._partial[kind] + data
        *whole, self._partial[kind] = data.split(b'\n')
        for line in whole:
            self.events.append((round(now, 1), kind, line.decode(errors='replace').rstrip('\r')))

    def poll(self, now):
        """Reads what the guest said since the last poll; True while its qemu runs."""
        self._lines('marker', self.markers_log, now)
        self._lines('journal', self.journal_log, now)
        return self.proc.poll() is None

    def marker(self, word, last=False):
        """Host time of a driver marker (first or last time it was said), None if never."""
        times = [t for t, kind, text in self.events if kind == 'marker' and text.split(' ')[0] == word]
        return (times[-1] if last else times[0]) if times else None

    def journal(self, needle):
        """(host time, line) of each forwarded journal line containing needle."""
        return [(t, text) for t, kind, text in self.events if kind == 'journal' and needle in text]

    def kill(self, hung=None):
        if self.proc.poll() is None:
            self.proc.kill()  # this guest's own qemu, by its pid
            self.proc.wait()
            if hung:
                self.hung = hung

    def host_facts(self, end):
        """The host-side facts in lib/vm.py's shape (Results reads them), plus the events."""
        markers = {}
        for t, kind, text in self.events:
            if kind == 'marker' and text.startswith('@@'):
                markers.setdefault(text.split(' ')[0], t)
        out = {'hung': self.hung, 'exit': self.proc.returncode, 'wall': round(end, 1),
               'markers': markers, 'host_load': self.load}
        off = self.marker('@@POWEROFF', last=True)
        if off is not None and not self.hung:
            out['shutdown'] = round(self.exited - off, 1)
        return out


def run(guests, timeout, react=None, stagger=None, boot_timeout=600):
    """Starts the guests (in order; stagger(guest) may wait before the next one starts), runs
    until every qemu exited or timeout seconds passed, and kills what is left. A guest still
    running at the timeout hung at 'boot' (no @@POWEROFF yet) or at 'shutdown'; one that
    has been shutting down for its shutdown_timeout is killed as a 'shutdown' hang.
    A guest that has not finished booting (@@SETTLED) after boot_timeout seconds ends the
    run: the others wait for it in vain. react(now) is called on each poll so a pair can act on what the guests said (e.g. end
    the server's qemu once the client holds a file open)."""
    t0 = time.monotonic()
    for g in guests:
        g.load = os.getloadavg()[0]
        g.start(t0)
        if stagger:
            stagger(g)
    running = set(guests)
    try:
        while running:
            now = time.monotonic() - t0
            for g in list(running):
                if not g.poll(now):
                    g.exited = now
                    running.discard(g)
                    continue
                off = g.marker('@@POWEROFF', last=True)
                if off is not None and now - off > g.shutdown_timeout:
                    g.kill('shutdown')
                elif now > timeout:
                    g.kill('shutdown' if off is not None else 'boot')
                if g.proc.poll() is not None:
                    g.poll(now)
                    g.exited = now
                    running.discard(g)
            late = [g for g in running if now > boot_timeout and g.marker('@@SETTLED') is None]
            for g in late + (list(running) if late else []):
                g.kill('boot')
                g.poll(now)
                g.exited = now
                running.discard(g)
            if react and running:
                react(now)
            time.sleep(0.2)
    finally:
        for g in guests:  # an exception in react must not leave a qemu behind
            if g.proc and g.proc.poll() is None:
                g.kill('boot')
                g.exited = time.monotonic() - t0
    end = time.monotonic() - t0
    return {g.role: g.host_facts(end) for g in guests}


def timeline(guests, wanted):
    """Text lines 'time  role  what' for the events of interest, in host time order.
    wanted maps a role to [(label, needle)]: a marker word (@@...) or a journal substring."""
    rows = []
    for g in guests:
        for label, needle in wanted.get(g.role, []):
            if needle.startswith('@@'):
                for t, kind, text in g.events:
                    if kind == 'marker' and text.split(' ')[0] == needle:
                        rows.append((t, g.role, label))
            else:
                for t, _ in g.journal(needle):
                    rows.append((t, g.role, label))
    rows.sort()
    return ['%7.1f s  %-6s  %s' % r for r in rows]

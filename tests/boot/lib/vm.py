"""Boots one guest under qemu (software emulation only: /dev/kvm hangs on these machines)
and times it from the host: when the guest's driver reported the poweroff request on its
second serial port, and when qemu exited."""
import os
import subprocess
import time

CMDLINE = ('console=ttyS0 root=/dev/vda rw init=/usr/local/sbin/preinit panic=-1 '
           'net.ifnames=0 systemd.show_status=1')


def command(image_dir, console, markers, root_disk, payload_disk, result_disk, data_disks,
            nics=('-nic', 'none'), smp=None, reboot=False, extra=(), kernel=None, initrd=None,
            cmdline=CMDLINE):
    """The qemu command line of one guest. The multi-guest boots (lib/pair.py) give it a
    NIC on a host-local link (nics), one CPU each, may let a guest reboot itself (reboot),
    and add a serial port for the forwarded journal (extra). A diskless guest
    (pairs/nfsroot.py) brings its own kernel, initrd and command line."""
    # One CPU a guest unless NFS_BOOT_SMP says more: run-ci boots two guests at a time on
    # two cores, where two one-CPU guests finish sooner than two two-CPU guests. Measured
    # 2026-12-07, two Debian 13 boots side by side: 77 and 72 s wall with one CPU each,
    # 102 and 100 s with two; three one-CPU guests at once took 122-128 s (more guests
    # than cores gains nothing).
    smp = smp or int(os.environ.get('NFS_BOOT_SMP', '1'))
    cmd = ['qemu-system-x86_64', '-accel', 'tcg', '-machine', 'q35', '-cpu', 'max',
           '-m', '1024', '-smp', str(smp)] + list(nics) + ['-display', 'none'] + \
        ([] if reboot else ['-no-reboot']) + \
        ['-monitor', 'none', '-kernel', kernel or os.path.join(image_dir, 'vmlinuz'),
         '-initrd', initrd or os.path.join(image_dir, 'initrd.img'), '-append', cmdline,
         '-serial', 'file:' + console, '-serial', 'file:' + markers] + list(extra)
    # Order matters: the guest sees these as vda (root), vdb (payload), vdc (results), vdd...
    for path, fmt in [(root_disk, 'qcow2'), (payload_disk, 'raw'), (result_disk, 'raw')] + \
            [(d, 'raw') for d in data_disks]:
        cmd += ['-drive', 'file=%s,if=virtio,format=%s,cache=unsafe' % (path, fmt)]
    return cmd


def boot(image_dir, workdir, root_disk, payload_disk, result_disk, data_disks, timeout,
         shutdown_timeout=240):
    """Runs qemu until it exits, timeout seconds pass, or the guest has been shutting down
    for shutdown_timeout seconds (systemd gives a stuck stop job 90 s; more is a hang).
    Returns a dict of host-side facts: hung (False, 'boot' or 'shutdown'), exit code, and
    wall times of the driver's markers and of qemu's exit."""
    console = os.path.join(workdir, 'console.log')
    markers = os.path.join(workdir, 'markers.log')
    for p in (console, markers):
        open(p, 'w').close()
    cmd = command(image_dir, console, markers, root_disk, payload_disk, result_disk, data_disks)
    seen = {}
    load = os.getloadavg()[0]  # other work on the host slows emulated boots; say how much
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=open(os.path.join(workdir, 'qemu.out'), 'w'),
                            stderr=subprocess.STDOUT)
    hung = False
    while proc.poll() is None:
        now = time.monotonic()
        if now - start > timeout or now - start - seen.get('@@POWEROFF', now) > shutdown_timeout:
            hung = 'shutdown' if '@@POWEROFF' in seen else 'boot'
            proc.kill()
            proc.wait()
            break
        with open(markers, errors='replace') as f:
            for line in f:
                word = line.strip().split(' ')[0]
                if word.startswith('@@') and word not in seen:
                    seen[word] = now - start
        time.sleep(0.1)
    end = time.monotonic() - start
    with open(markers, errors='replace') as f:
        for line in f:
            word = line.strip().split(' ')[0]
            seen.setdefault(word, end)
    out = {'hung': hung, 'exit': proc.returncode, 'wall': round(end, 1), 'host_load': load,
           'markers': {k: round(v, 1) for k, v in seen.items() if k.startswith('@@')}}
    if '@@POWEROFF' in seen and not hung:
        out['shutdown'] = round(end - seen['@@POWEROFF'], 1)
    return out


def died_before_systemd(workdir, host):
    """Why the guest ended before systemd started, or None: qemu exited by itself (a reset,
    which -no-reboot turns into an exit) and the console never shows systemd's banner.
    Nothing of this project has run by then but dpkg -i in preinit, which cannot end it."""
    if host['hung'] or host['markers']:
        return None
    with open(os.path.join(workdir, 'console.log'), errors='replace') as f:
        if 'Welcome to ' in f.read():
            return None
    return 'qemu exited %s after %.0f s, no systemd banner on the console' % (host['exit'], host['wall'])


def console_tail(workdir, lines=25):
    """The last lines of a boot's console and anything qemu itself printed, indented for
    a run's log (CI keeps the log, not the console file)."""
    out = []
    for name in ('console.log', 'qemu.out'):
        with open(os.path.join(workdir, name), errors='replace') as f:
            tail = f.read().splitlines()[-lines:]
        out += ['    | %s: %s' % (name, l) for l in tail]
    return '\n'.join(out) or '    | (console and qemu output empty)'

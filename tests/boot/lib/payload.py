"""The per-boot payload disk: a file tree the guest's pre-init copies over its root before
systemd starts (scenario /etc files, the driver, and for our side the project's install
tree), plus a prepare.sh for what a tree cannot say (masking, enabling)."""
import os
import shutil

from . import disks

GUEST = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'guest')

# Every boot, both sides: shorter NFSv4 and NLM grace periods. The scenarios mount and lock
# seconds after the server starts; with the default 90 s grace they would only wait longer.
# This changes no ordering and leaves /etc/nfs.conf as Debian ships it (scenario 12).
def grace_files(seconds):
    """The files that set nfsd's NFSv4 grace and lockd's NLM grace to seconds (the lease
    stays 10 s); a boot that needs a longer grace puts these in its FILES."""
    return {
        'etc/nfs.conf.d/boot-suite-grace.conf': '[nfsd]\ngrace-time=%d\nlease-time=10\n' % seconds,
        'etc/modprobe.d/boot-suite-lockd.conf': 'options lockd nlm_grace_period=%d\n' % seconds,
    }


COMMON_FILES = {
    **grace_files(10),
    'etc/systemd/system/multi-user.target.wants/boot-scenario.service':
        ('symlink', '/etc/systemd/system/boot-scenario.service'),
}
ROOT_FSTAB = '/dev/vda / ext4 rw 0 1\n'


def _guest(name):
    with open(os.path.join(GUEST, name)) as f:
        return f.read()


DEB_IN_GUEST = '/var/cache/nfs-systemd-boot/nfs-systemd.deb'


def build(workdir, boot, destdir=None, deb=None):
    """Writes payload.raw in workdir for boot (a module from boots/). Our side comes either
    as the Debian package (deb: installed with dpkg -i before systemd starts, or by the
    boot's own steps) or as an install tree copied over the stock one (destdir). The guest
    copies the payload at every boot, so a phased boot (PHASES) sees it each time."""
    top = os.path.join(workdir, 'payload')
    shutil.rmtree(top, ignore_errors=True)
    root = os.path.join(top, 'root')
    os.makedirs(root)
    if destdir:
        shutil.copytree(destdir, root, symlinks=True, dirs_exist_ok=True)
    if deb:
        os.makedirs(os.path.dirname(root + DEB_IN_GUEST))
        shutil.copy(deb, root + DEB_IN_GUEST)
    files = dict(COMMON_FILES)
    files.update({
        'usr/local/sbin/boot-collect': _guest('collect'),
        'usr/local/lib/boot-suite/lib.sh': _guest('lib.sh'),
        'etc/systemd/system/boot-scenario.service': _guest('boot-scenario.service'),
        'etc/fstab': getattr(boot, 'ROOT_FSTAB', ROOT_FSTAB) + ''.join(l + '\n' for l in getattr(boot, 'FSTAB', [])),
        'etc/boot-suite/scenario.sh': '#!/bin/bash\n. /usr/local/lib/boot-suite/lib.sh\n'
                                      + getattr(boot, 'SCENARIO_SH', ''),
    })
    files.update(getattr(boot, 'FILES', {}))
    disks.write_tree(root, files)
    prepare = getattr(boot, 'PREPARE', '')
    # INSTALL = 'runtime': the package only lies in the guest; the boot's own steps install
    # (and remove) it on the running system, as an administrator does.
    if deb and getattr(boot, 'INSTALL', 'preinit') == 'preinit':
        # The package diverts the stock files and leaves enablement to nfs-common and
        # nfs-kernel-server (their links are in the image already); its daemon-reload is
        # skipped here because systemd is not running yet.
        prepare = ('dpkg -i %s >/dev/console 2>&1 || echo "preinit: dpkg -i failed" >/dev/console\n'
                   % DEB_IN_GUEST) + prepare
    elif destdir and not getattr(boot, 'PREFIX', None):
        # As a package's postinst would: enablement follows our units' [Install] sections.
        # (A /usr/local install leaves the distribution's enablement as it is: its point is
        # that our files shadow the stock ones by name.)
        prepare = ('systemctl --no-reload reenable nfs-server.service nfs-client.target'
                   ' >/dev/console 2>&1 || echo "preinit: reenable failed" >/dev/console\n') + prepare
    with open(os.path.join(top, 'prepare.sh'), 'w') as f:
        f.write(prepare)
    image = os.path.join(workdir, 'payload.raw')
    disks.ext4_from_tree(image, top, 'PAYLOAD', size='256M')
    return image


def data_disks(workdir, boot):
    """The extra disks of a boot (exported filesystems), each an ext4 with a marker file."""
    images = []
    for label, files in getattr(boot, 'DISKS', {}).items():
        tree = os.path.join(workdir, 'disk-' + label)
        shutil.rmtree(tree, ignore_errors=True)
        os.makedirs(tree)
        disks.write_tree(tree, dict({'DISK_CONTENT_MARKER': 'disk %s\n' % label}, **files))
        image = os.path.join(workdir, 'disk-%s.raw' % label)
        disks.ext4_from_tree(image, tree, label)
        shutil.rmtree(tree)
        images.append(image)
    return images

"""Disk images for one boot, all made without loop mounts: ext4 filesystems come from
directory trees (mkfs.ext4 -d), the root disk is a qcow2 overlay over the cached base."""
import os
import subprocess


def write_tree(top, files):
    """Create files below top. files maps a relative path to str/bytes content, or to
    ('symlink', target), or to ('dir',). Parent directories are created."""
    for rel, content in files.items():
        path = os.path.join(top, rel.lstrip('/'))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if isinstance(content, tuple) and content[0] == 'symlink':
            if os.path.lexists(path):
                os.unlink(path)
            os.symlink(content[1], path)
        elif isinstance(content, tuple) and content[0] == 'dir':
            os.makedirs(path, exist_ok=True)
        else:
            data = content.encode() if isinstance(content, str) else content
            with open(path, 'wb') as f:
                f.write(data)
            if data.startswith(b'#!'):
                os.chmod(path, 0o755)


def ext4_from_tree(image, tree, label, size='64M'):
    """An ext4 filesystem image holding tree, labelled so fstab can name it."""
    if os.path.exists(image):
        os.unlink(image)
    subprocess.run(['truncate', '-s', size, image], check=True)
    subprocess.run(['mkfs.ext4', '-q', '-F', '-L', label, '-d', tree, image], check=True)


def overlay(image, backing):
    """A copy-on-write root disk: the cached base stays untouched by the guest."""
    if os.path.exists(image):
        os.unlink(image)
    subprocess.run(['qemu-img', 'create', '-q', '-f', 'qcow2', '-b', backing, '-F', 'raw', image],
                   check=True)


def blank(image, size='64M'):
    """A zeroed raw disk the guest writes its results to (a tar stream, no filesystem)."""
    if os.path.exists(image):
        os.unlink(image)
    subprocess.run(['truncate', '-s', size, image], check=True)


def empty_qcow2(image, size='64M'):
    """A root disk with nothing on it, for a guest whose root comes over the network."""
    if os.path.exists(image):
        os.unlink(image)
    subprocess.run(['qemu-img', 'create', '-q', '-f', 'qcow2', image, size], check=True)

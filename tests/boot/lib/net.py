"""The private link of the multi-guest boots: qemu's socket netdev on 127.0.0.1 (the server's
qemu listens, the client's connects), a virtio-net NIC in each guest, 192.0.2.0/24 (TEST-NET-1)
addresses with no default route, configured by systemd-networkd so that network-online.target
means something. No user-mode networking: nothing on the link can reach past this host."""
import json
import os
import socket
import time

SERVER_ADDR, CLIENT_ADDR = '192.0.2.1', '192.0.2.2'
SERVER_NAME = 'nfs-server'   # the client's fstab names the server by its /etc/hosts entry
NIC_ID = 'nic0'


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now (the server's qemu takes it next)."""
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def listening(port):
    """Whether something listens on 127.0.0.1:port, read from /proc/net/tcp: connecting to
    find out would take the one connection the server's qemu accepts."""
    want = '0100007F:%04X' % port
    with open('/proc/net/tcp') as f:
        return any(l.split()[1] == want and l.split()[3] == '0A' for l in f.readlines()[1:])


def nic(mac, netdev):
    return ['-netdev', netdev, '-device', 'virtio-net-pci,netdev=n0,id=%s,mac=%s' % (NIC_ID, mac)]


def server_nic(port):
    return nic('52:54:00:00:02:01', 'socket,id=n0,listen=127.0.0.1:%d' % port)


def client_nic(port):
    return nic('52:54:00:00:02:02', 'socket,id=n0,connect=127.0.0.1:%d' % port)


def guest_files(name, addr):
    """Hostname, /etc/hosts (the server's name for the client's fstab) and the networkd
    configuration of eth0 (net.ifnames=0): one static address, no gateway."""
    return {
        'etc/hostname': name + '\n',
        'etc/hosts': '127.0.0.1 localhost\n127.0.1.1 %s\n%s %s\n%s nfs-client\n' % (
            name, SERVER_ADDR, SERVER_NAME, CLIENT_ADDR),
        'etc/systemd/network/10-wire.network':
            '[Match]\nName=eth0\n\n[Network]\nAddress=%s/24\nLinkLocalAddressing=no\nIPv6AcceptRA=no\n' % addr,
    }


# Enabled as an administrator would (networkd is not enabled by default on Debian).
PREPARE = ('systemctl --no-reload enable systemd-networkd.service systemd-networkd-wait-online.service'
           ' >/dev/console 2>&1 || echo "preinit: enabling networkd failed" >/dev/console\n')


def qmp_link_down(path, timeout=30):
    """Sets the NIC's link down through qemu's QMP socket at path, then lets the paused guest
    (-S) run: it boots with no carrier from its first instruction. Returns what qemu said."""
    deadline = time.monotonic() + timeout
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            raise RuntimeError('no QMP socket at %s after %d s' % (path, timeout))
        time.sleep(0.1)
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(timeout)
    s.connect(path)
    f = s.makefile('rw')
    replies = [json.loads(f.readline())]  # the greeting
    for cmd in ({'execute': 'qmp_capabilities'},
                {'execute': 'set_link', 'arguments': {'name': NIC_ID, 'up': False}},
                {'execute': 'cont'}):
        f.write(json.dumps(cmd) + '\n')
        f.flush()
        while True:  # skip asynchronous events until the command's reply
            reply = json.loads(f.readline())
            if 'event' not in reply:
                break
        if 'error' in reply:
            raise RuntimeError('QMP %s: %s' % (cmd['execute'], reply['error']))
        replies.append(reply)
    s.close()
    return replies

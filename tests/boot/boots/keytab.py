"""Scenario 10 alone: a bad keytab may fail a unit, which would spoil other scenarios'
"no failed unit"."""
from lib.check import no_failed_units, server_active

SCENARIOS = {10: 'nfs-client.target and nfs-server.service enabled, keytab without a usable key'}
FILES = {
    'etc/exports': '/srv/s10 *(rw,no_subtree_check)\n',
    'srv/s10/README': 'exported from the root fs\n',
    # Present, so every Condition on /etc/krb5.keytab is met, but no key can be read from it.
    'etc/krb5.keytab': b'this is not a keytab\n',
}
PREPARE = 'systemctl --no-reload enable nfs-client.target nfs-server.service\n'


def check(n, sc, r):
    enabled = r.text('is-enabled').split()
    sc.check(enabled == ['enabled', 'enabled'], 'nfs-server.service and nfs-client.target are enabled',
             enabled)
    cycles = r.text('ordering-cycle').strip()
    sc.check(not cycles, 'no ordering cycle in the journal', cycles[:300])
    no_failed_units(sc, r)
    server_active(sc, r)

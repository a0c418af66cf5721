"""Scenario 16 alone: a client-only host (nfs-common without nfs-kernel-server) with
nfs-client.target enabled and no network at all. Its server daemons are moved away before
systemd starts, as if nfs-kernel-server were not installed, so it spoils no other scenario."""
SCENARIOS = {16: 'Client-only host, nfs-client.target enabled, no network: no network-online wait',
             22: 'A keytab installed after boot: nfs-keytab.path starts rpc-gssd and the RPCSEC_GSS module'}
SERVER_BINARIES = ['rpc.nfsd', 'rpc.mountd', 'exportfs', 'nfsdctl', 'nfsdcld', 'rpc.svcgssd', 'fsidd']
# No nfs-kernel-server: its binaries are gone and its unit is not enabled (a package that is
# not installed enables nothing); nfs-client.target is enabled, as nfs-common does.
PREPARE = ''.join('[ -e /usr/sbin/%s ] && mv /usr/sbin/%s /root/%s.removed\n' % (b, b, b)
                  for b in SERVER_BINARIES) + r'''
systemctl --no-reload disable nfs-server.service >/dev/console 2>&1 || true
systemctl --no-reload enable nfs-client.target >/dev/console 2>&1
'''
SCENARIO_SH = r'''
# KEY=value lines, one property per line: systemctl prints properties in its own order.
cap 16.network-online systemctl show -p ActiveState -p ActiveEnterTimestampMonotonic network-online.target
cap 16.network-online-jobs sh -c 'journalctl -b --no-pager -o cat | grep -i "network-online\|Network is Online" || true'
cap 16.client-target systemctl show -p ActiveState -p Wants nfs-client.target
# Someone starts the server anyway (a script, an old habit): our unit is skipped, not failed.
cap 16.start-server systemctl start nfs-server.service
cap 16.server-state systemctl show -p ActiveState -p Result -p ConditionResult nfs-server.service
cap 16.failed systemctl list-units --failed --plain --no-legend --no-pager
# 22: no keytab at boot, so rpc-gssd was skipped by its condition; then one is installed
# (a realm join would write a real one; rpc.gssd reads it only for machine credentials).
cap 22.before systemctl show -p ActiveState -p ConditionResult rpc-gssd.service
printf 'this is not a keytab\n' >/etc/krb5.keytab
t0=$(cut -d' ' -f1 /proc/uptime)
left=300
until systemctl is-active -q rpc-gssd.service || [ $left -le 0 ]; do sleep 0.1; left=$((left - 1)); done
fact 22.started-s "$(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f", b - a }')"
sleep 2
cap 22.after systemctl show -p ActiveState -p Result rpc-gssd.service auth-rpcgss-module.service
cap 22.journal journalctl -b --no-pager -o short-monotonic -u nfs-keytab.path -u nfs-keytab-changed.service -u rpc-gssd.service
cap 22.failed systemctl list-units --failed --plain --no-legend --no-pager
rm -f /etc/krb5.keytab
'''


def props(text):
    """systemctl show's KEY=value lines as a dict."""
    return dict(l.split('=', 1) for l in text.splitlines() if '=' in l)


def check(n, sc, r):
    if n == 22:
        before = props(r.text('22.before'))
        sc.check(before.get('ActiveState') == 'inactive', 'without a keytab rpc-gssd.service did not start at boot',
                 before)
        blocks = [props(b) for b in r.text('22.after').split('\n\n')]
        sc.check(len(blocks) == 2 and blocks[0].get('ActiveState') == 'active',
                 'rpc-gssd.service runs %s s after the keytab appeared' % r.fact('22.started-s'), blocks)
        sc.check(len(blocks) == 2 and blocks[1].get('ActiveState') == 'active',
                 'auth-rpcgss-module.service ran for it', blocks)
        sc.check(r.text('22.failed').strip() == '', 'no unit failed', r.text('22.failed').strip())
        return
    sc.check(r.fact('boot-state') == 'running', 'the boot is not degraded', r.fact('boot-state'))
    online = props(r.text('16.network-online'))
    sc.check(online.get('ActiveState') == 'inactive' and online.get('ActiveEnterTimestampMonotonic') == '0',
             'network-online.target was never started', online)
    started = [l for l in r.text('16.network-online-jobs').splitlines() if 'Reached target' in l]
    sc.check(not started, 'the journal shows no network-online.target reached', started[:2])
    client = props(r.text('16.client-target'))
    sc.check(client.get('ActiveState') == 'active', 'nfs-client.target is active', client)
    server = props(r.text('16.server-state'))
    sc.note('starting nfs-server.service by hand: rc=%s, %s' % (r.fact('rc.16.start-server'), server))
    if sc.side == 'ours':
        sc.check(server.get('ActiveState') == 'inactive' and server.get('Result') == 'success'
                 and server.get('ConditionResult') == 'no' and r.fact('rc.16.start-server') == '0',
                 'nfs-server.service started by hand on a client is skipped by its condition, not failed',
                 'rc=%s %s' % (r.fact('rc.16.start-server'), server))
    failed = r.text('16.failed').strip()
    sc.check(not failed, 'no unit failed', failed.replace('\n', '; ')[:300])

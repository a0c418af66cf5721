"""Scenario 16 alone: a client-only host (nfs-common without nfs-kernel-server) with
nfs-client.target enabled and no network at all. Its server daemons are moved away before
systemd starts, as if nfs-kernel-server were not installed, so it spoils no other scenario."""
SCENARIOS = {16: 'Client-only host, nfs-client.target enabled, no network: no network-online wait'}
SERVER_BINARIES = ['rpc.nfsd', 'rpc.mountd', 'exportfs', 'nfsdctl', 'nfsdcld', 'rpc.svcgssd', 'fsidd']
# No nfs-kernel-server: its binaries are gone and its unit is not enabled (a package that is
# not installed enables nothing); nfs-client.target is enabled, as nfs-common does.
PREPARE = ''.join('[ -e /usr/sbin/%s ] && mv /usr/sbin/%s /root/%s.removed\n' % (b, b, b)
                  for b in SERVER_BINARIES) + r'''
systemctl --no-reload disable nfs-server.service >/dev/console 2>&1 || true
systemctl --no-reload enable nfs-client.target >/dev/console 2>&1
'''
SCENARIO_SH = r'''
fact 16.network-online "$(systemctl show -p ActiveState,ActiveEnterTimestampMonotonic --value network-online.target | xargs)"
cap 16.network-online-jobs sh -c 'journalctl -b --no-pager -o cat | grep -i "network-online\|Network is Online" || true'
cap 16.client-target systemctl show -p ActiveState,Wants --value nfs-client.target
# Someone starts the server anyway (a script, an old habit): our unit is skipped, not failed.
cap 16.start-server systemctl start nfs-server.service
fact 16.server-state "$(systemctl show -p ActiveState,Result,ConditionResult --value nfs-server.service | xargs)"
cap 16.failed systemctl list-units --failed --plain --no-legend --no-pager
'''


def check(n, sc, r):
    sc.check(r.fact('boot-state') == 'running', 'the boot is not degraded', r.fact('boot-state'))
    state = r.fact('16.network-online').split()
    sc.check(state[:1] == ['inactive'] and state[1:] in (['0'], []),
             'network-online.target was never started', r.fact('16.network-online'))
    started = [l for l in r.text('16.network-online-jobs').splitlines() if 'Reached target' in l]
    sc.check(not started, 'the journal shows no network-online.target reached', started[:2])
    sc.check(r.text('16.client-target').startswith('active'), 'nfs-client.target is active',
             r.text('16.client-target').strip()[:200])
    sc.note('starting nfs-server.service by hand: rc=%s, %s' % (
        r.fact('rc.16.start-server'), r.fact('16.server-state')))
    if sc.side == 'ours':
        sc.check(r.fact('16.server-state').split()[:2] == ['inactive', 'success'],
                 'nfs-server.service started by hand on a client is skipped, not failed',
                 r.fact('16.server-state'))
    failed = r.text('16.failed').strip()
    sc.check(not failed, 'no unit failed', failed.replace('\n', '; ')[:300])

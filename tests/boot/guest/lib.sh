# Helpers for the guest-side scenario scripts (sourced). Everything lands in $R, which
# the driver writes to the result disk; the host makes every assertion from it.
R=/run/boot-results
mkdir -p "$R"

# fact KEY VALUE: one line in facts.txt; keys are unique per boot.
fact() { printf '%s=%s\n' "$1" "$2" >>"$R/facts.txt"; }

# cap NAME CMD...: output (stdout+stderr) into NAME.txt, exit status into fact rc.NAME.
cap() {
	local name=$1 rc=0
	shift
	timeout "${CAP_TIMEOUT:-60}" "$@" >"$R/$name.txt" 2>&1 || rc=$?
	fact "rc.$name" "$rc"
	return 0
}

# pids NAME: pids of processes named exactly NAME, space separated (empty when none).
pids() { pgrep -x "$1" | xargs; }

# snap PREFIX: the state the assertions look at, taken at one moment.
snap() {
	local p=$1 u
	cap "$p.is-system-running" systemctl is-system-running
	cap "$p.failed" systemctl list-units --failed --plain --no-legend --no-pager
	cap "$p.units" systemctl list-units --all --plain --no-legend --no-pager
	cap "$p.ps" ps -eo pid,ppid,comm,args
	cap "$p.exportfs" exportfs -v
	cap "$p.findmnt" findmnt -rn -o TARGET,SOURCE,FSTYPE,OPTIONS
	cap "$p.rpcinfo" rpcinfo -p
	cap "$p.status-nfs-server" systemctl status --no-pager -l --lines=30 nfs-server.service
	# One systemctl call for every unit of interest (each block carries its Id=): under
	# software emulation every process start costs.
	cap "$p.show" systemctl show --no-pager -- nfs-server.service nfs-mountd.service \
		nfs-idmapd.service nfsdcld.service rpc-statd.service rpc-statd-notify.service \
		rpc-gssd.service rpc-svcgssd.service auth-rpcgss-module.service nfs-client.target \
		nfs-utils.service rpcbind.service rpcbind.socket rpc_pipefs.target proc-fs-nfsd.mount \
		nfs-blkmap.service
	# Every mount unit's timing, to prove what the server was ordered after.
	systemctl list-units --type=mount --all --plain --no-legend --no-pager | awk '{print $1}' |
		xargs -r -d '\n' systemctl show --no-pager \
			-p Id,ActiveState,Result,Where,What,ActiveEnterTimestampMonotonic,InactiveExitTimestampMonotonic -- \
			>"$R/$p.show-mounts.txt" 2>&1
	for u in rpc.mountd rpc.idmapd rpc.statd rpcbind nfsdcld rpc.gssd rpc.svcgssd; do
		fact "$p.pids.$u" "$(pids "$u")"
	done
	fact "$p.nfsd-threads" "$(cat /proc/fs/nfsd/threads 2>/dev/null || echo none)"
}

# settle [SECONDS]: wait until systemd has no job queued (at most SECONDS, default 120).
# `systemctl restart X` returns when X's own job is done; the jobs it propagated (PartOf=)
# may still run, and under a loaded host they take seconds.
settle() {
	local left=${1:-120}
	while [ "$left" -gt 0 ] && [ -n "$(systemctl list-jobs --no-legend --no-pager 2>/dev/null | grep -v boot-scenario)" ]; do
		sleep 1
		left=$((left - 1))
	done
}

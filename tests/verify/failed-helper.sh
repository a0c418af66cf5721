#!/bin/bash
# The helper that nfs-server-failed@.service runs, with systemctl and
# logger replaced by recorders: it names the missing mount and its mount
# point, logs into the server unit's journal (OBJECT_SYSTEMD_UNIT=), and
# stops rpc-statd only when no NFSv2/v3 mount exists.
. "$(dirname "$0")/lib.sh"

install_project "$SCRATCH/destdir"
helper=$(find "$SCRATCH/destdir" -path '*/nfs-systemd/nfs-server-failed' -type f -print -quit)
{ [ -n "$helper" ] && [ -x "$helper" ]; } || fail "nfs-server-failed is not installed executable"

bin="$SCRATCH/bin"
mkdir -p "$bin"
# A system where nfs-server.service requires srv-s5.mount (missing disk),
# -.mount and nfs-mountd.service (being stopped by the helper's unit).
cat >"$bin/systemctl" <<'FAKE'
#!/bin/bash
echo "systemctl $*" >>"$RECORD"
case "$*" in
"show --property=Requires --property=BindsTo --value -- nfs-server.service")
	echo "system.slice -.mount srv-s5.mount nfs-mountd.service proc-fs-nfsd.mount"; echo ;;
"show --property=ActiveState --value -- srv-s5.mount") echo inactive ;;
"show --property=ActiveState --value -- nfs-mountd.service") echo deactivating ;;
"show --property=Result --value -- nfs-mountd.service") echo success ;;
"show --property=Where --value -- srv-s5.mount") echo /srv/s5 ;;
"show --property=ActiveState --value -- "*) echo active ;;
"show --property=Result --value -- nfs-server.service") echo dependency ;;
"stop --no-block -- rpc-statd.service") ;;
# A unit name that starts with "-" (-.mount, the root filesystem) must
# follow "--", or systemctl reads it as an option.
*) echo "unexpected: systemctl $*" >&2; exit 1 ;;
esac
FAKE
cat >"$bin/logger" <<'FAKE'
#!/bin/bash
{ echo "logger $*"; cat; } >>"$RECORD"
FAKE
chmod +x "$bin/systemctl" "$bin/logger"

run() { # MOUNTS-FILE
	RECORD="$SCRATCH/record" NFS_SERVER_FAILED_MOUNTS="$1" PATH="$bin:$PATH" \
		"$helper" nfs-server.service >"$SCRATCH/stdout" 2>"$SCRATCH/stderr" ||
		{ cat "$SCRATCH/stderr" >&2; fail "the helper exited non-zero"; }
	[ ! -s "$SCRATCH/stderr" ] || { cat "$SCRATCH/stderr" >&2; fail "the helper wrote to stderr"; }
}

printf '/dev/sda1 / ext4 rw 0 0\nserver:/v4 /mnt/v4 nfs4 rw 0 0\n' >"$SCRATCH/mounts-v4"
: >"$SCRATCH/record"
run "$SCRATCH/mounts-v4"
grep -qF 'required srv-s5.mount (/srv/s5) is inactive' "$SCRATCH/stdout" ||
	fail "the message does not name the missing mount: $(cat "$SCRATCH/stdout")"
if grep -qF -e 'nfs-mountd.service' -e '-.mount' "$SCRATCH/stdout"; then
	fail "an active unit or mountd (stopped by the helper itself) is named as a reason: $(cat "$SCRATCH/stdout")"
fi
grep -qxF 'OBJECT_SYSTEMD_UNIT=nfs-server.service' "$SCRATCH/record" ||
	fail "not logged into nfs-server.service's journal: $(cat "$SCRATCH/record")"
grep -qxF 'PRIORITY=3' "$SCRATCH/record" || fail "not logged as an error"
grep -qxF 'systemctl stop --no-block -- rpc-statd.service' "$SCRATCH/record" ||
	fail "rpc-statd not stopped although no NFSv3 mount exists"

printf '/dev/sda1 / ext4 rw 0 0\nserver:/v3 /mnt/v3 nfs rw,vers=3 0 0\n' >"$SCRATCH/mounts-v3"
: >"$SCRATCH/record"
run "$SCRATCH/mounts-v3"
if grep -qF 'rpc-statd' "$SCRATCH/record"; then
	fail "rpc-statd stopped although an NFSv3 mount needs it"
fi
grep -qF 'kept rpc.statd' "$SCRATCH/stdout" || fail "the message does not say statd was kept"
echo "ok: $(cat "$SCRATCH/stdout")"

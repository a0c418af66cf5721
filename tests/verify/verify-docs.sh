#!/bin/bash
# Every Documentation= man page of every unit exists: `systemd-analyze
# verify --man=yes` runs man(1) for each.  The pages come from this
# project's install (nfs.systemd(7), the generators' pages) and from
# nfs-utils (rpc.nfsd(8), exportfs(8), ...), found on this host or in the
# extracted Debian packages of the development cache.
. "$(dirname "$0")/lib.sh"
need_tool man

root="$SCRATCH/root"
make_root "$root"
manpath=""
while IFS= read -r d; do manpath="$manpath${manpath:+:}$d"; done < <(
	find "$SCRATCH/destdir" -type d -name man -path '*/share/man' -print)
[ -n "$manpath" ] || fail "meson install installed no man pages"
nfs_utils_pages=""
for d in /usr/share/man /var/cache/nfs-systemd/stock/usr/share/man /var/cache/nfs-systemd-dev/stock/usr/share/man; do
	if [ -e "$d/man8/rpc.nfsd.8.gz" ] || [ -e "$d/man8/rpc.nfsd.8" ]; then
		nfs_utils_pages=$d
		break
	fi
done
# Without nfs-utils' pages (nfs-common/nfs-kernel-server not installed)
# their references cannot be checked here: a missing tool, not a pass.
[ -n "$nfs_utils_pages" ] || skip "nfs-utils man pages (rpc.nfsd(8)) are not installed"
manpath="$manpath:$nfs_utils_pages:/usr/share/man"

mapfile -t units < <(our_units)
status=0
(cd "$SCRATCH" && MANPATH="$manpath" systemd-analyze verify --man=yes --root="$root" "${units[@]}") \
	>"$SCRATCH/out" 2>&1 || status=$?
if [ "$status" -ne 0 ] || [ -s "$SCRATCH/out" ]; then
	cat "$SCRATCH/out" >&2
	fail "Documentation= pages missing (MANPATH=$manpath)"
fi
echo "all Documentation= pages of ${#units[@]} units found in $manpath"

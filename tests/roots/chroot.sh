# shellcheck shell=bash
# Sourced: a writable copy of a cached root (tests/roots/build) to chroot into.
# The copy is an overlay whose upper layer is a tmpfs, so nothing written in it
# reaches the cached root and everything goes when it is taken down.
#
#   root_up CACHED_ROOT DIR   mounts the copy at DIR/root (with /proc and /dev),
#                             installs a policy-rc.d that forbids starting
#                             daemons, and prints DIR/root
#   root_down DIR             unmounts everything under DIR (idempotent)
#   in_root DIR COMMAND...    runs COMMAND in the chroot

root_up() { # cached, dir
	local cached=$1 dir=$2
	[[ -f $cached/.complete ]] || { echo "root_up: $cached is not a complete root" >&2; return 1; }
	mkdir -p "$dir/layers" "$dir/root"
	mount -t tmpfs -o size=3G,mode=0755 nfs-systemd-root "$dir/layers" || return 1
	mkdir -p "$dir/layers/upper" "$dir/layers/work"
	mount -t overlay overlay \
		-o "lowerdir=$cached,upperdir=$dir/layers/upper,workdir=$dir/layers/work" "$dir/root" || return 1
	mount -t proc proc "$dir/root/proc" || return 1
	mount --bind /dev "$dir/root/dev" || return 1
	# Maintainer scripts (ours and nfs-common's) start nothing in the copy.
	printf '#!/bin/sh\nexit 101\n' >"$dir/root/usr/sbin/policy-rc.d"
	chmod 755 "$dir/root/usr/sbin/policy-rc.d"
	echo "$dir/root"
}

root_down() { # dir
	local dir=$1 m
	# Innermost first: every mount point below DIR, deepest path first.
	for m in $(awk -v d="$dir/" 'index($2, d) == 1 { print $2 }' /proc/self/mounts | sort -r); do
		umount "$m" 2>/dev/null || umount -l "$m"
	done
}

in_root() { # dir, command...
	local dir=$1
	shift
	chroot "$dir/root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive HOME=/root "$@"
}

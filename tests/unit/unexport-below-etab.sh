#!/bin/bash
# unexport-below on an etab that Debian 13's own exportfs (nfs-utils 2.8.3,
# `exportfs -ra` in a trixie root with fsidd) wrote from exports with
# reexport=auto-fsidnum, reexport=predefined-fsidnum, xprtsec=tls:mtls and a
# sec= list (etab-debian13). It passes no diagnostics list to the exports
# reader: an option the reader did not know made it dereference NULL and die
# with SIGSEGV, so nothing was withdrawn at poweroff (issue 21).
#
# Runs the helper in a private mount namespace: a tmpfs on the state
# directory holds the etab, nfs.conf is empty, and a stand-in for exportfs
# (on a tmpfs over its directory) records the arguments it is given.
# Usage: unexport-below-etab.sh HELPER ETAB STATEDIR EXPORTFS_PATH
set -u
helper=$1 etab=$2 statedir=$3 exportfs=$4
if [ "$(id -u)" -ne 0 ] || ! unshare --mount true 2>/dev/null; then
        echo "SKIP: needs root and a mount namespace"
        exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: >"$work/empty"

unshare --mount --propagation private /bin/bash -c '
        set -e
        helper=$1 etab=$2 statedir=$3 exportfs=$4 work=$5
        mkdir -p "$statedir"
        mount -t tmpfs tmpfs "$statedir"
        cp "$etab" "$statedir/etab"
        for f in /etc/nfs.conf /usr/etc/nfs.conf; do
                [ -e "$f" ] && mount --bind "$work/empty" "$f"
        done
        for d in /etc/nfs.conf.d /usr/etc/nfs.conf.d; do
                [ -d "$d" ] && mount -t tmpfs tmpfs "$d"
        done
        dir=${exportfs%/*}
        mkdir -p "$dir"
        mount -t tmpfs tmpfs "$dir"
        printf "#!/bin/sh\nprintf \"%%s\\\\n\" \"\$@\" >%s/args\n" "$work" >"$exportfs"
        chmod +x "$exportfs"
        "$helper" /srv/archive
' run "$helper" "$etab" "$statedir" "$exportfs" "$work"
status=$?
if [ "$status" -ne 0 ]; then
        echo "FAIL: unexport-below exited with status $status on an etab of Debian 13's exportfs"
        exit 1
fi
# every export at or below /srv/archive, and not /srv/local
want=$(printf '%s\n' -u 10.0.0.0/8:/srv/archive '[2001:db8::/32]:/srv/archive' \
        '@clients:/srv/archive/with space' '*:/srv/archive/sub' | sort)
got=$(sort "$work/args" 2>/dev/null)
if [ "$got" != "$want" ]; then
        echo "FAIL: exportfs was given:"
        cat "$work/args" 2>/dev/null
        echo "expected (in any order):"
        echo "$want"
        exit 1
fi
echo "ok: every export below /srv/archive withdrawn from an etab of Debian 13's exportfs"

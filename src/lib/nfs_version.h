/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "fstab.h"
#include "nfs_utils.h"

/* The NFS version a mount asks for, decided as mount.nfs decides it
 * (nfs_nfs_version() in nfs-utils' utils/mount/network.c, the same from
 * 2.5.3 to 2.9.1, and what utils/mount/stropts.c then does with it): one
 * function, so that every check and program reads a mount's version the
 * same way. No I/O. tests/diff/run-mountnfs-version-diff holds it against
 * the mount.nfs of Debian 12, 13 and sid. */

/* Why mount.nfs refuses the options before it talks to any server: the
 * mount then fails at every boot */
enum nfs_version_refusal {
        NFS_VERSION_ACCEPTED,
        /* since nfs-utils 2.5.3 (commit aef19759) a mount names its version
         * once: no option wins */
        NFS_VERSION_MULTIPLE,
        /* a version or minorversion= value mount.nfs cannot read, or a minor
         * version below NFSv4 (nfsvers=3.0) */
        NFS_VERSION_UNREADABLE,
        /* read, but neither NFSv3 nor NFSv4 (NFSv2 is no longer mounted) */
        NFS_VERSION_UNSUPPORTED,
        /* NFSv4 asked for with an option of NFSv3's MOUNT protocol
         * (nfs_mountd_option()) */
        NFS_VERSION_MOUNTD_OPTION_ON_V4,
};

struct nfs_version {
        /* 0: not named (mount.nfs negotiates: NFSv4.2, 4.1, 4.0, then 3);
         * else 3 or 4. As strtol() reads it, so any long while refused. */
        long major;
        /* whether the options name the NFSv4 minor version (vers=4.1,
         * minorversion=1 with vers=4 or type nfs4); else mount.nfs tries 2,
         * then 1, then 0 */
        bool minor_named;
        /* as strtol() reads it: mount.nfs passes a negative one on (as an
         * unsigned long), and the kernel refuses it */
        long minor;
        enum nfs_version_refusal refusal;
        /* mount.nfs's own words for the refusal (without the "for MOUNT
         * POINT" that nfs-utils 2.7 and later add), NULL when accepted */
        const char *refused;
};

/* The libmount release (libmount_version_installed()) from which on an
 * option identical to a later one (name and value) is dropped before
 * mount.nfs reads them (util-linux 5b783fe3, "optlist", deduplicates and
 * keeps the last): v3,v3 is one version option there. Debian 13 has 2.41,
 * Debian 12 2.38. */
#define LIBMOUNT_DROPS_DUPLICATES NFS_UTILS_VERSION(2, 39, 0)

/* The version the options ask for on a mount of type `fstype`, as mount.nfs
 * reads them after libmount release `libmount` (0: unknown, taken for the
 * newest) has joined them:
 * - v2, v3, v4 (v4.N), vers and nfsvers are matched by prefix (vers3=1 is
 *   vers=1, nfsversion=3 is nfsvers=3), and may appear once in all (a copy
 *   of the same option counts once since libmount 2.39);
 * - the value is read as strtol() reads it (blanks, a sign, digits); a minor
 *   version after a '.' is taken for NFSv4 and later only (nfsvers=3.0 is
 *   refused), and the last minorversion= counts with vers=4 (or type nfs4)
 *   only, not with vers=4.N;
 * - with no version option, type nfs4 is NFSv4, and type nfs is NFSv3 when
 *   an option of the MOUNT protocol is given (mounthost, mountaddr,
 *   mountvers, mountproto; mountport too: mount.nfs then refuses each NFSv4
 *   attempt and falls back);
 * - NFSv2 and versions other than 3 and 4 are refused, and so is NFSv4 with
 *   an option of the MOUNT protocol.
 * What the kernel then refuses (vers=4.3, a negative minor version, an
 * unknown option such as vers3) is not decided here. */
struct nfs_version nfs_version_asked(const char *fstype, const char *options, unsigned libmount);

/* Whether mount.nfs reads option `o` as a version option (v2, v3, v4...,
 * vers..., nfsvers..., by prefix): a fix keeps only one. */
bool nfs_version_option(const struct mount_option *o);

/* Whether `o` is an option of NFSv3's MOUNT protocol (mounthost, mountaddr,
 * mountvers, mountproto, mountport), which mount.nfs refuses for NFSv4 */
bool nfs_mountd_option(const struct mount_option *o);

/* NFSv3 (NFSv2 is refused): the version that needs rpcbind for MOUNT and,
 * without nolock, rpc.statd for NLM locking */
static inline bool nfs_version_is_v3(struct nfs_version v) {
        return !v.refused && v.major == 3;
}

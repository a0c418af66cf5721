/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "fstab.h"

/* The NFS version a mount asks for, decided as mount.nfs decides it
 * (nfs_nfs_version() in nfs-utils' utils/mount/network.c, the same in
 * 2.6.2, 2.8.3 and 2.9.1): one function, so that every check and program
 * reads a mount's version the same way. No I/O. */

struct nfs_version {
        int major; /* 0: not named (mount.nfs negotiates, NFSv4 first) */
        int minor; /* -1: not named */
        /* mount.nfs's own words when it refuses the options (the mount
         * then fails), else NULL */
        const char *refused;
};

/* The version the options (as libmount joins them) ask for on a mount of
 * type `fstype`. Since nfs-utils 2.5.3 (commit aef19759) there is no
 * "last one wins": the options v2, v3, v4 (v4.N), vers= and nfsvers= (by
 * prefix, as mount.nfs matches them) may appear once in all, or mount.nfs
 * refuses the mount ("multiple version options not permitted"). The value is
 * read as strtol() does; a minor version is taken for NFSv4 and later only
 * (nfsvers=3.0 is refused), and minorversion=N counts with vers=4. With no
 * version option, type nfs4 is NFSv4. */
struct nfs_version nfs_version_asked(const char *fstype, const char *options);

/* Whether mount.nfs reads option `o` as a version option (v2, v3, v4...,
 * vers..., nfsvers..., by prefix): a fix keeps only one. */
bool nfs_version_option(const struct mount_option *o);

/* NFSv2 and NFSv3: the versions that need rpcbind for MOUNT and, without
 * nolock, rpc.statd for NLM locking */
static inline bool nfs_version_is_v2_or_v3(struct nfs_version v) {
        return !v.refused && (v.major == 2 || v.major == 3);
}

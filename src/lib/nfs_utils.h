/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "rootfs.h"

/* Which nfs-utils a root holds, for the readers that must judge input the way
 * that release's tools do. A version is 10000 * major + 100 * minor + patch
 * (2.6.2 is 20602); 0 means unknown, and readers then take the newest release
 * they know. */
#define NFS_UTILS_VERSION(major, minor, patch) ((major) *10000u + (minor) *100u + (patch))
#define NFS_UTILS_MAJOR(v) ((v) / 10000u)
#define NFS_UTILS_MINOR(v) ((v) / 100u % 100u)
#define NFS_UTILS_PATCH(v) ((v) % 100u)

/* The upstream version inside a Debian version ("1:2.6.2-4+deb12u1" is
 * 2.6.2), or 0 when it is not of that form. */
unsigned nfs_utils_version_from_debian(const char *debian_version);

/* The version of nfs-kernel-server (which ships exportfs), or else of
 * nfs-common, that dpkg's status file below the root says is installed; 0
 * when neither is, or the file cannot be read. Only -ENOMEM is an error. */
int nfs_utils_version_installed(const struct rootfs *root, unsigned *ret);

/* The version of util-linux's libmount (libmount1) in the same numbers
 * (2.39.0 is 23900), found the same way: mount(8) and mount.nfs hand the
 * options through it, and how it joins them changed in 2.39. */
int libmount_version_installed(const struct rootfs *root, unsigned *ret);

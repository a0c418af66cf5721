/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "rootfs.h"

/* The mount points of one fstab, each named as rootfs_canonical_path()
 * names it, with the parent directories already resolved kept open: mount
 * points share a few parents (/srv/nfs/vol1, /srv/nfs/vol2, ...), and
 * resolving each one from "/" cost four opens and two readlinks a line
 * (issue 21: 0.4 s of system time at 20,000 fstab lines). A path whose
 * last component is a symbolic link or ".." is resolved in full, so the
 * answer is always rootfs_canonical_path()'s. */
struct canonical_paths;

/* NULL on OOM; `r` must outlive the cache */
struct canonical_paths *canonical_paths_new(const struct rootfs *r);
void canonical_paths_free(struct canonical_paths *c);
static inline void canonical_paths_freep(struct canonical_paths **c) {
        canonical_paths_free(*c);
}

/* As rootfs_canonical_path(r, path, ret), same results and errors. */
int canonical_paths_resolve(struct canonical_paths *c, const char *path, char **ret);

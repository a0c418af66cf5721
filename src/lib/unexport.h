/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>

#include "exports.h"

/* Which exports hold a mount point, as `exportfs -u` arguments.
 *
 * nfsd holds every filesystem it exports. An NFS mount from this very host
 * that is exported again (a loopback re-export) therefore cannot be
 * unmounted while it is exported, and once the server has stopped, its
 * unmount waits for a server that is gone (a 90 s poweroff). So its exports
 * are withdrawn first, while the server still runs: nfs-reexport@.service
 * runs unexport-below for it. This decides what to withdraw. */

struct unexport_list {
        char **args; /* "HOST:PATH" or "[IPV6-HOST]:PATH", as exportfs -u reads it */
        size_t n;
};

/* Every client of every entry of `etab` (the export table exportfs keeps,
 * read with exports_parse) whose served path, `export_root` ([exports]
 * rootdir=, may be NULL) applied, lies at or below `mount_point`
 * (normalised). Returns 0 or -ENOMEM. */
int unexport_list_below(const struct export_table *etab, const char *export_root, const char *mount_point,
                        struct unexport_list *ret);
void unexport_list_free(struct unexport_list *l);

/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "buf.h"
#include "diag.h"
#include "fstab.h"
#include "nfsconf.h"

/* Where rpc_pipefs must be mounted, decided from nfs.conf: the daemons that
 * talk to the kernel through it (idmapd, gssd, nfsdcld, blkmapd) read
 * [general] pipefs-directory= themselves, so the mount must follow it.
 * No I/O here: the mounts already present are handed in. */

struct pipefs_plan {
        bool generate;    /* a mount unit and a target override are needed */
        char *path;       /* the configured directory (normalised) */
        char *unit;       /* its mount unit name */
        const char *file; /* where pipefs-directory= is set */
        unsigned line;
};

/* `default_dir` is STATEDIR/rpc_pipefs, which the static units mount.
 * `mounted` (may be NULL) lists the mounts the running system has; `fstab`
 * those it will have. A path that is, or will be, a mount of another type is
 * refused (reported, nothing generated). */
int pipefs_decide(const struct nfsconf *conf, const char *default_dir, const struct fstab_table *fstab,
                  const struct fstab_table *mounted, struct pipefs_plan *ret, struct diag_list *diags);

/* The mount unit and the rpc_pipefs.target that replaces the static one. */
int pipefs_render_mount(const struct pipefs_plan *plan, struct buf *out);
int pipefs_render_target(const struct pipefs_plan *plan, struct buf *out);

void pipefs_plan_free(struct pipefs_plan *plan);

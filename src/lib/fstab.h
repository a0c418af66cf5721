/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "strmap.h"
#include "rootfs.h"

/* /etc/fstab through libmount, reduced to what NFS ordering needs. */

struct fstab_mount {
        char *where; /* mount point, normalised as systemd names its unit */
        char *what;  /* source as written (unescaped) */
        char *fstype;
        char *options; /* all options, as libmount joins them ("" when none) */
        unsigned line;
        bool noauto, nofail, netdev;
        bool nfs; /* type nfs or nfs4 */
        /* an earlier line has the same mount point: systemd-fstab-generator
         * ignores this line, and so does every program of ours */
        bool shadowed;
};

struct fstab_table {
        struct fstab_mount *mounts;
        size_t n;
        size_t cap;
        const char *file;     /* display name, static */
        struct strmap owners; /* mount point → the line that owns it */
};

/* Parses an fstab held in `f`. Malformed lines become diagnostics and are
 * skipped; only -ENOMEM (or libmount failing outright) is an error. */
int fstab_parse(struct fstab_table *t, FILE *f, const char *file, struct diag_list *diags);
/* The same, with each mount point resolved below `root` as
 * systemd-fstab-generator resolves it (rootfs_canonical_path()). */
int fstab_parse_below(struct fstab_table *t, FILE *f, const char *file, const struct rootfs *root,
                      struct diag_list *diags);
/* /etc/fstab below the root; a missing file is an empty table. */
int fstab_read(struct fstab_table *t, const struct rootfs *root, struct diag_list *diags);

/* The one rule for "which fstab line owns a mount point", used by every
 * program: the first line for it, as systemd-fstab-generator keeps (it
 * ignores later ones, "Failed to create unit file ..., as it already
 * exists"). NULL when no line mounts `where` (normalised). Later lines are
 * marked `shadowed`, and fstab_parse() reports each with both line numbers. */
const struct fstab_mount *fstab_owner(const struct fstab_table *t, const char *where);

/* Whether the mount carries option `name`; its value (or NULL) in *ret_value,
 * to be freed. Returns true/false. */
bool fstab_mount_has_option(const struct fstab_mount *m, const char *name, char **ret_value);

void fstab_table_free(struct fstab_table *t);

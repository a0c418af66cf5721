/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>

#include "arena.h"
#include "diag.h"
#include "exports.h"

/* The set of paths the server serves, each once, as both the generator and
 * the checker see it: the export lines grouped by the directory they serve
 * (nfs.conf's [exports] rootdir= applied, normalised), with the mp state of
 * all their clients. One place decides it, so the two programs cannot
 * disagree about which paths there are or which of them wait for a mount. */

struct exported_path {
        char *path;                             /* served path: rootdir applied, normalised
                                                 * (exported_paths.strings') */
        const struct export_entry *first;       /* first line exporting it */
        const struct export_entry *first_no_mp; /* first line with a client without mp, or NULL when
                                                 * every client of every line has mp (exportfs then
                                                 * serves the path only once it is mounted) */
        /* the root of an NFSv4 pseudo filesystem, or a part of one made to
         * hold the exports below it: a client of one of its lines has fsid=0
         * (fsid=root) or crossmnt, or it is the nearest exported parent of a
         * path with a nohide or crossmnt client. Such a directory sits on
         * the root filesystem on purpose. */
        bool pseudo_root;
};

struct exported_paths {
        struct exported_path *paths; /* distinct, in the order of their first line */
        size_t n;
        /* for each export_table entry (same index): its path in `paths`, or
         * NULL when the line's path is unusable */
        const struct exported_path **of_entry;
        size_t n_entries;
        struct arena strings; /* the paths */
};

/* Groups `exports` by served path. `export_root` is [exports] rootdir= (NULL
 * or "" for none). A path that cannot be normalised (too long, a component
 * over 255 bytes) is left out with an error, a path with ".." kept with a
 * warning, in `diags` (NULL: not reported). Returns 0 or -ENOMEM. */
int exported_paths_build(const struct export_table *exports, const char *export_root,
                         struct exported_paths *ret, struct diag_list *diags);

/* Whether exportfs serves the path only once it is a mount point: every
 * client of every line exporting it has mp/mountpoint. */
static inline bool exported_path_waits_for_mount(const struct exported_path *ep) {
        return !ep->first_no_mp;
}

void exported_paths_free(struct exported_paths *paths);

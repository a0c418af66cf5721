/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "exported.h"
#include "macro.h"
#include "strmap.h"
#include "strutil.h"

/* A line's path that the server cannot serve, or serves under another name:
 * said once, here, for every program. */
static int report_path(struct diag_list *diags, const struct export_entry *e, const char *target) {
        _cleanup_free_ char *shown = escape_for_comment(e->path);
        _cleanup_free_ char *resolved = NULL;

        if (!shown)
                return -ENOMEM;
        if (!target)
                return diag_add(diags, DIAG_ERROR, e->file, e->line,
                                "export path %s is too long or has a component over 255 bytes; not ordered",
                                shown);
        resolved = escape_for_comment(target);
        if (!resolved)
                return -ENOMEM;
        return diag_add(diags, DIAG_WARNING, e->file, e->line,
                        "export path %s has \"..\"; ordering after %s", shown, resolved);
}

static bool entry_has_client(const struct export_entry *e, bool fsid_root, bool crossmnt, bool nohide) {
        for (size_t i = 0; i < e->n_clients; i++) {
                const struct export_client *cl = &e->clients[i];
                if ((fsid_root && cl->fsid_root) || (crossmnt && cl->crossmnt) || (nohide && cl->nohide))
                        return true;
        }
        return false;
}

/* Marks the pseudo-roots (exported_path.pseudo_root): one walk up from each
 * nohide or crossmnt path, each step a lookup, so linear in the lines. */
static int mark_pseudo_roots(struct exported_paths *s, const struct export_table *exports,
                             const struct strmap *by_path) {
        for (size_t i = 0; i < exports->n; i++) {
                const struct export_entry *e = &exports->entries[i];
                struct exported_path *ep = s->of_entry[i] ? &s->paths[s->of_entry[i] - s->paths] : NULL;
                _cleanup_free_ char *parent = NULL;

                if (!ep)
                        continue;
                if (entry_has_client(e, true, true, false))
                        ep->pseudo_root = true;
                if (!entry_has_client(e, false, true, true))
                        continue;
                parent = strdup(ep->path);
                if (!parent)
                        return -ENOMEM;
                while (path_cut_last(parent)) {
                        struct exported_path *up = strmap_get(by_path, parent);
                        if (up) {
                                up->pseudo_root = true;
                                break;
                        }
                }
        }
        return 0;
}

int exported_paths_build(const struct export_table *exports, const char *export_root,
                         struct exported_paths *ret, struct diag_list *diags) {
        _cleanup_(exported_paths_free) struct exported_paths s = {};
        _cleanup_(strmap_free) struct strmap by_path = {};
        int r;

        assert(exports);
        assert(ret);

        /* at most one path per line: no reallocation, so the map's values
         * (pointers into `paths`) stay valid */
        s.paths = calloc(exports->n ? exports->n : 1, sizeof(*s.paths));
        s.of_entry = calloc(exports->n ? exports->n : 1, sizeof(*s.of_entry));
        if (!s.paths || !s.of_entry)
                return -ENOMEM;
        s.n_entries = exports->n;
        r = strmap_reserve(&by_path, exports->n);
        if (r < 0)
                return r;

        for (size_t i = 0; i < exports->n; i++) {
                const struct export_entry *e = &exports->entries[i];
                char target[PATH_MAX + 1];
                struct exported_path *ep;
                bool dotdot;

                r = export_path_served_into(export_root, e->path, target, &dotdot);
                if (r == -ENOMEM)
                        return r;
                if ((r < 0 || dotdot) && diags) {
                        int k = report_path(diags, e, r < 0 ? NULL : target);
                        if (k < 0)
                                return k;
                }
                if (r < 0)
                        continue;

                ep = strmap_get(&by_path, target);
                if (!ep) {
                        char *path = arena_strdup(&s.strings, target);
                        if (!path)
                                return -ENOMEM;
                        ep = &s.paths[s.n++];
                        *ep = (struct exported_path){.path = path, .first = e};
                        r = strmap_put(&by_path, ep->path, ep, NULL);
                        if (r < 0)
                                return r;
                }
                /* the path waits for its mount only if every client of every
                 * line does */
                if (!ep->first_no_mp && !export_entry_every_client_mountpoint(e))
                        ep->first_no_mp = e;
                s.of_entry[i] = ep;
        }
        r = mark_pseudo_roots(&s, exports, &by_path);
        if (r < 0)
                return r;
        *ret = s;
        s = (struct exported_paths){};
        return 0;
}

void exported_paths_free(struct exported_paths *s) {
        free(s->paths);
        arena_free(&s->strings);
        free(s->of_entry);
        *s = (struct exported_paths){};
}

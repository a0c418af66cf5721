/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "escape.h"
#include "exported.h"
#include "loopback.h"
#include "reexport.h"
#include "array.h"
#include "server_order.h"
#include "strmap.h"
#include "strutil.h"

static int item_append(struct server_order *o, struct order_item *proto, const char *path, const char *unit);

/* `reason` is a made string the item takes over (NULL: out of memory). */
static int add_item(struct server_order *o, enum order_kind kind, const char *path, const char *unit,
                    const char *file, unsigned line, char *reason) {
        struct order_item item = {
                .kind = kind, .file = file, .line = line, .reason = reason, .reason_owned = reason};

        if (!reason)
                return -ENOMEM;
        return item_append(o, &item, path, unit);
}

/* The common reasons are constant text: no allocation per directive. */
static int add_item_fixed(struct server_order *o, enum order_kind kind, const char *path, const char *unit,
                          const char *file, unsigned line, const char *reason) {
        struct order_item item = {.kind = kind, .file = file, .line = line, .reason = reason};

        return item_append(o, &item, path, unit);
}

static int item_append(struct server_order *o, struct order_item *proto, const char *path,
                       const char *unit) {
        struct order_item item = *proto;
        char *reason = item.reason_owned;

        if (array_reserve(&o->items, &o->cap, o->n + 1, sizeof(*o->items)) < 0)
                goto oom;
        item.path = arena_strdup(&o->strings, path);
        if (!item.path || !arena_copy_optional(&o->strings, &item.unit, unit))
                goto oom;
        o->items[o->n++] = item;
        if (item.kind != ORDER_SKIPPED)
                o->n_directives++;
        return 0;
oom:
        free(reason);
        return -ENOMEM;
}

/* A path with no RequiresMountsFor= form (newline, invalid UTF-8): order
 * after each mount on its way (fstab line or .mount unit) instead. A mount
 * unit already required for an earlier path (`after_units`, unit → item
 * item) is written once: a second Requires=/After= adds nothing. */
static int add_fallback(struct server_order *o, const struct fstab_table *fstab, struct strmap *after_units,
                        const char *path, const struct export_entry *src) {
        _cleanup_free_ char *p = strdup(path);
        int r;

        if (!p)
                return -ENOMEM;
        do {
                const struct fstab_mount *m = fstab_owner(fstab, p);
                _cleanup_free_ char *unit = NULL;

                if (!m)
                        continue;
                r = unit_name_from_path(m->where, "mount", &unit);
                if (r == -ENOMEM)
                        return r;
                if (r < 0)
                        continue;
                if (strmap_get(after_units, unit)) {
                        r = add_item(o, ORDER_SKIPPED, path, NULL, src->file, src->line,
                                     strprintf("exported path has bytes systemd cannot read in "
                                               "RequiresMountsFor= (newline or invalid UTF-8); the fstab "
                                               "mount it lies on (%s:%u) is already required for an "
                                               "earlier path",
                                               fstab_mount_file(fstab, m), m->line));
                        if (r < 0)
                                return r;
                        continue;
                }
                r = add_item(o, ORDER_AFTER_MOUNT_UNIT, path, unit, src->file, src->line,
                             strprintf("exported path has bytes systemd cannot read in "
                                       "RequiresMountsFor= (newline or invalid UTF-8); ordered "
                                       "after the fstab mount it lies on (%s:%u) instead",
                                       fstab_mount_file(fstab, m), m->line));
                if (r < 0)
                        return r;
                /* the key is the item's own copy of the name, which stays put */
                r = strmap_put(after_units, o->items[o->n - 1].unit, o->items[o->n - 1].unit, NULL);
                if (r < 0)
                        return r;
        } while (path_cut_last(p));
        return 0;
}

static int decide_export(struct server_order *o, const struct fstab_table *fstab, struct strmap *reexported,
                         struct strmap *loopback, struct strmap *after_units, const char *hostname,
                         const struct exported_path *ep) {
        const struct export_entry *src = ep->first;
        const struct fstab_mount *noauto = NULL, *nearest_nfs = NULL, *from_here = NULL;
        char p[PATH_MAX + 1]; /* ep->path, normalised, is shorter */
        int r;

        assert(strlen(ep->path) < sizeof(p));
        strcpy(p, ep->path);
        /* One walk up from the path to "/": the nearest noauto mount, and
         * every NFS mount on the way, which therefore holds an export. */
        do {
                const struct fstab_mount *m = fstab_owner(fstab, p);

                if (m && m->noauto && !noauto)
                        noauto = m;
                if (m && m->nfs) {
                        if (!nearest_nfs)
                                nearest_nfs = m;
                        r = strmap_put(reexported, m->where, (void *) ep, NULL);
                        if (r < 0)
                                return r;
                }
        } while (path_cut_last(p));

        /* a second walk, only when an NFS mount is on the way: is one of
         * them a mount from this host? */
        if (nearest_nfs) {
                strcpy(p, ep->path);
                do {
                        const struct fstab_mount *m = fstab_owner(fstab, p);
                        if (m && m->nfs && nfs_source_is_loopback(m->what, hostname)) {
                                from_here = m;
                                r = strmap_put(loopback, m->where, (void *) ep, NULL);
                                if (r < 0)
                                        return r;
                        }
                } while (path_cut_last(p));
        }
        if (from_here) {
                r = add_item(
                        o, ORDER_SKIPPED, ep->path, NULL, src->file, src->line,
                        strprintf("not ordered: lies on the NFS mount %s (%s:%u) from this host, a loopback "
                                  "re-export: that mount needs the server, so the server starts before it "
                                  "and cannot wait for it; with mp on every client exportfs serves the "
                                  "path only once it is mounted",
                                  from_here->where, fstab_mount_file(fstab, from_here), from_here->line));
                if (r >= 0) {
                        o->items[o->n - 1].loopback = true;
                        o->items[o->n - 1].export_line = ep->first_no_mp ? ep->first_no_mp : src;
                        o->items[o->n - 1].export_waits_for_mount = exported_path_waits_for_mount(ep);
                }
                return r;
        }

        if (noauto)
                return add_item(o, ORDER_SKIPPED, ep->path, NULL, src->file, src->line,
                                strprintf("not ordered: lies at or below the noauto mount %s (%s:%u), "
                                          "which boot does not mount; requiring it would mount it",
                                          noauto->where, fstab_mount_file(fstab, noauto), noauto->line));
        if (exported_path_waits_for_mount(ep))
                return add_item_fixed(o, ORDER_SKIPPED, ep->path, NULL, src->file, src->line,
                                      "not ordered: every client has the mp/mountpoint option, so exportfs "
                                      "serves it only once it is mounted");

        if (!unit_value_path_representable(ep->path))
                return add_fallback(o, fstab, after_units, ep->path, src);

        return add_item_fixed(
                o, ORDER_REQUIRES_MOUNTS_FOR, ep->path, NULL, src->file, src->line,
                nearest_nfs ? "exported path; it lies on an NFS mount (a re-export), so the server "
                              "comes after that mount"
                            : "exported path: the server starts only once it is mounted");
}

static int decide_nfs_mount(struct server_order *o, const struct strmap *reexported,
                            const struct strmap *loopback, const struct fstab_mount *m,
                            const char *fstab_file, struct diag_list *diags) {
        const struct exported_path *ep = strmap_get(reexported, m->where);
        const struct exported_path *here = strmap_get(loopback, m->where);
        _cleanup_free_ char *unit = NULL, *shown = NULL;
        int r;

        if (here)
                ep = NULL; /* the loopback rule wins */
        if (ep) {
                shown = escape_for_comment(m->where);
                if (!shown)
                        return -ENOMEM;
                _cleanup_free_ char *exported = escape_for_comment(ep->path);
                if (!exported)
                        return -ENOMEM;
                r = diag_add(diags, DIAG_WARNING, fstab_file, m->line,
                             "NFS mount %s is re-exported (%s, %s:%u): nfs-server is ordered after it, not "
                             "before; a loopback mount here would wait for a server that waits for it",
                             shown, exported, ep->first->file, ep->first->line);
                if (r < 0)
                        return r;
                r = add_item(o, ORDER_SKIPPED, m->where, NULL, fstab_file, m->line,
                             strprintf("NFS mount holds an export (%s, %s:%u): a re-export; the server must "
                                       "come after it, so no Before= (it would be an ordering cycle)",
                                       ep->path, ep->first->file, ep->first->line));
                if (r >= 0)
                        o->items[o->n - 1].reexport = true;
                return r;
        }

        r = unit_name_from_path(m->where, "mount", &unit);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return add_item_fixed(o, ORDER_SKIPPED, m->where, NULL, fstab_file, m->line,
                                      "NFS mount point has no valid mount unit name; systemd will not mount "
                                      "it either");
        if (here) {
                r = add_item(
                        o, ORDER_BEFORE_MOUNT_UNIT, m->where, unit, fstab_file, m->line,
                        strprintf("NFS mount from this host that holds an export (%s, %s:%u): the loopback "
                                  "rule wins: the server starts before it and stops after it; the "
                                  "re-export is served once it is mounted if every client has mp",
                                  here->path, here->first->file, here->first->line));
                if (r < 0)
                        return r;
                struct order_item *it = &o->items[o->n - 1];
                it->loopback = true;
                it->export_line = here->first;
                it->export_waits_for_mount = exported_path_waits_for_mount(here);
                /* its exports are withdrawn before it is unmounted, while the
                 * server still runs (nfs-reexport@.service) */
                r = reexport_unit_name(unit, &it->withdraw_unit);
                if (r == -ENOMEM)
                        return r;
                if (r < 0) {
                        shown = escape_for_comment(m->where);
                        if (!shown)
                                return -ENOMEM;
                        return diag_add(diags, DIAG_WARNING, fstab_file, m->line,
                                        "NFS mount %s from this host holds exports, but its mount unit name "
                                        "is too long for an nfs-reexport@.service instance: its exports are "
                                        "not withdrawn before it is unmounted, and poweroff may wait for it",
                                        shown);
                }
                return 0;
        }
        return add_item_fixed(o, ORDER_BEFORE_MOUNT_UNIT, m->where, unit, fstab_file, m->line,
                              "NFS mount: the server starts before it and stops after it (a loopback mount "
                              "needs the server; unmounting after the server stopped hangs)");
}

int server_order_decide(const struct export_table *exports, const struct fstab_table *fstab,
                        const char *export_root, const char *hostname, struct server_order *ret,
                        struct diag_list *diags) {
        _cleanup_(server_order_free) struct server_order o = {};
        _cleanup_(exported_paths_free) struct exported_paths exported = {};
        _cleanup_(strmap_free) struct strmap reexported = {}, loopback = {}, after_units = {};
        size_t n_nfs = 0;
        int r;

        assert(exports);
        assert(fstab);
        assert(ret);

        r = exported_paths_build(exports, export_root, &exported, diags);
        if (r < 0)
                return r;
        o.anything_exported = exported.n > 0;
        /* an item a path and an NFS mount (a path without a
         * RequiresMountsFor= form may take more): made once, not doubled on
         * the way with a copy each time */
        for (size_t i = 0; i < fstab->n; i++)
                n_nfs += fstab->mounts[i].nfs && !fstab->mounts[i].shadowed;
        if (array_reserve(&o.items, &o.cap, exported.n + n_nfs, sizeof(*o.items)) < 0)
                return -ENOMEM;

        for (size_t i = 0; i < exported.n; i++) {
                r = decide_export(&o, fstab, &reexported, &loopback, &after_units, hostname,
                                  &exported.paths[i]);
                if (r < 0)
                        return r;
        }

        for (size_t i = 0; i < fstab->n; i++) {
                const struct fstab_mount *m = &fstab->mounts[i];
                /* a line that does not own its mount point mounts nothing */
                if (!m->nfs || m->shadowed)
                        continue;
                r = decide_nfs_mount(&o, &reexported, &loopback, m, fstab_mount_file(fstab, m), diags);
                if (r < 0)
                        return r;
        }
        *ret = o;
        o = (struct server_order){};
        return 0;
}

/* "# FILE:LINE: TEXT"; `text` is escaped here unless it is escaped already */
static int render_comment(struct buf *out, const char *file, unsigned line, const char *text,
                          bool text_escaped) {
        _cleanup_free_ char *shown = text_escaped ? comment_from_escaped(text) : escape_for_comment(text);

        if (!shown)
                return -ENOMEM;
        if (line > 0)
                buf_printf(out, "# %s:%u: %s\n", file, line, shown);
        else
                buf_printf(out, "# %s: %s\n", file, shown);
        return 0;
}

int server_order_render(const struct server_order *order, bool explain, const struct diag_list *diags,
                        struct buf *out) {
        int r;

        buf_puts(out, "# Automatically generated by nfs-server-generator from /etc/exports,\n"
                      "# /etc/exports.d/*.exports, /etc/fstab and nfs.conf. See nfs-server-generator(8);\n"
                      "# \"nfs-server-generator --explain\" says why each line is here.\n\n[Unit]\n");

        for (size_t i = 0; i < order->n; i++) {
                const struct order_item *it = &order->items[i];

                /* skipped entries are explained only on request, except a
                 * re-export: the next reader of the drop-in must see why the
                 * server is not ordered before that NFS mount */
                if (explain || it->reexport) {
                        /* reasons hold paths as they are: escaped once, here */
                        _cleanup_free_ char *text = NULL;
                        if (asprintf(&text, "%s%s: %s", it->kind == ORDER_SKIPPED ? "skipped " : "",
                                     it->path, it->reason) < 0)
                                return -ENOMEM;
                        r = render_comment(out, it->file, it->line, text, false);
                        if (r < 0)
                                return r;
                }

                switch (it->kind) {
                case ORDER_REQUIRES_MOUNTS_FOR:
                        buf_puts(out, "RequiresMountsFor=");
                        r = unit_value_append_path(out, it->path);
                        if (r < 0)
                                return r;
                        buf_putc(out, '\n');
                        break;
                case ORDER_AFTER_MOUNT_UNIT:
                        buf_printf(out, "Requires=%s\nAfter=%s\n", it->unit, it->unit);
                        break;
                case ORDER_BEFORE_MOUNT_UNIT:
                        buf_puts(out, "Before=");
                        buf_puts(out, it->unit);
                        buf_putc(out, '\n');
                        break;
                case ORDER_SKIPPED:
                        break;
                }
        }

        if (explain && diags && diags->n > 0) {
                buf_puts(out, "\n# Problems found while reading the configuration:\n");
                for (size_t i = 0; i < diags->n; i++) {
                        _cleanup_free_ char *text = NULL;
                        if (asprintf(&text, "%s: %s", diag_severity_name(diags->items[i].severity),
                                     diags->items[i].message) < 0)
                                return -ENOMEM;
                        /* the readers escaped what their messages quote */
                        r = render_comment(out, diags->items[i].file, diags->items[i].line, text, true);
                        if (r < 0)
                                return r;
                }
        }
        return buf_status(out);
}

void server_order_free(struct server_order *order) {
        for (size_t i = 0; i < order->n; i++) {
                free(order->items[i].reason_owned);
                free(order->items[i].withdraw_unit);
        }
        free(order->items);
        arena_free(&order->strings);
        *order = (struct server_order){};
}

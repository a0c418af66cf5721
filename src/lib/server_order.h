/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "buf.h"
#include "diag.h"
#include "exports.h"
#include "fstab.h"

/* What nfs-server.service must be ordered against, decided from the exports
 * and fstab already read: no I/O here, so the golden tests pin it down.
 *
 * The rules: the server starts after every exported filesystem is mounted
 * (else clients see the empty directory underneath) and before every NFS
 * mount (a loopback mount needs the server; at shutdown the server must stop
 * only after those mounts are gone, or the unmount hangs). An NFS mount that
 * is itself exported, or holds an export, is the exception: ordering the
 * server both after and before it is a cycle, and serving it needs it mounted.
 * Unless that NFS mount comes from this host (a loopback re-export): then it
 * needs the server running first, so the loopback rule wins: Before= the
 * mount, no RequiresMountsFor= on what it holds (that would deadlock: the
 * mount waits for the server, which waits for the mount). exportfs then
 * serves the path before the mount is there, unless every client has mp,
 * which the checker suggests. */

enum order_kind {
        ORDER_REQUIRES_MOUNTS_FOR, /* RequiresMountsFor=path */
        ORDER_AFTER_MOUNT_UNIT,    /* Requires=+After=unit: path has no RequiresMountsFor= form */
        ORDER_BEFORE_MOUNT_UNIT,   /* Before=unit */
        ORDER_SKIPPED,             /* nothing written; `reason` says why */
};

struct order_item {
        enum order_kind kind;
        unsigned line;      /* in `file` */
        char *path;         /* the path concerned (export root applied); server_order.strings' */
        char *unit;         /* mount unit, for the *_MOUNT_UNIT kinds; server_order.strings' */
        const char *file;   /* where it comes from */
        const char *reason; /* why this directive (or why none) */
        char *reason_owned; /* reason, when it was made for this item */
        const struct export_entry *export_line; /* for `loopback`: the export concerned; on a
                                                 * skipped path, the first line with a client
                                                 * without mp, if there is one */
        char *withdraw_unit;                    /* for a loopback mount (Before=): its
                                                 * nfs-reexport@.service instance, or NULL when
                                                 * its name is too long for one */
        /* the flags last, together: no padding between them (an item a
         * path, 20,000 items at 10,000 exports) */
        bool reexport;               /* an NFS mount left without Before=: always commented */
        bool loopback;               /* a loopback re-export: the path, or the mount holding it */
        bool export_waits_for_mount; /* for `loopback`: every client of every line exporting the
                                      * path has mp */
};

struct server_order {
        struct order_item *items;
        size_t n, cap;
        size_t n_directives; /* items that are not ORDER_SKIPPED */
        bool anything_exported;
        struct arena strings; /* the items' paths and units */
};

/* `export_root` is nfs.conf's [exports] rootdir= ("" or NULL for none);
 * `hostname` this host's name (/etc/hostname; may be NULL), to tell loopback
 * NFS mounts. */
int server_order_decide(const struct export_table *exports, const struct fstab_table *fstab,
                        const char *export_root, const char *hostname, struct server_order *ret,
                        struct diag_list *diags);

/* The drop-in text. With `explain`, every directive carries a comment with
 * its source and reason, and skipped entries and `diags` are listed too. */
int server_order_render(const struct server_order *order, bool explain, const struct diag_list *diags,
                        struct buf *out);

void server_order_free(struct server_order *order);

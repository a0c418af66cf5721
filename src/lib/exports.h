/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "diag.h"
#include "rootfs.h"

/* exports(5), read the way exportfs reads it (nfs-utils 2.6.2 of Debian 12,
 * 2.8.3 of Debian 13 and later: the options differ, see nfs_utils), but
 * without giving up at the first bad line: each problem becomes a diagnostic
 * and the rest of the file still counts. */

struct export_client {
        char *host;      /* "" when the line names no client (everyone) */
        bool mountpoint; /* "mp"/"mountpoint" (from the client or the line's defaults) */
        bool fsid;       /* "fsid=" given, or reexport= gives one (auto-fsidnum, predefined-fsidnum) */
        bool sec_krb5;   /* "sec=" lists a krb5 flavour */
        bool bad;        /* its option list is malformed: exportfs refuses it */
        /* what makes a path an NFSv4 pseudo-root or a part of one: fsid=0
         * or fsid=root (the last fsid= wins), crossmnt and nohide (each
         * until nocrossmnt or hide after it) */
        bool fsid_root, crossmnt, nohide;
};

/* Paths, hosts and client lists are the table's (export_table.strings). */
struct export_entry {
        char *path;       /* the path as exportfs reads it (octal escapes and quotes undone) */
        const char *file; /* points into export_table.files */
        unsigned line;    /* where the path stands */
        struct export_client *clients;
        size_t n_clients;
};

struct export_table {
        struct export_entry *entries;
        size_t n;
        size_t cap;
        struct arena strings; /* the entries' paths, clients and hosts */
        char **files;         /* display names of the files read, owned here */
        size_t n_files;
        /* the nfs-utils whose exportfs judges the options (nfs_utils.h); 0:
         * the newest this reader knows. The checker sets it from the root
         * (nfs_utils_version_installed()); the generators leave it 0, since
         * the verdict changes no ordering and dpkg's status is no boot-time
         * read. */
        unsigned nfs_utils;
};

/* Parses one exports file held in memory. `file` is the name used in
 * diagnostics. Only -ENOMEM is an error: bad input becomes diagnostics. */
int exports_parse(struct export_table *t, const char *data, size_t size, const char *file,
                  struct diag_list *diags);

/* Reads /etc/exports and then /etc/exports.d/\*.exports (version-sorted) below
 * the root. Missing files are normal. */
int exports_read(struct export_table *t, const struct rootfs *root, struct diag_list *diags);

/* Whether exportfs serves the entry's path only once it is a mount point:
 * every client has mp/mountpoint. False for an entry without a client (its
 * first client was malformed). The one test the generator and the checker
 * share. */
bool export_entry_every_client_mountpoint(const struct export_entry *e);

/* The directory the server serves for export path `path`: nfs.conf's
 * [exports] rootdir= (`export_root`, may be NULL or "") prefixed, normalised,
 * ".." resolved lexically (*had_dotdot, if given, says so). -EINVAL for a
 * path that cannot be normalised, -ENOMEM. */
int export_path_served(const char *export_root, const char *path, char **ret, bool *had_dotdot);
/* The same, written into `out` (PATH_MAX + 1 bytes). */
int export_path_served_into(const char *export_root, const char *path, char *out, bool *had_dotdot);

void export_table_free(struct export_table *t);

/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "diag.h"
#include "mount_units.h"
#include "strmap.h"
#include "rootfs.h"

/* /etc/fstab through libmount, reduced to what NFS ordering needs; and,
 * for the programs that want them, the mounts declared as .mount units
 * (mount_units.h), so that one table answers "who mounts this path". */

/* Every string of a mount is the table's (fstab_table.strings). */
struct fstab_mount {
        char *where; /* mount point, normalised as systemd names its unit */
        char *what;  /* source as written (unescaped) */
        char *fstype;
        char *options; /* all options, as libmount joins them ("" when none) */
        unsigned line; /* for a unit: the line of What= */
        int freq, passno;
        /* for a unit: the line of Options= (0: none); next to the other
         * numbers, so that no padding follows them (20,000 mounts are 20,000
         * of these) */
        unsigned options_line;
        /* NULL for a line of the table's file; else the .mount unit that
         * declares this mount (fstab_mount_file() gives either) */
        char *unit_file;
        /* for a unit: the drop-in holding its Options= line (NULL:
         * unit_file), [Mount] TimeoutSec=, and the .automount unit of its
         * mount point with its TimeoutIdleSec= (NULL: not set, or no
         * .automount unit) */
        char *options_file;
        char *mount_timeout, *automount_file, *idle_timeout;
        bool masked; /* a unit linked to /dev/null: the mount point is never mounted */
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
        struct arena strings; /* the mounts' strings */
};

/* Parses an fstab held in `f`. Malformed lines become diagnostics and are
 * skipped; only -ENOMEM (or libmount failing outright) is an error. Mount
 * points are read as systemd-fstab-generator reads them (glibc's
 * getmntent(): of the octal escapes only \040, \011, \012 and \134 are
 * decoded, and "\\"), so that they name the units it writes. */
int fstab_parse(struct fstab_table *t, FILE *f, const char *file, struct diag_list *diags);
/* A table in /proc/self/mountinfo's format: mount points as the kernel
 * escapes them and libmount decodes them. */
int fstab_parse_mountinfo(struct fstab_table *t, FILE *f, const char *file, struct diag_list *diags);
/* The same, with each mount point resolved below `root` as
 * systemd-fstab-generator resolves it (rootfs_canonical_path()). */
int fstab_parse_below(struct fstab_table *t, FILE *f, const char *file, const struct rootfs *root,
                      struct diag_list *diags);
/* /etc/fstab below the root; a missing file is an empty table. */
int fstab_read(struct fstab_table *t, const struct rootfs *root, struct diag_list *diags);

/* Adds the mounts declared by units and settles again who owns each mount
 * point: a unit of /etc/systemd/system or /run/systemd/system wins over an
 * fstab line for the same mount point, an fstab line over a unit elsewhere
 * (mount_units.h says why). Each loser is marked `shadowed` with a
 * diagnostic. Returns 0 or -ENOMEM. */
int fstab_add_mount_units(struct fstab_table *t, const struct mount_unit_list *units,
                          struct diag_list *diags);

/* Whether `file` is the table's fstab or the unit file of one of its mounts:
 * a diagnostic about a mount, not about the exports. */
bool fstab_declares_file(const struct fstab_table *t, const char *file);

/* Where a mount is declared, for messages: the fstab or its unit file. */
static inline const char *fstab_mount_file(const struct fstab_table *t, const struct fstab_mount *m) {
        return m->unit_file ? m->unit_file : t->file ? t->file : "/etc/fstab";
}

/* The one rule for "which fstab line owns a mount point", used by every
 * program: the first line for it, as systemd-fstab-generator keeps (it
 * ignores later ones, "Failed to create unit file ..., as it already
 * exists"). NULL when no line mounts `where` (normalised). Later lines are
 * marked `shadowed`, and fstab_parse() reports each with both line numbers. */
const struct fstab_mount *fstab_owner(const struct fstab_table *t, const char *where);

/* The first mount strictly below `path` (normalised) that systemd mounts:
 * neither shadowed nor masked; NULL when there is none. */
const struct fstab_mount *fstab_first_mount_below(const struct fstab_table *t, const char *path);

/* One option of an option string, as libmount splits it: name and value
 * point into the string (not NUL-terminated); value is NULL for an option
 * without "=". */
struct mount_option {
        const char *name, *value;
        size_t name_size, value_size;
};

/* The option at *cursor (which starts at the option string) in *ret, and
 * *cursor moved past it; false at the end. The one walk over an option
 * string: mount.nfs, mount(8) and systemd read options in order, so every
 * "which one wins" question is answered by walking it. Nothing is copied:
 * libmount only reads the string. */
bool mount_option_next(const char **cursor, struct mount_option *ret);
/* Whether the option is `name` (NUL-terminated). Inline: with a constant
 * name the compiler compares the length and a few bytes. */
static inline bool mount_option_is(const struct mount_option *o, const char *name) {
        size_t n = strlen(name);
        return o->name_size == n && memcmp(o->name, name, n) == 0;
}

/* Whether the mount carries option `name`; its value (or NULL) in *ret_value,
 * to be freed. Returns true/false. */
bool fstab_mount_has_option(const struct fstab_mount *m, const char *name, char **ret_value);

void fstab_table_free(struct fstab_table *t);

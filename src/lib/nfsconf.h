/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "diag.h"
#include "rootfs.h"

/* nfs.conf(5): /usr/etc/nfs.conf, the *.conf files of /usr/etc/nfs.conf.d,
 * then /etc/nfs.conf and /etc/nfs.conf.d/ *.conf, "include=" files where they
 * stand. A later assignment wins, so /etc overrides /usr/etc key by key. */

struct nfsconf_entry {
        char *section;    /* lower case */
        char *subsection; /* NULL for [section]; [section "sub"] */
        char *key;        /* lower case */
        char *value;      /* quotes removed */
        const char *file; /* points into nfsconf.files */
        unsigned line;
};

/* A file already read, by identity (a link or another name for it is the
 * same file). */
struct nfsconf_file_id {
        dev_t dev;
        ino_t ino;
};

struct nfsconf {
        struct nfsconf_entry *entries;
        size_t n, cap;
        char **files;
        size_t n_files;
        /* every file read so far: each is read at most once, so that
         * include= can neither loop nor fan out */
        struct nfsconf_file_id *read;
        size_t n_read, cap_read;
};

/* Parses one file held in memory; `root` resolves include= (may be NULL: then
 * includes are reported and not followed). A file is read at most once
 * (by device and inode), however often and from wherever it is included;
 * includes nest at most 8 deep. Only -ENOMEM is an error. */
int nfsconf_parse(struct nfsconf *c, const char *data, size_t size, const char *file,
                  const struct rootfs *root, struct diag_list *diags);
int nfsconf_read(struct nfsconf *c, const struct rootfs *root, struct diag_list *diags);

/* The value in force for [section] key (no subsection), or NULL. */
const struct nfsconf_entry *nfsconf_get(const struct nfsconf *c, const char *section, const char *key);
/* y/yes/t/true/on/1 or n/no/f/false/off/0, as nfs-utils' conf_get_bool; else `fallback` */
bool nfsconf_get_bool(const struct nfsconf *c, const char *section, const char *key, bool fallback);

void nfsconf_free(struct nfsconf *c);

/* An absolute path setting, normalised; *ret is NULL when unset. A relative
 * value is reported (file:line) and treated as unset. Returns -ENOMEM or 0. */
int nfsconf_get_path(const struct nfsconf *c, const char *section, const char *key, struct diag_list *diags,
                     char **ret);

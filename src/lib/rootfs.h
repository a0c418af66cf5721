/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Access to configuration files below an alternative root (--root=DIR, for
 * image builders, tests and offline inspection). Symbolic links are resolved
 * as if DIR were "/": an absolute link inside the image never leads out of it. */
struct rootfs {
        int fd;       /* O_PATH directory file descriptor of the root */
        bool is_host; /* root is "/": plain open() semantics */
};

int rootfs_open(const char *root, struct rootfs *ret);
void rootfs_close(struct rootfs *r);

/* Opens `path` (absolute, as seen inside the root) for reading. */
int rootfs_open_file(const struct rootfs *r, const char *path, int flags);
/* Reads a whole regular file; -ENOENT when it does not exist. `*ret` is
 * NUL-terminated (an embedded NUL stays in, `*ret_size` says how much). */
int rootfs_read_file(const struct rootfs *r, const char *path, char **ret, size_t *ret_size);
FILE *rootfs_fopen(const struct rootfs *r, const char *path);

/* Names of the entries of a directory that end in `suffix`, are regular files
 * (or links to them), do not start with '.', sorted as versionsort(3) would
 * (as nfs-utils sorts exports.d). Returns the count, or -errno (-ENOENT when
 * the directory does not exist). */
int rootfs_list_dir(const struct rootfs *r, const char *dir, const char *suffix, char ***ret_names);
void strv_free(char **names, size_t n);

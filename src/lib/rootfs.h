/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

/* No configuration file we read is near this size; a bigger one is a mistake
 * or an attack, and reading it would hold up the boot. */
#define CONFIG_FILE_SIZE_MAX_MIB 64
#define CONFIG_FILE_SIZE_MAX ((off_t) CONFIG_FILE_SIZE_MAX_MIB * 1024 * 1024)

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
/* The one way a configuration file is opened: for reading, close-on-exec,
 * non-blocking, no controlling terminal; then -EISDIR for a directory,
 * -EBADFD for anything else that is not a regular file (FIFO, socket,
 * device), -EFBIG above CONFIG_FILE_SIZE_MAX. Returns the fd; its stat in
 * *ret_stat if given. */
int rootfs_open_config(const struct rootfs *r, const char *path, struct stat *ret_stat);
/* The phrase for a message about a file rootfs_open_config() refused:
 * "FILE: cannot be read: <phrase>". */
const char *config_file_strerror(int error);
/* Reads a whole configuration file (through rootfs_open_config()); -ENOENT
 * when it does not exist. `*ret` is NUL-terminated (an embedded NUL stays in,
 * `*ret_size` says how much); `ret_stat` (may be NULL) identifies the file. */
int rootfs_read_file(const struct rootfs *r, const char *path, char **ret, size_t *ret_size,
                     struct stat *ret_stat);
/* A configuration file as a stream (for libmount), opened the same way. */
FILE *rootfs_fopen(const struct rootfs *r, const char *path);

/* Names of the entries of a directory that end in `suffix`, are regular files
 * (or links to them), do not start with '.', sorted as versionsort(3) would
 * (as nfs-utils sorts exports.d). Returns the count, or -errno (-ENOENT when
 * the directory does not exist). */
int rootfs_list_dir(const struct rootfs *r, const char *dir, const char *suffix, char ***ret_names);
void strv_free(char **names, size_t n);

/* The mount point `path` (absolute) as systemd-fstab-generator names it:
 * "." and repeated slashes dropped, and the longest prefix that exists
 * resolved inside the root, symbolic links and ".." included (systemd's
 * chase() with CHASE_NONEXISTENT); the components that do not exist are
 * kept as they are. -ENOENT when one of those is "..", -ENOMEM, or another
 * -errno when the prefix cannot be resolved: the caller then uses the path
 * as written, as systemd does. */
int rootfs_canonical_path(const struct rootfs *r, const char *path, char **ret);
/* As rootfs_canonical_path(), and when all of `path` exists, its O_PATH
 * file descriptor in *ret_fd (else -1; untouched on error), for a caller
 * that resolves paths below it (canonical_paths.h). */
int rootfs_canonical_path_fd(const struct rootfs *r, const char *path, char **ret, int *ret_fd);
/* `path` (absolute) as rootfs_canonical_path() reads it before resolving:
 * no ".", no empty components, no trailing slash ("/" stays "/"). Returns
 * the number of components, -EINVAL for a relative path, -E2BIG above the
 * number that rootfs_canonical_path() resolves. */
int rootfs_path_simplify(const char *path, char **ret);

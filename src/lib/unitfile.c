/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "macro.h"
#include "unitfile.h"

static int mkdir_parents(const char *dir) {
        _cleanup_free_ char *copy = strdup(dir);

        if (!copy)
                return -ENOMEM;
        for (char *p = copy + 1;; p++) {
                if (*p != '/' && *p != '\0')
                        continue;
                char saved = *p;
                *p = '\0';
                if (mkdir(copy, 0755) < 0 && errno != EEXIST)
                        return -errno;
                *p = saved;
                if (saved == '\0')
                        return 0;
        }
}

/* The directory the files go to, never through a symbolic link: the last
 * component is opened O_NOFOLLOW (a link planted as nfs-server.service.d
 * would have sent our drop-in anywhere). */
static int open_dir(const char *dir, bool create) {
        int fd;

        if (create) {
                int r = mkdir_parents(dir);
                if (r < 0)
                        return r;
        }
        fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        return fd < 0 ? -errno : fd;
}

/* How the finished temporary file takes its name: rename() replaces what
 * is there; link() fails with -EEXIST instead, atomically (what systemd's
 * generators get from fopen("wx")). */
static int take_name(int dir_fd, const char *tmp, const char *name, bool replace) {
        if (replace)
                return renameat(dir_fd, tmp, dir_fd, name) < 0 ? -errno : 0;
        if (linkat(dir_fd, tmp, dir_fd, name, 0) < 0)
                return -errno;
        (void) unlinkat(dir_fd, tmp, 0);
        return 0;
}

static int write_atomic(const char *dir, const char *name, const char *content, size_t len, bool replace) {
        _cleanup_close_ int dir_fd = -1, fd = -1;
        char tmp[64];
        int r;

        dir_fd = open_dir(dir, true);
        if (dir_fd < 0)
                return dir_fd;
        /* A temporary name of fixed length, whatever the unit's name: ".#"
         * plus a 255-byte name passed NAME_MAX. systemd ignores names that
         * start with a dot. */
        for (unsigned attempt = 0;; attempt++) {
                snprintf(tmp, sizeof(tmp), ".#nfs-systemd.%d.%u", (int) getpid(), attempt);
                fd = openat(dir_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
                if (fd >= 0)
                        break;
                if (errno != EEXIST || attempt >= 100)
                        return -errno;
        }

        for (size_t done = 0; done < len;) {
                ssize_t n = write(fd, content + done, len - done);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        r = -errno;
                        goto fail;
                }
                done += (size_t) n;
        }
        if (fchmod(fd, 0644) < 0) {
                r = -errno;
                goto fail;
        }
        r = close(TAKE_FD(fd));
        if (r < 0) {
                r = -errno;
                goto fail;
        }
        r = take_name(dir_fd, tmp, name, replace);
        if (r < 0)
                goto fail;
        return 0;
fail:
        (void) unlinkat(dir_fd, tmp, 0);
        return r;
}

int unitfile_write_atomic(const char *dir, const char *name, const char *content, size_t len) {
        return write_atomic(dir, name, content, len, true);
}

int unitfile_create_atomic(const char *dir, const char *name, const char *content, size_t len) {
        return write_atomic(dir, name, content, len, false);
}

int unitfile_symlink(const char *dir, const char *name, const char *target) {
        _cleanup_close_ int dir_fd = open_dir(dir, true);
        char tmp[64];

        if (dir_fd < 0)
                return dir_fd;
        for (unsigned attempt = 0;; attempt++) {
                snprintf(tmp, sizeof(tmp), ".#nfs-systemd.%d.%u", (int) getpid(), attempt);
                if (symlinkat(target, dir_fd, tmp) >= 0)
                        break;
                if (errno != EEXIST || attempt >= 100)
                        return -errno;
        }
        if (renameat(dir_fd, tmp, dir_fd, name) < 0) {
                int r = -errno;
                (void) unlinkat(dir_fd, tmp, 0);
                return r;
        }
        return 0;
}

int unitfile_remove(const char *dir, const char *name) {
        _cleanup_close_ int dir_fd = open_dir(dir, false);

        if (dir_fd == -ENOENT)
                return 0;
        if (dir_fd < 0)
                return dir_fd;
        if (unlinkat(dir_fd, name, 0) < 0 && errno != ENOENT)
                return -errno;
        return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
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

int unitfile_write_atomic(const char *dir, const char *name, const char *content, size_t len) {
        _cleanup_free_ char *tmp = NULL, *final = NULL;
        _cleanup_close_ int fd = -1;
        int r;

        r = mkdir_parents(dir);
        if (r < 0)
                return r;
        if (asprintf(&tmp, "%s/.#%sXXXXXX", dir, name) < 0 || asprintf(&final, "%s/%s", dir, name) < 0) {
                tmp = final = NULL;
                return -ENOMEM;
        }
        fd = mkostemp(tmp, O_CLOEXEC);
        if (fd < 0)
                return -errno;

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
        if (rename(tmp, final) < 0) {
                r = -errno;
                goto fail;
        }
        return 0;
fail:
        (void) unlink(tmp);
        return r;
}

int unitfile_remove(const char *dir, const char *name) {
        _cleanup_free_ char *path = NULL;

        if (asprintf(&path, "%s/%s", dir, name) < 0)
                return -ENOMEM;
        if (unlink(path) < 0 && errno != ENOENT)
                return -errno;
        return 0;
}

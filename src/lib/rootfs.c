/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <assert.h>
#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "array.h"
#include "macro.h"
#include "rootfs.h"

int rootfs_open(const char *root, struct rootfs *ret) {
        int fd;

        if (!root)
                root = "/";
        if (!*root)
                return -EINVAL; /* "--root=" is a mistake, never the host */
        fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        *ret = (struct rootfs){.fd = fd, .is_host = strcmp(root, "/") == 0};
        return 0;
}

void rootfs_close(struct rootfs *r) {
        if (r->fd >= 0)
                close(r->fd);
        r->fd = -1;
}

/* The fallback where openat2() is missing (kernels before 5.6, seccomp
 * filters, valgrind): the same lookup one component at a time. Symbolic links
 * restart from the root when absolute; ".." never climbs above the root. */
#define ROOTFS_LINKS_MAX 40

static bool same_inode(int a, int b) {
        struct stat sa, sb;
        return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Replaces the directory fd held in *dir_fd by `fd`, closing the old one. */
static void dir_fd_replace(int *dir_fd, int fd) {
        closep(dir_fd);
        *dir_fd = fd;
}

static int chase_in_root(int root_fd, const char *path, int flags) {
        _cleanup_free_ char *todo = strdup(path);
        _cleanup_close_ int dir_fd = -1;
        unsigned links = 0;
        char *p;

        if (!todo)
                return -ENOMEM;
        dir_fd = fcntl(root_fd, F_DUPFD_CLOEXEC, 3);
        if (dir_fd < 0)
                return -errno;

        p = todo;
        for (;;) {
                _cleanup_close_ int fd = -1;
                char *name, *next;
                struct stat st;

                while (*p == '/')
                        p++;
                if (!*p) {
                        fd = openat(dir_fd, ".", flags | O_CLOEXEC);
                        return fd < 0 ? -errno : TAKE_FD(fd);
                }
                name = p;
                next = strchrnul(p, '/');
                p = *next ? next + 1 : next;
                *next = '\0';

                if (strcmp(name, ".") == 0)
                        continue;
                if (strcmp(name, "..") == 0) {
                        if (!same_inode(dir_fd, root_fd)) {
                                fd = openat(dir_fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
                                if (fd < 0)
                                        return -errno;
                                dir_fd_replace(&dir_fd, TAKE_FD(fd));
                        }
                        continue;
                }

                fd = openat(dir_fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0 || fstat(fd, &st) < 0)
                        return -errno;
                if (S_ISLNK(st.st_mode)) {
                        char target[PATH_MAX];
                        _cleanup_free_ char *rest = NULL;
                        ssize_t n = readlinkat(fd, "", target, sizeof(target) - 1);
                        if (n < 0)
                                return -errno;
                        target[n] = '\0';
                        if (++links > ROOTFS_LINKS_MAX)
                                return -ELOOP;
                        if (asprintf(&rest, "%s/%s", target, p) < 0)
                                return -ENOMEM;
                        if (target[0] == '/') {
                                /* the error first: close() in the handover
                                 * may change errno */
                                int root_dup = fcntl(root_fd, F_DUPFD_CLOEXEC, 3);
                                if (root_dup < 0)
                                        return -errno;
                                dir_fd_replace(&dir_fd, root_dup);
                        }
                        free(todo);
                        todo = TAKE_PTR(rest);
                        p = todo;
                        continue;
                }
                if (!*p) {
                        /* the last component: open it for real */
                        closep(&fd);
                        fd = openat(dir_fd, name, flags | O_NOFOLLOW | O_CLOEXEC);
                        return fd < 0 ? -errno : TAKE_FD(fd);
                }
                dir_fd_replace(&dir_fd, TAKE_FD(fd));
        }
}

int rootfs_open_file(const struct rootfs *r, const char *path, int flags) {
        struct open_how how = {
                .flags = (unsigned) (flags | O_CLOEXEC),
                .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
        };
        const char *relative = path;
        int fd;

        if (r->is_host) {
                fd = open(path, flags | O_CLOEXEC);
                return fd < 0 ? -errno : fd;
        }

        while (*relative == '/')
                relative++;
        /* openat2() with RESOLVE_IN_ROOT is the kernel's chroot-like lookup:
         * "..", absolute and relative links all stay within the root. */
        fd = (int) syscall(SYS_openat2, r->fd, *relative ? relative : ".", &how, sizeof(how));
        if (fd >= 0)
                return fd;
        if (errno != ENOSYS && errno != EPERM)
                return -errno;
        return chase_in_root(r->fd, path, flags);
}

/* Every configuration file is opened here, so that no reader can block on a
 * FIFO, take a terminal, or trigger a device: non-blocking (a FIFO opens at
 * once instead of waiting for a writer), never a controlling terminal, then
 * refused unless fstat() says it is a regular file no larger than the limit. */
int rootfs_open_config(const struct rootfs *r, const char *path, struct stat *ret_stat) {
        _cleanup_close_ int fd = rootfs_open_file(r, path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
        struct stat st;

        /* a socket, or a device node without a driver, cannot be opened */
        if (fd == -ENXIO || fd == -EOPNOTSUPP)
                return -EBADFD;
        if (fd < 0)
                return fd;
        if (fstat(fd, &st) < 0)
                return -errno;
        if (S_ISDIR(st.st_mode))
                return -EISDIR;
        if (!S_ISREG(st.st_mode))
                return -EBADFD;
        if (st.st_size > CONFIG_FILE_SIZE_MAX)
                return -EFBIG;
        if (ret_stat)
                *ret_stat = st;
        return TAKE_FD(fd);
}

const char *config_file_strerror(int error) {
        switch (error < 0 ? -error : error) {
        case EISDIR:
                return "is a directory, not a regular file";
        case EBADFD:
                return "is not a regular file (a FIFO, socket or device node)";
        case EFBIG:
                return "is larger than the limit of " STRINGIFY(CONFIG_FILE_SIZE_MAX_MIB) " MiB";
        default:
                return strerror(error < 0 ? -error : error);
        }
}

FILE *rootfs_fopen(const struct rootfs *r, const char *path) {
        int fd = rootfs_open_config(r, path, NULL);
        FILE *f;

        if (fd < 0) {
                errno = -fd;
                return NULL;
        }
        f = fdopen(fd, "re");
        if (!f) {
                int e = errno;
                close(fd);
                errno = e;
        }
        return f;
}

int rootfs_read_file(const struct rootfs *r, const char *path, char **ret, size_t *ret_size,
                     struct stat *ret_stat) {
        struct stat st;
        _cleanup_close_ int fd = rootfs_open_config(r, path, &st);
        _cleanup_free_ char *data = NULL;
        size_t size = 0, cap = 0;

        assert(path);
        assert(ret);

        if (fd < 0)
                return fd;
        /* st_size is a hint only: files in /proc or being rewritten differ */
        cap = (size_t) st.st_size + 1 < 4096 ? 4096 : (size_t) st.st_size + 1;
        data = malloc(cap);
        if (!data)
                return -ENOMEM;
        for (;;) {
                ssize_t n;
                if (size + 1 >= cap) {
                        char *p = realloc(data, cap * 2);
                        if (!p)
                                return -ENOMEM;
                        data = p;
                        cap *= 2;
                }
                n = read(fd, data + size, cap - size - 1);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                if (n == 0)
                        break;
                size += (size_t) n;
                /* a file that grows while we read it is held to the limit too */
                if (size > CONFIG_FILE_SIZE_MAX)
                        return -EFBIG;
        }
        data[size] = '\0';
        *ret = TAKE_PTR(data);
        if (ret_size)
                *ret_size = size;
        if (ret_stat)
                *ret_stat = st;
        return 0;
}

static int compare_version(const void *a, const void *b) {
        return strverscmp(*(char *const *) a, *(char *const *) b);
}

void strv_free(char **names, size_t n) {
        if (!names)
                return;
        for (size_t i = 0; i < n; i++)
                free(names[i]);
        free(names);
}

int rootfs_list_dir(const struct rootfs *r, const char *dir, const char *suffix, char ***ret_names) {
        int fd = rootfs_open_file(r, dir, O_RDONLY | O_DIRECTORY);
        size_t suffix_len = strlen(suffix), n = 0, cap = 0;
        char **names = NULL;
        struct dirent *de;
        DIR *d;
        int e;

        if (fd < 0)
                return fd;
        d = fdopendir(fd);
        if (!d) {
                e = -errno;
                close(fd);
                return e;
        }

        while ((errno = 0, de = readdir(d))) {
                size_t len = strlen(de->d_name);
                struct stat st;

                if (de->d_name[0] == '.' || len <= suffix_len ||
                    strcmp(de->d_name + len - suffix_len, suffix) != 0)
                        continue;
                /* follow links (within the root) to see what they are */
                if (de->d_type != DT_REG) {
                        _cleanup_free_ char *full = NULL;
                        _cleanup_close_ int ffd = -1;
                        if (asprintf(&full, "%s/%s", dir, de->d_name) < 0) {
                                full = NULL;
                                e = -ENOMEM;
                                goto fail;
                        }
                        ffd = rootfs_open_file(r, full, O_PATH);
                        if (ffd < 0)
                                continue;
                        if (fstat(ffd, &st) < 0 || !S_ISREG(st.st_mode))
                                continue;
                }
                if (array_reserve(&names, &cap, n + 1, sizeof(*names)) < 0) {
                        e = -ENOMEM;
                        goto fail;
                }
                names[n] = strdup(de->d_name);
                if (!names[n]) {
                        e = -ENOMEM;
                        goto fail;
                }
                n++;
        }
        if (errno != 0) {
                e = -errno;
                goto fail;
        }
        closedir(d);
        if (n > 0)
                qsort(names, n, sizeof(*names), compare_version);
        *ret_names = names;
        return (int) n;
fail:
        strv_free(names, n);
        closedir(d);
        return e;
}

/* Where an open fd is, as the kernel names it (outside the root too). */
static int fd_path(int fd, char **ret) {
        char proc[64], target[PATH_MAX];
        ssize_t n;

        snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
        n = readlink(proc, target, sizeof(target));
        if (n < 0)
                return -errno;
        if ((size_t) n >= sizeof(target))
                return -ENAMETOOLONG;
        *ret = strndup(target, (size_t) n);
        return *ret ? 0 : -ENOMEM;
}

/* A path longer than this many components is taken as written: resolving
 * it costs one open per component tried, and no real mount point is near. */
#define CANONICAL_COMPONENTS_MAX 64

int rootfs_path_simplify(const char *path, char **ret) {
        _cleanup_free_ char *simple = NULL;
        size_t n_components = 0, len = 0;

        assert(path);
        assert(ret);

        if (path[0] != '/')
                return -EINVAL;
        /* systemd's path_simplify(): no ".", no empty components, no
         * trailing slash; ".." stays for the resolution */
        simple = malloc(strlen(path) + 2);
        if (!simple)
                return -ENOMEM;
        /* one pass, a component copied as it is scanned (strspn() and
         * strcspn() a component cost more than the copy: every fstab line
         * comes here) */
        for (const char *p = path; *p;) {
                size_t n = 0;
                while (*p == '/')
                        p++;
                for (simple[len] = '/'; p[n] && p[n] != '/'; n++)
                        simple[len + 1 + n] = p[n];
                if (n == 0)
                        break;
                if (!(n == 1 && p[0] == '.')) {
                        len += 1 + n;
                        n_components++;
                }
                p += n;
        }
        if (len == 0)
                simple[len++] = '/';
        simple[len] = '\0';
        if (n_components > CANONICAL_COMPONENTS_MAX)
                return -E2BIG;
        *ret = TAKE_PTR(simple);
        return (int) n_components;
}

int rootfs_canonical_path_fd(const struct rootfs *r, const char *path, char **ret, int *ret_fd) {
        _cleanup_free_ char *simple = NULL, *root_path = NULL, *found = NULL;
        const char *rest, *inside;
        _cleanup_close_ int fd = -1;
        size_t len;
        int k;

        assert(r);
        assert(path);
        assert(ret);

        k = rootfs_path_simplify(path, &simple);
        if (k < 0)
                return k;
        len = strlen(simple);

        /* the longest prefix that exists: usually the whole path, or all
         * but the last component (the mount point not made yet) */
        for (size_t end = len;;) {
                char saved = simple[end];
                simple[end] = '\0';
                fd = rootfs_open_file(r, end == 0 ? "/" : simple, O_PATH);
                simple[end] = saved;
                if (fd >= 0) {
                        rest = simple + end;
                        break;
                }
                if (fd != -ENOENT && fd != -ENOTDIR)
                        return fd;
                if (end == 0)
                        return -ENOENT;
                while (end > 0 && simple[end - 1] != '/')
                        end--;
                end = end > 0 ? end - 1 : 0;
        }
        /* a ".." below a directory that does not exist has nothing to go up
         * from: systemd gives up on such a path too */
        for (const char *p = rest; *p;) {
                size_t n;
                p += strspn(p, "/");
                n = strcspn(p, "/");
                if (n == 2 && p[0] == '.' && p[1] == '.')
                        return -ENOENT;
                p += n;
        }

        k = fd_path(fd, &found);
        if (k < 0)
                return k;
        if (r->is_host)
                inside = found;
        else {
                size_t n;
                k = fd_path(r->fd, &root_path);
                if (k < 0)
                        return k;
                n = strcmp(root_path, "/") == 0 ? 0 : strlen(root_path);
                /* the kernel resolved inside the root, so this holds; if not,
                 * take the path as written rather than guess */
                if (strncmp(found, root_path, n) != 0 || (found[n] != '/' && found[n] != '\0'))
                        return -EXDEV;
                inside = found + n;
        }
        if (asprintf(ret, "%s%s", strcmp(inside, "/") == 0 || *inside == '\0' ? "" : inside, rest) < 0)
                return -ENOMEM;
        if (**ret == '\0') {
                free(*ret);
                *ret = strdup("/");
                if (!*ret)
                        return -ENOMEM;
        }
        if (ret_fd)
                *ret_fd = *rest == '\0' ? TAKE_FD(fd) : -1;
        return 0;
}

int rootfs_canonical_path(const struct rootfs *r, const char *path, char **ret) {
        return rootfs_canonical_path_fd(r, path, ret, NULL);
}

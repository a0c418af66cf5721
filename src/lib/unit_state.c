/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "unit_state.h"

const char *const unit_dirs[5] = {
        "/etc/systemd/system",     "/run/systemd/system", "/usr/local/lib/systemd/system",
        "/usr/lib/systemd/system", "/lib/systemd/system",
};

const char *const unit_mask_dirs[2] = {
        "/etc/systemd/system",
        "/run/systemd/system",
};

int rootfs_readlink(const struct rootfs *root, const char *path, char **ret) {
        _cleanup_free_ char *parent = NULL;
        _cleanup_close_ int dir_fd = -1;
        const char *slash = strrchr(path, '/'), *name;
        char target[PATH_MAX];
        ssize_t n;

        if (!slash || slash[1] == '\0')
                return -EINVAL;
        name = slash + 1;
        parent = slash == path ? strdup("/") : strndup(path, (size_t) (slash - path));
        if (!parent)
                return -ENOMEM;
        dir_fd = rootfs_open_file(root, parent, O_PATH | O_DIRECTORY);
        if (dir_fd < 0)
                return dir_fd;
        n = readlinkat(dir_fd, name, target, sizeof(target));
        if (n < 0)
                return -errno;
        if ((size_t) n >= sizeof(target))
                return -ENAMETOOLONG;
        *ret = strndup(target, (size_t) n);
        return *ret ? 0 : -ENOMEM;
}

static char *path_join(const char *dir, const char *name) {
        char *p;
        return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

static int keep_string(struct unit_links *l, char *s) {
        if (!s)
                return -ENOMEM;
        if (array_reserve(&l->strings, &l->cap_strings, l->n_strings + 1, sizeof(*l->strings)) < 0) {
                free(s);
                return -ENOMEM;
        }
        l->strings[l->n_strings++] = s;
        return 0;
}

static int record(struct unit_links *l, const char *unit, const char *link_path) {
        char *key, *value;
        int r;

        if (strmap_get(&l->enabled_by, unit))
                return 0;
        key = strdup(unit);
        r = keep_string(l, key);
        if (r < 0)
                return r;
        value = strdup(link_path);
        r = keep_string(l, value);
        if (r < 0)
                return r;
        r = strmap_put(&l->enabled_by, key, value, NULL);
        return r < 0 ? r : 0;
}

static bool name_ends_with(const char *name, const char *suffix) {
        size_t n = strlen(name), s = strlen(suffix);
        return n > s && strcmp(name + n - s, suffix) == 0;
}

/* Every entry of one DIR/X.wants or DIR/X.requires directory. */
static int scan_wants_dir(const struct rootfs *root, struct unit_links *l, const char *dir) {
        int fd = rootfs_open_file(root, dir, O_RDONLY | O_DIRECTORY);
        struct dirent *de;
        DIR *d;
        int r = 0;

        if (fd < 0)
                return fd == -ENOMEM ? fd : 0;
        d = fdopendir(fd);
        if (!d) {
                close(fd);
                return errno == ENOMEM ? -ENOMEM : 0;
        }
        while ((de = readdir(d))) {
                _cleanup_free_ char *link_path = NULL, *target = NULL;
                const char *base;

                if (de->d_name[0] == '.')
                        continue;
                link_path = path_join(dir, de->d_name);
                if (!link_path) {
                        r = -ENOMEM;
                        break;
                }
                r = record(l, de->d_name, link_path);
                if (r < 0)
                        break;
                /* a link named after an alias still enables its target */
                r = rootfs_readlink(root, link_path, &target);
                if (r == -ENOMEM)
                        break;
                r = 0;
                if (!target)
                        continue;
                base = strrchr(target, '/');
                base = base ? base + 1 : target;
                if (*base && strcmp(base, de->d_name) != 0 && strcmp(target, "/dev/null") != 0) {
                        r = record(l, base, link_path);
                        if (r < 0)
                                break;
                }
        }
        closedir(d);
        return r;
}

int unit_links_read(const struct rootfs *root, struct unit_links *ret) {
        struct unit_links l = {};
        int r = 0;

        for (size_t i = 0; i < ELEMENTSOF(unit_dirs) && r >= 0; i++) {
                int fd = rootfs_open_file(root, unit_dirs[i], O_RDONLY | O_DIRECTORY);
                struct dirent *de;
                DIR *d;

                if (fd < 0) {
                        if (fd == -ENOMEM)
                                r = fd;
                        continue;
                }
                d = fdopendir(fd);
                if (!d) {
                        close(fd);
                        continue;
                }
                while ((de = readdir(d))) {
                        _cleanup_free_ char *sub = NULL;

                        if (de->d_name[0] == '.' || (!name_ends_with(de->d_name, ".wants") &&
                                                     !name_ends_with(de->d_name, ".requires")))
                                continue;
                        sub = path_join(unit_dirs[i], de->d_name);
                        r = sub ? scan_wants_dir(root, &l, sub) : -ENOMEM;
                        if (r < 0)
                                break;
                }
                closedir(d);
        }
        if (r < 0) {
                unit_links_free(&l);
                return r;
        }
        *ret = l;
        return 0;
}

const char *unit_links_enabled_by(const struct unit_links *links, const char *unit) {
        return strmap_get(&links->enabled_by, unit);
}

void unit_links_free(struct unit_links *links) {
        strmap_free(&links->enabled_by);
        for (size_t i = 0; i < links->n_strings; i++)
                free(links->strings[i]);
        free(links->strings);
        *links = (struct unit_links){};
}

int unit_mask_find(const struct rootfs *root, const char *unit, char **ret_path) {
        for (size_t i = 0; i < ELEMENTSOF(unit_mask_dirs); i++) {
                _cleanup_free_ char *path = path_join(unit_mask_dirs[i], unit), *target = NULL;
                int r;

                if (!path)
                        return -ENOMEM;
                r = rootfs_readlink(root, path, &target);
                if (r == -ENOMEM)
                        return r;
                if (r >= 0 && strcmp(target, "/dev/null") == 0) {
                        *ret_path = TAKE_PTR(path);
                        return 1;
                }
        }
        *ret_path = NULL;
        return 0;
}

int unit_file_find(const struct rootfs *root, const char *unit, char **ret_path) {
        assert(root);
        assert(unit);
        assert(ret_path);

        for (size_t i = 0; i < ELEMENTSOF(unit_dirs); i++) {
                _cleanup_free_ char *path = path_join(unit_dirs[i], unit);
                int fd;

                if (!path)
                        return -ENOMEM;
                fd = rootfs_open_file(root, path, O_PATH);
                if (fd == -ENOMEM)
                        return fd;
                if (fd >= 0) {
                        close(fd);
                        *ret_path = TAKE_PTR(path);
                        return 0;
                }
        }
        *ret_path = NULL;
        return 0;
}

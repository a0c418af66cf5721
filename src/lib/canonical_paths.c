/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "canonical_paths.h"
#include "macro.h"

/* Mount points of one fstab have few parents; a fstab whose parents all
 * differ costs what it cost without the cache, and no more memory. */
#define PARENTS_MAX 8

struct parent {
        char *dir;       /* as rootfs_path_simplify() wrote it: the key */
        char *canonical; /* rootfs_canonical_path()'s answer for dir */
        int fd;          /* dir's O_PATH fd when all of dir exists, else -1 */
};

struct canonical_paths {
        const struct rootfs *root;
        struct parent parents[PARENTS_MAX];
        size_t n, next; /* next: the slot to reuse when all are taken */
};

struct canonical_paths *canonical_paths_new(const struct rootfs *r) {
        struct canonical_paths *c = calloc(1, sizeof(*c));

        assert(r);
        if (c)
                c->root = r;
        return c;
}

static void parent_clear(struct parent *p) {
        free(p->dir);
        free(p->canonical);
        if (p->fd >= 0)
                close(p->fd);
        *p = (struct parent){.fd = -1};
}

void canonical_paths_free(struct canonical_paths *c) {
        if (!c)
                return;
        for (size_t i = 0; i < c->n; i++)
                parent_clear(&c->parents[i]);
        free(c);
}

/* The resolved parent `dir`, resolved now when it is not kept; NULL when
 * its resolution failed (the caller resolves the whole path instead, and
 * gets the same error or answer as without the cache). */
static const struct parent *parent_get(struct canonical_paths *c, const char *dir, int *error) {
        _cleanup_free_ char *key = NULL, *canonical = NULL;
        struct parent *p;
        int fd = -1, r;

        *error = 0;
        for (size_t i = 0; i < c->n; i++)
                if (strcmp(c->parents[i].dir, dir) == 0)
                        return &c->parents[i];
        key = strdup(dir);
        if (!key) {
                *error = -ENOMEM;
                return NULL;
        }
        r = rootfs_canonical_path_fd(c->root, dir, &canonical, &fd);
        if (r < 0) {
                *error = r == -ENOMEM ? r : 0;
                return NULL;
        }
        if (c->n < PARENTS_MAX)
                p = &c->parents[c->n++];
        else {
                p = &c->parents[c->next];
                c->next = (c->next + 1) % PARENTS_MAX;
                parent_clear(p);
        }
        *p = (struct parent){.dir = TAKE_PTR(key), .canonical = TAKE_PTR(canonical), .fd = fd};
        return p;
}

/* parent's answer with "/name" after it: "/" + "x" is "/x" (made by hand:
 * asprintf() cost more than the rest of the resolution) */
static int join(const char *canonical, const char *name, char **ret) {
        size_t dir_len = strcmp(canonical, "/") == 0 ? 0 : strlen(canonical), name_len = strlen(name);
        char *joined = malloc(dir_len + 1 + name_len + 1);

        if (!joined)
                return -ENOMEM;
        memcpy(joined, canonical, dir_len);
        joined[dir_len] = '/';
        memcpy(joined + dir_len + 1, name, name_len + 1);
        *ret = joined;
        return 0;
}

int canonical_paths_resolve(struct canonical_paths *c, const char *path, char **ret) {
        _cleanup_free_ char *simple = NULL;
        const struct parent *p;
        const char *name;
        struct stat st;
        char *slash;
        int r;

        assert(c);
        assert(path);
        assert(ret);

        r = rootfs_path_simplify(path, &simple);
        if (r < 0)
                return r;
        slash = strrchr(simple, '/');
        name = slash + 1;
        /* "/" itself, and ".." (which climbs out of the parent, past any
         * link in it): resolved in full */
        if (slash == simple || strcmp(name, "..") == 0)
                return rootfs_canonical_path(c->root, simple, ret);
        *slash = '\0';
        p = parent_get(c, simple, &r);
        *slash = '/';
        if (r < 0)
                return r;
        if (!p)
                return rootfs_canonical_path(c->root, simple, ret);
        if (p->fd < 0)
                /* the parent does not exist (all of it): neither does the
                 * path, which is the parent's answer and its name as written */
                return join(p->canonical, name, ret);
        if (fstatat(p->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                if (errno != ENOENT && errno != ENOTDIR)
                        return rootfs_canonical_path(c->root, simple, ret);
                /* the parent is the longest prefix that exists */
                return join(p->canonical, name, ret);
        }
        if (S_ISLNK(st.st_mode))
                return rootfs_canonical_path(c->root, simple, ret);
        return join(p->canonical, name, ret);
}

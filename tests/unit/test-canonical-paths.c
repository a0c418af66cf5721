/* SPDX-License-Identifier: GPL-2.0-or-later */
/* canonical_paths_resolve() must answer exactly as rootfs_canonical_path(),
 * which it only speeds up: a scratch root holds directories, files,
 * symbolic links (relative, absolute, dangling, looping, to "..") and
 * missing parents; random mount points built from those names are resolved
 * both ways, in an order that makes the cache keep, miss and replace
 * parents, and every answer and error must be the same. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/canonical_paths.h"
#include "lib/macro.h"
#include "lib/rootfs.h"

static const char *const names[] = {"srv",  "nfs", "vol1",    "vol2", "file", "link", "abs", "dangle",
                                    "loop", "up",  "missing", "..",   ".",    "",     "home"};

static void make_tree(const char *top) {
        char p[4096];
        const char *dirs[] = {"srv",  "srv/nfs",  "srv/nfs/vol1", "srv/nfs/vol2",
                              "home", "home/nfs", "home/nfs/vol1"};
        for (size_t i = 0; i < ELEMENTSOF(dirs); i++) {
                snprintf(p, sizeof(p), "%s/%s", top, dirs[i]);
                mkdir(p, 0755);
        }
        snprintf(p, sizeof(p), "%s/srv/file", top);
        close(open(p, O_CREAT | O_WRONLY, 0644));
        const struct {
                const char *target, *at;
        } links[] = {{"nfs", "srv/link"},          {"/home", "srv/abs"},         {"nowhere", "srv/dangle"},
                     {"loop", "srv/nfs/loop"},     {"..", "srv/nfs/up"},         {"/srv/nfs", "home/link"},
                     {"../../srv", "home/nfs/up"}, {"/srv/file", "srv/nfs/file"}};
        for (size_t i = 0; i < ELEMENTSOF(links); i++) {
                snprintf(p, sizeof(p), "%s/%s", top, links[i].at);
                if (symlink(links[i].target, p) < 0)
                        perror(p);
        }
}

/* both answers for one path; 1 when they differ */
static int compare(const struct rootfs *r, struct canonical_paths *c, const char *path) {
        _cleanup_free_ char *a = NULL, *b = NULL;
        int ra = rootfs_canonical_path(r, path, &a);
        int rb = canonical_paths_resolve(c, path, &b);

        if (ra != rb || (ra == 0 && strcmp(a, b) != 0)) {
                printf("FAIL %s: full %d \"%s\", cached %d \"%s\"\n", path, ra, ra == 0 ? a : "", rb,
                       rb == 0 ? b : "");
                return 1;
        }
        return 0;
}

int main(void) {
        char top[] = "/tmp/test-canonical-paths.XXXXXX", path[1024];
        struct rootfs r = {.fd = -1};
        struct canonical_paths *c;
        unsigned failed = 0, n = 0, seed = 20261207;

        if (!mkdtemp(top))
                return perror("mkdtemp"), 1;
        make_tree(top);
        if (rootfs_open(top, &r) < 0 || !(c = canonical_paths_new(&r)))
                return perror("rootfs_open"), 1;
        srand(seed);
        for (int i = 0; i < 20000; i++) {
                size_t len = 0;
                int depth = 1 + rand() % 5;
                for (int d = 0; d < depth; d++)
                        len += (size_t) snprintf(path + len, sizeof(path) - len, "/%s%s",
                                                 names[rand() % ELEMENTSOF(names)], rand() % 9 ? "" : "/");
                failed += (unsigned) compare(&r, c, path);
                n++;
        }
        /* more parents than the cache keeps, then the first ones again */
        for (int round = 0; round < 2; round++)
                for (int i = 0; i < 20; i++) {
                        snprintf(path, sizeof(path), "/srv/nfs/vol%d/x%d", 1 + i % 2, i);
                        failed += (unsigned) compare(&r, c, path);
                        snprintf(path, sizeof(path), "/p%d/q", i);
                        failed += (unsigned) compare(&r, c, path);
                        n += 2;
                }
        failed += (unsigned) compare(&r, c, "relative/path");
        n++;
        canonical_paths_free(c);
        rootfs_close(&r);
        printf("%u paths, seed %u: %u passed, %u failed\n", n, seed, n - failed, failed);
        snprintf(path, sizeof(path), "rm -rf '%s'", top);
        if (system(path) != 0)
                return 1;
        return failed ? 1 : 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unexport_list_below(): which `exportfs -u` arguments withdraw the exports
 * at and below a mount point, read from an etab as exportfs writes it (one
 * client per line, octal escapes in paths). Expectations written by hand. */
#include <stdio.h>
#include <string.h>

#include "lib/exports.h"
#include "lib/unexport.h"

struct test_case {
        const char *name;
        const char *etab;
        const char *export_root; /* [exports] rootdir=, or NULL */
        const char *mount_point;
        const char *args[5]; /* expected, in order */
};

/* clang-format off */
static const struct test_case cases[] = {
        { "the mount point itself, every client",
          "/srv/data\t*(rw,fsid=1)\n/srv/re\t*(rw,fsid=2)\n/srv/re\t192.0.2.0/24(ro,fsid=2)\n",
          NULL, "/srv/re", { "*:/srv/re", "192.0.2.0/24:/srv/re" } },
        { "paths below it count, a sibling with the same prefix does not",
          "/srv/re/a\t*(rw)\n/srv/re-mp\t*(rw)\n/srv/re/b/c\thost.example(rw)\n",
          NULL, "/srv/re", { "*:/srv/re/a", "host.example:/srv/re/b/c" } },
        { "nothing there", "/srv/data\t*(rw)\n", NULL, "/srv/re", {} },
        { "an empty table", "", NULL, "/srv/re", {} },
        { "octal escapes undone: exportfs -u takes the path as it is",
          "/srv/r\\040e\t*(rw)\n", NULL, "/srv/r e", { "*:/srv/r e" } },
        { "rootdir applied to the table's paths, not to the argument",
          "/re\t*(rw)\n/data\t*(rw)\n", "/export", "/export/re", { "*:/re" } },
        { "an IPv6 client, address or network, in brackets (exportfs -u splits at the first ':' otherwise)",
          "/srv/re\tfe80::1(rw)\n/srv/re\t*(rw)\n/srv/re/x\t2001:db8::/64(ro)\n", NULL, "/srv/re",
          { "[fe80::1]:/srv/re", "*:/srv/re", "[2001:db8::/64]:/srv/re/x" } },
        { "the root mount holds everything",
          "/srv/a\t*(rw)\n/b\tx(rw)\n", NULL, "/", { "*:/srv/a", "x:/b" } },
};
/* clang-format on */

static size_t count(const char *const *v, size_t max) {
        size_t n = 0;
        while (n < max && v[n])
                n++;
        return n;
}

int main(void) {
        unsigned failed = 0;

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                const struct test_case *c = &cases[i];
                struct export_table t = {};
                struct unexport_list l = {};
                bool ok = true;

                if (exports_parse(&t, c->etab, strlen(c->etab), "etab", NULL) < 0 ||
                    unexport_list_below(&t, c->export_root, c->mount_point, &l) < 0) {
                        printf("FAIL %s: out of memory\n", c->name);
                        return 1;
                }
                size_t n_args = count(c->args, 5);
                ok = l.n == n_args;
                for (size_t k = 0; ok && k < n_args; k++)
                        ok = strcmp(l.args[k], c->args[k]) == 0;
                if (!ok) {
                        failed++;
                        printf("FAIL %s: got", c->name);
                        for (size_t k = 0; k < l.n; k++)
                                printf(" [%s]", l.args[k]);
                        printf("\n");
                } else
                        printf("ok   %s\n", c->name);
                unexport_list_free(&l);
                export_table_free(&t);
        }
        return failed ? 1 : 0;
}

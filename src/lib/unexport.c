/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "escape.h"
#include "macro.h"
#include "unexport.h"

static int append(char ***v, size_t *n, size_t *cap, const char *host, const char *path) {
        bool ipv6 = strchr(host, ':');
        char *s;

        if (array_reserve(v, cap, *n + 1, sizeof(**v)) < 0)
                return -ENOMEM;
        /* A line without a client means everyone: exportfs keeps it as "*".
         * exportfs -u splits HOST:PATH at the first ':', except after a '[':
         * an IPv6 address (or network) goes in brackets (nfs-utils 1.3.0,
         * commit 4663c648; every supported release has it). */
        if (asprintf(&s, "%s%s%s:%s", ipv6 ? "[" : "", host[0] ? host : "*", ipv6 ? "]" : "", path) < 0)
                return -ENOMEM;
        (*v)[(*n)++] = s;
        return 0;
}

int unexport_list_below(const struct export_table *etab, const char *export_root, const char *mount_point,
                        struct unexport_list *ret) {
        _cleanup_(unexport_list_free) struct unexport_list l = {};
        size_t cap = 0;
        int r;

        assert(etab);
        assert(mount_point);
        assert(ret);

        for (size_t i = 0; i < etab->n; i++) {
                const struct export_entry *e = &etab->entries[i];
                _cleanup_free_ char *served = NULL;

                r = export_path_served(export_root, e->path, &served, NULL);
                if (r == -ENOMEM)
                        return r;
                if (r < 0 || !path_is_at_or_below(served, mount_point))
                        continue;
                for (size_t c = 0; c < e->n_clients; c++) {
                        r = append(&l.args, &l.n, &cap, e->clients[c].host, e->path);
                        if (r < 0)
                                return r;
                }
        }
        *ret = l;
        l = (struct unexport_list){};
        return 0;
}

void unexport_list_free(struct unexport_list *l) {
        for (size_t i = 0; i < l->n; i++)
                free(l->args[i]);
        free(l->args);
        *l = (struct unexport_list){};
}

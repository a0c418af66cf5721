/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exports-verdict ROOT FILE...: our exports reader's verdict on each FILE (a
 * path on this host holding one export line, for run-exportfs-diff), judged
 * for the nfs-utils that ROOT's dpkg status says is installed (the lookup the
 * readers make, so the test covers it), one line per file:
 *
 *   FILE TAB accept|reject TAB PATH-IN-HEX TAB CLIENTS
 *
 * "accept" means what exportfs means by it: the line gives an export and no
 * client of it is refused. PATH-IN-HEX is "-" when the line gives none. */
#include <stdio.h>
#include <stdlib.h>

#include "lib/exports.h"
#include "lib/nfs_utils.h"

static int verdict(const struct rootfs *host, unsigned version, const char *file) {
        _cleanup_free_ char *data = NULL;
        struct export_table t = {.nfs_utils = version};
        struct diag_list diags = {};
        bool accept;
        size_t size;
        int r;

        r = rootfs_read_file(host, file, &data, &size, NULL);
        if (r < 0) {
                fprintf(stderr, "%s: cannot be read: %s\n", file, config_file_strerror(r));
                return r;
        }
        r = exports_parse(&t, data, size, file, &diags);
        if (r < 0)
                return r;
        accept = t.n == 1 && t.entries[0].n_clients > 0;
        for (size_t i = 0; accept && i < t.entries[0].n_clients; i++)
                if (t.entries[0].clients[i].bad)
                        accept = false;
        for (size_t i = 0; i < diags.n; i++)
                if (diags.items[i].severity == DIAG_ERROR)
                        accept = false;
        printf("%s\t%s\t", file, accept ? "accept" : "reject");
        if (t.n == 0)
                printf("-");
        for (const char *p = t.n ? t.entries[0].path : ""; *p; p++)
                printf("%02x", (unsigned char) *p);
        printf("\t%zu\n", t.n ? t.entries[0].n_clients : 0);
        export_table_free(&t);
        diag_list_free(&diags);
        return 0;
}

int main(int argc, char **argv) {
        struct rootfs root, host;
        unsigned version;

        if (argc < 2) {
                fprintf(stderr, "usage: exports-verdict ROOT FILE...\n");
                return 2;
        }
        if (rootfs_open(argv[1], &root) < 0 || nfs_utils_version_installed(&root, &version) < 0 ||
            rootfs_open("/", &host) < 0) {
                fprintf(stderr, "exports-verdict: cannot open the root %s\n", argv[1]);
                return 1;
        }
        printf("nfs-utils\t%u.%u.%u\n", NFS_UTILS_MAJOR(version), NFS_UTILS_MINOR(version),
               NFS_UTILS_PATCH(version));
        for (int i = 2; i < argc; i++)
                if (verdict(&host, version, argv[i]) < 0)
                        return 1;
        rootfs_close(&root);
        rootfs_close(&host);
        return 0;
}

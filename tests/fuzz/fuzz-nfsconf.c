/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as nfs.conf (includes are not followed). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/nfsconf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        struct nfsconf c = {};
        struct diag_list diags = {};
        char *path = NULL;

        if (nfsconf_parse(&c, (const char *) data, size, "/etc/nfs.conf", NULL, &diags) >= 0) {
                (void) nfsconf_get_bool(&c, "nfsd", "vers3", true);
                (void) nfsconf_get_path(&c, "general", "pipefs-directory", &diags, &path);
                free(path);
        }
        nfsconf_free(&c);
        diag_list_free(&diags);
        return 0;
}

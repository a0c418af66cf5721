/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as /etc/exports, and whatever is read decided
 * against an empty fstab, rendered both ways. Nothing may crash or leak. */
#include <stddef.h>
#include <stdint.h>

#include "lib/exports.h"
#include "lib/server_order.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        struct export_table t = {};
        struct diag_list diags = {};
        struct fstab_table fstab = {.file = "/etc/fstab"};
        struct server_order order = {};
        struct buf text = {};

        if (exports_parse(&t, (const char *) data, size, "/etc/exports", &diags) >= 0 &&
            server_order_decide(&t, &fstab, "/export", "files", &order, &diags) >= 0) {
                (void) server_order_render(&order, true, &diags, &text);
                buf_free(&text);
                (void) server_order_render(&order, false, NULL, &text);
        }
        buf_free(&text);
        server_order_free(&order);
        export_table_free(&t);
        diag_list_free(&diags);
        return 0;
}

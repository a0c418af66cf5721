/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any byte string through every escaping step. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char *s = strndup((const char *) data, size), *out = NULL;

        if (!s)
                return 0;
        if (unit_name_from_path(s, "mount", &out) >= 0)
                free(out);
        if (unit_value_escape_path(s, &out) >= 0)
                free(out);
        if (path_normalize(s, true, &out, NULL) >= 0)
                free(out);
        free(escape_for_comment(s));
        (void) utf8_is_valid_systemd(s);
        free(s);
        return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test driver: reads NUL-separated byte strings on stdin and prints, one per
 * line, what the escaper makes of each ("!" for a refusal), so that a script
 * can hold the results against systemd's own tools. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/macro.h"

int main(int argc, char *argv[]) {
        char *item = NULL;
        size_t cap = 0;
        ssize_t n;

        if (argc != 2 || (strcmp(argv[1], "name") != 0 && strcmp(argv[1], "value") != 0 &&
                          strcmp(argv[1], "shell") != 0)) {
                fprintf(stderr, "usage: %s name|value|shell < NUL-separated-input\n", argv[0]);
                return 2;
        }
        while ((n = getdelim(&item, &cap, '\0', stdin)) > 0) {
                _cleanup_free_ char *out = NULL;
                int r;
                if (item[n - 1] == '\0')
                        n--;
                item[n] = '\0';
                if (strcmp(argv[1], "shell") == 0) {
                        out = shell_quote(item);
                        r = out ? 0 : -1;
                } else
                        r = strcmp(argv[1], "name") == 0 ? unit_name_from_path(item, "mount", &out)
                                                         : unit_value_escape_path(item, &out);
                if (r < 0)
                        puts("!");
                else
                        puts(out);
        }
        free(item);
        return 0;
}

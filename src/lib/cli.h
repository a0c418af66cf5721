/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

/* The command line every generator of ours takes:
 *   PROGRAM [--root=DIR] [--explain] NORMAL_DIR [EARLY_DIR LATE_DIR]
 * (systemd passes three directories; we write to the first). */
struct generator_args {
        const char *root;       /* "/" unless --root */
        bool explain;           /* print to stdout instead of writing */
        const char *normal_dir; /* NULL only with --explain */
};

/* Returns 1 to go on, 0 after --help/--version, -1 after a usage error
 * (already reported). */
int generator_parse_args(int argc, char *argv[], const char *program, const char *summary,
                         struct generator_args *ret);

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
        const char *cmdline;    /* --cmdline=STRING (GENERATOR_ARG_CMDLINE only), or NULL */
};

/* Options only some generators take */
enum {
        GENERATOR_ARG_CMDLINE = 1 << 0, /* --cmdline=STRING instead of /proc/cmdline */
};

/* Returns 1 to go on, 0 after --help/--version, -1 after a usage error
 * (already reported). */
int generator_parse_args(int argc, char *argv[], const char *program, const char *summary,
                         struct generator_args *ret);
/* The same, with the options in `extra` (GENERATOR_ARG_*) accepted too. */
int generator_parse_args_extra(int argc, char *argv[], const char *program, const char *summary,
                               unsigned extra, struct generator_args *ret);

/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "rootfs.h"

/* The command line of every program of ours: --root=DIR, --help, --version,
 * and the flags the program adds. One parser, so that --root= means the same
 * everywhere (an empty value is an error, never the host). */

struct cli_flag {
        const char *name; /* without the dashes */
        char short_name;  /* or 0 */
        const char *help; /* one line for --help */
        bool *value;      /* set to true when given */
};

struct cli_value {
        const char *name; /* without the dashes: --NAME=METAVAR */
        const char *metavar;
        const char *help;   /* one line for --help */
        const char **value; /* set to the argument when given */
};

struct cli_program {
        const char *name;
        const char *operands;  /* after the options on the usage line, or "" */
        const char *summary;   /* what it does, for --help */
        const char *root_help; /* what --root=DIR reads below DIR */
        const char *epilogue;  /* printed after the options, or NULL */
        const struct cli_flag *flags;
        size_t n_flags;
        const struct cli_value *values; /* options that take an argument */
        size_t n_values;
};

/* Parses argv for `program`: *ret_root is "/" unless --root=DIR, and
 * *ret_first_operand the index of the first operand in argv. Returns 1 to go
 * on, 0 after --help/--version, -1 after a usage error (already reported). */
int cli_parse(int argc, char *argv[], const struct cli_program *program, const char **ret_root,
              int *ret_first_operand);

/* Prints the usage of `program` to stderr after a usage error of the
 * caller's own (a wrong number of operands). */
void cli_usage_error(const struct cli_program *program);

/* The command line every generator of ours takes:
 *   PROGRAM [--root=DIR] [--explain] NORMAL_DIR [EARLY_DIR LATE_DIR]
 * (systemd passes three directories; we write to the first). */
struct generator_args {
        const char *root;       /* "/" unless --root */
        bool explain;           /* print to stdout instead of writing */
        const char *normal_dir; /* NULL only with --explain */
        const char *cmdline;    /* --cmdline=STRING (GENERATOR_ARG_CMDLINE only), or NULL */
};

/* What a generator takes beyond the common options. */
enum {
        GENERATOR_ARG_CMDLINE = 1 << 0, /* --cmdline=STRING instead of /proc/cmdline */
};

/* The whole main() of a generator: log set-up, the command line, logging to
 * the kernel log when run by systemd, the root opened, then `run`; returns
 * the exit status. */
int generator_main(int argc, char *argv[], const char *program, const char *summary,
                   int (*run)(const struct generator_args *args, const struct rootfs *root));

/* The same, for a generator that takes more (`extra`: GENERATOR_ARG_*). */
int generator_main_extra(int argc, char *argv[], const char *program, const char *summary, unsigned extra,
                         int (*run)(const struct generator_args *args, const struct rootfs *root));

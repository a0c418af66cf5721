/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <assert.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config.h"
#include "log.h"
#include "macro.h"

/* every program's own flags, and --root, --help, --version */
#define CLI_FLAGS_MAX 8

enum {
        OPT_ROOT = 0x100,
        OPT_HELP,
        OPT_VERSION,
        OPT_FLAG,                     /* OPT_FLAG + i: program->flags[i] */
        OPT_VALUE = OPT_FLAG + 0x100, /* OPT_VALUE + i: program->values[i] */
};

static void usage(FILE *f, const struct cli_program *p) {
        fprintf(f, "Usage: %s [--root=DIR]", p->name);
        for (size_t i = 0; i < p->n_flags; i++)
                fprintf(f, " [--%s]", p->flags[i].name);
        for (size_t i = 0; i < p->n_values; i++)
                fprintf(f, " [--%s=%s]", p->values[i].name, p->values[i].metavar);
        fprintf(f, "%s%s\n\n%s\n\n", *p->operands ? " " : "", p->operands, p->summary);
        fprintf(f, "  %-12s %s\n", "--root=DIR", p->root_help);
        for (size_t i = 0; i < p->n_flags; i++) {
                _cleanup_free_ char *name = NULL;
                if (asprintf(&name, "--%s", p->flags[i].name) < 0)
                        name = NULL;
                fprintf(f, "  %-12s %s\n", name ? name : p->flags[i].name, p->flags[i].help);
        }
        for (size_t i = 0; i < p->n_values; i++) {
                _cleanup_free_ char *name = NULL;
                if (asprintf(&name, "--%s=%s", p->values[i].name, p->values[i].metavar) < 0)
                        name = NULL;
                fprintf(f, "  %-12s %s\n", name ? name : p->values[i].name, p->values[i].help);
        }
        fprintf(f, "  %-12s %s\n  %-12s %s\n", "--help", "show this help", "--version", "show the version");
        if (p->epilogue)
                fprintf(f, "\n%s\n", p->epilogue);
}

void cli_usage_error(const struct cli_program *program) {
        usage(stderr, program);
}

int cli_parse(int argc, char *argv[], const struct cli_program *p, const char **ret_root,
              int *ret_first_operand) {
        struct option options[2 * CLI_FLAGS_MAX + 4] = {
                {"root", required_argument, NULL, OPT_ROOT},
                {"help", no_argument, NULL, OPT_HELP},
                {"version", no_argument, NULL, OPT_VERSION},
        };
        char shorts[2 * CLI_FLAGS_MAX + 2] = "";
        const char *root = "/";
        size_t n_shorts = 0;
        int c;

        assert(p);
        assert(p->n_flags <= CLI_FLAGS_MAX);
        assert(p->n_values <= CLI_FLAGS_MAX);
        assert(ret_root);
        assert(ret_first_operand);

        for (size_t i = 0; i < p->n_flags; i++) {
                options[3 + i] = (struct option){p->flags[i].name, no_argument, NULL, OPT_FLAG + (int) i};
                if (p->flags[i].short_name)
                        shorts[n_shorts++] = p->flags[i].short_name;
        }
        for (size_t i = 0; i < p->n_values; i++)
                options[3 + p->n_flags + i] =
                        (struct option){p->values[i].name, required_argument, NULL, OPT_VALUE + (int) i};
        shorts[n_shorts++] = 'h';

        optind = 1;
        while ((c = getopt_long(argc, argv, shorts, options, NULL)) >= 0) {
                if (c == OPT_ROOT) {
                        if (!*optarg) {
                                /* an unset variable in a script, never "the host" */
                                log_error("--root= needs a directory (use --root=/ for this system).");
                                return -1;
                        }
                        root = optarg;
                } else if (c == OPT_HELP || c == 'h') {
                        usage(stdout, p);
                        return 0;
                } else if (c == OPT_VERSION) {
                        printf("%s %s\n", p->name, PACKAGE_VERSION);
                        return 0;
                } else if (c >= OPT_VALUE && c < OPT_VALUE + (int) p->n_values) {
                        *p->values[c - OPT_VALUE].value = optarg;
                } else if (c >= OPT_FLAG && c < OPT_FLAG + (int) p->n_flags) {
                        *p->flags[c - OPT_FLAG].value = true;
                } else {
                        size_t i;
                        for (i = 0; i < p->n_flags; i++)
                                if (c == p->flags[i].short_name)
                                        break;
                        if (i == p->n_flags) {
                                usage(stderr, p);
                                return -1;
                        }
                        *p->flags[i].value = true;
                }
        }
        *ret_root = root;
        *ret_first_operand = optind;
        return 1;
}

static int generator_parse_args(int argc, char *argv[], const char *program, const char *summary,
                                unsigned extra, struct generator_args *ret) {
        struct generator_args args = {};
        const struct cli_flag flags[] = {
                {"explain", 0, "print what would be written, with the reasons, to stdout", &args.explain},
        };
        const struct cli_value cmdline[] = {
                {"cmdline", "STRING", "the kernel command line, instead of DIR/proc/cmdline", &args.cmdline},
        };
        const struct cli_program p = {
                .name = program,
                .operands = "NORMAL_DIR [EARLY_DIR LATE_DIR]",
                .summary = summary,
                .root_help = "read the configuration below DIR instead of /",
                .flags = flags,
                .n_flags = ELEMENTSOF(flags),
                .values = extra & GENERATOR_ARG_CMDLINE ? cmdline : NULL,
                .n_values = extra & GENERATOR_ARG_CMDLINE ? ELEMENTSOF(cmdline) : 0,
        };
        int r, first, rest;

        r = cli_parse(argc, argv, &p, &args.root, &first);
        if (r <= 0)
                return r;
        rest = argc - first;
        if (!(rest == 1 || rest == 3 || (rest == 0 && args.explain))) {
                log_error("Expected one or three directories (or --explain), got %d argument(s).", rest);
                cli_usage_error(&p);
                return -1;
        }
        if (rest > 0) {
                args.normal_dir = argv[first];
                if (args.normal_dir[0] != '/' && !args.explain) {
                        log_error("The output directory must be absolute: %s", args.normal_dir);
                        return -1;
                }
        }
        *ret = args;
        return 1;
}

int generator_main(int argc, char *argv[], const char *program, const char *summary,
                   int (*run)(const struct generator_args *args, const struct rootfs *root)) {
        return generator_main_extra(argc, argv, program, summary, 0, run);
}

int generator_main_extra(int argc, char *argv[], const char *program, const char *summary, unsigned extra,
                         int (*run)(const struct generator_args *args, const struct rootfs *root)) {
        _cleanup_(rootfs_close) struct rootfs root = {.fd = -1};
        struct generator_args args;
        int r;

        assert(program);
        assert(run);

        log_setup(program);
        r = generator_parse_args(argc, argv, program, summary, extra, &args);
        if (r <= 0)
                return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
        if (!args.explain)
                log_open_generator();
        r = rootfs_open(args.root, &root);
        if (r < 0) {
                log_error_errno(r, "Cannot open root directory %s: %m", args.root);
                return EXIT_FAILURE;
        }
        return run(&args, &root) < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

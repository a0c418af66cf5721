/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cli.h"
#include "log.h"

static void usage(FILE *f, const char *program, const char *summary, unsigned extra) {
        fprintf(f,
                "Usage: %s [--root=DIR] [--explain]%s NORMAL_DIR [EARLY_DIR LATE_DIR]\n"
                "%s\n\n"
                "  --root=DIR   read the configuration below DIR instead of /\n"
                "  --explain    print what would be written, with the reasons, to stdout\n",
                program, extra & GENERATOR_ARG_CMDLINE ? " [--cmdline=STRING]" : "", summary);
        if (extra & GENERATOR_ARG_CMDLINE)
                fputs("  --cmdline=STRING  the kernel command line, instead of DIR/proc/cmdline\n", f);
        fputs("  --help       show this help\n"
              "  --version    show the version\n",
              f);
}

int generator_parse_args(int argc, char *argv[], const char *program, const char *summary,
                         struct generator_args *ret) {
        return generator_parse_args_extra(argc, argv, program, summary, 0, ret);
}

int generator_parse_args_extra(int argc, char *argv[], const char *program, const char *summary,
                               unsigned extra, struct generator_args *ret) {
        static const struct option options[] = {
                {"root", required_argument, NULL, 'r'},    {"explain", no_argument, NULL, 'e'},
                {"cmdline", required_argument, NULL, 'c'}, {"help", no_argument, NULL, 'h'},
                {"version", no_argument, NULL, 'V'},       {},
        };
        struct generator_args args = {.root = "/"};
        int c, rest;

        while ((c = getopt_long(argc, argv, "", options, NULL)) >= 0)
                switch (c) {
                case 'r':
                        if (!*optarg) {
                                /* an unset variable in a script, never "the host" */
                                log_error("--root= needs a directory (use --root=/ for this system).");
                                return -1;
                        }
                        args.root = optarg;
                        break;
                case 'e':
                        args.explain = true;
                        break;
                case 'c':
                        if (!(extra & GENERATOR_ARG_CMDLINE)) {
                                log_error("%s takes no --cmdline= option.", program);
                                usage(stderr, program, summary, extra);
                                return -1;
                        }
                        args.cmdline = optarg;
                        break;
                case 'h':
                        usage(stdout, program, summary, extra);
                        return 0;
                case 'V':
                        printf("%s %s\n", program, PACKAGE_VERSION);
                        return 0;
                default:
                        usage(stderr, program, summary, extra);
                        return -1;
                }

        rest = argc - optind;
        if (!(rest == 1 || rest == 3 || (rest == 0 && args.explain))) {
                log_error("Expected one or three directories (or --explain), got %d argument(s).", rest);
                usage(stderr, program, summary, extra);
                return -1;
        }
        if (rest > 0) {
                args.normal_dir = argv[optind];
                if (args.normal_dir[0] != '/' && !args.explain) {
                        log_error("The output directory must be absolute: %s", args.normal_dir);
                        return -1;
                }
        }
        *ret = args;
        return 1;
}

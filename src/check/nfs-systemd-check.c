/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nfs-systemd-check: says what will go wrong with this system's NFS start-up
 * before it does. Read everything (system.c), check (checks.c), render the
 * findings (findings.c); see nfs-systemd-check(8). */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "config.h"
#include "findings.h"
#include "lib/log.h"
#include "system.h"

/* Exit status: 0 clean (notes allowed), 1 warnings, 2 errors, 3 when the
 * check itself could not run. */
#define EXIT_CANNOT_RUN 3

struct args {
        const char *root;
        bool json, quiet;
};

static void help(void) {
        printf("Usage: nfs-systemd-check [--root=DIR] [--json] [--quiet]\n\n"
               "Check the NFS configuration, fstab and unit states of this system (or of the\n"
               "image at DIR) for what will go wrong at the next boot.\n\n"
               "  --root=DIR   read the system below DIR instead of /\n"
               "  --json       print the findings as a JSON array\n"
               "  --quiet      print nothing; only the exit status tells\n"
               "  --help       show this help\n"
               "  --version    show the version\n\n"
               "Exit status: 0 no errors or warnings, 1 warnings, 2 errors, 3 the check could not run.\n");
}

/* Returns 1 to go on, 0 after --help/--version, -1 on a usage error. */
static int parse_args(int argc, char *argv[], struct args *ret) {
        static const struct option options[] = {
                {"root", required_argument, NULL, 'r'}, {"json", no_argument, NULL, 'j'},
                {"quiet", no_argument, NULL, 'q'},      {"help", no_argument, NULL, 'h'},
                {"version", no_argument, NULL, 'V'},    {},
        };
        int c;

        *ret = (struct args){.root = "/"};
        while ((c = getopt_long(argc, argv, "hq", options, NULL)) >= 0)
                switch (c) {
                case 'r':
                        if (!*optarg) {
                                /* an unset variable in a script, never "the host" */
                                log_error("--root= needs a directory (use --root=/ for this system).");
                                return -1;
                        }
                        ret->root = optarg;
                        break;
                case 'j':
                        ret->json = true;
                        break;
                case 'q':
                        ret->quiet = true;
                        break;
                case 'h':
                        help();
                        return 0;
                case 'V':
                        printf("nfs-systemd-check %s\n", PACKAGE_VERSION);
                        return 0;
                default:
                        return -1;
                }
        if (optind < argc) {
                log_error("Unexpected argument: %s (see --help)", argv[optind]);
                return -1;
        }
        return 1;
}

static int run(const struct args *args, int *ret_status) {
        _cleanup_(rootfs_close) struct rootfs root = {.fd = -1};
        _cleanup_(check_system_free) struct check_system system = {};
        _cleanup_(finding_list_free) struct finding_list findings = {};
        _cleanup_(buf_free) struct buf text = {};
        int r;

        r = rootfs_open(args->root, &root);
        if (r < 0)
                return log_error_errno(r, "Cannot open root directory %s: %m", args->root);
        r = check_system_read(&root, &system);
        if (r < 0)
                return log_error_errno(r, "Cannot read the configuration: %m");
        r = checks_run(&system.in, &findings);
        if (r < 0)
                return log_error_errno(r, "Cannot check the configuration: %m");
        finding_list_sort(&findings);
        *ret_status = finding_list_exit_status(&findings);
        if (args->quiet)
                return 0;

        r = args->json ? findings_render_json(&findings, &text) : findings_render_human(&findings, &text);
        if (r < 0)
                return log_error_errno(r, "Cannot render the findings: %m");
        if (fwrite(text.data, 1, text.len, stdout) != text.len || fflush(stdout) != 0)
                return log_error_errno(errno ? errno : EIO, "Cannot write to stdout: %m");
        return 0;
}

int main(int argc, char *argv[]) {
        struct args args;
        int r, status = 0;

        log_setup("nfs-systemd-check");
        r = parse_args(argc, argv, &args);
        if (r <= 0)
                return r < 0 ? EXIT_CANNOT_RUN : EXIT_SUCCESS;
        r = run(&args, &status);
        return r < 0 ? EXIT_CANNOT_RUN : status;
}

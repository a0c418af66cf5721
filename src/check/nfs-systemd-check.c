/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nfs-systemd-check: says what will go wrong with this system's NFS start-up
 * before it does. Read everything (system.c), check (checks.c), render the
 * findings (findings.c); see nfs-systemd-check(8). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "findings.h"
#include "lib/cli.h"
#include "lib/log.h"
#include "system.h"

/* Exit status: 0 clean (notes allowed), 1 warnings, 2 errors, 3 when the
 * check itself could not run. */
#define EXIT_CANNOT_RUN 3

struct args {
        const char *root;
        bool json, quiet;
};

/* Returns 1 to go on, 0 after --help/--version, -1 on a usage error. */
static int parse_args(int argc, char *argv[], struct args *ret) {
        struct args args = {};
        const struct cli_flag flags[] = {
                {"json", 0, "print the findings as a JSON array", &args.json},
                {"quiet", 'q', "print nothing; only the exit status tells", &args.quiet},
        };
        const struct cli_program program = {
                .name = "nfs-systemd-check",
                .operands = "",
                .summary = "Check the NFS configuration, fstab and unit states of this system (or of the\n"
                           "image at DIR) for what will go wrong at the next boot.",
                .root_help = "read the system below DIR instead of /",
                .epilogue = "Exit status: 0 no errors or warnings, 1 warnings, 2 errors, 3 the check could "
                            "not run.",
                .flags = flags,
                .n_flags = ELEMENTSOF(flags),
        };
        int r, first;

        r = cli_parse(argc, argv, &program, &args.root, &first);
        if (r <= 0)
                return r;
        if (first < argc) {
                log_error("Unexpected argument: %s (see --help)", argv[first]);
                return -1;
        }
        *ret = args;
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

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rpc-pipefs-generator: mounts rpc_pipefs where nfs.conf's
 * [general] pipefs-directory= says, and points rpc_pipefs.target at that
 * mount. Read, decide, render, write; see rpc-pipefs-generator(8). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "lib/cli.h"
#include "lib/fstab.h"
#include "lib/log.h"
#include "lib/nfsconf.h"
#include "lib/pipefs.h"
#include "lib/unitfile.h"

#define DEFAULT_PIPEFS_DIR NFS_STATEDIR "/rpc_pipefs"

/* What is mounted now, to refuse a directory that is another filesystem's
 * mount point. Only for the running system: an image under --root has no
 * mounts of its own to ask about. */
static int read_mounted(const struct generator_args *args, struct fstab_table *mounted,
                        struct diag_list *diags) {
        _cleanup_fclose_ FILE *f = NULL;

        if (strcmp(args->root, "/") != 0)
                return 0;
        f = fopen("/proc/self/mountinfo", "re");
        if (!f)
                return 0;
        return fstab_parse(mounted, f, "/proc/self/mountinfo", diags);
}

static int run(const struct generator_args *args) {
        _cleanup_(nfsconf_free) struct nfsconf conf = {};
        _cleanup_(fstab_table_free) struct fstab_table fstab = {}, mounted = {};
        _cleanup_(diag_list_free) struct diag_list diags = {}, mount_diags = {};
        _cleanup_(pipefs_plan_free) struct pipefs_plan plan = {};
        _cleanup_(rootfs_close) struct rootfs root = {.fd = -1};
        _cleanup_(buf_free) struct buf mount_text = {}, target_text = {};
        int r;

        r = rootfs_open(args->root, &root);
        if (r < 0)
                return log_error_errno(r, "Cannot open root directory %s: %m", args->root);
        r = nfsconf_read(&conf, &root, &diags);
        if (r >= 0)
                r = fstab_read(&fstab, &root, &diags);
        if (r >= 0)
                r = read_mounted(args, &mounted, &mount_diags); /* its oddities are not the admin's */
        if (r < 0)
                return log_error_errno(r, "Cannot read the configuration: %m");

        r = pipefs_decide(&conf, DEFAULT_PIPEFS_DIR, &fstab, &mounted, &plan, &diags);
        if (r < 0)
                return log_error_errno(r, "Cannot decide where rpc_pipefs goes: %m");
        diag_list_log(&diags);

        if (!plan.generate) {
                if (args->explain)
                        printf("# rpc_pipefs stays at %s (the static units): nothing to generate.\n",
                               DEFAULT_PIPEFS_DIR);
                return 0;
        }
        r = pipefs_render_mount(&plan, &mount_text);
        if (r >= 0)
                r = pipefs_render_target(&plan, &target_text);
        if (r < 0)
                return log_error_errno(r, "Cannot render the units: %m");

        if (args->explain) {
                printf("# %s\n%s\n# rpc_pipefs.target\n%s", plan.unit, buf_str(&mount_text),
                       buf_str(&target_text));
                return fflush(stdout) == 0 ? 0 : log_error_errno(errno, "Cannot write to stdout: %m");
        }
        r = unitfile_write_atomic(args->normal_dir, plan.unit, mount_text.data, mount_text.len);
        if (r < 0)
                return log_error_errno(r, "Cannot write %s/%s: %m", args->normal_dir, plan.unit);
        r = unitfile_write_atomic(args->normal_dir, "rpc_pipefs.target", target_text.data, target_text.len);
        if (r < 0)
                return log_error_errno(r, "Cannot write %s/rpc_pipefs.target: %m", args->normal_dir);
        return 0;
}

int main(int argc, char *argv[]) {
        struct generator_args args;
        int r;

        log_setup("rpc-pipefs-generator");
        r = generator_parse_args(argc, argv, "rpc-pipefs-generator",
                                 "Mount rpc_pipefs where nfs.conf's [general] pipefs-directory= says.",
                                 &args);
        if (r <= 0)
                return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
        if (!args.explain)
                log_open_generator();
        return run(&args) < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

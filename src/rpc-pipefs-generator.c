/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rpc-pipefs-generator: mounts rpc_pipefs where nfs.conf's
 * [general] pipefs-directory= says, and points rpc_pipefs.target at that
 * mount. Read, decide, render, write; see rpc-pipefs-generator(8). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/cli.h"
#include "lib/log.h"
#include "lib/pipeline.h"

static int run(const struct generator_args *args, const struct rootfs *root) {
        _cleanup_(pipefs_pipeline_free) struct pipefs_pipeline p = {};
        _cleanup_(buf_free) struct buf mount_text = {}, target_text = {};
        int r;

        r = pipefs_pipeline_decide(root, &p);
        if (r < 0)
                return log_error_errno(r, "Cannot decide where rpc_pipefs goes: %m");
        diag_list_log(&p.diags);

        if (!args->explain)
                return pipefs_pipeline_write(&p, args->normal_dir);

        if (!p.plan.generate) {
                printf("# rpc_pipefs stays at %s (the static units): nothing to generate.\n",
                       PIPEFS_DEFAULT_DIR);
                return 0;
        }
        r = pipefs_render_mount(&p.plan, &mount_text);
        if (r >= 0)
                r = pipefs_render_target(&p.plan, &target_text);
        if (r < 0)
                return log_error_errno(r, "Cannot render the units: %m");
        printf("# %s\n%s\n# rpc_pipefs.target\n%s", p.plan.unit, buf_str(&mount_text),
               buf_str(&target_text));
        return fflush(stdout) == 0 ? 0 : log_error_errno(errno, "Cannot write to stdout: %m");
}

int main(int argc, char *argv[]) {
        return generator_main(argc, argv, "rpc-pipefs-generator",
                              "Mount rpc_pipefs where nfs.conf's [general] pipefs-directory= says.", run);
}

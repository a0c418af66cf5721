/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nfs-server-generator: orders nfs-server.service after the filesystems it
 * exports and before the NFS filesystems this host mounts. Read, decide,
 * render, write; see nfs-server-generator(8). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/cli.h"
#include "lib/log.h"
#include "lib/pipeline.h"

static int run(const struct generator_args *args, const struct rootfs *root) {
        _cleanup_(server_pipeline_free) struct server_pipeline p = {};
        _cleanup_(buf_free) struct buf text = {};
        int r;

        r = server_pipeline_decide(root, &p);
        if (r < 0)
                return log_error_errno(r, "Cannot read the configuration and decide the ordering: %m");

        if (args->explain) {
                if (!p.order.anything_exported) {
                        printf("# Nothing is exported: no drop-in for nfs-server.service would be "
                               "written.\n");
                        diag_list_log(&p.diags);
                        return 0;
                }
                r = server_order_render(&p.order, true, &p.diags, &text);
                if (r < 0)
                        return log_error_errno(r, "Cannot render the drop-in: %m");
                fputs(buf_str(&text), stdout);
                return fflush(stdout) == 0 ? 0 : log_error_errno(errno, "Cannot write to stdout: %m");
        }

        diag_list_log(&p.diags);
        return server_pipeline_write(&p, root, args->normal_dir);
}

int main(int argc, char *argv[]) {
        return generator_main(argc, argv, "nfs-server-generator",
                              "Order nfs-server.service after exported filesystems and before NFS mounts.",
                              run);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nfsroot-generator: in a systemd initrd, turns an NFS root on the kernel
 * command line into sysroot.mount, required by initrd-root-fs.target.
 * Read, decide, render, write; see nfsroot-generator(8). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/cli.h"
#include "lib/log.h"
#include "lib/pipeline.h"

static int explain(const struct nfsroot_pipeline *p) {
        _cleanup_(buf_free) struct buf text = {};
        int r;

        if (!p->in_initrd)
                printf("# not in an initrd (no /etc/initrd-release): nothing to generate.\n");
        else if (p->spec.decision == NFSROOT_NONE)
                printf("# the root is not on NFS (%s): nothing to generate.\n", p->source);
        else if (p->spec.decision == NFSROOT_REFUSED)
                printf("# an NFS root that cannot be mounted as asked (see the message above): "
                       "nothing generated.\n");
        else {
                r = nfsroot_render_mount(&p->spec, p->source, &text);
                if (r < 0)
                        return log_error_errno(r, "Cannot render " NFSROOT_UNIT ": %m");
                printf("# " NFSROOT_UNIT ", required by initrd-root-fs.target\n%s", buf_str(&text));
        }
        return fflush(stdout) == 0 ? 0 : log_error_errno(errno, "Cannot write to stdout: %m");
}

static int run(const struct generator_args *args, const struct rootfs *root) {
        _cleanup_(nfsroot_pipeline_free) struct nfsroot_pipeline p = {};
        int r;

        r = nfsroot_pipeline_decide(root, args->cmdline, &p);
        if (r == -ENOMEM)
                return log_oom();
        if (r < 0)
                return r; /* logged */
        diag_list_log(&p.diags);

        if (args->explain)
                return explain(&p);
        return nfsroot_pipeline_write(&p, args->normal_dir);
}

int main(int argc, char *argv[]) {
        return generator_main_extra(
                argc, argv, "nfsroot-generator",
                "In an initrd, mount an NFS root named on the kernel command line at /sysroot.",
                GENERATOR_ARG_CMDLINE, run);
}

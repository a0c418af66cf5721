/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nfs-server-generator: orders nfs-server.service after the filesystems it
 * exports and before the NFS filesystems this host mounts. Read, decide,
 * render, write; see nfs-server-generator(8). */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cli.h"
#include "lib/exports.h"
#include "lib/fstab.h"
#include "lib/log.h"
#include "lib/loopback.h"
#include "lib/nfsconf.h"
#include "lib/server_order.h"
#include "lib/unitfile.h"

#define DROPIN_NAME "order-with-mounts.conf"

/* The units that run the kernel NFS server: nfs-server.service, and the
 * NFSv4-only nfsv4-server.service where nfs-utils ships nfsv4.exportd. The
 * second gets the same ordering, but only where its unit exists, so that a
 * system without it carries no drop-in for a unit it does not have. */
static const char *const server_units[] = {"nfs-server.service", "nfsv4-server.service"};
static const char *const unit_dirs[] = {"/etc/systemd/system", "/run/systemd/system",
                                        "/usr/lib/systemd/system", "/lib/systemd/system"};

static bool unit_exists(const struct rootfs *root, const char *unit) {
        for (size_t i = 0; i < ELEMENTSOF(unit_dirs); i++) {
                _cleanup_free_ char *path = NULL;
                int fd;
                if (asprintf(&path, "%s/%s", unit_dirs[i], unit) < 0)
                        return false;
                fd = rootfs_open_file(root, path, O_PATH);
                if (fd >= 0) {
                        close(fd);
                        return true;
                }
        }
        return false;
}

/* Writes (or, with nothing exported, removes) the drop-in of each server
 * unit. Returns 0 or the first error, after logging it. */
static int write_dropins(const struct generator_args *args, const struct rootfs *root,
                         const struct buf *text, bool anything_exported) {
        for (size_t i = 0; i < ELEMENTSOF(server_units); i++) {
                _cleanup_free_ char *dir = NULL;
                int r;

                if (i > 0 && !unit_exists(root, server_units[i]))
                        continue;
                if (asprintf(&dir, "%s/%s.d", args->normal_dir, server_units[i]) < 0)
                        return log_oom();
                if (!anything_exported) {
                        r = unitfile_remove(dir, DROPIN_NAME);
                        if (r < 0)
                                return log_error_errno(r, "Cannot remove %s/%s: %m", dir, DROPIN_NAME);
                        continue;
                }
                r = unitfile_write_atomic(dir, DROPIN_NAME, text->data, text->len);
                if (r < 0)
                        return log_error_errno(r, "Cannot write %s/%s: %m", dir, DROPIN_NAME);
        }
        return 0;
}

static int run(const struct generator_args *args) {
        _cleanup_(export_table_free) struct export_table exports = {};
        _cleanup_(fstab_table_free) struct fstab_table fstab = {};
        _cleanup_(nfsconf_free) struct nfsconf conf = {};
        _cleanup_(diag_list_free) struct diag_list diags = {};
        _cleanup_(server_order_free) struct server_order order = {};
        _cleanup_(rootfs_close) struct rootfs root = {.fd = -1};
        _cleanup_(buf_free) struct buf text = {};
        _cleanup_free_ char *export_root = NULL, *hostname = NULL;
        int r;

        r = rootfs_open(args->root, &root);
        if (r < 0)
                return log_error_errno(r, "Cannot open root directory %s: %m", args->root);

        /* Every reader turns bad input into diagnostics; only running out of
         * memory stops us, and then nothing has been written. */
        r = nfsconf_read(&conf, &root, &diags);
        if (r >= 0)
                r = exports_read(&exports, &root, &diags);
        if (r >= 0)
                r = fstab_read(&fstab, &root, &diags);
        if (r >= 0)
                r = hostname_read(&root, &hostname); /* to tell loopback NFS mounts */
        if (r < 0)
                return log_error_errno(r, "Cannot read the configuration: %m");

        /* [exports] rootdir=: export path P is served from rootdir+P */
        r = nfsconf_get_path(&conf, "exports", "rootdir", &diags, &export_root);
        if (r >= 0)
                r = server_order_decide(&exports, &fstab, export_root, hostname, &order, &diags);
        if (r < 0)
                return log_error_errno(r, "Cannot decide the ordering: %m");

        if (args->explain) {
                if (!order.anything_exported) {
                        printf("# Nothing is exported: no drop-in for nfs-server.service would be "
                               "written.\n");
                        diag_list_log(&diags);
                        return 0;
                }
                r = server_order_render(&order, true, &diags, &text);
                if (r < 0)
                        return log_error_errno(r, "Cannot render the drop-in: %m");
                fputs(buf_str(&text), stdout);
                return fflush(stdout) == 0 ? 0 : log_error_errno(errno, "Cannot write to stdout: %m");
        }

        diag_list_log(&diags);
        if (order.anything_exported) {
                r = server_order_render(&order, false, NULL, &text);
                if (r < 0)
                        return log_error_errno(r, "Cannot render the drop-in: %m");
        } else
                log_debug("Nothing is exported; no drop-in for the NFS server.");
        return write_dropins(args, &root, &text, order.anything_exported);
}

int main(int argc, char *argv[]) {
        struct generator_args args;
        int r;

        log_setup("nfs-server-generator");
        r = generator_parse_args(
                argc, argv, "nfs-server-generator",
                "Order nfs-server.service after exported filesystems and before NFS mounts.", &args);
        if (r <= 0)
                return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
        if (!args.explain)
                log_open_generator();
        return run(&args) < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "log.h"
#include "loopback.h"
#include "mount_units.h"
#include "pipeline.h"
#include "reexport.h"
#include "unit_state.h"
#include "unitfile.h"

/* The units that run the kernel NFS server: nfs-server.service, and the
 * NFSv4-only nfsv4-server.service where nfs-utils ships nfsv4.exportd. The
 * second gets the same ordering, but only where its unit exists, so that a
 * system without it carries no drop-in for a unit it does not have. */
static const char *const server_units[] = {"nfs-server.service", "nfsv4-server.service"};

/* -ENOMEM, or whether a unit directory below the root has `unit` */
static int unit_exists(const struct rootfs *root, const char *unit) {
        _cleanup_free_ char *path = NULL;
        int r;

        r = unit_file_find(root, unit, &path);
        return r < 0 ? r : path != NULL;
}

static int add_mount_units(const struct rootfs *root, struct fstab_table *fstab, struct diag_list *diags) {
        struct mount_unit_list units = {};
        int r = mount_units_read(root, &units, diags);

        if (r >= 0)
                r = fstab_add_mount_units(fstab, &units, diags);
        mount_unit_list_free(&units);
        return r;
}

int server_pipeline_decide(const struct rootfs *root, struct server_pipeline *ret) {
        struct server_pipeline *p = ret;
        int r;

        *p = (struct server_pipeline){};
        /* Every reader turns bad input into diagnostics; only running out of
         * memory stops us, and then nothing has been written. */
        r = nfsconf_read(&p->conf, root, &p->diags);
        if (r >= 0)
                r = exports_read(&p->exports, root, &p->diags);
        if (r >= 0)
                r = fstab_read(&p->fstab, root, &p->diags);
        if (r >= 0)
                r = add_mount_units(root, &p->fstab, &p->diags); /* mounts fstab does not list */
        if (r >= 0)
                r = hostname_read(root, &p->hostname); /* to tell loopback NFS mounts */
        /* [exports] rootdir=: export path P is served from rootdir+P */
        if (r >= 0)
                r = nfsconf_get_path(&p->conf, "exports", "rootdir", &p->diags, &p->export_root);
        if (r >= 0)
                r = server_order_decide(&p->exports, &p->fstab, p->export_root, p->hostname, &p->order,
                                        &p->diags);
        return r;
}

/* One drop-in per loopback re-export mount: it wants the unit that
 * withdraws the mount's exports before its unmount. */
static int write_reexport_dropins(const struct server_order *order, const char *normal_dir) {
        for (size_t i = 0; i < order->n; i++) {
                const struct order_item *it = &order->items[i];
                _cleanup_(buf_free) struct buf text = {};
                _cleanup_free_ char *dir = NULL;
                int r;

                if (it->kind != ORDER_BEFORE_MOUNT_UNIT || !it->withdraw_unit)
                        continue;
                r = reexport_dropin_render(it->withdraw_unit, &text);
                if (r < 0 || asprintf(&dir, "%s/%s.d", normal_dir, it->unit) < 0)
                        return log_oom();
                r = unitfile_write_atomic(dir, REEXPORT_DROPIN_NAME, text.data, text.len);
                if (r < 0)
                        return log_error_errno(r, "Cannot write %s/%s: %m", dir, REEXPORT_DROPIN_NAME);
        }
        return 0;
}

int server_pipeline_write(const struct server_pipeline *p, const struct rootfs *root,
                          const char *normal_dir) {
        _cleanup_(buf_free) struct buf text = {};
        int r;

        if (p->order.anything_exported) {
                r = server_order_render(&p->order, false, NULL, &text);
                if (r < 0)
                        return log_error_errno(r, "Cannot render the drop-in: %m");
        } else
                log_debug("Nothing is exported; no drop-in for the NFS server.");

        for (size_t i = 0; i < ELEMENTSOF(server_units); i++) {
                _cleanup_free_ char *dir = NULL;

                if (i > 0) {
                        r = unit_exists(root, server_units[i]);
                        if (r < 0)
                                return log_oom();
                        if (r == 0)
                                continue;
                }
                if (asprintf(&dir, "%s/%s.d", normal_dir, server_units[i]) < 0)
                        return log_oom();
                if (!p->order.anything_exported) {
                        r = unitfile_remove(dir, SERVER_DROPIN_NAME);
                        if (r < 0)
                                return log_error_errno(r, "Cannot remove %s/%s: %m", dir,
                                                       SERVER_DROPIN_NAME);
                        continue;
                }
                r = unitfile_write_atomic(dir, SERVER_DROPIN_NAME, text.data, text.len);
                if (r < 0)
                        return log_error_errno(r, "Cannot write %s/%s: %m", dir, SERVER_DROPIN_NAME);
        }
        return write_reexport_dropins(&p->order, normal_dir);
}

void server_pipeline_free(struct server_pipeline *p) {
        server_order_free(&p->order);
        fstab_table_free(&p->fstab);
        export_table_free(&p->exports);
        nfsconf_free(&p->conf);
        diag_list_free(&p->diags);
        free(p->hostname);
        free(p->export_root);
        *p = (struct server_pipeline){};
}

/* What is mounted now, to refuse a directory that is another filesystem's
 * mount point. Only for the running system: an image under --root has no
 * mounts of its own to ask about. */
static int read_mounted(const struct rootfs *root, struct fstab_table *mounted, struct diag_list *diags) {
        _cleanup_fclose_ FILE *f = NULL;

        if (!root->is_host)
                return 0;
        f = fopen("/proc/self/mountinfo", "re");
        if (!f)
                return 0;
        return fstab_parse_mountinfo(mounted, f, "/proc/self/mountinfo", diags);
}

int pipefs_pipeline_decide(const struct rootfs *root, struct pipefs_pipeline *ret) {
        struct pipefs_pipeline *p = ret;
        int r;

        *p = (struct pipefs_pipeline){};
        r = nfsconf_read(&p->conf, root, &p->diags);
        if (r >= 0)
                r = fstab_read(&p->fstab, root, &p->diags);
        if (r >= 0)
                r = read_mounted(root, &p->mounted, &p->mount_diags);
        if (r >= 0)
                r = pipefs_decide(&p->conf, PIPEFS_DEFAULT_DIR, &p->fstab, &p->mounted, &p->plan, &p->diags);
        return r;
}

int pipefs_pipeline_write(const struct pipefs_pipeline *p, const char *normal_dir) {
        _cleanup_(buf_free) struct buf mount_text = {}, target_text = {};
        int r;

        if (!p->plan.generate)
                return 0;
        r = pipefs_render_mount(&p->plan, &mount_text);
        if (r >= 0)
                r = pipefs_render_target(&p->plan, &target_text);
        if (r < 0)
                return log_error_errno(r, "Cannot render the units: %m");
        r = unitfile_write_atomic(normal_dir, p->plan.unit, mount_text.data, mount_text.len);
        if (r < 0)
                return log_error_errno(r, "Cannot write %s/%s: %m", normal_dir, p->plan.unit);
        r = unitfile_write_atomic(normal_dir, "rpc_pipefs.target", target_text.data, target_text.len);
        if (r < 0)
                return log_error_errno(r, "Cannot write %s/rpc_pipefs.target: %m", normal_dir);
        return 0;
}

void pipefs_pipeline_free(struct pipefs_pipeline *p) {
        pipefs_plan_free(&p->plan);
        fstab_table_free(&p->fstab);
        fstab_table_free(&p->mounted);
        nfsconf_free(&p->conf);
        diag_list_free(&p->diags);
        diag_list_free(&p->mount_diags);
        *p = (struct pipefs_pipeline){};
}

int nfsroot_pipeline_decide(const struct rootfs *root, const char *cmdline_text,
                            struct nfsroot_pipeline *ret) {
        struct nfsroot_pipeline *p = ret;
        _cleanup_free_ char *text = NULL;
        int fd, r;

        *p = (struct nfsroot_pipeline){.source = cmdline_text ? "--cmdline" : "/proc/cmdline"};
        /* what systemd's in_initrd() and upstream's generator look at */
        fd = rootfs_open_file(root, "/etc/initrd-release", O_PATH);
        if (fd >= 0)
                close(fd);
        p->in_initrd = fd >= 0;
        if (!p->in_initrd)
                return 0;

        if (!cmdline_text) {
                r = rootfs_read_file(root, "/proc/cmdline", &text, NULL, NULL);
                if (r == -ENOMEM)
                        return r;
                if (r < 0)
                        return log_error_errno(
                                r, "/proc/cmdline: cannot be read: %s; no sysroot.mount is written",
                                config_file_strerror(r));
                cmdline_text = text;
        }
        r = cmdline_split(cmdline_text, &p->cmdline);
        if (r < 0)
                return r;
        return nfsroot_decide(&p->cmdline, p->source, &p->spec, &p->diags);
}

int nfsroot_pipeline_write(const struct nfsroot_pipeline *p, const char *normal_dir) {
        _cleanup_(buf_free) struct buf text = {};
        _cleanup_free_ char *requires_dir = NULL;
        int r;

        if (p->spec.decision != NFSROOT_MOUNT)
                return 0;
        r = nfsroot_render_mount(&p->spec, p->source, &text);
        if (r < 0)
                return log_error_errno(r, "Cannot render " NFSROOT_UNIT ": %m");
        r = unitfile_create_atomic(normal_dir, NFSROOT_UNIT, text.data, text.len);
        if (r == -EEXIST)
                return log_error_errno(r,
                                       "%s/" NFSROOT_UNIT " exists already (another generator wrote it): "
                                       "left as it is, the NFS root is not mounted by nfsroot-generator",
                                       normal_dir);
        if (r < 0)
                return log_error_errno(r, "Cannot write %s/" NFSROOT_UNIT ": %m", normal_dir);
        if (asprintf(&requires_dir, "%s/" NFSROOT_REQUIRES_DIR, normal_dir) < 0)
                return log_oom();
        r = unitfile_symlink(requires_dir, NFSROOT_UNIT, "../" NFSROOT_UNIT);
        if (r < 0)
                return log_error_errno(r, "Cannot link %s/" NFSROOT_UNIT ": %m", requires_dir);
        return 0;
}

void nfsroot_pipeline_free(struct nfsroot_pipeline *p) {
        cmdline_free(&p->cmdline);
        nfsroot_spec_free(&p->spec);
        diag_list_free(&p->diags);
        *p = (struct nfsroot_pipeline){};
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/nfs_utils.h"
#include "lib/pipeline.h"
#include "system.h"

static bool regular_file_exists(const struct rootfs *root, const char *path) {
        _cleanup_close_ int fd = rootfs_open_file(root, path, O_PATH);
        struct stat st;

        return fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

/* The mounts of .mount units join fstab's, as in nfs-server-generator; what
 * is said about an fstab line stays with fstab's diagnostics. */
static int add_mount_units(const struct rootfs *root, struct check_input *in) {
        _cleanup_(mount_unit_list_free) struct mount_unit_list units = {};
        _cleanup_(diag_list_free) struct diag_list diags = {};
        int r;

        r = mount_units_read(root, &units, &in->mount_unit_diags);
        if (r >= 0)
                r = fstab_add_mount_units(&in->fstab, &units, &diags);
        for (size_t i = 0; i < diags.n && r >= 0; i++) {
                const struct diag *g = &diags.items[i];
                r = diag_add(strcmp(g->file, in->fstab.file) == 0 ? &in->fstab_diags : &in->mount_unit_diags,
                             g->severity, g->file, g->line, "%s", g->message);
        }
        return r;
}

/* /proc/cmdline below the root: the host's, or a file in an image; left
 * empty when it cannot be read (the NFS-root checks then use fstab only). */
static int read_cmdline(const struct rootfs *root, struct cmdline *ret) {
        _cleanup_free_ char *text = NULL;
        int r = rootfs_read_file(root, "/proc/cmdline", &text, NULL, NULL);

        if (r == -ENOMEM)
                return r;
        return r < 0 ? 0 : cmdline_split(text, ret);
}

/* An /etc/default file; a missing or unreadable one stays empty (it is
 * Debian's init scripts' file, read here only to say what no unit reads). */
static int read_default_file(const struct rootfs *root, const char *path, struct default_file *ret) {
        _cleanup_free_ char *data = NULL;
        size_t size;
        int r = rootfs_read_file(root, path, &data, &size, NULL);

        if (r == -ENOMEM)
                return r;
        return r < 0 ? 0 : default_file_parse(ret, data, size);
}

int check_system_read(const struct rootfs *root, struct check_system *ret) {
        struct check_system s = {};
        struct check_input *in = &s.in;
        const struct nfsconf_entry *keytab;
        int r;

        r = nfsconf_read(&in->conf, root, &in->nfsconf_diags);
        /* the options are judged as the root's own exportfs judges them */
        if (r >= 0)
                r = nfs_utils_version_installed(root, &in->exports.nfs_utils);
        /* and the mount options as its mount.nfs reads them */
        if (r >= 0)
                r = libmount_version_installed(root, &in->libmount);
        if (r >= 0)
                r = exports_read(&in->exports, root, &in->exports_diags);
        if (r >= 0)
                r = fstab_read(&in->fstab, root, &in->fstab_diags);
        if (r >= 0)
                r = add_mount_units(root, in);
        if (r >= 0)
                r = nfsconf_get_path(&in->conf, "exports", "rootdir", &in->nfsconf_diags, &s.export_root);
        if (r >= 0)
                r = hostname_read(root, &s.hostname);
        if (r >= 0)
                r = read_cmdline(root, &s.cmdline);
        if (r >= 0)
                r = read_default_file(root, "/etc/default/nfs-kernel-server", &in->default_server);
        if (r >= 0)
                r = read_default_file(root, "/etc/default/nfs-common", &in->default_common);
        if (r >= 0)
                r = unit_links_read(root, &s.links);
        for (size_t u = 0; u < _UNIT_MAX && r >= 0; u++) {
                in->units[u].enabled_by = unit_links_enabled_by(&s.links, check_unit_names[u]);
                r = unit_mask_find(root, check_unit_names[u], &s.masks[u]);
                in->units[u].masked_at = s.masks[u];
                if (r >= 0)
                        r = unit_file_find(root, check_unit_names[u], &s.unit_files[u]);
                in->units[u].installed_at = s.unit_files[u];
        }
        for (size_t u = 0; u < _NETWORK_UNIT_MAX && r >= 0; u++) {
                in->network_units[u].enabled_by = unit_links_enabled_by(&s.links, network_unit_names[u]);
                r = unit_mask_find(root, network_unit_names[u], &s.network_masks[u]);
                in->network_units[u].masked_at = s.network_masks[u];
        }
        if (r >= 0) {
                /* rpc.gssd's keytab-file=, else the Kerberos default */
                keytab = nfsconf_get(&in->conf, "gssd", "keytab-file");
                s.keytab = strdup(keytab && keytab->value[0] ? keytab->value : "/etc/krb5.keytab");
                if (!s.keytab)
                        r = -ENOMEM;
        }
        if (r < 0) {
                check_system_free(&s);
                return r;
        }
        in->keytab = s.keytab;
        in->keytab_present = regular_file_exists(root, s.keytab);
        in->hostname = s.hostname;
        in->export_root = s.export_root;
        in->pipefs_default = PIPEFS_DEFAULT_DIR;
        in->statd_default = NFS_STATEDIR;
        *ret = s;
        /* after the move: the input points into the copy */
        ret->in.cmdline = ret->cmdline.words ? &ret->cmdline : NULL;
        return 0;
}

void check_system_free(struct check_system *s) {
        export_table_free(&s->in.exports);
        fstab_table_free(&s->in.fstab);
        nfsconf_free(&s->in.conf);
        diag_list_free(&s->in.nfsconf_diags);
        diag_list_free(&s->in.exports_diags);
        diag_list_free(&s->in.fstab_diags);
        diag_list_free(&s->in.mount_unit_diags);
        default_file_free(&s->in.default_server);
        default_file_free(&s->in.default_common);
        unit_links_free(&s->links);
        for (size_t u = 0; u < _UNIT_MAX; u++) {
                free(s->masks[u]);
                free(s->unit_files[u]);
        }
        for (size_t u = 0; u < _NETWORK_UNIT_MAX; u++)
                free(s->network_masks[u]);
        free(s->hostname);
        free(s->keytab);
        free(s->export_root);
        cmdline_free(&s->cmdline);
        *s = (struct check_system){};
}

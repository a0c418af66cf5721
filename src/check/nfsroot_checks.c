/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client_checks.h"
#include "lib/cmdline.h"
#include "lib/escape.h"
#include "lib/pipefs.h"
#include "lib/strutil.h"
#include "nfsroot_checks.h"

/* The filesystem a path lies on, as far as this check can tell. */
struct holder {
        bool nfs;       /* it comes over NFS */
        bool read_only; /* and stays mounted read-only */
        const struct fstab_mount
                *via; /* its fstab line or .mount unit, or NULL: the root of the command line */
};

/* Whether the root comes over NFS per the command line (no fstab line for "/") */
static bool cmdline_root_is_nfs(const struct check_input *in) {
        const char *root = in->cmdline ? cmdline_last_value(in->cmdline, "root") : NULL;

        return root && (strcmp(root, "/dev/nfs") == 0 || strncmp(root, "nfs:", 4) == 0 ||
                        strncmp(root, "nfs4:", 5) == 0);
}

/* The nearest mount at or above `path` (normalised). /run is a tmpfs that
 * systemd mounts itself: never NFS. */
static struct holder holder_of(const struct check_input *in, const char *path, bool *oom) {
        _cleanup_free_ char *p = strdup(path);
        struct holder h = {};

        if (!p) {
                *oom = true;
                return h;
        }
        if (path_is_at_or_below(path, "/run"))
                return h;
        do {
                const struct fstab_mount *m = fstab_owner(&in->fstab, p);
                if (m && !m->masked) {
                        h.via = m;
                        h.nfs = m->nfs;
                        /* systemd-remount-fs and mount(8) apply the last of ro and rw */
                        h.read_only = mount_option_last_of(m->options, "ro", NULL, "rw") == 1;
                        return h;
                }
        } while (path_cut_last(p));
        /* no line for "/": the root stays as the initrd mounted it */
        h.nfs = cmdline_root_is_nfs(in);
        h.read_only = h.nfs && cmdline_last_flag(in->cmdline, "rw", "ro") != 1;
        return h;
}

static const char *holder_file(const struct check_input *in, const struct holder *h) {
        return h->via ? fstab_mount_file(&in->fstab, h->via) : "/proc/cmdline";
}

/* "the NFS root (/etc/fstab:3)" or "the NFS mount /var (/etc/fstab:4)" */
static char *holder_name(const struct check_input *in, const struct holder *h) {
        _cleanup_free_ char *where = NULL;

        if (!h->via)
                return strdup("the NFS root (root= on the kernel command line)");
        if (strcmp(h->via->where, "/") == 0)
                return strprintf("the NFS root (%s:%u)", holder_file(in, h), h->via->line);
        where = escape_for_comment(h->via->where);
        return where ? strprintf("the NFS mount %s (%s:%u)", where, holder_file(in, h), h->via->line) : NULL;
}

/* rpc_pipefs on an NFS filesystem: at shutdown it is unmounted from a
 * filesystem that is itself on its way out (systemd issue #28410: a
 * shutdown that hung unmounting /var/lib/nfs/rpc_pipefs on an NFS root). */
static int check_pipefs_on_nfs(const struct check_input *in, struct finding_list *findings) {
        _cleanup_(pipefs_plan_free) struct pipefs_plan plan = {};
        _cleanup_(diag_list_free) struct diag_list diags = {};
        _cleanup_free_ char *dir = NULL, *name = NULL;
        const char *path;
        bool oom = false;
        struct holder h;
        int r;

        r = pipefs_decide(&in->conf, in->pipefs_default, &in->fstab, NULL, &plan, &diags);
        if (r < 0)
                return r;
        if (diags.n > 0)
                return 0; /* pipefs-directory-unusable says it */
        path = plan.generate ? plan.path : in->pipefs_default;
        h = holder_of(in, path, &oom);
        if (oom)
                return -ENOMEM;
        if (!h.nfs)
                return 0;
        dir = escape_for_comment(path);
        name = holder_name(in, &h);
        if (!dir || !name)
                return -ENOMEM;
        return finding_add(findings, DIAG_WARNING, "pipefs-directory-on-nfs",
                           plan.generate ? plan.file : holder_file(in, &h),
                           plan.generate ? plan.line : (h.via ? h.via->line : 0), NULL,
                           strprintf("the rpc_pipefs directory %s lies on %s: at shutdown rpc_pipefs "
                                     "must then be unmounted from a filesystem that lives on the network, "
                                     "and shutdowns have hung there (systemd issue #28410)",
                                     dir, name),
                           strprintf("set pipefs-directory=/run/rpc_pipefs in [general] of /etc/nfs.conf "
                                     "(rpc-pipefs-generator mounts it there, on tmpfs), then reboot"));
}

/* statd records the hosts it monitors in its state directory and cannot
 * start without writing there. */
static int check_statd_state(const struct check_input *in, struct finding_list *findings) {
        const struct nfsconf_entry *e = nfsconf_get(&in->conf, "statd", "state-directory-path");
        _cleanup_free_ char *dir = NULL, *shown = NULL, *name = NULL;
        bool oom = false;
        struct holder h;

        if (in->units[UNIT_RPC_STATD].masked_at)
                return 0; /* no NFSv3 locks wanted */
        if (e && e->value[0] == '/') {
                if (path_normalize(e->value, false, &dir, NULL) == -ENOMEM)
                        return -ENOMEM;
        }
        if (!dir && !(dir = strdup(in->statd_default)))
                return -ENOMEM;
        h = holder_of(in, dir, &oom);
        if (oom)
                return -ENOMEM;
        if (!h.nfs || !h.read_only)
                return 0;
        shown = escape_for_comment(dir);
        name = holder_name(in, &h);
        if (!shown || !name)
                return -ENOMEM;
        return finding_add(findings, DIAG_ERROR, "statd-state-on-read-only-nfs", holder_file(in, &h),
                           h.via ? h.via->line : 0, NULL,
                           strprintf("statd's state directory %s lies on %s, which is mounted read-only: "
                                     "rpc.statd cannot record the hosts it monitors and does not start, so "
                                     "NFSv3 locks fail",
                                     shown, name),
                           strprintf("mount a writable filesystem at %s that survives reboots (sm-notify "
                                     "tells the servers from it that this host rebooted), or mount it "
                                     "read-write; with NFSv4 only, mask rpc-statd.service",
                                     shown));
}

int nfsroot_checks_run(const struct check_input *in, struct finding_list *findings) {
        int r = check_pipefs_on_nfs(in, findings);
        return r < 0 ? r : check_statd_state(in, findings);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The checks of nfs-systemd-check: each looks at the configuration already
 * read into a struct check_input and adds findings. No I/O here, so that the
 * fixture tests and the fuzzer pin down exactly what is decided. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "checks.h"
#include "client_checks.h"
#include "legacy_checks.h"
#include "nfsroot_checks.h"
#include "lib/escape.h"
#include "lib/exported.h"
#include "lib/loopback.h"
#include "lib/nfs_version.h"
#include "lib/pipefs.h"
#include "lib/server_order.h"

const char *const check_unit_names[_UNIT_MAX] = {
        [UNIT_NFS_SERVER] = "nfs-server.service", [UNIT_NFS_KERNEL_SERVER] = "nfs-kernel-server.service",
        [UNIT_NFS_CLIENT] = "nfs-client.target",  [UNIT_RPCBIND_SERVICE] = "rpcbind.service",
        [UNIT_RPCBIND_SOCKET] = "rpcbind.socket", [UNIT_RPC_STATD] = "rpc-statd.service",
        [UNIT_RPC_GSSD] = "rpc-gssd.service",     [UNIT_RPC_SVCGSSD] = "rpc-svcgssd.service",
        [UNIT_NFS_IDMAPD] = "nfs-idmapd.service",
};

/* Shared by the checks of one run */
struct context {
        const struct check_input *in;
        struct finding_list *findings;
        const char *fstab_file;
};

static bool unit_enabled(const struct check_input *in, enum check_unit u) {
        return in->units[u].enabled_by && !in->units[u].masked_at;
}

/* The name under which the server is enabled, or NULL */
static const char *server_enabled(const struct check_input *in) {
        if (unit_enabled(in, UNIT_NFS_SERVER))
                return check_unit_names[UNIT_NFS_SERVER];
        if (unit_enabled(in, UNIT_NFS_KERNEL_SERVER))
                return check_unit_names[UNIT_NFS_KERNEL_SERVER];
        return NULL;
}

/* --- fstab helpers --- */

static bool mount_any(const struct fstab_mount *m _unused_) {
        return true;
}
static bool mount_is_noauto(const struct fstab_mount *m) {
        return m->noauto;
}
static bool mount_is_nofail(const struct fstab_mount *m) {
        return m->nofail;
}
static bool mount_is_nfs(const struct fstab_mount *m) {
        return m->nfs;
}

/* The nearest fstab mount at or above `path` for which `match` holds (the
 * generator's find_mount_prefix()), or NULL; *oom is set on failure. */
static const struct fstab_mount *find_mount(const struct context *c, const char *path,
                                            bool (*match)(const struct fstab_mount *), bool *oom) {
        _cleanup_free_ char *p = strdup(path);

        if (!p) {
                *oom = true;
                return NULL;
        }
        for (;;) {
                const struct fstab_mount *m = fstab_owner(&c->in->fstab, p);
                char *slash;

                if (m && match(m))
                        return m;
                if (strcmp(p, "/") == 0)
                        return NULL;
                slash = strrchr(p, '/');
                if (!slash)
                        return NULL;
                if (slash == p)
                        slash[1] = '\0';
                else
                        *slash = '\0';
        }
}

/* An NFS mount that asks for NFSv3 as mount.nfs reads its options (NFSv2
 * is refused) and keeps network locking (no nolock): mount.nfs then needs
 * rpc.statd and rpcbind. */
static bool mount_wants_nfsv3_locking(const struct check_input *in, const struct fstab_mount *m) {
        return m->nfs && nfs_version_is_v3(nfs_version_asked(m->fstype, m->options, in->libmount)) &&
               !fstab_mount_has_option(m, "nolock", NULL);
}

/* Why NFSv3 is on, for messages: the first place that turns it on, and how
 * to turn it off there when it is the only one. */
struct nfsv3_cause {
        bool on;
        const char *file; /* NULL when it is a default */
        unsigned line;
        char *text; /* what turns it on */
        char *off;  /* the edit that turns it off, when this is the only cause; else NULL */
};

static void nfsv3_cause_done(struct nfsv3_cause *v3) {
        free(v3->text);
        free(v3->off);
}

static int nfsv3_cause_find(const struct context *c, struct nfsv3_cause *ret) {
        const struct check_input *in = c->in;
        const char *server = server_enabled(in);
        struct nfsv3_cause v3 = {};
        unsigned n_causes = 0;

        if (server && nfsconf_get_bool(&in->conf, "nfsd", "vers3", true)) {
                const struct nfsconf_entry *e = nfsconf_get(&in->conf, "nfsd", "vers3");
                _cleanup_free_ char *value = e ? escape_for_comment(e->value) : NULL;

                if (e && !value)
                        return -ENOMEM;
                n_causes++;
                v3 = (struct nfsv3_cause){
                        .on = true,
                        .file = e ? e->file : NULL,
                        .line = e ? e->line : 0,
                        .text = e ? strprintf("%s is enabled and [nfsd] vers3=%s (%s:%u) keeps NFSv3 on",
                                              server, value, e->file, e->line)
                                  : strprintf("%s is enabled and [nfsd] vers3 is on by default", server),
                        .off = e ? strprintf("change line %u of %s to vers3=n if no client uses NFSv3",
                                             e->line, e->file)
                                 : strprintf(
                                           "set vers3=n in [nfsd] of /etc/nfs.conf if no client uses NFSv3"),
                };
                if (!v3.text || !v3.off)
                        goto oom;
        }
        for (size_t i = 0; i < in->fstab.n; i++) {
                const struct fstab_mount *m = &in->fstab.mounts[i];
                _cleanup_free_ char *where = NULL;

                if (m->shadowed || m->unit_file || !mount_wants_nfsv3_locking(in, m))
                        continue;
                if (n_causes++ > 0)
                        continue;
                where = escape_for_comment(m->where);
                if (!where)
                        goto oom;
                v3 = (struct nfsv3_cause){
                        .on = true,
                        .file = c->fstab_file,
                        .line = m->line,
                        .text = strprintf("the NFS mount %s (%s:%u) asks for NFSv3 without nolock", where,
                                          c->fstab_file, m->line),
                        .off = strprintf("give the mount on line %u of %s vers=4.2 (or nolock)", m->line,
                                         c->fstab_file),
                };
                if (!v3.text || !v3.off)
                        goto oom;
        }
        if (n_causes > 1) {
                free(v3.off);
                v3.off = NULL;
        }
        *ret = v3;
        return 0;
oom:
        nfsv3_cause_done(&v3);
        return -ENOMEM;
}

/* --- what the readers said --- */

enum diag_source {
        SOURCE_NFSCONF,
        SOURCE_EXPORTS,
        SOURCE_FSTAB,
};

static int add_read_diags(struct context *c, const struct diag_list *d, enum diag_source source) {
        static const char *const ids[] = {
                [SOURCE_NFSCONF] = "nfs-conf-malformed",
                [SOURCE_EXPORTS] = "exports-malformed",
                [SOURCE_FSTAB] = "fstab-malformed",
        };
        static const char *const manuals[] = {
                [SOURCE_NFSCONF] = "nfs.conf(5)",
                [SOURCE_EXPORTS] = "exports(5)",
                [SOURCE_FSTAB] = "fstab(5)",
        };
        static const char *const then[] = {
                [SOURCE_NFSCONF] = "",
                [SOURCE_EXPORTS] = ", then run exportfs -ra",
                [SOURCE_FSTAB] = ", then run systemctl daemon-reload",
        };

        for (size_t i = 0; i < d->n; i++) {
                const struct diag *g = &d->items[i];
                int r;

                r = finding_add(
                        c->findings, g->severity, ids[source], g->file, g->line, NULL, strdup(g->message),
                        g->line > 0 ? strprintf("correct or remove line %u of %s (see %s)%s", g->line,
                                                g->file, manuals[source], then[source])
                                    : strprintf("make %s readable or remove it%s", g->file, then[source]));
                if (r < 0)
                        return r;
        }
        return 0;
}

/* What the readers said, in the order they read */
static int check_read_diags(struct context *c) {
        int r;

        r = add_read_diags(c, &c->in->nfsconf_diags, SOURCE_NFSCONF);
        if (r >= 0)
                r = add_read_diags(c, &c->in->exports_diags, SOURCE_EXPORTS);
        if (r >= 0)
                r = add_read_diags(c, &c->in->fstab_diags, SOURCE_FSTAB);
        return r;
}

/* --- units --- */

static int check_rpcbind(struct context *c, const struct nfsv3_cause *v3) {
        const struct check_input *in = c->in;
        const struct unit_info *svc = &in->units[UNIT_RPCBIND_SERVICE],
                               *sock = &in->units[UNIT_RPCBIND_SOCKET];
        const char *user = server_enabled(in);
        int r;

        if (!user && unit_enabled(in, UNIT_NFS_CLIENT))
                user = check_unit_names[UNIT_NFS_CLIENT];

        if ((svc->masked_at || sock->masked_at) && v3->on) {
                bool service = svc->masked_at != NULL;
                r = finding_add(
                        c->findings, DIAG_ERROR, "rpcbind-masked-nfsv3-on", v3->file, v3->line,
                        check_unit_names[service ? UNIT_RPCBIND_SERVICE : UNIT_RPCBIND_SOCKET],
                        strprintf("%s is masked (%s) but NFSv3 is on: %s; NFSv3 needs the local rpcbind for "
                                  "its MOUNT, NLM and STATUS services, so NFSv3 mounts and locking fail",
                                  check_unit_names[service ? UNIT_RPCBIND_SERVICE : UNIT_RPCBIND_SOCKET],
                                  service ? svc->masked_at : sock->masked_at, v3->text),
                        strprintf("systemctl unmask rpcbind.service rpcbind.socket%s%s",
                                  v3->off ? ", or " : "", strempty(v3->off)));
                if (r < 0)
                        return r;
        }

        /* (not installed at all, rpcbind cannot start, and nothing needs saying) */
        if (user && !svc->enabled_by && !sock->enabled_by && !svc->masked_at && !sock->masked_at &&
            (svc->installed_at || sock->installed_at)) {
                if (v3->on)
                        r = finding_add(
                                c->findings, DIAG_NOTE, "rpcbind-disabled-not-masked", NULL, 0,
                                check_unit_names[UNIT_RPCBIND_SERVICE],
                                strprintf("rpcbind.service and rpcbind.socket are disabled but not masked, "
                                          "and %s is enabled: the NFS units pull rpcbind in, so it still "
                                          "starts, which NFSv3 needs (%s)",
                                          user, v3->text),
                                strprintf("systemctl enable rpcbind.service rpcbind.socket (mask them only "
                                          "once NFSv3 is off everywhere)"));
                else
                        r = finding_add(
                                c->findings, DIAG_WARNING, "rpcbind-disabled-not-masked", NULL, 0,
                                check_unit_names[UNIT_RPCBIND_SERVICE],
                                strprintf("rpcbind.service and rpcbind.socket are disabled but not masked, "
                                          "and %s is enabled: the NFS units pull rpcbind in, so it still "
                                          "starts although NFSv3 is off",
                                          user),
                                strprintf("systemctl mask rpcbind.service rpcbind.socket"));
                if (r < 0)
                        return r;
        }
        return 0;
}

static int check_statd(struct context *c, const struct nfsv3_cause *v3) {
        const struct unit_info *statd = &c->in->units[UNIT_RPC_STATD];

        if (!statd->masked_at || !v3->on)
                return 0;
        return finding_add(
                c->findings, DIAG_ERROR, "rpc-statd-masked-nfsv3-on", v3->file, v3->line,
                check_unit_names[UNIT_RPC_STATD],
                strprintf("rpc-statd.service is masked (%s) but NFSv3 is on: %s; NFSv3 locking needs "
                          "rpc.statd, so lock requests fail and NFSv3 mounts without nolock are refused",
                          statd->masked_at, v3->text),
                strprintf("systemctl unmask rpc-statd.service%s%s", v3->off ? ", or " : "",
                          strempty(v3->off)));
}

static int check_nothing_exported(struct context *c) {
        const struct check_input *in = c->in;
        enum check_unit u = unit_enabled(in, UNIT_NFS_SERVER) ? UNIT_NFS_SERVER : UNIT_NFS_KERNEL_SERVER;

        if (!unit_enabled(in, u) || in->exports.n > 0)
                return 0;
        return finding_add(
                c->findings, DIAG_NOTE, "server-enabled-nothing-exported", NULL, 0, check_unit_names[u],
                strprintf("%s is enabled (%s) but /etc/exports and /etc/exports.d export nothing: the "
                          "server starts and serves no one",
                          check_unit_names[u], in->units[u].enabled_by),
                strprintf("add an export to /etc/exports and run exportfs -ra, or run systemctl disable "
                          "--now %s",
                          check_unit_names[u]));
}

/* The command that puts the NFS service key into `keytab`. Every byte of
 * the path is quoted for the shell (keytab-file= comes from nfs.conf, which
 * an image under --root may hold anything in); $(hostname -f) stays
 * outside the quotes so that the shell expands it. */
static char *ktadd_command(const char *keytab) {
        _cleanup_free_ char *query = strprintf("ktadd -k %s nfs/", keytab);
        _cleanup_free_ char *quoted = query ? shell_quote(query) : NULL;

        return quoted ? strprintf("kadmin -q %s\"$(hostname -f)\"", quoted) : NULL;
}

/* --- exports --- */

static int check_exported_path(struct context *c, const struct exported_path *ep) {
        const struct export_entry *e = ep->first;
        const struct fstab_mount *m;
        _cleanup_free_ char *path = escape_for_comment(e->path);
        bool oom = false;

        if (!path)
                return -ENOMEM;

        m = find_mount(c, ep->path, mount_is_noauto, &oom);
        if (m) {
                _cleanup_free_ char *where = escape_for_comment(m->where);
                return finding_add(
                        c->findings, DIAG_WARNING, "export-on-noauto-mount", e->file, e->line, NULL,
                        where ? strprintf(
                                        "%s lies on the noauto mount %s (%s:%u): boot does not mount it and "
                                        "nfs-server.service is not ordered after it, so clients see the "
                                        "empty "
                                        "directory underneath until someone mounts it",
                                        path, where, c->fstab_file, m->line)
                              : NULL,
                        strprintf("remove noauto from the options on line %u of %s, then run systemctl "
                                  "daemon-reload",
                                  m->line, c->fstab_file));
        }
        if (oom)
                return -ENOMEM;

        m = find_mount(c, ep->path, mount_is_nofail, &oom);
        if (m && ep->first_no_mp) {
                _cleanup_free_ char *where = escape_for_comment(m->where);
                const struct export_entry *no_mp = ep->first_no_mp;
                return finding_add(
                        c->findings, DIAG_WARNING, "export-on-nofail-mount", no_mp->file, no_mp->line, NULL,
                        where ? strprintf("%s lies on the nofail mount %s (%s:%u): "
                                          "nfs-server.service requires it, so "
                                          "when that disk is missing at boot the whole NFS "
                                          "server fails to start",
                                          path, where, fstab_mount_file(&c->in->fstab, m), m->line)
                              : NULL,
                        strprintf("add the mp option to every client of %s on line %u of %s "
                                  "(e.g. *(ro,mp)), so the "
                                  "export waits for the disk instead, then run exportfs -ra",
                                  path, no_mp->line, no_mp->file));
        }
        if (oom)
                return -ENOMEM;

        /* The root filesystem is always a mount of its own: an export of /
         * serves it whether or not fstab has a line for it, and no second
         * line for / can be the fix. */
        if (strcmp(ep->path, "/") == 0)
                return 0;
        /* An NFSv4 pseudo-root with disks or bind mounts below it is a
         * directory of the root filesystem by design: what clients reach
         * through it is mounted below. */
        if (ep->pseudo_root && fstab_first_mount_below(&c->in->fstab, ep->path))
                return 0;
        m = find_mount(c, ep->path, mount_any, &oom);
        if (oom)
                return -ENOMEM;
        if (!m || strcmp(m->where, "/") == 0)
                return finding_add(
                        c->findings, DIAG_NOTE, "export-not-on-own-mount", e->file, e->line, NULL,
                        strprintf("%s is not on a mount of its own in %s: it is served from the root "
                                  "filesystem, so if a disk belongs there, clients see the empty directory "
                                  "instead",
                                  path, c->fstab_file),
                        strprintf("if a filesystem belongs at %s, add its line to %s (e.g. \"LABEL=data "
                                  "%s ext4 defaults 0 2\"); otherwise nothing to do",
                                  path, c->fstab_file, path));
        return 0;
}

/* Re-exporting NFS needs fsid= on every client: the kernel has no device
 * number to build file handles from and refuses the export. */
static int check_reexport_fsid(struct context *c, const struct export_entry *e, const char *target) {
        const struct fstab_mount *nfs;
        bool oom = false;

        nfs = find_mount(c, target, mount_is_nfs, &oom);
        if (oom)
                return -ENOMEM;
        if (!nfs)
                return 0;
        for (size_t i = 0; i < e->n_clients; i++) {
                const struct export_client *cl = &e->clients[i];
                _cleanup_free_ char *path = NULL, *where = NULL, *host = NULL;

                if (cl->fsid)
                        continue;
                path = escape_for_comment(e->path);
                where = escape_for_comment(nfs->where);
                host = escape_for_comment(cl->host);
                if (!path || !where || !host)
                        return -ENOMEM;
                return finding_add(
                        c->findings, DIAG_ERROR, "reexport-without-fsid", e->file, e->line, NULL,
                        strprintf("%s re-exports the NFS mount %s (%s:%u) but client \"%s\" has no fsid= "
                                  "option: the kernel refuses to export NFS without one, so exportfs "
                                  "fails for it",
                                  path, where, fstab_mount_file(&c->in->fstab, nfs), nfs->line,
                                  *host ? host : "*"),
                        strprintf("add fsid=N, with a number N no other export uses, to the options of "
                                  "every client on line %u of %s, then run exportfs -ra",
                                  e->line, e->file));
        }
        return 0;
}

static int check_krb5_export(struct context *c, const struct export_entry *e) {
        _cleanup_free_ char *path = NULL;
        bool krb5 = false;

        for (size_t i = 0; i < e->n_clients; i++)
                krb5 |= e->clients[i].sec_krb5;
        if (!krb5 || c->in->keytab_present)
                return 0;
        path = escape_for_comment(e->path);
        if (!path)
                return -ENOMEM;
        return finding_add(
                c->findings, DIAG_ERROR, "krb5-without-keytab", e->file, e->line, NULL,
                strprintf("%s is exported with sec=krb5* but there is no keytab %s: the server cannot "
                          "accept Kerberos credentials, so Kerberos clients cannot mount it",
                          path, c->in->keytab),
                ktadd_command(c->in->keytab));
}

static int check_exports(struct context *c) {
        const struct export_table *t = &c->in->exports;
        _cleanup_(exported_paths_free) struct exported_paths exported = {};
        int r;

        /* an unusable path is left out: the generator's diagnostic says so */
        r = exported_paths_build(t, c->in->export_root, &exported, NULL);
        if (r < 0)
                return r;
        for (size_t i = 0; i < t->n; i++) {
                const struct exported_path *ep = exported.of_entry[i];

                if (!ep)
                        continue;
                r = check_reexport_fsid(c, &t->entries[i], ep->path);
                if (r >= 0)
                        r = check_krb5_export(c, &t->entries[i]);
                if (r < 0)
                        return r;
        }
        for (size_t i = 0; i < exported.n; i++) {
                r = check_exported_path(c, &exported.paths[i]);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* Whether the order has, at file:line, a loopback re-export mount whose
 * exports no nfs-reexport@.service instance can withdraw. */
static bool loopback_left_exported_at(const struct server_order *order, const char *file, unsigned line) {
        for (size_t i = 0; i < order->n; i++) {
                const struct order_item *it = &order->items[i];
                if (it->kind == ORDER_BEFORE_MOUNT_UNIT && it->loopback && !it->withdraw_unit &&
                    it->line == line && strcmp(it->file, file) == 0)
                        return true;
        }
        return false;
}

/* What the generator decides for re-exports, and what it says about paths it
 * cannot use: the checker reports the same. */
static int check_generator_order(struct context *c) {
        _cleanup_(server_order_free) struct server_order order = {};
        _cleanup_(diag_list_free) struct diag_list diags = {};
        int r;

        r = server_order_decide(&c->in->exports, &c->in->fstab, c->in->export_root, c->in->hostname, &order,
                                &diags);
        if (r < 0)
                return r;
        for (size_t i = 0; i < diags.n; i++) {
                const struct diag *g = &diags.items[i];
                /* The generator says two things about an fstab line: its
                 * re-export warning (the note below says it with the ordering
                 * chosen), and that a loopback re-export's exports cannot be
                 * withdrawn before its unmount. */
                if (fstab_declares_file(&c->in->fstab, g->file)) {
                        if (!loopback_left_exported_at(&order, g->file, g->line))
                                continue;
                        r = finding_add(c->findings, g->severity, "loopback-reexport-not-withdrawn", g->file,
                                        g->line, NULL, strdup(g->message),
                                        strprintf("mount it at a shorter path: \"nfs-reexport@\", its mount "
                                                  "unit's name without \".mount\" and \".service\" must fit "
                                                  "in 255 bytes; or run exportfs -u for its exports before "
                                                  "it is unmounted"));
                        if (r < 0)
                                return r;
                        continue;
                }
                r = finding_add(
                        c->findings, g->severity, "export-path-unusable", g->file, g->line, NULL,
                        strdup(g->message),
                        strprintf("write the path on line %u of %s as a normalised absolute path of at most "
                                  "255 bytes per component, then run exportfs -ra",
                                  g->line, g->file));
                if (r < 0)
                        return r;
        }
        for (size_t i = 0; i < order.n; i++) {
                const struct order_item *it = &order.items[i];
                _cleanup_free_ char *where = NULL;

                if (it->loopback && it->kind == ORDER_SKIPPED && !it->export_waits_for_mount) {
                        const struct export_entry *e = it->export_line;
                        _cleanup_free_ char *path = escape_for_comment(it->path);
                        if (!path)
                                return -ENOMEM;
                        r = finding_add(
                                c->findings, DIAG_WARNING, "loopback-reexport-without-mp", e->file, e->line,
                                NULL,
                                strprintf("%s is re-exported from an NFS mount of this host, so "
                                          "nfs-server-generator "
                                          "orders nfs-server.service before that mount (a loopback mount "
                                          "needs the server); until it is mounted, exportfs serves the "
                                          "empty directory underneath",
                                          path),
                                strprintf("add the mp option to every client on line %u of %s (e.g. "
                                          "*(rw,fsid=1,mp)), so that exportfs serves %s only once it is "
                                          "mounted, then run exportfs -ra",
                                          e->line, e->file, path));
                        if (r < 0)
                                return r;
                        continue;
                }
                if (!it->reexport)
                        continue;
                where = escape_for_comment(it->path);
                if (!where)
                        return -ENOMEM;
                r = finding_add(
                        c->findings, DIAG_NOTE, "reexport-ordering", it->file, it->line, NULL,
                        strprintf("the NFS mount %s is re-exported, so nfs-server-generator does not order "
                                  "nfs-server.service before it: %s",
                                  where, it->reason),
                        strprintf("nothing to change; nfs-server-generator --explain shows the whole "
                                  "ordering"));
                if (r < 0)
                        return r;
        }
        return 0;
}

/* --- fstab --- */

static int check_fstab(struct context *c) {
        const struct check_input *in = c->in;
        const char *server = server_enabled(in);
        int r;

        for (size_t i = 0; i < in->fstab.n; i++) {
                const struct fstab_mount *m = &in->fstab.mounts[i];
                _cleanup_free_ char *sec = NULL;

                if (!m->nfs || m->shadowed ||
                    m->unit_file) /* systemd ignores a line that is not the owner */
                        continue;
                if (!server && !m->noauto && nfs_source_is_loopback(m->what, in->hostname)) {
                        _cleanup_free_ char *what = escape_for_comment(m->what);
                        _cleanup_free_ char *where = escape_for_comment(m->where);
                        r = finding_add(
                                c->findings, DIAG_ERROR, "loopback-mount-without-server", c->fstab_file,
                                m->line, NULL,
                                what && where
                                        ? strprintf("NFS mount %s comes from this host (%s) but "
                                                    "nfs-server.service is not enabled: boot waits for a "
                                                    "server that never starts, then the mount fails",
                                                    where, what)
                                        : NULL,
                                strprintf("systemctl enable nfs-server.service (or add noauto to line %u of "
                                          "%s)",
                                          m->line, c->fstab_file));
                        if (r < 0)
                                return r;
                }
                if (!in->keytab_present && fstab_mount_has_option(m, "sec", &sec) && sec &&
                    strstr(sec, "krb5")) {
                        _cleanup_free_ char *where = escape_for_comment(m->where);
                        r = finding_add(
                                c->findings, DIAG_ERROR, "krb5-without-keytab", c->fstab_file, m->line, NULL,
                                where ? strprintf("NFS mount %s asks for sec=krb5* but there is no keytab "
                                                  "%s: rpc.gssd has no machine credentials, so the mount "
                                                  "fails at boot",
                                                  where, in->keytab)
                                      : NULL,
                                ktadd_command(in->keytab));
                        if (r < 0)
                                return r;
                }
        }
        return 0;
}

/* rpc-pipefs-generator's own decision, so that the words are the same; it
 * looks only at a configured directory other than the default, so the
 * default (where the static units mount it) is checked here. */
static int check_pipefs(struct context *c) {
        const struct check_input *in = c->in;
        const struct nfsconf_entry *e = nfsconf_get(&in->conf, "general", "pipefs-directory");
        _cleanup_(pipefs_plan_free) struct pipefs_plan plan = {};
        _cleanup_(diag_list_free) struct diag_list diags = {};
        _cleanup_free_ char *dir = NULL, *type = NULL;
        const struct fstab_mount *m;
        int r;

        r = pipefs_decide(&in->conf, in->pipefs_default, &in->fstab, NULL, &plan, &diags);
        if (r < 0)
                return r;
        for (size_t i = 0; i < diags.n; i++) {
                const struct diag *g = &diags.items[i];
                r = finding_add(
                        c->findings, g->severity, "pipefs-directory-unusable", g->file, g->line, NULL,
                        strdup(g->message),
                        strprintf("on line %u of %s, set pipefs-directory= to an empty directory that is "
                                  "no mount point, or remove the line to use %s",
                                  g->line, g->file, in->pipefs_default));
                if (r < 0)
                        return r;
        }
        if (diags.n > 0 || plan.generate)
                return 0;

        /* the default directory, named or not */
        m = fstab_owner(&in->fstab, in->pipefs_default);
        if (!m || strcmp(m->fstype, "rpc_pipefs") == 0)
                return 0;
        dir = escape_for_comment(in->pipefs_default);
        type = escape_for_comment(m->fstype);
        if (!dir || !type)
                return -ENOMEM;
        return finding_add(
                c->findings, DIAG_ERROR, "pipefs-directory-unusable", e ? e->file : c->fstab_file,
                e ? e->line : m->line, NULL,
                strprintf("the pipefs directory %s%s is also the mount point of a %s filesystem (%s:%u): "
                          "rpc_pipefs and that filesystem hide each other, so rpc.gssd and rpc.idmapd "
                          "cannot reach the kernel",
                          dir, e ? "" : " (the default)", type, c->fstab_file, m->line),
                strprintf("remove line %u of %s, or set pipefs-directory= in [general] of /etc/nfs.conf "
                          "to an empty directory that is no mount point",
                          m->line, c->fstab_file));
}

static int check_gssd(struct context *c) {
        const struct check_input *in = c->in;
        const struct unit_info *gssd = &in->units[UNIT_RPC_GSSD];

        if (!in->keytab_present || !gssd->masked_at)
                return 0;
        return finding_add(
                c->findings, DIAG_WARNING, "keytab-but-gssd-masked", NULL, 0,
                check_unit_names[UNIT_RPC_GSSD],
                strprintf("%s exists, so Kerberos is meant to work, but rpc-gssd.service is masked (%s): "
                          "NFS mounts with sec=krb5* get no credentials and fail",
                          in->keytab, gssd->masked_at),
                strprintf("systemctl unmask rpc-gssd.service"));
}

int checks_run(const struct check_input *in, struct finding_list *findings) {
        struct context c = {
                .in = in,
                .findings = findings,
                .fstab_file = in->fstab.file ? in->fstab.file : "/etc/fstab",
        };
        struct nfsv3_cause v3 = {};
        int r;

        r = nfsv3_cause_find(&c, &v3);
        if (r >= 0)
                r = check_read_diags(&c);
        if (r >= 0)
                r = check_rpcbind(&c, &v3);
        if (r >= 0)
                r = check_statd(&c, &v3);
        if (r >= 0)
                r = check_exports(&c);
        if (r >= 0)
                r = check_generator_order(&c);
        if (r >= 0)
                r = check_fstab(&c);
        if (r >= 0)
                r = check_pipefs(&c);
        if (r >= 0)
                r = check_gssd(&c);
        if (r >= 0)
                r = check_nothing_exported(&c);
        if (r >= 0)
                r = client_checks_run(in, findings);
        if (r >= 0)
                r = nfsroot_checks_run(in, findings);
        if (r >= 0)
                r = legacy_checks_run(in, findings);

        nfsv3_cause_done(&v3);
        return r < 0 ? r : 0;
}

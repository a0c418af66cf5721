/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Client-side checks of nfs-systemd-check (issue 11): what systemd makes of
 * the NFS lines of /etc/fstab. Each rule below says when systemd gets it
 * wrong, because most NFS lines need none of these options: systemd already
 * treats type nfs and nfs4 as network filesystems. */
#include <errno.h>
#include <libmount.h>
#include <stdlib.h>
#include <string.h>

#include "client_checks.h"
#include "lib/escape.h"
#include "lib/loopback.h"
#include "lib/strutil.h"

struct client_context {
        const struct check_input *in;
        struct finding_list *findings;
        const char *fstab_file;
};

/* systemd's fstype_is_network() (src/basic/mountpoint-util.c, 252 and 257):
 * a mount of one of these types is ordered after the network and before
 * remote-fs.target; any other type goes before local-fs.target unless it
 * has _netdev. "fuse.TYPE" counts as TYPE. */
static bool fstype_is_network(const char *fstype) {
        static const char *const network[] = {
                "afs",  "ceph", "cifs", "smb3",      "smbfs", "sshfs", "ncpfs",  "ncp",   "nfs",
                "nfs4", "gfs",  "gfs2", "glusterfs", "pvfs2", "ocfs2", "lustre", "davfs", "orangefs",
        };
        if (strncmp(fstype, "fuse.", 5) == 0)
                fstype += 5;
        for (size_t i = 0; i < ELEMENTSOF(network); i++)
                if (strcmp(fstype, network[i]) == 0)
                        return true;
        return false;
}

/* "host:/path" or "[v6]:/path": what mount(8) hands to mount.nfs when the
 * type is auto (libmount guesses nfs from the colon). */
static bool source_is_nfs_export(const char *what) {
        const char *colon;

        if (what[0] == '[') {
                const char *close = strchr(what, ']');
                return close && close[1] == ':' && close[2] == '/';
        }
        colon = strchr(what, ':');
        return colon && colon > what && colon[1] == '/' && !memchr(what, '/', (size_t) (colon - what));
}

int mount_option_last_of(const char *options, const char *yes, const char *yes2, const char *no) {
        struct mount_option o;
        int state = -1;

        for (const char *p = options; mount_option_next(&p, &o);) {
                if (o.value)
                        continue;
                if (mount_option_is(&o, yes) || (yes2 && mount_option_is(&o, yes2)))
                        state = 1;
                else if (no && mount_option_is(&o, no))
                        state = 0;
        }
        return state;
}

/* The line as fstab(5) writes it (blanks and backslashes as octal escapes),
 * with `options` in place of the line's own, quoted as one shell word. */
static char *fstab_line_quoted(const struct fstab_mount *m, const char *options) {
        _cleanup_free_ char *what = mnt_mangle(m->what), *where = mnt_mangle(m->where),
                            *type = mnt_mangle(m->fstype),
                            *opts = mnt_mangle(*options ? options : "defaults");
        _cleanup_free_ char *line = NULL;

        if (!what || !where || !type || !opts)
                return NULL;
        line = strprintf("%s %s %s %s %d %d", what, where, type, opts, m->freq, m->passno);
        return line ? shell_quote(line) : NULL;
}

/* "replace line N of /etc/fstab with '...', then run systemctl daemon-reload" */
static char *fix_line(const struct client_context *c, const struct fstab_mount *m, const char *options) {
        _cleanup_free_ char *quoted = fstab_line_quoted(m, options);

        return quoted ? strprintf("replace line %u of %s with %s, then run systemctl daemon-reload", m->line,
                                  c->fstab_file, quoted)
                      : NULL;
}

/* The options with `add` appended */
static char *options_with(const char *options, const char *add) {
        return *options ? strprintf("%s,%s", options, add) : strdup(add);
}

/* The nearest NFS mount at or above `path` (normalised), the root left out, or NULL */
static const struct fstab_mount *nfs_mount_holding(const struct client_context *c, const char *path,
                                                   bool strictly_below, bool *oom) {
        _cleanup_free_ char *p = strdup(path);

        if (!p) {
                *oom = true;
                return NULL;
        }
        if (strictly_below && !path_cut_last(p))
                return NULL;
        do {
                const struct fstab_mount *m = fstab_owner(&c->in->fstab, p);
                /* an NFS root is mounted by the initrd before any of this:
                 * nothing waits for the network to have it */
                if (m && m->nfs && strcmp(m->where, "/") != 0)
                        return m;
        } while (path_cut_last(p));
        return NULL;
}

/* A type-auto line with an NFS source and no _netdev: mount(8) mounts it
 * as NFS, but systemd sees no network filesystem. Type nfs and nfs4 never
 * need _netdev. */
static int check_auto_nfs(struct client_context *c, const struct fstab_mount *m) {
        _cleanup_free_ char *where = NULL, *what = NULL, *options = NULL;

        if (m->netdev || fstype_is_network(m->fstype) || strcmp(m->fstype, "auto") != 0 ||
            !source_is_nfs_export(m->what))
                return 0;
        where = escape_for_comment(m->where);
        what = escape_for_comment(m->what);
        options = options_with(m->options, "_netdev");
        if (!where || !what || !options)
                return -ENOMEM;
        return finding_add(
                c->findings, DIAG_ERROR, "nfs-mount-not-network", c->fstab_file, m->line, NULL,
                strprintf("%s mounts the NFS export %s with type auto and without _netdev: mount.nfs mounts "
                          "it, but systemd does not know it is a network filesystem and orders it with the "
                          "local ones, before the network is up: it fails at boot%s, and at shutdown it is "
                          "unmounted only after the network is gone, which hangs",
                          where, what, m->nofail ? "" : " and local-fs.target with it (emergency mode)"),
                fix_line(c, m, options));
}

/* A mount systemd takes for local (no network type, no _netdev) that needs
 * an NFS mount: a bind mount of a path on it, or a mount inside it. systemd
 * orders it before local-fs.target and after that NFS mount, which comes
 * after the network: an ordering cycle (systemd issue #1258), broken at
 * boot by dropping some job. Not with nofail or x-systemd.automount (no
 * Before=local-fs.target then) nor noauto (not in the boot transaction). */
static int check_local_on_nfs(struct client_context *c, const struct fstab_mount *m) {
        _cleanup_free_ char *source = NULL, *where = NULL, *nfs_where = NULL, *options = NULL;
        const struct fstab_mount *nfs = NULL;
        bool bind, oom = false;

        if (m->netdev || m->noauto || m->nofail || fstype_is_network(m->fstype) ||
            fstab_mount_has_option(m, "x-systemd.automount", NULL))
                return 0;
        bind = fstab_mount_has_option(m, "bind", NULL) || fstab_mount_has_option(m, "rbind", NULL);
        if (bind && m->what[0] == '/') {
                int r = path_normalize(m->what, false, &source, NULL);
                if (r == -ENOMEM)
                        return r;
                if (r >= 0)
                        nfs = nfs_mount_holding(c, source, false, &oom);
        }
        if (!nfs && !oom)
                nfs = nfs_mount_holding(c, m->where, true, &oom);
        if (oom)
                return -ENOMEM;
        if (!nfs)
                return 0;
        where = escape_for_comment(m->where);
        nfs_where = escape_for_comment(nfs->where);
        options = options_with(m->options, "_netdev");
        if (!where || !nfs_where || !options)
                return -ENOMEM;
        return finding_add(
                c->findings, DIAG_ERROR, "local-mount-on-nfs-without-netdev", c->fstab_file, m->line, NULL,
                strprintf("%s %s the NFS mount %s (%s:%u) but has no _netdev: systemd orders it before "
                          "local-fs.target and after that NFS mount, which waits for the network: an "
                          "ordering cycle (systemd issue #1258) that systemd breaks at boot by dropping a "
                          "job, so this mount, the NFS mount or another unit is not started",
                          where,
                          source && nfs && path_is_at_or_below(source, nfs->where) ? "binds a path on"
                                                                                   : "lies inside",
                          nfs_where, c->fstab_file, nfs->line),
                fix_line(c, m, options));
}

/* x-systemd.automount on a hard NFS mount: each access while the server is
 * away waits for the mount job (90 s by default, more with retry=), and a
 * mount that stays after the server went away hangs every access and the
 * shutdown. */
static int check_automount_timeouts(struct client_context *c, const struct fstab_mount *m) {
        bool mount_timeout = fstab_mount_has_option(m, "x-systemd.mount-timeout", NULL);
        bool idle_timeout = fstab_mount_has_option(m, "x-systemd.idle-timeout", NULL);
        _cleanup_free_ char *where = NULL, *options = NULL, *missing = NULL;

        if (!m->nfs || !fstab_mount_has_option(m, "x-systemd.automount", NULL) ||
            mount_option_last_of(m->options, "soft", "softerr", "hard") == 1 ||
            (mount_timeout && idle_timeout))
                return 0;
        missing = strprintf("%s%s%s", mount_timeout ? "" : "x-systemd.mount-timeout=30s",
                            mount_timeout || idle_timeout ? "" : ",",
                            idle_timeout ? "" : "x-systemd.idle-timeout=10min");
        where = escape_for_comment(m->where);
        options = missing ? options_with(m->options, missing) : NULL;
        if (!where || !options)
                return -ENOMEM;
        return finding_add(
                c->findings, DIAG_WARNING, "automount-hard-without-timeout", c->fstab_file, m->line, NULL,
                strprintf("%s is an automount of a hard NFS mount without %s: %s%s%s", where,
                          !mount_timeout && !idle_timeout
                                  ? "x-systemd.mount-timeout= and x-systemd.idle-timeout="
                          : mount_timeout ? "x-systemd.idle-timeout="
                                          : "x-systemd.mount-timeout=",
                          mount_timeout
                                  ? ""
                                  : "while the server is away, every access waits for the mount job "
                                    "until systemd's default start timeout (90 s) or mount.nfs's retry= "
                                    "gives up",
                          !mount_timeout && !idle_timeout ? "; and " : "",
                          idle_timeout ? ""
                                       : "once mounted it stays mounted, so when the server goes away every "
                                         "access and the unmount at shutdown hang (hard mounts retry "
                                         "forever), where an idle automount would have been unmounted"),
                fix_line(c, m, options));
}

/* bg: systemd-fstab-generator does not put mount.nfs in the background; it
 * turns the line into "x-systemd.mount-timeout=infinity,retry=10000,nofail,
 * ...,fg" (systemd 252 and 257; seen in the unit it writes). */
static int check_bg(struct client_context *c, const struct fstab_mount *m) {
        _cleanup_free_ char *where = NULL, *options = NULL;

        if (!m->nfs || mount_option_last_of(m->options, "bg", NULL, "fg") != 1)
                return 0;
        where = escape_for_comment(m->where);
        options = strdup(m->options);
        if (!where || !options)
                return -ENOMEM;
        while (mnt_optstr_remove_option(&options, "bg") == 0)
                ;
        if (!m->nofail && mnt_optstr_append_option(&options, "nofail", NULL) != 0)
                return -ENOMEM;
        return finding_add(
                c->findings, DIAG_WARNING, "nfs-bg-option", c->fstab_file, m->line, NULL,
                strprintf("%s has bg, which systemd does not run in the background: systemd-fstab-generator "
                          "makes it a nofail foreground mount with retry=10000 and no time limit, so while "
                          "the server is away its start job stays queued for up to 10000 minutes (about a "
                          "week) and everything ordered after it waits as long; nofail alone lets boot go "
                          "on and gives up after mount.nfs's foreground retry (2 minutes); add "
                          "x-systemd.automount to mount it whenever the server is back",
                          where),
                fix_line(c, m, options));
}

/* The NFS major version a mount asks for: the last of vers=, nfsvers= and
 * v2/v3/v4... wins, as in mount.nfs; type nfs4 is 4; 0 when none is named
 * (mount.nfs negotiates, NFSv4 first). */
static int nfs_version_asked(const struct fstab_mount *m) {
        struct mount_option o;
        int version = 0;

        if (strcmp(m->fstype, "nfs4") == 0)
                return 4;
        for (const char *p = m->options; mount_option_next(&p, &o);)
                if (o.value && o.value_size > 0 &&
                    (mount_option_is(&o, "vers") || mount_option_is(&o, "nfsvers")))
                        version = o.value[0] >= '2' && o.value[0] <= '4' ? o.value[0] - '0' : 0;
                else if (!o.value && o.name_size >= 2 && o.name[0] == 'v' && o.name[1] >= '2' &&
                         o.name[1] <= '4' && (o.name_size == 2 || o.name[2] == '.'))
                        version = o.name[1] - '0';
        return version;
}

/* NFSv2/3 at boot: mount.nfs asks the server's rpcbind for the NFS and
 * MOUNT programs first. A server that is booting too (after a power cut)
 * answers "program not registered" from the moment its address is up until
 * nfsd has started, and mount.nfs takes three such answers in a row as
 * final (nfs-utils 6a060231: about 7 s), so the mount stays failed for the
 * whole uptime; measured in the two-guest boot, stock units and ours alike.
 * NFSv4 connects to port 2049 and retries a refused connection for two
 * minutes. No ordering on either host closes that window; an automount
 * mounts at the first access and tries again at the next. A loopback mount
 * is left out: the server is ordered before it. */
static int check_v3_boot_mount(struct client_context *c, const struct fstab_mount *m) {
        _cleanup_free_ char *where = NULL, *options = NULL;
        int version;

        if (!m->nfs || m->noauto || strcmp(m->where, "/") == 0 ||
            fstab_mount_has_option(m, "x-systemd.automount", NULL) ||
            nfs_source_is_loopback(m->what, c->in->hostname))
                return 0;
        version = nfs_version_asked(m);
        if (version != 2 && version != 3)
                return 0;
        where = escape_for_comment(m->where);
        options = options_with(m->options, "x-systemd.automount,x-systemd.mount-timeout=30s,"
                                           "x-systemd.idle-timeout=10min");
        if (!where || !options)
                return -ENOMEM;
        return finding_add(
                c->findings, DIAG_NOTE, "nfsv3-mount-gives-up-while-server-boots", c->fstab_file, m->line,
                NULL,
                strprintf("%s is an NFSv%d mount made once at boot: when its server boots at the same time "
                          "(after a power cut), the server's rpcbind answers \"program not registered\" "
                          "until nfsd has started, mount.nfs takes three such answers as final (about 7 s) "
                          "and the mount stays failed until someone starts it again; no ordering on either "
                          "host closes that window (NFSv4 retries a refused connection for 2 minutes)",
                          where, version),
                fix_line(c, m, options));
}

const char *const network_unit_names[_NETWORK_UNIT_MAX] = {
        [NETWORK_UNIT_NETWORKD] = "systemd-networkd.service",
        [NETWORK_UNIT_NETWORKD_WAIT_ONLINE] = "systemd-networkd-wait-online.service",
        [NETWORK_UNIT_NETWORK_MANAGER] = "NetworkManager.service",
        [NETWORK_UNIT_NM_WAIT_ONLINE] = "NetworkManager-wait-online.service",
        [NETWORK_UNIT_IFUPDOWN_WAIT_ONLINE] = "ifupdown-wait-online.service",
        [NETWORK_UNIT_NETWORKING] = "networking.service",
};

/* The wait-online services: each is ordered before network-online.target
 * and holds it until the network is configured. */
static const enum network_unit wait_online_units[] = {
        NETWORK_UNIT_NETWORKD_WAIT_ONLINE, NETWORK_UNIT_NM_WAIT_ONLINE, NETWORK_UNIT_IFUPDOWN_WAIT_ONLINE,
        NETWORK_UNIT_NETWORKING, /* Debian's ifupdown: Before=network-online.target, runs ifup -a */
};

static bool enabled(const struct check_input *in, enum network_unit u) {
        return in->network_units[u].enabled_by && !in->network_units[u].masked_at;
}

/* NFS mounts are ordered after network-online.target; with no wait-online
 * service that target is reached as soon as it is started, and mount.nfs
 * runs before an address is configured. Said only where we know which
 * service manages the network (networkd or NetworkManager enabled): with
 * neither, the network may come from the initramfs or something else we
 * cannot see. */
static int check_wait_online(struct client_context *c) {
        const struct check_input *in = c->in;
        const struct fstab_mount *first = NULL;
        enum network_unit manager, wait_online;
        _cleanup_free_ char *where = NULL;

        for (size_t i = 0; i < ELEMENTSOF(wait_online_units); i++)
                if (enabled(in, wait_online_units[i]))
                        return 0;
        if (enabled(in, NETWORK_UNIT_NETWORKD)) {
                manager = NETWORK_UNIT_NETWORKD;
                wait_online = NETWORK_UNIT_NETWORKD_WAIT_ONLINE;
        } else if (enabled(in, NETWORK_UNIT_NETWORK_MANAGER)) {
                manager = NETWORK_UNIT_NETWORK_MANAGER;
                wait_online = NETWORK_UNIT_NM_WAIT_ONLINE;
        } else
                return 0;
        for (size_t i = 0; i < in->fstab.n && !first; i++) {
                const struct fstab_mount *m = &in->fstab.mounts[i];
                if (m->nfs && !m->shadowed && !m->noauto && !m->unit_file)
                        first = m;
        }
        if (!first)
                return 0;
        where = escape_for_comment(first->where);
        if (!where)
                return -ENOMEM;
        return finding_add(
                c->findings, DIAG_WARNING, "network-online-not-waited", c->fstab_file, first->line,
                network_unit_names[wait_online],
                strprintf("%s manages the network (%s) but no wait-online service is enabled (%s, %s, %s or "
                          "%s): network-online.target, which the NFS mounts (%s first) wait for, is "
                          "reached at once, so mount.nfs runs before the network is configured and the "
                          "mount fails at boot",
                          network_unit_names[manager], in->network_units[manager].enabled_by,
                          network_unit_names[NETWORK_UNIT_NETWORKD_WAIT_ONLINE],
                          network_unit_names[NETWORK_UNIT_NM_WAIT_ONLINE],
                          network_unit_names[NETWORK_UNIT_IFUPDOWN_WAIT_ONLINE],
                          network_unit_names[NETWORK_UNIT_NETWORKING], where),
                in->network_units[wait_online].masked_at
                        ? strprintf("systemctl unmask %s && systemctl enable %s",
                                    network_unit_names[wait_online], network_unit_names[wait_online])
                        : strprintf("systemctl enable %s", network_unit_names[wait_online]));
}

/* What the reader of .mount units said (lib/mount_units.c, and which of a
 * unit and an fstab line wins): the same words as nfs-server-generator. */
static int check_mount_unit_diags(struct client_context *c) {
        const struct diag_list *d = &c->in->mount_unit_diags;

        for (size_t i = 0; i < d->n; i++) {
                const struct diag *g = &d->items[i];
                int r = finding_add(
                        c->findings, g->severity, "mount-unit-malformed", g->file, g->line, NULL,
                        strdup(g->message),
                        g->line > 0
                                ? strprintf(
                                          "correct or remove line %u of %s (see systemd.mount(5)), then run "
                                          "systemctl daemon-reload",
                                          g->line, g->file)
                                : strprintf("correct %s (see systemd.mount(5)) or remove it, then run "
                                            "systemctl daemon-reload",
                                            g->file));
                if (r < 0)
                        return r;
        }
        return 0;
}

int client_checks_run(const struct check_input *in, struct finding_list *findings) {
        struct client_context c = {
                .in = in,
                .findings = findings,
                .fstab_file = in->fstab.file ? in->fstab.file : "/etc/fstab",
        };
        int r = check_mount_unit_diags(&c);

        for (size_t i = 0; i < in->fstab.n && r >= 0; i++) {
                const struct fstab_mount *m = &in->fstab.mounts[i];

                /* systemd ignores a line that does not own its mount point */
                if (m->shadowed || m->unit_file)
                        continue;
                r = check_auto_nfs(&c, m);
                if (r >= 0)
                        r = check_local_on_nfs(&c, m);
                if (r >= 0)
                        r = check_automount_timeouts(&c, m);
                if (r >= 0)
                        r = check_bg(&c, m);
                if (r >= 0)
                        r = check_v3_boot_mount(&c, m);
        }
        if (r >= 0)
                r = check_wait_online(&c);
        return r < 0 ? r : 0;
}

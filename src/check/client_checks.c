/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Client-side checks of nfs-systemd-check (issue 11): what systemd makes of
 * the NFS mounts of /etc/fstab and of the native .mount units. Each rule
 * below says when systemd gets it wrong, because most NFS mounts need none
 * of these options: systemd already treats type nfs and nfs4 as network
 * filesystems. A .mount unit gets the same default dependencies from the
 * manager as the unit systemd-fstab-generator writes for a line (network
 * type or _netdev: after network-online.target, before remote-fs.target;
 * else before local-fs.target; neither with nofail or x-systemd.automount in
 * Options=; src/core/mount.c, systemd 252 and 257), so the same rules hold;
 * what differs is the fix, and that automounts and time limits are units
 * and settings of their own there (x-systemd.* options are read by
 * systemd-fstab-generator only). */
#include <errno.h>
#include <libmount.h>
#include <stdlib.h>
#include <string.h>

#include "client_checks.h"
#include "lib/escape.h"
#include "lib/loopback.h"
#include "lib/nfs_version.h"
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

/* "replace line N of FILE (Options=...) with 'Options=...'": the unit's
 * setting with `options` in it, specifiers doubled as in any unit value */
static char *fix_unit_options(const struct fstab_mount *m, const char *options) {
        _cleanup_(buf_free) struct buf setting = {};
        _cleanup_free_ char *quoted = NULL;

        buf_puts(&setting, "Options=");
        /* read from a unit file, with plain options added: representable */
        if (unit_value_append_verbatim(&setting, *options ? options : "defaults") < 0 ||
            buf_status(&setting) < 0)
                return NULL;
        quoted = shell_quote(setting.data);
        if (!quoted)
                return NULL;
        if (m->options_line > 0)
                return strprintf("in %s, replace the Options= line (line %u) with %s, then run systemctl "
                                 "daemon-reload",
                                 m->options_file ? m->options_file : m->unit_file, m->options_line, quoted);
        return strprintf("in %s, add the line %s to [Mount], then run systemctl daemon-reload", m->unit_file,
                         quoted);
}

/* The edit that gives mount `m` the option string `options`, where it is
 * declared: its fstab line or its unit's Options= */
static char *fix_options(const struct client_context *c, const struct fstab_mount *m, const char *options) {
        return m->unit_file ? fix_unit_options(m, options) : fix_line(c, m, options);
}

/* Whether the mount is made at the first access instead of at boot: a line
 * with x-systemd.automount (systemd-fstab-generator writes the .automount
 * unit), a unit with an .automount unit of its own. In a unit's Options=,
 * x-systemd.automount makes no automount (the manager only leaves out the
 * Before= on local-fs.target or remote-fs.target for it). A unit with an
 * .automount is taken for one mounted on access: whether the .mount is
 * enabled on its own as well is not read. */
static bool mounted_on_access(const struct fstab_mount *m) {
        return m->unit_file ? m->automount_file != NULL
                            : fstab_mount_has_option(m, "x-systemd.automount", NULL);
}

/* Whether a unit's time span (TimeoutSec=, TimeoutIdleSec=) sets a limit:
 * "0" and "infinity" (and unset) mean none; any non-zero digit is one. */
static bool timespan_is_limit(const char *span) {
        return span && strpbrk(span, "123456789");
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

        /* (a unit without Type= is the same case, not checked yet) */
        if (m->unit_file || m->netdev || fstype_is_network(m->fstype) || strcmp(m->fstype, "auto") != 0 ||
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

/* An automount whose mount point lies inside an NFS mount. Every .automount
 * unit, the ones systemd-fstab-generator writes included, is ordered before
 * local-fs.target and requires the mount of its mount point's parent
 * directory (read back with systemd-analyze verify: systemd 252 with the
 * generator's units, 257 with an .automount unit file):
 * local-fs.target then waits for the NFS mount and the network, whatever
 * the line's _netdev, nofail, noauto or type (the generator makes
 * local-fs.target or remote-fs.target require or want the automount in
 * each case). A bind automount elsewhere of a path on NFS is fine: only its
 * mount, made on access, needs the NFS mount. The fix mounts it at boot,
 * after the NFS mount, like any remote mount. */
static int check_automount_inside_nfs(struct client_context *c, const struct fstab_mount *m) {
        _cleanup_free_ char *where = NULL, *nfs_where = NULL, *options = NULL, *fix = NULL;
        const struct fstab_mount *nfs;
        bool oom = false;

        nfs = nfs_mount_holding(c, m->where, true, &oom);
        if (oom)
                return -ENOMEM;
        if (!nfs)
                return 0;
        where = escape_for_comment(m->where);
        nfs_where = escape_for_comment(nfs->where);
        options = strdup(m->options);
        if (!where || !nfs_where || !options)
                return -ENOMEM;
        while (mnt_optstr_remove_option(&options, "x-systemd.automount") == 0)
                ;
        if (!m->netdev && !fstype_is_network(m->fstype) &&
            mnt_optstr_append_option(&options, "_netdev", NULL) != 0)
                return -ENOMEM;
        if (m->unit_file) {
                _cleanup_free_ char *edit = fix_unit_options(m, options), *mount_name = NULL,
                                    *automount_name = NULL, *mount_quoted = NULL, *automount_quoted = NULL;
                if (unit_name_from_path(m->where, "mount", &mount_name) < 0 ||
                    unit_name_from_path(m->where, "automount", &automount_name) < 0)
                        return -ENOMEM;
                mount_quoted = shell_quote(mount_name);
                automount_quoted = shell_quote(automount_name);
                fix = edit && mount_quoted && automount_quoted
                              ? strprintf("run systemctl disable %s and remove %s; %s; to mount it at boot, "
                                          "add [Install] and WantedBy=remote-fs.target to %s and run "
                                          "systemctl enable %s",
                                          automount_quoted, m->automount_file, edit, m->unit_file,
                                          mount_quoted)
                              : NULL;
        } else
                fix = fix_line(c, m, options);
        if (!fix)
                return -ENOMEM;
        return finding_add(
                c->findings, DIAG_ERROR, "automount-inside-nfs-mount", fstab_mount_file(&c->in->fstab, m),
                m->line, NULL,
                strprintf("%s is an automount inside the NFS mount %s (%s:%u): systemd orders every "
                          "automount before local-fs.target and makes it require the mount of its parent "
                          "directory, so local-fs.target waits for that NFS mount and the network (an "
                          "ordering cycle where the network is configured after local-fs.target, as "
                          "ifupdown does; a boot held up by the server otherwise), whatever _netdev, "
                          "nofail or noauto say",
                          where, nfs_where, fstab_mount_file(&c->in->fstab, nfs), nfs->line),
                TAKE_PTR(fix));
}

/* A mount systemd takes for local (no network type, no _netdev) that needs
 * an NFS mount: a bind mount of a path on it, or a mount inside it. systemd
 * orders it before local-fs.target and after that NFS mount, which comes
 * after the network: an ordering cycle (systemd issue #1258), broken at
 * boot by dropping some job. Not with nofail (no Before=local-fs.target
 * then) nor noauto (not in the boot transaction), nor for a unit with
 * x-systemd.automount in Options= (the manager leaves out the Before=).
 * The same for a .mount unit: the manager gives it those dependencies, a
 * bind mount's source included (RequiresMountsFor= on What=). A mount made
 * on access is check_automount_inside_nfs()'s. */
static int check_local_on_nfs(struct client_context *c, const struct fstab_mount *m) {
        _cleanup_free_ char *source = NULL, *where = NULL, *nfs_where = NULL, *options = NULL;
        const struct fstab_mount *nfs = NULL;
        bool bind, oom = false;

        if (mounted_on_access(m))
                return check_automount_inside_nfs(c, m);
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
                c->findings, DIAG_ERROR, "local-mount-on-nfs-without-netdev",
                fstab_mount_file(&c->in->fstab, m), m->line, NULL,
                strprintf("%s %s the NFS mount %s (%s:%u) but has no _netdev: systemd orders it before "
                          "local-fs.target and after that NFS mount, which waits for the network: an "
                          "ordering cycle (systemd issue #1258) that systemd breaks at boot by dropping a "
                          "job, so this mount, the NFS mount or another unit is not started",
                          where,
                          source && nfs && path_is_at_or_below(source, nfs->where) ? "binds a path on"
                                                                                   : "lies inside",
                          nfs_where, fstab_mount_file(&c->in->fstab, nfs), nfs->line),
                fix_options(c, m, options));
}

/* The edit that sets the missing time limits of an automount unit's mount:
 * TimeoutSec= in the .mount unit, TimeoutIdleSec= in the .automount. */
static char *fix_unit_timeouts(const struct fstab_mount *m, bool mount_timeout, bool idle_timeout) {
        return strprintf("%s%s%s%s%s%s%s, then run systemctl daemon-reload", mount_timeout ? "" : "in ",
                         mount_timeout ? "" : m->unit_file,
                         mount_timeout ? "" : ", set TimeoutSec=30s in [Mount]",
                         mount_timeout || idle_timeout ? "" : "; ", idle_timeout ? "" : "in ",
                         idle_timeout ? "" : m->automount_file,
                         idle_timeout ? "" : ", set TimeoutIdleSec=10min in [Automount]");
}

/* An automount of a hard NFS mount: each access while the server is away
 * waits for the mount job (90 s by default, more with retry=), and a mount
 * that stays after the server went away hangs every access and the
 * shutdown. The limits are x-systemd.mount-timeout= and
 * x-systemd.idle-timeout= on a line (any value counts), TimeoutSec= and the
 * .automount's TimeoutIdleSec= for a unit (a limit, not 0 or infinity). */
static int check_automount_timeouts(struct client_context *c, const struct fstab_mount *m) {
        bool unit = m->unit_file, mount_timeout, idle_timeout;
        const char *mount_timeout_name = unit ? "TimeoutSec=" : "x-systemd.mount-timeout=",
                   *idle_timeout_name = unit ? "TimeoutIdleSec=" : "x-systemd.idle-timeout=";
        _cleanup_free_ char *where = NULL, *options = NULL, *missing = NULL, *missing_names = NULL;

        if (!m->nfs || !mounted_on_access(m) ||
            mount_option_last_of(m->options, "soft", "softerr", "hard") == 1)
                return 0;
        mount_timeout = unit ? timespan_is_limit(m->mount_timeout)
                             : fstab_mount_has_option(m, "x-systemd.mount-timeout", NULL);
        idle_timeout = unit ? timespan_is_limit(m->idle_timeout)
                            : fstab_mount_has_option(m, "x-systemd.idle-timeout", NULL);
        if (mount_timeout && idle_timeout)
                return 0;
        missing_names = strprintf("%s%s%s", mount_timeout ? "" : mount_timeout_name,
                                  mount_timeout || idle_timeout ? "" : " and ",
                                  idle_timeout ? "" : idle_timeout_name);
        where = escape_for_comment(m->where);
        if (!unit) {
                missing = strprintf("%s%s%s", mount_timeout ? "" : "x-systemd.mount-timeout=30s",
                                    mount_timeout || idle_timeout ? "" : ",",
                                    idle_timeout ? "" : "x-systemd.idle-timeout=10min");
                options = missing ? options_with(m->options, missing) : NULL;
                if (!options)
                        return -ENOMEM;
        }
        if (!where || !missing_names)
                return -ENOMEM;
        return finding_add(
                c->findings, DIAG_WARNING, "automount-hard-without-timeout",
                fstab_mount_file(&c->in->fstab, m), m->line, NULL,
                strprintf("%s is an automount of a hard NFS mount without %s: %s%s%s", where, missing_names,
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
                unit ? fix_unit_timeouts(m, mount_timeout, idle_timeout) : fix_line(c, m, options));
}

/* bg on a line: systemd-fstab-generator does not put mount.nfs in the
 * background; it turns the line into "x-systemd.mount-timeout=infinity,
 * retry=10000,nofail,...,fg" (systemd 252 and 257; seen in the unit it
 * writes).
 * bg in a unit's Options=: nothing rewrites it, and mount.nfs, run by the
 * manager as the unit's mount process, does what bg says: when the first
 * attempt fails for a reason that may pass (the server is away), it
 * forks, the parent exits 0 (nfs-utils mount.c, EX_BG then daemon()),
 * and the manager, which finds no mount for a mount process that
 * succeeded, fails the unit ("Mount process finished, but there is no
 * mount.", result 'protocol'; src/core/mount.c). The unit and all that
 * requires it fail at boot while mount.nfs goes on retrying in the unit's
 * control group. So we report it for a unit too, with its own words; the
 * fix drops bg (no nofail: in a unit it only leaves out the ordering
 * before remote-fs.target, and a failed unit that is only wanted holds up
 * nothing). */
static int check_bg(struct client_context *c, const struct fstab_mount *m) {
        _cleanup_free_ char *where = NULL, *options = NULL;
        char *message;

        if (!m->nfs || mount_option_last_of(m->options, "bg", NULL, "fg") != 1)
                return 0;
        where = escape_for_comment(m->where);
        options = strdup(m->options);
        if (!where || !options)
                return -ENOMEM;
        while (mnt_optstr_remove_option(&options, "bg") == 0)
                ;
        if (!m->unit_file && !m->nofail && mnt_optstr_append_option(&options, "nofail", NULL) != 0)
                return -ENOMEM;
        if (m->unit_file)
                message = strprintf(
                        "%s has bg in Options=, which systemd does not handle for a mount unit: when the "
                        "server "
                        "does not answer the first attempt, mount.nfs goes on in the background and exits "
                        "0, "
                        "systemd finds no mount and fails the unit (\"Mount process finished, but there is "
                        "no "
                        "mount.\"), so the unit and everything that requires it fail at boot even when the "
                        "background mount succeeds later; without bg the unit waits for the server up to "
                        "its "
                        "start timeout (TimeoutSec=, 90 s by default); an .automount unit mounts it "
                        "whenever "
                        "the server is back",
                        where);
        else
                message = strprintf(
                        "%s has bg, which systemd does not run in the background: systemd-fstab-generator "
                        "makes it a nofail foreground mount with retry=10000 and no time limit, so while "
                        "the server is away its start job stays queued for up to 10000 minutes (about a "
                        "week) and everything ordered after it waits as long; nofail alone lets boot go "
                        "on and gives up after mount.nfs's foreground retry (2 minutes); add "
                        "x-systemd.automount to mount it whenever the server is back",
                        where);
        return finding_add(c->findings, DIAG_WARNING, "nfs-bg-option", fstab_mount_file(&c->in->fstab, m),
                           m->line, NULL, message, fix_options(c, m, options));
}

/* The options without those `dropped` names; with keep_last the last of
 * them stays (the one the administrator wrote last is taken for the one
 * meant). NULL on OOM. */
static char *options_without(const char *options, bool (*dropped)(const struct mount_option *),
                             bool keep_last) {
        _cleanup_(buf_free) struct buf kept = {};
        struct mount_option o, last = {};

        for (const char *p = options; keep_last && mount_option_next(&p, &o);)
                if (dropped(&o))
                        last = o;
        for (const char *p = options; mount_option_next(&p, &o);) {
                if (dropped(&o) && o.name != last.name)
                        continue;
                if (kept.len > 0)
                        buf_putc(&kept, ',');
                buf_append(&kept, o.name,
                           o.value ? (size_t) (o.value + o.value_size - o.name) : o.name_size);
        }
        return buf_status(&kept) < 0 ? NULL : strdup(kept.data ? kept.data : "");
}

/* Options mount.nfs refuses before it talks to any server: the mount fails
 * at every boot. Only those that decide the version for now (see
 * nfs_version_asked()). */
static int check_version_refused(struct client_context *c, const struct fstab_mount *m) {
        static const char *const why[] = {
                [NFS_VERSION_MULTIPLE] = "; since nfs-utils 2.5.3 a mount names its version once, no option "
                                         "wins (and before libmount 2.39 a copy of the same option is a "
                                         "second one)",
                [NFS_VERSION_UNREADABLE] = "",
                [NFS_VERSION_UNSUPPORTED] = "; mount.nfs mounts NFSv3 and NFSv4 only",
                [NFS_VERSION_MOUNTD_OPTION_ON_V4] =
                        "; mounthost=, mountaddr=, mountvers=, mountproto= and mountport= are options of "
                        "NFSv3's MOUNT protocol, which mount.nfs refuses with NFSv4",
        };
        struct nfs_version version;
        _cleanup_free_ char *where = NULL, *options = NULL, *fix = NULL;

        if (!m->nfs)
                return 0;
        version = nfs_version_asked(m->fstype, m->options, c->in->libmount);
        if (!version.refused)
                return 0;
        where = escape_for_comment(m->where);
        if (!where)
                return -ENOMEM;
        if (version.refusal == NFS_VERSION_MULTIPLE || version.refusal == NFS_VERSION_MOUNTD_OPTION_ON_V4) {
                bool multiple = version.refusal == NFS_VERSION_MULTIPLE;
                options = options_without(m->options, multiple ? nfs_version_option : nfs_mountd_option,
                                          multiple);
                if (!options)
                        return -ENOMEM;
                fix = fix_options(c, m, options);
        } else
                fix = strprintf(
                        "on line %u of %s, write the NFS version as mount.nfs reads it (vers=3, vers=4, "
                        "vers=4.1 or vers=4.2: a minor version only for NFSv4), then run systemctl "
                        "daemon-reload",
                        m->options_line > 0 ? m->options_line : m->line,
                        m->options_file ? m->options_file : fstab_mount_file(&c->in->fstab, m));
        if (!fix)
                return -ENOMEM;
        return finding_add(
                c->findings, DIAG_ERROR, "nfs-mount-version-refused", fstab_mount_file(&c->in->fstab, m),
                m->line, NULL,
                strprintf("mount.nfs refuses the options of %s (\"%s\"%s): the mount fails at every boot",
                          where, version.refused, why[version.refusal]),
                TAKE_PTR(fix));
}

/* The edit that mounts a unit's filesystem on access, with the time limits
 * check_automount_timeouts() asks for: an .automount unit beside it,
 * enabled in its place. */
static char *fix_unit_automount(const struct fstab_mount *m) {
        _cleanup_(buf_free) struct buf where_setting = {};
        _cleanup_free_ char *mount_name = NULL, *automount_name = NULL, *where = NULL, *mount_quoted = NULL,
                            *automount_quoted = NULL;
        size_t stem = strlen(m->unit_file) - strlen(".mount");

        buf_puts(&where_setting, "Where=");
        /* a mount point systemd has a unit name for: representable */
        if (unit_value_append_verbatim(&where_setting, m->where) < 0 || buf_status(&where_setting) < 0 ||
            unit_name_from_path(m->where, "mount", &mount_name) < 0 ||
            unit_name_from_path(m->where, "automount", &automount_name) < 0)
                return NULL;
        where = shell_quote(where_setting.data);
        mount_quoted = shell_quote(mount_name);
        automount_quoted = shell_quote(automount_name);
        if (!where || !mount_quoted || !automount_quoted)
                return NULL;
        return strprintf(
                "create %.*s.automount with the lines [Automount], %s, TimeoutIdleSec=10min, [Install] "
                "and WantedBy=remote-fs.target; in %s, set TimeoutSec=30s in [Mount]; then run "
                "systemctl daemon-reload, systemctl disable %s and systemctl enable %s",
                (int) stem, m->unit_file, where, m->unit_file, mount_quoted, automount_quoted);
}

/* NFSv3 at boot: mount.nfs asks the server's rpcbind for the NFS and
 * MOUNT programs first. A server that is booting too (after a power cut)
 * answers "program not registered" from the moment its address is up until
 * nfsd has started, and mount.nfs takes three such answers in a row as
 * final (nfs-utils 6a060231: about 7 s), so the mount stays failed for the
 * whole uptime; measured in the two-guest boot, stock units and ours alike.
 * NFSv4 connects to port 2049 and retries a refused connection for two
 * minutes. No ordering on either host closes that window; an automount
 * mounts at the first access and tries again at the next. A loopback mount
 * is left out: the server is ordered before it. A unit is made once at boot
 * when it has no .automount unit, whatever its Options= say. */
static int check_v3_boot_mount(struct client_context *c, const struct fstab_mount *m) {
        _cleanup_free_ char *where = NULL, *options = NULL;
        struct nfs_version version;

        if (!m->nfs || m->noauto || strcmp(m->where, "/") == 0 || mounted_on_access(m) ||
            nfs_source_is_loopback(m->what, c->in->hostname))
                return 0;
        version = nfs_version_asked(m->fstype, m->options, c->in->libmount);
        if (!nfs_version_is_v3(version))
                return 0;
        where = escape_for_comment(m->where);
        options = options_with(m->options, "x-systemd.automount,x-systemd.mount-timeout=30s,"
                                           "x-systemd.idle-timeout=10min");
        if (!where || !options)
                return -ENOMEM;
        return finding_add(
                c->findings, DIAG_NOTE, "nfsv3-mount-gives-up-while-server-boots",
                fstab_mount_file(&c->in->fstab, m), m->line, NULL,
                strprintf("%s is an NFSv3 mount made once at boot: when its server boots at the same time "
                          "(after a power cut), the server's rpcbind answers \"program not registered\" "
                          "until nfsd has started, mount.nfs takes three such answers as final (about 7 s) "
                          "and the mount stays failed until someone starts it again; no ordering on either "
                          "host closes that window (NFSv4 retries a refused connection for 2 minutes)",
                          where),
                m->unit_file ? fix_unit_automount(m) : fix_line(c, m, options));
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
                /* a .mount unit too: the manager orders it after
                 * network-online.target as well */
                if (m->nfs && !m->shadowed && !m->noauto)
                        first = m;
        }
        if (!first)
                return 0;
        where = escape_for_comment(first->where);
        if (!where)
                return -ENOMEM;
        return finding_add(
                c->findings, DIAG_WARNING, "network-online-not-waited", fstab_mount_file(&in->fstab, first),
                first->line, network_unit_names[wait_online],
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

                /* systemd ignores a line or unit that does not own its
                 * mount point, and never mounts a masked one */
                if (m->shadowed || m->masked)
                        continue;
                r = check_auto_nfs(&c, m);
                if (r >= 0)
                        r = check_version_refused(&c, m);
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

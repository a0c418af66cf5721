/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Settings of Debian's /etc/default files that no unit reads (legacy_checks.h).
 *
 * Measured in Debian 12 (nfs-utils 2.6.2) and 13 (2.8.3) roots: none of the
 * NFS units, Debian's or ours, has an EnvironmentFile= or reads these files;
 * only the SysV init scripts, which systemd does not run where a unit of the
 * same name exists, source them. Debian 12's nfs-common converted them once,
 * when upgrading from a release that used them, into
 * /etc/nfs.conf.d/local.conf; a value written there later, or in a file that
 * an old guide or a configuration tool still writes, is silently dropped:
 * RPCMOUNTDOPTS="--port 32767" leaves mountd on a random port, and the
 * firewall rule for 32767 matches nothing. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "legacy_checks.h"
#include "lib/buf.h"
#include "lib/nfs_utils.h"
#include "lib/pipeline.h"

/* What an option or a variable asks of nfs.conf. */
struct conf_key {
        const char *section;
        const char *key;      /* NULL: nfs.conf has no such setting */
        const char *fixed;    /* the value a flag sets, or NULL: the option's argument */
        const char *fallback; /* nfs-utils' value when nfs.conf is silent, or NULL */
        bool boolean;         /* compared as nfs.conf's y/n */
};

/* One option of a daemon's command line. `vers` options name the version
 * in their argument: -N 3 is [nfsd] vers3=n. */
struct option_map {
        char short_name; /* 0: none */
        const char *long_name;
        bool argument;
        bool vers;
        struct conf_key to;
};

/* rpc.mountd(8) of 2.6.2 and 2.8.3 */
static const struct option_map mountd_options[] = {
        {'p', "port", true, false, {"mountd", "port", NULL, "0", false}},
        {'g', "manage-gids", false, false, {"mountd", "manage-gids", "y", "n", true}},
        {'t', "num-threads", true, false, {"mountd", "threads", NULL, "1", false}},
        {'r', "reverse-lookup", false, false, {"mountd", "reverse-lookup", "y", "n", true}},
        {'s', "state-directory-path", true, false, {"mountd", "state-directory-path", NULL, NULL, false}},
        {'d', "debug", true, false, {"mountd", "debug", NULL, NULL, false}},
        {'o', "descriptors", true, false, {"mountd", "descriptors", NULL, "0", false}},
        {'H', "ha-callout", true, false, {"mountd", "ha-callout", NULL, NULL, false}},
        {'c', "cache-use-ipaddr", false, false, {"mountd", "cache-use-ipaddr", "y", "n", true}},
        {'T', "ttl", true, false, {"mountd", "ttl", NULL, NULL, false}},
        {'N', "no-nfs-version", true, true, {"nfsd", NULL, "n", NULL, true}},
        {'V', "nfs-version", true, true, {"nfsd", NULL, "y", NULL, true}},
        {'u', "no-udp", false, false, {"nfsd", "udp", "n", "n", true}},
        {'F', "foreground", false, false, {"mountd", NULL, NULL, NULL, false}},
        {},
};

/* rpc.nfsd(8) */
static const struct option_map nfsd_options[] = {
        {'H', "host", true, false, {"nfsd", "host", NULL, NULL, false}},
        {'p', "port", true, false, {"nfsd", "port", NULL, "2049", false}},
        {'N', "no-nfs-version", true, true, {"nfsd", NULL, "n", NULL, true}},
        {'V', "nfs-version", true, true, {"nfsd", NULL, "y", NULL, true}},
        {'U', "no-udp", false, false, {"nfsd", "udp", "n", "n", true}},
        {'u', "udp", false, false, {"nfsd", "udp", "y", "n", true}},
        {'T', "no-tcp", false, false, {"nfsd", "tcp", "n", "y", true}},
        {'t', "tcp", false, false, {"nfsd", "tcp", "y", "y", true}},
        {'G', "grace-time", true, false, {"nfsd", "grace-time", NULL, NULL, false}},
        {'L', "lease-time", true, false, {"nfsd", "lease-time", NULL, NULL, false}},
        {'r', "rdma", false, false, {"nfsd", "rdma", "y", "n", true}},
        {'d', "debug", false, false, {"nfsd", "debug", "y", "n", true}},
        {'s', "syslog", false, false, {"nfsd", NULL, NULL, NULL, false}},
        {},
};

/* rpc.statd(8) */
static const struct option_map statd_options[] = {
        {'p', "port", true, false, {"statd", "port", NULL, "0", false}},
        {'o', "outgoing-port", true, false, {"statd", "outgoing-port", NULL, "0", false}},
        {'n', "name", true, false, {"statd", "name", NULL, NULL, false}},
        {'P', "state-directory-path", true, false, {"statd", "state-directory-path", NULL, NULL, false}},
        {'H', "ha-callout", true, false, {"statd", "ha-callout", NULL, NULL, false}},
        {'T', "nlm-port", true, false, {"lockd", "port", NULL, "0", false}},
        {'U', "nlm-udp-port", true, false, {"lockd", "udp-port", NULL, "0", false}},
        {'L', "no-notify", false, false, {"statd", "no-notify", "y", "n", true}},
        {'d', "no-syslog", false, false, {"statd", NULL, NULL, NULL, false}},
        {'F', "foreground", false, false, {"statd", NULL, NULL, NULL, false}},
        {},
};

enum variable_kind {
        VALUE,    /* the value itself is one nfs.conf setting */
        OPTIONS,  /* a daemon's command line: `options` maps it */
        SECTION,  /* a daemon's command line with no map: its section */
        NEED,     /* NEED_*: whether a daemon runs (a unit's condition or mask) */
        NO_EQUAL, /* no nfs.conf setting; only a value other than `to.fallback` counts */
};

struct variable_map {
        const char *name;
        const char *daemon;
        enum variable_kind kind;
        struct conf_key to;
        const struct option_map *options;
        enum check_unit unit; /* NEED: the unit that runs the daemon */
        bool needs_keytab;    /* NEED: the unit starts only with a keytab */
};

static const struct variable_map variables[] = {
        {.name = "RPCNFSDCOUNT",
         .daemon = "rpc.nfsd",
         .kind = VALUE,
         .to = {.section = "nfsd", .key = "threads"}},
        {.name = "RPCNFSDOPTS", .daemon = "rpc.nfsd", .kind = OPTIONS, .options = nfsd_options},
        {.name = "RPCNFSDPRIORITY", .daemon = "rpc.nfsd", .kind = NO_EQUAL, .to = {.fallback = "0"}},
        {.name = "RPCMOUNTDOPTS", .daemon = "rpc.mountd", .kind = OPTIONS, .options = mountd_options},
        {.name = "STATDOPTS", .daemon = "rpc.statd", .kind = OPTIONS, .options = statd_options},
        {.name = "RPCSVCGSSDOPTS", .daemon = "rpc.svcgssd", .kind = SECTION, .to = {.section = "svcgssd"}},
        {.name = "RPCGSSDOPTS", .daemon = "rpc.gssd", .kind = SECTION, .to = {.section = "gssd"}},
        {.name = "RPCIDMAPDOPTS", .daemon = "rpc.idmapd", .kind = SECTION, .to = {.section = "general"}},
        {.name = "PIPEFS_MOUNTPOINT",
         .daemon = "the NFS daemons",
         .kind = VALUE,
         .to = {.section = "general", .key = "pipefs-directory", .fallback = PIPEFS_DEFAULT_DIR}},
        {.name = "NEED_STATD", .daemon = "rpc.statd", .kind = NEED, .unit = UNIT_RPC_STATD},
        {.name = "NEED_IDMAPD", .daemon = "rpc.idmapd", .kind = NEED, .unit = UNIT_NFS_IDMAPD},
        {.name = "NEED_GSSD",
         .daemon = "rpc.gssd",
         .kind = NEED,
         .unit = UNIT_RPC_GSSD,
         .needs_keytab = true},
        {.name = "NEED_SVCGSSD",
         .daemon = "rpc.svcgssd",
         .kind = NEED,
         .unit = UNIT_RPC_SVCGSSD,
         .needs_keytab = true},
        {},
};

/* rpc.nfsd's thread count when nfs.conf sets none: 8 up to nfs-utils 2.6
 * (Debian 12's nfs.conf says "# threads=8"), 16 from Debian 13's 2.8.3 on
 * ("# threads=16", as in 3.1.1); an unknown release is taken for the newest. */
static const char *nfsd_default_threads(const struct check_input *in) {
        unsigned v = in->exports.nfs_utils;
        return v != 0 && v < NFS_UTILS_VERSION(2, 8, 0) ? "8" : "16";
}

static bool word_yes(const char *v) {
        return strcmp(v, "y") == 0 || strcmp(v, "yes") == 0 || strcmp(v, "t") == 0 ||
               strcmp(v, "true") == 0 || strcmp(v, "on") == 0 || strcmp(v, "1") == 0;
}

/* Is `value` for [section] key what the daemon gets already (nfs.conf, or
 * nfs-utils' own default when nfs.conf is silent)? */
static bool in_force(const struct check_input *in, const struct conf_key *to, const char *key,
                     const char *value) {
        const struct nfsconf_entry *e = nfsconf_get(&in->conf, to->section, key);

        if (to->boolean)
                return nfsconf_get_bool(&in->conf, to->section, key,
                                        to->fallback && word_yes(to->fallback)) == word_yes(value);
        if (e)
                return strcmp(e->value, value) == 0;
        return to->fallback && strcmp(to->fallback, value) == 0;
}

/* The words of a command line in a variable (already unquoted once by the
 * file reader; the init scripts split it on blanks). */
static size_t split_words(char *s, char **words, size_t max) {
        size_t n = 0;

        for (char *p = strtok(s, " \t"); p && n < max; p = strtok(NULL, " \t"))
                words[n++] = p;
        return n;
}

static const struct option_map *find_option(const struct option_map *t, const char *word,
                                            const char **inline_arg) {
        *inline_arg = NULL;
        if (word[0] != '-' || word[1] == '\0')
                return NULL;
        if (word[1] == '-') {
                const char *name = word + 2, *eq = strchr(name, '=');
                size_t len = eq ? (size_t) (eq - name) : strlen(name);
                for (; t->long_name; t++)
                        if (strlen(t->long_name) == len && strncmp(t->long_name, name, len) == 0) {
                                *inline_arg = eq ? eq + 1 : NULL;
                                return t;
                        }
                return NULL;
        }
        for (; t->long_name; t++)
                if (t->short_name == word[1]) {
                        *inline_arg = word[2] ? word + 2 : NULL;
                        return t;
                }
        return NULL;
}

/* Adds "key=value in [section]" (or an option with no key) to `fix`. */
static void fix_add(struct buf *fix, bool *first, const char *section, const char *key, const char *value) {
        buf_puts(fix, *first ? "" : ", ");
        buf_printf(fix, "%s=%s in [%s]", key, value, section);
        *first = false;
}

/* RPCMOUNTDOPTS and the like: each option that asks for something not in
 * force goes into `fix`; options with no nfs.conf key into `keyless`. */
static int options_fix(const struct check_input *in, const struct variable_map *v, const char *value,
                       struct buf *fix, struct buf *keyless) {
        _cleanup_free_ char *copy = strdup(value);
        char *words[64];
        size_t n;
        bool first = true, first_keyless = true;

        if (!copy)
                return -ENOMEM;
        n = split_words(copy, words, ELEMENTSOF(words));
        for (size_t i = 0; i < n; i++) {
                const char *arg;
                const struct option_map *o = find_option(v->options, words[i], &arg);
                _cleanup_free_ char *vers_key = NULL;
                const char *key, *set;

                if (!o) {
                        buf_printf(keyless, "%s%s", first_keyless ? "" : " ", words[i]);
                        first_keyless = false;
                        continue;
                }
                if (o->argument && !arg) {
                        if (i + 1 >= n)
                                break;
                        arg = words[++i];
                }
                if (!o->to.key && !o->vers) {
                        /* --foreground, --syslog: how the init script ran it, nothing to carry over */
                        continue;
                }
                key = o->to.key;
                if (o->vers) {
                        vers_key = strprintf("vers%s", arg);
                        if (!vers_key)
                                return -ENOMEM;
                        key = vers_key;
                }
                set = o->to.fixed ? o->to.fixed : arg;
                if (o->vers) {
                        /* nfs-utils' defaults: vers2 off, every other version on */
                        struct conf_key k = o->to;
                        k.fallback = strcmp(arg, "2") == 0 ? "n" : "y";
                        if (in_force(in, &k, key, set))
                                continue;
                } else if (in_force(in, &o->to, key, set))
                        continue;
                fix_add(fix, &first, o->to.section, key, set);
        }
        return buf_status(fix) < 0 || buf_status(keyless) < 0 ? -ENOMEM : 0;
}

static const char *default_file_name(const struct check_input *in, const struct default_file *f) {
        return f == &in->default_server ? "/etc/default/nfs-kernel-server" : "/etc/default/nfs-common";
}

static int report(struct finding_list *findings, const char *file, const struct default_setting *s,
                  char *message, char *fix) {
        return finding_add(findings, DIAG_WARNING, "debian-default-ignored", file, s->line, NULL, message,
                           fix);
}

static int check_need(const struct check_input *in, struct finding_list *findings, const char *file,
                      const struct variable_map *v, const struct default_setting *s) {
        const char *unit = check_unit_names[v->unit];
        bool masked = in->units[v->unit].masked_at != NULL;

        if (strcmp(s->value, "no") == 0) {
                if (masked)
                        return 0;
                return report(findings, file, s,
                              strprintf("%s=%s is read by no unit: %s still runs whenever %s is started "
                                        "(by the server, a mount or its condition)",
                                        s->name, s->value, v->daemon, unit),
                              strprintf("systemctl mask %s, and remove line %u of %s", unit, s->line, file));
        }
        if (strcmp(s->value, "yes") == 0 && v->needs_keytab && !in->keytab_present && !masked)
                return report(
                        findings, file, s,
                        strprintf("%s=%s is read by no unit: %s starts only when %s exists, and it does not",
                                  s->name, s->value, unit, in->keytab),
                        strprintf("install the keytab %s (then systemctl restart %s), and remove line %u of "
                                  "%s",
                                  in->keytab, unit, s->line, file));
        return 0;
}

static int check_setting(const struct check_input *in, struct finding_list *findings,
                         const struct default_file *f, const struct default_setting *s) {
        const char *file = default_file_name(in, f);
        const struct variable_map *v;
        _cleanup_(buf_free) struct buf fix = {}, keyless = {};
        bool first = true;
        int r;

        for (v = variables; v->name; v++)
                if (strcmp(v->name, s->name) == 0)
                        break;
        if (!v->name || s->value[0] == '\0')
                return 0;

        switch (v->kind) {
        case NEED:
                return check_need(in, findings, file, v, s);
        case VALUE: {
                struct conf_key to = v->to;
                if (strcmp(to.key, "threads") == 0)
                        to.fallback = nfsd_default_threads(in);
                if (in_force(in, &to, to.key, s->value))
                        return 0;
                fix_add(&fix, &first, v->to.section, v->to.key, s->value);
                break;
        }
        case NO_EQUAL:
                if (v->to.fallback && strcmp(s->value, v->to.fallback) == 0)
                        return 0;
                return report(
                        findings, file, s,
                        strprintf("%s=%s is read by no unit, and nfs.conf has no setting for it: %s runs "
                                  "without it",
                                  s->name, s->value, v->daemon),
                        strprintf("remove line %u of %s (for a unit setting, use systemctl edit)", s->line,
                                  file));
        case SECTION:
                return report(
                        findings, file, s,
                        strprintf("%s=\"%s\" is read by no unit: %s never gets these options", s->name,
                                  s->value, v->daemon),
                        strprintf("set them in the [%s] section of /etc/nfs.conf or a file in "
                                  "/etc/nfs.conf.d/ (nfs.conf(5) names each key), run systemctl restart "
                                  "nfs-utils, and remove line %u of %s",
                                  v->to.section, s->line, file));
        case OPTIONS:
                r = options_fix(in, v, s->value, &fix, &keyless);
                if (r < 0)
                        return r;
                if (fix.len == 0 && keyless.len == 0)
                        return 0;
                break;
        }

        if (fix.len == 0)
                return report(
                        findings, file, s,
                        strprintf("%s=\"%s\" is read by no unit: %s never gets %s, and nfs.conf has no key "
                                  "for it",
                                  s->name, s->value, v->daemon, buf_str(&keyless)),
                        strprintf("see nfs.conf(5) for a replacement, and remove line %u of %s", s->line,
                                  file));
        return report(
                findings, file, s,
                strprintf("%s=\"%s\" is read by no unit (the NFS units of Debian 12 and later read "
                          "nfs.conf only): %s never gets it%s%s%s",
                          s->name, s->value, v->daemon, keyless.len ? " (and nfs.conf has no key for " : "",
                          keyless.len ? buf_str(&keyless) : "", keyless.len ? ")" : ""),
                strprintf("set %s of /etc/nfs.conf (or a file in /etc/nfs.conf.d/), run systemctl restart "
                          "nfs-utils, and remove line %u of %s",
                          buf_str(&fix), s->line, file));
}

int legacy_checks_run(const struct check_input *in, struct finding_list *findings) {
        const struct default_file *files[] = {&in->default_server, &in->default_common};

        for (size_t i = 0; i < ELEMENTSOF(files); i++)
                for (size_t j = 0; j < files[i]->n; j++) {
                        int r = check_setting(in, findings, files[i], &files[i]->items[j]);
                        if (r < 0)
                                return r;
                }
        return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "array.h"
#include "escape.h"
#include "nfsconf.h"

#define NFSCONF_INCLUDE_DEPTH_MAX 8

static char *strip(char *s) {
        char *e;

        while (*s == ' ' || *s == '\t')
                s++;
        e = s + strlen(s);
        while (e > s && isspace((unsigned char) e[-1]))
                *--e = '\0';
        return s;
}

static void lowercase(char *s) {
        for (; *s; s++)
                *s = (char) tolower((unsigned char) *s);
}

static int add_file(struct nfsconf *c, const char *file, const char **ret) {
        char **files = reallocarray(c->files, c->n_files + 1, sizeof(*files));

        if (!files)
                return -ENOMEM;
        c->files = files;
        /* the display name: every message and comment shows it */
        files[c->n_files] = escape_for_comment(file);
        if (!files[c->n_files])
                return -ENOMEM;
        *ret = files[c->n_files++];
        return 0;
}

static int add_entry(struct nfsconf *c, const char *section, const char *subsection, const char *key,
                     const char *value, const char *file, unsigned line) {
        struct nfsconf_entry e = {.file = file, .line = line};

        if (array_reserve(&c->entries, &c->cap, c->n + 1, sizeof(*c->entries)) < 0)
                return -ENOMEM;
        e.section = strdup(section);
        e.subsection = subsection ? strdup(subsection) : NULL;
        e.key = strdup(key);
        e.value = strdup(value);
        if (!e.section || (subsection && !e.subsection) || !e.key || !e.value) {
                free(e.section);
                free(e.subsection);
                free(e.key);
                free(e.value);
                return -ENOMEM;
        }
        lowercase(e.section);
        lowercase(e.key);
        c->entries[c->n++] = e;
        return 0;
}

static int parse_file(struct nfsconf *c, const char *data, size_t size, const char *file,
                      const struct rootfs *root, struct diag_list *diags, unsigned depth);

/* Records that the file `st` describes is being read: 1 when it is new, 0
 * when it was read before (then it must not be read again), -ENOMEM. A
 * linear scan: a system has a handful of these files, and the include
 * limits keep a hostile one small too. */
static int mark_read(struct nfsconf *c, const struct stat *st) {
        for (size_t i = 0; i < c->n_read; i++)
                if (c->read[i].dev == st->st_dev && c->read[i].ino == st->st_ino)
                        return 0;
        if (array_reserve(&c->read, &c->cap_read, c->n_read + 1, sizeof(*c->read)) < 0)
                return -ENOMEM;
        c->read[c->n_read++] = (struct nfsconf_file_id){.dev = st->st_dev, .ino = st->st_ino};
        return 1;
}

static int include_file(struct nfsconf *c, const char *including, const char *target, const char *file,
                        unsigned line, const struct rootfs *root, struct diag_list *diags, unsigned depth) {
        _cleanup_free_ char *path = NULL, *data = NULL, *shown = NULL;
        bool optional = target[0] == '-';
        struct stat st;
        size_t size;
        int r;

        if (optional)
                target++;
        if (target[0] == '/')
                path = strdup(target);
        else {
                /* relative to the directory of the file that includes it */
                const char *slash = strrchr(including, '/');
                if (asprintf(&path, "%.*s/%s", slash ? (int) (slash - including) : 1,
                             slash ? including : ".", target) < 0)
                        path = NULL;
        }
        if (!path)
                return -ENOMEM;
        shown = escape_for_comment(path);
        if (!shown)
                return -ENOMEM;
        if (!root)
                return diag_add(diags, DIAG_NOTE, file, line, "include of %s not followed", shown);
        if (depth >= NFSCONF_INCLUDE_DEPTH_MAX)
                return diag_add(diags, DIAG_ERROR, file, line,
                                "includes nested deeper than %d levels (a loop?); not following %s",
                                NFSCONF_INCLUDE_DEPTH_MAX, shown);
        r = rootfs_read_file(root, path, &data, &size, &st);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return optional && r == -ENOENT ? 0
                                                : diag_add(diags, DIAG_WARNING, file, line,
                                                           "included file %s cannot be read: %s", shown,
                                                           config_file_strerror(r));
        r = mark_read(c, &st);
        if (r < 0)
                return r;
        if (r == 0)
                /* nfs-utils would read it again; its settings are in force
                 * already, and reading files again is how a few lines fan
                 * out into millions */
                return diag_add(diags, DIAG_NOTE, file, line, "%s was read already; not reading it again",
                                shown);
        return parse_file(c, data, size, path, root, diags, depth + 1);
}

static int parse_file(struct nfsconf *c, const char *data, size_t size, const char *file,
                      const struct rootfs *root, struct diag_list *diags, unsigned depth) {
        _cleanup_free_ char *section = NULL, *subsection = NULL;
        const char *shown_file;
        const char *p = data, *end = data + size;
        unsigned lineno = 0;
        int r;

        r = add_file(c, file, &shown_file);
        if (r < 0)
                return r;

        while (p < end) {
                const char *nl = memchr(p, '\n', (size_t) (end - p));
                size_t len = nl ? (size_t) (nl - p) : (size_t) (end - p);
                _cleanup_free_ char *copy = strndup(p, len);
                char *line, *eq, *key, *value;

                p = nl ? nl + 1 : end;
                lineno++;
                if (!copy)
                        return -ENOMEM;
                line = strip(copy);
                if (*line == '\0' || *line == '#' || *line == ';')
                        continue;

                if (*line == '[') {
                        char *close = strchr(line, ']'), *name, *quote;
                        if (!close) {
                                r = diag_add(diags, DIAG_WARNING, shown_file, lineno,
                                             "section header without \"]\"; ignoring this line");
                                if (r < 0)
                                        return r;
                                continue;
                        }
                        *close = '\0';
                        name = strip(line + 1);
                        free(subsection);
                        subsection = NULL;
                        quote = strchr(name, '"');
                        if (quote) {
                                char *q2 = strchr(quote + 1, '"');
                                *quote = '\0';
                                if (q2)
                                        *q2 = '\0';
                                subsection = strdup(quote + 1);
                                if (!subsection)
                                        return -ENOMEM;
                                name = strip(name);
                        }
                        free(section);
                        section = strdup(name);
                        if (!section)
                                return -ENOMEM;
                        continue;
                }

                eq = strchr(line, '=');
                if (!eq) {
                        r = diag_add(diags, DIAG_WARNING, shown_file, lineno,
                                     "line is neither a section, an assignment nor a comment; ignoring it");
                        if (r < 0)
                                return r;
                        continue;
                }
                *eq = '\0';
                key = strip(line);
                value = strip(eq + 1);
                if (value[0] == '"') {
                        char *q = strchr(value + 1, '"');
                        value++;
                        if (q)
                                *q = '\0';
                }

                if (strcasecmp(key, "include") == 0) {
                        r = include_file(c, file, value, shown_file, lineno, root, diags, depth);
                        if (r < 0)
                                return r;
                        continue;
                }
                if (!section) {
                        r = diag_add(diags, DIAG_WARNING, shown_file, lineno,
                                     "assignment before any [section]; ignoring it");
                        if (r < 0)
                                return r;
                        continue;
                }
                r = add_entry(c, section, subsection, key, value, shown_file, lineno);
                if (r < 0)
                        return r;
        }
        return 0;
}

int nfsconf_parse(struct nfsconf *c, const char *data, size_t size, const char *file,
                  const struct rootfs *root, struct diag_list *diags) {
        return parse_file(c, data, size, file, root, diags, 0);
}

static int read_one(struct nfsconf *c, const struct rootfs *root, const char *path,
                    struct diag_list *diags) {
        _cleanup_free_ char *data = NULL;
        struct stat st;
        size_t size;
        int r = rootfs_read_file(root, path, &data, &size, &st);

        if (r == -ENOMEM)
                return r;
        if (r == -ENOENT)
                return r;
        if (r < 0) {
                _cleanup_free_ char *shown = escape_for_comment(path);
                return shown ? diag_add(diags, DIAG_ERROR, shown, 0, "cannot be read: %s; ignoring it",
                                        config_file_strerror(r))
                             : -ENOMEM;
        }
        r = mark_read(c, &st);
        if (r <= 0)
                return r; /* read already, as an include of an earlier file */
        return nfsconf_parse(c, data, size, path, root, diags);
}

/* CONF.d/ *.conf in version order, each read where it stands. */
static int read_dir(struct nfsconf *c, const struct rootfs *root, const char *conf,
                    struct diag_list *diags) {
        _cleanup_free_ char *dir = NULL;
        char **names = NULL;
        int r = 0, n;

        if (asprintf(&dir, "%s.d", conf) < 0)
                return -ENOMEM;
        n = rootfs_list_dir(root, dir, ".conf", &names);
        if (n < 0)
                return n == -ENOMEM ? n : 0;
        for (int i = 0; i < n && r >= 0; i++) {
                _cleanup_free_ char *full = NULL;
                if (asprintf(&full, "%s/%s", dir, names[i]) < 0) {
                        r = -ENOMEM;
                        break;
                }
                r = read_one(c, root, full, diags);
                if (r == -ENOENT)
                        r = 0;
        }
        strv_free(names, (size_t) n);
        return r;
}

int nfsconf_read(struct nfsconf *c, const struct rootfs *root, struct diag_list *diags) {
        /* nfs-utils 2.7.1 and later (conffile.c conf_init_file): the vendor
         * layer under /usr/etc first, then the administrator's /etc, each file
         * followed by its .d directory; a later assignment wins, so /etc
         * overrides /usr/etc key by key. 2.6.2 (Debian 12) reads only /etc; a
         * Debian 12 system has no /usr/etc/nfs.conf, so one order serves all. */
        static const char *const layers[] = {"/usr/etc/nfs.conf", "/etc/nfs.conf"};

        for (size_t i = 0; i < ELEMENTSOF(layers); i++) {
                int r = read_one(c, root, layers[i], diags);
                if (r < 0 && r != -ENOENT)
                        return r;
                r = read_dir(c, root, layers[i], diags);
                if (r < 0)
                        return r;
        }
        return 0;
}

const struct nfsconf_entry *nfsconf_get(const struct nfsconf *c, const char *section, const char *key) {
        for (size_t i = c->n; i > 0; i--) {
                const struct nfsconf_entry *e = &c->entries[i - 1];
                if (!e->subsection && strcasecmp(e->section, section) == 0 && strcasecmp(e->key, key) == 0)
                        return e;
        }
        return NULL;
}

bool nfsconf_get_bool(const struct nfsconf *c, const char *section, const char *key, bool fallback) {
        static const char *const yes[] = {"1", "t", "true", "y", "yes", "on"};
        static const char *const no[] = {"0", "f", "false", "n", "no", "off"};
        const struct nfsconf_entry *e = nfsconf_get(c, section, key);

        if (!e)
                return fallback;
        for (size_t i = 0; i < ELEMENTSOF(yes); i++)
                if (strcasecmp(e->value, yes[i]) == 0)
                        return true;
        for (size_t i = 0; i < ELEMENTSOF(no); i++)
                if (strcasecmp(e->value, no[i]) == 0)
                        return false;
        return fallback;
}

void nfsconf_free(struct nfsconf *c) {
        for (size_t i = 0; i < c->n; i++) {
                free(c->entries[i].section);
                free(c->entries[i].subsection);
                free(c->entries[i].key);
                free(c->entries[i].value);
        }
        free(c->entries);
        free(c->read);
        strv_free(c->files, c->n_files);
        *c = (struct nfsconf){};
}

int nfsconf_get_path(const struct nfsconf *c, const char *section, const char *key, struct diag_list *diags,
                     char **ret) {
        const struct nfsconf_entry *e = nfsconf_get(c, section, key);
        int r;

        *ret = NULL;
        if (!e || e->value[0] == '\0')
                return 0;
        r = path_normalize(e->value, false, ret, NULL);
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                _cleanup_free_ char *shown = escape_for_comment(e->value);
                *ret = NULL;
                return shown ? diag_add(diags, DIAG_WARNING, e->file, e->line,
                                        "[%s] %s=%s is not a normalised absolute path; ignoring it", section,
                                        key, shown)
                             : -ENOMEM;
        }
        return 0;
}

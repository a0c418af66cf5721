/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "escape.h"
#include "mount_units.h"
#include "strmap.h"
#include "strutil.h"
#include "unit_state.h"

#define WHITESPACE " \t\r\n"

static bool ends_with(const char *s, const char *suffix) {
        size_t n = strlen(s), k = strlen(suffix);
        return n > k && strcmp(s + n - k, suffix) == 0;
}

static void strip(char **start, char **end) {
        while (*start < *end && strchr(WHITESPACE, **start))
                (*start)++;
        while (*end > *start && strchr(WHITESPACE, (*end)[-1]))
                (*end)--;
}

/* A value as systemd reads What=/Where=/Type=/Options=: the rest of the
 * line, with "%%" for "%". Any other specifier would need the manager's
 * state: -EINVAL (the caller refuses the unit rather than guess). */
static int unspecify(const char *value, char **ret) {
        char *out = malloc(strlen(value) + 1), *o = out;

        if (!out)
                return -ENOMEM;
        for (const char *p = value; *p; p++) {
                if (*p == '%') {
                        if (p[1] != '%') {
                                free(out);
                                return -EINVAL;
                        }
                        p++;
                }
                *o++ = *p;
        }
        *o = '\0';
        *ret = out;
        return 0;
}

/* A time span as written: systemd reads it without specifiers (a "%" makes
 * it invalid, and systemd ignores that setting, not the unit) */
static int set_timespan(char **field, const char *value) {
        char *v = strdup(value);

        if (!v)
                return -ENOMEM;
        free(*field);
        *field = v;
        return 0;
}

static int set_value(char **field, const char *value) {
        char *v;
        int r = unspecify(value, &v);

        if (r < 0)
                return r;
        free(*field);
        *field = v;
        return 0;
}

/* One "Key=value" of the unit; `section` is where it stands. */
static int assign(struct mount_unit *u, bool automount, const char *section, const char *key,
                  const char *value, unsigned line, bool *what_seen) {
        if (!automount && strcmp(section, "Mount") == 0) {
                if (strcmp(key, "What") == 0) {
                        *what_seen = true;
                        u->line = line;
                        return set_value(&u->what, value);
                }
                if (strcmp(key, "Type") == 0)
                        return set_value(&u->type, value);
                if (strcmp(key, "Options") == 0) {
                        u->options_line = line;
                        return set_value(&u->options, value);
                }
                if (strcmp(key, "TimeoutSec") == 0)
                        return set_timespan(&u->timeout, value);
        }
        if (automount && strcmp(section, "Automount") == 0 && strcmp(key, "TimeoutIdleSec") == 0)
                return set_timespan(&u->timeout, value);
        if (strcmp(section, automount ? "Automount" : "Mount") == 0 && strcmp(key, "Where") == 0)
                return set_value(&u->where, value);
        return 0;
}

/* "a-b\\x2dc.mount" → "/a/b-c", as systemd's unit_name_to_path() reads it */
static int unit_name_to_path(const char *name, const char *suffix, char **ret) {
        size_t n = strlen(name) - strlen(suffix) - 1;
        char *out = malloc(n + 2), *o = out;

        if (!out)
                return -ENOMEM;
        *o++ = '/';
        if (!(n == 1 && name[0] == '-'))
                for (size_t i = 0; i < n; i++) {
                        unsigned byte;
                        if (name[i] == '-')
                                *o++ = '/';
                        else if (name[i] == '\\' && i + 3 < n && name[i + 1] == 'x' &&
                                 sscanf(name + i + 2, "%2x", &byte) == 1 && byte != 0) {
                                *o++ = (char) byte;
                                i += 3;
                        } else
                                *o++ = name[i];
                }
        *o = '\0';
        *ret = out;
        return 0;
}

static int refuse(struct diag_list *diags, const char *path, unsigned line, const char *why) {
        int r = diag_add(diags, DIAG_WARNING, path, line,
                         "%s; systemd does not load this unit, so we ignore it", why);
        return r < 0 ? r : 0;
}

/* Where= against the unit name: systemd refuses a unit whose Where= names
 * another path ("Where= setting doesn't match unit name. Refusing."), and
 * takes the path from the name when Where= is not set. */
static int check_where(struct mount_unit *u, bool automount, unsigned where_line, struct diag_list *diags) {
        const char *suffix = automount ? "automount" : "mount";
        _cleanup_free_ char *normal = NULL, *expected = NULL, *shown = NULL;
        int r;

        if (!u->where) {
                /* no Where=: systemd takes the path from the name */
                r = unit_name_to_path(u->name, suffix, &u->where);
                if (r < 0)
                        return r;
        }
        r = path_normalize(u->where, false, &normal, NULL);
        if (r == -ENOMEM)
                return r;
        shown = escape_for_comment(u->where);
        if (!shown)
                return -ENOMEM;
        if (r < 0) {
                _cleanup_free_ char *why =
                        strprintf("Where=%s is not an absolute path systemd accepts", shown);
                return why ? refuse(diags, u->path, where_line, why) : -ENOMEM;
        }
        r = unit_name_from_path(normal, suffix, &expected);
        if (r == -ENOMEM)
                return r;
        if (r < 0 || strcmp(expected, u->name) != 0) {
                _cleanup_free_ char *why = strprintf(
                        "Where=%s does not match the unit name (systemd wants the name %s for it: \"Where= "
                        "setting doesn't match unit name\")",
                        shown, r < 0 ? "(none)" : expected);
                return why ? refuse(diags, u->path, where_line, why) : -ENOMEM;
        }
        free(u->where);
        u->where = TAKE_PTR(normal);
        return 1;
}

int mount_unit_parse(const char *name, const char *path, const char *text, size_t size,
                     struct mount_unit *ret, struct diag_list *diags) {
        bool automount = ends_with(name, ".automount"), what_seen = false;
        struct mount_unit u = {};
        _cleanup_free_ char *section = strdup(""), *joined = NULL;
        unsigned lineno = 0, where_line = 0, joined_line = 0;
        const char *p = text, *end = text + size;
        int r = 0;

        if (!section)
                return -ENOMEM;
        u.name = strdup(name);
        u.path = strdup(path);
        if (!u.name || !u.path)
                goto oom;

        while (p < end) {
                /* systemd ends a line at a NUL byte too (systemd 252:
                 * "Description=x\0y" is two lines) */
                const char *stop = p;
                _cleanup_free_ char *line = NULL;
                char *s, *e;

                while (stop < end && *stop != '\n' && *stop != '\0')
                        stop++;
                line = strndup(p, (size_t) (stop - p));
                if (!line)
                        goto oom;
                lineno++;
                p = stop < end ? stop + 1 : end;
                s = line;
                e = line + strlen(line);
                strip(&s, &e);
                *e = '\0';
                /* comments are skipped even inside a continuation */
                if (*s == '#' || *s == ';' || (!joined && *s == '\0'))
                        continue;
                if (joined) {
                        /* the backslash becomes a blank; the next line's
                         * leading blanks stay, as in systemd */
                        char *more = strprintf("%s %s", joined, line);
                        if (!more)
                                goto oom;
                        free(joined);
                        joined = more;
                } else {
                        joined = strdup(s);
                        joined_line = lineno;
                        if (!joined)
                                goto oom;
                }
                if (e > s && e[-1] == '\\' && p < end) {
                        joined[strlen(joined) - 1] = '\0';
                        continue;
                }
                s = joined;
                /* both make systemd refuse the whole unit (systemd 252: "String
                 * is not UTF-8 clean", "Invalid section header": the unit
                 * fails to load) */
                if (!utf8_is_valid_systemd(s) || (*s == '[' && (strlen(s) < 2 || s[strlen(s) - 1] != ']'))) {
                        const char *why = utf8_is_valid_systemd(s) ? "malformed section header"
                                                                   : "line is not valid UTF-8";
                        mount_unit_done(&u);
                        return refuse(diags, path, joined_line, why);
                }
                if (*s == '[') {
                        free(section);
                        section = strndup(s + 1, strlen(s) - 2);
                        if (!section)
                                goto oom;
                } else {
                        char *eq = strchr(s, '='), *ke, *vs, *ve;
                        if (!eq)
                                r = diag_add(diags, DIAG_WARNING, path, joined_line,
                                             "no '=' in this line; systemd ignores it, so do we");
                        else {
                                ke = eq;
                                vs = eq + 1;
                                ve = s + strlen(s);
                                strip(&s, &ke);
                                strip(&vs, &ve);
                                *ke = '\0';
                                *ve = '\0';
                                if (strcmp(section, automount ? "Automount" : "Mount") == 0 &&
                                    strcmp(s, "Where") == 0)
                                        where_line = joined_line;
                                r = assign(&u, automount, section, s, vs, joined_line, &what_seen);
                                if (r == -EINVAL) {
                                        _cleanup_free_ char *why = strprintf(
                                                "%s= uses a specifier other than %%%% that this reader does "
                                                "not resolve",
                                                s);
                                        mount_unit_done(&u);
                                        if (!why)
                                                return -ENOMEM;
                                        r = diag_add(diags, DIAG_WARNING, path, joined_line,
                                                     "%s; ignoring this unit", why);
                                        return r < 0 ? r : 0;
                                }
                        }
                }
                free(joined);
                joined = NULL;
                if (r < 0)
                        goto fail;
        }

        if (!automount && (!what_seen || !u.what || !*u.what)) {
                mount_unit_done(&u);
                return refuse(diags, path, 0, "no What= in [Mount]");
        }
        r = check_where(&u, automount, where_line, diags);
        if (r <= 0)
                goto fail;
        *ret = u;
        return 1;
oom:
        r = -ENOMEM;
fail:
        mount_unit_done(&u);
        return r;
}

static int compare_names(const void *a, const void *b) {
        return strcmp(*(char *const *) a, *(char *const *) b);
}

/* The names in one unit directory that end in .mount or .automount, sorted
 * (readdir's order would make the output depend on the filesystem). */
static int list_unit_names(const struct rootfs *root, const char *dir, char ***ret, size_t *ret_n) {
        int fd = rootfs_open_file(root, dir, O_RDONLY | O_DIRECTORY);
        char **names = NULL;
        size_t n = 0, cap = 0;
        struct dirent *de;
        DIR *d;
        int r = 0;

        *ret = NULL;
        *ret_n = 0;
        if (fd < 0)
                return fd == -ENOMEM ? fd : 0; /* a missing directory is normal */
        d = fdopendir(fd);
        if (!d) {
                close(fd);
                return errno == ENOMEM ? -ENOMEM : 0;
        }
        while ((de = readdir(d))) {
                if (de->d_name[0] == '.' || strchr(de->d_name, '@') ||
                    (!ends_with(de->d_name, ".mount") && !ends_with(de->d_name, ".automount")))
                        continue;
                if (array_reserve(&names, &cap, n + 1, sizeof(*names)) < 0 ||
                    !(names[n] = strdup(de->d_name))) {
                        r = -ENOMEM;
                        break;
                }
                n++;
        }
        closedir(d);
        if (r < 0) {
                strv_free(names, n);
                return r;
        }
        if (n > 0)
                qsort(names, n, sizeof(*names), compare_names);
        *ret = names;
        *ret_n = n;
        return 0;
}

/* Whether systemd takes the unit file at `path` for a mask: a link to
 * /dev/null, a device node, or an empty file (systemd's null_or_empty();
 * "systemd-analyze verify" says "Unit e.service is masked." for an empty
 * one). 1 masked, 0 not (then *ret_text holds the file), -errno when it
 * cannot be read. */
static int unit_file_is_masked(const struct rootfs *root, const char *path, char **ret_text,
                               size_t *ret_size) {
        _cleanup_free_ char *target = NULL;
        _cleanup_close_ int fd = -1;
        struct stat st;
        int r;

        r = rootfs_readlink(root, path, &target);
        if (r == -ENOMEM)
                return r;
        if (r >= 0 && strcmp(target, "/dev/null") == 0)
                return 1;
        fd = rootfs_open_file(root, path, O_PATH);
        if (fd == -ENOMEM)
                return fd;
        if (fd >= 0 && fstat(fd, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)))
                return 1;
        r = rootfs_read_file(root, path, ret_text, ret_size, NULL);
        if (r < 0)
                return r;
        return *ret_size == 0;
}

/* One file that won its name: a mask or a mount unit (into `l`), or an
 * automount unit (into `automounts`). */
static int read_one(const struct rootfs *root, const char *dir, const char *name, bool before_fstab,
                    struct mount_unit_list *l, struct mount_unit_list *automounts, struct diag_list *diags) {
        _cleanup_free_ char *path = strprintf("%s/%s", dir, name), *text = NULL, *shown = NULL;
        struct mount_unit u = {};
        size_t size = 0;
        int r;

        if (!path)
                return -ENOMEM;
        shown = escape_for_comment(path);
        if (!shown)
                return -ENOMEM;
        r = unit_file_is_masked(root, path, &text, &size);
        if (r == -ENOMEM)
                return r;
        if (r > 0) {
                if (ends_with(name, ".automount"))
                        return 0; /* its .mount may still be started some other way */
                u = (struct mount_unit){.name = strdup(name), .path = TAKE_PTR(shown), .masked = true};
                if (!u.name || unit_name_to_path(name, "mount", &u.where) < 0) {
                        mount_unit_done(&u);
                        return -ENOMEM;
                }
                goto add;
        }
        if (r < 0) {
                r = diag_add(diags, DIAG_WARNING, shown, 0, "cannot be read: %s; ignoring it",
                             config_file_strerror(-r));
                return r < 0 ? r : 0;
        }
        r = mount_unit_parse(name, shown, text, size, &u, diags);
        if (r <= 0)
                return r;
        if (ends_with(name, ".automount"))
                /* it mounts through the .mount of the same name, which is
                 * what ordering names: kept only to be named in that one */
                l = automounts;
add:
        u.before_fstab = before_fstab;
        if (array_reserve(&l->units, &l->cap, l->n + 1, sizeof(*l->units)) < 0) {
                mount_unit_done(&u);
                return -ENOMEM;
        }
        l->units[l->n++] = u;
        return 0;
}

static int compare_units(const void *a, const void *b) {
        return strcmp(((const struct mount_unit *) a)->name, ((const struct mount_unit *) b)->name);
}

/* Each .automount named in the .mount unit of its mount point. One whose
 * .mount comes from fstab (or nowhere) is left out: the checks that use it
 * are about mounts declared as units. */
static void attach_automounts(struct mount_unit_list *l, struct mount_unit_list *automounts) {
        for (size_t i = 0; i < automounts->n; i++) {
                struct mount_unit *a = &automounts->units[i];
                for (size_t k = 0; k < l->n; k++) {
                        struct mount_unit *m = &l->units[k];
                        if (m->masked || strcmp(m->where, a->where) != 0)
                                continue;
                        m->automount_path = TAKE_PTR(a->path);
                        m->automount_timeout = TAKE_PTR(a->timeout);
                        break;
                }
        }
}

int mount_units_read(const struct rootfs *root, struct mount_unit_list *ret, struct diag_list *diags) {
        struct mount_unit_list l = {}, automounts = {};
        struct strmap seen = {};
        char **names[ELEMENTSOF(unit_dirs)] = {};
        size_t n_names[ELEMENTSOF(unit_dirs)] = {};
        int r = 0;

        for (size_t i = 0; i < ELEMENTSOF(unit_dirs) && r >= 0; i++) {
                r = list_unit_names(root, unit_dirs[i], &names[i], &n_names[i]);
                for (size_t k = 0; k < n_names[i] && r >= 0; k++) {
                        r = strmap_put(&seen, names[i][k], NULL, NULL);
                        if (r == 0)
                                continue; /* a directory before this one has the name */
                        if (r > 0)
                                r = read_one(root, unit_dirs[i], names[i][k], i < UNIT_DIRS_BEFORE_GENERATED,
                                             &l, &automounts, diags);
                }
        }
        strmap_free(&seen);
        for (size_t i = 0; i < ELEMENTSOF(unit_dirs); i++)
                strv_free(names[i], n_names[i]);
        if (r >= 0)
                attach_automounts(&l, &automounts);
        mount_unit_list_free(&automounts);
        if (r < 0) {
                mount_unit_list_free(&l);
                return r;
        }
        if (l.n > 0)
                qsort(l.units, l.n, sizeof(*l.units), compare_units);
        *ret = l;
        return 0;
}

void mount_unit_done(struct mount_unit *u) {
        free(u->name);
        free(u->path);
        free(u->where);
        free(u->what);
        free(u->type);
        free(u->options);
        free(u->timeout);
        free(u->automount_path);
        free(u->automount_timeout);
        *u = (struct mount_unit){};
}

void mount_unit_list_free(struct mount_unit_list *l) {
        for (size_t i = 0; i < l->n; i++)
                mount_unit_done(&l->units[i]);
        free(l->units);
        *l = (struct mount_unit_list){};
}

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

/* Where the settings read so far stand: the file being read, and the marks
 * that outlive it (What= seen, the line of Where=). */
struct settings_reader {
        const char *path; /* the file being read (display form) */
        bool dropin;
        bool what_seen;
        unsigned where_line;
};

/* One "Key=value" of the unit or a drop-in; `section` is where it stands. A
 * later assignment replaces an earlier one (drop-ins come after the unit),
 * and an empty one resets the setting, as in systemd. */
static int assign(struct mount_unit *u, bool automount, struct settings_reader *rd, const char *section,
                  const char *key, const char *value, unsigned line) {
        char **field = NULL;
        bool timespan = false;

        if (!automount && strcmp(section, "Mount") == 0) {
                if (strcmp(key, "What") == 0) {
                        rd->what_seen = true;
                        /* the line is in the unit file; a drop-in's What=
                         * stands for the unit as a whole */
                        u->line = rd->dropin ? 0 : line;
                        field = &u->what;
                } else if (strcmp(key, "Type") == 0)
                        field = &u->type;
                else if (strcmp(key, "Options") == 0) {
                        u->options_line = line;
                        free(u->options_path);
                        u->options_path = rd->dropin ? strdup(rd->path) : NULL;
                        if (rd->dropin && !u->options_path)
                                return -ENOMEM;
                        field = &u->options;
                } else if (strcmp(key, "TimeoutSec") == 0) {
                        field = &u->timeout;
                        timespan = true;
                }
        }
        if (automount && strcmp(section, "Automount") == 0 && strcmp(key, "TimeoutIdleSec") == 0) {
                field = &u->timeout;
                timespan = true;
        }
        if (strcmp(section, automount ? "Automount" : "Mount") == 0 && strcmp(key, "Where") == 0) {
                rd->where_line = line;
                field = &u->where;
        }
        if (!field)
                return 0;
        if (*value == '\0') {
                free(*field);
                *field = NULL;
                return 0;
        }
        return timespan ? set_timespan(field, value) : set_value(field, value);
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

/* Reads the settings of one file (the unit, or a drop-in of it) into `u`.
 * Returns 1, 0 when systemd refuses the whole unit (a diagnostic says why;
 * the caller throws `u` away), -ENOMEM. A continued line grows in one
 * buffer, so that reading is linear in the size of the file (joining with a
 * new string for every continuation made a 300 KB unit take 30 s). */
static int read_settings(struct mount_unit *u, bool automount, struct settings_reader *rd, const char *text,
                         size_t size, struct diag_list *diags) {
        _cleanup_(buf_free) struct buf joined = {};
        _cleanup_free_ char *section = strdup("");
        unsigned lineno = 0, joined_line = 0;
        const char *p = text, *end = text + size;
        bool joining = false;
        int r;

        if (!section)
                return -ENOMEM;
        while (p < end) {
                /* systemd ends a line at a NUL byte too (systemd 252:
                 * "Description=x\0y" is two lines) */
                const char *line = p, *stop = p;
                char *s, *e, *ke, *vs, *ve, *eq;

                while (stop < end && *stop != '\n' && *stop != '\0')
                        stop++;
                lineno++;
                p = stop < end ? stop + 1 : end;
                s = (char *) line;
                e = (char *) stop;
                strip(&s, &e);
                /* comments are skipped even inside a continuation */
                if ((s < e && (*s == '#' || *s == ';')) || (!joining && s == e))
                        continue;
                if (joining) {
                        /* the backslash becomes a blank; the next line's
                         * leading blanks stay, as in systemd */
                        buf_putc(&joined, ' ');
                        buf_append(&joined, line, (size_t) (e - line));
                } else {
                        joined.len = 0;
                        buf_append(&joined, s, (size_t) (e - s));
                        joined_line = lineno;
                        joining = true;
                }
                if (buf_status(&joined) < 0)
                        return -ENOMEM;
                if (e > s && e[-1] == '\\' && p < end) {
                        joined.data[--joined.len] = '\0';
                        continue;
                }
                joining = false;
                s = joined.data;
                /* both make systemd refuse the whole unit (systemd 252: "String
                 * is not UTF-8 clean", "Invalid section header": the unit
                 * fails to load) */
                if (!utf8_is_valid_systemd(s) || (*s == '[' && (joined.len < 2 || s[joined.len - 1] != ']')))
                        return refuse(diags, rd->path, joined_line,
                                      utf8_is_valid_systemd(s) ? "malformed section header"
                                                               : "line is not valid UTF-8");
                if (*s == '[') {
                        free(section);
                        section = strndup(s + 1, joined.len - 2);
                        if (!section)
                                return -ENOMEM;
                        continue;
                }
                eq = strchr(s, '=');
                if (!eq) {
                        r = diag_add(diags, DIAG_WARNING, rd->path, joined_line,
                                     "no '=' in this line; systemd ignores it, so do we");
                        if (r < 0)
                                return r;
                        continue;
                }
                ke = eq;
                vs = eq + 1;
                ve = s + joined.len;
                strip(&s, &ke);
                strip(&vs, &ve);
                *ke = '\0';
                *ve = '\0';
                r = assign(u, automount, rd, section, s, vs, joined_line);
                if (r == -EINVAL) {
                        r = diag_add(
                                diags, DIAG_WARNING, rd->path, joined_line,
                                "%s= uses a specifier other than %%%% that this reader does not resolve; "
                                "ignoring this unit",
                                s);
                        return r < 0 ? r : 0;
                }
                if (r < 0)
                        return r;
        }
        return 1;
}

/* The unit read, checked: What= present, Where= matching the name. */
static int finish_unit(struct mount_unit *u, bool automount, const struct settings_reader *rd,
                       struct diag_list *diags) {
        if (!automount && (!rd->what_seen || !u->what || !*u->what))
                return refuse(diags, u->path, 0, "no What= in [Mount]");
        return check_where(u, automount, rd->where_line, diags);
}

int mount_unit_parse(const char *name, const char *path, const char *text, size_t size,
                     struct mount_unit *ret, struct diag_list *diags) {
        return mount_unit_parse_with_dropins(name, path, text, size, NULL, 0, ret, diags);
}

int mount_unit_parse_with_dropins(const char *name, const char *path, const char *text, size_t size,
                                  const struct unit_dropin *dropins, size_t n_dropins,
                                  struct mount_unit *ret, struct diag_list *diags) {
        bool automount = ends_with(name, ".automount");
        struct settings_reader rd = {.path = path};
        struct mount_unit u = {};
        int r;

        u.name = strdup(name);
        u.path = strdup(path);
        if (!u.name || !u.path) {
                mount_unit_done(&u);
                return -ENOMEM;
        }
        r = read_settings(&u, automount, &rd, text, size, diags);
        for (size_t i = 0; i < n_dropins && r > 0; i++) {
                rd.path = dropins[i].path;
                rd.dropin = true;
                r = read_settings(&u, automount, &rd, dropins[i].text, dropins[i].size, diags);
        }
        if (r > 0)
                r = finish_unit(&u, automount, &rd, diags);
        if (r <= 0) {
                mount_unit_done(&u);
                return r;
        }
        *ret = u;
        return 1;
}

static int compare_names(const void *a, const void *b) {
        return strcmp(*(char *const *) a, *(char *const *) b);
}

static bool is_mount_unit_name(const char *name) {
        return !strchr(name, '@') && (ends_with(name, ".mount") || ends_with(name, ".automount"));
}

static bool is_dropin_name(const char *name) {
        return ends_with(name, ".conf");
}

/* The names in one directory that `wanted` takes (none starting with a
 * dot), sorted as systemd sorts them, by strcmp() (readdir's order would
 * make the output depend on the filesystem). A missing directory has none. */
static int list_names(const struct rootfs *root, const char *dir, bool (*wanted)(const char *name),
                      char ***ret, size_t *ret_n) {
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
                if (de->d_name[0] == '.' || !wanted(de->d_name))
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

struct dropin_name {
        char *name;
        size_t dir; /* index into unit_dirs */
};

static int compare_dropin_names(const void *a, const void *b) {
        return strcmp(((const struct dropin_name *) a)->name, ((const struct dropin_name *) b)->name);
}

static void dropins_free(struct unit_dropin *dropins, size_t n) {
        for (size_t i = 0; i < n; i++) {
                free(dropins[i].path);
                free(dropins[i].text);
        }
        free(dropins);
}

/* The drop-ins of unit `name` as systemd merges them: of each file name, the
 * one in the first unit directory that has it, in the order of the names;
 * a masked one (a link to /dev/null, an empty file) adds nothing. */
static int read_dropins(const struct rootfs *root, const char *name, struct unit_dropin **ret, size_t *ret_n,
                        struct diag_list *diags) {
        struct dropin_name *found = NULL;
        struct unit_dropin *dropins = NULL;
        struct strmap seen = {};
        size_t n_found = 0, cap_found = 0, n = 0, cap = 0;
        int r = 0;

        for (size_t i = 0; i < ELEMENTSOF(unit_dirs) && r >= 0; i++) {
                _cleanup_free_ char *dir = strprintf("%s/%s.d", unit_dirs[i], name);
                char **names = NULL;
                size_t n_names = 0;

                r = dir ? list_names(root, dir, is_dropin_name, &names, &n_names) : -ENOMEM;
                for (size_t k = 0; k < n_names && r >= 0; k++) {
                        r = strmap_put(&seen, names[k], NULL, NULL);
                        if (r <= 0)
                                continue; /* a directory before this one has the name */
                        r = array_reserve(&found, &cap_found, n_found + 1, sizeof(*found));
                        if (r >= 0)
                                found[n_found++] =
                                        (struct dropin_name){.name = TAKE_PTR(names[k]), .dir = i};
                }
                strv_free(names, n_names);
        }
        strmap_free(&seen);
        if (n_found > 0)
                qsort(found, n_found, sizeof(*found), compare_dropin_names);
        for (size_t i = 0; i < n_found && r >= 0; i++) {
                _cleanup_free_ char *path =
                        strprintf("%s/%s.d/%s", unit_dirs[found[i].dir], name, found[i].name);
                struct unit_dropin d = {};

                int masked = path ? unit_file_is_masked(root, path, &d.text, &d.size) : -ENOMEM;

                if (masked == -ENOMEM) {
                        r = -ENOMEM;
                        break;
                }
                if (masked > 0) {
                        free(d.text); /* an empty file */
                        continue;
                }
                d.path = escape_for_comment(path);
                if (!d.path || (masked == 0 && array_reserve(&dropins, &cap, n + 1, sizeof(*dropins)) < 0)) {
                        free(d.path);
                        free(d.text);
                        r = -ENOMEM;
                        break;
                }
                if (masked < 0) {
                        r = diag_add(diags, DIAG_WARNING, d.path, 0, "cannot be read: %s; ignoring it",
                                     config_file_strerror(-masked));
                        free(d.path);
                        continue;
                }
                dropins[n++] = d;
        }
        for (size_t i = 0; i < n_found; i++)
                free(found[i].name);
        free(found);
        if (r < 0) {
                dropins_free(dropins, n);
                return r;
        }
        *ret = dropins;
        *ret_n = n;
        return 0;
}

/* One file that won its name: a mask or a mount unit (into `l`), or an
 * automount unit (into `automounts`). */
static int read_one(const struct rootfs *root, const char *dir, const char *name, bool before_fstab,
                    struct mount_unit_list *l, struct mount_unit_list *automounts, struct diag_list *diags) {
        _cleanup_free_ char *path = strprintf("%s/%s", dir, name), *text = NULL, *shown = NULL;
        struct unit_dropin *dropins = NULL;
        struct mount_unit u = {};
        size_t size = 0, n_dropins = 0;
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
        r = read_dropins(root, name, &dropins, &n_dropins, diags);
        if (r < 0)
                return r;
        r = mount_unit_parse_with_dropins(name, shown, text, size, dropins, n_dropins, &u, diags);
        dropins_free(dropins, n_dropins);
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
                r = list_names(root, unit_dirs[i], is_mount_unit_name, &names[i], &n_names[i]);
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
        free(u->options_path);
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

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: a whole root made from the input, run through both
 * generators' pipelines exactly as the programs run them (lib/pipeline.h:
 * read, decide, render, write), and then properties of what they wrote:
 *   0. both pipelines succeed and write only the files they may write;
 *   1. no ordering cycle: no mount unit of a RequiresMountsFor= path (or of
 *      any directory above it), and no Requires=/After= mount unit, is also
 *      in Before= of the drop-in;
 *   2. every line is empty, a '#' comment, a section header the unit may
 *      have, or Key=value with a key the generators write: no directive can
 *      come from a file name or a value;
 *   3. every RequiresMountsFor= path (unquoted as systemd reads it) is the
 *      served path of an export the reader returned, and every such export
 *      path is a token at a line start of an exports file of the input: no
 *      path the input never named;
 *   4. no line ends in a backslash (a continuation), no NUL byte, and every
 *      file ends with a newline; Where= names the mount unit's own path.
 * A violation aborts with a message.
 *
 * The input, split at lines "%%" (the newline before the marker stays with
 * the part before it):
 *   part 0 /etc/exports, 1 /etc/fstab, 2 /etc/nfs.conf, 3 /etc/hostname;
 *   parts 4.. are named files: a first byte 'e' (/etc/exports.d), 'c'
 *   (/etc/nfs.conf.d) or anything else (/etc/nfs, for include= targets),
 *   then the name up to a NUL (any bytes but '/'), then the content.
 *
 * FUZZ_ROOT_KEEP=DIR: build the root in DIR/root and write to DIR/out, and
 * leave both there (tests/fuzz/verify-corpus hands them to systemd). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/escape.h"
#include "lib/log.h"
#include "lib/pipeline.h"
#include "lib/reexport.h"
#include "lib/strutil.h"

#define MAX_PARTS 12
#define MARKER "%%\n"

struct part {
        const char *data;
        size_t size;
};

static char scratch[PATH_MAX];

static _Noreturn _printf_(1, 2) void fail(const char *format, ...) {
        va_list ap;

        va_start(ap, format);
        fputs("fuzz-root: property violated: ", stderr);
        vfprintf(stderr, format, ap);
        fputc('\n', stderr);
        va_end(ap);
        abort();
}

/* Removes everything below the directory `fd` (closed here). */
static void clear_dir(int fd) {
        DIR *d = fdopendir(fd);
        struct dirent *de;

        if (!d)
                fail("cannot read a scratch directory: %m");
        while ((de = readdir(d))) {
                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                        continue;
                if (unlinkat(dirfd(d), de->d_name, 0) == 0)
                        continue;
                if (errno != EISDIR && errno != EPERM)
                        fail("cannot remove %s: %m", de->d_name);
                int sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub < 0)
                        fail("cannot open %s: %m", de->d_name);
                clear_dir(sub);
                if (unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) < 0)
                        fail("cannot remove %s: %m", de->d_name);
        }
        closedir(d);
}

static void remove_scratch(void) {
        clear_dir(open(scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        rmdir(scratch);
}

static void write_at(int dirfd, const char *name, const char *data, size_t size) {
        int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);

        if (fd < 0)
                return; /* a name the file system refuses (too long): no file */
        while (size > 0) {
                ssize_t n = write(fd, data, size);
                if (n <= 0)
                        fail("cannot write a scratch file: %m");
                data += n;
                size -= (size_t) n;
        }
        close(fd);
}

static size_t split(const uint8_t *data, size_t size, struct part parts[MAX_PARTS]) {
        const char *p = (const char *) data, *end = p + size;
        size_t n = 0;

        while (n < MAX_PARTS - 1) {
                const char *m = p;
                /* a marker line: at the start of the input or after a newline */
                for (;;) {
                        m = memmem(m, (size_t) (end - m), MARKER, strlen(MARKER));
                        if (!m || m == (const char *) data || m[-1] == '\n')
                                break;
                        m++;
                }
                if (!m)
                        break;
                parts[n++] = (struct part){p, (size_t) (m - p)};
                p = m + strlen(MARKER);
        }
        parts[n++] = (struct part){p, (size_t) (end - p)};
        return n;
}

/* A named part: its directory below etc, and the name ('/' bytes dropped). */
static bool named_file(const struct part *pt, const char **dir, char name[NAME_MAX + 1],
                       struct part *content) {
        const char *nul;
        size_t len = 0;

        if (pt->size == 0)
                return false;
        *dir = pt->data[0] == 'e' ? "exports.d" : pt->data[0] == 'c' ? "nfs.conf.d" : "nfs";
        nul = memchr(pt->data + 1, '\0', pt->size - 1);
        if (!nul)
                nul = pt->data + pt->size;
        for (const char *p = pt->data + 1; p < nul && len < NAME_MAX; p++)
                if (*p != '/')
                        name[len++] = *p;
        name[len] = '\0';
        if (len == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
                return false;
        *content = (struct part){nul, (size_t) (pt->data + pt->size - nul)};
        if (content->size > 0) { /* the NUL itself */
                content->data++;
                content->size--;
        }
        return true;
}

static void make_root(const struct part *parts, size_t n_parts) {
        static const char *const fixed[] = {"exports", "fstab", "nfs.conf", "hostname"};
        char path[PATH_MAX + 32];
        int etc;

        snprintf(path, sizeof(path), "%s/root", scratch);
        (void) mkdir(path, 0755);
        clear_dir(open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        snprintf(path, sizeof(path), "%s/out", scratch);
        (void) mkdir(path, 0755);
        clear_dir(open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC));

        snprintf(path, sizeof(path), "%s/root/etc", scratch);
        if (mkdir(path, 0755) < 0)
                fail("cannot make %s: %m", path);
        etc = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (etc < 0)
                fail("cannot open %s: %m", path);
        for (size_t i = 0; i < ELEMENTSOF(fixed) && i < n_parts; i++)
                write_at(etc, fixed[i], parts[i].data, parts[i].size);
        (void) mkdirat(etc, "exports.d", 0755);
        (void) mkdirat(etc, "nfs.conf.d", 0755);
        (void) mkdirat(etc, "nfs", 0755);
        for (size_t i = ELEMENTSOF(fixed); i < n_parts; i++) {
                char name[NAME_MAX + 1];
                const char *dir;
                struct part content;
                int d;

                if (!named_file(&parts[i], &dir, name, &content))
                        continue;
                d = openat(etc, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                if (d < 0)
                        fail("cannot open etc/%s: %m", dir);
                write_at(d, name, content.data, content.size);
                close(d);
        }
        close(etc);
}

/* The token that exports_parse()'s lexer reads at `p` (quotes toggle,
 * backslash-newline is a blank, \ooo decoded on what was collected so far),
 * compared with `want`. An independent copy of the token rule, small
 * enough to check by eye against exports(5). */
static bool token_is(const char *p, const char *end, const char *want) {
        size_t cap = (size_t) (end - p) + 1, len = 0;
        char *t = malloc(cap);
        bool quoted = false, same;

        if (!t)
                fail("out of memory");
        while (p < end) {
                unsigned char c = (unsigned char) *p++;
                if (c == '\\' && p < end && *p == '\n') {
                        p++;
                        while (p < end && (*p == ' ' || *p == '\t'))
                                p++;
                        c = ' ';
                }
                if (!quoted && (c == 0 || isspace(c)))
                        break;
                if (c == '"') {
                        quoted = !quoted;
                        continue;
                }
                t[len++] = (char) c;
                if (len >= 4 && t[len - 4] == '\\' && t[len - 3] >= '0' && t[len - 3] <= '7' &&
                    t[len - 2] >= '0' && t[len - 2] <= '7' && t[len - 1] >= '0' && t[len - 1] <= '7') {
                        unsigned v = (unsigned) ((t[len - 3] - '0') * 64 + (t[len - 2] - '0') * 8 +
                                                 (t[len - 1] - '0'));
                        if (v < 256) {
                                len -= 4;
                                t[len++] = (char) v;
                        }
                }
        }
        t[len] = '\0';
        same = strcmp(t, want) == 0; /* a NUL inside cuts the token, as in the lexer */
        free(t);
        return same;
}

/* Whether `path` is the first token of some line of `pt`. Sound, not
 * exact: a line starts at the input's start and after every newline except
 * one a backslash continues (unless that line has a '#': the backslash may
 * end a comment, which does not continue); blanks, NULs and continuations
 * before the token are skipped, as the lexer skips them. Each candidate is
 * read with token_is(). A client token (which follows a path on its line)
 * is therefore never taken for a path named by the input. */
static bool named_as_path(const struct part *pt, const char *path) {
        const char *p = pt->data, *end = pt->data + pt->size, *line = p;

        for (const char *s = p; s <= end; s++) {
                if (s != p) {
                        if (s[-1] != '\n')
                                continue;
                        if (s - 2 >= p && s[-2] == '\\' && !memchr(line, '#', (size_t) (s - 2 - line))) {
                                continue;
                        }
                        line = s;
                }
                const char *q = s;
                while (q < end && (*q == ' ' || *q == '\t' || *q == '\0' ||
                                   (*q == '\\' && q + 1 < end && q[1] == '\n'))) {
                        q += *q == '\\' ? 2 : 1;
                }
                if (q < end && token_is(q, end, path))
                        return true;
        }
        return false;
}

/* One value of RequiresMountsFor= as systemd 252 reads it: one word of
 * extract_first_word(EXTRACT_UNQUOTE) (no C unescaping; a backslash takes
 * the next byte as it is), then specifiers ("%%" is '%', any other '%' would
 * be expanded: not allowed). The value must be exactly one word. */
static char *unquote_path_value(const char *v) {
        size_t len = 0;
        char *w = malloc(strlen(v) + 1), quote = 0;
        const char *p = v;

        if (!w)
                fail("out of memory");
        while (*p == ' ' || *p == '\t')
                p++;
        for (; *p; p++) {
                /* a backslash takes the next byte as it is, quoted or not */
                if (*p == '\\') {
                        if (!p[1])
                                fail("RequiresMountsFor=%s ends in a backslash", v);
                        w[len++] = *++p;
                        continue;
                }
                if (quote) {
                        if (*p == quote)
                                quote = 0;
                        else
                                w[len++] = *p;
                        continue;
                }
                if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
                        break;
                if (*p == '"' || *p == '\'')
                        quote = *p;
                else
                        w[len++] = *p;
        }
        if (quote)
                fail("RequiresMountsFor=%s has an unterminated quote", v);
        while (*p == ' ' || *p == '\t')
                p++;
        if (*p)
                fail("RequiresMountsFor=%s is more than one path", v);
        w[len] = '\0';

        /* specifiers */
        size_t o = 0;
        for (size_t i = 0; i < len; i++) {
                if (w[i] == '%') {
                        if (w[i + 1] != '%')
                                fail("RequiresMountsFor=%s has a specifier %%%c", v, w[i + 1]);
                        i++;
                }
                w[o++] = w[i];
        }
        w[o] = '\0';
        return w;
}

struct lines {
        char **v;
        size_t n;
};

static void lines_add(struct lines *l, const char *s) {
        char **grown = reallocarray(l->v, l->n + 1, sizeof(*l->v));
        if (!grown || !(grown[l->n] = strdup(s)))
                fail("out of memory");
        l->v = grown;
        l->n++;
}

static bool lines_has(const struct lines *l, const char *s) {
        for (size_t i = 0; i < l->n; i++)
                if (strcmp(l->v[i], s) == 0)
                        return true;
        return false;
}

static void lines_free(struct lines *l) {
        for (size_t i = 0; i < l->n; i++)
                free(l->v[i]);
        free(l->v);
        *l = (struct lines){};
}

/* What a unit file holds, by key, after properties 2 and 4 were checked. */
struct unit_text {
        struct lines rmf, before, requires, after, where, wants;
};

static char *read_whole(int dirfd, const char *name, size_t *ret_size) {
        int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        char *data;

        if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
                fail("written %s is not a regular file", name);
        data = malloc((size_t) st.st_size + 1);
        if (!data || read(fd, data, (size_t) st.st_size) != st.st_size)
                fail("cannot read written %s", name);
        data[st.st_size] = '\0';
        close(fd);
        *ret_size = (size_t) st.st_size;
        return data;
}

/* Properties 2 and 4 on one written file; its values by key in *u. */
static void check_unit_file(int dirfd, const char *name, const char *const *keys,
                            const char *const *sections, struct unit_text *u) {
        size_t size;
        char *data = read_whole(dirfd, name, &size);

        if (memchr(data, '\0', size))
                fail("%s has a NUL byte", name);
        if (size == 0 || data[size - 1] != '\n')
                fail("%s does not end with a newline", name);
        for (char *line = data, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
                *nl = '\0';
                if (nl > line && nl[-1] == '\\')
                        fail("%s: line \"%s\" ends in a backslash (continues onto the next)", name, line);
                if (strchr(line, '\r'))
                        fail("%s: line \"%s\" has a carriage return", name, line);
                if (line[0] == '\0' || line[0] == '#')
                        continue;
                if (line[0] == '[') {
                        bool ok = false;
                        for (size_t i = 0; sections[i]; i++)
                                ok |= strcmp(line, sections[i]) == 0;
                        if (!ok)
                                fail("%s: section \"%s\" is not one the generators write here", name, line);
                        continue;
                }
                char *eq = strchr(line, '=');
                if (!eq)
                        fail("%s: line \"%s\" is neither a comment nor Key=value", name, line);
                *eq = '\0';
                const char *value = eq + 1;
                bool ok = false;
                for (size_t i = 0; keys[i]; i++)
                        ok |= strcmp(line, keys[i]) == 0;
                if (!ok)
                        fail("%s: key \"%s\" is not one the generators write here", name, line);
                if (strcmp(line, "RequiresMountsFor") == 0) {
                        char *path = unquote_path_value(value);
                        lines_add(&u->rmf, path);
                        free(path);
                } else if (strcmp(line, "Before") == 0)
                        lines_add(&u->before, value);
                else if (strcmp(line, "Requires") == 0)
                        lines_add(&u->requires, value);
                else if (strcmp(line, "After") == 0)
                        lines_add(&u->after, value);
                else if (strcmp(line, "Where") == 0)
                        lines_add(&u->where, value);
                else if (strcmp(line, "Wants") == 0)
                        lines_add(&u->wants, value);
        }
        free(data);
}

/* Property 1. */
static void check_no_cycle(const struct unit_text *u) {
        for (size_t i = 0; i < u->rmf.n; i++) {
                _cleanup_free_ char *p = NULL;
                if (path_normalize(u->rmf.v[i], false, &p, NULL) < 0 || strcmp(p, u->rmf.v[i]) != 0)
                        fail("RequiresMountsFor=%s is not a normalised absolute path", u->rmf.v[i]);
                do {
                        _cleanup_free_ char *unit = NULL;
                        if (unit_name_from_path(p, "mount", &unit) >= 0 && lines_has(&u->before, unit))
                                fail("ordering cycle: RequiresMountsFor=%s needs %s, which is in Before=",
                                     u->rmf.v[i], unit);
                } while (path_cut_last(p));
        }
        for (size_t i = 0; i < u->requires.n; i++)
                if (lines_has(&u->before, u->requires.v[i]))
                        fail("ordering cycle: Requires=%s is in Before=", u->requires.v[i]);
        for (size_t i = 0; i < u->after.n; i++)
                if (lines_has(&u->before, u->after.v[i]))
                        fail("ordering cycle: After=%s is in Before=", u->after.v[i]);
}

/* Property 3. */
static void check_paths_named(const struct unit_text *u, const struct server_pipeline *sp,
                              const struct part *parts, size_t n_parts) {
        struct lines served = {};

        for (size_t i = 0; i < sp->exports.n; i++) {
                const char *path = sp->exports.entries[i].path;
                bool named = n_parts > 0 && named_as_path(&parts[0], path);
                char name[NAME_MAX + 1];
                const char *dir;
                struct part content;

                for (size_t j = 4; j < n_parts && !named; j++)
                        named = named_file(&parts[j], &dir, name, &content) &&
                                strcmp(dir, "exports.d") == 0 && named_as_path(&content, path);
                if (path[0] != '/' || !named)
                        fail("export path \"%s\" (%s:%u) is not a path any line of the input names", path,
                             sp->exports.entries[i].file, sp->exports.entries[i].line);
                char *s = NULL;
                if (export_path_served(sp->export_root, path, &s, NULL) >= 0) {
                        lines_add(&served, s);
                        free(s);
                }
        }
        for (size_t i = 0; i < u->rmf.n; i++)
                if (!lines_has(&served, u->rmf.v[i]))
                        fail("RequiresMountsFor=%s is no exported path", u->rmf.v[i]);
        lines_free(&served);
}

static void unit_text_free(struct unit_text *u) {
        lines_free(&u->rmf);
        lines_free(&u->before);
        lines_free(&u->requires);
        lines_free(&u->after);
        lines_free(&u->where);
        lines_free(&u->wants);
}

/* A drop-in directory NAME below `parent_fd`: it holds the one file `file`, a
 * [Unit] section with only `keys` (properties 2 and 4), read into `u`. */
static void check_dropin_dir(int parent_fd, const char *name, const char *file, const char *const *keys,
                             struct unit_text *u) {
        static const char *const unit_only[] = {"[Unit]", NULL};
        int sub = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        DIR *sd = sub >= 0 ? fdopendir(sub) : NULL;
        struct dirent *se;

        if (!sd)
                fail("cannot open %s: %m", name);
        while ((se = readdir(sd)))
                if (strcmp(se->d_name, ".") != 0 && strcmp(se->d_name, "..") != 0 &&
                    strcmp(se->d_name, file) != 0)
                        fail("unexpected file %s/%s", name, se->d_name);
        check_unit_file(dirfd(sd), file, keys, unit_only, u);
        closedir(sd);
}

/* The loopback re-export item whose mount unit's drop-in directory is
 * `name` ("srv-re.mount.d"), or NULL. */
static const struct order_item *reexport_item_of_dir(const struct server_pipeline *sp, const char *name) {
        for (size_t i = 0; i < sp->order.n; i++) {
                const struct order_item *it = &sp->order.items[i];
                size_t n;
                if (it->kind != ORDER_BEFORE_MOUNT_UNIT || !it->withdraw_unit)
                        continue;
                n = strlen(it->unit);
                if (strncmp(name, it->unit, n) == 0 && strcmp(name + n, ".d") == 0)
                        return it;
        }
        return NULL;
}

/* How many mount drop-ins the decision calls for (mount units are distinct). */
static size_t count_withdrawn(const struct server_pipeline *sp) {
        size_t n = 0;
        for (size_t i = 0; i < sp->order.n; i++)
                n += sp->order.items[i].kind == ORDER_BEFORE_MOUNT_UNIT && sp->order.items[i].withdraw_unit;
        return n;
}

static void check_output(const struct server_pipeline *sp, const struct pipefs_pipeline *pp,
                         const struct part *parts, size_t n_parts) {
        static const char *const dropin_keys[] = {"RequiresMountsFor", "Requires", "After", "Before", NULL};
        static const char *const mount_keys[] = {"Description", "Documentation", "DefaultDependencies",
                                                 "After",       "Conflicts",     "What",
                                                 "Where",       "Type",          NULL};
        static const char *const target_keys[] = {"Description", "Documentation", "Requires", "After", NULL};
        static const char *const unit_only[] = {"[Unit]", NULL};
        static const char *const unit_mount[] = {"[Unit]", "[Mount]", NULL};
        static const char *const reexport_keys[] = {"Wants", NULL};
        const struct order_item *withdraw;
        size_t n_reexport_dirs = 0;
        char path[PATH_MAX + 32];
        struct dirent *de;
        DIR *d;
        size_t n_files = 0;

        snprintf(path, sizeof(path), "%s/out", scratch);
        d = opendir(path);
        if (!d)
                fail("cannot open %s: %m", path);
        while ((de = readdir(d))) {
                struct unit_text u = {};

                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                        continue;
                n_files++;
                if (strcmp(de->d_name, "nfs-server.service.d") == 0) {
                        if (!sp->order.anything_exported)
                                fail("a drop-in written with nothing exported");
                        check_dropin_dir(dirfd(d), de->d_name, SERVER_DROPIN_NAME, dropin_keys, &u);
                        check_no_cycle(&u);
                        check_paths_named(&u, sp, parts, n_parts);
                } else if ((withdraw = reexport_item_of_dir(sp, de->d_name))) {
                        /* a loopback re-export mount's drop-in: one file, one Wants=,
                         * the instance for exactly this mount */
                        check_dropin_dir(dirfd(d), de->d_name, REEXPORT_DROPIN_NAME, reexport_keys, &u);
                        if (u.wants.n != 1 || strcmp(u.wants.v[0], withdraw->withdraw_unit) != 0)
                                fail("%s/%s does not want exactly %s", de->d_name, REEXPORT_DROPIN_NAME,
                                     withdraw->withdraw_unit);
                        n_reexport_dirs++;
                } else if (pp->plan.generate && strcmp(de->d_name, pp->plan.unit) == 0) {
                        check_unit_file(dirfd(d), de->d_name, mount_keys, unit_mount, &u);
                        if (u.where.n != 1)
                                fail("%s has %zu Where= lines", de->d_name, u.where.n);
                        /* Where= is verbatim but for specifiers: it names this unit */
                        _cleanup_free_ char *where = strdup(u.where.v[0]), *unit = NULL;
                        size_t o = 0;
                        for (size_t i = 0; where[i]; i++) {
                                if (where[i] == '%' && where[++i] != '%')
                                        fail("%s: Where= has a specifier", de->d_name);
                                where[o++] = where[i];
                        }
                        where[o] = '\0';
                        if (unit_name_from_path(where, "mount", &unit) < 0 || strcmp(unit, de->d_name) != 0)
                                fail("%s: Where=%s names another unit (%s)", de->d_name, u.where.v[0],
                                     strempty(unit));
                } else if (pp->plan.generate && strcmp(de->d_name, "rpc_pipefs.target") == 0)
                        check_unit_file(dirfd(d), de->d_name, target_keys, unit_only, &u);
                else
                        fail("unexpected file %s in the output directory", de->d_name);
                unit_text_free(&u);
        }
        closedir(d);
        if (n_reexport_dirs != count_withdrawn(sp))
                fail("%zu re-export drop-ins written, expected %zu", n_reexport_dirs, count_withdrawn(sp));
        if (n_files !=
            (size_t) sp->order.anything_exported + 2 * (size_t) pp->plan.generate + n_reexport_dirs)
                fail("%zu files written, expected %zu", n_files,
                     (size_t) sp->order.anything_exported + 2 * (size_t) pp->plan.generate +
                             n_reexport_dirs);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
        const char *dir = getenv("FUZZ_ROOT_KEEP");

        (void) argc;
        (void) argv;
        log_setup("fuzz-root");
        log_set_max_level(LOG_LEVEL_ERR);
        if (dir) {
                snprintf(scratch, sizeof(scratch), "%s", dir);
                (void) mkdir(scratch, 0755);
                return 0;
        }
        snprintf(scratch, sizeof(scratch), "%s/fuzz-root.XXXXXX", getenv("TMPDIR") ?: "/tmp");
        if (!mkdtemp(scratch))
                fail("cannot make a scratch directory: %m");
        atexit(remove_scratch);
        return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        struct part parts[MAX_PARTS];
        size_t n_parts = split(data, size, parts);
        struct server_pipeline sp = {};
        struct pipefs_pipeline pp = {};
        struct rootfs root = {.fd = -1};
        char path[PATH_MAX + 32];

        make_root(parts, n_parts);
        snprintf(path, sizeof(path), "%s/root", scratch);
        if (rootfs_open(path, &root) < 0)
                fail("cannot open %s: %m", path);
        snprintf(path, sizeof(path), "%s/out", scratch);

        if (server_pipeline_decide(&root, &sp) < 0 || server_pipeline_write(&sp, &root, path) < 0)
                fail("nfs-server-generator's pipeline failed on a healthy output directory");
        if (pipefs_pipeline_decide(&root, &pp) < 0 || pipefs_pipeline_write(&pp, path) < 0)
                fail("rpc-pipefs-generator's pipeline failed on a healthy output directory");
        check_output(&sp, &pp, parts, n_parts);

        server_pipeline_free(&sp);
        pipefs_pipeline_free(&pp);
        rootfs_close(&root);
        return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <assert.h>
#include <errno.h>
#include <libmount.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arena.h"
#include "array.h"
#include "buf.h"
#include "canonical_paths.h"
#include "escape.h"
#include "fstab.h"

/* libmount reports bad lines through a callback; we keep their numbers so
 * that entries can be matched with the lines they came from. */
struct parse_state {
        unsigned *bad_lines; /* in the whole file */
        size_t n_bad, cap_bad;
        unsigned lines_before; /* the lines of the file before the piece libmount parses */
        int error;
};

static int on_parse_error(struct libmnt_table *tb, const char *filename _unused_, int line) {
        struct parse_state *st = mnt_table_get_userdata(tb);

        if (array_reserve(&st->bad_lines, &st->cap_bad, st->n_bad + 1, sizeof(*st->bad_lines)) < 0) {
                st->error = -ENOMEM;
                return -1;
        }
        st->bad_lines[st->n_bad++] = st->lines_before + (unsigned) line;
        return 1; /* skip the line, keep going */
}

/* The second field of an fstab line as glibc's getmntent() hands it to
 * systemd-fstab-generator (systemd 252 and 257 read fstab through it):
 * fields split at blanks, and only "\040", "\011", "\012", "\134" and "\\"
 * decoded (decode_name() in glibc's mntent_r.c); any other octal escape
 * stays as written, backslash included, although libmount decodes them all.
 * Measured with both releases' generators: "/mnt/caf\303\251" is the unit
 * mnt-caf\x5c303\x5c251.mount. Written into `out` (emptied first), which
 * every line reuses. */
static void getmntent_mount_point(const char *line, struct buf *out) {
        static const struct {
                const char *escape;
                char byte;
        } decoded[] = {{"\\040", ' '}, {"\\011", '\t'}, {"\\012", '\n'}, {"\\134", '\\'}, {"\\\\", '\\'}};
        const char *p = line + strspn(line, " \t");
        size_t n;
        char *o;

        p += strcspn(p, " \t\n"); /* the source */
        p += strspn(p, " \t");
        n = strcspn(p, " \t\n");
        out->len = 0;
        if (!buf_reserve(out, n))
                return;
        o = out->data;
        for (size_t i = 0; i < n;) {
                size_t k = 0;
                if (p[i] != '\\') {
                        *o++ = p[i++];
                        continue;
                }
                while (k < ELEMENTSOF(decoded) &&
                       !(strlen(decoded[k].escape) <= n - i &&
                         strncmp(p + i, decoded[k].escape, strlen(decoded[k].escape)) == 0))
                        k++;
                if (k < ELEMENTSOF(decoded)) {
                        *o++ = decoded[k].byte;
                        i += strlen(decoded[k].escape);
                } else
                        *o++ = p[i++];
        }
        *o = '\0';
        out->len = (size_t) (o - out->data);
}

/* The file is parsed a piece at a time: libmount parses each piece of
 * whole lines into the same table (so the format it guesses from the first
 * line holds for all of them), every entry is copied and freed, and the next
 * piece reuses the memory. libmount's table of 20,000 lines is some 10 MiB,
 * most of the page faults of a run; a piece of 256 lines, some 128 KiB.
 * (1,024-line pieces faulted in 80 pages more.) */
#define FSTAB_PIECE_LINES 256
/* the mounts array is made once for up to this many lines; a larger file
 * grows it */
#define FSTAB_RESERVE_LINES_MAX (128 * 1024)

/* The whole of `f` into `ret` (NUL-terminated), read once: the lines are
 * counted, cut into pieces and read for their mount points there. Freed
 * after the parse, its memory takes the tables decided next. -ENOMEM, or
 * -EIO on a read error. */
static int read_all(FILE *f, struct buf *ret) {
        struct stat st;
        size_t k;

        /* the size as a hint (a stream in memory has no descriptor) */
        if (fileno(f) >= 0 && fstat(fileno(f), &st) == 0 && st.st_size > 0)
                buf_reserve(ret, (size_t) st.st_size);
        do {
                /* a request as large as the room: glibc reads it directly */
                if (!buf_reserve(ret, 64 * 1024))
                        return -ENOMEM;
                k = fread(ret->data + ret->len, 1, ret->cap - ret->len - 1, f);
                ret->len += k;
                ret->data[ret->len] = '\0';
        } while (k > 0);
        return ferror(f) ? -EIO : 0;
}

/* The end of the piece starting at `p`: after up to FSTAB_PIECE_LINES lines
 * (the last one may have no newline); their number in *ret_n */
static const char *piece_end(const char *p, const char *end, unsigned *ret_n) {
        unsigned n = 0;

        while (p < end && n < FSTAB_PIECE_LINES) {
                const char *eol = memchr(p, '\n', (size_t) (end - p));
                p = eol ? eol + 1 : end;
                n++;
        }
        *ret_n = n;
        return p;
}

/* How many lines there are: a bound on the entries, so that the mounts
 * array is made once. */
static size_t lines_in(const char *p, const char *end) {
        size_t n = 1;

        while ((p = memchr(p, '\n', (size_t) (end - p))))
                n++, p++;
        return n;
}

/* The lines of the piece libmount turned into entries (not blank, not a
 * comment, not one it rejected), in order, one at a time, in step with its
 * table. */
struct entry_reader {
        const char *p, *end; /* the rest of the piece */
        const struct parse_state *st;
        bool read_mount_points;
        struct buf line; /* the current line, NUL-terminated as getline() gives it */
        unsigned lineno; /* in the whole file */
        size_t bad;      /* the first of st->bad_lines not passed yet */
        /* the current entry's mount point field as getmntent() reads it */
        struct buf mount_point;
};

/* The next entry line: its number in *ret_line and, with
 * `read_mount_points`, its mount point field in *ret_mount_point (valid
 * until the next call). 1 when there is one, 0 at the end, -ENOMEM. */
static int entry_reader_next(struct entry_reader *rd, unsigned *ret_line, const char **ret_mount_point) {
        const struct parse_state *st = rd->st;

        while (rd->p < rd->end) {
                const char *eol = memchr(rd->p, '\n', (size_t) (rd->end - rd->p));
                size_t len = eol ? (size_t) (eol + 1 - rd->p) : (size_t) (rd->end - rd->p);
                const char *p;

                rd->line.len = 0;
                buf_append(&rd->line, rd->p, len);
                if (buf_status(&rd->line) < 0)
                        return -ENOMEM;
                rd->p += len;
                rd->lineno++;
                p = rd->line.data + strspn(rd->line.data, " \t\r\n");
                if (*p == '\0' || *p == '#')
                        continue;
                while (rd->bad < st->n_bad && st->bad_lines[rd->bad] < rd->lineno)
                        rd->bad++;
                if (rd->bad < st->n_bad && st->bad_lines[rd->bad] == rd->lineno)
                        continue;
                *ret_line = rd->lineno;
                *ret_mount_point = NULL;
                if (rd->read_mount_points) {
                        getmntent_mount_point(rd->line.data, &rd->mount_point);
                        if (buf_status(&rd->mount_point) < 0)
                                return -ENOMEM;
                        *ret_mount_point = rd->mount_point.data;
                }
                return 1;
        }
        return 0;
}

static void entry_reader_done(struct entry_reader *rd) {
        buf_free(&rd->line);
        buf_free(&rd->mount_point);
}

bool mount_option_next(const char **cursor, struct mount_option *ret) {
        char *p = (char *) *cursor, *name, *value;
        size_t name_size, value_size;

        if (mnt_optstr_next_option(&p, &name, &name_size, &value, &value_size) != 0)
                return false;
        *ret = (struct mount_option){
                .name = name, .name_size = name_size, .value = value, .value_size = value ? value_size : 0};
        *cursor = p;
        return true;
}

/* The flags that matter, in one pass over the options, and none when no
 * option could be one of them. */
static void read_flags(struct fstab_mount *m) {
        struct mount_option o;

        if (strstr(m->options, "noauto") || strstr(m->options, "nofail") || strstr(m->options, "_netdev"))
                for (const char *p = m->options; mount_option_next(&p, &o);) {
                        if (mount_option_is(&o, "noauto"))
                                m->noauto = true;
                        else if (mount_option_is(&o, "nofail"))
                                m->nofail = true;
                        else if (mount_option_is(&o, "_netdev"))
                                m->netdev = true;
                }
        m->nfs = strcmp(m->fstype, "nfs") == 0 || strcmp(m->fstype, "nfs4") == 0;
}

/* `mount_point`: the entry's mount point as getmntent() reads it (NULL:
 * as libmount does); `line`: its line (0: not known) */
static int table_add(struct fstab_table *t, struct libmnt_fs *fs, unsigned line, const char *mount_point,
                     struct canonical_paths *names, struct diag_list *diags) {
        const char *target = mount_point ? mount_point : mnt_fs_get_target(fs);
        const char *type = mnt_fs_get_fstype(fs);
        const char *source = mnt_fs_get_source(fs);
        const char *options = mnt_fs_get_options(fs);
        struct fstab_mount m = {.line = line};
        _cleanup_free_ char *canonical = NULL;
        char where[PATH_MAX + 1];
        int r;

        if (!target || strcmp(target, "none") == 0 || (type && strcmp(type, "swap") == 0))
                return 0; /* swap, "none": not a mount point */
        if (target[0] != '/') {
                /* systemd-fstab-generator ignores it ("not a valid path"). The
                 * common cause: one entry written over two lines, whose second
                 * line ("rw,_netdev 0 0") reads as source, mount point "0" and
                 * type "0", while the first is mounted without those options. */
                _cleanup_free_ char *shown = escape_for_comment(target);
                return shown ? diag_add(
                                       diags, DIAG_WARNING, t->file, line,
                                       "mount point \"%s\" is not an absolute path, so systemd ignores this "
                                       "line; if it continues the line before it (an entry split over two "
                                       "lines, "
                                       "whose options are then lost), join the two: an entry is one line",
                                       shown)
                             : -ENOMEM;
        }

        /* the name systemd-fstab-generator gives the mount point: symbolic
         * links and ".." resolved where the path exists (else as written) */
        if (names) {
                r = canonical_paths_resolve(names, target, &canonical);
                if (r == -ENOMEM)
                        return r;
        }
        r = path_normalize_into(canonical ? canonical : target, false, where, NULL);
        if (r < 0) {
                _cleanup_free_ char *shown = escape_for_comment(target);
                return shown ? diag_add(
                                       diags, DIAG_WARNING, t->file, line,
                                       "mount point \"%s\" is not a normalised path systemd can name a unit "
                                       "for; ignoring this line",
                                       shown)
                             : -ENOMEM;
        }
        m.where = arena_strdup(&t->strings, where);
        m.what = arena_strdup(&t->strings, strempty(source));
        m.fstype = arena_strdup(&t->strings, type ? type : "auto");
        m.options = arena_strdup(&t->strings, strempty(options));
        if (!m.where || !m.what || !m.fstype || !m.options)
                return -ENOMEM;
        m.freq = mnt_fs_get_freq(fs);
        m.passno = mnt_fs_get_passno(fs);
        read_flags(&m);
        if (array_reserve(&t->mounts, &t->cap, t->n + 1, sizeof(*t->mounts)) < 0)
                return -ENOMEM;
        t->mounts[t->n++] = m;
        return 0;
}

/* After the table is complete (the map points into it): who owns each mount
 * point, and a warning for every line that loses. */
static int find_owners(struct fstab_table *t, struct diag_list *diags) {
        int r = strmap_reserve(&t->owners, t->n);

        if (r < 0)
                return r;
        for (size_t i = 0; i < t->n; i++) {
                struct fstab_mount *m = &t->mounts[i];
                struct fstab_mount *owner;

                r = strmap_put(&t->owners, m->where, m, (void **) &owner);

                if (r < 0)
                        return r;
                if (r > 0)
                        continue;
                _cleanup_free_ char *shown = escape_for_comment(m->where);
                if (!shown)
                        return -ENOMEM;
                m->shadowed = true;
                r = diag_add(
                        diags, DIAG_WARNING, t->file, m->line,
                        "mount point %s is already mounted by %s:%u (type %s): systemd uses only the first "
                        "line for a mount point and ignores this one, so do we",
                        shown, t->file, owner->line, owner->fstype);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int unit_mount_add(struct fstab_table *t, const struct mount_unit *u) {
        struct fstab_mount m = {.line = u->line, .options_line = u->options_line, .masked = u->masked};
        struct arena *a = &t->strings;

        m.where = arena_strdup(a, u->where ? u->where : "");
        m.what = arena_strdup(a, strempty(u->what));
        m.fstype = arena_strdup(a, u->type && *u->type ? u->type : "auto");
        m.options = arena_strdup(a, strempty(u->options));
        m.unit_file = arena_strdup(a, u->path);
        if (!m.where || !m.what || !m.fstype || !m.options || !m.unit_file ||
            !arena_copy_optional(a, &m.options_file, u->options_path) ||
            !arena_copy_optional(a, &m.mount_timeout, u->timeout) ||
            !arena_copy_optional(a, &m.automount_file, u->automount_path) ||
            !arena_copy_optional(a, &m.idle_timeout, u->automount_timeout) ||
            array_reserve(&t->mounts, &t->cap, t->n + 1, sizeof(*t->mounts)) < 0)
                return -ENOMEM;
        read_flags(&m);
        /* a unit is started when something wants it, whatever its
         * Options= say; a masked one is never started */
        m.noauto = false;
        m.nfs &= !m.masked;
        t->mounts[t->n++] = m;
        return 0;
}

/* The loser `m` of a mount point against `owner`, in words */
static int report_shadowed(const struct fstab_table *t, const struct fstab_mount *m,
                           const struct fstab_mount *owner, struct diag_list *diags) {
        _cleanup_free_ char *where = escape_for_comment(m->where);

        if (!where)
                return -ENOMEM;
        if (owner->unit_file && owner->masked)
                return diag_add(
                        diags, DIAG_WARNING, fstab_mount_file(t, m), m->line,
                        "mount point %s is masked by %s (a link to /dev/null, an empty file or a device "
                        "node): systemd does not "
                        "mount it, so we ignore this declaration",
                        where, owner->unit_file);
        if (owner->unit_file)
                return diag_add(diags, DIAG_WARNING, fstab_mount_file(t, m), m->line,
                                "mount point %s is also declared by %s, which systemd loads instead of the "
                                "unit systemd-fstab-generator makes from this line; so do we",
                                where, owner->unit_file);
        return diag_add(diags, DIAG_WARNING, fstab_mount_file(t, m), m->line,
                        "mount point %s is also on %s:%u, whose unit (from systemd-fstab-generator) systemd "
                        "loads before this one; we ignore this unit too",
                        where, fstab_mount_file(t, owner), owner->line);
}

int fstab_add_mount_units(struct fstab_table *t, const struct mount_unit_list *units,
                          struct diag_list *diags) {
        size_t first_unit = t->n;
        int r;

        /* no unit: who owns what stays as fstab_parse() settled it */
        if (units->n == 0)
                return 0;
        for (size_t i = 0; i < units->n; i++) {
                r = unit_mount_add(t, &units->units[i]);
                if (r < 0)
                        return r;
        }
        /* the map points into the array, which may have moved: build it
         * again, in precedence order, first come first served */
        strmap_free(&t->owners);
        for (unsigned pass = 0; pass < 3; pass++)
                for (size_t i = 0; i < t->n; i++) {
                        struct fstab_mount *m = &t->mounts[i], *owner;
                        bool unit = i >= first_unit;
                        bool early = unit && units->units[i - first_unit].before_fstab;

                        if (pass != (early ? 0u : unit ? 2u : 1u) || m->shadowed)
                                continue;
                        r = strmap_put(&t->owners, m->where, m, (void **) &owner);
                        if (r < 0)
                                return r;
                        if (r > 0)
                                continue;
                        m->shadowed = true;
                        r = report_shadowed(t, m, owner, diags);
                        if (r < 0)
                                return r;
                }
        return 0;
}

bool fstab_declares_file(const struct fstab_table *t, const char *file) {
        if (strcmp(file, t->file ? t->file : "/etc/fstab") == 0)
                return true;
        for (size_t i = 0; i < t->n; i++)
                if (t->mounts[i].unit_file && strcmp(t->mounts[i].unit_file, file) == 0)
                        return true;
        return false;
}

const struct fstab_mount *fstab_owner(const struct fstab_table *t, const char *where) {
        return strmap_get(&t->owners, where);
}

const struct fstab_mount *fstab_first_mount_below(const struct fstab_table *t, const char *path) {
        for (size_t i = 0; i < t->n; i++) {
                const struct fstab_mount *m = &t->mounts[i];
                if (!m->shadowed && !m->masked && strcmp(m->where, path) != 0 &&
                    path_is_at_or_below(m->where, path))
                        return m;
        }
        return NULL;
}

/* `as_fstab`: mount points as systemd-fstab-generator reads an fstab; else
 * as libmount decodes them (mountinfo, which the kernel escapes that way) */
static int parse_table(struct fstab_table *t, FILE *f, const char *file, const struct rootfs *root,
                       bool as_fstab, struct diag_list *diags) {
        struct parse_state st = {};
        struct libmnt_table *tb;
        struct libmnt_fs *fs;
        struct entry_reader lines = {.st = &st, .read_mount_points = as_fstab};
        _cleanup_(canonical_paths_freep) struct canonical_paths *names = NULL;
        _cleanup_(buf_free) struct buf text = {};
        const char *piece, *text_end;
        size_t n_before = t->n, reserve;
        /* what table_add() finds, told after the malformed lines, as when
         * the whole file was parsed first */
        struct diag_list mount_diags = {};
        int r;

        assert(t);
        assert(f);
        assert(file);

        if (root) {
                names = canonical_paths_new(root);
                if (!names)
                        return -ENOMEM;
        }

        t->file = file;
        r = read_all(f, &text);
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                /* what libmount says when its getline() fails */
                return diag_add(diags, DIAG_ERROR, file, 0, "cannot be parsed: %s; ignoring it",
                                strerror(EINVAL));
        }
        piece = text.data ? text.data : "";
        text_end = piece + text.len;
        reserve = lines_in(piece, text_end);
        if (reserve > FSTAB_RESERVE_LINES_MAX)
                reserve = FSTAB_RESERVE_LINES_MAX;
        if (array_reserve(&t->mounts, &t->cap, t->n + reserve, sizeof(*t->mounts)) < 0)
                return -ENOMEM;
        tb = mnt_new_table();
        if (!tb)
                return -ENOMEM;
        mnt_table_set_userdata(tb, &st);
        mnt_table_set_parser_errcb(tb, on_parse_error);
        while (piece < text_end) {
                unsigned n_lines;
                const char *next = piece_end(piece, text_end, &n_lines);
                FILE *piece_file;

                /* read only: the cast is fmemopen()'s */
                piece_file = fmemopen((char *) piece, (size_t) (next - piece), "r");
                if (!piece_file) {
                        r = -ENOMEM;
                        goto finish;
                }
                r = mnt_table_parse_stream(tb, piece_file, file);
                fclose(piece_file);
                if (st.error < 0) {
                        r = st.error;
                        goto finish;
                }
                if (r < 0)
                        goto unparsable;

                lines.p = piece;
                lines.end = next;
                while (mnt_table_first_fs(tb, &fs) == 0) {
                        const char *mount_point = NULL;
                        unsigned lineno = 0;

                        r = entry_reader_next(&lines, &lineno, &mount_point);
                        if (r >= 0)
                                r = table_add(t, fs, lineno, mount_point, names,
                                              diags ? &mount_diags : NULL);
                        mnt_table_remove_fs(tb, fs);
                        if (r < 0)
                                goto finish;
                }
                /* a line libmount took no entry from is still counted */
                while (lines.p < lines.end) {
                        const char *eol = memchr(lines.p, '\n', (size_t) (lines.end - lines.p));
                        lines.p = eol ? eol + 1 : lines.end;
                        lines.lineno++;
                }
                st.lines_before += n_lines;
                piece = next;
        }

        for (size_t b = 0; b < st.n_bad; b++) {
                r = diag_add(diags, DIAG_WARNING, file, st.bad_lines[b],
                             "malformed fstab line; systemd and mount ignore it, so do we");
                if (r < 0)
                        goto finish;
        }
        r = diag_list_take(diags, &mount_diags);
        if (r >= 0)
                r = find_owners(t, diags);
        goto finish;

unparsable:
        /* nothing of the file counts, as when libmount failed on all of it */
        t->n = n_before;
        r = diag_add(diags, DIAG_ERROR, file, 0, "cannot be parsed: %s; ignoring it", strerror(-r));
finish:
        mnt_unref_table(tb);
        free(st.bad_lines);
        entry_reader_done(&lines);
        diag_list_free(&mount_diags);
        return r;
}

int fstab_parse(struct fstab_table *t, FILE *f, const char *file, struct diag_list *diags) {
        return parse_table(t, f, file, NULL, true, diags);
}

int fstab_parse_below(struct fstab_table *t, FILE *f, const char *file, const struct rootfs *root,
                      struct diag_list *diags) {
        return parse_table(t, f, file, root, true, diags);
}

int fstab_parse_mountinfo(struct fstab_table *t, FILE *f, const char *file, struct diag_list *diags) {
        return parse_table(t, f, file, NULL, false, diags);
}

int fstab_read(struct fstab_table *t, const struct rootfs *root, struct diag_list *diags) {
        static const char fstab_file[] = "/etc/fstab";
        _cleanup_fclose_ FILE *f = rootfs_fopen(root, fstab_file);

        t->file = fstab_file;
        if (!f) {
                if (errno == ENOENT)
                        return 0;
                return errno == ENOMEM
                               ? -ENOMEM
                               : diag_add(diags, DIAG_ERROR, fstab_file, 0,
                                          "cannot be read: %s; ignoring it", config_file_strerror(errno));
        }
        return fstab_parse_below(t, f, fstab_file, root, diags);
}

bool fstab_mount_has_option(const struct fstab_mount *m, const char *name, char **ret_value) {
        char *value = NULL;
        size_t size = 0;

        if (mnt_optstr_get_option(m->options, name, &value, &size) != 0)
                return false;
        if (ret_value)
                *ret_value = value ? strndup(value, size) : NULL;
        return true;
}

void fstab_table_free(struct fstab_table *t) {
        arena_free(&t->strings);
        free(t->mounts);
        strmap_free(&t->owners);
        *t = (struct fstab_table){};
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"

int finding_add(struct finding_list *l, enum diag_severity severity, const char *id, const char *file,
                unsigned line, const char *unit, char *message, char *fix) {
        struct finding f = {.severity = severity, .id = id, .line = line, .message = message, .fix = fix};

        if (!message || !fix)
                goto oom;
        if (l->n == l->cap) {
                size_t cap = l->cap ? l->cap * 2 : 16;
                struct finding *items = reallocarray(l->items, cap, sizeof(*items));
                if (!items)
                        goto oom;
                l->items = items;
                l->cap = cap;
        }
        f.file = file && *file ? strdup(file) : NULL;
        f.unit = unit ? strdup(unit) : NULL;
        if ((file && *file && !f.file) || (unit && !f.unit)) {
                free(f.file);
                free(f.unit);
                goto oom;
        }
        l->items[l->n++] = f;
        return 0;
oom:
        free(message);
        free(fix);
        return -ENOMEM;
}

void finding_list_sort(struct finding_list *l) {
        /* insertion sort: stable, and the lists are short */
        for (size_t i = 1; i < l->n; i++) {
                struct finding f = l->items[i];
                size_t j = i;
                while (j > 0 && l->items[j - 1].severity > f.severity) {
                        l->items[j] = l->items[j - 1];
                        j--;
                }
                l->items[j] = f;
        }
}

int finding_list_exit_status(const struct finding_list *l) {
        int status = 0;

        for (size_t i = 0; i < l->n; i++)
                if (l->items[i].severity == DIAG_ERROR)
                        return 2;
                else if (l->items[i].severity == DIAG_WARNING)
                        status = 1;
        return status;
}

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF), or 0 when the byte at s does not
 * start one. `n` bytes are available. */
static size_t utf8_sequence_length(const unsigned char *s, size_t n) {
        unsigned c = s[0];
        size_t len;
        unsigned cp;

        if (c < 0x80)
                return 1;
        if (c >= 0xc2 && c <= 0xdf)
                len = 2, cp = c & 0x1f;
        else if (c >= 0xe0 && c <= 0xef)
                len = 3, cp = c & 0x0f;
        else if (c >= 0xf0 && c <= 0xf4)
                len = 4, cp = c & 0x07;
        else
                return 0;
        if (n < len)
                return 0;
        for (size_t i = 1; i < len; i++) {
                if ((s[i] & 0xc0) != 0x80)
                        return 0;
                cp = (cp << 6) | (s[i] & 0x3f);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
                return 0;
        return len;
}

/* For a terminal: control characters and stray bytes must not reach it raw
 * (an escape sequence in a host name could rewrite the screen). */
static void put_human(struct buf *out, const char *s) {
        const unsigned char *p = (const unsigned char *) s;
        size_t n = strlen(s);

        while (n > 0) {
                size_t len = utf8_sequence_length(p, n);
                if (len == 0 || (len == 1 && (*p < 0x20 || *p == 0x7f))) {
                        buf_printf(out, "\\x%02x", *p);
                        len = 1;
                } else
                        buf_append(out, (const char *) p, len);
                p += len;
                n -= len;
        }
}

/* A JSON string. Well-formed UTF-8 is copied; quote, backslash and control
 * characters are escaped as JSON requires; a byte that is not part of
 * well-formed UTF-8 becomes \u00XX with XX the byte, so the output is always
 * valid JSON (a decoder sees the Latin-1 character of that byte: paths that
 * are not UTF-8 cannot be told apart from their Latin-1 reading, which
 * nfs-systemd-check(8) documents). */
static void put_json_string(struct buf *out, const char *s) {
        const unsigned char *p = (const unsigned char *) s;
        size_t n = strlen(s);

        buf_putc(out, '"');
        while (n > 0) {
                size_t len = utf8_sequence_length(p, n);
                if (len == 0) {
                        buf_printf(out, "\\u%04x", *p);
                        len = 1;
                } else if (len > 1)
                        buf_append(out, (const char *) p, len);
                else if (*p == '"')
                        buf_puts(out, "\\\"");
                else if (*p == '\\')
                        buf_puts(out, "\\\\");
                else if (*p == '\n')
                        buf_puts(out, "\\n");
                else if (*p == '\t')
                        buf_puts(out, "\\t");
                else if (*p < 0x20 || *p == 0x7f)
                        buf_printf(out, "\\u%04x", *p);
                else
                        buf_putc(out, (char) *p);
                p += len;
                n -= len;
        }
        buf_putc(out, '"');
}

static void put_json_string_or_null(struct buf *out, const char *s) {
        if (s)
                put_json_string(out, s);
        else
                buf_puts(out, "null");
}

int findings_render_human(const struct finding_list *l, struct buf *out) {
        size_t counts[3] = {};

        for (size_t i = 0; i < l->n; i++) {
                const struct finding *f = &l->items[i];

                counts[f->severity]++;
                buf_printf(out, "%s ", diag_severity_name(f->severity));
                if (f->file) {
                        put_human(out, f->file);
                        if (f->line > 0)
                                buf_printf(out, ":%u", f->line);
                } else
                        put_human(out, strempty(f->unit));
                buf_puts(out, ": ");
                put_human(out, f->message);
                buf_puts(out, "\n  fix: ");
                put_human(out, f->fix);
                buf_putc(out, '\n');
        }
        if (l->n == 0)
                buf_puts(out, "No problems found.\n");
        else
                buf_printf(out, "%zu error%s, %zu warning%s, %zu note%s.\n", counts[DIAG_ERROR],
                           counts[DIAG_ERROR] == 1 ? "" : "s", counts[DIAG_WARNING],
                           counts[DIAG_WARNING] == 1 ? "" : "s", counts[DIAG_NOTE],
                           counts[DIAG_NOTE] == 1 ? "" : "s");
        return buf_status(out);
}

int findings_render_json(const struct finding_list *l, struct buf *out) {
        buf_putc(out, '[');
        for (size_t i = 0; i < l->n; i++) {
                const struct finding *f = &l->items[i];

                buf_puts(out, i == 0 ? "\n" : ",\n");
                buf_puts(out, "{\"severity\":");
                put_json_string(out, diag_severity_name(f->severity));
                buf_puts(out, ",\"id\":");
                put_json_string(out, f->id);
                buf_puts(out, ",\"file\":");
                put_json_string_or_null(out, f->file);
                if (f->line > 0)
                        buf_printf(out, ",\"line\":%u", f->line);
                else
                        buf_puts(out, ",\"line\":null");
                buf_puts(out, ",\"unit\":");
                put_json_string_or_null(out, f->unit);
                buf_puts(out, ",\"message\":");
                put_json_string(out, f->message);
                buf_puts(out, ",\"fix\":");
                put_json_string(out, f->fix);
                buf_putc(out, '}');
        }
        buf_puts(out, l->n > 0 ? "\n]\n" : "]\n");
        return buf_status(out);
}

void finding_list_free(struct finding_list *l) {
        for (size_t i = 0; i < l->n; i++) {
                free(l->items[i].file);
                free(l->items[i].unit);
                free(l->items[i].message);
                free(l->items[i].fix);
        }
        free(l->items);
        *l = (struct finding_list){};
}

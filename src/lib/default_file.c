/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "buf.h"
#include "default_file.h"

static bool name_char(char c, bool first) {
        return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
               (!first && c >= '0' && c <= '9');
}

/* Reads the value of one assignment from p to end into `out`; false when it
 * is not one plain word or string (an expansion, a second statement, an
 * unterminated quote). */
static bool read_value(const char *p, const char *end, struct buf *out) {
        while (p < end && *p != ' ' && *p != '\t') {
                if (*p == '\'') {
                        const char *close = memchr(p + 1, '\'', (size_t) (end - p - 1));
                        if (!close)
                                return false;
                        buf_append(out, p + 1, (size_t) (close - p - 1));
                        p = close + 1;
                } else if (*p == '"') {
                        for (p++;; p++) {
                                if (p >= end)
                                        return false;
                                if (*p == '"')
                                        break;
                                if (*p == '$' || *p == '`')
                                        return false;
                                if (*p == '\\' && p + 1 < end && strchr("\\\"$`", p[1]))
                                        p++;
                                buf_putc(out, *p);
                        }
                        p++;
                } else if (strchr("$`\\;&|<>(){}", *p)) {
                        return false;
                } else {
                        buf_putc(out, *p);
                        p++;
                }
        }
        while (p < end && (*p == ' ' || *p == '\t'))
                p++;
        return p == end || *p == '#';
}

static int add_setting(struct default_file *f, const char *name, size_t name_len, const char *value,
                       unsigned line) {
        struct default_setting s = {.line = line};

        for (size_t i = 0; i < f->n; i++)
                if (strlen(f->items[i].name) == name_len && memcmp(f->items[i].name, name, name_len) == 0) {
                        char *v = strdup(value);
                        if (!v)
                                return -ENOMEM;
                        free(f->items[i].value);
                        f->items[i].value = v;
                        f->items[i].line = line;
                        return 0;
                }
        if (array_reserve(&f->items, &f->cap, f->n + 1, sizeof(*f->items)) < 0)
                return -ENOMEM;
        s.name = strndup(name, name_len);
        s.value = strdup(value);
        if (!s.name || !s.value) {
                free(s.name);
                free(s.value);
                return -ENOMEM;
        }
        f->items[f->n++] = s;
        return 0;
}

int default_file_parse(struct default_file *f, const char *data, size_t size) {
        const char *p = data, *end = data + size;
        _cleanup_(buf_free) struct buf value = {};
        unsigned line = 0;

        while (p < end) {
                const char *eol = memchr(p, '\n', (size_t) (end - p)), *nul;
                const char *name;
                size_t name_len;
                int r;

                if (!eol)
                        eol = end;
                nul = memchr(p, '\0', (size_t) (eol - p));
                line++;
                const char *stop = nul ? nul : eol;
                while (p < stop && (*p == ' ' || *p == '\t'))
                        p++;
                if (stop - p > 7 && memcmp(p, "export", 6) == 0 && (p[6] == ' ' || p[6] == '\t')) {
                        p += 7;
                        while (p < stop && (*p == ' ' || *p == '\t'))
                                p++;
                }
                name = p;
                while (p < stop && name_char(*p, p == name))
                        p++;
                name_len = (size_t) (p - name);
                if (name_len > 0 && p < stop && *p == '=') {
                        buf_clear(&value);
                        if (read_value(p + 1, stop, &value)) {
                                const char *v = buf_str(&value);
                                if (buf_status(&value) < 0)
                                        return -ENOMEM;
                                r = add_setting(f, name, name_len, v, line);
                                if (r < 0)
                                        return r;
                        }
                }
                p = eol < end ? eol + 1 : end;
        }
        return 0;
}

void default_file_free(struct default_file *f) {
        for (size_t i = 0; i < f->n; i++) {
                free(f->items[i].name);
                free(f->items[i].value);
        }
        free(f->items);
        *f = (struct default_file){};
}

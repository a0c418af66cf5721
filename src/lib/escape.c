/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "escape.h"
#include "siphash24.h"

/* systemd: UNIT_NAME_MAX, UNIT_NAME_HASH_LENGTH_CHARS, LONG_UNIT_NAME_HASH_KEY */
#define UNIT_NAME_MAX 256
#define UNIT_NAME_HASH_LENGTH_CHARS 16
static const uint8_t long_unit_name_hash_key[16] = {
        0xec, 0xf2, 0x37, 0xfb, 0x58, 0x32, 0x4a, 0x32, 0x84, 0x9f, 0x06, 0x9b, 0x0d, 0x21, 0xeb, 0x9a,
};

int path_normalize(const char *path, bool allow_dotdot, char **ret, bool *had_dotdot) {
        char *out = malloc(strlen(path) + 2);
        int r;

        if (!out)
                return -ENOMEM;
        r = path_normalize_into(path, allow_dotdot, out, had_dotdot);
        if (r < 0) {
                free(out);
                return r;
        }
        *ret = out;
        return 0;
}

int path_normalize_into(const char *path, bool allow_dotdot, char *out, bool *had_dotdot) {
        size_t len = strlen(path);
        size_t o = 0;
        bool dotdot = false;

        if (path[0] != '/' || len >= PATH_MAX)
                return -EINVAL;

        for (const char *p = path; *p;) {
                size_t n = 0;

                while (*p == '/')
                        p++;
                if (!*p)
                        break;
                /* copied after a slash as it is scanned, kept or not once
                 * it is known (the output never runs ahead of the input, so
                 * the room is there) */
                for (out[o] = '/'; p[n] && p[n] != '/'; n++)
                        out[o + 1 + n] = p[n];

                if (n > NAME_MAX)
                        goto invalid;
                if (n == 1 && p[0] == '.') {
                        /* "." adds nothing */
                } else if (n == 2 && p[0] == '.' && p[1] == '.') {
                        if (!allow_dotdot)
                                goto invalid;
                        dotdot = true;
                        while (o > 0 && out[o - 1] != '/')
                                o--;
                        if (o > 0)
                                o--; /* the slash before the dropped component */
                } else
                        o += 1 + n;
                p += n;
        }
        if (o == 0)
                out[o++] = '/';
        out[o] = '\0';

        if (had_dotdot)
                *had_dotdot = dotdot;
        return 0;

invalid:
        return -EINVAL;
}

bool path_is_at_or_below(const char *path, const char *dir) {
        size_t n = strlen(dir);

        if (n == 1 && dir[0] == '/')
                return path[0] == '/';
        return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static bool unit_name_char_is_plain(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ':' ||
               c == '_' || c == '.';
}

static void escape_byte(struct buf *b, unsigned char c) {
        static const char hex[] = "0123456789abcdef";
        char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
        buf_append(b, e, sizeof(e));
}

/* `c` as \xNN at `o`; returns the byte after it */
static char *escape_byte_at(char *o, unsigned char c) {
        static const char hex[] = "0123456789abcdef";

        *o++ = '\\';
        *o++ = 'x';
        *o++ = hex[c >> 4];
        *o++ = hex[c & 15];
        return o;
}

int unit_name_from_path(const char *path, const char *suffix, char **ret) {
        char normalized[PATH_MAX + 1];
        size_t suffix_len = strlen(suffix);
        struct buf name = {};
        char *o;
        int r;

        r = path_normalize_into(path, false, normalized, NULL);
        if (r < 0)
                return r;

        /* written in place, each byte escaped at most as \xNN: one
         * reservation instead of an append per byte */
        if (!buf_reserve(&name, 4 * strlen(normalized) + 1 + suffix_len))
                return -ENOMEM;
        o = name.data;
        if (strcmp(normalized, "/") == 0)
                *o++ = '-';
        else {
                const char *p = normalized + 1;
                /* no unit name may start with a dot ("/.snapshots") */
                if (*p == '.') {
                        o = escape_byte_at(o, '.');
                        p++;
                }
                for (; *p; p++) {
                        if (*p == '/')
                                *o++ = '-';
                        else if (unit_name_char_is_plain(*p))
                                *o++ = *p;
                        else
                                o = escape_byte_at(o, (unsigned char) *p);
                }
        }
        *o++ = '.';
        memcpy(o, suffix, suffix_len + 1);
        name.len = (size_t) (o - name.data) + suffix_len;

        if (name.len >= UNIT_NAME_MAX) {
                /* systemd keeps a prefix of the escaped name and appends the
                 * little-endian hash of the whole name in hex. */
                /* siphash24_string() hashes the terminating NUL too */
                uint64_t h = siphash24(name.data, name.len + 1, long_unit_name_hash_key);
                size_t keep = UNIT_NAME_MAX - 1 - (UNIT_NAME_HASH_LENGTH_CHARS + 1) - (suffix_len + 1);
                struct buf shortened = {};

                buf_append(&shortened, name.data, keep);
                buf_putc(&shortened, '_');
                for (unsigned i = 0; i < 8; i++)
                        buf_printf(&shortened, "%02x", (unsigned) ((h >> (8 * i)) & 0xff));
                buf_putc(&shortened, '.');
                buf_puts(&shortened, suffix);
                buf_free(&name);
                name = shortened;
                r = buf_status(&name);
                if (r < 0) {
                        buf_free(&name);
                        return r;
                }
        }

        *ret = name.data;
        return 0;
}

/* Length of the valid UTF-8 sequence at s, 0 if there is none. */
static size_t utf8_sequence_length(const unsigned char *s) {
        uint32_t cp;
        size_t len;

        if (s[0] < 0x80)
                return 1;
        if ((s[0] & 0xe0) == 0xc0) {
                len = 2;
                cp = s[0] & 0x1f;
        } else if ((s[0] & 0xf0) == 0xe0) {
                len = 3;
                cp = s[0] & 0x0f;
        } else if ((s[0] & 0xf8) == 0xf0) {
                len = 4;
                cp = s[0] & 0x07;
        } else
                return 0;

        for (size_t i = 1; i < len; i++) {
                if ((s[i] & 0xc0) != 0x80)
                        return 0;
                cp = (cp << 6) | (s[i] & 0x3f);
        }

        /* overlong forms */
        if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000))
                return 0;
        if (cp >= 0x110000)
                return 0;
        if ((cp & 0xfffff800) == 0xd800) /* UTF-16 surrogates */
                return 0;
        if (cp >= 0xfdd0 && cp <= 0xfdef) /* noncharacters */
                return 0;
        if ((cp & 0xfffe) == 0xfffe)
                return 0;
        return len;
}

bool utf8_is_valid_systemd(const char *s) {
        const unsigned char *p = (const unsigned char *) s;

        while (*p) {
                size_t n;
                if (*p < 0x80) { /* the common case, without a call */
                        p++;
                        continue;
                }
                n = utf8_sequence_length(p);
                if (n == 0)
                        return false;
                p += n;
        }
        return true;
}

bool unit_value_path_representable(const char *path) {
        return !strpbrk(path, "\n\r") && utf8_is_valid_systemd(path);
}

/* Bytes that extract_first_word() would take as separators, quotes or
 * escapes (written with a backslash before them), and the specifier
 * character. */
#define VALUE_BACKSLASHED "\"' \t\v\f\\"
#define VALUE_SPECIAL "%" VALUE_BACKSLASHED

int unit_value_append_path(struct buf *out, const char *path) {
        size_t plain = strcspn(path, VALUE_SPECIAL);
        bool quote;

        if (!unit_value_path_representable(path))
                return -EINVAL;
        if (path[plain] == '\0') {
                buf_puts(out, path); /* nothing to escape: most paths */
                return buf_status(out);
        }

        /* Quoting keeps a trailing space from being stripped with the line's
         * whitespace, and keeps the line from ending in a backslash. */
        quote = path[strcspn(path, VALUE_BACKSLASHED)] != '\0';
        if (quote)
                buf_putc(out, '"');
        for (const char *p = path; *p; p++) {
                if (*p == '%')
                        buf_puts(out, "%%");
                else if (strchr(VALUE_BACKSLASHED, *p)) {
                        buf_putc(out, '\\');
                        buf_putc(out, *p);
                } else
                        buf_putc(out, *p);
        }
        if (quote)
                buf_putc(out, '"');
        return buf_status(out);
}

int unit_value_escape_path(const char *path, char **ret) {
        struct buf value = {};
        int r;

        buf_puts(&value, "");
        r = unit_value_append_path(&value, path);
        if (r < 0) {
                buf_free(&value);
                return r;
        }
        *ret = value.data;
        return 0;
}

char *shell_quote(const char *s) {
        static const char plain[] =
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-";
        struct buf out = {};
        bool open = false;

        if (*s && s[strspn(s, plain)] == '\0')
                return strdup(s);
        buf_puts(&out, "");
        for (const unsigned char *p = (const unsigned char *) s; *p; p++) {
                if (*p < 0x20 || *p == 0x7f) {
                        static const char hex[] = "0123456789abcdef";
                        if (open)
                                buf_putc(&out, '\'');
                        open = false;
                        buf_printf(&out, "$'\\x%c%c'", hex[*p >> 4], hex[*p & 15]);
                        continue;
                }
                if (!open)
                        buf_putc(&out, '\'');
                open = true;
                if (*p == '\'')
                        buf_puts(&out, "'\\''");
                else
                        buf_putc(&out, (char) *p);
        }
        if (open || out.len == 0)
                buf_puts(&out, open ? "'" : "''");
        if (buf_status(&out) < 0) {
                buf_free(&out);
                return NULL;
        }
        return out.data;
}

bool unit_value_verbatim_representable(const char *value) {
        size_t len = strlen(value);

        return unit_value_path_representable(value) && len > 0 && !strchr(" \t", value[0]) &&
               !strchr(" \t\\", value[len - 1]);
}

int unit_value_append_verbatim(struct buf *out, const char *value) {
        if (!unit_value_verbatim_representable(value))
                return -EINVAL;
        for (const char *p = value; *p; p++)
                if (*p == '%')
                        buf_puts(out, "%%");
                else
                        buf_putc(out, *p);
        return buf_status(out);
}

static char *comment_text(const char *s, bool already_escaped) {
        struct buf text = {};

        buf_puts(&text, "");
        for (const unsigned char *p = (const unsigned char *) s; *p; p++) {
                /* a backslash of text escaped already starts one of its
                 * escapes; only one at the very end could continue the line */
                bool keep_backslash = already_escaped && p[1] != '\0';
                if (*p >= 0x20 && *p < 0x7f && (*p != '\\' || keep_backslash))
                        buf_putc(&text, (char) *p);
                else
                        escape_byte(&text, *p);
        }
        if (buf_status(&text) < 0) {
                buf_free(&text);
                return NULL;
        }
        return text.data;
}

char *escape_for_comment(const char *s) {
        return comment_text(s, false);
}

char *comment_from_escaped(const char *s) {
        return comment_text(s, true);
}

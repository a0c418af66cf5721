/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

bool buf_reserve(struct buf *b, size_t extra) {
        size_t want, cap;
        char *p;

        if (b->oom)
                return false;
        if (extra > SIZE_MAX - b->len - 1)
                goto fail;
        want = b->len + extra + 1;
        if (want <= b->cap)
                return true;
        cap = b->cap ? b->cap : 256;
        while (cap < want)
                cap = cap > SIZE_MAX / 2 ? want : cap * 2;
        p = realloc(b->data, cap);
        if (!p)
                goto fail;
        b->data = p;
        b->cap = cap;
        return true;
fail:
        b->oom = true;
        return false;
}

void buf_append(struct buf *b, const char *s, size_t n) {
        if (!buf_reserve(b, n))
                return;
        memcpy(b->data + b->len, s, n);
        b->len += n;
        b->data[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s) {
        buf_append(b, s, strlen(s));
}

void buf_putc(struct buf *b, char c) {
        buf_append(b, &c, 1);
}

void buf_printf(struct buf *b, const char *format, ...) {
        va_list ap;
        int n;

        va_start(ap, format);
        n = vsnprintf(NULL, 0, format, ap);
        va_end(ap);
        if (n < 0 || !buf_reserve(b, (size_t) n)) {
                b->oom = true;
                return;
        }
        va_start(ap, format);
        vsnprintf(b->data + b->len, (size_t) n + 1, format, ap);
        va_end(ap);
        b->len += (size_t) n;
}

int buf_status(const struct buf *b) {
        return b->oom ? -ENOMEM : 0;
}

const char *buf_str(struct buf *b) {
        return b->data ? b->data : "";
}

void buf_clear(struct buf *b) {
        b->len = 0;
        if (b->data)
                b->data[0] = '\0';
}

void buf_free(struct buf *b) {
        free(b->data);
        *b = (struct buf){};
}

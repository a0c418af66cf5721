/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "macro.h"

/* A growable byte string. Output is built in memory first so that nothing is
 * ever written half: the writer gets the whole text or nothing. */
struct buf {
        char *data;
        size_t len;
        size_t cap;
        bool oom; /* sticky: once an append failed, the text is incomplete */
};

/* Makes room for `extra` more bytes (and a NUL); false (and sticky oom) if
 * there is none. */
bool buf_reserve(struct buf *b, size_t extra);
void buf_append(struct buf *b, const char *s, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, char c);
void buf_printf(struct buf *b, const char *format, ...) _printf_(2, 3);
/* Returns -ENOMEM if any append failed, 0 otherwise. */
int buf_status(const struct buf *b);
/* NUL-terminated contents (empty string for an empty buffer) */
const char *buf_str(struct buf *b);
/* Empties the text, keeping the memory for the next one. */
void buf_clear(struct buf *b);
void buf_free(struct buf *b);

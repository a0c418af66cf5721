/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* The kernel command line as words. Words are separated by white space
 * outside double quotes, and the double quotes themselves are dropped, so
 * that param="a b" is the word param=a b, as the kernel's next_arg() and
 * systemd's proc_cmdline parser both read that common form. No I/O: the
 * text comes from /proc/cmdline or --cmdline=, read by the caller. */
struct cmdline {
        char **words;
        size_t n;
        size_t cap;
};

/* Splits `text` (NUL-terminated; reading stops at the first NUL). -ENOMEM. */
int cmdline_split(const char *text, struct cmdline *ret);
void cmdline_free(struct cmdline *c);

/* The value of `word` when it is KEY=VALUE for this key, else NULL. */
const char *cmdline_word_value(const char *word, const char *key);
/* The value of the last KEY=VALUE word (the one the kernel and systemd
 * honour), or NULL when there is none. */
const char *cmdline_last_value(const struct cmdline *c, const char *key);
/* Which of the bare words `a` and `b` comes last: 1 for a, 2 for b, 0 when
 * neither is there (for "ro" and "rw"). */
int cmdline_last_flag(const struct cmdline *c, const char *a, const char *b);

/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>

#include "macro.h"

/* Problems found in configuration, kept as data: the readers decide what is
 * wrong, the programs decide how to tell (a generator logs them, the checker
 * turns them into findings). Both therefore say exactly the same words. */
enum diag_severity {
        DIAG_ERROR,
        DIAG_WARNING,
        DIAG_NOTE,
};

struct diag {
        enum diag_severity severity;
        char *file;    /* as the administrator knows it, e.g. "/etc/exports" */
        unsigned line; /* 0 when the problem concerns the whole file */
        char *message; /* one sentence: what is wrong and what happens now */
};

struct diag_list {
        struct diag *items;
        size_t n;
        size_t cap;
};

/* Returns 0 or -ENOMEM. A NULL list drops the problem (and costs nothing). */
int diag_add(struct diag_list *l, enum diag_severity severity, const char *file, unsigned line,
             const char *format, ...) _printf_(5, 6);
const char *diag_severity_name(enum diag_severity severity);
/* "FILE:LINE: MESSAGE" (or "FILE: MESSAGE" for line 0) to stderr via the logger */
void diag_list_log(const struct diag_list *l);
/* Moves every problem of `from` to the end of `to` (a NULL `to` drops
 * them), leaving `from` empty. Returns 0 or -ENOMEM (nothing moved). */
int diag_list_take(struct diag_list *to, struct diag_list *from);
void diag_list_free(struct diag_list *l);

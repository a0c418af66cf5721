/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>

#include "lib/buf.h"
#include "lib/diag.h"
#include "lib/macro.h"
#include "lib/strutil.h" /* strprintf() for messages and fixes */

/* What nfs-systemd-check found, kept as data until the very end: the checks
 * add findings, main sorts and renders them once, as text or as JSON. */
struct finding {
        enum diag_severity severity;
        const char *id; /* stable kebab-case name of the kind of finding (static) */
        char *file;     /* NULL when the finding concerns a unit, not a file */
        unsigned line;  /* 0: no line */
        char *unit;     /* NULL when no unit is concerned */
        char *message;  /* one sentence: what is wrong and what will happen */
        char *fix;      /* the command or edit that fixes it */
};

struct finding_list {
        struct finding *items;
        size_t n, cap;
};

/* Adds a finding. `message` and `fix` are taken over (freed on failure);
 * either being NULL means an earlier allocation failed: -ENOMEM. */
int finding_add(struct finding_list *l, enum diag_severity severity, const char *id, const char *file,
                unsigned line, const char *unit, char *message, char *fix);

/* Errors first, then warnings, then notes; the order within one severity is
 * the order the checks found them in. */
void finding_list_sort(struct finding_list *l);

/* 2 if there is an error, 1 if there is a warning, else 0. */
int finding_list_exit_status(const struct finding_list *l);

/* Blocks of "SEVERITY WHERE: MESSAGE" and "  fix: FIX", then a summary line.
 * Control characters and bytes that are not UTF-8 are shown as \xNN. */
int findings_render_human(const struct finding_list *l, struct buf *out);
/* A JSON array, one object per line. */
int findings_render_json(const struct finding_list *l, struct buf *out);

void finding_list_free(struct finding_list *l);

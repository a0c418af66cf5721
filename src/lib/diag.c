/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "diag.h"
#include "log.h"

int diag_add(struct diag_list *l, enum diag_severity severity, const char *file, unsigned line,
             const char *format, ...) {
        _cleanup_free_ char *message = NULL, *file_copy = NULL;
        va_list ap;
        int r;

        /* A caller that keeps no list (a helper that only needs the table,
         * unexport-below) asks for none: every reader reports through here,
         * so this is the one place that makes a missing list safe. */
        if (!l)
                return 0;

        va_start(ap, format);
        r = vasprintf(&message, format, ap);
        va_end(ap);
        if (r < 0) {
                message = NULL;
                return -ENOMEM;
        }
        file_copy = strdup(strempty(file));
        if (!file_copy)
                return -ENOMEM;

        if (array_reserve(&l->items, &l->cap, l->n + 1, sizeof(*l->items)) < 0)
                return -ENOMEM;
        l->items[l->n++] = (struct diag){
                .severity = severity,
                .file = TAKE_PTR(file_copy),
                .line = line,
                .message = TAKE_PTR(message),
        };
        return 0;
}

const char *diag_severity_name(enum diag_severity severity) {
        switch (severity) {
        case DIAG_ERROR:
                return "error";
        case DIAG_WARNING:
                return "warning";
        case DIAG_NOTE:
                return "note";
        }
        return "unknown";
}

void diag_list_log(const struct diag_list *l) {
        for (size_t i = 0; i < l->n; i++) {
                const struct diag *d = &l->items[i];
                enum log_level level = d->severity == DIAG_ERROR     ? LOG_LEVEL_ERR
                                       : d->severity == DIAG_WARNING ? LOG_LEVEL_WARNING
                                                                     : LOG_LEVEL_NOTICE;
                if (d->line > 0)
                        log_internal(level, 0, "%s:%u: %s", d->file, d->line, d->message);
                else
                        log_internal(level, 0, "%s: %s", d->file, d->message);
        }
}

int diag_list_take(struct diag_list *to, struct diag_list *from) {
        if (!to) {
                diag_list_free(from);
                return 0;
        }
        if (array_reserve(&to->items, &to->cap, to->n + from->n, sizeof(*to->items)) < 0)
                return -ENOMEM;
        if (from->n > 0)
                memcpy(to->items + to->n, from->items, from->n * sizeof(*from->items));
        to->n += from->n;
        free(from->items);
        *from = (struct diag_list){};
        return 0;
}

void diag_list_free(struct diag_list *l) {
        for (size_t i = 0; i < l->n; i++) {
                free(l->items[i].file);
                free(l->items[i].message);
        }
        free(l->items);
        *l = (struct diag_list){};
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* Memory for the strings and small records of one table, which all live
 * exactly as long as the table: handed out one after another from large
 * blocks and freed together. At 10,000 exports and 20,000 fstab lines the
 * tables hold some 150,000 strings; a malloc() and a free() for each cost
 * more instructions than reading them, and their headers and rounding
 * another 2 MiB of pages to fault in (issue 21). Nothing in an arena is
 * freed or resized on its own. */
struct arena_block;

struct arena {
        struct arena_block *blocks; /* the newest first */
        char *next, *end;           /* the room left in the newest */
};

/* `size` bytes aligned for any record; NULL on OOM */
void *arena_alloc(struct arena *a, size_t size);
/* A copy of `n` bytes of `s` and a NUL (strings need no alignment); NULL on OOM */
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);
/* NULL stays NULL; false when a copy could not be made */
static inline bool arena_copy_optional(struct arena *a, char **dst, const char *src) {
        *dst = src ? arena_strdup(a, src) : NULL;
        return !src || *dst;
}
void arena_free(struct arena *a);

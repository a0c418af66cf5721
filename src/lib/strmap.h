/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A hash map from C strings to pointers; keys are borrowed, not copied. It is
 * what keeps the generators linear: each path is looked up, never searched. */
struct strmap_slot {
        const char *key;
        void *value;
};

struct strmap {
        struct strmap_slot *slots;
        /* for each slot, 32 bits of its key's hash (never 0; 0: the slot is
         * empty). A probe reads these first, in one run of memory, and
         * follows a key pointer only when they match: at 20,000 mount
         * points a probe that read every key it passed missed the cache
         * twice. */
        uint32_t *tags;
        size_t n, cap;
};

/* Adds key → value unless the key is there already. Returns 1 when added, 0
 * when present (*ret_existing, if given, is its value), -ENOMEM. */
int strmap_put(struct strmap *m, const char *key, void *value, void **ret_existing);
void *strmap_get(const struct strmap *m, const char *key);
/* Room for `n` keys in all, made at once: no growing (and rehashing) on the
 * way there. Returns 0 or -ENOMEM. */
int strmap_reserve(struct strmap *m, size_t n);
void strmap_free(struct strmap *m);

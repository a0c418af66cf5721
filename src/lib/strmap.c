/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"

/* Eight bytes at a time: the keys are paths of 20 to 40 bytes, looked up
 * five times an export (a byte at a time was most of a lookup's cost). The
 * multiply and fold mix every byte into the bits the table index takes. */
static uint64_t hash_bytes(const char *s, size_t n) {
        uint64_t h = 0xcbf29ce484222325ULL ^ n;

        for (; n >= 8; s += 8, n -= 8) {
                uint64_t w;
                memcpy(&w, s, 8);
                h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
                h ^= h >> 29;
        }
        if (n > 0) {
                uint64_t w = 0;
                memcpy(&w, s, n);
                h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
                h ^= h >> 29;
        }
        h *= 0xbf58476d1ce4e5b9ULL;
        return h ^ (h >> 32);
}

/* The slot of `key`, or the empty slot where it goes; the key's tag in
 * *ret_tag */
static size_t find_slot(const struct strmap_slot *slots, const uint32_t *tags, size_t cap, const char *key,
                        uint32_t *ret_tag) {
        uint64_t h = hash_bytes(key, strlen(key));
        uint32_t tag = (uint32_t) (h >> 32) | 1;
        size_t i = (size_t) h & (cap - 1);

        while (tags[i] && !(tags[i] == tag && strcmp(slots[i].key, key) == 0))
                i = (i + 1) & (cap - 1);
        *ret_tag = tag;
        return i;
}

static int grow_to(struct strmap *m, size_t cap) {
        struct strmap_slot *slots = calloc(cap, sizeof(*slots));
        uint32_t *tags = calloc(cap, sizeof(*tags));

        if (!slots || !tags) {
                free(slots);
                free(tags);
                return -ENOMEM;
        }
        for (size_t i = 0; i < m->cap; i++)
                if (m->tags[i]) {
                        uint32_t tag;
                        size_t j = find_slot(slots, tags, cap, m->slots[i].key, &tag);
                        slots[j] = m->slots[i];
                        tags[j] = m->tags[i];
                }
        free(m->slots);
        free(m->tags);
        m->slots = slots;
        m->tags = tags;
        m->cap = cap;
        return 0;
}

/* Whether a map of `cap` slots holds `n` keys: up to three quarters full.
 * With the tags a probe past another key costs little, and a smaller table
 * is fewer pages and cache lines. */
static bool fits(size_t n, size_t cap) {
        return n <= cap / 4 * 3;
}

int strmap_put(struct strmap *m, const char *key, void *value, void **ret_existing) {
        uint32_t tag;
        size_t i;

        if (!fits(m->n + 1, m->cap)) {
                int r = grow_to(m, m->cap ? m->cap * 2 : 64);
                if (r < 0)
                        return r;
        }
        i = find_slot(m->slots, m->tags, m->cap, key, &tag);
        if (m->tags[i]) {
                if (ret_existing)
                        *ret_existing = m->slots[i].value;
                return 0;
        }
        m->slots[i] = (struct strmap_slot){.key = key, .value = value};
        m->tags[i] = tag;
        m->n++;
        return 1;
}

int strmap_reserve(struct strmap *m, size_t n) {
        size_t cap = m->cap ? m->cap : 64;

        while (!fits(n, cap)) {
                if (cap > SIZE_MAX / 2 / sizeof(struct strmap_slot))
                        return -ENOMEM;
                cap *= 2;
        }
        return cap > m->cap ? grow_to(m, cap) : 0;
}

void *strmap_get(const struct strmap *m, const char *key) {
        uint32_t tag;
        size_t i;

        if (m->cap == 0)
                return NULL;
        i = find_slot(m->slots, m->tags, m->cap, key, &tag);
        return m->tags[i] ? m->slots[i].value : NULL;
}

void strmap_free(struct strmap *m) {
        free(m->slots);
        free(m->tags);
        *m = (struct strmap){};
}

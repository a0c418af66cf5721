/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
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

static struct strmap_slot *find_slot(struct strmap_slot *slots, size_t cap, const char *key) {
        size_t len = strlen(key);
        size_t i = (size_t) hash_bytes(key, len) & (cap - 1);

        while (slots[i].key && strcmp(slots[i].key, key) != 0)
                i = (i + 1) & (cap - 1);
        return &slots[i];
}

static int grow_to(struct strmap *m, size_t cap) {
        struct strmap_slot *slots = calloc(cap, sizeof(*slots));

        if (!slots)
                return -ENOMEM;
        for (size_t i = 0; i < m->cap; i++)
                if (m->slots[i].key)
                        *find_slot(slots, cap, m->slots[i].key) = m->slots[i];
        free(m->slots);
        m->slots = slots;
        m->cap = cap;
        return 0;
}

int strmap_put(struct strmap *m, const char *key, void *value, void **ret_existing) {
        struct strmap_slot *s;

        /* keep the load under one half so that probes stay short */
        if ((m->n + 1) * 2 > m->cap) {
                int r = grow_to(m, m->cap ? m->cap * 2 : 64);
                if (r < 0)
                        return r;
        }
        s = find_slot(m->slots, m->cap, key);
        if (s->key) {
                if (ret_existing)
                        *ret_existing = s->value;
                return 0;
        }
        *s = (struct strmap_slot){.key = key, .value = value};
        m->n++;
        return 1;
}

int strmap_reserve(struct strmap *m, size_t n) {
        size_t cap = m->cap ? m->cap : 64;

        while (n * 2 > cap) {
                if (cap > SIZE_MAX / 2 / sizeof(struct strmap_slot))
                        return -ENOMEM;
                cap *= 2;
        }
        return cap > m->cap ? grow_to(m, cap) : 0;
}

void *strmap_get(const struct strmap *m, const char *key) {
        struct strmap_slot *s;

        if (m->cap == 0)
                return NULL;
        s = find_slot(m->slots, m->cap, key);
        return s->key ? s->value : NULL;
}

void strmap_free(struct strmap *m) {
        free(m->slots);
        *m = (struct strmap){};
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

/* Below glibc's mmap threshold, so that a block reuses memory the heap
 * already has (libmount's freed table) instead of faulting in new pages. */
#define ARENA_BLOCK_SIZE (64 * 1024)

struct arena_block {
        struct arena_block *next;
        alignas(max_align_t) char data[];
};

/* A new block with room for `size` bytes at least: a record larger than a
 * quarter of a block gets one of its own, behind the current block, so that
 * the room left in that block is not lost. */
static char *block_new(struct arena *a, size_t size) {
        bool own = size > ARENA_BLOCK_SIZE / 4;
        size_t room = own ? size : ARENA_BLOCK_SIZE - sizeof(struct arena_block);
        struct arena_block *b;

        if (size > SIZE_MAX - sizeof(struct arena_block))
                return NULL;
        b = malloc(sizeof(struct arena_block) + room);
        if (!b)
                return NULL;
        if (own && a->blocks) {
                b->next = a->blocks->next;
                a->blocks->next = b;
                return b->data;
        }
        b->next = a->blocks;
        a->blocks = b;
        a->next = b->data + size;
        a->end = b->data + room;
        return b->data;
}

void *arena_alloc(struct arena *a, size_t size) {
        uintptr_t at =
                ((uintptr_t) a->next + alignof(max_align_t) - 1) & ~(uintptr_t) (alignof(max_align_t) - 1);

        if (a->next && at <= (uintptr_t) a->end && size <= (uintptr_t) a->end - at) {
                a->next = (char *) at + size;
                return (char *) at;
        }
        return block_new(a, size);
}

char *arena_strndup(struct arena *a, const char *s, size_t n) {
        char *copy;

        if (a->next && n < (size_t) (a->end - a->next)) {
                copy = a->next;
                a->next += n + 1;
        } else if (n == SIZE_MAX || !(copy = block_new(a, n + 1)))
                return NULL;
        memcpy(copy, s, n);
        copy[n] = '\0';
        return copy;
}

char *arena_strdup(struct arena *a, const char *s) {
        return arena_strndup(a, s, strlen(s));
}

void arena_free(struct arena *a) {
        for (struct arena_block *b = a->blocks, *next; b; b = next) {
                next = b->next;
                free(b);
        }
        *a = (struct arena){};
}

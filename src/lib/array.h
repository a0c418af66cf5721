/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <errno.h>
#include <stdlib.h>

/* Makes room for at least `need` elements of `size` bytes in *array, whose
 * capacity is *cap, doubling (from 16) so that appending stays linear.
 * Returns 0 or -ENOMEM (the array is left as it was). */
static inline int array_reserve(void *array, size_t *cap, size_t need, size_t size) {
        void **p = array;
        size_t c = *cap ? *cap : 16;
        void *grown;

        if (need <= *cap)
                return 0;
        while (c < need)
                c *= 2;
        grown = reallocarray(*p, c, size);
        if (!grown)
                return -ENOMEM;
        *p = grown;
        *cap = c;
        return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Cleanup helpers: every early return frees what the function owned. */
static inline void freep(void *p) {
        free(*(void **) p);
}
static inline void fclosep(FILE **f) {
        if (*f)
                fclose(*f);
}
static inline void closep(int *fd) {
        if (*fd >= 0)
                close(*fd);
}

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_fclose_ _cleanup_(fclosep)
#define _cleanup_close_ _cleanup_(closep)
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _unused_ __attribute__((unused))

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

#define ELEMENTSOF(x) (sizeof(x) / sizeof((x)[0]))

/* Hand ownership of a pointer to the caller and leave NULL behind. */
#define TAKE_PTR(p)                     \
        ({                              \
                __typeof__(p) _t = (p); \
                (p) = NULL;             \
                _t;                     \
        })
#define TAKE_FD(fd)            \
        ({                     \
                int _t = (fd); \
                (fd) = -1;     \
                _t;            \
        })

static inline const char *strempty(const char *s) {
        return s ? s : "";
}

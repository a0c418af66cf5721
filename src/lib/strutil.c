/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "strutil.h"

char *strprintf(const char *format, ...) {
        va_list ap;
        char *s;

        va_start(ap, format);
        if (vasprintf(&s, format, ap) < 0)
                s = NULL;
        va_end(ap);
        return s;
}

bool path_cut_last(char *path) {
        char *slash;

        if (path[0] == '/' && path[1] == '\0')
                return false;
        slash = strrchr(path, '/');
        if (slash == path)
                slash[1] = '\0';
        else
                *slash = '\0';
        return true;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "macro.h"

/* A newly allocated formatted string, or NULL when out of memory. */
char *strprintf(const char *format, ...) _printf_(1, 2);

/* Cuts the last component off a normalised absolute path, in place:
 * "/a/b" → "/a" → "/". Returns false when `path` is "/" already. */
bool path_cut_last(char *path);

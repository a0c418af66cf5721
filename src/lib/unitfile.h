/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>

/* Writes `len` bytes to DIR/NAME so that a reader sees the old file or the
 * whole new one, never a part: a temporary file in DIR, every write and the
 * close checked, then rename(). DIR and its parents are created (0755); DIR
 * itself is never followed if it is a symbolic link (-ELOOP). The temporary
 * name has a fixed length, so any NAME that fits NAME_MAX can be written. */
int unitfile_write_atomic(const char *dir, const char *name, const char *content, size_t len);

/* The same, but fails with -EEXIST (writing nothing) when DIR/NAME exists:
 * for a unit another generator may write too (sysroot.mount). */
int unitfile_create_atomic(const char *dir, const char *name, const char *content, size_t len);

/* DIR/NAME as a symbolic link to TARGET (a .requires/ link), replacing
 * what is there atomically; DIR is created and never followed. */
int unitfile_symlink(const char *dir, const char *name, const char *target);

/* Removes DIR/NAME if it exists (a drop-in a previous run left behind); DIR
 * is not followed if it is a symbolic link. */
int unitfile_remove(const char *dir, const char *name);

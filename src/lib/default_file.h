/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>

/* An /etc/default file (Debian's /etc/default/nfs-common and
 * /etc/default/nfs-kernel-server) as the init scripts source it, for the one
 * purpose of telling an administrator which of its settings no systemd unit
 * reads. Only the lines that plainly assign one variable are read:
 *
 *     NAME=VALUE        export NAME=VALUE
 *
 * with VALUE a bare word, one "..." string (\\ \" \$ \` are escapes) or one
 * '...' string, and an optional comment after it. Any other line (a command,
 * an expansion, two statements) is shell this reader does not evaluate and is
 * skipped without a word: the file is not ours, and no decision of a unit
 * depends on it. A later assignment of a name replaces an earlier one, as in
 * the shell. */
struct default_setting {
        char *name;
        char *value;
        unsigned line;
};

struct default_file {
        struct default_setting *items;
        size_t n, cap;
};

/* Parses `size` bytes of `data` (NUL bytes end a line's reading). -ENOMEM only. */
int default_file_parse(struct default_file *f, const char *data, size_t size);
void default_file_free(struct default_file *f);

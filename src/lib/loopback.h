/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "rootfs.h"

/* Whether an NFS mount comes from this very host: the generator (a loopback
 * mount needs the server first, even when it is re-exported) and the
 * checker decide it here. No resolver is ever asked: names are compared as
 * text, during boot the network may not be there. */

/* Whether an NFS source "server:/path" names this host: localhost,
 * 127.0.0.0/8, ::1 (bracketed or not), or `hostname` (the full name or its
 * first label; may be NULL). */
bool nfs_source_is_loopback(const char *source, const char *hostname);

/* The first line of /etc/hostname below the root, as systemd reads it
 * (comments and blanks skipped); *ret is NULL when there is none. Returns 0
 * or -ENOMEM. */
int hostname_read(const struct rootfs *root, char **ret);

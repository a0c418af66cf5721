/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "checks.h"

/* The client side: how systemd will mount and unmount the NFS filesystems of
 * /etc/fstab, and whether network-online.target means anything on this host.
 * Each finding gives the fstab line with the fix applied (or the command).
 * No I/O, as for every check. Returns 0 or -ENOMEM. */
int client_checks_run(const struct check_input *in, struct finding_list *findings);

/* Which of two opposite options is in effect: the last one written, as
 * mount.nfs, mount(8) and systemd-fstab-generator read them. 1 for `yes`
 * (or `yes2`, may be NULL), 0 for `no`, -1 when neither is there. */
int mount_option_last_of(const char *options, const char *yes, const char *yes2, const char *no);

/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "checks.h"

/* The files of Debian's init scripts, /etc/default/nfs-kernel-server and
 * /etc/default/nfs-common: no systemd unit reads them on Debian 12 or later
 * (neither Debian's nor ours; nfs-utils' daemons read nfs.conf), so every
 * setting there that asks for something nfs.conf does not already give is a
 * finding naming the nfs.conf section and key (or the systemctl command) that
 * does it. A setting already in force, such as the shipped defaults, is no
 * finding. No I/O. Returns 0 or -ENOMEM. */
int legacy_checks_run(const struct check_input *in, struct finding_list *findings);

/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "checks.h"
#include "lib/rootfs.h"
#include "lib/unit_state.h"

/* The system as nfs-systemd-check sees it: everything read below the root
 * once, through rootfs (no path outside the root is ever opened), before any
 * check runs. */
struct check_system {
        struct check_input in;
        struct unit_links links;
        char *masks[_UNIT_MAX], *unit_files[_UNIT_MAX];
        char *network_masks[_NETWORK_UNIT_MAX];
        char *hostname, *keytab, *export_root;
        struct cmdline cmdline;
};

/* Bad or missing configuration becomes diagnostics in the in.*_diags; only
 * -ENOMEM is an error. */
int check_system_read(const struct rootfs *root, struct check_system *ret);
void check_system_free(struct check_system *s);

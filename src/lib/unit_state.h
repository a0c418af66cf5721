/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "macro.h"
#include "rootfs.h"
#include "strmap.h"

/* Enable and mask state of units, read from the unit directories the way
 * systemctl is-enabled would find it, without systemd running: a unit is
 * enabled when a *.wants/ or *.requires/ directory of a unit directory holds
 * it (by name, or a link whose target has its name); it is masked when its
 * name in /etc/systemd/system or /run/systemd/system is a link to /dev/null. */

/* The system unit directories, highest precedence first, as systemd.unit(5)
 * lists them ("Unit File Load Path"; the generator directories left out):
 * where units, .wants/.requires links and .mount files are read. Debian 12
 * has /lib as a link to /usr/lib; both are read: a name found twice is found
 * once, and a link's state is a yes/no. */
extern const char *const unit_dirs[5];
/* How many of unit_dirs come before the generators' normal directory (where
 * systemd-fstab-generator's units are): /etc and /run */
#define UNIT_DIRS_BEFORE_GENERATED 2
/* Where a mask takes effect */
extern const char *const unit_mask_dirs[2];

struct unit_links {
        struct strmap enabled_by; /* unit name → the link that enables it (first found) */
        char **strings;           /* owned keys and values of the map */
        size_t n_strings, cap_strings;
};

/* Scans every *.wants/ and *.requires/ directory of unit_dirs below the root.
 * Missing directories are normal. Returns 0 or -ENOMEM. */
int unit_links_read(const struct rootfs *root, struct unit_links *ret);
/* The path of the link that enables `unit`, or NULL. */
const char *unit_links_enabled_by(const struct unit_links *links, const char *unit);
void unit_links_free(struct unit_links *links);

/* 1 and the mask's path in *ret_path when `unit` is masked, 0 when not,
 * -ENOMEM. */
int unit_mask_find(const struct rootfs *root, const char *unit, char **ret_path);

/* The first unit directory (in unit_dirs order) holding a file named `unit`,
 * followed within the root (a mask, a link to /dev/null, counts): *ret_path
 * is that path, or NULL when the unit is not installed. Returns 0 or -ENOMEM. */
int unit_file_find(const struct rootfs *root, const char *unit, char **ret_path);

/* readlink() of `path` inside the root: the link itself is not followed, the
 * directories leading to it are (within the root). -EINVAL if not a link. */
int rootfs_readlink(const struct rootfs *root, const char *path, char **ret);

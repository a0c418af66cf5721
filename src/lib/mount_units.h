/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "rootfs.h"

/* Mounts declared as native .mount units (and .automount units) in the unit
 * directories, read the way systemd loads them: the first file of a name in
 * the search path wins, a link to /dev/null masks the name, Where= must
 * match the unit name. Only [Mount] What=, Where=, Type=, Options=,
 * TimeoutSec= and [Automount] Where=, TimeoutIdleSec= are read. Drop-ins
 * (NAME.d/\*.conf in every unit directory) are read after the unit, as
 * systemd merges them: one file of a name, from the first directory that
 * has it (a link to /dev/null or an empty file masks that name), all of
 * them in the order of their names; a later assignment replaces an earlier
 * one and an empty one resets the setting. Type-wide (mount.d/) and prefix
 * (a-.mount.d/) drop-ins are not read.
 *
 * systemd-fstab-generator writes its units to /run/systemd/generator, which
 * systemd reads after /etc/systemd/system and /run/systemd/system and before
 * /usr/local/lib and /usr/lib (systemd.unit(5), "Unit File Load Path"): a
 * unit in the first two takes the place of an fstab line for the same mount
 * point, an fstab line takes the place of a unit in the others. */

/* The directories read are unit_state.h's unit_dirs. */

struct mount_unit {
        char *name;                          /* e.g. "mnt-data.mount" */
        char *path;                          /* the file (display form, escaped for messages) */
        char *where, *what, *type, *options; /* what/type/options may be NULL */
        unsigned line;                       /* the line of What= (0 for a mask) */
        unsigned options_line;               /* the line of Options= (0: none) */
        char *options_path;                  /* the drop-in holding that line (NULL: the unit file) */
        /* [Mount] TimeoutSec=, or in an .automount [Automount] TimeoutIdleSec=
         * (NULL: not set) */
        char *timeout;
        /* the .automount unit of the same mount point that systemd loads
         * (display form), and its TimeoutIdleSec=; NULL when none */
        char *automount_path, *automount_timeout;
        bool masked;       /* the name is a link to /dev/null */
        bool before_fstab; /* found where it overrides an fstab line */
};

struct mount_unit_list {
        struct mount_unit *units; /* sorted by name */
        size_t n, cap;
};

/* Parses one .mount or .automount file named `name` (path for messages).
 * Returns 1 with *ret filled when the unit is usable, 0 when it is not (a
 * diagnostic says why), -ENOMEM. */
int mount_unit_parse(const char *name, const char *path, const char *text, size_t size,
                     struct mount_unit *ret, struct diag_list *diags);

/* A drop-in of a unit: its file (display form) and text. */
struct unit_dropin {
        char *path;
        char *text;
        size_t size;
};

/* The same, with the drop-ins applied in the given order after the unit. */
int mount_unit_parse_with_dropins(const char *name, const char *path, const char *text, size_t size,
                                  const struct unit_dropin *dropins, size_t n_dropins,
                                  struct mount_unit *ret, struct diag_list *diags);

/* Every .mount unit of the unit directories below `root` that systemd would
 * load, masks included; each .automount unit is checked (its Where=) and
 * named in the .mount unit it triggers (automount_path), or adds nothing
 * when that .mount has no unit file of its own here. Bad units become
 * diagnostics; returns 0 or -ENOMEM. */
int mount_units_read(const struct rootfs *root, struct mount_unit_list *ret, struct diag_list *diags);

void mount_unit_done(struct mount_unit *u);
void mount_unit_list_free(struct mount_unit_list *l);

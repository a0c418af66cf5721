/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "buf.h"

/* The drop-in nfs-server-generator writes for the mount unit of a loopback
 * re-export (an NFS mount from this host that holds exports): it wants
 * nfs-reexport@.service for the mount, which withdraws those exports
 * before the unmount (see units/nfs-reexport@.service.in for why). */

#define REEXPORT_DROPIN_NAME "nfs-reexport.conf"

/* "nfs-reexport@srv-re.service" for "srv-re.mount". -EINVAL when the mount
 * unit's name is not "<escaped path>.mount" or the instance would exceed
 * systemd's unit name limit (the template's %f could not give the path
 * back), -ENOMEM. */
int reexport_unit_name(const char *mount_unit, char **ret);

/* The drop-in's text for a mount unit whose instance is `reexport_unit`. */
int reexport_dropin_render(const char *reexport_unit, struct buf *out);

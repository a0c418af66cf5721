/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "checks.h"

/* Hosts whose filesystems come over NFS (issue 13): where rpc_pipefs and
 * statd's state lie. The root is NFS when fstab's line for "/" is, or, with
 * no such line, when the kernel command line says root=/dev/nfs, root=nfs:
 * or root=nfs4:. No I/O, as for every check. Returns 0 or -ENOMEM. */
int nfsroot_checks_run(const struct check_input *in, struct finding_list *findings);

/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "findings.h"
#include "lib/cmdline.h"
#include "lib/default_file.h"
#include "lib/diag.h"
#include "lib/exports.h"
#include "lib/fstab.h"
#include "lib/loopback.h"
#include "lib/nfsconf.h"

/* The units whose state matters to NFS start-up. */
enum check_unit {
        UNIT_NFS_SERVER,
        UNIT_NFS_KERNEL_SERVER, /* Debian's alias of nfs-server.service */
        UNIT_NFS_CLIENT,
        UNIT_RPCBIND_SERVICE,
        UNIT_RPCBIND_SOCKET,
        UNIT_RPC_STATD,
        UNIT_RPC_GSSD,
        UNIT_RPC_SVCGSSD,
        UNIT_NFS_IDMAPD,
        _UNIT_MAX,
};

extern const char *const check_unit_names[_UNIT_MAX];

/* The units that make network-online.target mean something (client_checks.c) */
enum network_unit {
        NETWORK_UNIT_NETWORKD,
        NETWORK_UNIT_NETWORKD_WAIT_ONLINE,
        NETWORK_UNIT_NETWORK_MANAGER,
        NETWORK_UNIT_NM_WAIT_ONLINE,
        NETWORK_UNIT_IFUPDOWN_WAIT_ONLINE,
        NETWORK_UNIT_NETWORKING, /* Debian's ifupdown */
        _NETWORK_UNIT_MAX,
};

extern const char *const network_unit_names[_NETWORK_UNIT_MAX];

struct unit_info {
        const char *installed_at; /* its unit file, or NULL when no unit directory has it */
        const char *enabled_by;   /* the .wants/.requires link that enables it, or NULL */
        const char *masked_at;    /* the /dev/null link that masks it, or NULL */
};

/* Everything the checks look at, read beforehand (system.c) or built by a
 * test: the checks themselves do no I/O. */
struct check_input {
        struct export_table exports;
        struct fstab_table fstab;
        struct nfsconf conf;
        /* what each reader had to say, kept apart so that each finding
         * knows which file format it is about */
        struct diag_list nfsconf_diags, exports_diags, fstab_diags;
        /* the .mount units, whose mounts are in `fstab` too (client_checks.c reports these) */
        struct diag_list mount_unit_diags;
        /* the root's libmount release (nfs_utils.h), which joins a mount's
         * options for mount.nfs; 0: unknown, taken for the newest */
        unsigned libmount;
        struct unit_info units[_UNIT_MAX];
        struct unit_info network_units[_NETWORK_UNIT_MAX];
        const char *hostname; /* from /etc/hostname, or NULL */
        const char *keytab;   /* the keytab rpc.gssd uses */
        bool keytab_present;
        const char *export_root;    /* [exports] rootdir=, or NULL */
        const char *pipefs_default; /* STATEDIR/rpc_pipefs, where the static units mount it */
        const char *statd_default;  /* STATEDIR, statd's state directory unless nfs.conf says */
        /* Debian's /etc/default/nfs-kernel-server and /etc/default/nfs-common
         * (legacy_checks.c); empty when missing */
        struct default_file default_server, default_common;
        /* the kernel command line (/proc/cmdline below the root), or NULL
         * when it cannot be read */
        const struct cmdline *cmdline;
};

/* Adds a finding for every problem; returns 0 or -ENOMEM. */
int checks_run(const struct check_input *in, struct finding_list *findings);

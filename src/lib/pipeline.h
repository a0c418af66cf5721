/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "config.h"
#include "diag.h"
#include "exports.h"
#include "fstab.h"
#include "nfsconf.h"
#include "nfsroot.h"
#include "pipefs.h"
#include "rootfs.h"
#include "server_order.h"

/* Each generator's run from a root to its output directory, in two library
 * calls: read and decide, then render and write. The programs' main() and
 * the whole-root fuzz target (tests/fuzz/fuzz-root.c) take exactly the same
 * steps, so what the fuzzer proves about the output holds for the programs.
 * Only the choice of how to report (log, --explain) stays in the programs. */

/* The name of nfs-server-generator's drop-in in each server unit's .d directory. */
#define SERVER_DROPIN_NAME "order-with-mounts.conf"
/* Where the static units mount rpc_pipefs. */
#define PIPEFS_DEFAULT_DIR NFS_STATEDIR "/rpc_pipefs"

/* nfs-server-generator: what it read and what it decided. */
struct server_pipeline {
        struct nfsconf conf;
        struct export_table exports;
        struct fstab_table fstab;
        char *hostname;    /* /etc/hostname, to tell loopback NFS mounts (may be NULL) */
        char *export_root; /* [exports] rootdir= (may be NULL) */
        struct server_order order;
        struct diag_list diags;
};

/* Reads nfs.conf, the exports, fstab, the .mount units and the host name
 * below `root`, and decides the ordering. Bad input becomes diagnostics in ret->diags; only
 * -ENOMEM is an error (nothing is written either way). */
int server_pipeline_decide(const struct rootfs *root, struct server_pipeline *ret);
/* Renders the drop-in and writes it for nfs-server.service, and for
 * nfsv4-server.service where that unit exists below `root`; with nothing
 * exported, removes the drop-ins a previous run left. Logs a failure (with
 * the file's name) and returns it. */
int server_pipeline_write(const struct server_pipeline *p, const struct rootfs *root,
                          const char *normal_dir);
void server_pipeline_free(struct server_pipeline *p);

/* rpc-pipefs-generator: what it read and what it decided. */
struct pipefs_pipeline {
        struct nfsconf conf;
        struct fstab_table fstab;
        struct fstab_table mounted; /* /proc/self/mountinfo, for the host only */
        struct pipefs_plan plan;
        struct diag_list diags;
        struct diag_list mount_diags; /* mountinfo's oddities are not the admin's */
};

/* Reads nfs.conf and fstab below `root` (and, when `root` is the host, what
 * is mounted now) and decides where rpc_pipefs goes. Only -ENOMEM is an
 * error. */
int pipefs_pipeline_decide(const struct rootfs *root, struct pipefs_pipeline *ret);
/* Renders the mount unit and rpc_pipefs.target and writes both, when the
 * plan says so (otherwise writes nothing). Logs a failure and returns it. */
int pipefs_pipeline_write(const struct pipefs_pipeline *p, const char *normal_dir);
void pipefs_pipeline_free(struct pipefs_pipeline *p);

/* nfsroot-generator: what it read and what it decided. */
struct nfsroot_pipeline {
        bool in_initrd;     /* /etc/initrd-release exists below the root */
        const char *source; /* "/proc/cmdline", or "--cmdline" when given */
        struct cmdline cmdline;
        struct nfsroot_spec spec;
        struct diag_list diags;
};

/* Reads /etc/initrd-release's presence and the command line (`cmdline_text`
 * when not NULL, else /proc/cmdline below `root`) and decides; outside an
 * initrd, decides nothing. A command line that cannot be read is logged
 * and returned (-errno); otherwise only -ENOMEM is an error. */
int nfsroot_pipeline_decide(const struct rootfs *root, const char *cmdline_text,
                            struct nfsroot_pipeline *ret);
/* Writes sysroot.mount and its initrd-root-fs.target.requires/ link when
 * the spec says so. sysroot.mount is never written over: another generator
 * that already wrote one keeps it (logged, -EEXIST). */
int nfsroot_pipeline_write(const struct nfsroot_pipeline *p, const char *normal_dir);
void nfsroot_pipeline_free(struct nfsroot_pipeline *p);

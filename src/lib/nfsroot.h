/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "buf.h"
#include "cmdline.h"
#include "diag.h"

/* NFS root in a systemd initrd: what the kernel command line asks for, and
 * the sysroot.mount that mounts it. No I/O: the command line is handed in
 * as words (cmdline.h). See nfsroot-generator(8) for the accepted forms:
 *
 *   root=/dev/nfs nfsroot=[SERVER:]PATH[,OPTIONS]   (the kernel's nfsroot.rst)
 *   root=nfs:[SERVER:]PATH[:OPTIONS]                (dracut.cmdline(7); the
 *                                                    options after ':' or ',')
 *   root=nfs4:[SERVER:]PATH[:OPTIONS]
 *   root=SERVER:PATH[:OPTIONS], root=PATH           (dracut, when SERVER is an
 *                                                    IPv4 or [IPv6] address)
 *   root=dhcp, root=dhcp6                           (refused: the path comes
 *                                                    from DHCP at boot)
 *
 * SERVER is a host name, an IPv4 address or an IPv6 address in brackets;
 * without one, the server field of ip=CLIENT:SERVER:... is used. A "%s" in
 * PATH stands for the client's address (ip='s first field). rootflags= adds
 * options, ro/rw decide the last one. */

#define NFSROOT_UNIT "sysroot.mount"
#define NFSROOT_WHERE "/sysroot"
/* The symlink that makes initrd-root-fs.target require the mount, as
 * systemd-fstab-generator writes it for a root on a block device. */
#define NFSROOT_REQUIRES_DIR "initrd-root-fs.target.requires"
/* MNTPATHLEN: the longest path the MOUNT protocol carries. */
#define NFSROOT_PATH_MAX 1024
/* The longest host name DNS allows. */
#define NFSROOT_HOST_MAX 253

enum nfsroot_decision {
        NFSROOT_NONE,    /* the root is not on NFS: nothing to say, nothing to write */
        NFSROOT_MOUNT,   /* write sysroot.mount as the spec says */
        NFSROOT_REFUSED, /* NFS was asked for, but no correct unit can be written (diags say why) */
};

struct nfsroot_spec {
        enum nfsroot_decision decision;
        char *parameter;     /* the word that asked for NFS, e.g. "root=nfs:srv:/x" */
        char *server;        /* host name, IPv4 address, or [IPv6] in brackets */
        bool server_from_ip; /* SERVER came from ip= */
        char *path;          /* absolute, "%s" replaced */
        const char *fstype;  /* "nfs" (v2/v3 or negotiated) or "nfs4" */
        char *options;       /* the Options= value, never empty (ro or rw last) */
        bool may_be_v4;      /* NFSv4 asked for or negotiable: idmapd is wanted */
        bool read_only;      /* the root is mounted ro */
};

/* Decides from the words. Problems go to `diags` with `source` as the file
 * name (line 0: the command line is one line). Returns 0, or -ENOMEM. */
int nfsroot_decide(const struct cmdline *cl, const char *source, struct nfsroot_spec *ret,
                   struct diag_list *diags);

/* sysroot.mount for a spec whose decision is NFSROOT_MOUNT. Every value is
 * escaped for the unit file; -EINVAL if one cannot be (nfsroot_decide()
 * refuses those already), -ENOMEM. */
int nfsroot_render_mount(const struct nfsroot_spec *spec, const char *source, struct buf *out);

void nfsroot_spec_free(struct nfsroot_spec *spec);

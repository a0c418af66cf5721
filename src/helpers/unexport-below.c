/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unexport-below MOUNT-POINT
 *
 * Withdraws every export at or below MOUNT-POINT with `exportfs -u`, so
 * that nfsd lets go of the filesystem and it can be unmounted while the
 * server still runs. nfs-reexport@.service runs it before the unmount of a
 * loopback re-export (an NFS mount from this host that is exported again):
 * otherwise that unmount fails with EBUSY at poweroff, the server stops,
 * and systemd-shutdown's last unmount waits 90 s for a server that is gone.
 *
 * What is exported is read where exportfs keeps it (etab in nfs.conf's
 * [exportfs] state-directory-path, /var/lib/nfs by default), with [exports]
 * rootdir= applied, so paths exported since boot count and paths taken
 * out of /etc/exports since do not. Exits 0 when nothing is exported there. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "lib/escape.h"
#include "lib/exports.h"
#include "lib/log.h"
#include "lib/nfsconf.h"
#include "lib/rootfs.h"
#include "lib/unexport.h"

static int read_etab(const struct rootfs *root, const struct nfsconf *conf, struct export_table *etab) {
        _cleanup_free_ char *statedir = NULL, *path = NULL, *data = NULL;
        size_t size;
        int r;

        r = nfsconf_get_path(conf, "exportfs", "state-directory-path", NULL, &statedir);
        if (r < 0)
                return log_oom();
        if (asprintf(&path, "%s/etab", statedir ? statedir : NFS_STATEDIR) < 0)
                return log_oom();
        r = rootfs_read_file(root, path, &data, &size, NULL);
        if (r == -ENOENT)
                return 0; /* nothing was ever exported */
        if (r < 0)
                return log_error_errno(r, "%s: cannot be read: %s", path, config_file_strerror(r));
        /* the table's lines are exportfs' own: their oddities are not news here */
        r = exports_parse(etab, data, size, path, NULL);
        return r < 0 ? log_oom() : 0;
}

/* Execs exportfs when there is something to withdraw; otherwise returns 0,
 * or a negative errno after logging. */
static int run(const char *mount_point) {
        _cleanup_(rootfs_close) struct rootfs root = {.fd = -1};
        _cleanup_(nfsconf_free) struct nfsconf conf = {};
        _cleanup_(export_table_free) struct export_table etab = {};
        _cleanup_(unexport_list_free) struct unexport_list l = {};
        _cleanup_free_ char *export_root = NULL;
        _cleanup_free_ char **args = NULL;
        int r;

        r = rootfs_open("/", &root);
        if (r < 0)
                return log_error_errno(r, "Cannot open /: %m");
        if (nfsconf_read(&conf, &root, NULL) < 0 ||
            nfsconf_get_path(&conf, "exports", "rootdir", NULL, &export_root) < 0)
                return log_oom();
        r = read_etab(&root, &conf, &etab);
        if (r < 0)
                return r;
        if (unexport_list_below(&etab, export_root, mount_point, &l) < 0)
                return log_oom();

        if (l.n == 0) {
                log_info("Nothing is exported at or below %s.", mount_point);
                return 0;
        }

        args = calloc(l.n + 3, sizeof(char *));
        if (!args)
                return log_oom();
        args[0] = (char *) "exportfs";
        args[1] = (char *) "-u";
        for (size_t i = 0; i < l.n; i++) {
                log_info("Withdrawing %s before %s is unmounted.", l.args[i], mount_point);
                args[i + 2] = l.args[i];
        }
        execv(EXPORTFS_PATH, args);
        return log_error_errno(errno, "Cannot run %s: %m", EXPORTFS_PATH);
}

int main(int argc, char *argv[]) {
        _cleanup_free_ char *mount_point = NULL;

        log_setup("unexport-below");
        if (argc != 2 || argv[1][0] != '/' || path_normalize(argv[1], false, &mount_point, NULL) < 0) {
                fprintf(stderr, "usage: unexport-below MOUNT-POINT (an absolute path)\n");
                return 2;
        }
        return run(mount_point) < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

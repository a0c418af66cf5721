/* SPDX-License-Identifier: GPL-2.0-or-later */
/* keep-statd-monitors [--root=DIR]
 *
 * Copies rpc.statd's records of the peers it monitors (sm/ in its state
 * directory) into sm.bak/, where sm-notify looks at the next boot.
 * nfs-server.service runs it before the server threads stop.
 *
 * Why: when the server stops cleanly, the kernel's lock manager goes down
 * with it and unmonitors every client, and statd deletes their records. At
 * the next boot sm-notify then has nobody to tell that the server
 * rebooted, so no client reclaims its NFSv3 locks, and after the grace
 * period another process can take them (measured in a two-guest boot: the
 * lock was "taken" after a clean reboot). After a crash the records stay and
 * the clients are told; this makes a clean reboot behave the same. A record
 * kept for a peer that has gone costs one notification that nobody answers.
 *
 * The state directory is nfs.conf's [statd] state-directory-path, NFS_STATEDIR
 * by default. Every record is written to a temporary name and renamed, with
 * the owner and mode of the original (sm-notify runs as the owner of the
 * state directory). Exits 0 when there is nothing to keep; a record that
 * cannot be kept is named and the rest are still kept. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "lib/escape.h"
#include "lib/log.h"
#include "lib/nfsconf.h"
#include "lib/rootfs.h"

/* statd's records are a line of hex and two names: far below this. */
#define RECORD_SIZE_MAX (64 * 1024)

/* Copies one record from the sm directory to the sm.bak directory. */
static int keep_record(int sm, int bak, const char *name, const char *shown_dir) {
        _cleanup_close_ int in = -1, out = -1;
        _cleanup_free_ char *tmp = NULL, *data = NULL;
        struct stat st;
        ssize_t n;

        in = openat(sm, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (in < 0)
                return log_warning_errno(errno, "%s/sm/%s: cannot be read: %m", shown_dir, name);
        if (fstat(in, &st) < 0)
                return log_warning_errno(errno, "%s/sm/%s: %m", shown_dir, name);
        if (!S_ISREG(st.st_mode) || st.st_size > RECORD_SIZE_MAX) {
                log_warning("%s/sm/%s: not a statd record (not a small regular file), not kept", shown_dir,
                            name);
                return 0;
        }
        data = malloc((size_t) st.st_size + 1);
        if (!data)
                return log_oom();
        n = read(in, data, (size_t) st.st_size + 1);
        if (n < 0)
                return log_warning_errno(errno, "%s/sm/%s: cannot be read: %m", shown_dir, name);

        /* a short name of our own: statd's names run to 250 bytes, and
         * NAME_MAX is 255; readers skip names that start with '.' */
        if (asprintf(&tmp, ".keep-statd-monitors.%ld", (long) getpid()) < 0)
                return log_oom();
        (void) unlinkat(bak, tmp, 0);
        out = openat(bak, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (out < 0)
                return log_warning_errno(errno, "%s/sm.bak/%s: cannot be created: %m", shown_dir, tmp);
        errno = 0; /* a short write sets none */
        if (write(out, data, (size_t) n) != n || fchown(out, st.st_uid, st.st_gid) < 0 ||
            fchmod(out, st.st_mode & 07777) < 0 || fsync(out) < 0 || renameat(bak, tmp, bak, name) < 0) {
                int e = errno ? errno : EIO;
                (void) unlinkat(bak, tmp, 0);
                return log_warning_errno(e, "%s/sm.bak/%s: cannot be written: %m", shown_dir, name);
        }
        log_info("Kept statd's record of %s in %s/sm.bak for sm-notify at the next boot.", name, shown_dir);
        return 1;
}

/* sm.bak, created like sm when it is missing (statd creates both; a state
 * directory restored from a backup may have only one). Opened once, without
 * following a link; everything after goes through that descriptor. Only a
 * directory this run made is given sm's owner and mode: the statd user owns
 * the state directory and may put something else at the name between
 * mkdirat() and the open, but it cannot make one owned by us. */
static int open_bak(int state, const struct stat *sm_st, const char *shown_dir) {
        struct stat st;
        bool made = false;
        int fd;

        if (mkdirat(state, "sm.bak", 0700) == 0)
                made = true;
        else if (errno != EEXIST)
                return log_error_errno(errno, "%s/sm.bak: cannot be created: %m", shown_dir);
        fd = openat(state, "sm.bak", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return log_error_errno(errno, "%s/sm.bak: %m", shown_dir);
        if (!made)
                return fd;
        if (fstat(fd, &st) < 0) {
                int e = errno;
                close(fd);
                return log_error_errno(e, "%s/sm.bak: %m", shown_dir);
        }
        if (st.st_uid != geteuid()) {
                close(fd);
                return log_error_errno(EEXIST,
                                       "%s/sm.bak: replaced by another directory while it was made; "
                                       "nothing kept",
                                       shown_dir);
        }
        if (fchown(fd, sm_st->st_uid, sm_st->st_gid) < 0 || fchmod(fd, sm_st->st_mode & 07777) < 0) {
                int e = errno;
                close(fd);
                return log_error_errno(e, "%s/sm.bak: cannot be given sm's owner: %m", shown_dir);
        }
        return fd;
}

static int run(const char *root_dir) {
        _cleanup_(rootfs_close) struct rootfs root = {.fd = -1};
        _cleanup_(nfsconf_free) struct nfsconf conf = {};
        _cleanup_free_ char *statedir = NULL, *shown = NULL;
        _cleanup_close_ int state = -1, sm = -1, bak = -1;
        DIR *d;
        struct dirent *de;
        struct stat sm_st;
        int r, kept = 0, failed = 0;

        r = rootfs_open(root_dir, &root);
        if (r < 0)
                return log_error_errno(r, "Cannot open %s: %m", root_dir);
        if (nfsconf_read(&conf, &root, NULL) < 0 ||
            nfsconf_get_path(&conf, "statd", "state-directory-path", NULL, &statedir) < 0)
                return log_oom();
        shown = escape_for_comment(statedir ? statedir : NFS_STATEDIR);
        if (!shown)
                return log_oom();

        state = rootfs_open_file(&root, statedir ? statedir : NFS_STATEDIR, O_RDONLY | O_DIRECTORY);
        if (state < 0)
                return state == -ENOENT ? 0 : log_error_errno(state, "%s: %m", shown);
        sm = openat(state, "sm", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sm < 0)
                return errno == ENOENT ? 0 : log_error_errno(errno, "%s/sm: %m", shown);
        if (fstat(sm, &sm_st) < 0)
                return log_error_errno(errno, "%s/sm: %m", shown);
        bak = open_bak(state, &sm_st, shown);
        if (bak < 0)
                return bak;

        d = fdopendir(dup(sm));
        if (!d)
                return log_error_errno(errno, "%s/sm: %m", shown);
        while ((errno = 0, de = readdir(d))) {
                if (de->d_name[0] == '.')
                        continue;
                r = keep_record(sm, bak, de->d_name, shown);
                if (r == -ENOMEM) {
                        closedir(d);
                        return r;
                }
                if (r > 0)
                        kept++;
                else if (r < 0)
                        failed++;
        }
        closedir(d);
        if (fsync(bak) < 0)
                failed++;
        if (kept + failed == 0)
                log_info("statd monitors no peer (%s/sm is empty): nothing to keep.", shown);
        return failed ? -EIO : 0;
}

int main(int argc, char *argv[]) {
        static const struct option options[] = {
                {"root", required_argument, NULL, 'r'},
                {},
        };
        const char *root = "/";
        int c;

        log_setup("keep-statd-monitors");
        while ((c = getopt_long(argc, argv, "", options, NULL)) >= 0) {
                if (c != 'r')
                        goto usage;
                root = optarg;
        }
        if (optind != argc)
                goto usage;
        return run(root) < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
usage:
        fprintf(stderr, "usage: keep-statd-monitors [--root=DIR]\n");
        return 2;
}

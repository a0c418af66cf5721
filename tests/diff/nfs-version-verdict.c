/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nfs-version-verdict ROOT: nfs_version_asked()'s verdict on each line of
 * standard input, "FSTYPE OPTIONS" (the options are the rest of the line,
 * blanks and all), for run-mountnfs-version-diff, judged for the libmount
 * that ROOT's dpkg status says is installed (the lookup the checker makes,
 * so the test covers it). First "libmount TAB VERSION", then one line for
 * each:
 *
 *   refused TAB MOUNT.NFS'S WORDS
 *   accepted TAB MAJOR TAB MINOR    (MINOR "-" when not named)
 */
#include <stdio.h>
#include <string.h>

#include "lib/macro.h"
#include "lib/nfs_version.h"
#include "lib/rootfs.h"

int main(int argc, char **argv) {
        _cleanup_free_ char *line = NULL;
        struct rootfs root;
        unsigned libmount;
        size_t size = 0;
        ssize_t n;

        if (argc != 2) {
                fprintf(stderr, "usage: nfs-version-verdict ROOT <CASES\n");
                return 2;
        }
        if (rootfs_open(argv[1], &root) < 0 || libmount_version_installed(&root, &libmount) < 0) {
                fprintf(stderr, "nfs-version-verdict: cannot open the root %s\n", argv[1]);
                return 1;
        }
        rootfs_close(&root);
        printf("libmount\t%u.%u.%u\n", NFS_UTILS_MAJOR(libmount), NFS_UTILS_MINOR(libmount),
               NFS_UTILS_PATCH(libmount));
        while ((n = getline(&line, &size, stdin)) >= 0) {
                char *options;
                struct nfs_version v;

                if (n > 0 && line[n - 1] == '\n')
                        line[n - 1] = '\0';
                options = strchr(line, ' ');
                if (!options) {
                        fprintf(stderr, "nfs-version-verdict: no options on \"%s\"\n", line);
                        return 2;
                }
                *options++ = '\0';
                v = nfs_version_asked(line, options, libmount);
                if (v.refused)
                        printf("refused\t%s\n", v.refused);
                else if (v.minor_named)
                        printf("accepted\t%ld\t%ld\n", v.major, v.minor);
                else
                        printf("accepted\t%ld\t-\n", v.major);
        }
        return fflush(stdout) == 0 ? 0 : 1;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nfs_version_asked(): each row is what mount.nfs made of the options
 * (with ",retry=0" added), run with -f -v on a loopback address in private
 * mount and network namespaces: the version it tried, or its words. The
 * rows marked D12 were measured with Debian 12's (nfs-utils 2.6.2, libmount
 * 2.38.1), those marked D13 with Debian 13's (2.8.3, libmount 2.41.5); every
 * row but the libmount-dependent ones reads the same in both and in sid's
 * (tests/diff/run-mountnfs-version-diff compares a corpus). */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/macro.h"
#include "lib/nfs_version.h"

/* the minor column when the options name none (LONG_MIN is no row's) */
#define NOT_NAMED LONG_MIN
#define D12 NFS_UTILS_VERSION(2, 38, 1)
#define D13 NFS_UTILS_VERSION(2, 41, 5)

static const struct {
        const char *fstype, *options;
        unsigned libmount;
        long major, minor;
        const char *refused;
} cases[] = {
        /* no version named: negotiated (4.2 first), or NFSv4 for type nfs4 */
        {"nfs", "", D12, 0, NOT_NAMED, NULL},
        {"nfs4", "", D12, 4, NOT_NAMED, NULL},
        {"nfs", "minorversion=1", D12, 0, NOT_NAMED, NULL}, /* not read without NFSv4 named */
        {"nfs4", "minorversion=1", D12, 4, 1, NULL},
        {"nfs4", "minorversion=x", D12, 0, 0, "parsing error on 'minorversion=' option"},
        {"nfs", "rw,vers=3,hard", D12, 3, NOT_NAMED, NULL},
        {"nfs", "nfsvers=03", D12, 3, NOT_NAMED, NULL},
        {"nfs", "vers=+3", D12, 3, NOT_NAMED, NULL},
        {"nfs", "vers= 3", D12, 3, NOT_NAMED, NULL}, /* strtol() skips blanks */
        {"nfs4", "vers=3", D12, 3, NOT_NAMED, NULL}, /* mount.nfs4 asks rpcbind: NFSv3 */
        {"nfs", "v3", D12, 3, NOT_NAMED, NULL},
        {"nfs", "v3=4", D12, 3, NOT_NAMED, NULL}, /* the value of v3 is not read */
        {"nfs4", "v4.1", D12, 4, 1, NULL},
        {"nfs", "v4", D12, 4, NOT_NAMED, NULL},
        {"nfs", "vers=4.2", D12, 4, 2, NULL},
        {"nfs", "vers=4. 1", D12, 4, 1, NULL},
        {"nfs", "vers=4,minorversion=1", D12, 4, 1, NULL},
        {"nfs", "vers=4,minorversion=", D12, 4, 0, NULL},
        /* po_get(): the last minorversion counts, and one without "=" is none */
        {"nfs", "vers=4,minorversion=x,minorversion=1", D12, 4, 1, NULL},
        {"nfs", "vers=4,minorversion=1,minorversion", D12, 4, NOT_NAMED, NULL},
        {"nfs", "vers=4.2,minorversion=1", D12, 4, 2, NULL},
        {"nfs", "vers=4.2,minorversion=x", D12, 4, 2, NULL},
        /* passed on (as an unsigned long: vers=4.18446744073709551615) */
        {"nfs", "vers=4,minorversion=-1", D12, 4, -1, NULL},
        {"nfs", "vers=4.-1", D12, 4, -1, NULL},
        {"nfs", "vers=4,minorversion=99999999999999999999", D12, 4, LONG_MAX, NULL},
        /* matched by prefix */
        {"nfs", "vers3=1", D12, 0, 0, "mount system call failed"},
        {"nfs", "nfsversion=3", D12, 3, NOT_NAMED, NULL},
        {"nfs", "v40", D12, 0, 0, "mount system call failed"},
        {"nfs", "v4x", D12, 0, 0, "parsing error on 'v' option"},
        {"nfs", "version=3", D12, 3, NOT_NAMED, NULL}, /* "version" begins with "vers" */
        {"nfs", "ver=3", D12, 0, NOT_NAMED, NULL},     /* no prefix of it */
        /* one version option in all; a copy of the same one is dropped by
         * libmount since 2.39, before mount.nfs counts */
        {"nfs", "vers=3,vers=4.2", D13, 0, 0, "multiple version options not permitted"},
        {"nfs", "nfsvers=3,vers=4.2", D13, 0, 0, "multiple version options not permitted"},
        {"nfs", "v3,vers=3", D13, 0, 0, "multiple version options not permitted"},
        {"nfs", "vers=3,vers=03", D13, 0, 0, "multiple version options not permitted"},
        {"nfs", "v3,v3", D12, 0, 0, "multiple version options not permitted"},
        {"nfs", "v3,v3", D13, 3, NOT_NAMED, NULL},
        {"nfs", "vers=3,hard,vers=3", D12, 0, 0, "multiple version options not permitted"},
        {"nfs", "vers=3,hard,vers=3", D13, 3, NOT_NAMED, NULL},
        {"nfs", "vers=3,hard,vers=3", 0, 3, NOT_NAMED, NULL}, /* unknown: the newest */
        /* values mount.nfs cannot read */
        {"nfs", "nfsvers=3.0", D12, 0, 0, "parsing error on 'nfsvers=' option"},
        {"nfs", "vers", D12, 0, 0, "parsing error on 'vers=' option"},
        {"nfs", "vers=", D12, 0, 0, "parsing error on 'vers=' option"},
        {"nfs", "vers=abc", D12, 0, 0, "parsing error on 'vers=' option"},
        {"nfs", "vers=4.x", D12, 0, 0, "parsing error on 'vers=' option"},
        {"nfs", "vers=4.", D12, 0, 0, "parsing error on 'vers=' option"},
        {"nfs", "vers=3 ", D12, 0, 0, "parsing error on 'vers=' option"},
        {"nfs", "vers=4,minorversion=x", D12, 0, 0, "parsing error on 'minorversion=' option"},
        {"nfs", "vers=5,minorversion=x", D12, 0, 0, "parsing error on 'vers=' option"},
        /* -4 is above 4 for mount.nfs (an unsigned long): minorversion= read */
        {"nfs", "nfsvers=-4,minorversion=x", D12, 0, 0, "parsing error on 'nfsvers=' option"},
        /* read, but not mounted */
        {"nfs", "vers=2", D12, 0, 0, "requested NFS version or transport protocol is not supported"},
        {"nfs", "v2", D12, 0, 0, "requested NFS version or transport protocol is not supported"},
        {"nfs", "vers=5", D12, 0, 0, "mount system call failed"},
        {"nfs", "vers=0", D12, 0, 0, "mount system call failed"},
        {"nfs", "vers=-1", D12, 0, 0, "mount system call failed"},
        {"nfs", "vers=-1.5", D12, 0, 0, "mount system call failed"},
        {"nfs", "vers=4294967299", D12, 0, 0, "mount system call failed"},
        /* options of the MOUNT protocol: NFSv3 when no version is named,
         * refused with NFSv4 */
        {"nfs", "mountproto=tcp", D12, 3, NOT_NAMED, NULL},
        {"nfs", "mountport=20048", D12, 3, NOT_NAMED, NULL},
        {"nfs", "vers=3,mountvers=3", D12, 3, NOT_NAMED, NULL},
        {"nfs", "vers=4,mountvers=3", D12, 0, 0, "Protocol not supported"},
        {"nfs", "v4.1,mountport=1", D12, 0, 0, "Protocol not supported"},
        {"nfs4", "mountaddr=127.0.0.1", D12, 0, 0, "Protocol not supported"},
        {"nfs", ",,vers=3,", D12, 3, NOT_NAMED, NULL},
};

int main(void) {
        unsigned failed = 0;

        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                struct nfs_version v =
                        nfs_version_asked(cases[i].fstype, cases[i].options, cases[i].libmount);
                long minor = v.minor_named ? v.minor : NOT_NAMED;
                bool ok = cases[i].refused
                                  ? v.refused && strcmp(v.refused, cases[i].refused) == 0
                                  : !v.refused && v.major == cases[i].major && minor == cases[i].minor;
                if (!ok) {
                        printf("FAIL %s \"%s\": %ld.%ld%s%s\n", cases[i].fstype, cases[i].options, v.major,
                               v.minor, v.refused ? ", refused: " : "", strempty(v.refused));
                        failed++;
                } else
                        printf("ok   %s \"%s\"\n", cases[i].fstype, cases[i].options);
        }
        printf("%zu passed, %u failed\n", ELEMENTSOF(cases) - failed, failed);
        return failed ? 1 : 0;
}

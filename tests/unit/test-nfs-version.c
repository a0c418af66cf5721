/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nfs_version_asked(): each row is what Debian 12's mount.nfs (nfs-utils
 * 2.6.2; nfs_nfs_version() is the same in 2.8.3 and 2.9.1) made of the
 * options, run with -f -v on a loopback address in a private mount
 * namespace: the version it tried, or its error message. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/macro.h"
#include "lib/nfs_version.h"

static const struct {
        const char *fstype, *options;
        int major, minor;
        const char *refused;
} cases[] = {
        {"nfs", "", 0, -1, NULL},
        {"nfs4", "", 4, -1, NULL},
        {"nfs", "rw,vers=3,hard", 3, -1, NULL},
        {"nfs", "nfsvers=03", 3, -1, NULL},
        {"nfs4", "vers=3", 3, -1, NULL}, /* mount.nfs4 asks the portmapper: NFSv3 */
        {"nfs", "v3", 3, -1, NULL},
        {"nfs4", "v4.1", 4, 1, NULL},
        {"nfs", "vers=4.2", 4, 2, NULL},
        {"nfs", "vers=4,minorversion=1", 4, 1, NULL},
        {"nfs", "vers=4,minorversion=", 4, 0, NULL},
        {"nfs", "vers=4.2,minorversion=1", 4, 2, NULL},
        {"nfs", "vers3=1", 1, -1, NULL}, /* "vers" matches by prefix */
        {"nfs", "vers=3,vers=4.2", 0, -1, "multiple version options not permitted"},
        {"nfs", "nfsvers=3,vers=4.2", 0, -1, "multiple version options not permitted"},
        {"nfs", "v3,vers=3", 0, -1, "multiple version options not permitted"},
        {"nfs", "nfsvers=3.0", 0, -1, "parsing error on 'nfsvers=' option"},
        {"nfs", "vers", 0, -1, "parsing error on 'vers=' option"},
        {"nfs", "vers=abc", 0, -1, "parsing error on 'vers=' option"},
        {"nfs", "vers=4.x", 0, -1, "parsing error on 'vers=' option"},
        {"nfs", "vers=4,minorversion=x", 0, -1, "parsing error on 'minorversion=' option"},
};

int main(void) {
        unsigned failed = 0;

        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                struct nfs_version v = nfs_version_asked(cases[i].fstype, cases[i].options);
                bool ok = cases[i].refused
                                  ? v.refused && strcmp(v.refused, cases[i].refused) == 0
                                  : !v.refused && v.major == cases[i].major && v.minor == cases[i].minor;
                if (!ok) {
                        printf("FAIL %s \"%s\": %d.%d%s%s\n", cases[i].fstype, cases[i].options, v.major,
                               v.minor, v.refused ? ", refused: " : "", v.refused ? v.refused : "");
                        failed++;
                } else
                        printf("ok   %s \"%s\"\n", cases[i].fstype, cases[i].options);
        }
        printf("%zu passed, %u failed\n", ELEMENTSOF(cases) - failed, failed);
        return failed ? 1 : 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as the etab that exportfs wrote, read the way
 * unexport-below reads it (no diagnostics list: the helper has nobody to
 * show them to) and asked what to withdraw below a few mount points, with
 * and without an [exports] rootdir=. The seeds are etabs that the
 * exportfs of Debian 12 (2.6.2), 13 (2.8.3) and sid (3.1.1) wrote, kept from
 * `tests/diff/run-exportfs-diff --seed 20261207 --count 120 --keep DIR`
 * (the .etab files of DIR/RELEASE/exportfs/out: the twelve largest of each release, and
 * all of a release's in one file, RELEASE-all), and the etab of Debian 13's
 * exportfs -ra that tests/unit holds. Nothing may crash or leak. */
#include <stddef.h>
#include <stdint.h>

#include "lib/exports.h"
#include "lib/unexport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static const char *const mount_points[] = {"/", "/srv", "/export/a", "/srv/re"};
        struct export_table etab = {};

        if (exports_parse(&etab, (const char *) data, size, "/var/lib/nfs/etab", NULL) >= 0)
                for (size_t i = 0; i < sizeof(mount_points) / sizeof(*mount_points); i++)
                        for (int with_root = 0; with_root < 2; with_root++) {
                                struct unexport_list l = {};
                                (void) unexport_list_below(&etab, with_root ? "/export" : NULL,
                                                           mount_points[i], &l);
                                unexport_list_free(&l);
                        }
        export_table_free(&etab);
        return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A second floor for bench/run: only what libmount costs to read an fstab
 * (mnt_table_parse_fstab(), then freeing the table), with the same dynamic
 * libraries as nfs-server-generator, so its process start is comparable. */
#include <libmount.h>
#include <stdio.h>

int main(int argc, char *argv[]) {
        struct libmnt_table *t;
        int r;

        if (argc != 2) {
                fprintf(stderr, "usage: libmount-parse FSTAB\n");
                return 2;
        }
        t = mnt_new_table();
        if (!t)
                return 1;
        r = mnt_table_parse_fstab(t, argv[1]);
        if (r == 0)
                printf("%d entries\n", mnt_table_get_nents(t));
        mnt_unref_table(t);
        return r == 0 ? 0 : 1;
}

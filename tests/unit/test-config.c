/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nfs.conf and fstab readers: values in force, line numbers, and what they
 * report. Expectations written by hand from nfs.conf(5) and fstab(5). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/default_file.h"
#include "lib/fstab.h"
#include "lib/nfsconf.h"

static unsigned passed, failed;

#define CHECK(cond, ...)                                            \
        do {                                                        \
                if (cond)                                           \
                        passed++;                                   \
                else {                                              \
                        failed++;                                   \
                        printf("FAIL %s:%d: ", __FILE__, __LINE__); \
                        printf(__VA_ARGS__);                        \
                        putchar('\n');                              \
                }                                                   \
        } while (0)

static void test_nfsconf(void) {
        static const char text[] = "# comment\n"
                                   "; also a comment\n"
                                   "[General]\n"
                                   "pipefs-directory = /run/rpc_pipefs  \n"
                                   "[nfsd]\n"
                                   "vers3=n\n"
                                   "threads=8\n"
                                   "[exports]\n"
                                   "rootdir=\"/export\" # kept out by the quotes\n"
                                   "[nfsd]\n"
                                   "Vers3=yes\n"
                                   "[gssd \"sub\"]\n"
                                   "use-memcache=1\n"
                                   "no equals sign here\n"
                                   "orphan\n";
        struct nfsconf c = {};
        struct diag_list diags = {};
        const struct nfsconf_entry *e;
        char *path = NULL;

        CHECK(nfsconf_parse(&c, text, sizeof(text) - 1, "/etc/nfs.conf", NULL, &diags) == 0, "parse");
        e = nfsconf_get(&c, "general", "pipefs-directory");
        CHECK(e && strcmp(e->value, "/run/rpc_pipefs") == 0 && e->line == 4, "pipefs-directory: %s line %u",
              e ? e->value : "(none)", e ? e->line : 0);
        CHECK(nfsconf_get_bool(&c, "nfsd", "vers3", false) == true, "later [nfsd] vers3=yes wins");
        CHECK(nfsconf_get_bool(&c, "nfsd", "vers4", true) == true, "unset falls back");
        CHECK(nfsconf_get_path(&c, "exports", "rootdir", &diags, &path) == 0 && path &&
                      strcmp(path, "/export") == 0,
              "rootdir: %s", path ? path : "(none)");
        CHECK(nfsconf_get(&c, "gssd", "use-memcache") == NULL, "a subsection is not the section");
        CHECK(diags.n == 2 && diags.items[0].line == 14 && diags.items[1].line == 15, "%zu diagnostics",
              diags.n);
        free(path);
        nfsconf_free(&c);
        diag_list_free(&diags);
}

static void test_fstab(void) {
        static const char text[] =
                "# <fs> <dir> <type> <options>\n"
                "\n"
                "LABEL=a /srv/a ext4 defaults 0 2\n"
                "   # indented comment\n"
                "srv:/x /mnt/x nfs4 ro,noauto,_netdev 0 0\n"
                "/dev/b /srv/with\\040space// xfs nofail,x-systemd.device-timeout=5s 0 2\n"
                "/dev/sdc none swap sw 0 0\n"
                "tmpfs /tmp tmpfs mode=1777,size=\"1G\" 0 0\n";
        FILE *f = fmemopen((void *) text, sizeof(text) - 1, "r");
        struct fstab_table t = {};
        struct diag_list diags = {};
        char *value = NULL;

        CHECK(f && fstab_parse(&t, f, "/etc/fstab", &diags) == 0, "parse");
        CHECK(t.n == 4, "%zu mounts (swap is not one)", t.n);
        if (t.n == 4) {
                CHECK(strcmp(t.mounts[0].where, "/srv/a") == 0 && t.mounts[0].line == 3, "first: %s:%u",
                      t.mounts[0].where, t.mounts[0].line);
                CHECK(t.mounts[1].nfs && t.mounts[1].noauto && t.mounts[1].netdev && !t.mounts[1].nofail &&
                              t.mounts[1].line == 5,
                      "nfs4 flags, line %u", t.mounts[1].line);
                CHECK(strcmp(t.mounts[2].where, "/srv/with space") == 0 && t.mounts[2].nofail &&
                              t.mounts[2].line == 6,
                      "unescaped and normalised: \"%s\" line %u", t.mounts[2].where, t.mounts[2].line);
                CHECK(fstab_mount_has_option(&t.mounts[2], "x-systemd.device-timeout", &value) && value &&
                              strcmp(value, "5s") == 0,
                      "option value");
                CHECK(t.mounts[3].line == 8 && !t.mounts[3].nfs, "tmpfs line %u", t.mounts[3].line);
        }
        CHECK(diags.n == 0, "%zu diagnostics", diags.n);
        free(value);
        fstab_table_free(&t);
        diag_list_free(&diags);
        if (f)
                fclose(f);
}

/* /etc/default files as sh reads their plain assignments; anything else skipped */
static void test_default_file(void) {
        static const char text[] = "# comment\n"
                                   "RPCNFSDCOUNT=8\n"
                                   "  export STATDOPTS=\"--port 32765 -o 32766\" # a comment\n"
                                   "RPCMOUNTDOPTS='--port \"x\"'\n"
                                   "NEED_GSSD=\n"
                                   "A=\"say \\\"hi\\\"\"\n"
                                   "B=$(hostname)\n"
                                   "C=\"$HOME\"\n"
                                   "D=one two\n"
                                   "E=\"open\n"
                                   "if [ -x /x ]; then F=1; fi\n"
                                   "RPCNFSDCOUNT=16\n"
                                   "G=\"a\0b\"\n"
                                   "H=x;y\n";
        struct default_file f = {};

        CHECK(default_file_parse(&f, text, sizeof(text) - 1) == 0, "parse");
        CHECK(f.n == 5, "%zu settings", f.n);
        if (f.n != 5)
                goto out;
        CHECK(strcmp(f.items[0].name, "RPCNFSDCOUNT") == 0 && strcmp(f.items[0].value, "16") == 0 &&
                      f.items[0].line == 12,
              "a later assignment replaces an earlier one: %s=%s line %u", f.items[0].name, f.items[0].value,
              f.items[0].line);
        CHECK(strcmp(f.items[1].name, "STATDOPTS") == 0 &&
                      strcmp(f.items[1].value, "--port 32765 -o 32766") == 0 && f.items[1].line == 3,
              "export and a comment after: %s", f.items[1].value);
        CHECK(strcmp(f.items[2].value, "--port \"x\"") == 0, "single quotes are literal: %s",
              f.items[2].value);
        CHECK(strcmp(f.items[3].name, "NEED_GSSD") == 0 && f.items[3].value[0] == '\0', "empty value: %s",
              f.items[3].value);
        CHECK(strcmp(f.items[4].name, "A") == 0 && strcmp(f.items[4].value, "say \"hi\"") == 0,
              "escapes in double quotes: %s", f.items[4].value);
out:
        default_file_free(&f);
}

int main(void) {
        test_nfsconf();
        test_default_file();
        test_fstab();
        printf("%u passed, %u failed\n", passed, failed);
        return failed ? 1 : 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exports(5) reader: each case is an input and the paths (with their line
 * numbers), client counts and diagnostics it must give. The expectations are
 * what Debian 12's exportfs reads from the same text (see exports(5) and the
 * issue), written down by hand. */
#include <stdio.h>
#include <string.h>

#include "lib/exported.h"
#include "lib/exports.h"
#include "lib/nfs_utils.h"

struct expected_export {
        const char *path;
        unsigned line;
        size_t n_clients;
        bool mountpoint; /* of the first client */
};

struct test_case {
        const char *name;
        const char *input;
        size_t input_size; /* 0: strlen */
        struct expected_export exports[6];
        unsigned diag_lines[6]; /* lines of the expected diagnostics, in order */
};

/* one case a line: it reads better as a table */
/* clang-format off */
static const struct test_case cases[] = {
        { "plain", "/srv/a *(rw)\n", 0, { { "/srv/a", 1, 1, false } }, {} },
        { "comments and blanks", "# c\n\n   \n/srv/a host(ro) # trailing\n#/srv/b\n", 0, { { "/srv/a", 4, 1, false } }, {} },
        { "hash inside a path is not a comment", "/srv/h#c *(rw)\n", 0, { { "/srv/h#c", 1, 1, false } }, {} },
        { "double quotes", "\"/srv/q u\" a(rw) b\n", 0, { { "/srv/q u", 1, 2, false } }, {} },
        { "quote toggles mid-token", "/srv/x\"y z\"w *\n", 0, { { "/srv/xy zw", 1, 1, false } }, {} },
        { "octal escapes", "/srv/a\\040b\\101 *\n", 0, { { "/srv/a bA", 1, 1, false } }, {} },
        { "octal above 255 stays", "/srv/a\\777 *\n", 0, { { "/srv/a\\777", 1, 1, false } }, {} },
        { "continuation", "/srv/c \\\n   a(rw) \\\n b(ro)\n/srv/d *\n", 0,
          { { "/srv/c", 1, 2, false }, { "/srv/d", 4, 1, false } }, {} },
        { "default options line", "/srv/d -ro,mp a b(rw)\n", 0, { { "/srv/d", 1, 2, true } }, {} },
        { "default options and no client", "/srv/d -mp\n", 0, { { "/srv/d", 1, 1, true } }, {} },
        { "no client at all", "/srv/e\n", 0, { { "/srv/e", 1, 1, false } }, {} },
        { "options without client", "/srv/f (rw,mp)\n", 0, { { "/srv/f", 1, 1, true } }, {} },
        { "bad line between good ones keeps both",
          "/srv/a *(rw)\n/srv/b *(rw,nonsense)\n/srv/c *(rw)\n", 0,
          { { "/srv/a", 1, 1, false }, { "/srv/b", 2, 1, false }, { "/srv/c", 3, 1, false } }, { 2 } },
        { "unbalanced parenthesis", "/srv/a *(rw\n/srv/b *\n", 0,
          { { "/srv/a", 1, 1, false }, { "/srv/b", 2, 1, false } }, { 1 } },
        { "text after the option list", "/srv/a *(rw)x\n", 0, { { "/srv/a", 1, 1, false } }, { 1 } },
        { "relative path skipped", "srv/a *(rw)\n/srv/b *\n", 0, { { "/srv/b", 2, 1, false } }, { 1 } },
        { "unterminated quote", "\"/srv/a *(rw)\n/srv/b *\n", 0, { { "/srv/b", 2, 1, false } }, { 1 } },
        { "unterminated quote in the first client", "/srv/a \"x\n/srv/b *\n", 0,
          { { "/srv/a", 1, 0, false }, { "/srv/b", 2, 1, false } }, { 1 } },
        { "over-long client in a continued line", "/srv/a \\\n b AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/srv/phantom\n/srv/c *\n", 0,
          { { "/srv/a", 1, 1, false }, { "/srv/c", 3, 1, false } }, { 2 } },
        /* a squash range ends at the comma: "10" is an option of its own (nfs-utils 2.6.2-2.9) */
        { "bad values", "/srv/a *(anonuid=x,fsid=zz,sec=krb9) b(squash_uids=0-4,10,rw)\n", 0,
          { { "/srv/a", 1, 2, false } }, { 1, 1, 1, 1 } },
        { "fsid forms", "/srv/a *(fsid=root) b(fsid=0x10) c(fsid=0123456789abcdef0123456789abcdef)\n", 0,
          { { "/srv/a", 1, 3, false } }, {} },
        { "options of nfs-utils 2.6.3 and later", "/srv/a *(xprtsec=tls:mtls,reexport=auto-fsidnum) b(reexport=predefined-fsidnum) d(fsid=0123456789abcdef0123456789abcdef,reexport=predefined-fsidnum) c(reexport=none,pnfs,security_label,sec=krb5p:sys,refer=/x@h,replicas=/y@h,mp=/srv)\n", 0,
          { { "/srv/a", 1, 4, false } }, {} },
        { "reexport= values and order", "/srv/a *(reexport=predefined) b(reexport=predefined-fsidnum) c(reexport=none,fsid=1) d(reexport=none,reexport=none) e(fsid=5,reexport=auto-fsidnum) f(xprtsec=ssl)\n", 0,
          { { "/srv/a", 1, 6, false } }, { 1, 1, 1, 1, 1, 1 } },
        { "crlf line ends", "/srv/a *(rw)\r\n/srv/b *\r\n", 0, { { "/srv/a", 1, 1, false }, { "/srv/b", 2, 1, false } }, {} },
        { "carriage-return-only line", "/srv/a *\n\r\n/srv/b *\n", 0,
          { { "/srv/a", 1, 1, false }, { "/srv/b", 3, 1, false } }, { 2 } },
        { "NUL inside a quoted path cuts it", "\"/srv/a\0b\" *\n/srv/c *\n", 22,
          { { "/srv/a", 1, 1, false }, { "/srv/c", 2, 1, false } }, {} },
        { "no newline at end", "/srv/a *(rw)", 0, { { "/srv/a", 1, 1, false } }, {} },
        { "empty file", "", 0, {}, {} },
};
/* clang-format on */

static int run_case(const struct test_case *tc) {
        struct export_table t = {};
        struct diag_list diags = {};
        size_t size = tc->input_size ? tc->input_size : strlen(tc->input);
        size_t n_expected = 0, n_diags = 0;
        int failed = 0;

        if (exports_parse(&t, tc->input, size, "/etc/exports", &diags) < 0) {
                printf("FAIL %s: parser error\n", tc->name);
                return 1;
        }
        while (n_expected < 6 && tc->exports[n_expected].path)
                n_expected++;
        while (n_diags < 6 && tc->diag_lines[n_diags])
                n_diags++;

        if (t.n != n_expected) {
                printf("FAIL %s: %zu exports, expected %zu\n", tc->name, t.n, n_expected);
                failed = 1;
        }
        for (size_t i = 0; i < t.n && i < n_expected; i++) {
                const struct expected_export *e = &tc->exports[i];
                if (strcmp(t.entries[i].path, e->path) != 0 || t.entries[i].line != e->line ||
                    t.entries[i].n_clients != e->n_clients ||
                    (t.entries[i].n_clients > 0 && t.entries[i].clients[0].mountpoint != e->mountpoint)) {
                        printf("FAIL %s: export %zu is \"%s\" line %u, %zu clients; expected \"%s\" line "
                               "%u, "
                               "%zu clients\n",
                               tc->name, i, t.entries[i].path, t.entries[i].line, t.entries[i].n_clients,
                               e->path, e->line, e->n_clients);
                        failed = 1;
                }
        }
        if (diags.n != n_diags) {
                printf("FAIL %s: %zu diagnostics, expected %zu\n", tc->name, diags.n, n_diags);
                failed = 1;
        }
        for (size_t i = 0; i < diags.n; i++) {
                if (i < n_diags && diags.items[i].line != tc->diag_lines[i]) {
                        printf("FAIL %s: diagnostic %zu on line %u, expected %u\n", tc->name, i,
                               diags.items[i].line, tc->diag_lines[i]);
                        failed = 1;
                }
                if (failed)
                        printf("     %s:%u: %s\n", diags.items[i].file, diags.items[i].line,
                               diags.items[i].message);
        }
        if (!failed)
                printf("ok   %s\n", tc->name);
        export_table_free(&t);
        diag_list_free(&diags);
        return failed;
}

/* Options newer than the release being judged are refused in release terms,
 * and reexport= gives the export its fsid. */
static int run_release_cases(void) {
        static const char input[] = "/srv/a *(xprtsec=tls) b(reexport=auto-fsidnum) c(sign_fh)\n";
        struct export_table t = {.nfs_utils = NFS_UTILS_VERSION(2, 6, 2)};
        struct diag_list diags = {};
        int failed = 0;

        if (exports_parse(&t, input, strlen(input), "/etc/exports", &diags) < 0 || t.n != 1 ||
            diags.n != 3 || !strstr(diags.items[0].message, "not known to nfs-utils before 2.6.3") ||
            !strstr(diags.items[2].message, "not known to nfs-utils before 2.9.1 (this system has 2.6.2)"))
                failed = 1;
        export_table_free(&t);
        diag_list_free(&diags);
        t = (struct export_table){.nfs_utils = NFS_UTILS_VERSION(2, 8, 3)};
        if (exports_parse(&t, input, strlen(input), "/etc/exports", &diags) < 0 || t.n != 1 ||
            diags.n != 1 || !t.entries[0].clients[1].fsid || t.entries[0].clients[0].bad ||
            !t.entries[0].clients[2].bad)
                failed = 1;
        export_table_free(&t);
        diag_list_free(&diags);
        if (nfs_utils_version_from_debian("1:2.6.2-4+deb12u1") != 20602 ||
            nfs_utils_version_from_debian("1:2.8.3-1") != 20803 ||
            nfs_utils_version_from_debian("3.0~rc1-1") != 30000 || nfs_utils_version_from_debian("x") != 0)
                failed = 1;
        printf("%s releases: options judged per nfs-utils release\n", failed ? "FAIL" : "ok  ");
        return failed;
}

/* Which paths are NFSv4 pseudo-roots: fsid=0/fsid=root or crossmnt as the
 * last word of a client (line defaults included), and the nearest exported
 * parent of a nohide or crossmnt path, not a farther one. */
static int run_pseudo_root_cases(void) {
        static const char input[] = "/v4 *(fsid=0) b(ro)\n"       /* yes: fsid=0 */
                                    "/v4/a/b *(nohide)\n"         /* no; makes /v4/a its parent */
                                    "/v4/a *(ro)\n"               /* yes: nearest parent of /v4/a/b */
                                    "/x *(crossmnt,nocrossmnt)\n" /* no: nocrossmnt last */
                                    "/y -crossmnt c(ro)\n"        /* yes: from the line's defaults */
                                    "/z *(fsid=root,fsid=7,nohide,hide)\n" /* no: fsid=7, hide last */
                                    "/w *(ro)\n"            /* no: /w/a is the nearer parent */
                                    "/w/a *(ro)\n"          /* yes */
                                    "/w/a/b/c *(nohide)\n"; /* no */
        static const bool expected[] = {true, false, true, false, true, false, false, true, false};
        _cleanup_(exported_paths_free) struct exported_paths paths = {};
        struct export_table t = {};
        struct diag_list diags = {};
        int failed = 0;

        if (exports_parse(&t, input, strlen(input), "/etc/exports", &diags) < 0 ||
            exported_paths_build(&t, NULL, &paths, NULL) < 0 || paths.n != ELEMENTSOF(expected))
                failed = 1;
        for (size_t i = 0; !failed && i < paths.n; i++)
                if (paths.paths[i].pseudo_root != expected[i]) {
                        printf("FAIL pseudo-roots: %s is%s a pseudo-root\n", paths.paths[i].path,
                               expected[i] ? " not" : "");
                        failed = 1;
                }
        export_table_free(&t);
        diag_list_free(&diags);
        printf("%s pseudo-roots: fsid=0, crossmnt and the parent of nohide\n", failed ? "FAIL" : "ok  ");
        return failed;
}

int main(void) {
        unsigned passed = 0, failed = 0;

        if (run_release_cases())
                failed++;
        else
                passed++;
        if (run_pseudo_root_cases())
                failed++;
        else
                passed++;

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                if (run_case(&cases[i]))
                        failed++;
                else
                        passed++;
        }
        printf("%u passed, %u failed\n", passed, failed);
        return failed ? 1 : 0;
}

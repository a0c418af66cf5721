/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of nfs-systemd-check's pieces that fixtures reach only in part:
 * the JSON and terminal escaping of every kind of byte, the order and exit
 * status of findings, and loopback detection. Expected values are written
 * out by hand. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "findings.h"

static int failures;

#define EXPECT(cond, ...)                                               \
        do {                                                            \
                if (!(cond)) {                                          \
                        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
                        fprintf(stderr, __VA_ARGS__);                   \
                        fputc('\n', stderr);                            \
                        failures++;                                     \
                }                                                       \
        } while (0)

/* The JSON of a single finding whose message is `message`: only the value of
 * "message" is compared. */
static void test_json_message(const char *message, const char *expected) {
        struct finding_list l = {};
        struct buf out = {};
        const char *start, *end;
        char *got;

        if (finding_add(&l, DIAG_NOTE, "test", NULL, 0, NULL, strdup(message), strdup("x")) < 0 ||
            findings_render_json(&l, &out) < 0)
                abort();
        start = strstr(buf_str(&out), ",\"message\":") + strlen(",\"message\":");
        end = strstr(start, ",\"fix\":");
        got = strndup(start, (size_t) (end - start));
        EXPECT(strcmp(got, expected) == 0, "JSON of %s: got %s, expected %s", expected, got, expected);
        free(got);
        buf_free(&out);
        finding_list_free(&l);
}

static void test_human_message(const char *message, const char *expected_line) {
        struct finding_list l = {};
        struct buf out = {};
        char *line;

        if (finding_add(&l, DIAG_WARNING, "test", "/f", 3, NULL, strdup(message), strdup("fix it")) < 0 ||
            findings_render_human(&l, &out) < 0)
                abort();
        line = strndup(buf_str(&out), strcspn(buf_str(&out), "\n"));
        EXPECT(strcmp(line, expected_line) == 0, "human: got [%s], expected [%s]", line, expected_line);
        free(line);
        buf_free(&out);
        finding_list_free(&l);
}

static void test_escaping(void) {
        /* JSON's own escapes */
        test_json_message("plain", "\"plain\"");
        test_json_message("q\"b\\n\nt\t", "\"q\\\"b\\\\n\\nt\\t\"");
        test_json_message("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
        test_json_message("\r", "\"\\u000d\"");
        /* well-formed UTF-8 is copied: 2, 3 and 4 bytes, the largest code point */
        test_json_message("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf",
                          "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf\"");
        /* anything else is one \u00XX per byte: a lone Latin-1 byte, a stray
         * continuation byte, an overlong '/', a surrogate, above U+10FFFF,
         * a truncated sequence at the end */
        test_json_message("caf\xe9", "\"caf\\u00e9\"");
        test_json_message("\x80", "\"\\u0080\"");
        test_json_message("\xc0\xaf", "\"\\u00c0\\u00af\"");
        test_json_message("\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"");
        test_json_message("\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"");
        test_json_message("a\xe2\x82", "\"a\\u00e2\\u0082\"");
        test_json_message("\xff\xfe", "\"\\u00ff\\u00fe\"");

        /* the terminal gets \xNN for controls and stray bytes, UTF-8 as is */
        test_human_message("a\x1b[2Jb", "warning /f:3: a\\x1b[2Jb");
        test_human_message("caf\xe9 caf\xc3\xa9", "warning /f:3: caf\\xe9 caf\xc3\xa9");
        test_human_message("tab\there\x7f", "warning /f:3: tab\\x09here\\x7f");
}

static void test_order_and_status(void) {
        struct finding_list l = {};
        struct buf out = {};

        EXPECT(finding_list_exit_status(&l) == 0, "empty list: status 0");
        if (findings_render_json(&l, &out) < 0)
                abort();
        EXPECT(strcmp(buf_str(&out), "[]\n") == 0, "empty JSON: got %s", buf_str(&out));
        buf_free(&out);
        if (findings_render_human(&l, &out) < 0)
                abort();
        EXPECT(strcmp(buf_str(&out), "No problems found.\n") == 0, "empty human: got %s", buf_str(&out));
        buf_free(&out);

        finding_add(&l, DIAG_NOTE, "n1", NULL, 0, "a.service", strdup("n1"), strdup("f"));
        EXPECT(finding_list_exit_status(&l) == 0, "notes only: status 0");
        finding_add(&l, DIAG_WARNING, "w1", "/f", 0, NULL, strdup("w1"), strdup("f"));
        EXPECT(finding_list_exit_status(&l) == 1, "a warning: status 1");
        finding_add(&l, DIAG_NOTE, "n2", NULL, 0, "b.service", strdup("n2"), strdup("f"));
        finding_add(&l, DIAG_ERROR, "e1", "/f", 2, NULL, strdup("e1"), strdup("f"));
        finding_add(&l, DIAG_WARNING, "w2", "/f", 1, "c.service", strdup("w2"), strdup("f"));
        EXPECT(finding_list_exit_status(&l) == 2, "an error: status 2");
        finding_list_sort(&l);
        if (findings_render_human(&l, &out) < 0)
                abort();
        EXPECT(strcmp(buf_str(&out), "error /f:2: e1\n  fix: f\n"
                                     "warning /f: w1\n  fix: f\n"
                                     "warning /f:1: w2\n  fix: f\n"
                                     "note a.service: n1\n  fix: f\n"
                                     "note b.service: n2\n  fix: f\n"
                                     "1 error, 2 warnings, 2 notes.\n") == 0,
               "sorted human output:\n%s", buf_str(&out));
        buf_free(&out);
        if (findings_render_json(&l, &out) < 0)
                abort();
        EXPECT(strstr(buf_str(&out), "{\"severity\":\"warning\",\"id\":\"w2\",\"file\":\"/f\",\"line\":1,"
                                     "\"unit\":\"c.service\",\"message\":\"w2\",\"fix\":\"f\"}") != NULL,
               "JSON with file, line and unit:\n%s", buf_str(&out));
        EXPECT(strstr(buf_str(&out), "{\"severity\":\"warning\",\"id\":\"w1\",\"file\":\"/f\",\"line\":null,"
                                     "\"unit\":null,") != NULL,
               "JSON without line and unit:\n%s", buf_str(&out));
        buf_free(&out);
        finding_list_free(&l);

        /* a NULL message or fix is an earlier allocation failure */
        EXPECT(finding_add(&l, DIAG_NOTE, "x", NULL, 0, NULL, NULL, strdup("f")) == -ENOMEM, "NULL message");
        EXPECT(l.n == 0, "nothing added");
}

static void test_loopback(void) {
        static const struct {
                const char *source, *hostname;
                bool loopback;
        } cases[] = {
                {"localhost:/srv", NULL, true},
                {"LOCALHOST:/srv", NULL, true},
                {"localhost.localdomain:/srv", NULL, true},
                {"ip6-localhost:/srv", NULL, true},
                {"127.0.0.1:/srv", NULL, true},
                {"127.255.255.254:/srv", NULL, true},
                {"126.0.0.1:/srv", NULL, false},
                {"128.0.0.1:/srv", NULL, false},
                {"1127.0.0.1:/srv", NULL, false},
                {"[::1]:/srv", NULL, true},
                {"::1:/srv", NULL, true},
                {"[::2]:/srv", NULL, false},
                {"[::ffff:127.0.0.1]:/srv", NULL, true},
                {"[::ffff:10.0.0.1]:/srv", NULL, false},
                {"files:/srv", "files", true},
                {"files:/srv", "files.example.org", true},
                {"files.example.org:/srv", "files", true},
                {"Files.Example.Org:/srv", "files.example.org", true},
                {"files.other.org:/srv", "files.example.org", false},
                {"filesrv:/srv", "files", false},
                {"files:/srv", NULL, false},
                {"files:/srv", "", false},
                {"remote:/srv", "files", false},
                {"/dev/sda1", "files", false},
                {"UUID=1234", NULL, false},
                {":/srv", NULL, false},
                {"[::1", NULL, false},
                {"", NULL, false},
        };

        for (size_t i = 0; i < ELEMENTSOF(cases); i++)
                EXPECT(nfs_source_is_loopback(cases[i].source, cases[i].hostname) == cases[i].loopback,
                       "nfs_source_is_loopback(\"%s\", \"%s\") should be %s", cases[i].source,
                       strempty(cases[i].hostname), cases[i].loopback ? "true" : "false");
}

int main(void) {
        test_escaping();
        test_order_and_status();
        test_loopback();
        if (failures) {
                fprintf(stderr, "%d failures\n", failures);
                return 1;
        }
        printf("ok\n");
        return 0;
}

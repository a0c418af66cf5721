/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as a kernel command line, through the split,
 * the decision and the rendering of sysroot.mount, with properties checked
 * on the result (abort() on a violation, so that both libFuzzer and the
 * plain loop report it):
 *   - a decision to mount renders; any other decision renders nothing;
 *   - a refusal says why in exactly one diagnostic, a mount in none;
 *   - every line of the unit is a comment, a section or one of the settings
 *     we write; no line ends in a backslash; no '%' outside comments starts
 *     anything but "%%" (no specifier);
 *   - What= and Options= read back (%% → %) are exactly server:path and
 *     the options decided; Where= is /sysroot, Type= nfs or nfs4. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/nfsroot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *text) {
        fprintf(stderr, "fuzz-nfsroot: %s\n%s\n", what, text ? text : "");
        abort();
}

/* The value with systemd's specifier escaping undone; NULL if a lone '%'
 * (a specifier) is in it. */
static char *unescape_specifiers(const char *value) {
        char *out = malloc(strlen(value) + 1), *o = out;

        if (!out)
                abort();
        for (const char *c = value; *c; c++) {
                if (*c == '%') {
                        if (c[1] != '%') {
                                free(out);
                                return NULL;
                        }
                        c++;
                }
                *o++ = *c;
        }
        *o = '\0';
        return out;
}

static const char *const settings[] = {
        "Description=", "Documentation=", "SourcePath=", "Wants=", "After=",
        "Before=",      "What=",          "Where=",      "Type=",  "Options="};

static void check_unit(const struct nfsroot_spec *spec, char *text) {
        unsigned what = 0, options = 0, where = 0, type = 0;
        char *save = NULL, *expected_what;

        if (asprintf(&expected_what, "%s:%s", spec->server, spec->path) < 0)
                abort();
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                size_t n = strlen(line), i;
                char *value;

                if (line[n - 1] == '\\')
                        fail("a line ends in a backslash", line);
                if (line[0] == '#' || strcmp(line, "[Unit]") == 0 || strcmp(line, "[Mount]") == 0)
                        continue;
                for (i = 0; i < sizeof(settings) / sizeof(settings[0]); i++)
                        if (strncmp(line, settings[i], strlen(settings[i])) == 0)
                                break;
                if (i == sizeof(settings) / sizeof(settings[0]))
                        fail("a line that is no setting of ours", line);
                value = unescape_specifiers(line + strlen(settings[i]));
                if (!value)
                        fail("a specifier in a setting", line);
                if (strcmp(settings[i], "What=") == 0) {
                        what++;
                        if (strcmp(value, expected_what) != 0)
                                fail("What= does not read back as server:path", line);
                } else if (strcmp(settings[i], "Options=") == 0) {
                        options++;
                        if (strcmp(value, spec->options) != 0 || !*value)
                                fail("Options= does not read back as decided", line);
                } else if (strcmp(settings[i], "Where=") == 0) {
                        where++;
                        if (strcmp(value, "/sysroot") != 0)
                                fail("Where= is not /sysroot", line);
                } else if (strcmp(settings[i], "Type=") == 0) {
                        type++;
                        if (strcmp(value, "nfs") != 0 && strcmp(value, "nfs4") != 0)
                                fail("Type= is neither nfs nor nfs4", line);
                }
                free(value);
        }
        if (what != 1 || options != 1 || where != 1 || type != 1)
                fail("What=, Where=, Type= and Options= are not there once each", NULL);
        free(expected_what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char *text = strndup((const char *) data, size);
        struct cmdline cl = {};
        struct nfsroot_spec spec = {};
        struct diag_list diags = {};
        struct buf unit = {};
        int r;

        if (!text)
                return 0;
        if (cmdline_split(text, &cl) < 0 || nfsroot_decide(&cl, "/proc/cmdline", &spec, &diags) < 0)
                goto done; /* out of memory only */

        r = nfsroot_render_mount(&spec, "/proc/cmdline", &unit);
        if (spec.decision == NFSROOT_MOUNT) {
                if (r < 0)
                        fail("a decision to mount does not render", text);
                if (diags.n != 0)
                        fail("a mount with a diagnostic", text);
                check_unit(&spec, unit.data);
        } else {
                if (r >= 0)
                        fail("no mount decided, yet a unit rendered", text);
                if (diags.n != (spec.decision == NFSROOT_REFUSED ? 1u : 0u))
                        fail("a refusal without exactly one reason, or a silent non-NFS root that spoke",
                             text);
        }
done:
        buf_free(&unit);
        diag_list_free(&diags);
        nfsroot_spec_free(&spec);
        cmdline_free(&cl);
        free(text);
        return 0;
}

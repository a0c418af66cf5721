/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target for nfs-systemd-check: any bytes as exports, fstab,
 * nfs.conf and hostname, any enable/mask state of the units, through every
 * check and both renderings. Nothing may crash or leak, and neither output
 * may carry a raw control character (other than the newlines between lines).
 *
 * Input: two bytes of unit state (bit 2u: unit u enabled, bit 2u+1: masked),
 * one byte of flags (bit 0: the keytab exists, bit 1: every unit is
 * installed), then up to four parts
 * separated by 0xff bytes: exports, fstab, nfs.conf, hostname. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "findings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void assert_no_raw_controls(const struct buf *b) {
        for (size_t i = 0; i < b->len; i++) {
                unsigned char c = (unsigned char) b->data[i];
                if ((c < 0x20 && c != '\n') || c == 0x7f) {
                        fprintf(stderr, "raw control character 0x%02x at offset %zu of:\n%s\n", c, i,
                                b->data);
                        abort();
                }
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static const char *const enabled_by = "/etc/systemd/system/multi-user.target.wants/x.service";
        static const char *const masked_at = "/etc/systemd/system/x.service";
        struct check_input in = {.keytab = "/etc/krb5.keytab",
                                 .pipefs_default = "/var/lib/nfs/rpc_pipefs",
                                 .statd_default = "/var/lib/nfs"};
        struct finding_list findings = {};
        struct buf human = {}, json = {};
        const char *parts[4] = {"", "", "", ""};
        size_t sizes[4] = {};
        char *copy, *hostname = NULL, *export_root = NULL;
        unsigned state;

        if (size < 3)
                return 0;
        state = (unsigned) data[0] | (unsigned) data[1] << 8;
        in.keytab_present = data[2] & 1;
        for (unsigned u = 0; u < _UNIT_MAX; u++) {
                in.units[u].enabled_by = state & (1u << (2 * u)) ? enabled_by : NULL;
                in.units[u].masked_at = state & (1u << (2 * u + 1)) ? masked_at : NULL;
                in.units[u].installed_at = data[2] & 2 ? "/usr/lib/systemd/system/x.service" : NULL;
        }
        /* the network units (client_checks.c): enabled or not, one bit each */
        for (unsigned u = 0; u < _NETWORK_UNIT_MAX; u++)
                in.network_units[u].enabled_by = data[2] & (4u << u) ? enabled_by : NULL;

        /* a NUL-terminated copy, cut into parts at 0xff */
        copy = malloc(size - 3 + 1);
        if (!copy)
                return 0;
        memcpy(copy, data + 3, size - 3);
        copy[size - 3] = '\0';
        {
                char *p = copy, *end = copy + (size - 3);
                for (size_t i = 0; i < 4 && p <= end; i++) {
                        char *sep = i < 3 ? memchr(p, 0xff, (size_t) (end - p)) : NULL;
                        parts[i] = p;
                        sizes[i] = sep ? (size_t) (sep - p) : (size_t) (end - p);
                        if (!sep)
                                break;
                        *sep = '\0';
                        p = sep + 1;
                }
        }

        if (exports_parse(&in.exports, parts[0], sizes[0], "/etc/exports", &in.exports_diags) < 0)
                goto finish;
        in.fstab.file = "/etc/fstab";
        if (sizes[1] > 0) {
                FILE *f = fmemopen((void *) parts[1], sizes[1], "r");
                if (!f)
                        goto finish;
                if (fstab_parse(&in.fstab, f, "/etc/fstab", &in.fstab_diags) < 0) {
                        fclose(f);
                        goto finish;
                }
                fclose(f);
        }
        if (nfsconf_parse(&in.conf, parts[2], sizes[2], "/etc/nfs.conf", NULL, &in.nfsconf_diags) < 0)
                goto finish;
        if (nfsconf_get_path(&in.conf, "exports", "rootdir", &in.nfsconf_diags, &export_root) < 0)
                goto finish;
        in.export_root = export_root;
        if (sizes[3] > 0) {
                hostname = strndup(parts[3], sizes[3]);
                in.hostname = hostname;
        }

        if (checks_run(&in, &findings) < 0)
                goto finish;
        finding_list_sort(&findings);
        (void) finding_list_exit_status(&findings);
        if (findings_render_human(&findings, &human) == 0)
                assert_no_raw_controls(&human);
        if (findings_render_json(&findings, &json) == 0)
                assert_no_raw_controls(&json);

finish:
        buf_free(&human);
        buf_free(&json);
        finding_list_free(&findings);
        export_table_free(&in.exports);
        fstab_table_free(&in.fstab);
        nfsconf_free(&in.conf);
        diag_list_free(&in.nfsconf_diags);
        diag_list_free(&in.exports_diags);
        diag_list_free(&in.fstab_diags);
        free(export_root);
        free(hostname);
        free(copy);
        return 0;
}

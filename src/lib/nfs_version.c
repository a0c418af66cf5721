/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <assert.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include "fstab.h"
#include "macro.h"
#include "nfs_version.h"

/* mount.nfs's table, in its order: the index tells how the value is read */
static const char *const version_options[] = {"v2", "v3", "v4", "vers", "nfsvers"};
enum { FIRST_VALUE_OPTION = 3 }; /* vers=, nfsvers=: the value follows "=" */

static bool has_prefix(const struct mount_option *o, const char *prefix) {
        size_t n = strlen(prefix);
        return o->name_size >= n && strncmp(o->name, prefix, n) == 0;
}

/* strtol(s, &end, 10) over the span [*s, end): an optional sign, then
 * digits; false when there is no digit. *s is moved past what was read. */
static bool read_number(const char **s, const char *end, int *ret) {
        const char *p = *s;
        bool negative = false;
        long n = 0;

        if (p < end && (*p == '+' || *p == '-'))
                negative = *p++ == '-';
        if (p >= end || *p < '0' || *p > '9')
                return false;
        for (; p < end && *p >= '0' && *p <= '9'; p++)
                if (n < INT_MAX)
                        n = n * 10 + (*p - '0');
        *ret = (int) (negative ? -(n > INT_MAX ? INT_MAX : n) : (n > INT_MAX ? INT_MAX : n));
        *s = p;
        return true;
}

/* minorversion=N's value, as the last step of nfs_nfs_version() reads it */
static bool minorversion_of(const char *options, int *ret, bool *present) {
        struct mount_option o;

        *present = false;
        for (const char *p = options; mount_option_next(&p, &o);)
                if (o.value && mount_option_is(&o, "minorversion")) {
                        const char *v = o.value, *end = o.value + o.value_size;
                        *present = true;
                        /* po_get() finds the first one; strtol() reads "" as 0 */
                        *ret = 0;
                        return v == end || (read_number(&v, end, ret) && v == end);
                }
        return true;
}

bool nfs_version_option(const struct mount_option *o) {
        for (size_t i = 0; i < ELEMENTSOF(version_options); i++)
                if (has_prefix(o, version_options[i]))
                        return true;
        return false;
}

struct nfs_version nfs_version_asked(const char *fstype, const char *options) {
        static const char multiple[] = "multiple version options not permitted";
        static const char *const parse_errors[] = {
                "parsing error on 'v' option", "parsing error on 'v' option", "parsing error on 'v' option",
                "parsing error on 'vers=' option", "parsing error on 'nfsvers=' option"};
        struct nfs_version v = {.major = 0, .minor = -1};
        struct mount_option o, found_option = {};
        const char *value, *end;
        int found = -1, minor;
        bool has_minorversion;

        assert(fstype);
        assert(options);

        /* no option matches two prefixes, so a second match of any of them
         * is what mount.nfs refuses */
        for (size_t i = 0; i < ELEMENTSOF(version_options); i++)
                for (const char *p = options; mount_option_next(&p, &o);) {
                        if (!has_prefix(&o, version_options[i]))
                                continue;
                        if (found >= 0)
                                return (struct nfs_version){.minor = -1, .refused = multiple};
                        found = (int) i;
                        found_option = o;
                }
        if (found < 0) {
                if (strcmp(fstype, "nfs4") == 0)
                        v.major = 4;
                return v;
        }
        if (found < FIRST_VALUE_OPTION) {
                /* "v3", "v4.1": the version follows the "v" */
                value = found_option.name + 1;
                end = found_option.name + found_option.name_size;
        } else {
                if (!found_option.value)
                        return (struct nfs_version){.minor = -1, .refused = parse_errors[found]};
                value = found_option.value;
                end = found_option.value + found_option.value_size;
        }
        if (!read_number(&value, end, &v.major) || (value < end && *value != '.'))
                return (struct nfs_version){.minor = -1, .refused = parse_errors[found]};
        if (v.major == 4 && value == end && !minorversion_of(options, &minor, &has_minorversion))
                return (struct nfs_version){.minor = -1,
                                            .refused = "parsing error on 'minorversion=' option"};
        if (v.major == 4 && value == end && has_minorversion)
                v.minor = minor;
        else if (v.major < 4 && value < end)
                /* mount.nfs takes no minor version below NFSv4 */
                return (struct nfs_version){.minor = -1, .refused = parse_errors[found]};
        else if (value < end) {
                value++; /* the '.' */
                if (!read_number(&value, end, &v.minor) || value < end)
                        return (struct nfs_version){.minor = -1, .refused = parse_errors[found]};
        } else if (v.major > 4 && !minorversion_of(options, &minor, &has_minorversion))
                return (struct nfs_version){.minor = -1, .refused = parse_errors[found]};
        else if (v.major > 4 && has_minorversion)
                v.minor = minor;
        return v;
}

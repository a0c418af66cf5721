/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <assert.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include "fstab.h"
#include "macro.h"
#include "nfs_version.h"

/* mount.nfs's table (nfs_version_opttbl), in its order: the index tells how
 * the value is read and which parsing error is reported */
static const char *const version_options[] = {"v2", "v3", "v4", "vers", "nfsvers"};
enum { FIRST_VALUE_OPTION = 3 }; /* vers=, nfsvers=: the value follows "=" */
static const char *const parse_errors[] = {"parsing error on 'v' option", "parsing error on 'v' option",
                                           "parsing error on 'v' option", "parsing error on 'vers=' option",
                                           "parsing error on 'nfsvers=' option"};

/* stropts.c looks for these by name (po_contains()): with no version they
 * make it mount NFSv3, with NFSv4 they make it fail */
static const char *const mountd_options[] = {"mounthost", "mountaddr", "mountvers", "mountproto",
                                             "mountport"};

static bool has_prefix(const struct mount_option *o, const char *prefix) {
        size_t n = strlen(prefix);
        return o->name_size >= n && strncmp(o->name, prefix, n) == 0;
}

static bool is_c_space(char c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
}

/* strtol(s, &next, 10) over the span [s, end), which is not NUL-terminated:
 * blanks, a sign, then digits, saturating at LONG_MIN and LONG_MAX; *next is
 * s when there is no digit, as strtol() leaves it. */
static long span_strtol(const char *s, const char *end, const char **next) {
        const char *p = s;
        unsigned long n = 0, limit;
        bool negative = false, overflow = false;

        while (p < end && is_c_space(*p))
                p++;
        if (p < end && (*p == '+' || *p == '-'))
                negative = *p++ == '-';
        if (p >= end || *p < '0' || *p > '9') {
                *next = s;
                return 0;
        }
        limit = negative ? (unsigned long) LONG_MAX + 1 : (unsigned long) LONG_MAX;
        for (; p < end && *p >= '0' && *p <= '9'; p++) {
                unsigned digit = (unsigned) (*p - '0');
                if (overflow || n > (limit - digit) / 10)
                        overflow = true;
                else
                        n = n * 10 + digit;
        }
        *next = p;
        if (overflow)
                return negative ? LONG_MIN : LONG_MAX;
        return negative ? (n == 0 ? 0 : -(long) (n - 1) - 1) : (long) n;
}

/* minorversion= as po_get() finds it (the last one; none when the last has
 * no "="), read into v: false when its value is not a number ("" is 0) */
static bool read_minorversion(const char *options, struct nfs_version *v) {
        struct mount_option o;
        const char *value = NULL, *end = NULL, *p;

        for (const char *q = options; mount_option_next(&q, &o);)
                if (mount_option_is(&o, "minorversion")) {
                        value = o.value;
                        end = o.value + o.value_size;
                }
        if (!value)
                return true;
        v->minor = span_strtol(value, end, &p);
        v->minor_named = true;
        return p == end;
}

static bool has_mountd_option(const char *options) {
        struct mount_option o;

        for (const char *p = options; mount_option_next(&p, &o);)
                if (nfs_mountd_option(&o))
                        return true;
        return false;
}

bool nfs_version_option(const struct mount_option *o) {
        for (size_t i = 0; i < ELEMENTSOF(version_options); i++)
                if (has_prefix(o, version_options[i]))
                        return true;
        return false;
}

bool nfs_mountd_option(const struct mount_option *o) {
        for (size_t i = 0; i < ELEMENTSOF(mountd_options); i++)
                if (mount_option_is(o, mountd_options[i]))
                        return true;
        return false;
}

static struct nfs_version refuse(enum nfs_version_refusal why, const char *words) {
        return (struct nfs_version){.refusal = why, .refused = words};
}

/* nfs_nfs_version(): the version options alone. With found < 0 (type nfs4
 * and no version option) the version is the "4" of "nfs4". */
static struct nfs_version read_version(const char *options, int found, const struct mount_option *o) {
        struct nfs_version v = {};
        const char *value, *end, *p;

        if (found < 0) {
                value = "4";
                end = value + 1;
        } else if (found < FIRST_VALUE_OPTION) {
                /* "v3", "v4.1": the version follows the "v", any value is ignored */
                value = o->name + 1;
                end = o->name + o->name_size;
        } else if (!o->value)
                return refuse(NFS_VERSION_UNREADABLE, parse_errors[found]);
        else {
                value = o->value;
                end = o->value + o->value_size;
        }
        v.major = span_strtol(value, end, &p);
        if (p == value || (p < end && *p != '.'))
                return refuse(NFS_VERSION_UNREADABLE, parse_errors[found]);
        /* mount.nfs keeps the major version in an unsigned long: a negative
         * one is above 4 */
        if ((unsigned long) v.major < 4) {
                /* no minor version below NFSv4: "3.0" is refused */
                if (p < end)
                        return refuse(NFS_VERSION_UNREADABLE, parse_errors[found]);
        } else if (p < end) {
                /* "4.1": minorversion= is not read */
                const char *minor = p + 1;
                v.minor = span_strtol(minor, end, &p);
                if (p == minor || p != end)
                        return refuse(NFS_VERSION_UNREADABLE, parse_errors[found]);
                v.minor_named = true;
        } else if (!read_minorversion(options, &v))
                /* with NFSv4 the one error in words of its own */
                return refuse(NFS_VERSION_UNREADABLE, v.major == 4
                                                              ? "parsing error on 'minorversion=' option"
                                                              : parse_errors[found]);
        return v;
}

/* Whether libmount takes two options for copies of one (optlist.c's
 * is_equal_opts()) */
static bool same_option(const struct mount_option *a, const struct mount_option *b) {
        return a->name_size == b->name_size && strncmp(a->name, b->name, a->name_size) == 0 &&
               !a->value == !b->value &&
               (!a->value ||
                (a->value_size == b->value_size && strncmp(a->value, b->value, a->value_size) == 0));
}

struct nfs_version nfs_version_asked(const char *fstype, const char *options, unsigned libmount) {
        bool drops_duplicates = libmount == 0 || libmount >= LIBMOUNT_DROPS_DUPLICATES;
        struct mount_option o, found_option = {};
        struct nfs_version v;
        int found = -1;

        assert(fstype);
        assert(options);

        /* no option matches two prefixes, so a second match of any of them
         * is what mount.nfs refuses, unless libmount has dropped it as a copy */
        for (size_t i = 0; i < ELEMENTSOF(version_options); i++)
                for (const char *p = options; mount_option_next(&p, &o);) {
                        if (!has_prefix(&o, version_options[i]))
                                continue;
                        if (found >= 0 && !(drops_duplicates && same_option(&o, &found_option)))
                                return refuse(NFS_VERSION_MULTIPLE,
                                              "multiple version options not permitted");
                        found = (int) i;
                        found_option = o;
                }
        if (found < 0 && strcmp(fstype, "nfs4") != 0)
                /* nfs_set_version(): options of the MOUNT protocol mean NFSv3
                 * (mountport only in nfs_do_mount_v4(), which refuses NFSv4
                 * for it, so the negotiation ends at NFSv3 all the same) */
                return (struct nfs_version){.major = has_mountd_option(options) ? 3 : 0};

        v = read_version(options, found, &found_option);
        if (v.refused)
                return v;
        /* nfsmount_start(), then nfs_try_mount(): before any server is
         * asked, the mount fails for NFSv2 and every version but 3 and 4 */
        if (v.major == 2)
                return refuse(NFS_VERSION_UNSUPPORTED,
                              "requested NFS version or transport protocol is not supported");
        if (v.major == 4 && has_mountd_option(options))
                /* nfs_do_mount_v4() refuses each try with EPROTONOSUPPORT */
                return refuse(NFS_VERSION_MOUNTD_OPTION_ON_V4, "Protocol not supported");
        if (v.major != 3 && v.major != 4)
                /* EIO from nfs_try_mount()'s switch */
                return refuse(NFS_VERSION_UNSUPPORTED, "mount system call failed");
        return v;
}

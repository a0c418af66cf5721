/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "nfs_utils.h"

unsigned nfs_utils_version_from_debian(const char *v) {
        unsigned parts[3] = {};
        const char *colon;

        assert(v);
        /* the epoch ("1:") is Debian's, not upstream's */
        colon = strchr(v, ':');
        if (colon && strspn(v, "0123456789") == (size_t) (colon - v))
                v = colon + 1;
        /* major.minor, then .patch if given (2.7 is 2.7.0) */
        for (unsigned i = 0; i < 3; i++) {
                size_t n = strspn(v, "0123456789");
                if (n == 0 || n > 2)
                        return 0;
                parts[i] = (unsigned) strtoul(v, NULL, 10);
                v += n;
                if (i == 2 || *v != '.')
                        break;
                v++;
        }
        if (parts[0] == 0)
                return 0;
        /* what may follow: the Debian revision, or a pre-release (~rc1) */
        if (*v && *v != '-' && *v != '~' && *v != '+')
                return 0;
        return NFS_UTILS_VERSION(parts[0], parts[1], parts[2]);
}

/* The Version: of `package` in a dpkg status file, if its Status: says it is
 * installed; NULL otherwise. Points into `status`, which is cut up. */
static const char *status_installed_version(char *status, const char *package) {
        for (char *stanza = status; stanza && *stanza;) {
                char *end = strstr(stanza, "\n\n");
                const char *version = NULL;
                bool ours = false, installed = false;

                if (end)
                        *end = '\0';
                for (char *line = stanza; line;) {
                        char *nl = strchr(line, '\n');
                        if (nl)
                                *nl = '\0';
                        if (strncmp(line, "Package: ", 9) == 0)
                                ours = strcmp(line + 9, package) == 0;
                        else if (strncmp(line, "Status: ", 8) == 0)
                                installed = strcmp(line + 8, "install ok installed") == 0;
                        else if (strncmp(line, "Version: ", 9) == 0)
                                version = line + 9;
                        line = nl ? nl + 1 : NULL;
                }
                if (ours)
                        return installed ? version : NULL;
                stanza = end ? end + 2 : NULL;
        }
        return NULL;
}

/* The version of the first of `packages` that dpkg's status file below the
 * root says is installed, 0 when none is */
static int installed_version(const struct rootfs *root, const char *const *packages, size_t n_packages,
                             unsigned *ret) {
        _cleanup_free_ char *status = NULL;
        size_t size;
        int r;

        assert(root);
        assert(ret);
        *ret = 0;
        r = rootfs_read_file(root, "/var/lib/dpkg/status", &status, &size, NULL);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return 0;
        for (size_t i = 0; i < n_packages && *ret == 0; i++) {
                /* the search cuts its text up: a copy for each package */
                _cleanup_free_ char *copy = strdup(status);
                const char *version;

                if (!copy)
                        return -ENOMEM;
                version = status_installed_version(copy, packages[i]);
                if (version)
                        *ret = nfs_utils_version_from_debian(version);
        }
        return 0;
}

int nfs_utils_version_installed(const struct rootfs *root, unsigned *ret) {
        static const char *const packages[] = {"nfs-kernel-server", "nfs-common"};
        return installed_version(root, packages, ELEMENTSOF(packages), ret);
}

int libmount_version_installed(const struct rootfs *root, unsigned *ret) {
        static const char *const packages[] = {"libmount1"};
        return installed_version(root, packages, ELEMENTSOF(packages), ret);
}

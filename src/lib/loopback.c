/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "loopback.h"
#include "macro.h"

static bool name_is_localhost(const char *host) {
        static const char *const names[] = {
                "localhost",     "localhost.localdomain", "localhost6", "localhost6.localdomain6",
                "ip6-localhost", "ip6-loopback",
        };
        for (size_t i = 0; i < ELEMENTSOF(names); i++)
                if (strcasecmp(host, names[i]) == 0)
                        return true;
        return false;
}

static bool address_is_loopback(const char *host) {
        struct in_addr a4;
        struct in6_addr a6;

        if (inet_pton(AF_INET, host, &a4) == 1)
                return (ntohl(a4.s_addr) >> 24) == 127;
        if (inet_pton(AF_INET6, host, &a6) == 1)
                return IN6_IS_ADDR_LOOPBACK(&a6) || (IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127);
        return false;
}

/* Host names compare without case; "files" and "files.example.org" are the
 * same host when one of them is not qualified. */
static bool name_is_host(const char *host, const char *hostname) {
        size_t host_label, name_label;

        if (!hostname || !*hostname)
                return false;
        if (strcasecmp(host, hostname) == 0)
                return true;
        host_label = strcspn(host, ".");
        name_label = strcspn(hostname, ".");
        if (host[host_label] != '\0' && hostname[name_label] != '\0')
                return false; /* both qualified, and different */
        return host_label == name_label && host_label > 0 && strncasecmp(host, hostname, host_label) == 0;
}

bool nfs_source_is_loopback(const char *source, const char *hostname) {
        _cleanup_free_ char *host = NULL;
        const char *end;

        if (!source)
                return false;
        if (source[0] == '[') {
                end = strchr(source, ']');
                if (!end)
                        return false;
                host = strndup(source + 1, (size_t) (end - source - 1));
        } else {
                /* "server:/path"; an unbracketed IPv6 address ends at ":/" */
                end = strstr(source, ":/");
                if (!end)
                        end = strchr(source, ':');
                if (!end)
                        return false;
                host = strndup(source, (size_t) (end - source));
        }
        if (!host || !*host)
                return false;
        return name_is_localhost(host) || address_is_loopback(host) || name_is_host(host, hostname);
}

int hostname_read(const struct rootfs *root, char **ret) {
        _cleanup_free_ char *data = NULL;
        char *line, *save = NULL;
        int r;

        *ret = NULL;
        r = rootfs_read_file(root, "/etc/hostname", &data, NULL, NULL);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return 0;
        for (line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                size_t len;
                line += strspn(line, " \t\r");
                len = strcspn(line, " \t\r");
                if (len == 0 || line[0] == '#')
                        continue;
                *ret = strndup(line, len);
                return *ret ? 0 : -ENOMEM;
        }
        return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* genl-family-exists NAME...
 *
 * Exits 0 when the running kernel has every named generic netlink family,
 * 1 when one is missing, 2 when the question cannot be asked.  Prints
 * nothing: it decides, the caller logs.
 *
 * Why: nfs-utils 2.8.1 starts the server with `nfsdctl autostart`, which
 * configures lockd through the "lockd" family and nfsd through "nfsd".
 * Kernels before 6.15 have no "lockd" family, and there nfsdctl logs
 * "lockd configuration failure" and exits 1 before rpc.nfsd takes over, so
 * every boot of a Debian 13 server (kernel 6.12) left an error in the
 * journal.  Asking the kernel which families exist picks the right tool
 * before anything is logged, and follows backports that a kernel version
 * test would miss.  No libnl: one request to the netlink controller. */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define NLA_SPACE(len) NLA_ALIGN(NLA_HDRLEN + (len))

/* 1: the family exists, 0: it does not, -errno: cannot tell. */
static int family_exists(int fd, const char *name, uint32_t seq) {
        size_t name_len = strlen(name) + 1;
        struct {
                struct nlmsghdr nlh;
                struct genlmsghdr genl;
                char attrs[NLA_SPACE(GENL_NAMSIZ)];
        } req = {0};
        struct nlattr *attr = (struct nlattr *) req.attrs;
        char reply[8192];

        if (name_len > GENL_NAMSIZ)
                return 0; /* no family can have such a name */
        req.nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN) + NLA_SPACE(name_len);
        req.nlh.nlmsg_type = GENL_ID_CTRL;
        req.nlh.nlmsg_flags = NLM_F_REQUEST;
        req.nlh.nlmsg_seq = seq;
        req.genl.cmd = CTRL_CMD_GETFAMILY;
        req.genl.version = 1;
        attr->nla_type = CTRL_ATTR_FAMILY_NAME;
        attr->nla_len = NLA_HDRLEN + name_len;
        memcpy(req.attrs + NLA_HDRLEN, name, name_len);

        if (send(fd, &req, req.nlh.nlmsg_len, 0) < 0)
                return -errno;
        for (;;) {
                ssize_t n = recv(fd, reply, sizeof(reply), 0);
                if (n < 0)
                        return -errno;
                for (struct nlmsghdr *h = (struct nlmsghdr *) reply; NLMSG_OK(h, (size_t) n);
                     h = NLMSG_NEXT(h, n)) {
                        if (h->nlmsg_seq != seq)
                                continue;
                        if (h->nlmsg_type == NLMSG_ERROR) {
                                const struct nlmsgerr *e = NLMSG_DATA(h);
                                /* ENOENT: the controller knows no such family */
                                return e->error == -ENOENT ? 0 : e->error;
                        }
                        if (h->nlmsg_type == GENL_ID_CTRL)
                                return 1;
                }
        }
}

int main(int argc, char **argv) {
        struct timeval timeout = {.tv_sec = 5};
        int fd;

        if (argc < 2) {
                fprintf(stderr, "usage: genl-family-exists NAME...\n");
                return 2;
        }
        fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
        if (fd < 0)
                return 2;
        /* never hang a unit's start on a kernel that does not answer */
        (void) setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
        for (int i = 1; i < argc; i++) {
                int r = family_exists(fd, argv[i], (uint32_t) i);
                if (r <= 0) {
                        close(fd);
                        return r == 0 ? 1 : 2;
                }
        }
        close(fd);
        return 0;
}

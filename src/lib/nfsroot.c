/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "macro.h"
#include "nfsroot.h"
#include "strutil.h"

/* One refusal: an error (or, when the answer is only known at boot, a
 * warning) naming the parameter, and no unit. */
struct nfsroot_parse {
        const char *source;
        const char *parameter;
        struct diag_list *diags;
        enum diag_severity severity;
        char *why; /* set by the first problem found */
};

static int refuse(struct nfsroot_parse *p, enum diag_severity severity, char *why) {
        if (!why)
                return -ENOMEM;
        if (p->why) {
                free(why);
                return -EINVAL;
        }
        p->why = why;
        p->severity = severity;
        return -EINVAL;
}

static bool has_control_or_blank(const char *s) {
        for (const unsigned char *c = (const unsigned char *) s; *c; c++)
                if (*c <= ' ' || *c == 0x7f)
                        return true;
        return false;
}

static bool is_ipv4(const char *s) {
        struct in_addr a;
        return inet_pton(AF_INET, s, &a) == 1;
}

/* "[ADDR]" or "[ADDR%ZONE]" with an IPv6 ADDR and an interface name ZONE */
static bool is_bracketed_ipv6(const char *s) {
        size_t n = strlen(s);
        _cleanup_free_ char *inner = NULL;
        struct in6_addr a;
        char *zone;

        if (n < 3 || s[0] != '[' || s[n - 1] != ']')
                return false;
        inner = strndup(s + 1, n - 2);
        if (!inner)
                return false;
        zone = strchr(inner, '%');
        if (zone) {
                *zone++ = '\0';
                if (*zone == '\0' || strlen(zone) > 15 ||
                    zone[strspn(zone, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")])
                        return false;
        }
        return inet_pton(AF_INET6, inner, &a) == 1;
}

/* An address as ip= may hold one: IPv4, or IPv6 in brackets */
static bool is_address(const char *s) {
        return is_ipv4(s) || is_bracketed_ipv6(s);
}

static int check_server(struct nfsroot_parse *p, const char *server) {
        _cleanup_free_ char *shown = escape_for_comment(server);

        if (!shown)
                return -ENOMEM;
        if (server[0] == '[') {
                if (!is_bracketed_ipv6(server))
                        return refuse(p, DIAG_ERROR,
                                      strprintf("the server %s is not an IPv6 address in brackets", shown));
                return 0;
        }
        /* What=-fvo:/srv/root would reach mount(8) as its options "-fvo",
         * and no host name starts with '-' (RFC 952) */
        if (server[0] == '-')
                return refuse(p, DIAG_ERROR,
                              strprintf("the server %s starts with '-', so mount would read it as options, "
                                        "and no host name does",
                                        shown));
        if (strlen(server) > NFSROOT_HOST_MAX)
                return refuse(p, DIAG_ERROR,
                              strprintf("the server name is longer than %d bytes", NFSROOT_HOST_MAX));
        if (server[strspn(server, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")])
                return refuse(p, DIAG_ERROR,
                              strprintf("the server %s is neither a host name nor an IPv4 address "
                                        "(an IPv6 address goes in brackets: [2001:db8::1]:/path)",
                                        shown));
        return 0;
}

/* Splits "[SERVER:]PATH[<sep>OPTIONS]", where <sep> is any byte of `seps`
 * (dracut takes ':' or ','; the kernel ','). The server ends at the ':' before
 * the path's first '/'; an IPv6 server is in brackets, since its own colons
 * would make the split ambiguous. */
static int split_location(struct nfsroot_parse *p, const char *text, const char *seps, char **ret_server,
                          char **ret_path, char **ret_options) {
        _cleanup_free_ char *server = NULL, *path = NULL, *options = NULL;
        const char *rest, *end;

        if (text[0] == '[') {
                const char *close = strchr(text, ']');
                if (!close)
                        return refuse(p, DIAG_ERROR,
                                      strprintf("the IPv6 address after [ is not closed by ]"));
                if (close[1] != ':')
                        return refuse(
                                p, DIAG_ERROR,
                                strprintf(
                                        "the IPv6 address in brackets is not followed by ':' and the path"));
                server = strndup(text, (size_t) (close + 1 - text));
                rest = close + 2;
        } else if (text[0] == '/') {
                rest = text;
        } else {
                const char *colon = strchr(text, ':'), *slash = strchr(text, '/');
                if (!colon || (slash && slash < colon))
                        return refuse(p, DIAG_ERROR, strprintf("no absolute path: expected [SERVER:]/PATH"));
                if (colon == text)
                        return refuse(p, DIAG_ERROR, strprintf("the server before ':' is empty"));
                if (colon[1] != '/') {
                        /* more colons before the path: an IPv6 address without brackets */
                        if (slash && memchr(colon + 1, ':', (size_t) (slash - colon - 1)))
                                return refuse(p, DIAG_ERROR,
                                              strprintf("an IPv6 server address must be written in "
                                                        "brackets: [2001:db8::1]:/path"));
                        return refuse(p, DIAG_ERROR, strprintf("the path after the server is not absolute"));
                }
                server = strndup(text, (size_t) (colon - text));
                rest = colon + 1;
        }
        if (text[0] != '/' && !server)
                return -ENOMEM;
        if (rest[0] != '/')
                return refuse(p, DIAG_ERROR, strprintf("the path after the server is not absolute"));

        end = rest + strcspn(rest, seps);
        path = strndup(rest, (size_t) (end - rest));
        options = strdup(*end ? end + 1 : "");
        if (!path || !options)
                return -ENOMEM;
        *ret_server = TAKE_PTR(server);
        *ret_path = TAKE_PTR(path);
        *ret_options = TAKE_PTR(options);
        return 0;
}

/* Field `index` of ip=CLIENT:SERVER:GW:MASK:HOST:DEV:AUTOCONF..., colons
 * inside brackets kept; NULL when there is no such field. */
static char *ip_field(const char *ip, unsigned index) {
        const char *start = ip;
        unsigned field = 0;
        bool bracket = false;

        for (const char *c = ip;; c++) {
                if (*c == '[')
                        bracket = true;
                else if (*c == ']')
                        bracket = false;
                else if ((*c == ':' && !bracket) || *c == '\0') {
                        if (field == index)
                                return strndup(start, (size_t) (c - start));
                        if (*c == '\0')
                                return NULL;
                        field++;
                        start = c + 1;
                }
                if (*c == '\0')
                        return NULL;
        }
}

/* The first address in field `index` of the ip= parameters, in order. */
static int ip_address(const struct cmdline *cl, unsigned index, char **ret) {
        for (size_t i = 0; i < cl->n; i++) {
                const char *ip = cmdline_word_value(cl->words[i], "ip");
                char *f;
                if (!ip)
                        continue;
                f = ip_field(ip, index);
                if (f && is_address(f)) {
                        *ret = f;
                        return 1;
                }
                free(f);
        }
        *ret = NULL;
        return 0;
}

/* "%s" in the path stands for the client's address (nfsroot.rst). */
static int substitute_client(struct nfsroot_parse *p, const struct cmdline *cl, char **path) {
        _cleanup_free_ char *client = NULL;
        struct buf out = {};
        char *mark = strstr(*path, "%s");

        if (!mark)
                return 0;
        (void) ip_address(cl, 0, &client);
        if (!client)
                return refuse(
                        p, DIAG_WARNING,
                        strprintf("the path has %%s, which stands for the client's address, and no ip= "
                                  "parameter names one (ip=CLIENT:SERVER:...): it is known only at boot"));
        buf_puts(&out, "");
        for (const char *c = *path; *c; c++) {
                if (c[0] == '%' && c[1] == 's') {
                        buf_puts(&out, client);
                        c++;
                } else
                        buf_putc(&out, *c);
        }
        if (buf_status(&out) < 0) {
                buf_free(&out);
                return -ENOMEM;
        }
        free(*path);
        *path = out.data;
        return 0;
}

static int check_path(struct nfsroot_parse *p, const char *path) {
        if (strlen(path) > NFSROOT_PATH_MAX)
                return refuse(
                        p, DIAG_ERROR,
                        strprintf("the path is longer than %d bytes, the most the MOUNT protocol carries",
                                  NFSROOT_PATH_MAX));
        if (has_control_or_blank(path))
                return refuse(p, DIAG_ERROR,
                              strprintf("the path holds white space or a control character, which a "
                                        "mount unit's What= cannot hold"));
        if (!unit_value_verbatim_representable(path))
                return refuse(p, DIAG_ERROR,
                              strprintf("the path cannot be written in a unit file (it ends in a backslash "
                                        "or is not UTF-8)"));
        return 0;
}

/* What the options ask for, read as mount.nfs reads them (the last wins). */
struct option_facts {
        int version; /* 0: not given (negotiated), else 2, 3 or 4 */
        bool lock_chosen;
        int ro_rw; /* the last of ro (1) and rw (2) among the options, 0: neither */
};

static int version_of(const char *value) {
        if (strcmp(value, "2") == 0)
                return 2;
        if (strcmp(value, "3") == 0)
                return 3;
        if (strcmp(value, "4") == 0 ||
            (strncmp(value, "4.", 2) == 0 && value[2] && value[2 + strspn(value + 2, "0123456789")] == '\0'))
                return 4;
        return -1;
}

static int add_options(struct nfsroot_parse *p, struct buf *out, const char *list,
                       struct option_facts *facts) {
        _cleanup_free_ char *copy = strdup(list);
        char *save = NULL;

        if (!copy)
                return -ENOMEM;
        for (char *o = strtok_r(copy, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
                _cleanup_free_ char *shown = escape_for_comment(o);
                const char *v;
                int version = 0;

                if (!shown)
                        return -ENOMEM;
                if (has_control_or_blank(o) || !unit_value_verbatim_representable(o))
                        return refuse(
                                p, DIAG_ERROR,
                                strprintf("the option %s cannot be written in a unit file (white space, "
                                          "a control character, a trailing backslash or not UTF-8)",
                                          shown));
                if ((v = cmdline_word_value(o, "vers")) || (v = cmdline_word_value(o, "nfsvers")))
                        version = version_of(v);
                else if (o[0] == 'v' && version_of(o + 1) > 0)
                        version = version_of(o + 1);
                if (version < 0)
                        return refuse(
                                p, DIAG_ERROR,
                                strprintf("the option %s names no NFS version (2, 3, 4 or 4.N)", shown));
                if (version > 0)
                        facts->version = version;
                if (strcmp(o, "lock") == 0 || strcmp(o, "nolock") == 0 ||
                    cmdline_word_value(o, "local_lock"))
                        facts->lock_chosen = true;
                if (strcmp(o, "ro") == 0)
                        facts->ro_rw = 1;
                else if (strcmp(o, "rw") == 0)
                        facts->ro_rw = 2;
                if (out->len > 0)
                        buf_putc(out, ',');
                buf_puts(out, o);
        }
        return buf_status(out);
}

/* Options=: the location's options, then every rootflags= (systemd joins
 * them), then nolock for an explicit v2/v3 root that did not choose (as the
 * kernel and dracut do: no rpc.statd runs in the initrd), then ro or rw as
 * systemd-fstab-generator decides it for a root. */
static int decide_options(struct nfsroot_parse *p, const struct cmdline *cl, const char *location_options,
                          bool nfs4_form, struct nfsroot_spec *spec) {
        struct option_facts facts = {};
        struct buf out = {};
        int r, flag;

        buf_puts(&out, "");
        r = add_options(p, &out, location_options, &facts);
        for (size_t i = 0; r >= 0 && i < cl->n; i++) {
                const char *flags = cmdline_word_value(cl->words[i], "rootflags");
                if (flags)
                        r = add_options(p, &out, flags, &facts);
        }
        if (r >= 0 && nfs4_form && (facts.version == 2 || facts.version == 3))
                r = refuse(p, DIAG_ERROR,
                           strprintf("root=nfs4: asks for NFSv4, but the options ask for vers=%d",
                                     facts.version));
        if (r >= 0 && (facts.version == 2 || facts.version == 3) && !facts.lock_chosen)
                buf_puts(&out, out.len > 0 ? ",nolock" : "nolock");

        flag = cmdline_last_flag(cl, "ro", "rw");
        if (r >= 0 && (flag != 0 || facts.ro_rw == 0)) {
                if (out.len > 0)
                        buf_putc(&out, ',');
                buf_puts(&out, flag == 2 ? "rw" : "ro");
                facts.ro_rw = flag == 2 ? 2 : 1;
        }
        if (r >= 0)
                r = buf_status(&out);
        if (r < 0) {
                buf_free(&out);
                return r;
        }
        spec->options = out.data;
        spec->fstype = nfs4_form || facts.version == 4 ? "nfs4" : "nfs";
        spec->may_be_v4 = nfs4_form || facts.version == 0 || facts.version == 4;
        spec->read_only = facts.ro_rw != 2;
        return 0;
}

static bool path_is_under_dev(const char *path) {
        return strncmp(path, "/dev", 4) == 0 && (path[4] == '\0' || path[4] == '/');
}

/* Which form root= is, and the location in it; then the server, the path
 * and the options, each checked. */
static int parse(struct nfsroot_parse *p, const struct cmdline *cl, struct nfsroot_spec *spec) {
        const char *root = cmdline_last_value(cl, "root");
        const char *nfsroot = cmdline_last_value(cl, "nfsroot");
        _cleanup_free_ char *server = NULL, *path = NULL, *options = NULL;
        const char *location;
        bool nfs4_form = false;
        const char *seps = ":,";
        int r;

        if (!root || !*root) {
                /* the kernel, dracut and systemd ignore nfsroot= without root=/dev/nfs */
                if (nfsroot) {
                        p->parameter = "nfsroot=";
                        return refuse(
                                p, DIAG_WARNING,
                                strprintf("nfsroot= is set, but root= is not /dev/nfs: nfsroot= is ignored, "
                                          "as the kernel and dracut ignore it"));
                }
                return 0;
        }
        if (strcmp(root, "/dev/nfs") == 0) {
                p->parameter = nfsroot ? "nfsroot=" : "root=";
                if (!nfsroot)
                        return refuse(
                                p, DIAG_WARNING,
                                strprintf("root=/dev/nfs without nfsroot=: the path would come from DHCP "
                                          "at boot (the root-path option), which this generator cannot "
                                          "know"));
                location = nfsroot;
                seps = ",";
        } else if (strcmp(root, "dhcp") == 0 || strcmp(root, "dhcp6") == 0) {
                p->parameter = "root=";
                return refuse(p, DIAG_WARNING,
                              strprintf("the server and path come from DHCP at boot (the root-path option), "
                                        "which this generator cannot know; dracut's own NFS module handles "
                                        "this form"));
        } else if (strncmp(root, "nfs:", 4) == 0) {
                p->parameter = "root=";
                location = root + 4;
        } else if (strncmp(root, "nfs4:", 5) == 0) {
                p->parameter = "root=";
                location = root + 5;
                nfs4_form = true;
        } else {
                /* dracut's bare form, as systemd-fstab-generator recognises it (and
                 * then leaves sysroot.mount to us) */
                const char *colon = strchr(root, ':');
                _cleanup_free_ char *before = colon ? strndup(root, (size_t) (colon - root)) : NULL;

                if (colon && !before)
                        return -ENOMEM;
                if (!(root[0] == '[' || (before && is_ipv4(before)) ||
                      (root[0] == '/' && !path_is_under_dev(root))))
                        return 0; /* a block device, a label, gpt-auto: not ours */
                p->parameter = "root=";
                location = root;
        }

        spec->decision = NFSROOT_REFUSED;
        r = split_location(p, location, seps, &server, &path, &options);
        if (r < 0)
                return r;
        if (!server) {
                r = ip_address(cl, 1, &server);
                if (!server)
                        return refuse(
                                p, DIAG_WARNING,
                                strprintf("no server: the path has none, and no ip= parameter names one "
                                          "(ip=CLIENT:SERVER:...); one from DHCP is known only at boot"));
                spec->server_from_ip = true;
        }
        r = check_server(p, server);
        if (r >= 0)
                r = substitute_client(p, cl, &path);
        if (r >= 0)
                r = check_path(p, path);
        if (r >= 0)
                r = decide_options(p, cl, options, nfs4_form, spec);
        if (r < 0)
                return r;
        spec->server = TAKE_PTR(server);
        spec->path = TAKE_PTR(path);
        spec->decision = NFSROOT_MOUNT;
        return 0;
}

int nfsroot_decide(const struct cmdline *cl, const char *source, struct nfsroot_spec *ret,
                   struct diag_list *diags) {
        struct nfsroot_parse p = {.source = source, .diags = diags};
        struct nfsroot_spec spec = {};
        int r;

        r = parse(&p, cl, &spec);
        if (r == -ENOMEM) {
                free(p.why);
                nfsroot_spec_free(&spec);
                return r;
        }
        if (p.parameter) {
                /* the whole word, as the administrator wrote it */
                const char *key = strcmp(p.parameter, "root=") == 0 ? "root" : "nfsroot";
                spec.parameter = strprintf("%s=%s", key, strempty(cmdline_last_value(cl, key)));
                if (!spec.parameter) {
                        free(p.why);
                        nfsroot_spec_free(&spec);
                        return -ENOMEM;
                }
        }
        if (p.why) {
                _cleanup_free_ char *shown = escape_for_comment(strempty(spec.parameter));
                _cleanup_free_ char *why = p.why;

                free(spec.options);
                spec.options = NULL;
                spec.decision = NFSROOT_REFUSED;
                if (!shown || diag_add(diags, p.severity, source, 0, "%s: %s; no sysroot.mount is written",
                                       shown, why) < 0) {
                        nfsroot_spec_free(&spec);
                        return -ENOMEM;
                }
        }
        *ret = spec;
        return 0;
}

int nfsroot_render_mount(const struct nfsroot_spec *spec, const char *source, struct buf *out) {
        _cleanup_free_ char *shown = escape_for_comment(strempty(spec->parameter));
        _cleanup_free_ char *shown_source = escape_for_comment(source);
        int r;

        if (spec->decision != NFSROOT_MOUNT)
                return -EINVAL;
        if (!shown || !shown_source)
                return -ENOMEM;
        buf_printf(out,
                   "# Automatically generated by nfsroot-generator from %s\n"
                   "# (%s). See nfsroot-generator(8).\n\n"
                   "[Unit]\n"
                   "Description=NFS root file system\n"
                   "Documentation=man:nfsroot-generator(8) man:nfs.systemd(7)\n"
                   "SourcePath=/proc/cmdline\n"
                   "# sunrpc before rpc_pipefs, rpc_pipefs before gssd and idmapd: wanted, not\n"
                   "# required, so that an initrd without them still mounts a sec=sys root\n"
                   "Wants=modprobe@sunrpc.service rpc_pipefs.target\n"
                   "After=modprobe@sunrpc.service rpc_pipefs.target\n",
                   shown, shown_source);
        if (spec->may_be_v4)
                buf_puts(out, "# NFSv4 (asked for or negotiable) maps owner names through idmapd\n"
                              "Wants=nfs-idmapd.service\n"
                              "After=nfs-idmapd.service\n");
        buf_puts(out, "Wants=network-online.target\n"
                      "After=network-online.target remote-fs-pre.target\n"
                      "Before=initrd-root-fs.target\n\n"
                      "[Mount]\n"
                      "What=");
        r = unit_value_append_verbatim(out, spec->server);
        if (r >= 0) {
                buf_putc(out, ':');
                r = unit_value_append_verbatim(out, spec->path);
        }
        if (r < 0)
                return r;
        buf_printf(out, "\nWhere=" NFSROOT_WHERE "\nType=%s\nOptions=", spec->fstype);
        r = unit_value_append_verbatim(out, spec->options);
        if (r < 0)
                return r;
        buf_putc(out, '\n');
        return buf_status(out);
}

void nfsroot_spec_free(struct nfsroot_spec *spec) {
        free(spec->parameter);
        free(spec->server);
        free(spec->path);
        free(spec->options);
        *spec = (struct nfsroot_spec){};
}

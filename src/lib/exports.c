/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "array.h"
#include "buf.h"
#include "escape.h"
#include "exports.h"
#include "nfs_utils.h"

/* Buffer limits of exportfs: a path of up to NFS_MAXPATHLEN (1024) bytes, a
 * client-with-options token of up to 511. Longer tokens make exportfs fail. */
#define EXPORT_PATH_MAX 1025
#define EXPORT_CLIENT_MAX 512

/* The reader mirrors nfs-utils' xgetc/xskip/xgettok character by character
 * (that is what "agrees with exportfs" means), but keeps its own, correct,
 * line numbers and never stops early. */
struct lexer {
        const char *p, *end;
        unsigned line;
        /* state before the last lex_getc(), for the one-character push-back
         * the exportfs reader relies on */
        const char *prev_p;
        unsigned prev_line;
};

#define LEX_EOF (-1)

static int lex_getc(struct lexer *lx) {
        unsigned char c;

        lx->prev_p = lx->p;
        lx->prev_line = lx->line;
        if (lx->p >= lx->end)
                return LEX_EOF;
        c = (unsigned char) *lx->p++;
        if (c == '\\') {
                if (lx->p < lx->end && *lx->p == '\n') {
                        /* backslash-newline continues the line: one blank */
                        lx->p++;
                        lx->line++;
                        while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t'))
                                lx->p++;
                        return ' ';
                }
                return '\\';
        }
        if (c == '\n')
                lx->line++;
        return c;
}

static void lex_ungetc(struct lexer *lx) {
        lx->p = lx->prev_p;
        lx->line = lx->prev_line;
}

/* Skips characters of `set`; a '#' where a token could start opens a comment
 * that runs to the end of the line. */
static void lex_skip(struct lexer *lx, const char *set) {
        for (;;) {
                int c = lex_getc(lx);
                if (c == LEX_EOF)
                        return;
                if (c == '#') {
                        while (lx->p < lx->end && *lx->p != '\n')
                                lx->p++;
                        continue;
                }
                /* strchr() matches the terminator, so NUL bytes are skipped
                 * like blanks here: exportfs does the same */
                if (!strchr(set, c)) {
                        lex_ungetc(lx);
                        return;
                }
        }
}

/* Bytes an unquoted token takes as they are: not a blank, newline, NUL,
 * quote or backslash (which may start an escape or a continuation). */
static inline bool token_byte_is_plain(char c) {
        /* every blank of isspace() is below 0x21; other control bytes
         * simply take the slow path. A table: this test runs for every
         * byte of the file. */
        static const bool plain[256] = {
                ['!'] = true, ['"' + 1 ... '\\' - 1] = true, ['\\' + 1 ... 0xff] = true};
        return plain[(unsigned char) c];
}

enum token_result {
        TOKEN_NONE, /* end of line (or file): no token */
        TOKEN_OK,
        TOKEN_TOO_LONG,
        TOKEN_UNTERMINATED_QUOTE,
};

/* One token: a '"' toggles quoting anywhere, \ooo is an octal byte (decoded
 * after the fact on the output, as exportfs does), whitespace or NUL ends an
 * unquoted token. The result is a C string, so a NUL byte inside a quoted
 * token cuts it there, as it does in exportfs. */
static enum token_result lex_token(struct lexer *lx, size_t max, struct buf *tok) {
        bool quoted = false;
        char *t;
        size_t len = 0;
        int c = 0;

        /* room for the longest token allowed, once: the loop below is the
         * hottest of the generator */
        tok->len = 0;
        buf_reserve(tok, max + 1);
        if (buf_status(tok) < 0)
                return TOKEN_NONE;
        t = tok->data;

        while (len < max) {
                /* Fast path: a run of bytes that none of the cases below
                 * concern, unless an octal escape may still be completing
                 * (a backslash among the last three bytes written). */
                if (!quoted && !(len >= 1 && t[len - 1] == '\\') && !(len >= 2 && t[len - 2] == '\\') &&
                    !(len >= 3 && t[len - 3] == '\\')) {
                        size_t room = max - len, left = (size_t) (lx->end - lx->p);
                        const char *start = lx->p, *limit = start + (room < left ? room : left), *q = start;

                        while (q < limit && token_byte_is_plain(*q))
                                q++;
                        if (q > start) {
                                memcpy(t + len, start, (size_t) (q - start));
                                len += (size_t) (q - start);
                                c = (unsigned char) q[-1];
                                lx->p = q;
                        }
                        if (len >= max)
                                break;
                }
                c = lex_getc(lx);
                if (c == LEX_EOF)
                        break;
                if (!quoted && (c == 0 || isspace(c)))
                        break;
                if (c == '"') {
                        quoted = !quoted;
                        continue;
                }
                t[len++] = (char) c;
                if (len >= 4 && t[len - 4] == '\\' && t[len - 3] >= '0' && t[len - 3] <= '7' &&
                    t[len - 2] >= '0' && t[len - 2] <= '7' && t[len - 1] >= '0' && t[len - 1] <= '7') {
                        unsigned v = (unsigned) ((t[len - 3] - '0') * 64 + (t[len - 2] - '0') * 8 +
                                                 (t[len - 1] - '0'));
                        if (v < 256) {
                                len -= 4;
                                t[len++] = (char) v;
                        }
                }
        }
        tok->len = len;
        t[len] = '\0';
        if (c == '\n')
                lex_ungetc(lx);
        if (len == 0 && !quoted)
                return TOKEN_NONE;
        if (quoted && (c == LEX_EOF || len >= max))
                return TOKEN_UNTERMINATED_QUOTE;
        if (len >= max)
                return TOKEN_TOO_LONG;
        return TOKEN_OK;
}

/* After a bad token: on to the start of the line after the one where the
 * token began (`start`, `line`), whatever the rest holds. A quoted token
 * may have run on over later lines; they still count. A backslash-newline
 * continues the line, so it is no line start: resuming there (or where the
 * token was cut) turned a client into an exported path. */
static void lex_skip_line(struct lexer *lx, const char *start, unsigned line) {
        lx->p = start;
        lx->line = line;
        for (;;) {
                int c = lex_getc(lx);
                if (c == LEX_EOF || c == '\n')
                        return;
        }
}

static bool string_is_uuid(const char *s) {
        unsigned digits = 0;
        for (; *s; s++)
                if (isxdigit((unsigned char) *s))
                        digits++;
        return digits == 32;
}

static bool string_is_integer(const char *s, int base) {
        char *end;

        if (!*s)
                return false;
        errno = 0;
        (void) strtol(s, &end, base);
        return *end == '\0';
}

/* The releases that brought options 2.6.2 does not know. */
#define SINCE_ANY 0u
#define SINCE_XPRTSEC NFS_UTILS_VERSION(2, 6, 3)  /* xprtsec= */
#define SINCE_REEXPORT NFS_UTILS_VERSION(2, 6, 3) /* reexport= */
#define SINCE_SIGN_FH NFS_UTILS_VERSION(2, 9, 1)  /* sign_fh */

/* What a plain option changes in what the reader keeps of a client. */
enum plain_effect {
        SETS_NOTHING_KEPT,
        SETS_CROSSMNT,
        CLEARS_CROSSMNT,
        SETS_NOHIDE,
        CLEARS_NOHIDE,
};

struct plain_option {
        const char *name;
        unsigned since;
        enum plain_effect effect;
};

/* Options without a value (parseopts() in nfs-utils' support/nfs/exports.c),
 * sorted for plain_option_find(). */
static const struct plain_option plain_options[] = {
        {"acl", SINCE_ANY, SETS_NOTHING_KEPT},
        {"all_squash", SINCE_ANY, SETS_NOTHING_KEPT},
        {"async", SINCE_ANY, SETS_NOTHING_KEPT},
        {"auth_nlm", SINCE_ANY, SETS_NOTHING_KEPT},
        {"crossmnt", SINCE_ANY, SETS_CROSSMNT},
        {"hide", SINCE_ANY, CLEARS_NOHIDE},
        {"insecure", SINCE_ANY, SETS_NOTHING_KEPT},
        {"insecure_locks", SINCE_ANY, SETS_NOTHING_KEPT},
        {"no_acl", SINCE_ANY, SETS_NOTHING_KEPT},
        {"no_all_squash", SINCE_ANY, SETS_NOTHING_KEPT},
        {"no_auth_nlm", SINCE_ANY, SETS_NOTHING_KEPT},
        {"no_pnfs", SINCE_ANY, SETS_NOTHING_KEPT},
        {"no_root_squash", SINCE_ANY, SETS_NOTHING_KEPT},
        {"no_subtree_check", SINCE_ANY, SETS_NOTHING_KEPT},
        {"no_wdelay", SINCE_ANY, SETS_NOTHING_KEPT},
        {"nocrossmnt", SINCE_ANY, CLEARS_CROSSMNT},
        {"nohide", SINCE_ANY, SETS_NOHIDE},
        {"nordirplus", SINCE_ANY, SETS_NOTHING_KEPT},
        {"pnfs", SINCE_ANY, SETS_NOTHING_KEPT},
        {"ro", SINCE_ANY, SETS_NOTHING_KEPT},
        {"root_squash", SINCE_ANY, SETS_NOTHING_KEPT},
        {"rw", SINCE_ANY, SETS_NOTHING_KEPT},
        {"secure", SINCE_ANY, SETS_NOTHING_KEPT},
        {"secure_locks", SINCE_ANY, SETS_NOTHING_KEPT},
        {"security_label", SINCE_ANY, SETS_NOTHING_KEPT},
        {"sign_fh", SINCE_SIGN_FH, SETS_NOTHING_KEPT},
        {"subtree_check", SINCE_ANY, SETS_NOTHING_KEPT},
        {"sync", SINCE_ANY, SETS_NOTHING_KEPT},
        {"wdelay", SINCE_ANY, SETS_NOTHING_KEPT},
};

/* The plain option `opt` is, or NULL: a binary search of the table whose
 * first-byte test spares most strcmp() calls (every option of every client
 * is looked up here). */
static const struct plain_option *plain_option_find(const char *opt) {
        size_t lo = 0, hi = ELEMENTSOF(plain_options);

        while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                const char *name = plain_options[mid].name;
                int d = (unsigned char) opt[0] - (unsigned char) name[0];

                if (d == 0)
                        d = strcmp(opt, name);
                if (d == 0)
                        return &plain_options[mid];
                if (d < 0)
                        hi = mid;
                else
                        lo = mid + 1;
        }
        return NULL;
}

struct option_context {
        const char *file;
        unsigned line;
        const char *path;
        const char *host;
        unsigned nfs_utils; /* the release whose exportfs judges, 0: the newest */
        /* an earlier reexport=auto-fsidnum of this line gave the path a
         * number in the reexport database, which later clients find */
        bool *path_in_reexport_db;
        struct diag_list *diags;
};

static int option_problem(const struct option_context *ctx, const char *what, const char *option) {
        _cleanup_free_ char *path = escape_for_comment(ctx->path);
        _cleanup_free_ char *shown = escape_for_comment(option);
        _cleanup_free_ char *host = escape_for_comment(ctx->host);

        /* every byte from the file is escaped: messages go to the journal */
        if (!path || !shown || !host)
                return -ENOMEM;
        return diag_add(
                ctx->diags, DIAG_ERROR, ctx->file, ctx->line,
                "%s \"%s\" for %s%s%s: exportfs refuses this export; its path %s still counts for ordering",
                what, shown, *host ? "client \"" : "every client", host, *host ? "\"" : "", path);
}

/* An option this release's exportfs does not know yet, said in release terms. */
static int option_too_new(const struct option_context *ctx, const char *option, unsigned since) {
        _cleanup_free_ char *what = NULL;

        if (asprintf(&what, "option not known to nfs-utils before %u.%u.%u (this system has %u.%u.%u)",
                     NFS_UTILS_MAJOR(since), NFS_UTILS_MINOR(since), NFS_UTILS_PATCH(since),
                     NFS_UTILS_MAJOR(ctx->nfs_utils), NFS_UTILS_MINOR(ctx->nfs_utils),
                     NFS_UTILS_PATCH(ctx->nfs_utils)) < 0)
                return -ENOMEM;
        return option_problem(ctx, what, option);
}

static bool release_knows(const struct option_context *ctx, unsigned since) {
        return ctx->nfs_utils == 0 || ctx->nfs_utils >= since;
}

/* Whether every name of a ':' list is one of `names` (an empty name is not:
 * "sec=" and "sec=sys:" are refused). `list` is taken apart in place; *bad
 * is set to the first unknown name. */
static bool colon_list_is_known(char *list, const char *const *names, size_t n, char **bad,
                                void (*note)(size_t, void *), void *userdata) {
        char *name;

        while ((name = strsep(&list, ":"))) {
                size_t i;
                for (i = 0; i < n; i++)
                        if (strcmp(name, names[i]) == 0)
                                break;
                if (i == n) {
                        *bad = name;
                        return false;
                }
                if (note)
                        note(i, userdata);
        }
        return true;
}

static void note_krb5(size_t i, void *userdata) {
        /* the first three flavours of the table are krb5's */
        if (i < 3)
                *(bool *) userdata = true;
}

/* The fsid state that reexport= depends on (nfs-utils' reexport.c
 * reexpdb_apply_reexport_settings()), carried from the line's default options
 * into each client as exportfs copies its defaults. */
enum fsid_number {
        FSID_NUMBER_NONE,
        FSID_NUMBER_ZERO,  /* fsid=root or fsid=0: the NFSv4 root */
        FSID_NUMBER_GIVEN, /* fsid=N, N != 0 */
        FSID_NUMBER_DB,    /* given by reexport=auto-fsidnum from the reexport database */
};

struct fsid_state {
        enum fsid_number number;
        bool uuid;
};

/* reexport=STRATEGY (nfs-utils 2.6.3 and later), judged as exportfs judges it
 * with a reexport database that holds nothing for this path yet: a fresh
 * database is what a new export meets, and this reader cannot see fsidd's. */
static int parse_reexport(const char *opt, struct export_client *client, struct fsid_state *fsid,
                          const struct option_context *ctx) {
        const char *strategy = opt + strlen("reexport=");
        bool in_db;

        if (strcmp(strategy, "none") == 0)
                return 0;
        if (strcmp(strategy, "auto-fsidnum") != 0 && strcmp(strategy, "predefined-fsidnum") != 0) {
                client->bad = true;
                return option_problem(ctx, "bad value (auto-fsidnum, predefined-fsidnum or none) in option",
                                      opt);
        }
        if (fsid->uuid || fsid->number == FSID_NUMBER_ZERO) {
                client->fsid = true;
                return 0;
        }
        if (strategy[0] == 'a') {
                if (fsid->number == FSID_NUMBER_GIVEN) {
                        client->bad = true;
                        return option_problem(ctx,
                                              "fsid=N before reexport=auto-fsidnum (exportfs accepts it "
                                              "only if N is the number its reexport database already "
                                              "holds for this path; leave fsid= out) in option",
                                              opt);
                }
                /* fsidd hands out a number: this is how the export gets its fsid */
                fsid->number = FSID_NUMBER_DB;
                client->fsid = true;
                if (ctx->path_in_reexport_db)
                        *ctx->path_in_reexport_db = true;
                return 0;
        }
        in_db = ctx->path_in_reexport_db && *ctx->path_in_reexport_db;
        if (fsid->number == FSID_NUMBER_GIVEN && in_db) {
                /* the database's number wins and must equal fsid=N */
                client->bad = true;
                return option_problem(
                        ctx,
                        "fsid=N with reexport=predefined-fsidnum after an auto-fsidnum client "
                        "of the same path (N must be the reexport database's number) in option",
                        opt);
        }
        if (fsid->number == FSID_NUMBER_NONE && !in_db) {
                client->bad = true;
                return option_problem(ctx,
                                      "reexport=predefined-fsidnum without an fsid= before it (and, for a "
                                      "new export, no number in the reexport database) in option",
                                      opt);
        }
        client->fsid = true;
        return 0;
}

/* fsid=root, fsid=NUMBER (strtoul(), any base, cut to 32 bits as exportfs
 * stores it) or fsid=UUID (32 hex digits among any other bytes). */
static bool parse_fsid(const char *v, struct fsid_state *fsid) {
        char *end;
        unsigned long n;

        if (strcmp(v, "root") == 0) {
                fsid->number = FSID_NUMBER_ZERO;
                return true;
        }
        n = strtoul(v, &end, 0);
        if (*v && *end == '\0') {
                fsid->number = (unsigned) n == 0 ? FSID_NUMBER_ZERO : FSID_NUMBER_GIVEN;
                return true;
        }
        if (string_is_uuid(v)) {
                fsid->uuid = true;
                return true;
        }
        return false;
}

/* One number of a squash range as nfs-utils' parsenum() reads it: a '-',
 * then digits, through atoi() (an empty number is 0; one too large for an
 * int comes out as -1 with glibc, as there). */
static int squash_number(const char **p) {
        const char *start = *p;
        char buf[32];
        size_t n;

        if (**p == '-')
                (*p)++;
        while (isdigit((unsigned char) **p))
                (*p)++;
        n = (size_t) (*p - start);
        if (n >= sizeof(buf))
                return -1;
        memcpy(buf, start, n);
        buf[n] = '\0';
        return (int) strtol(buf, NULL, 10);
}

/* squash_uids=/squash_gids=: N or N-M (parsesquash()). The value ends at the
 * next comma, so "0-15,20" makes "20" an option of its own, an unknown one;
 * -1 is refused. */
static bool squash_range_is_valid(const char *v) {
        int first, last;

        first = squash_number(&v);
        last = first;
        if (*v == '-') {
                v++;
                last = squash_number(&v);
        }
        return first != -1 && last != -1 && *v == '\0';
}

static bool has_prefix(const char *s, const char *prefix) {
        return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Parses a comma-separated option list into `client`, as parseopts() in
 * nfs-utils' support/nfs/exports.c does for the release ctx->nfs_utils.
 * Returns -ENOMEM or 0; malformed options set client->bad and add one
 * diagnostic each. `list` is taken apart in place; `fsid` carries the
 * line's defaults in and the result out. */
static int parse_options(char *list, struct export_client *client, struct fsid_state *fsid,
                         const struct option_context *ctx) {
        static const char *const flavors[] = {"krb5", "krb5i", "krb5p", "unix", "sys", "null", "none"};
        static const char *const xprtsec_modes[] = {"none", "tls", "mtls"};
        bool saw_reexport = false;
        char *cp = list;
        int r;

        while (*cp == ' ' || *cp == '\t')
                cp++;
        while (*cp) {
                char *opt = cp, *comma = strchr(cp, ',');
                const struct plain_option *plain;

                if (comma) {
                        *comma = '\0';
                        cp = comma + 1;
                } else
                        cp = opt + strlen(opt);

                plain = plain_option_find(opt);

                r = 0;
                if (plain) {
                        if (!release_knows(ctx, plain->since)) {
                                client->bad = true;
                                r = option_too_new(ctx, opt, plain->since);
                        } else if (plain->effect == SETS_CROSSMNT || plain->effect == CLEARS_CROSSMNT)
                                client->crossmnt = plain->effect == SETS_CROSSMNT;
                        else if (plain->effect == SETS_NOHIDE || plain->effect == CLEARS_NOHIDE)
                                client->nohide = plain->effect == SETS_NOHIDE;
                } else if (has_prefix(opt, "anonuid=") || has_prefix(opt, "anongid=")) {
                        if (!string_is_integer(opt + 8, 10))
                                goto bad_value;
                } else if (has_prefix(opt, "squash_uids=") || has_prefix(opt, "squash_gids=")) {
                        if (!squash_range_is_valid(opt + 12))
                                goto bad_value;
                } else if (has_prefix(opt, "fsid=")) {
                        if (saw_reexport) {
                                client->bad = true;
                                r = option_problem(ctx, "fsid= after reexport= (it must come before)", opt);
                        } else if (!parse_fsid(opt + 5, fsid))
                                goto bad_value;
                        else
                                client->fsid = true;
                } else if (strcmp(opt, "mountpoint") == 0 || strcmp(opt, "mp") == 0 ||
                           has_prefix(opt, "mountpoint=") || has_prefix(opt, "mp=")) {
                        client->mountpoint = true;
                } else if (has_prefix(opt, "refer=") || has_prefix(opt, "replicas=")) {
                        ;
                } else if (has_prefix(opt, "sec=")) {
                        char *bad = NULL;
                        if (!colon_list_is_known(opt + 4, flavors, ELEMENTSOF(flavors), &bad, note_krb5,
                                                 &client->sec_krb5)) {
                                client->bad = true;
                                r = option_problem(ctx, "unknown security flavour", bad);
                        }
                } else if (has_prefix(opt, "xprtsec=")) {
                        char *bad = NULL;
                        if (!release_knows(ctx, SINCE_XPRTSEC)) {
                                client->bad = true;
                                r = option_too_new(ctx, opt, SINCE_XPRTSEC);
                        } else if (!colon_list_is_known(opt + 8, xprtsec_modes, ELEMENTSOF(xprtsec_modes),
                                                        &bad, NULL, NULL)) {
                                client->bad = true;
                                r = option_problem(ctx, "unknown xprtsec mode (none, tls or mtls)", bad);
                        }
                } else if (has_prefix(opt, "reexport=")) {
                        if (!release_knows(ctx, SINCE_REEXPORT)) {
                                client->bad = true;
                                r = option_too_new(ctx, opt, SINCE_REEXPORT);
                        } else if (saw_reexport) {
                                client->bad = true;
                                r = option_problem(ctx, "a second reexport= (one is allowed)", opt);
                        } else {
                                saw_reexport = true;
                                r = parse_reexport(opt, client, fsid, ctx);
                        }
                } else {
                        client->bad = true;
                        r = option_problem(ctx, "unknown option", opt);
                }
                if (r < 0)
                        return r;
                /* exportfs stops at the first bad option; going on tells
                 * of every one at once */
                while (*cp == ' ' || *cp == '\t')
                        cp++;
                continue;

        bad_value:
                client->bad = true;
                r = option_problem(ctx, "bad value in option", opt);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int table_add_entry(struct export_table *t, char *path, const char *file, unsigned line,
                           struct export_entry **ret) {
        if (array_reserve(&t->entries, &t->cap, t->n + 1, sizeof(*t->entries)) < 0)
                return -ENOMEM;
        t->entries[t->n] = (struct export_entry){.path = path, .file = file, .line = line};
        *ret = &t->entries[t->n++];
        return 0;
}

/* A line's clients live in the table's arena: room for a few at first (most
 * lines name one to four), twice as many when they are taken, the old copy
 * left behind. */
#define CLIENTS_FIRST_CAP 4

static int entry_add_client(struct arena *a, struct export_entry *e, const char *host, size_t *cap,
                            struct export_client **ret) {
        char *h;

        if (e->n_clients == *cap) {
                size_t grown_cap = *cap ? *cap * 2 : CLIENTS_FIRST_CAP;
                struct export_client *grown;

                if (grown_cap > SIZE_MAX / sizeof(*grown))
                        return -ENOMEM;
                grown = arena_alloc(a, grown_cap * sizeof(*grown));
                if (!grown)
                        return -ENOMEM;
                if (e->n_clients > 0)
                        memcpy(grown, e->clients, e->n_clients * sizeof(*grown));
                e->clients = grown;
                *cap = grown_cap;
        }
        h = arena_strdup(a, host);
        if (!h)
                return -ENOMEM;
        e->clients[e->n_clients] = (struct export_client){.host = h};
        *ret = &e->clients[e->n_clients++];
        return 0;
}

/* One client token: "host", "host(opts)", "(opts)", or "" for none. */
static int parse_client(struct arena *a, struct export_entry *e, size_t *cap, char *token,
                        const struct export_client *defaults, const struct fsid_state *default_fsid,
                        struct option_context *ctx) {
        struct fsid_state fsid = *default_fsid;
        struct export_client *client;
        char *open = strchr(token, '('), *host = token;
        int r;

        if (open) {
                *open = '\0';
                if (open == token)
                        host = "*";
        }
        ctx->host = host;
        r = entry_add_client(a, e, host, cap, &client);
        if (r < 0)
                return r;
        client->mountpoint = defaults->mountpoint;
        client->fsid = defaults->fsid;
        client->sec_krb5 = defaults->sec_krb5;
        client->crossmnt = defaults->crossmnt;
        client->nohide = defaults->nohide;
        client->bad = defaults->bad;

        if (open) {
                char *close = strchr(open + 1, ')');
                if (!close || close[1] != '\0') {
                        _cleanup_free_ char *path = escape_for_comment(e->path);
                        _cleanup_free_ char *shown_host = escape_for_comment(host);
                        client->bad = true;
                        if (!path || !shown_host)
                                return -ENOMEM;
                        return diag_add(
                                ctx->diags, DIAG_ERROR, ctx->file, ctx->line,
                                "bad option list for client \"%s\" (a \"(\" needs one \")\" at the "
                                "end): exportfs refuses this export; its path %s still counts for ordering",
                                shown_host, path);
                }
                *close = '\0';
                r = parse_options(open + 1, client, &fsid, ctx);
                if (r < 0)
                        return r;
        }
        client->fsid_root = fsid.number == FSID_NUMBER_ZERO;
        return 0;
}

/* How many lines have a path first (after blanks): the entries a file
 * holds, about (a quoted path or a continued line is not counted; the
 * array still grows for them). */
static size_t lines_starting_with_path(const char *data, size_t size) {
        const char *p = data, *end = data + size;
        size_t n = 0;

        while (p < end) {
                const char *eol = memchr(p, '\n', (size_t) (end - p));
                while (p < end && (*p == ' ' || *p == '\t'))
                        p++;
                n += p < end && *p == '/';
                if (!eol)
                        break;
                p = eol + 1;
        }
        return n;
}

/* "host (opts)": the blank makes two clients, the host with the defaults
 * and "(opts)" for every host (exportfs reads it so, and warns "No host name
 * given"). The classic trap: `/srv 192.0.2.7 (rw)` exports read-write to the
 * world and read-only to the one host named. Only a warning: exportfs
 * exports it, so the ordering is the same. */
static int warn_blank_before_options(const struct export_entry *e, const char *options,
                                     const struct option_context *ctx) {
        _cleanup_free_ char *host = escape_for_comment(e->clients[e->n_clients - 1].host);
        _cleanup_free_ char *opts = escape_for_comment(options);

        if (!host || !opts)
                return -ENOMEM;
        return diag_add(
                ctx->diags, DIAG_WARNING, ctx->file, ctx->line,
                "\"%s %s\": the blank before \"(\" makes two clients: every host gets %s and %s gets "
                "the defaults (read-only); write %s%s for the one host",
                host, opts, opts, host, host, opts);
}

/* After a bad path: report it and go on with the next line. */
static int path_problem(const char *file, unsigned line, struct diag_list *diags, const char *what) {
        return diag_add(diags, DIAG_ERROR, file, line, "%s; skipping this line, the other lines still count",
                        what);
}

int exports_parse(struct export_table *t, const char *data, size_t size, const char *file,
                  struct diag_list *diags) {
        struct lexer lx = {.p = data, .end = data + size, .line = 1};
        _cleanup_(buf_free) struct buf tok = {};
        const char *shown_file;
        char **files;
        int r = 0;

        assert(t);
        assert(data || size == 0);
        assert(file);

        files = reallocarray(t->files, t->n_files + 1, sizeof(*files));
        if (!files)
                return -ENOMEM;
        t->files = files;
        /* the display name: every message and comment shows it */
        t->files[t->n_files] = escape_for_comment(file);
        if (!t->files[t->n_files])
                return -ENOMEM;
        shown_file = t->files[t->n_files++];
        /* the entries array made once for the lines that can be entries,
         * not doubled (and copied) all the way up */
        if (array_reserve(&t->entries, &t->cap, t->n + lines_starting_with_path(data, size),
                          sizeof(*t->entries)) < 0)
                return -ENOMEM;

        for (;;) {
                struct export_client defaults = {};
                struct fsid_state default_fsid = {};
                bool path_in_reexport_db = false;
                struct option_context ctx = {.file = shown_file,
                                             .nfs_utils = t->nfs_utils,
                                             .path_in_reexport_db = &path_in_reexport_db,
                                             .diags = diags};
                struct export_entry *entry;
                enum token_result res;
                const char *line_start;
                unsigned line;
                size_t client_cap = 0;
                char *path;

                lex_skip(&lx, " \t\n");
                if (lx.p >= lx.end)
                        break;
                line = lx.line;
                line_start = lx.p;

                res = lex_token(&lx, EXPORT_PATH_MAX, &tok);
                if (buf_status(&tok) < 0) {
                        return -ENOMEM;
                }
                if (res == TOKEN_NONE) {
                        /* a carriage return, vertical tab or form feed where a
                         * path should start: exportfs stops reading here */
                        _cleanup_free_ char *what = NULL;
                        if (asprintf(&what,
                                     "unexpected byte 0x%02x where a path should start (exportfs stops "
                                     "reading the file here)",
                                     (unsigned char) *line_start) < 0) {
                                what = NULL;
                                return -ENOMEM;
                        }
                        r = path_problem(shown_file, line, diags, what);
                        lex_skip_line(&lx, line_start, line);
                        if (r < 0)
                                return r;
                        continue;
                }
                if (res == TOKEN_UNTERMINATED_QUOTE || res == TOKEN_TOO_LONG) {
                        r = path_problem(shown_file, line, diags,
                                         res == TOKEN_TOO_LONG ? "export path longer than 1024 bytes"
                                                               : "double quote opened and never closed");
                        lex_skip_line(&lx, line_start, line);
                        if (r < 0)
                                return r;
                        continue;
                }
                if (tok.data[0] != '/') {
                        _cleanup_free_ char *shown = escape_for_comment(tok.data);
                        if (!shown) {
                                return -ENOMEM;
                        }
                        r = diag_add(diags, DIAG_ERROR, shown_file, line,
                                     "export path \"%s\" is not absolute; skipping this line, the other "
                                     "lines still count",
                                     shown);
                        /* the rest of the line is this line's clients */
                        lex_skip_line(&lx, line_start, line);
                        if (r < 0)
                                return r;
                        continue;
                }

                path = arena_strdup(&t->strings, tok.data);
                if (!path)
                        return -ENOMEM;
                r = table_add_entry(t, path, shown_file, line, &entry);
                if (r < 0)
                        return r;
                ctx.line = line;
                ctx.path = entry->path;

                /* the clients on the rest of this (logical) line; prev_bare:
                 * the last client was a host with no option list */
                bool prev_bare = false;
                for (bool first = true;; first = false) {
                        const char *token_start;
                        unsigned token_line;

                        lex_skip(&lx, " \t");
                        token_start = lx.p;
                        token_line = lx.line;
                        res = lex_token(&lx, EXPORT_CLIENT_MAX, &tok);
                        if (buf_status(&tok) < 0) {
                                return -ENOMEM;
                        }
                        if (res == TOKEN_NONE) {
                                if (entry->n_clients == 0)
                                        r = parse_client(&t->strings, entry, &client_cap, (char[]){""},
                                                         &defaults, &default_fsid, &ctx);
                                /* The clients end at the end of the line, or at a
                                 * byte no token takes (CR, VT, FF): whatever
                                 * follows on this line is still this line's, never
                                 * a new export path (found by fuzz-root). */
                                lex_skip_line(&lx, lx.p, lx.line);
                                break;
                        }
                        if (res != TOKEN_OK) {
                                _cleanup_free_ char *shown = escape_for_comment(entry->path);
                                if (!shown) {
                                        return -ENOMEM;
                                }
                                /* where the token starts: an open quote may
                                 * run to the end of the file */
                                r = diag_add(
                                        diags, DIAG_ERROR, shown_file, token_line,
                                        res == TOKEN_TOO_LONG
                                                ? "client and options longer than 511 bytes: exportfs "
                                                  "refuses this line; its path %s still counts for ordering"
                                                : "double quote opened and never closed: exportfs "
                                                  "refuses this line; its path %s still counts for ordering",
                                        shown);
                                lex_skip_line(&lx, token_start, token_line);
                                break;
                        }
                        if (first && tok.data[0] == '-') {
                                /* "-opts" right after the path: defaults for this line */
                                ctx.host = "";
                                r = parse_options(tok.data + 1, &defaults, &default_fsid, &ctx);
                                if (r < 0)
                                        return r;
                                continue;
                        }
                        if (tok.data[0] == '(' && prev_bare) {
                                r = warn_blank_before_options(entry, tok.data, &ctx);
                                if (r < 0)
                                        return r;
                        }
                        prev_bare = !strchr(tok.data, '(');
                        r = parse_client(&t->strings, entry, &client_cap, tok.data, &defaults, &default_fsid,
                                         &ctx);
                        if (r < 0)
                                return r;
                }
                if (r < 0)
                        return r;
        }

        return r;
}

int exports_read(struct export_table *t, const struct rootfs *root, struct diag_list *diags) {
        static const char exports_file[] = "/etc/exports", exports_dir[] = "/etc/exports.d";
        char **names = NULL;
        int n, r;

        {
                _cleanup_free_ char *data = NULL;
                size_t size;

                r = rootfs_read_file(root, exports_file, &data, &size, NULL);
                if (r >= 0)
                        r = exports_parse(t, data, size, exports_file, diags);
                else if (r == -ENOMEM)
                        return r;
                else if (r != -ENOENT)
                        r = diag_add(diags, DIAG_ERROR, exports_file, 0, "cannot be read: %s; ignoring it",
                                     config_file_strerror(r));
                else
                        r = 0;
                if (r < 0)
                        return r;
        }

        n = rootfs_list_dir(root, exports_dir, ".exports", &names);
        if (n == -ENOENT || n == -ENOTDIR)
                return 0;
        if (n < 0)
                return diag_add(diags, DIAG_ERROR, exports_dir, 0, "cannot be read: %s; ignoring it",
                                strerror(-n));

        r = 0;
        for (int i = 0; i < n && r >= 0; i++) {
                _cleanup_free_ char *full = NULL, *data = NULL, *shown = NULL;
                size_t size;

                if (asprintf(&full, "%s/%s", exports_dir, names[i]) < 0) {
                        full = NULL;
                        r = -ENOMEM;
                        break;
                }
                r = rootfs_read_file(root, full, &data, &size, NULL);
                if (r >= 0)
                        r = exports_parse(t, data, size, full, diags);
                else if (r != -ENOMEM)
                        r = (shown = escape_for_comment(full))
                                    ? diag_add(diags, DIAG_ERROR, shown, 0,
                                               "cannot be read: %s; ignoring it", config_file_strerror(r))
                                    : -ENOMEM;
        }
        strv_free(names, (size_t) n);
        return r;
}

bool export_entry_every_client_mountpoint(const struct export_entry *e) {
        /* no client parsed (the first was malformed) is not "every client
         * has mp": the path still counts for ordering */
        if (e->n_clients == 0)
                return false;
        for (size_t i = 0; i < e->n_clients; i++)
                if (!e->clients[i].mountpoint)
                        return false;
        return true;
}

int export_path_served(const char *export_root, const char *path, char **ret, bool *had_dotdot) {
        char served[PATH_MAX + 1];
        int r = export_path_served_into(export_root, path, served, had_dotdot);

        if (r < 0)
                return r;
        *ret = strdup(served);
        return *ret ? 0 : -ENOMEM;
}

int export_path_served_into(const char *export_root, const char *path, char *out, bool *had_dotdot) {
        _cleanup_free_ char *joined = NULL;

        if (export_root && *export_root) {
                if (asprintf(&joined, "%s/%s", export_root, path) < 0)
                        return -ENOMEM;
                path = joined;
        }
        /* a longer path is refused before anything is written */
        return path_normalize_into(path, true, out, had_dotdot);
}

void export_table_free(struct export_table *t) {
        arena_free(&t->strings);
        free(t->entries);
        strv_free(t->files, t->n_files);
        *t = (struct export_table){};
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "buf.h"
#include "cmdline.h"

static bool is_blank(char c) {
        /* the kernel's isspace(): what separates parameters */
        return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static int add_word(struct cmdline *c, struct buf *word) {
        int r = buf_status(word);

        if (r < 0)
                return r;
        if (array_reserve(&c->words, &c->cap, c->n + 1, sizeof(*c->words)) < 0)
                return -ENOMEM;
        c->words[c->n++] = word->data;
        *word = (struct buf){};
        return 0;
}

int cmdline_split(const char *text, struct cmdline *ret) {
        struct cmdline c = {};
        const char *p = text;
        int r = 0;

        for (;;) {
                struct buf word = {};
                bool quoted = false;

                while (is_blank(*p))
                        p++;
                if (!*p)
                        break;
                buf_puts(&word, "");
                for (; *p && (quoted || !is_blank(*p)); p++) {
                        if (*p == '"')
                                quoted = !quoted;
                        else
                                buf_putc(&word, *p);
                }
                r = add_word(&c, &word);
                if (r < 0) {
                        buf_free(&word);
                        cmdline_free(&c);
                        return r;
                }
        }
        *ret = c;
        return 0;
}

void cmdline_free(struct cmdline *c) {
        for (size_t i = 0; i < c->n; i++)
                free(c->words[i]);
        free(c->words);
        *c = (struct cmdline){};
}

const char *cmdline_word_value(const char *word, const char *key) {
        size_t n = strlen(key);

        if (strncmp(word, key, n) != 0 || word[n] != '=')
                return NULL;
        return word + n + 1;
}

const char *cmdline_last_value(const struct cmdline *c, const char *key) {
        for (size_t i = c->n; i > 0; i--) {
                const char *v = cmdline_word_value(c->words[i - 1], key);
                if (v)
                        return v;
        }
        return NULL;
}

int cmdline_last_flag(const struct cmdline *c, const char *a, const char *b) {
        for (size_t i = c->n; i > 0; i--) {
                if (strcmp(c->words[i - 1], a) == 0)
                        return 1;
                if (strcmp(c->words[i - 1], b) == 0)
                        return 2;
        }
        return 0;
}

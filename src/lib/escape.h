/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

/* Everything that turns a path into text systemd reads lives here, so that a
 * reader can check each step against systemd's own code (unit-name.c,
 * path-util.c, extract-word.c, conf-parser.c of systemd 252). */

/* Normalise an absolute path as systemd's path_simplify() does: collapse
 * repeated slashes, drop "." components and trailing slashes. A ".." component
 * is resolved lexically only when `allow_dotdot` is set (and *had_dotdot, if
 * given, says so); otherwise it makes the path invalid, as in systemd.
 * Returns -EINVAL for a relative or over-long path, -ENOMEM. */
int path_normalize(const char *path, bool allow_dotdot, char **ret, bool *had_dotdot);
/* The same, written into `out`, which has room for strlen(path) + 2 bytes
 * (PATH_MAX + 1 is always enough): no allocation. */
int path_normalize_into(const char *path, bool allow_dotdot, char *out, bool *had_dotdot);

/* True when `path` equals `dir` or lies below it; both normalised. */
bool path_is_at_or_below(const char *path, const char *dir);

/* The unit name systemd gives the path: `systemd-escape --path --suffix=SUFFIX`,
 * shortened with systemd's hash when it would exceed the unit-name limit (as
 * systemd-fstab-generator and the manager do). -EINVAL if systemd would refuse. */
int unit_name_from_path(const char *path, const char *suffix, char **ret);

/* UTF-8 as systemd's utf8_is_valid() accepts it: no overlong forms, no
 * surrogates, no noncharacters. */
bool utf8_is_valid_systemd(const char *s);

/* A path written as one value of a path-list setting (RequiresMountsFor=):
 * specifiers doubled, quotes, backslashes and whitespace escaped, quoted when
 * needed. systemd 252 applies no C unescaping there and refuses lines that are
 * not UTF-8, so a path with a newline, a carriage return or invalid UTF-8 has
 * no representation: -EINVAL. */
int unit_value_escape_path(const char *path, char **ret);
/* The same, appended to `out` (no allocation when nothing needs escaping). */
int unit_value_append_path(struct buf *out, const char *path);
/* Whether unit_value_escape_path() can write the path. */
bool unit_value_path_representable(const char *path);

/* A value of a setting that takes the rest of the line as it stands (Where=,
 * What=): specifiers doubled, nothing else. systemd strips the line's
 * surrounding blanks, continues a line that ends in a backslash and refuses
 * lines that are not UTF-8, so a value with a newline or carriage return,
 * invalid UTF-8, a blank at either end or a trailing backslash has no
 * representation: -EINVAL. */
int unit_value_append_verbatim(struct buf *out, const char *value);
bool unit_value_verbatim_representable(const char *value);

/* The one quoting step for text printed as part of a shell command (the
 * checker's fixes): one word for sh, bash and dash, whatever bytes `s` has.
 * Plain words stay as they are; anything else is single-quoted ('\''
 * for a quote), and a control byte is written as $'\xNN' so that the
 * printed command holds no raw control character (a terminal would act on
 * it). NULL on OOM. */
char *shell_quote(const char *s);

/* The one escaping step for text about configuration that reaches a person
 * or a unit file: a comment line in a unit, a log line, --explain, a
 * diagnostic (file names included: readers keep display names escaped
 * with it). */
/* Text safe for a comment line: printable ASCII kept, everything else (and the
 * backslash, so no line can end in one) as \xNN. Returns NULL on OOM. */
char *escape_for_comment(const char *s);
/* The same line for text that holds escape_for_comment()'s escapes already
 * (a diagnostic's message: the readers escape what they quote): kept as it
 * is, so that it is escaped once, not twice; a byte it should not hold (a
 * reader that quoted raw text) is still escaped, and a backslash at the very
 * end too. Returns NULL on OOM. */
char *comment_from_escaped(const char *s);

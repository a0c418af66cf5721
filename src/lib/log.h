/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <errno.h>

#include "macro.h"

/* Levels use syslog's numbering. Generators log to stderr: systemd connects it
 * to the kernel log during boot, so the journal keeps what we say there. */
enum log_level {
        LOG_LEVEL_ERR = 3,
        LOG_LEVEL_WARNING = 4,
        LOG_LEVEL_NOTICE = 5,
        LOG_LEVEL_INFO = 6,
        LOG_LEVEL_DEBUG = 7,
};

void log_setup(const char *program_name);
void log_set_max_level(enum log_level level);
/* For a generator run by systemd: log to the kernel log (and so the
 * journal) instead of standard error. */
void log_open_generator(void);

/* Logs at `level` and returns -abs(error) so that callers can write
 * `return log_error_errno(r, "Failed to ...: %m");`; %m prints strerror(error). */
int log_internal(enum log_level level, int error, const char *format, ...) _printf_(3, 4);

#define log_error(...) log_internal(LOG_LEVEL_ERR, 0, __VA_ARGS__)
#define log_warning(...) log_internal(LOG_LEVEL_WARNING, 0, __VA_ARGS__)
#define log_notice(...) log_internal(LOG_LEVEL_NOTICE, 0, __VA_ARGS__)
#define log_info(...) log_internal(LOG_LEVEL_INFO, 0, __VA_ARGS__)
#define log_debug(...) log_internal(LOG_LEVEL_DEBUG, 0, __VA_ARGS__)
#define log_error_errno(e, ...) log_internal(LOG_LEVEL_ERR, (e), __VA_ARGS__)
#define log_warning_errno(e, ...) log_internal(LOG_LEVEL_WARNING, (e), __VA_ARGS__)
#define log_oom() log_internal(LOG_LEVEL_ERR, ENOMEM, "Out of memory.")

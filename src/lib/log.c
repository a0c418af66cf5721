/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

static const char *log_program = "nfs-systemd";
static enum log_level log_max_level = LOG_LEVEL_INFO;

void log_setup(const char *program_name) {
        const char *e;

        log_program = program_name;
        /* Same knob systemd's own generators honour, so "debug" on the kernel
         * command line or SYSTEMD_LOG_LEVEL=debug works for us too. */
        e = getenv("SYSTEMD_LOG_LEVEL");
        if (e && strcmp(e, "debug") == 0)
                log_max_level = LOG_LEVEL_DEBUG;
}

void log_set_max_level(enum log_level level) {
        log_max_level = level;
}

int log_internal(enum log_level level, int error, const char *format, ...) {
        int saved_errno = errno;
        va_list ap;

        if (error < 0)
                error = -error;

        if (level <= log_max_level) {
                /* %m in format must print the error we were handed, not whatever
                 * errno happens to hold. */
                errno = error;
                fprintf(stderr, "%s: ", log_program);
                va_start(ap, format);
                vfprintf(stderr, format, ap);
                va_end(ap);
                fputc('\n', stderr);
        }

        errno = saved_errno;
        return -error;
}

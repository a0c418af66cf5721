/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <fcntl.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"

/* syslog's LOG_DAEMON facility, as systemd's own generators use */
#define LOG_FACILITY_DAEMON (3 << 3)
/* the kernel keeps at most about this much of one record */
#define KMSG_RECORD_MAX 1024

static const char *log_program = "nfs-systemd";
static enum log_level log_max_level = LOG_LEVEL_INFO;
static int log_kmsg_fd = -1;

void log_setup(const char *program_name) {
        const char *e;

        log_program = program_name;
        /* the same knob systemd's own tools honour */
        e = getenv("SYSTEMD_LOG_LEVEL");
        if (e && strcmp(e, "debug") == 0)
                log_max_level = LOG_LEVEL_DEBUG;
}

void log_open_generator(void) {
        /* systemd (since 251) runs generators with $SYSTEMD_SCOPE set. Their
         * standard error then leads nowhere an administrator looks, so, like
         * systemd's own generators, we write to the kernel log, from which
         * journald takes the messages into the journal. */
        if (!getenv("SYSTEMD_SCOPE") || log_kmsg_fd >= 0)
                return;
        log_kmsg_fd = open("/dev/kmsg", O_WRONLY | O_NOCTTY | O_CLOEXEC);
}

void log_set_max_level(enum log_level level) {
        log_max_level = level;
}

/* One write is one record; the kernel cuts what is longer. Returns false
 * when the kernel log is not in use or the write failed. */
static bool log_to_kmsg(enum log_level level, const char *message) {
        char record[KMSG_RECORD_MAX];
        int n;

        if (log_kmsg_fd < 0)
                return false;
        n = snprintf(record, sizeof(record), "<%d>%s[%d]: %s\n", LOG_FACILITY_DAEMON | (int) level,
                     log_program, (int) getpid(), message);
        if (n < 0)
                return false;
        if ((size_t) n >= sizeof(record)) {
                n = sizeof(record) - 1;
                record[n - 1] = '\n';
        }
        return write(log_kmsg_fd, record, (size_t) n) > 0;
}

int log_internal(enum log_level level, int error, const char *format, ...) {
        int saved_errno = errno;
        va_list ap;

        if (error < 0)
                error = -error;

        if (level <= log_max_level) {
                char *message = NULL;
                /* %m in format must print the error we were handed, not
                 * whatever errno happens to hold. */
                errno = error;
                va_start(ap, format);
                if (vasprintf(&message, format, ap) < 0)
                        message = NULL;
                va_end(ap);

                if (!message || !log_to_kmsg(level, message))
                        fprintf(stderr, "%s: %s\n", log_program, message ? message : format);
                free(message);
        }
        errno = saved_errno;
        return -error;
}

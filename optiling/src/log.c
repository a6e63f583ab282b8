/* optiling/src/log.c: the operator log (log/log.h, opdev/op_log.h) over the runtime's log.
   An error becomes the thread's recent error (mgrt_fail): with an aclnn status as subject,
   that status; otherwise ACLNN_ERR_INNER. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "aclnn/acl_meta.h"
#include "mgrt.h"
#include "optiling/mg_optiling.h"

void mg_op_log(int level, const char *subject, int code, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* The last error logged on this thread, for mg_optiling_run's message. */
static _Thread_local char last_error[1200];
const char *mg_op_last_error(void) { return last_error; }
void mg_op_clear_last_error(void) { last_error[0] = '\0'; }

void mg_op_log(int level, const char *subject, int code, const char *file, int line, const char *fmt, ...) {
    if (level < MGRT_LOG_ERROR && !mgrt_log_enabled(level)) return;
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    const char *base = strrchr(file, '/');
    base = base != NULL ? base + 1 : file;
    if (level >= MGRT_LOG_ERROR) {
        snprintf(last_error, sizeof last_error, "%.1000s (%.120s:%d)", text, base, line);
        /* a context or a name as subject: an inner error (opbuild reports a failed tiling
           with ACLNN_ERR_INNER_TILING_ERROR and this text) */
        mgrt_fail(code != 0 ? code : ACLNN_ERR_INNER, "%s%s%s (%s:%d)", subject, *subject ? ": " : "", text, base,
                  line);
        return;
    }
    mgrt_log(level, "OP", "[%s:%d] %s%s%s", base, line, subject, *subject ? ": " : "", text);
}

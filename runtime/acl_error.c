/*
 * runtime/acl_error.c: the recent error messages of each thread, and CANN-style log lines.
 *
 * Invariants: every failure adds its message to the calling thread's list, which
 * aclGetRecentErrMsg returns newest first and clears (the string valid until the thread's next
 * call; the newest that fit in RECENT_ERROR_CAPACITY bytes are kept). Log lines go to a file
 * per process, or stdout when asked, never lost (stderr only when no file can be made); the
 * switches are read at the first log call and again at every aclInit. The paths, levels and
 * line layout: docs/runtime.md, "Status codes and messages" and "Logs and application logs".
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "runtime_internal.h"

#define RECENT_ERROR_CAPACITY 4096
#define ONE_MESSAGE_CAPACITY 1024

/* The calling thread's unread messages, newest first, separated by '\n'. */
static _Thread_local char pending[RECENT_ERROR_CAPACITY];
static _Thread_local size_t pending_length;
/* What the last aclGetRecentErrMsg returned. */
static _Thread_local char returned[RECENT_ERROR_CAPACITY];
/* aclrtGetLastError / aclrtPeekAtLastError: the thread's last runtime-layer failure. */
static _Thread_local int32_t last_runtime_error;

/* Puts `message` in front of the thread's list, dropping the oldest messages that no
   longer fit. */
static void push_message(const char *message) {
    size_t length = strlen(message);
    if (length == 0) return;
    if (length > RECENT_ERROR_CAPACITY - 2) length = RECENT_ERROR_CAPACITY - 2;
    size_t keep = pending_length;
    size_t room = RECENT_ERROR_CAPACITY - 1 - length - 1; /* for older messages after '\n' */
    if (keep > room) {
        /* Keep only whole older messages: cut at the last separator that fits. */
        size_t cut = room;
        while (cut > 0 && pending[cut] != '\n') cut--;
        keep = cut;
    }
    if (keep > 0) {
        memmove(pending + length + 1, pending, keep);
        pending[length] = '\n';
        memcpy(pending, message, length);
        pending_length = length + 1 + keep;
    } else {
        memcpy(pending, message, length);
        pending_length = length;
    }
    pending[pending_length] = '\0';
}

void rt_error_take_latest(char *out, size_t capacity) {
    size_t first = 0;
    while (first < pending_length && pending[first] != '\n') first++;
    if (capacity > 0) snprintf(out, capacity, "%.*s", (int)first, pending);
    size_t rest = first < pending_length ? first + 1 : pending_length;
    memmove(pending, pending + rest, pending_length - rest);
    pending_length -= rest;
    pending[pending_length] = '\0';
}

static atomic_int log_level = MGRT_LOG_ERROR;
static atomic_int log_to_stdout = 0;
static atomic_int log_configured = 0;

static int env_int(const char *name, int fallback, int lo, int hi) {
    const char *text = getenv(name);
    if (text == NULL || *text == '\0') return fallback;
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (*end != '\0' || value < lo || value > hi) return fallback;
    return (int)value;
}

/* Printing to stdout: ASCEND_LOG_PRINT_TO_STDOUT, or, when that is unset or empty, the
   deprecated ASCEND_SLOG_PRINT_TO_STDOUT (CANN 9.2.0: "if both are set, the new one
   decides"); 1 prints to stdout, anything else keeps the default (the log file). */
static int print_to_stdout(void) {
    const char *current = getenv("ASCEND_LOG_PRINT_TO_STDOUT");
    const char *name = current != NULL && *current != '\0' ? "ASCEND_LOG_PRINT_TO_STDOUT" : "ASCEND_SLOG_PRINT_TO_STDOUT";
    return env_int(name, 0, 0, 1);
}

/* ---- the log file ---------------------------------------------------------------------- */

#define LOG_PATH_CAPACITY 4096

/* Guards the file and where it should be; held while a line is written to it, so lines
   from several threads do not interleave. Taken around fork() (pthread_atfork), so a child
   never inherits it held. */
static pthread_mutex_t log_file_lock = RT_MUTEX_INITIALIZER;
static char log_root[LOG_PATH_CAPACITY]; /* the directory the environment names ("": none) */
static FILE *log_file;
static pid_t log_file_pid;               /* the process that opened log_file */
static char log_file_root[LOG_PATH_CAPACITY];
static int log_file_failed;              /* opening under log_root failed: stderr until it changes */
static pthread_once_t log_atfork_once = PTHREAD_ONCE_INIT;

static void log_fork_prepare(void) { RT_LOCK(&log_file_lock); }
static void log_fork_parent(void) { RT_UNLOCK(&log_file_lock); }
static void log_fork_child(void) {
    log_file_failed = 0; /* the child opens its own file at its first line */
    rt_mutex_init_checked(&log_file_lock); /* the child's thread is not the owner the lock recorded */
}
static void register_log_atfork(void) { pthread_atfork(log_fork_prepare, log_fork_parent, log_fork_child); }

/* The directory CANN logs under (lock held). */
static void choose_log_root_locked(void) {
    const char *process = getenv("ASCEND_PROCESS_LOG_PATH");
    const char *work = getenv("ASCEND_WORK_PATH");
    const char *home = getenv("HOME");
    if (process != NULL && *process != '\0')
        snprintf(log_root, sizeof log_root, "%s", process);
    else if (work != NULL && *work != '\0')
        snprintf(log_root, sizeof log_root, "%s/log", work);
    else if (home != NULL && *home != '\0')
        snprintf(log_root, sizeof log_root, "%s/ascend/log", home);
    else
        log_root[0] = '\0';
}

/* mkdir -p of `path` (modified in place, restored). 1 when it exists as a directory. */
static int make_directories(char *path) {
    for (char *p = path + 1; *p != '\0'; p++) {
        if (*p != '/') continue;
        *p = '\0';
        const int made = mkdir(path, 0750) == 0 || errno == EEXIST;
        *p = '/';
        if (!made) return 0;
    }
    if (mkdir(path, 0750) != 0 && errno != EEXIST) return 0;
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The open log file of this process under log_root, opened now if need be; NULL when none
   can be (lock held). */
static FILE *log_file_locked(void) {
    const pid_t me = getpid();
    if (log_file != NULL && log_file_pid == me && strcmp(log_file_root, log_root) == 0) return log_file;
    if (log_file != NULL) { /* another directory, or the parent's file in a forked child */
        fclose(log_file);
        log_file = NULL;
    }
    if (log_root[0] == '\0' || log_file_failed) return NULL;
    char dir[LOG_PATH_CAPACITY + 16], path[LOG_PATH_CAPACITY + 96];
    snprintf(dir, sizeof dir, "%s/debug/plog", log_root);
    struct timeval now;
    gettimeofday(&now, NULL);
    struct tm local;
    const time_t seconds = now.tv_sec;
    localtime_r(&seconds, &local);
    snprintf(path, sizeof path, "%s/plog-%ld_%04d%02d%02d%02d%02d%02d%03ld.log", dir, (long)me, local.tm_year + 1900,
             local.tm_mon + 1, local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec, (long)(now.tv_usec / 1000));
    int fd = make_directories(dir) ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640) : -1;
    log_file = fd >= 0 ? fdopen(fd, "a") : NULL;
    if (log_file == NULL) {
        if (fd >= 0) close(fd);
        log_file_failed = 1;
        return NULL;
    }
    log_file_pid = me;
    snprintf(log_file_root, sizeof log_file_root, "%s", log_root);
    return log_file;
}

void rt_log_configure(void) {
    pthread_once(&log_atfork_once, register_log_atfork);
    RT_LOCK(&log_file_lock);
    choose_log_root_locked();
    log_file_failed = 0; /* try again: the directory may exist now */
    RT_UNLOCK(&log_file_lock);
    atomic_store(&log_level, env_int("ASCEND_GLOBAL_LOG_LEVEL", MGRT_LOG_ERROR, 0, 4));
    atomic_store(&log_to_stdout, print_to_stdout());
    atomic_store(&log_configured, 1);
}

int mgrt_log_enabled(int level) {
    if (!atomic_load_explicit(&log_configured, memory_order_acquire)) rt_log_configure();
    int threshold = atomic_load_explicit(&log_level, memory_order_relaxed);
    return threshold != MGRT_LOG_NULL && level >= threshold;
}

static const char *level_name(int level) {
    switch (level) {
    case MGRT_LOG_DEBUG: return "DEBUG";
    case MGRT_LOG_INFO: return "INFO";
    case MGRT_LOG_WARNING: return "WARNING";
    default: return "ERROR";
    }
}

static char program[64] = "app";
static pthread_once_t program_once = PTHREAD_ONCE_INIT;

static void read_program_name(void) {
    FILE *f = fopen("/proc/self/comm", "r");
    if (f == NULL) return;
    if (fgets(program, sizeof program, f) != NULL) program[strcspn(program, "\n")] = '\0';
    fclose(f);
}

static const char *program_name(void) {
    pthread_once(&program_once, read_program_name);
    return program;
}

static void log_vprint(int level, const char *module, const char *fmt, va_list args) {
    struct timeval now;
    gettimeofday(&now, NULL);
    struct tm local;
    time_t seconds = now.tv_sec;
    localtime_r(&seconds, &local);
    char message[1536];
    vsnprintf(message, sizeof message, fmt, args);
    const int to_stdout = atomic_load(&log_to_stdout);
    /* One fprintf per line (under the file's lock, or stdio's own) so lines from several
       threads do not interleave. */
    if (!to_stdout) RT_LOCK(&log_file_lock);
    FILE *file = to_stdout ? NULL : log_file_locked();
    FILE *out = to_stdout ? stdout : file != NULL ? file : stderr;
    fprintf(out, "[%s] MISHGRAD(%ld,%s):%04d-%02d-%02d-%02d:%02d:%02d.%03ld.%03ld [%s] %s\n",
            level_name(level), (long)getpid(), program_name(), local.tm_year + 1900,
            local.tm_mon + 1, local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec,
            (long)(now.tv_usec / 1000), (long)(now.tv_usec % 1000), module, message);
    fflush(out);
    if (!to_stdout) RT_UNLOCK(&log_file_lock);
}

void mgrt_log(int level, const char *module, const char *fmt, ...) {
    if (!mgrt_log_enabled(level)) return;
    va_list args;
    va_start(args, fmt);
    log_vprint(level, module, fmt, args);
    va_end(args);
}

void rt_log_notice(const char *module, const char *fmt, ...) {
    if (!mgrt_log_enabled(MGRT_LOG_ERROR)) return;
    va_list args;
    va_start(args, fmt);
    log_vprint(MGRT_LOG_WARNING, module, fmt, args);
    va_end(args);
}

void mgrt_set_recent_error(const char *message) {
    if (message != NULL) push_message(message);
}

/* The layer a failure code belongs to, by its family (the digits after the first): the
   runtime's ACL_ERROR_RT_* codes are x07xxx (107xxx parameters, 207xxx features, 507xxx
   the device and its work), the operator layer's aclnn codes x61xxx, the acl layer's the
   rest (100xxx, 200xxx, 500xxx). CANN's log lines name their module by it. */
typedef enum code_layer { LAYER_ACL, LAYER_RUNTIME, LAYER_OP } code_layer;
static code_layer layer_of(int32_t code) {
    const int family = (int)(code % 100000) / 1000;
    return family == 7 ? LAYER_RUNTIME : family == 61 ? LAYER_OP : LAYER_ACL;
}

/* CANN's last error is kept by its runtime layer (rts): the acl layer's own checks and the
   aclnn codes fail before the runtime is reached and are not recorded there. */
void rt_last_error_note(int32_t code) {
    if (layer_of(code) == LAYER_RUNTIME) last_runtime_error = code;
}

static aclError check_last_error_level(const char *api, aclrtLastErrLevel level) {
    if (level == ACL_RT_THREAD_LEVEL) return ACL_SUCCESS;
    /* Refusing the level is the acl layer's check: it leaves the thread's last error as is. */
    return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: level %d is not ACL_RT_THREAD_LEVEL (0), the only level",
                        api, (int)level);
}

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
    aclError status = check_last_error_level("aclrtPeekAtLastError", level);
    return status != ACL_SUCCESS ? status : last_runtime_error;
}

aclError aclrtGetLastError(aclrtLastErrLevel level) {
    aclError status = check_last_error_level("aclrtGetLastError", level);
    if (status != ACL_SUCCESS) return status;
    status = last_runtime_error;
    last_runtime_error = ACL_SUCCESS;
    return status;
}

static int32_t fail_v(const char *where, int32_t code, const char *fmt, va_list args) {
    char message[ONE_MESSAGE_CAPACITY];
    rt_last_error_note(code);
    vsnprintf(message, sizeof message, fmt, args);
    push_message(message);
    if (mgrt_log_enabled(MGRT_LOG_ERROR)) {
        static const char *const module_of[] = {[LAYER_ACL] = "ASCENDCL", [LAYER_RUNTIME] = "RUNTIME",
                                                 [LAYER_OP] = "OP"};
        const char *module = module_of[layer_of(code)];
        if (where != NULL)
            mgrt_log(MGRT_LOG_ERROR, module, "%s failed, error code %d: %s", where, (int)code, message);
        else
            mgrt_log(MGRT_LOG_ERROR, module, "error code %d: %s", (int)code, message);
    }
    return code;
}

int32_t mgrt_fail(int32_t code, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    int32_t result = fail_v(NULL, code, fmt, args);
    va_end(args);
    return result;
}

int32_t mgrt_fail_at(const char *where, int32_t code, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    int32_t result = fail_v(where, code, fmt, args);
    va_end(args);
    return result;
}

const char *aclGetRecentErrMsg(void) {
    if (pending_length == 0) return NULL;
    memcpy(returned, pending, pending_length + 1);
    pending_length = 0;
    pending[0] = '\0';
    return returned;
}

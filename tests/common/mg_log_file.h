/*
 * tests/common/mg_log_file.h: what the runtime wrote to this process's log file.
 *
 * The runtime logs as CANN does, to <root>/debug/plog/plog-<pid>_<timestamp>.log, <root> being
 * ASCEND_PROCESS_LOG_PATH, else $ASCEND_WORK_PATH/log, else $HOME/ascend/log (CTest sets
 * ASCEND_PROCESS_LOG_PATH to the build tree). mg_log_text_since(mg_log_size()) is the text
 * written after that point; the environment must name the same root as at the last aclInit.
 * Needs _POSIX_C_SOURCE >= 2 (glob).
 */
#ifndef MG_LOG_FILE_H_
#define MG_LOG_FILE_H_

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* This process's newest log file; 0 when there is none yet. */
static inline int mg_log_path(char *out, size_t capacity) {
    const char *process = getenv("ASCEND_PROCESS_LOG_PATH"), *work = getenv("ASCEND_WORK_PATH");
    const char *home = getenv("HOME");
    char root[4096];
    if (process != NULL && *process != '\0')
        snprintf(root, sizeof root, "%s", process);
    else if (work != NULL && *work != '\0')
        snprintf(root, sizeof root, "%s/log", work);
    else
        snprintf(root, sizeof root, "%s/ascend/log", home != NULL ? home : "");
    char pattern[4200];
    snprintf(pattern, sizeof pattern, "%s/debug/plog/plog-%ld_*.log", root, (long)getpid());
    glob_t found;
    if (glob(pattern, 0, NULL, &found) != 0) return 0;
    const int ok = found.gl_pathc > 0;
    if (ok) snprintf(out, capacity, "%s", found.gl_pathv[found.gl_pathc - 1]); /* names sort by time */
    globfree(&found);
    return ok;
}

static inline long mg_log_size(void) {
    char path[4300];
    struct stat st;
    return mg_log_path(path, sizeof path) && stat(path, &st) == 0 ? (long)st.st_size : 0;
}

/* The log text after byte `offset` (malloc'd, "" when none; NULL only without memory). */
static inline char *mg_log_text_since(long offset) {
    char path[4300];
    FILE *f = mg_log_path(path, sizeof path) ? fopen(path, "r") : NULL;
    if (f == NULL) return calloc(1, 1);
    fseek(f, 0, SEEK_END);
    long end = ftell(f);
    if (end < offset) offset = 0; /* a new file since */
    char *text = calloc((size_t)(end - offset) + 1, 1);
    fseek(f, offset, SEEK_SET);
    if (text != NULL && end > offset && fread(text, 1, (size_t)(end - offset), f) != (size_t)(end - offset))
        text[0] = '\0';
    fclose(f);
    return text;
}

/* A log stamp's fields (a line's or a file name's) read as the local time they were written in. */
static inline time_t mg_log_stamp_time(int year, int month, int day, int hour, int minute, int second) {
    struct tm stamp = {0};
    stamp.tm_year = year - 1900;
    stamp.tm_mon = month - 1;
    stamp.tm_mday = day;
    stamp.tm_hour = hour;
    stamp.tm_min = minute;
    stamp.tm_sec = second;
    stamp.tm_isdst = -1;
    return mktime(&stamp);
}

#endif /* MG_LOG_FILE_H_ */

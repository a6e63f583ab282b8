/*
 * tests/common/mg_scratch.h: scratch directories a test makes under $TMPDIR (else /tmp), each
 * removed with everything in it when the process that made it exits, whatever the checks
 * said (a forked child that exits leaves them).
 *
 * mg_scratch_make(buffer, capacity, "mg_name") fills buffer with the new directory's path
 * and returns 1 (0 when it could not be made). Needs _POSIX_C_SOURCE >= 200809L or
 * _DEFAULT_SOURCE (mkdtemp, lstat).
 */
#ifndef MG_SCRATCH_H_
#define MG_SCRATCH_H_

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MG_SCRATCH_MAX = 16 };
static char mg_scratch_dirs[MG_SCRATCH_MAX][512];
static int mg_scratch_count;
static pid_t mg_scratch_owner;

/* Removes `path` and, for a directory, everything under it; links are removed, never
   followed. A directory a test made unreadable is made readable first. */
static inline void mg_scratch_remove(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (!S_ISDIR(st.st_mode)) {
        unlink(path);
        return;
    }
    chmod(path, 0700);
    DIR *dir = opendir(path);
    if (dir != NULL) {
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
            char child[4096];
            if (snprintf(child, sizeof child, "%s/%s", path, entry->d_name) < (int)sizeof child)
                mg_scratch_remove(child);
        }
        closedir(dir);
    }
    rmdir(path);
}

static inline void mg_scratch_remove_all(void) {
    if (getpid() != mg_scratch_owner) return;
    for (int i = 0; i < mg_scratch_count; i++) mg_scratch_remove(mg_scratch_dirs[i]);
    mg_scratch_count = 0;
}

static inline int mg_scratch_make(char *out, size_t capacity, const char *name) {
    const char *tmp = getenv("TMPDIR");
    if (mg_scratch_count == MG_SCRATCH_MAX) return 0;
    char *slot = mg_scratch_dirs[mg_scratch_count];
    if (snprintf(slot, sizeof mg_scratch_dirs[0], "%s/%s_XXXXXX", tmp != NULL && *tmp != '\0' ? tmp : "/tmp", name) >=
            (int)sizeof mg_scratch_dirs[0] ||
        mkdtemp(slot) == NULL)
        return 0;
    if (mg_scratch_count++ == 0) {
        mg_scratch_owner = getpid();
        atexit(mg_scratch_remove_all);
    }
    if (snprintf(out, capacity, "%s", slot) >= (int)capacity) return 0;
    return 1;
}

#endif /* MG_SCRATCH_H_ */

"""The extension's mutexes are checked (csrc/mg_lock.h): a path that unlocks a mutex it does
not hold, locks one it holds, or waits with one it does not hold stops the process with a
message naming the mutex, where glibc's default mutex says nothing and the missing lock
races only when another thread happens to be inside (seed 50's survivor: mg_hostmem.c's
extents_release with its lock deleted; the same kind as mg_hostmem.c:51, left open before).

The header is compiled here into a small program with the system's C compiler (conftest's
build_c), each case run in a child; the extension's own sources are read to see that every
lock and wait in them goes through the checked forms."""
import os
import re
import signal
import subprocess

import pytest

from conftest import build_c

CSRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "csrc")

PROGRAM = r"""
#define _GNU_SOURCE
#include "mg_lock.h"
#include <string.h>

static pthread_mutex_t table_lock = MG_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;

static void *holder(void *arg) {
    (void)arg;
    MG_LOCK(table_lock);
    return NULL; /* exits holding it */
}

int main(int argc, char **argv) {
    (void)argc;
    const char *how = argv[1];
    if (strcmp(how, "right") == 0) {
        for (int i = 0; i < 3; i++) {
            MG_LOCK(table_lock);
            struct timespec now;
            clock_gettime(CLOCK_REALTIME, &now);
            (void)pthread_cond_timedwait(&changed, &table_lock, &now);
            MG_UNLOCK(table_lock);
        }
        puts("done");
        return 0;
    }
    if (strcmp(how, "unlock_not_held") == 0) MG_UNLOCK(table_lock);
    if (strcmp(how, "unlock_other_thread") == 0) {
        pthread_t t;
        pthread_create(&t, NULL, holder, NULL);
        pthread_join(t, NULL);
        MG_UNLOCK(table_lock);
    }
    if (strcmp(how, "lock_twice") == 0) {
        MG_LOCK(table_lock);
        MG_LOCK(table_lock);
    }
    if (strcmp(how, "wait_not_held") == 0) MG_WAIT(changed, table_lock);
    puts("went on");
    return 0;
}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build_c(tmp_path_factory, PROGRAM, "lock checks", ["-std=c11", "-Wall", "-Werror", "-I", CSRC, "-pthread"])


def run(program, how):
    return subprocess.run([program, how], capture_output=True, text=True, timeout=60)


def test_correct_use_runs_through(program):
    done = run(program, "right")
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "done", "")


@pytest.mark.parametrize("how, call", [
    ("unlock_not_held", "pthread_mutex_unlock"),
    ("unlock_other_thread", "pthread_mutex_unlock"),
    ("lock_twice", "pthread_mutex_lock"),
    ("wait_not_held", "pthread_cond_wait"),
])
def test_a_broken_rule_stops_the_process_naming_the_mutex(program, how, call):
    done = run(program, how)
    assert done.returncode == -signal.SIGABRT, (done.returncode, done.stdout, done.stderr)
    assert "went on" not in done.stdout
    assert done.stderr.startswith("mishgrad: internal error: %s(table_lock) failed: " % call), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_extension_takes_only_checked_locks():
    """Every mutex of the extension starts checked, and every lock, unlock and wait of the
    extension's sources goes through mg_lock.h's forms (a raw call would be unchecked)."""
    sources = [name for name in sorted(os.listdir(CSRC)) if name.endswith((".c", ".h")) and name != "mg_lock.h"]
    assert "mg_hostmem.c" in sources and "_mishgrad.c" in sources
    raw, mutexes = [], 0
    for name in sources:
        text = open(os.path.join(CSRC, name)).read()
        raw += ["%s: %s" % (name, m) for m in re.findall(r"pthread_(?:mutex_(?:lock|unlock|trylock)|cond_(?:timed)?wait)\s*\(",
                                                         text)]
        raw += ["%s: %s" % (name, m) for m in re.findall(r"PTHREAD_MUTEX_INITIALIZER|pthread_mutex_init\s*\(", text)]
        mutexes += len(re.findall(r"pthread_mutex_t\s+\w+\s*=\s*MG_MUTEX_INITIALIZER", text))
    assert raw == []
    assert mutexes == 2  # session_lock (_mishgrad.c) and lock (mg_hostmem.c)

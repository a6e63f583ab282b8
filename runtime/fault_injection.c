/*
 * runtime/fault_injection.c: the library's own allocations (mgrt_malloc / mgrt_calloc), and
 * the faults a test can plant in them, in handle registrations and in queued work.
 *
 * Invariant: faults are chosen only by MISHGRAD_FAULT_ALLOC, MISHGRAD_FAULT_STEP,
 * MISHGRAD_FAULT_HANDLE and MISHGRAD_FAULT_LATE, read at aclInit and forgotten at aclFinalize
 * (tests cannot call in to plant one: the one export of a test build, mgrt_late_calls_held,
 * only reads; a build without tests keeps it local); each planned fault fires once; unset, empty or malformed plants nothing. What each
 * one does: docs/reliability.md, "Fault injection".
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"

#define MAX_PLANNED_STEPS 8

/* Allocations (registrations) still allowed before the planned one fails; negative: none
   planned. */
static atomic_long allocations_before_fault = -1;
static atomic_long registrations_before_fault = -1;
/* Steps queued since aclInit, and the numbers of those planned to fail. */
static atomic_long steps_queued;
static atomic_long planned_steps[MAX_PLANNED_STEPS];
static atomic_int planned_step_count;
/* MISHGRAD_FAULT_LATE: the API whose next call is held until aclFinalize closes the streams
   (written at aclInit, before any call can read it; published by late_armed), and how many
   calls are held now. */
static char late_api[64];
static atomic_int late_armed, late_held;

/* Reads a number >= 1 at *text, moving past it; 0 if there is none. */
static long read_index(const char **text) {
    char *end = NULL;
    long n = strtol(*text, &end, 10);
    if (end == *text || n < 1) return 0;
    *text = end;
    return n;
}

#ifndef MISHGRAD_TEST_HOOKS
#define MISHGRAD_TEST_HOOKS 1
#endif

void rt_fault_configure(void) {
    rt_fault_disarm();
#if !MISHGRAD_TEST_HOOKS
    /* A build without tests (a package, say) ships no test hooks: the switches are read
       only to say that they do nothing here. */
    if (getenv("MISHGRAD_FAULT_ALLOC") != NULL || getenv("MISHGRAD_FAULT_STEP") != NULL ||
        getenv("MISHGRAD_FAULT_HANDLE") != NULL || getenv("MISHGRAD_FAULT_LATE") != NULL)
        rt_log_notice("RUNTIME", "MISHGRAD_FAULT_ALLOC / MISHGRAD_FAULT_STEP / MISHGRAD_FAULT_HANDLE / "
                      "MISHGRAD_FAULT_LATE are ignored: this build has no test hooks (it was built without tests)");
    return;
#endif
    const char *text = getenv("MISHGRAD_FAULT_ALLOC");
    if (text != NULL) {
        long n = read_index(&text);
        /* Counted from 1: MISHGRAD_FAULT_ALLOC=1 fails the first allocation after aclInit. */
        if (n > 0 && *text == '\0') atomic_store(&allocations_before_fault, n - 1);
    }
    text = getenv("MISHGRAD_FAULT_HANDLE");
    if (text != NULL) {
        long n = read_index(&text);
        if (n > 0 && *text == '\0') atomic_store(&registrations_before_fault, n - 1);
    }
    text = getenv("MISHGRAD_FAULT_STEP");
    if (text != NULL) {
        long steps[MAX_PLANNED_STEPS];
        int count = 0;
        while (count < MAX_PLANNED_STEPS && (steps[count] = read_index(&text)) > 0) {
            count++;
            if (*text != ',') break;
            text++;
        }
        if (*text != '\0') count = 0; /* malformed: plant nothing rather than half of it */
        for (int i = 0; i < count; i++) atomic_store(&planned_steps[i], steps[i]);
        atomic_store(&planned_step_count, count);
    }
    text = getenv("MISHGRAD_FAULT_LATE");
    if (text != NULL && *text != '\0' && strlen(text) < sizeof late_api) {
        memcpy(late_api, text, strlen(text) + 1);
        atomic_store(&late_armed, 1);
    }
}

void rt_fault_disarm(void) {
    atomic_store(&allocations_before_fault, -1);
    atomic_store(&registrations_before_fault, -1);
    atomic_store(&planned_step_count, 0);
    atomic_store(&steps_queued, 0);
    atomic_store(&late_armed, 0);
}

int rt_fault_late_call(const char *api) {
    int armed = 1;
    if (!atomic_load(&late_armed) || strcmp(api, late_api) != 0 ||
        !atomic_compare_exchange_strong(&late_armed, &armed, 0))
        return 0;
    atomic_fetch_add(&late_held, 1);
    return 1;
}

void rt_fault_late_done(void) { atomic_fetch_sub(&late_held, 1); }

/* Exported to the tests only: a build without tests keeps it local (CMakeLists.txt,
   MISHGRAD_TEST_ONLY_EXPORTS_ascendcl). */
int mgrt_late_calls_held(void) { return atomic_load(&late_held); }

long rt_fault_step_planned(void) {
    long step = atomic_fetch_add(&steps_queued, 1) + 1;
    int count = atomic_load(&planned_step_count);
    for (int i = 0; i < count; i++)
        if (atomic_load(&planned_steps[i]) == step) return step;
    return 0;
}

/* Counts one event against `*before_fault`: 1 when it is the one planned to fail (the
   count then goes to -1, so it fails once). */
static int counted_fault(atomic_long *before_fault) {
    long left = atomic_load(before_fault);
    while (left >= 0) {
        long next = left == 0 ? -1 : left - 1;
        if (atomic_compare_exchange_weak(before_fault, &left, next)) return left == 0;
    }
    return 0;
}

static int allocation_fails(void) { return counted_fault(&allocations_before_fault); }

int rt_fault_registration_fails(void) { return counted_fault(&registrations_before_fault); }

void *mgrt_malloc(size_t bytes) {
    if (allocation_fails()) return NULL;
    return malloc(bytes ? bytes : 1);
}

void *mgrt_calloc(size_t count, size_t bytes) {
    if (allocation_fails()) return NULL;
    return calloc(count ? count : 1, bytes ? bytes : 1);
}

void mgrt_free(void *ptr) { free(ptr); }

/*
 * tests/common/mg_gate.h: a gate that holds a stream, so that work queued behind it is
 * certainly unfinished while a test makes the call under test. (A small task left on a
 * stream usually waits for a synchronize, but its worker may still run it: a new stream's
 * worker that has not gone to sleep yet, or a spurious wake-up.) The gate task waits until
 * mg_gate_open() or 3 s have passed, so a runtime that wrongly waits for the stream is slow,
 * not hung. Needs the runtime's private header (mgrt.h: mgrt_stream_submit); one gate per
 * test program at a time.
 */
#ifndef MG_GATE_H_
#define MG_GATE_H_

#include <stdatomic.h>
#include <time.h>

#include "mg_test.h"
#include "mgrt.h"

static atomic_int mg_gate_is_open;
static atomic_int mg_gate_entered;

static inline double mg_gate_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static inline void mg_gate_sleep_1ms(void) {
    const struct timespec ms = {0, 1000000L};
    nanosleep(&ms, NULL);
}

static inline int32_t mg_gate_run(void *task) {
    (void)task;
    atomic_store(&mg_gate_entered, 1);
    const double start = mg_gate_now_ms();
    while (!atomic_load(&mg_gate_is_open) && mg_gate_now_ms() - start < 3000.0) mg_gate_sleep_1ms();
    return 0;
}

static inline void mg_gate_release(void *task) { (void)task; }

/* Queues the gate on `stream` and waits until the stream's worker runs it. */
static inline void mg_gate_close(aclrtStream stream) {
    atomic_store(&mg_gate_is_open, 0);
    atomic_store(&mg_gate_entered, 0);
    /* A huge work count wakes the worker at once. */
    MG_CHECK_EQ_INT(mgrt_stream_submit("test", stream, mg_gate_run, mg_gate_release, NULL, (uint64_t)1 << 40), 0);
    for (int i = 0; i < 3000 && !atomic_load(&mg_gate_entered); i++) mg_gate_sleep_1ms();
    MG_CHECK(atomic_load(&mg_gate_entered));
}

static inline void mg_gate_open(void) { atomic_store(&mg_gate_is_open, 1); }

#endif /* MG_GATE_H_ */

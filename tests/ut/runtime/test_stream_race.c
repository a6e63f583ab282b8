/*
 * tests/ut/runtime/test_stream_race.c: the cross-stream race check on strided accesses
 * (mgrt_access with dims and strides, as an operator launch declares a non-contiguous
 * view): an unordered task behind an event-ordered one is still a race.
 *
 * Stream A is held by a gate (mg_gate.h), so what is queued behind it is unfinished when
 * stream B queues. The tasks do nothing: their accesses are only compared, so most cases
 * use addresses of no memory block at all (nothing is read or written there).
 */
#define _GNU_SOURCE 1
#include <stdint.h>
#include <string.h>

#include "mg_gate.h"
#include "mgrt.h"
#include "ut_util.h"

static int32_t do_nothing(void *task) {
    (void)task;
    return 0;
}
static void release_nothing(void *task) { (void)task; }

static int submit(aclrtStream stream, const mgrt_access *accesses, size_t count) {
    return mgrt_stream_submit_access("test", stream, do_nothing, release_nothing, NULL, 1, accesses, count);
}

/* A strided access: element idx at ptr + sum(idx[i] * strides[i]) bytes, the range just
   covering its last element (as op_executor.c declares a view). */
static mgrt_access strided(uintptr_t ptr, uint64_t elem_bytes, int rank, const int64_t *dims,
                           const int64_t *strides, int write) {
    mgrt_access a;
    memset(&a, 0, sizeof a);
    a.ptr = (const void *)ptr;
    a.write = write;
    a.rank = rank;
    a.elem_bytes = elem_bytes;
    uint64_t last = 0;
    for (int i = 0; i < rank; i++) {
        a.dims[i] = dims[i];
        a.strides[i] = strides[i];
        last += (uint64_t)(dims[i] - 1) * (uint64_t)strides[i];
    }
    a.bytes = last + elem_bytes;
    return a;
}

static mgrt_access bytes_at(uintptr_t ptr, uint64_t bytes, int write) {
    mgrt_access a;
    memset(&a, 0, sizeof a);
    a.ptr = (const void *)ptr;
    a.bytes = bytes;
    a.write = write;
    return a;
}

/* Far from any real allocation; only compared. */
static const uintptr_t BASE = (uintptr_t)1 << 44;

typedef struct streams {
    aclrtStream a, b;
} streams;

static streams two_streams(void) {
    ut_init();
    streams s = {NULL, NULL};
    MG_CHECK_EQ_INT(aclrtCreateStream(&s.a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateStream(&s.b), ACL_SUCCESS);
    return s;
}

static void done(streams s) {
    mg_gate_open();
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(s.a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(s.b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(s.a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(s.b), ACL_SUCCESS);
}

/* ---- ordering ------------------------------------------------------------------------------------- */

/* A writes, records an event, writes again; B waits for the event and writes the same
   bytes: B's write races A's second one. The check took the first conflicting task of A,
   found it ordered by the event, and looked no further: B was accepted (found by an audit,
   black-box, with two in-place Mish launches; here with plain and strided accesses). */
MG_TEST(an_unordered_task_behind_an_event_ordered_one_is_still_a_race) {
    streams s = two_streams();
    aclrtEvent ev = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&ev), ACL_SUCCESS);
    int64_t dims[2] = {64, 32}, steps[2] = {256, 4};
    mgrt_access left = strided(BASE, 4, 2, dims, steps, 1);
    mgrt_access plain = bytes_at(BASE, 16, 1);
    for (int form = 0; form < 2; form++) {
        const mgrt_access *access = form ? &left : &plain;
        mg_gate_close(s.a);
        MG_CHECK_EQ_INT(submit(s.a, access, 1), 0);
        MG_CHECK_EQ_INT(aclrtRecordEvent(ev, s.a), ACL_SUCCESS);
        MG_CHECK_EQ_INT(submit(s.a, access, 1), 0);
        MG_CHECK_EQ_INT(aclrtStreamWaitEvent(s.b, ev), ACL_SUCCESS);
        MG_CHECK_EQ_INT(submit(s.b, access, 1), ACLNN_ERR_PARAM_INVALID);
        MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "cross-stream race");
        /* A second record after A's second write orders that one too. */
        MG_CHECK_EQ_INT(aclrtRecordEvent(ev, s.a), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtStreamWaitEvent(s.b, ev), ACL_SUCCESS);
        MG_CHECK_EQ_INT(submit(s.b, access, 1), 0);
        mg_gate_open();
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(s.a), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(s.b), ACL_SUCCESS);
    }
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ev), ACL_SUCCESS);
    done(s);
}

int main(int argc, char **argv) { return ut_main(argc, argv); }

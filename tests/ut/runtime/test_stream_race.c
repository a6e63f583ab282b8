/*
 * tests/ut/runtime/test_stream_race.c: the cross-stream race check on strided accesses
 * (mgrt_access with dims and strides, as an operator launch declares a non-contiguous
 * view): exact against a brute force on random layouts, interleaved views of any size
 * accepted, the check's cost bounded, an unordered task behind an event-ordered one still a
 * race, and a malformed access checked as its whole range.
 *
 * Stream A is held by a gate (mg_gate.h), so what is queued behind it is unfinished when
 * stream B queues. The tasks do nothing: their accesses are only compared, so most cases
 * use addresses of no memory block at all (nothing is read or written there).
 */
#define _GNU_SOURCE 1
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "mg_gate.h"
#include "mg_rng.h"
#include "mgrt.h"
#include "ut_util.h"

static uint64_t below(mg_rng *rng, uint64_t n) { return mg_rng_next(rng) % n; }

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

static double thread_cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

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

/* Queues `first` on A (held), then `second` on B: 0 accepted, else B's status. */
static int race_status(streams s, const mgrt_access *first, const mgrt_access *second) {
    mg_gate_close(s.a);
    MG_CHECK_EQ_INT(submit(s.a, first, 1), 0);
    int status = submit(s.b, second, 1);
    mg_gate_open();
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(s.a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(s.b), ACL_SUCCESS);
    return status;
}

/* ---- exact --------------------------------------------------------------------------------------- */

/* Marks the bytes of `a` (relative to BASE) in `bytes`; the layouts below stay inside it. */
static void mark_bytes(const mgrt_access *a, unsigned char *bytes, unsigned char bit) {
    uintptr_t base = (uintptr_t)a->ptr - BASE;
    if (a->rank == 0) {
        for (uint64_t i = 0; i < a->bytes; i++) bytes[base + i] |= bit;
        return;
    }
    int64_t index[MGRT_ACCESS_MAX_RANK] = {0};
    for (;;) {
        uint64_t offset = 0;
        for (int d = 0; d < a->rank; d++) offset += (uint64_t)(index[d] * a->strides[d]);
        for (uint64_t i = 0; i < a->elem_bytes; i++) bytes[base + offset + i] |= bit;
        int d = a->rank - 1;
        for (; d >= 0 && ++index[d] == a->dims[d]; d--) index[d] = 0;
        if (d < 0) return;
    }
}

enum { SPACE = 4096 };

static mgrt_access random_access(mg_rng *rng, int write) {
    static const uint64_t sizes[4] = {1, 2, 4, 8};
    if (below(rng, 5) == 0) { /* a copy's or set's plain range */
        uint64_t bytes = 1 + below(rng, 256);
        return bytes_at(BASE + below(rng, 512), bytes, write);
    }
    uint64_t elem = sizes[below(rng, 4)];
    int rank = 1 + (int)below(rng, 4);
    int64_t dims[4], strides[4];
    uint64_t reach = elem;
    for (int d = 0; d < rank; d++) {
        dims[d] = 1 + (int64_t)below(rng, 6);
        /* Strides in elements or in bytes, zero (broadcast) now and then, sometimes dense. */
        uint64_t pick = below(rng, 8);
        strides[d] = pick == 0 ? 0 : pick < 4 ? (int64_t)(elem * (1 + below(rng, 40)))
                                              : (int64_t)(1 + below(rng, 160));
        reach += (uint64_t)(dims[d] - 1) * (uint64_t)strides[d];
    }
    if (reach > SPACE) return random_access(rng, write);
    uint64_t room = SPACE - reach + 1;
    return strided(BASE + below(rng, room < 512 ? room : 512), elem, rank, dims, strides, write);
}

/* Random layouts (element sizes 1-8, ranks 1-4, dense, strided, zero and unaligned
   strides, plain ranges): a race exactly when a byte is shared and one side writes. */
MG_TEST(strided_race_check_matches_a_brute_force_over_random_layouts) {
    streams s = two_streams();
    mg_rng rng = {20261202};
    static unsigned char bytes[SPACE];
    int wrong = 0, races = 0, apart = 0;
    for (int round = 0; round < 1500; round++) {
        mgrt_access a = random_access(&rng, (int)below(&rng, 2));
        mgrt_access b = random_access(&rng, a.write ? (int)below(&rng, 2) : 1);
        memset(bytes, 0, sizeof bytes);
        mark_bytes(&a, bytes, 1);
        mark_bytes(&b, bytes, 2);
        int shared = 0, first_a = SPACE, last_a = -1, first_b = SPACE, last_b = -1;
        for (int i = 0; i < SPACE; i++) {
            shared |= bytes[i] == 3;
            if (bytes[i] & 1) last_a = i, first_a = first_a < i ? first_a : i;
            if (bytes[i] & 2) last_b = i, first_b = first_b < i ? first_b : i;
        }
        /* Elements interleaving without a shared byte: what the comparison is for. */
        apart += !shared && first_a <= last_b && first_b <= last_a;
        int status = race_status(s, &a, &b);
        races += shared;
        mg_checks_done++;
        if (status != (shared ? ACLNN_ERR_PARAM_INVALID : 0) && wrong++ < 5)
            MG_FAIL("round %d: status %d, but the two %s a byte (a: rank %d at +%llu, b: rank %d at +%llu)", round,
                    status, shared ? "share" : "do not share", a.rank,
                    (unsigned long long)((uintptr_t)a.ptr - BASE), b.rank,
                    (unsigned long long)((uintptr_t)b.ptr - BASE));
    }
    /* Both answers, often: the layouts test something. */
    if (races < 300 || apart < 200) MG_FAIL("%d of 1500 rounds share a byte, %d interleave apart", races, apart);
    done(s);
}

/* ---- any size ----------------------------------------------------------------------------------- */

/* x[:, :h] and x[:, h:] of a 5000 x 4000 float tensor (1e7 elements each, the byte window
   where their ranges meet ~80 MB), x[0::2] and x[1::2] of 2^26 floats, and the column
   halves of an 8-bit 2^14 x 2^14 tensor: no byte is shared. They were refused as races (the
   window or the element count above 2^26 counted as shared), so a program splitting a large
   tensor's columns over two streams failed at the launch, depending on the tensor's size. */
MG_TEST(interleaved_views_above_2p26_bytes_are_not_a_race) {
    streams s = two_streams();
    {
        int64_t dims[2] = {5000, 2000}, steps[2] = {4 * 4000, 4};
        mgrt_access left = strided(BASE, 4, 2, dims, steps, 1), right = strided(BASE + 4 * 2000, 4, 2, dims, steps, 1);
        MG_CHECK_EQ_INT(race_status(s, &left, &right), 0);
        /* Shifted one column left, they share a column: still refused. */
        mgrt_access shifted = strided(BASE + 4 * 1999, 4, 2, dims, steps, 1);
        MG_CHECK_EQ_INT(race_status(s, &left, &shifted), ACLNN_ERR_PARAM_INVALID);
    }
    {
        int64_t dims[1] = {(int64_t)1 << 25}, steps[1] = {8};
        mgrt_access even = strided(BASE, 4, 1, dims, steps, 1), odd = strided(BASE + 4, 4, 1, dims, steps, 0);
        MG_CHECK_EQ_INT(race_status(s, &even, &odd), 0);
        /* Two bytes into each even element: shared. */
        mgrt_access into = strided(BASE + 2, 4, 1, dims, steps, 0);
        MG_CHECK_EQ_INT(race_status(s, &even, &into), ACLNN_ERR_PARAM_INVALID);
    }
    {
        int64_t dims[2] = {16384, 8192}, steps[2] = {16384, 1};
        mgrt_access left = strided(BASE, 1, 2, dims, steps, 1), right = strided(BASE + 8192, 1, 2, dims, steps, 1);
        MG_CHECK_EQ_INT(race_status(s, &left, &right), 0);
        /* A set of the last row's right half, in left's range: no byte of left. */
        mgrt_access set = bytes_at(BASE + 16383 * 16384 + 8192, 8192, 1);
        MG_CHECK_EQ_INT(race_status(s, &left, &set), 0);
        mgrt_access set_one_more = bytes_at(BASE + 16383 * 16384 + 8191, 8193, 1);
        MG_CHECK_EQ_INT(race_status(s, &left, &set_one_more), ACLNN_ERR_PARAM_INVALID);
    }
    done(s);
}

/* A broadcast input (zero strides) that reads one element 2^27 times, next to a strided
   output on another stream that skips that element: not a race. It was refused (its
   element count, repeats included, was above 2^26). */
MG_TEST(broadcast_read_of_an_element_between_a_views_elements_is_not_a_race) {
    streams s = two_streams();
    int64_t out_dims[1] = {1024}, out_steps[1] = {8};
    mgrt_access out = strided(BASE, 4, 1, out_dims, out_steps, 1);
    int64_t in_dims[2] = {(int64_t)1 << 14, (int64_t)1 << 13}, in_steps[2] = {0, 0};
    mgrt_access in = strided(BASE + 4 * 101, 4, 2, in_dims, in_steps, 0);
    MG_CHECK_EQ_INT(race_status(s, &out, &in), 0);
    mgrt_access in_even = strided(BASE + 4 * 100, 4, 2, in_dims, in_steps, 0);
    MG_CHECK_EQ_INT(race_status(s, &out, &in_even), ACLNN_ERR_PARAM_INVALID);
    done(s);
}

/* ---- cost ----------------------------------------------------------------------------------------- */

/* The check of a launch against unfinished work runs under the runtime's one scheduling
   lock. Two 2^24-element column halves (below the old 2^26 limit, so compared byte by byte
   through an 8 MiB bitmap) took ~200 ms of CPU per launch; a stride-2 pair as long. Now
   both are decided arithmetically (thread CPU time: preemption does not count). */
MG_TEST(race_check_of_large_interleaved_views_costs_little) {
    streams s = two_streams();
    int64_t dims[2] = {4096, 4096}, steps[2] = {2 * 8192, 2};
    mgrt_access left = strided(BASE, 2, 2, dims, steps, 1), right = strided(BASE + 8192, 2, 2, dims, steps, 1);
    int64_t pair_dims[1] = {(int64_t)1 << 24}, pair_steps[1] = {4};
    mgrt_access even = strided(BASE, 2, 1, pair_dims, pair_steps, 1), odd = strided(BASE + 2, 2, 1, pair_dims, pair_steps, 1);
    const mgrt_access *cases[2][2] = {{&left, &right}, {&even, &odd}};
    for (int c = 0; c < 2; c++) {
        mg_gate_close(s.a);
        MG_CHECK_EQ_INT(submit(s.a, cases[c][0], 1), 0);
        double start = thread_cpu_ms();
        MG_CHECK_EQ_INT(submit(s.b, cases[c][1], 1), 0);
        double spent = thread_cpu_ms() - start;
        if (spent > 20.0) MG_FAIL("case %d: queueing took %.1f ms of CPU", c, spent);
        mg_gate_open();
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(s.a), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(s.b), ACL_SUCCESS);
    }
    /* No residue proof separates these (x[:, :h:2] and bands of a diagonal in the right
       half): they are compared run by run, up to 2^22 visits, then taken to conflict, and
       the message says so. Bounded either way. */
    const int64_t C = 16384, h = 8192;
    int64_t a_dims[2] = {4096, h / 2}, a_steps[2] = {4 * C, 8};
    int64_t b_dims[2] = {2048, 2048}, b_steps[2] = {4 * (C + 1), 8};
    mgrt_access strided_left = strided(BASE, 4, 2, a_dims, a_steps, 1);
    mgrt_access diagonal = strided(BASE + 4 * h, 4, 2, b_dims, b_steps, 1);
    mg_gate_close(s.a);
    MG_CHECK_EQ_INT(submit(s.a, &strided_left, 1), 0);
    double start = thread_cpu_ms();
    MG_CHECK_EQ_INT(submit(s.b, &diagonal, 1), ACLNN_ERR_PARAM_INVALID);
    double spent = thread_cpu_ms() - start;
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "more runs than are compared (2^22)");
    if (spent > 500.0) MG_FAIL("the bounded comparison took %.1f ms of CPU", spent);
    int64_t small_dims[2] = {512, 512};
    mgrt_access small_diagonal = strided(BASE + 4 * h, 4, 2, small_dims, b_steps, 1);
    MG_CHECK_EQ_INT(submit(s.b, &small_diagonal, 1), 0);
    done(s);
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

/* A stream that retires is forgotten by the others' clocks, and only it (seed 42: the
   forgetting dropped the first entry that was NOT the retired stream's, so B lost the
   event's ordering after A's write, and a well-ordered task was refused as a race). */
MG_TEST(a_retired_stream_leaves_the_event_ordering_of_others) {
    streams s = two_streams();
    aclrtEvent ev = NULL;
    MG_CHECK_EQ_INT(aclrtCreateEvent(&ev), ACL_SUCCESS);
    mgrt_access write = bytes_at(BASE, 64, 1);
    mg_gate_close(s.a);
    MG_CHECK_EQ_INT(submit(s.a, &write, 1), 0);
    MG_CHECK_EQ_INT(aclrtRecordEvent(ev, s.a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(s.b, ev), ACL_SUCCESS);
    /* a third stream made and destroyed meanwhile (empty: it retires at once) */
    aclrtStream c = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&c), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(c), ACL_SUCCESS);
    /* B is still ordered after A's write (A held: the write has not run) */
    MG_CHECK_EQ_INT(submit(s.b, &write, 1), 0);
    mg_gate_open();
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(s.a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(s.b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(ev), ACL_SUCCESS);
    done(s);
}

/* A stream ordered after the work of many others: its clock holds an entry per stream
   (seed 143: the clock's capacity not recorded when it grew, so past 4 entries they were
   written beyond its block). Each of K streams, held, writes its own 64 bytes and records an
   event; B waits on all K: B's write over all of them is ordered; one more stream's write
   that B did not wait for is still a race. */
MG_TEST(a_stream_ordered_after_many_streams_keeps_every_ordering) {
    enum { K = 24 };
    ut_init();
    aclrtStream w[K + 1], b = NULL;
    aclrtEvent ev[K];
    MG_CHECK_EQ_INT(aclrtCreateStream(&b), ACL_SUCCESS);
    atomic_store(&mg_gate_is_open, 0);
    for (int i = 0; i <= K; i++) {
        MG_CHECK_EQ_INT(aclrtCreateStream(&w[i]), ACL_SUCCESS);
        /* held: what follows on w[i] is unfinished until the gate opens */
        MG_CHECK_EQ_INT(mgrt_stream_submit("test", w[i], mg_gate_run, mg_gate_release, NULL, 1), 0);
        mgrt_access mine = bytes_at(BASE + 64 * (uintptr_t)i, 64, 1);
        MG_CHECK_EQ_INT(submit(w[i], &mine, 1), 0);
        if (i < K) {
            MG_CHECK_EQ_INT(aclrtCreateEvent(&ev[i]), ACL_SUCCESS);
            MG_CHECK_EQ_INT(aclrtRecordEvent(ev[i], w[i]), ACL_SUCCESS);
            MG_CHECK_EQ_INT(aclrtStreamWaitEvent(b, ev[i]), ACL_SUCCESS);
        }
    }
    mgrt_access ordered = bytes_at(BASE, 64 * K, 1);
    MG_CHECK_EQ_INT(submit(b, &ordered, 1), 0);
    mgrt_access unordered = bytes_at(BASE + 64 * K, 64, 1);
    MG_CHECK_EQ_INT(submit(b, &unordered, 1), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "cross-stream race");
    mg_gate_open();
    for (int i = 0; i <= K; i++) {
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(w[i]), ACL_SUCCESS);
        if (i < K) MG_CHECK_EQ_INT(aclrtDestroyEvent(ev[i]), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtDestroyStream(w[i]), ACL_SUCCESS);
    }
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyStream(b), ACL_SUCCESS);
}

/* An event recorded again orders only what its new record's stream knows (seed 53: the copy
   of the recording stream's clock kept the event's earlier entries, so a wait on the second
   record inherited the first's orderings). B, held, writes X; A waits for that and records
   E; C, knowing nothing of B, records E again; D waits on E: D is not ordered after B's
   write, and its own write of X is a race. */
MG_TEST(an_event_recorded_again_forgets_its_earlier_orderings) {
    ut_init();
    aclrtStream a = NULL, b = NULL, c = NULL, d = NULL;
    aclrtEvent after_b = NULL, e = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateStream(&b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateStream(&c), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateStream(&d), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateEvent(&after_b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateEvent(&e), ACL_SUCCESS);
    mgrt_access x = bytes_at(BASE, 64, 1);
    mg_gate_close(b);
    MG_CHECK_EQ_INT(submit(b, &x, 1), 0);
    MG_CHECK_EQ_INT(aclrtRecordEvent(after_b, b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(a, after_b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtRecordEvent(e, a), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtRecordEvent(e, c), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtStreamWaitEvent(d, e), ACL_SUCCESS);
    MG_CHECK_EQ_INT(submit(d, &x, 1), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "cross-stream race");
    mg_gate_open();
    aclrtStream all[] = {a, b, c, d};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        MG_CHECK_EQ_INT(aclrtSynchronizeStream(all[i]), ACL_SUCCESS);
        MG_CHECK_EQ_INT(aclrtDestroyStream(all[i]), ACL_SUCCESS);
    }
    MG_CHECK_EQ_INT(aclrtDestroyEvent(after_b), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtDestroyEvent(e), ACL_SUCCESS);
}

/* ---- malformed ------------------------------------------------------------------------------------ */

/* mgrt_stream_submit_access is exported: an access with a rank above MGRT_ACCESS_MAX_RANK
   made the element walk index past its arrays (a stack write), one with elem_bytes 0
   touched nothing (a missed race). Such an access is checked as its whole range. */
MG_TEST(a_malformed_strided_access_is_checked_as_its_range) {
    streams s = two_streams();
    int64_t dims[1] = {64}, steps[1] = {8};
    mgrt_access even = strided(BASE, 4, 1, dims, steps, 1);
    mgrt_access bad = strided(BASE + 4, 4, 1, dims, steps, 1);
    bad.rank = MGRT_ACCESS_MAX_RANK + 1;
    MG_CHECK_EQ_INT(race_status(s, &even, &bad), ACLNN_ERR_PARAM_INVALID);
    bad.rank = 1;
    bad.elem_bytes = 0;
    MG_CHECK_EQ_INT(race_status(s, &even, &bad), ACLNN_ERR_PARAM_INVALID);
    bad.elem_bytes = 4;
    bad.dims[0] = 1000; /* elements past the range */
    MG_CHECK_EQ_INT(race_status(s, &even, &bad), ACLNN_ERR_PARAM_INVALID);
    bad.dims[0] = 64;
    MG_CHECK_EQ_INT(race_status(s, &even, &bad), 0); /* well formed again: the odd elements */
    /* Exactly one rank above the maximum (9), the layout otherwise sound: the odd elements
       again, dims 1..7 of size 1 and the array's next access all zeros. Still its whole
       range, so it meets the even elements and is refused. (A maximum of 9 in the race check
       would take a ninth dim and stride from past mgrt_access's 8-entry arrays -- here
       strides[0] and the next access's zero pointer, an 8-fold repeat of each element --
       judge the odd elements exactly and accept it.) */
    mgrt_access nine[2];
    memset(nine, 0, sizeof nine);
    nine[0] = strided(BASE + 4, 4, 1, dims, steps, 1);
    for (int d = 1; d < MGRT_ACCESS_MAX_RANK; d++) nine[0].dims[d] = 1;
    nine[0].rank = MGRT_ACCESS_MAX_RANK; /* at the maximum: judged exactly, not a race */
    MG_CHECK_EQ_INT(race_status(s, &even, &nine[0]), 0);
    nine[0].rank = 9;
    MG_CHECK_EQ_INT(MGRT_ACCESS_MAX_RANK, 8); /* the documented maximum (mgrt.h, CHANGELOG) */
    MG_CHECK_EQ_INT(race_status(s, &even, &nine[0]), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "cross-stream race");
    done(s);
}

int main(int argc, char **argv) { return ut_main(argc, argv); }

/*
 * tests/ascendc/test_twin_faults.c: the twin core when memory or a thread cannot be had, and
 * what it gives back. Run with MISHGRAD_NUM_THREADS=1 (CTest sets it): the launch then runs on
 * the calling thread alone, so its allocations come in a fixed order and MISHGRAD_FAULT_ALLOC=N
 * (read at aclInit) fails exactly the N-th:
 *
 *   1 the launch itself                 -> ACL_ERROR_BAD_ALLOC, "<api>: out of memory"
 *   2 the tiling's copy (with a tiling) -> the same
 *   then per block the UB and its record -> "launch: no memory for a 196608-byte UB"
 *   then the kernel's own: an overlapping source's snapshot, a level-0 reduction's results,
 *   SyncAll's helper table and start record -> each its report.
 *
 * A helper thread that cannot be started (pthread_create failing, planted by this file's own
 * pthread_create) fails the launch with SyncAll's report instead of leaving a block waiting
 * forever. And nothing is kept: a few hundred launches, failed or not, leave the heap as they
 * found it (blocks' UB, their written-bytes records, the launch, its helpers).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "mg_heap.h"
#include "mg_test.h"
#include "twin_test_util.h"

/* ---- a pthread_create that can be told to fail (not under a sanitizer, whose own
   pthread_create this one would displace) ------------------------------------------------ */
static atomic_int g_fail_threads;
#if !MG_UNDER_SANITIZER
typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
__attribute__((visibility("default"))) int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                                                      void *(*start)(void *), void *arg) {
    if (atomic_load(&g_fail_threads) > 0) {
        atomic_fetch_sub(&g_fail_threads, 1);
        return EAGAIN;
    }
    static create_fn real;
    if (real == NULL) {
        void *sym = dlsym(RTLD_NEXT, "pthread_create");
        memcpy(&real, &sym, sizeof real);
    }
    return real(thread, attr, start, arg);
}
#endif

typedef void (*scenario_fn)(uint8_t *const *args);
static scenario_fn g_scenario;
static void dispatch(uint8_t *const *args) { g_scenario(args); }
static const asc_twin_kernel k_fault = {"twin_fault", 0, 2, dispatch};
static char g_msg[512];
static int g_rc;

/* aclInit with MISHGRAD_FAULT_ALLOC=n (0: none) */
static void init_with_fault(int n) {
    static int initialised;
    if (initialised) MG_CHECK_EQ_INT(aclFinalize(), 0);
    if (n > 0) {
        char text[16];
        snprintf(text, sizeof text, "%d", n);
        setenv("MISHGRAD_FAULT_ALLOC", text, 1);
    } else {
        unsetenv("MISHGRAD_FAULT_ALLOC");
    }
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    initialised = 1;
}

static int run(scenario_fn s, uint32_t blocks, int with_tiling) {
    g_scenario = s;
    g_rc = 99;
    static uint8_t arg0[64];
    static const int64_t tiling = 7;
    uint8_t *args[2] = {arg0, arg0};
    asc_twin_launch_args a = {&k_fault, blocks, args, 2, with_tiling ? &tiling : NULL, with_tiling ? sizeof tiling : 0};
    int status = asc_twin_run_sync(&a);
    const char *m = status != 0 ? aclGetRecentErrMsg() : NULL;
    snprintf(g_msg, sizeof g_msg, "%s", m ? m : "");
    return status;
}

static void nothing(uint8_t *const *a) { (void)a; }
/* Tanh in place: a warning, but elements of one size: no snapshot */
static void tanh_in_place(uint8_t *const *a) {
    (void)a;
    asc_twin_ub_ref t = tt_ub(0, 256, ASC_TWIN_F32);
    asc_twin_duplicate(t, 0.5, 16);
    g_rc = asc_twin_unary("Tanh", ASC_TWIN_TANH, t, t, 16);
}
/* a cast into a wider destination at its source's start: a snapshot too */
static void cast_in_place(uint8_t *const *a) {
    (void)a;
    asc_twin_duplicate(tt_ub(0, 256, ASC_TWIN_F16), 0.5, 16);
    g_rc = asc_twin_cast(tt_ub(0, 256, ASC_TWIN_F32), tt_ub(0, 256, ASC_TWIN_F16), ASC_TWIN_CAST_NONE, 16);
}
/* Exp over a partially overlapping source */
static void exp_overlap(uint8_t *const *a) {
    (void)a;
    asc_twin_duplicate(tt_ub(0, 256, ASC_TWIN_F32), 0.5, 64);
    g_rc = asc_twin_unary("Exp", ASC_TWIN_EXP, tt_ub(32, 224, ASC_TWIN_F32), tt_ub(0, 256, ASC_TWIN_F32), 16);
}
/* a level-0 reduction keeps its results before it writes them */
static void whole_reduce(uint8_t *const *a) {
    (void)a;
    asc_twin_duplicate(tt_ub(0, 256, ASC_TWIN_F32), 0.5, 64);
    asc_twin_repeat r = {1, 8, 0, 0, 1, 1, 1, 8};
    g_rc = asc_twin_whole_reduce("WholeReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(256, 256, ASC_TWIN_F32),
                                 tt_ub(0, 256, ASC_TWIN_F32), &r, ASC_TWIN_ORDER_ONLY_VALUE);
}
/* level-0 reductions refused after their results were gathered: the destination too small,
   then the source misaligned (each gives its results back) */
static void whole_reduce_refused_dst(uint8_t *const *a) {
    (void)a;
    asc_twin_duplicate(tt_ub(0, 256, ASC_TWIN_F32), 0.5, 64);
    asc_twin_repeat r = {1, 8, 0, 0, 4, 1, 1, 1};
    g_rc = asc_twin_whole_reduce("WholeReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(256, 8, ASC_TWIN_F32),
                                 tt_ub(0, 256, ASC_TWIN_F32), &r, ASC_TWIN_ORDER_ONLY_VALUE);
}
static void whole_reduce_refused_src(uint8_t *const *a) {
    (void)a;
    asc_twin_duplicate(tt_ub(0, 256, ASC_TWIN_F32), 0.5, 64);
    asc_twin_repeat r = {1, 8, 0, 0, 4, 1, 1, 1};
    g_rc = asc_twin_whole_reduce("WholeReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(256, 64, ASC_TWIN_F32),
                                 tt_ub(4, 252, ASC_TWIN_F32), &r, ASC_TWIN_ORDER_ONLY_VALUE);
}
/* two blocks meeting at SyncAll: on one thread, block 0 starts a helper for block 1 */
static void sync_pair(uint8_t *const *a) {
    (void)a;
    asc_twin_sync_all("SyncAll", 0);
}

/* instructions with two or three overlapping sources: a snapshot for each, in operand order */
static void mul_add_overlaps(uint8_t *const *a) {
    (void)a;
    asc_twin_duplicate(tt_ub(0, 256, ASC_TWIN_F32), 0.5, 64);
    g_rc = asc_twin_mul_add_dst(tt_ub(32, 224, ASC_TWIN_F32), tt_ub(0, 256, ASC_TWIN_F32), tt_ub(64, 192, ASC_TWIN_F32), 16);
}
static void add_overlaps(uint8_t *const *a) {
    (void)a;
    asc_twin_duplicate(tt_ub(0, 256, ASC_TWIN_F32), 0.5, 64);
    g_rc = asc_twin_binary("Add", ASC_TWIN_ADD, tt_ub(32, 224, ASC_TWIN_F32), tt_ub(0, 256, ASC_TWIN_F32),
                           tt_ub(64, 192, ASC_TWIN_F32), 16);
}
static void compare_overlaps(uint8_t *const *a) {
    (void)a;
    asc_twin_duplicate(tt_ub(0, 256, ASC_TWIN_F32), 0.5, 64);
    g_rc = asc_twin_compare(tt_ub(32, 32, ASC_TWIN_U8), tt_ub(0, 256, ASC_TWIN_F32), tt_ub(0, 256, ASC_TWIN_F32),
                            ASC_TWIN_CMP_EQ, 16);
}
static void select_overlaps(uint8_t *const *a) {
    (void)a;
    asc_twin_duplicate(tt_ub(0, 256, ASC_TWIN_F32), 0.5, 64);
    g_rc = asc_twin_select(tt_ub(32, 224, ASC_TWIN_F32), tt_ub(64, 32, ASC_TWIN_U8), tt_ub(0, 256, ASC_TWIN_F32),
                           tt_ub(64, 192, ASC_TWIN_F32), 0.0, ASC_TWIN_SEL_TENSOR_TENSOR_MODE, 16);
}

/* the launch's n-th allocation fails: `want` its message ("" none) */
static void expect_fault(int n, scenario_fn s, uint32_t blocks, int tiling, int status, const char *want) {
    init_with_fault(n);
    int got = run(s, blocks, tiling);
    if (got != status || strcmp(g_msg, want) != 0)
        MG_FAIL("allocation %d failing: %d \"%s\", expected %d \"%s\"", n, got, g_msg, status, want);
}

/* (first: the tables are still empty, so their first use grows them) */
MG_TEST(tables_that_cannot_grow) {
    /* GmAlloc's table: the block is given back, NULL and the runtime's error */
    init_with_fault(1);
    MG_CHECK(asc_twin_gm_alloc(64) == NULL);
    const char *m = aclGetRecentErrMsg();
    MG_CHECK(m != NULL && strcmp(m, "GmAlloc: no memory for 64 bytes") == 0);
    init_with_fault(0);
    uint8_t *p = asc_twin_gm_alloc(64);
    MG_CHECK(p != NULL);
    uint8_t *base = NULL;
    uint64_t bytes = 0;
    MG_CHECK_EQ_INT(asc_twin_gm_extent(p + 63, &base, &bytes), 1);
    MG_CHECK(base == p && bytes == 64);
    asc_twin_gm_free(p);
    /* the registry's: refused, nothing registered */
    static const asc_twin_kernel k = {"twin_fault_reg", 1, 0, nothing};
    init_with_fault(1);
    MG_CHECK_EQ_INT(asc_twin_register(&k), -1);
    MG_CHECK(asc_twin_find("twin_fault_reg", 1) == NULL);
    init_with_fault(0);
    MG_CHECK_EQ_INT(asc_twin_register(&k), 0);
    MG_CHECK(asc_twin_find("twin_fault_reg", 1) == &k);
    /* growing keeps every entry, and gives the old table back: 1000 of each, the heap then
       holds the last tables (1024 entries) and the live blocks, no earlier table */
    long long before = mg_heap_in_use();
    static asc_twin_kernel many[1000];
    static uint8_t *blocks[1000];
    for (int i = 0; i < 1000; i++) {
        many[i] = (asc_twin_kernel){"twin_fault_many", (uint64_t)i, 0, nothing};
        MG_CHECK_EQ_INT(asc_twin_register(&many[i]), 0);
        blocks[i] = asc_twin_gm_alloc(32);
    }
    long long grown = mg_heap_in_use();
    for (int i = 0; i < 1000; i++) {
        MG_CHECK(asc_twin_find("twin_fault_many", (uint64_t)i) == &many[i]);
        MG_CHECK_EQ_INT(asc_twin_gm_extent(blocks[i], &base, &bytes), 1);
        asc_twin_gm_free(blocks[i]);
    }
    long long after = mg_heap_in_use();
    /* the tables: 1024 * 16 (GmAlloc) + 1024 * 8 (registry) = 24 KiB; their earlier sizes
       (16 .. 512 and 32 .. 512 entries) would add about 24 KiB more */
    if (before >= 0 && after - before > 32 * 1024) MG_FAIL("the heap kept %lld bytes", after - before);
    if (before >= 0 && grown - after < 1000 * 32) MG_FAIL("the blocks were not freed (%lld)", grown - after);
}

MG_TEST(each_allocation_that_fails_is_reported) {
    const char *ub = "twin_fault block 0: launch: no memory for a 196608-byte UB";
    expect_fault(1, nothing, 1, 0, ACL_ERROR_BAD_ALLOC, "asc_twin_run_sync: out of memory");
    expect_fault(1, nothing, 1, 1, ACL_ERROR_BAD_ALLOC, "asc_twin_run_sync: out of memory");
    expect_fault(2, nothing, 1, 1, ACL_ERROR_BAD_ALLOC, "asc_twin_run_sync: out of memory");
    expect_fault(2, nothing, 1, 0, ACL_ERROR_RT_AICORE_EXCEPTION, ub);
    expect_fault(3, nothing, 1, 0, ACL_ERROR_RT_AICORE_EXCEPTION, ub);
    expect_fault(3, nothing, 1, 1, ACL_ERROR_RT_AICORE_EXCEPTION, ub);
    expect_fault(4, nothing, 1, 0, 0, "");
    /* the second block's UB (blocks run one after the other on this one thread) */
    expect_fault(4, nothing, 2, 0, ACL_ERROR_RT_AICORE_EXCEPTION, "twin_fault block 1: launch: no memory for a "
                                                                  "196608-byte UB");
    /* Tanh in place (a warning) reads each element before writing it: no snapshot to allocate */
    expect_fault(4, tanh_in_place, 1, 0, 0, "");
    MG_CHECK_EQ_INT(g_rc, 0);
    /* a partial overlap: the source's bytes, then its record, are copied first */
    expect_fault(4, exp_overlap, 1, 0, ACL_ERROR_RT_AICORE_EXCEPTION,
                 "twin_fault block 0: Exp: no memory to snapshot 64 overlapping bytes");
    MG_CHECK_EQ_INT(g_rc, -1);
    expect_fault(5, exp_overlap, 1, 0, ACL_ERROR_RT_AICORE_EXCEPTION,
                 "twin_fault block 0: Exp: no memory to snapshot 64 overlapping bytes");
    MG_CHECK_EQ_INT(g_rc, -1);
    expect_fault(6, exp_overlap, 1, 0, 0, "");
    MG_CHECK_EQ_INT(g_rc, 0);
    expect_fault(4, cast_in_place, 1, 0, ACL_ERROR_RT_AICORE_EXCEPTION,
                 "twin_fault block 0: Cast: no memory to snapshot 32 overlapping bytes");
    MG_CHECK_EQ_INT(g_rc, -1);
    expect_fault(5, cast_in_place, 1, 0, ACL_ERROR_RT_AICORE_EXCEPTION,
                 "twin_fault block 0: Cast: no memory to snapshot 32 overlapping bytes");
    MG_CHECK_EQ_INT(g_rc, -1);
    expect_fault(4, whole_reduce, 1, 0, ACL_ERROR_RT_AICORE_EXCEPTION,
                 "twin_fault block 0: WholeReduceSum: no memory for 1 results");
    MG_CHECK_EQ_INT(g_rc, -1);
    /* a later source's snapshot failing gives back the earlier ones' (run 100 times: the heap) */
    static const struct {
        scenario_fn s;
        int n;
        const char *want;
    } later[] = {
        {mul_add_overlaps, 6, "twin_fault block 0: MulAddDst: no memory to snapshot 64 overlapping bytes"},
        {mul_add_overlaps, 7, "twin_fault block 0: MulAddDst: no memory to snapshot 64 overlapping bytes"},
        {add_overlaps, 6, "twin_fault block 0: Add: no memory to snapshot 64 overlapping bytes"},
        {add_overlaps, 7, "twin_fault block 0: Add: no memory to snapshot 64 overlapping bytes"},
        {compare_overlaps, 6, "twin_fault block 0: Compare: no memory to snapshot 64 overlapping bytes"},
        {select_overlaps, 6, "twin_fault block 0: Select: no memory to snapshot 64 overlapping bytes"},
        {select_overlaps, 8, "twin_fault block 0: Select: no memory to snapshot 64 overlapping bytes"},
        {select_overlaps, 9, "twin_fault block 0: Select: no memory to snapshot 64 overlapping bytes"},
    };
    for (size_t k = 0; k < sizeof later / sizeof later[0]; k++) {
        expect_fault(later[k].n, later[k].s, 1, 0, ACL_ERROR_RT_AICORE_EXCEPTION, later[k].want);
        MG_CHECK_EQ_INT(g_rc, -1);
        long long before = mg_heap_in_use();
        for (int i = 0; i < 100; i++) {
            init_with_fault(later[k].n);
            run(later[k].s, 1, 0);
        }
        long long after = mg_heap_in_use();
        if (before >= 0 && after - before > 1024)
            MG_FAIL("%s: the heap grew by %lld bytes over 100 failures", later[k].want, after - before);
    }
    expect_fault(10, select_overlaps, 1, 0, 0, "");
    MG_CHECK_EQ_INT(g_rc, 0);
    /* SyncAll's helper: its table, then its start record */
    const char *helper = "twin_fault block 0: SyncAll: no thread could be started for a block it waits on";
    expect_fault(4, sync_pair, 2, 0, ACL_ERROR_RT_AICORE_EXCEPTION, helper);
    expect_fault(5, sync_pair, 2, 0, ACL_ERROR_RT_AICORE_EXCEPTION, helper);
    expect_fault(6, sync_pair, 2, 0, ACL_ERROR_RT_AICORE_EXCEPTION, "twin_fault block 1: launch: no memory for a "
                                                                    "196608-byte UB");
    expect_fault(8, sync_pair, 2, 0, 0, "");
    init_with_fault(0);
}

MG_TEST(a_helper_thread_that_cannot_start_fails_the_launch) {
    if (MG_UNDER_SANITIZER) MG_SKIP("the sanitizer's own pthread_create is not replaced");
    init_with_fault(0);
    atomic_store(&g_fail_threads, 1);
    MG_CHECK_EQ_INT(run(sync_pair, 2, 0), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK(strcmp(g_msg, "twin_fault block 0: SyncAll: no thread could be started for a block it waits on") == 0);
    MG_CHECK_EQ_INT(atomic_load(&g_fail_threads), 0);
    /* and the next launch starts its helper */
    MG_CHECK_EQ_INT(run(sync_pair, 2, 0), 0);
    /* what the failed start had allocated is given back: 200 more failures keep the heap */
    long long before = mg_heap_in_use();
    for (int i = 0; i < 200; i++) {
        atomic_store(&g_fail_threads, 1);
        MG_CHECK_EQ_INT(run(sync_pair, 2, 0), ACL_ERROR_RT_AICORE_EXCEPTION);
    }
    long long after = mg_heap_in_use();
    if (before >= 0 && after - before > 2048) MG_FAIL("the heap grew by %lld bytes over 200 failed starts", after - before);
}

MG_TEST(launches_leave_the_heap_as_they_found_it) {
    long long before = mg_heap_in_use();
    if (before < 0) MG_SKIP("the heap's use cannot be read here (a sanitizer judges leaks there)");
    init_with_fault(0);
    for (int i = 0; i < 5; i++) { /* whatever the first launches set up once */
        run(tanh_in_place, 4, 1);
        run(sync_pair, 2, 0);
        run(whole_reduce, 1, 0);
    }
    before = mg_heap_in_use();
    for (int i = 0; i < 1000; i++) {
        if (i % 5 == 0) {
            MG_CHECK_EQ_INT(run(tanh_in_place, 4, 1), 0);
            MG_CHECK_EQ_INT(run(sync_pair, 2, 0), 0);
        }
        MG_CHECK_EQ_INT(run(whole_reduce, 1, 0), 0);
        MG_CHECK_EQ_INT(run(exp_overlap, 1, 0), 0);
        MG_CHECK_EQ_INT(run(cast_in_place, 1, 0), 0);
    }
    /* refused reductions give their gathered results back */
    for (int i = 0; i < 1000; i++) {
        MG_CHECK_EQ_INT(run(whole_reduce_refused_dst, 1, 0), ACL_ERROR_RT_AICORE_EXCEPTION);
        MG_CHECK_EQ_INT(run(whole_reduce_refused_src, 1, 0), ACL_ERROR_RT_AICORE_EXCEPTION);
    }
    /* a failed launch too */
    for (int i = 0; i < 50; i++) {
        asc_twin_launch_args bad = {&k_fault, 0, NULL, 0, NULL, 0};
        MG_CHECK_EQ_INT(asc_twin_run_sync(&bad), ACL_ERROR_INVALID_PARAM);
    }
    long long after = mg_heap_in_use();
    printf("  heap: %lld bytes more after 5400 launches\n", after - before);
    /* the smallest leak (a snapshot's 4-word record: a 32-byte chunk) times 1000 is 32 KiB */
    if (after - before > 8 * 1024) MG_FAIL("the heap grew by %lld bytes over 5400 launches", after - before);
}

MG_TEST_MAIN()

/*
 * tests/ascendc/test_twin_core_exact.c: the twin core's launch, block state, SyncAll, queue,
 * GmAlloc and registry rules at their exact boundaries, each against a written expectation:
 *
 *   - a launch's arguments: blockDim in [1, 65535] (both ends pass, 0 and 65536 refused), at
 *     most 64 GM_ADDR arguments (64 pass, 65 refused), a tiling needs data and an argument to
 *     land in; each refusal with ACL_ERROR_INVALID_PARAM and its whole message;
 *   - what a block sees (index, count, name, UB size, the mask and atomic state it starts
 *     with) and what a call outside any launch sees;
 *   - the first report of a launch is its message, later ones change nothing; a warning is a
 *     log line once per launch and API, an error only under MISHGRAD_TWIN_STRICT=1 exactly;
 *   - SyncAll's rules: usedCores within [0, blockDim], a block outside the group, blocks that
 *     wait at barriers of different sizes, a participant that already returned, and a barrier
 *     that really orders the blocks' writes over several rounds;
 *   - SetAtomic*'s operation and type rules;
 *   - TQue: buf_num clamped to [0, 64], foreign buffers in EnQue and FreeTensor, the enqueue
 *     ring wrapping past 64; InitBuffer's count rule at 63 + 1 and 63 + 2;
 *   - GmAlloc/GmFree: 0 bytes, an impossible size, a pointer that is not a block, blocks past
 *     the table's first growth, each block's bound the size asked for;
 *   - the kernel registry: every bad descriptor refused, growth past its first capacity.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "mg_log_file.h"
#include "mg_test.h"
#include "queue.h"
#include "twin_test_util.h"

#define UB 196608u

typedef void (*scenario_fn)(uint8_t *const *args);
static scenario_fn g_scenario;
static void dispatch(uint8_t *const *args) { g_scenario(args); }
static const asc_twin_kernel k_core = {"twin_core", 0, 1, dispatch};
static char g_msg[512];
static int64_t g_v[64];
static uint8_t g_arg0[64];

static void setup(void) {
    static int ready;
    if (ready) return;
    ready = 1;
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "2", 1); /* the overlap rule's warnings are logged */
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
}

static int run_blocks(scenario_fn s, uint32_t blocks) {
    setup();
    g_scenario = s;
    memset(g_v, 0, sizeof g_v);
    uint8_t *args[1] = {g_arg0};
    return tt_run(&k_core, blocks, args, 1, g_msg, sizeof g_msg);
}
static void expect_refused(scenario_fn s, uint32_t blocks, const char *want) {
    MG_CHECK_EQ_INT(run_blocks(s, blocks), ACL_ERROR_RT_AICORE_EXCEPTION);
    if (strcmp(g_msg, want) != 0) MG_FAIL("message \"%s\", expected \"%s\"", g_msg, want);
}
static void expect_ok(scenario_fn s, uint32_t blocks) {
    int status = run_blocks(s, blocks);
    if (status != 0) MG_FAIL("launch failed: %d \"%s\"", status, g_msg);
}
static void expect_msg(const char *want) {
    const char *m = aclGetRecentErrMsg();
    if (m == NULL || strcmp(m, want) != 0) MG_FAIL("message \"%s\", expected \"%s\"", m ? m : "(null)", want);
}
static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---- the launch's arguments ------------------------------------------------------------- */

static atomic_int g_blocks_run;
static void count_block(uint8_t *const *args) {
    (void)args;
    atomic_fetch_add(&g_blocks_run, 1);
}
static const asc_twin_kernel k_count = {"twin_count", 0, 0, count_block};
static const asc_twin_kernel k_no_entry = {"twin_no_entry", 0, 0, NULL};

/* 64 arguments: each block checks it got them in order (the last the tiling copy) */
static uint8_t g_many[64];
static void many_args(uint8_t *const *args) {
    for (int i = 0; i < 63; i++)
        if (args[i] != &g_many[i]) asc_twin_report("test", "argument %d moved", i);
    int64_t t;
    memcpy(&t, args[63], sizeof t);
    if (args[63] == &g_many[63] || t != 4242) asc_twin_report("test", "the tiling is not a copy");
}
static const asc_twin_kernel k_64 = {"twin_64", 0, 64, many_args};

/* A one-byte tiling is copied like any other: the kernel's one argument is the copy */
static uint8_t g_tiling_byte = 0x5A;
static void one_byte_tiling(uint8_t *const *args) {
    if (args[0] == &g_tiling_byte) asc_twin_report("test", "the 1-byte tiling is not a copy");
    else if (args[0][0] != 0x5A) asc_twin_report("test", "the 1-byte tiling's copy holds %d", args[0][0]);
}
static const asc_twin_kernel k_one_byte = {"twin_one_byte", 0, 1, one_byte_tiling};
static const asc_twin_kernel k_65 = {"twin_65", 0, 65, many_args};
static const asc_twin_kernel k_neg = {"twin_neg", 0, -1, count_block};

MG_TEST(launch_arguments_at_their_bounds) {
    setup();
    asc_twin_launch_args a = {&k_count, 65535, NULL, 0, NULL, 0};
    atomic_store(&g_blocks_run, 0);
    MG_CHECK_EQ_INT(asc_twin_run_sync(&a), 0);
    MG_CHECK_EQ_INT(atomic_load(&g_blocks_run), 65535);
    a.block_dim = 65536;
    MG_CHECK_EQ_INT(asc_twin_run_sync(&a), ACL_ERROR_INVALID_PARAM);
    expect_msg("asc_twin_run_sync: kernel twin_count: blockDim 65536 outside [1, 65535]");
    a.block_dim = 0;
    MG_CHECK_EQ_INT(asc_twin_run_sync(&a), ACL_ERROR_INVALID_PARAM);
    expect_msg("asc_twin_run_sync: kernel twin_count: blockDim 0 outside [1, 65535]");
    a.block_dim = 1;
    atomic_store(&g_blocks_run, 0);
    MG_CHECK_EQ_INT(asc_twin_run_sync(&a), 0);
    MG_CHECK_EQ_INT(atomic_load(&g_blocks_run), 1);

    MG_CHECK_EQ_INT(asc_twin_run_sync(NULL), ACL_ERROR_INVALID_PARAM);
    expect_msg("asc_twin_run_sync: no kernel given");
    asc_twin_launch_args none = {NULL, 1, NULL, 0, NULL, 0};
    MG_CHECK_EQ_INT(asc_twin_run_sync(&none), ACL_ERROR_INVALID_PARAM);
    expect_msg("asc_twin_run_sync: no kernel given");
    asc_twin_launch_args no_entry = {&k_no_entry, 1, NULL, 0, NULL, 0};
    MG_CHECK_EQ_INT(asc_twin_run_sync(&no_entry), ACL_ERROR_INVALID_PARAM);
    expect_msg("asc_twin_run_sync: no kernel given");

    /* 64 GM_ADDR arguments, the last one replaced by the tiling's copy */
    uint8_t *args[65];
    for (int i = 0; i < 65; i++) args[i] = &g_many[i < 64 ? i : 0];
    int64_t tiling = 4242;
    asc_twin_launch_args a64 = {&k_64, 2, args, 64, &tiling, sizeof tiling};
    MG_CHECK_EQ_INT(asc_twin_run_sync(&a64), 0);
    uint8_t *one_arg[1] = {&g_tiling_byte};
    asc_twin_launch_args a1 = {&k_one_byte, 1, one_arg, 1, &g_tiling_byte, 1};
    MG_CHECK_EQ_INT(asc_twin_run_sync(&a1), 0);
    asc_twin_launch_args a65 = {&k_65, 1, args, 65, NULL, 0};
    MG_CHECK_EQ_INT(asc_twin_run_sync(&a65), ACL_ERROR_INVALID_PARAM);
    expect_msg("asc_twin_run_sync: kernel twin_65 takes 65 GM_ADDR arguments, 65 given");
    asc_twin_launch_args aneg = {&k_neg, 1, args, -1, NULL, 0};
    MG_CHECK_EQ_INT(asc_twin_run_sync(&aneg), ACL_ERROR_INVALID_PARAM);
    expect_msg("asc_twin_run_sync: kernel twin_neg takes -1 GM_ADDR arguments, -1 given");
    asc_twin_launch_args fewer = {&k_64, 1, args, 63, NULL, 0};
    MG_CHECK_EQ_INT(asc_twin_run_sync(&fewer), ACL_ERROR_INVALID_PARAM);
    expect_msg("asc_twin_run_sync: kernel twin_64 takes 64 GM_ADDR arguments, 63 given");
    asc_twin_launch_args no_args = {&k_64, 1, NULL, 64, NULL, 0};
    MG_CHECK_EQ_INT(asc_twin_run_sync(&no_args), ACL_ERROR_INVALID_PARAM);
    expect_msg("asc_twin_run_sync: kernel twin_64 takes 64 GM_ADDR arguments, 64 given");
    asc_twin_launch_args one_no_array = {&k_one_byte, 1, NULL, 1, NULL, 0}; /* one argument, no array */
    MG_CHECK_EQ_INT(asc_twin_run_sync(&one_no_array), ACL_ERROR_INVALID_PARAM);
    expect_msg("asc_twin_run_sync: kernel twin_one_byte takes 1 GM_ADDR arguments, 1 given");

    /* a tiling needs its bytes and an argument to land in */
    asc_twin_launch_args no_data = {&k_64, 1, args, 64, NULL, 8};
    MG_CHECK_EQ_INT(asc_twin_run_sync(&no_data), ACL_ERROR_INVALID_PARAM);
    expect_msg("asc_twin_run_sync: kernel twin_64: tiling of 8 bytes without data or a tiling argument");
    asc_twin_launch_args no_slot = {&k_count, 1, NULL, 0, &tiling, 8};
    MG_CHECK_EQ_INT(asc_twin_run_sync(&no_slot), ACL_ERROR_INVALID_PARAM);
    expect_msg("asc_twin_run_sync: kernel twin_count: tiling of 8 bytes without data or a tiling argument");
    /* the stream form checks the same, under its own name */
    MG_CHECK_EQ_INT(asc_twin_launch(NULL, &no_slot), ACL_ERROR_INVALID_PARAM);
    expect_msg("asc_twin_launch: kernel twin_count: tiling of 8 bytes without data or a tiling argument");
}

/* the tiling copy is GM the kernel may read to its last byte, and no further */
static void read_tiling(uint8_t *const *args) {
    double v;
    asc_twin_gm_ref t = tt_gm(args[1], UINT64_MAX, ASC_TWIN_I32);
    g_v[0] = asc_twin_gm_get_value(t, 2, &v);
    g_v[1] = (int64_t)v;
    g_v[2] = asc_twin_gm_get_value(t, 3, &v);
}
static const asc_twin_kernel k_tiling = {"twin_tiling", 0, 2, read_tiling};

MG_TEST(the_tiling_copy_is_bounded_gm) {
    setup();
    int32_t tiling[3] = {7, 8, 9};
    uint8_t *args[2] = {g_arg0, NULL};
    asc_twin_launch_args a = {&k_tiling, 1, args, 2, tiling, sizeof tiling};
    memset(g_v, 0, sizeof g_v);
    MG_CHECK_EQ_INT(asc_twin_run_sync(&a), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_EQ_INT(g_v[0], 0);
    MG_CHECK_EQ_INT(g_v[1], 9);
    MG_CHECK_EQ_INT(g_v[2], -1);
    expect_msg("twin_tiling block 0: GetValue: GM bytes [12, 16) of the tensor run 4 bytes past the end of its "
               "launch's tiling copy (12 bytes)");
}

/* ---- what a block sees -------------------------------------------------------------------- */

static void block_state(uint8_t *const *args) {
    (void)args;
    int64_t i = asc_twin_block_idx();
    uint64_t hi, lo;
    asc_twin_vector_mask(&hi, &lo);
    /* 8 values per block */
    g_v[8 * i + 0] = asc_twin_block_num();
    g_v[8 * i + 1] = strcmp(asc_twin_kernel_name(), "twin_core") == 0;
    g_v[8 * i + 2] = (int64_t)asc_twin_ub_bytes();
    g_v[8 * i + 3] = hi == UINT64_MAX && lo == UINT64_MAX && asc_twin_mask_counter() == 0;
    g_v[8 * i + 4] = asc_twin_block_aborted();
    g_v[8 * i + 5] = asc_twin_ub_base() != NULL;
    asc_twin_set_mask_counter(7);
    asc_twin_set_vector_mask(3, 5);
    asc_twin_vector_mask(&hi, &lo);
    g_v[8 * i + 6] = asc_twin_mask_counter() == 1 && hi == 3 && lo == 5;
    asc_twin_reset_mask();
    asc_twin_set_mask_counter(0);
    asc_twin_vector_mask(&hi, &lo);
    g_v[8 * i + 7] = asc_twin_mask_counter() == 0 && hi == UINT64_MAX && lo == UINT64_MAX;
    /* the UB starts zeroed, every byte of it */
    const uint8_t *ub = asc_twin_ub_base();
    for (uint64_t k = 0; k < asc_twin_ub_bytes(); k++)
        if (ub[k] != 0) asc_twin_report("test", "UB byte %llu is %u", (unsigned long long)k, ub[k]);
    memset(asc_twin_ub_base(), 0x5a, asc_twin_ub_bytes()); /* the next block must not see it */
    /* the written-bytes record covers the whole UB: a Duplicate of all of it, then its first
       and last elements read */
    asc_twin_ub_ref all = tt_ub(0, asc_twin_ub_bytes(), ASC_TWIN_F32);
    double first = 0, last = 0;
    if (asc_twin_duplicate(all, 2.5, asc_twin_ub_bytes() / 4) != 0 || asc_twin_get_value(all, 0, &first) != 0 ||
        asc_twin_get_value(all, asc_twin_ub_bytes() / 4 - 1, &last) != 0 || first != 2.5 || last != 2.5)
        asc_twin_report("test", "the whole UB: %g %g", first, last);
}

MG_TEST(what_a_block_sees) {
    expect_ok(block_state, 4);
    for (int i = 0; i < 4; i++) {
        MG_CHECK_EQ_INT(g_v[8 * i + 0], 4);
        MG_CHECK_EQ_INT(g_v[8 * i + 1], 1);
        MG_CHECK_EQ_INT(g_v[8 * i + 2], UB);
        MG_CHECK_EQ_INT(g_v[8 * i + 3], 1);
        MG_CHECK_EQ_INT(g_v[8 * i + 4], 0);
        MG_CHECK_EQ_INT(g_v[8 * i + 5], 1);
        MG_CHECK_EQ_INT(g_v[8 * i + 6], 1);
        MG_CHECK_EQ_INT(g_v[8 * i + 7], 1);
    }
    /* outside a launch: block 0 of 1, no name, no UB, no mask state; a report only logs */
    MG_CHECK_EQ_INT(asc_twin_block_idx(), 0);
    MG_CHECK_EQ_INT(asc_twin_block_num(), 1);
    MG_CHECK(strcmp(asc_twin_kernel_name(), "") == 0);
    MG_CHECK(asc_twin_ub_base() == NULL);
    MG_CHECK_EQ_INT(asc_twin_ub_bytes(), 0);
    MG_CHECK_EQ_INT(asc_twin_block_aborted(), 0);
    MG_CHECK_EQ_INT(asc_twin_mask_counter(), 0);
    asc_twin_set_mask_counter(1);
    asc_twin_set_vector_mask(1, 2);
    uint64_t hi = 9, lo = 9;
    asc_twin_vector_mask(&hi, &lo);
    MG_CHECK_EQ_INT(hi, 0);
    MG_CHECK_EQ_INT(lo, 0);
    MG_CHECK_EQ_INT(asc_twin_mask_counter(), 0);
    long log_at = mg_log_size();
    asc_twin_report("Outside", "called with %d", 42);
    MG_CHECK_EQ_INT(asc_twin_block_aborted(), 0);
    char *log = mg_log_text_since(log_at);
    MG_CHECK_STR_CONTAINS(log, "Outside: called with 42");
    free(log);
    uint64_t used = 0;
    MG_CHECK_EQ_INT(asc_twin_ub_init_buffer(&used, 32), -1); /* no UB outside a launch */
}

/* ---- reports and warnings ------------------------------------------------------------------ */

static void two_reports(uint8_t *const *args) {
    (void)args;
    g_v[0] = asc_twin_block_aborted();
    asc_twin_report("First", "number %d", 1);
    g_v[1] = asc_twin_block_aborted();
    asc_twin_report("Second", "number %d", 2);
}

/* A warning comes from the overlap rule: Tanh and Sigmoid (advanced APIs) in place */
static int in_place(const char *api, asc_twin_unary_op op) {
    asc_twin_ub_ref t = tt_ub(0, 256, ASC_TWIN_F32);
    return asc_twin_unary(api, op, t, t, 8);
}
static void warnings(uint8_t *const *args) {
    (void)args;
    asc_twin_duplicate(tt_ub(0, 256, ASC_TWIN_F32), 0.5, 64);
    g_v[0] = in_place("Tanh", ASC_TWIN_TANH);
    g_v[1] = in_place("Tanh", ASC_TWIN_TANH);
    g_v[2] = in_place("Sigmoid", ASC_TWIN_SIGMOID);
    g_v[3] = asc_twin_block_aborted();
    /* 40 distinct API names: more than the launch remembers (32); each first one still logs */
    static char names[40][16];
    for (int i = 0; i < 40; i++) {
        snprintf(names[i], sizeof names[i], "Api%02d", i);
        in_place(names[i], ASC_TWIN_TANH);
    }
}

static int count_of(const char *text, const char *needle) {
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle)) n++;
    return n;
}

MG_TEST(the_first_report_is_the_launch_error_and_warnings_log_once) {
    expect_refused(two_reports, 1, "twin_core block 0: First: number 1");
    MG_CHECK_EQ_INT(g_v[0], 0);
    MG_CHECK_EQ_INT(g_v[1], 1);

    unsetenv("MISHGRAD_TWIN_STRICT");
    long log_at = mg_log_size();
    expect_ok(warnings, 1);
    MG_CHECK_EQ_INT(g_v[0], 0);
    MG_CHECK_EQ_INT(g_v[1], 0);
    MG_CHECK_EQ_INT(g_v[2], 0);
    MG_CHECK_EQ_INT(g_v[3], 0);
    char *log = mg_log_text_since(log_at);
    MG_CHECK_STR_CONTAINS(log, "twin_core block 0: Tanh: the destination and source tensors are the same (UB offset "
                               "0): the API forbids in-place operands (MISHGRAD_TWIN_STRICT=1 makes this an error)");
    MG_CHECK_STR_CONTAINS(log, "twin_core block 0: Sigmoid: the destination and source tensors are the same");
    MG_CHECK_EQ_INT(count_of(log, "block 0: Tanh:"), 1);
    MG_CHECK_EQ_INT(count_of(log, "block 0: Api00:"), 1);
    MG_CHECK_EQ_INT(count_of(log, "block 0: Api39:"), 1);
    free(log);
    /* a second launch warns again: the record is per launch */
    log_at = mg_log_size();
    expect_ok(warnings, 1);
    log = mg_log_text_since(log_at);
    MG_CHECK_EQ_INT(count_of(log, "block 0: Tanh:"), 1);
    free(log);

    /* MISHGRAD_TWIN_STRICT=1, and only "1", makes the first warning the launch's error */
    setenv("MISHGRAD_TWIN_STRICT", "1", 1);
    expect_refused(warnings, 1, "twin_core block 0: Tanh: the destination and source tensors are the same (UB "
                                "offset 0): the API forbids in-place operands");
    MG_CHECK_EQ_INT(g_v[0], -1);
    setenv("MISHGRAD_TWIN_STRICT", "10", 1);
    expect_ok(warnings, 1);
    setenv("MISHGRAD_TWIN_STRICT", "0", 1);
    expect_ok(warnings, 1);
    unsetenv("MISHGRAD_TWIN_STRICT");
}

/* The basic instructions allow dst == src on every source (Add(x, x, y), Add(y, x, y),
   Mul(x, x, x), Adds(x, x, s), Exp(x, x)): no warning, so no error under
   MISHGRAD_TWIN_STRICT=1, and each reads its sources before it writes. */
static void basic_in_place(uint8_t *const *args) {
    (void)args;
    asc_twin_ub_ref x = tt_ub(0, 256, ASC_TWIN_F32), y = tt_ub(256, 256, ASC_TWIN_F32);
    asc_twin_duplicate(x, 1.5, 64);
    asc_twin_duplicate(y, 2.0, 64);
    g_v[0] = asc_twin_binary("Add", ASC_TWIN_ADD, x, x, y, 64);  /* x = 3.5 */
    g_v[1] = asc_twin_binary("Sub", ASC_TWIN_SUB, y, x, y, 64);  /* y = 1.5 */
    g_v[2] = asc_twin_binary("Mul", ASC_TWIN_MUL, x, x, x, 64);  /* x = 12.25 */
    g_v[3] = asc_twin_scalar("Adds", ASC_TWIN_ADDS, y, y, 0.25, 64); /* y = 1.75 */
    g_v[4] = asc_twin_unary("Exp", ASC_TWIN_EXP, y, y, 64);
    double v[4] = {0};
    asc_twin_get_value(x, 0, &v[0]);
    asc_twin_get_value(x, 63, &v[1]);
    asc_twin_get_value(y, 0, &v[2]);
    asc_twin_get_value(y, 63, &v[3]);
    for (int i = 0; i < 4; i++) g_v[8 + i] = (int64_t)(v[i] * 1e6 + 0.5);
}

MG_TEST(basic_instructions_run_in_place_without_a_warning) {
    setenv("MISHGRAD_TWIN_STRICT", "1", 1);
    long log_at = mg_log_size();
    expect_ok(basic_in_place, 1);
    unsetenv("MISHGRAD_TWIN_STRICT");
    for (int i = 0; i < 5; i++) MG_CHECK_EQ_INT(g_v[i], 0);
    MG_CHECK_EQ_INT(g_v[8], 12250000);
    MG_CHECK_EQ_INT(g_v[9], 12250000);
    /* exp(1.75) = 5.754602676005731; float32 rounds it within 1e-6 */
    MG_CHECK(g_v[10] >= 5754601 && g_v[10] <= 5754604);
    MG_CHECK_EQ_INT(g_v[11], g_v[10]);
    char *log = mg_log_text_since(log_at);
    MG_CHECK(strstr(log, "the destination and source") == NULL);
    free(log);
}

/* ---- InitBuffer's placement ----------------------------------------------------------------- */

static void placement(uint8_t *const *args) {
    (void)args;
    uint64_t used = 0;
    g_v[0] = asc_twin_ub_init_buffer(&used, 1);      /* 0, rounded to 32 */
    g_v[1] = asc_twin_ub_init_buffer(&used, 32);     /* 32 */
    g_v[2] = asc_twin_ub_init_buffer(&used, 33);     /* 64, rounded to 64 */
    g_v[3] = asc_twin_ub_init_buffer(&used, 0);      /* 128, nothing taken */
    g_v[4] = (int64_t)used;                          /* 128 */
    g_v[5] = asc_twin_ub_init_buffer(&used, UB - 128); /* the rest: exactly full */
    g_v[6] = (int64_t)used;
    g_v[7] = asc_twin_ub_init_buffer(&used, 1);      /* one byte more: refused */
}
/* a size whose rounding to 32 would wrap, and a total that would wrap */
static void placement_huge(uint8_t *const *args) {
    (void)args;
    uint64_t used = 0;
    asc_twin_ub_init_buffer(&used, UINT64_MAX - 20);
}
static void placement_total(uint8_t *const *args) {
    (void)args;
    uint64_t used = 64;
    asc_twin_ub_init_buffer(&used, UINT64_MAX - 40);
}
static void placement_over(uint8_t *const *args) {
    (void)args;
    uint64_t used = 0;
    g_v[0] = asc_twin_ub_init_buffer(&used, UB + 1);
}

MG_TEST(init_buffer_places_32_byte_aligned_to_the_last_byte) {
    expect_refused(placement, 1, "twin_core block 0: InitBuffer: 196640 bytes requested, UB holds 196608");
    MG_CHECK_EQ_INT(g_v[0], 0);
    MG_CHECK_EQ_INT(g_v[1], 32);
    MG_CHECK_EQ_INT(g_v[2], 64);
    MG_CHECK_EQ_INT(g_v[3], 128);
    MG_CHECK_EQ_INT(g_v[4], 128);
    MG_CHECK_EQ_INT(g_v[5], 128);
    MG_CHECK_EQ_INT(g_v[6], UB);
    MG_CHECK_EQ_INT(g_v[7], -1);
    expect_refused(placement_huge, 1, "twin_core block 0: InitBuffer: 18446744073709551615 bytes requested, UB holds 196608");
    expect_refused(placement_total, 1, "twin_core block 0: InitBuffer: 18446744073709551615 bytes requested, UB holds 196608");
    expect_refused(placement_over, 1, "twin_core block 0: InitBuffer: 196640 bytes requested, UB holds 196608");
    MG_CHECK_EQ_INT(g_v[0], -1);
}

/* ---- SetAtomic* ------------------------------------------------------------------------------- */

static int g_atomic_op;
static asc_twin_dtype g_atomic_dt;
static void set_atomic(uint8_t *const *args) {
    (void)args;
    asc_twin_set_atomic((asc_twin_atomic_op)g_atomic_op, g_atomic_dt);
    g_v[0] = asc_twin_block_aborted();
}

MG_TEST(set_atomic_takes_its_operations_and_types) {
    static const asc_twin_dtype ok_types[] = {ASC_TWIN_F32, ASC_TWIN_F16, ASC_TWIN_BF16,
                                              ASC_TWIN_I8, ASC_TWIN_I16, ASC_TWIN_I32};
    for (int op = ASC_TWIN_ATOMIC_ADD; op <= ASC_TWIN_ATOMIC_MIN; op++)
        for (size_t k = 0; k < sizeof ok_types / sizeof ok_types[0]; k++) {
            g_atomic_op = op, g_atomic_dt = ok_types[k];
            expect_ok(set_atomic, 1);
            MG_CHECK_EQ_INT(g_v[0], 0);
        }
    /* SetAtomicNone takes any type */
    g_atomic_op = ASC_TWIN_ATOMIC_NONE, g_atomic_dt = ASC_TWIN_U64;
    expect_ok(set_atomic, 1);
    g_atomic_op = ASC_TWIN_ATOMIC_ADD, g_atomic_dt = ASC_TWIN_U8;
    expect_refused(set_atomic, 1, "twin_core block 0: SetAtomicAdd: type uint8_t is not one of float, half, "
                                  "bfloat16_t, int8_t, int16_t, int32_t");
    g_atomic_op = ASC_TWIN_ATOMIC_MAX, g_atomic_dt = ASC_TWIN_U16;
    expect_refused(set_atomic, 1, "twin_core block 0: SetAtomicMax: type uint16_t is not one of float, half, "
                                  "bfloat16_t, int8_t, int16_t, int32_t");
    g_atomic_op = ASC_TWIN_ATOMIC_MIN, g_atomic_dt = ASC_TWIN_U32;
    expect_refused(set_atomic, 1, "twin_core block 0: SetAtomicMin: type uint32_t is not one of float, half, "
                                  "bfloat16_t, int8_t, int16_t, int32_t");
    g_atomic_op = ASC_TWIN_ATOMIC_MIN, g_atomic_dt = ASC_TWIN_I64;
    expect_refused(set_atomic, 1, "twin_core block 0: SetAtomicMin: type int64_t is not one of float, half, "
                                  "bfloat16_t, int8_t, int16_t, int32_t");
    g_atomic_op = 4, g_atomic_dt = ASC_TWIN_F32;
    expect_refused(set_atomic, 1, "twin_core block 0: SetAtomic: unknown atomic operation 4");
    g_atomic_op = -1;
    expect_refused(set_atomic, 1, "twin_core block 0: SetAtomic: unknown atomic operation -1");
}

/* ---- SyncAll --------------------------------------------------------------------------------- */

static int64_t g_used_cores;
static int g_only_block0;
static void sync_used(uint8_t *const *args) {
    (void)args;
    if (g_only_block0 && asc_twin_block_idx() != 0) return;
    asc_twin_sync_all("SyncAll", g_used_cores);
}
/* blocks below 2 synchronise over 2; the others return */
static void sync_two_of_four(uint8_t *const *args) {
    (void)args;
    if (asc_twin_block_idx() < 2) asc_twin_sync_all("SyncAll", 2);
}
static void sync_outside_group(uint8_t *const *args) {
    (void)args;
    if (asc_twin_block_idx() == 2) asc_twin_sync_all("SyncAll", 2);
}
/* one block: SyncAll passes at once, as many times as called */
static void sync_alone(uint8_t *const *args) {
    (void)args;
    for (int i = 0; i < 3; i++) asc_twin_sync_all("SyncAll", 0);
    g_v[0] = asc_twin_block_aborted();
}

/* rounds of a barrier: in round r each block writes its slot, then after SyncAll reads every
   block's slot of round r; a barrier that lets a block through early reads a 0 */
static _Atomic int64_t g_slots[4][8];
static void sync_rounds(uint8_t *const *args) {
    (void)args;
    int64_t i = asc_twin_block_idx();
    for (int r = 0; r < 4; r++) {
        if (i == r % 4) sleep_ms(20); /* a late writer each round */
        atomic_store(&g_slots[r][i], r + 1);
        asc_twin_sync_all("SyncAll", 0);
        if (asc_twin_block_aborted()) return;
        for (int j = 0; j < asc_twin_block_num(); j++)
            if (atomic_load(&g_slots[r][j]) != r + 1) atomic_fetch_add((_Atomic int64_t *)&g_v[0], 1);
    }
}

/* block 0 waits at a barrier of 2 while block 1 asks for one of 3 (or the other way round) */
static atomic_int g_arrived;
static void sync_mismatch(uint8_t *const *args) {
    (void)args;
    if (asc_twin_block_idx() == 0) {
        atomic_store(&g_arrived, 1);
        asc_twin_sync_all("SyncAll", 2);
    } else if (asc_twin_block_idx() == 1) {
        for (int k = 0; k < 100 && !atomic_load(&g_arrived); k++) sleep_ms(2);
        sleep_ms(30);
        asc_twin_sync_all("SyncAll", 3);
    } else {
        sleep_ms(200);
        asc_twin_sync_all("SyncAll", 3);
    }
}
/* block 1 returns at once; block 0 reaches a SyncAll of both later */
static void sync_after_return(uint8_t *const *args) {
    (void)args;
    if (asc_twin_block_idx() == 1) {
        atomic_store(&g_arrived, 1);
        return;
    }
    for (int k = 0; k < 100 && !atomic_load(&g_arrived); k++) sleep_ms(2);
    sleep_ms(30);
    asc_twin_sync_all("SyncAll", 0);
}

/* blocks 0..2 meet at a SyncAll of 3 (block 3 returns), then blocks 0 and 1 at one of 2 while
   block 2, outside that group, has returned: allowed (only a participant's return strands) */
static void sync_three_then_two(uint8_t *const *args) {
    (void)args;
    int64_t i = asc_twin_block_idx();
    if (i == 3) return;
    asc_twin_sync_all("SyncAll", 3);
    if (i == 2) return;
    sleep_ms(30);
    asc_twin_sync_all("SyncAll", 2);
}
/* block 1 waits at a SyncAll of both; block 0 first passes a SyncAll of itself alone (usedCores
   1: nothing to wait for, whoever waits elsewhere), then joins */
static void sync_one_then_two(uint8_t *const *args) {
    (void)args;
    if (asc_twin_block_idx() == 0) {
        sleep_ms(30);
        asc_twin_sync_all("SyncAll", 1);
    }
    asc_twin_sync_all("SyncAll", 2);
}

/* block 0 waits at a SyncAll of both; block 1 breaks a rule instead of arriving: the
   failure releases block 0, which stops too (it is aborted, as a block that broke a rule) */
static void sync_released_by_failure(uint8_t *const *args) {
    (void)args;
    if (asc_twin_block_idx() == 1) {
        sleep_ms(30);
        asc_twin_report("Boom", "block 1 fails");
        return;
    }
    asc_twin_sync_all("SyncAll", 0);
    g_v[1] = asc_twin_block_aborted();
}

MG_TEST(sync_all_rules) {
    g_used_cores = -1, g_only_block0 = 1;
    expect_refused(sync_used, 4, "twin_core block 0: SyncAll: usedCores -1 outside [0, blockDim 4]");
    g_used_cores = 5;
    expect_refused(sync_used, 4, "twin_core block 0: SyncAll: usedCores 5 outside [0, blockDim 4]");
    g_used_cores = 4, g_only_block0 = 0;
    expect_ok(sync_used, 4);
    g_used_cores = 0;
    expect_ok(sync_used, 4);
    expect_ok(sync_two_of_four, 4);
    expect_refused(sync_outside_group, 4,
                   "twin_core block 2: SyncAll: block 2 is not one of the 2 blocks this SyncAll synchronises");
    expect_ok(sync_alone, 1);
    MG_CHECK_EQ_INT(g_v[0], 0);
    expect_ok(sync_three_then_two, 4);
    expect_ok(sync_one_then_two, 2);

    memset(g_slots, 0, sizeof g_slots);
    expect_ok(sync_rounds, 4);
    MG_CHECK_EQ_INT(g_v[0], 0);
    memset(g_slots, 0, sizeof g_slots);
    expect_ok(sync_rounds, 8); /* more blocks than pool threads: helpers run the rest */
    MG_CHECK_EQ_INT(g_v[0], 0);

    atomic_store(&g_arrived, 0);
    MG_CHECK_EQ_INT(run_blocks(sync_mismatch, 3), ACL_ERROR_RT_AICORE_EXCEPTION);
    if (strcmp(g_msg, "twin_core block 1: SyncAll: synchronises 3 blocks while 1 block(s) already wait at one of 2") != 0 &&
        strcmp(g_msg, "twin_core block 0: SyncAll: synchronises 2 blocks while 1 block(s) already wait at one of 3") != 0)
        MG_FAIL("message \"%s\"", g_msg);

    g_v[1] = -1;
    MG_CHECK_EQ_INT(run_blocks(sync_released_by_failure, 2), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_STR_CONTAINS(g_msg, "twin_core block 1: Boom: block 1 fails");
    MG_CHECK_EQ_INT(g_v[1], 1);

    atomic_store(&g_arrived, 0);
    MG_CHECK_EQ_INT(run_blocks(sync_after_return, 2), ACL_ERROR_RT_AICORE_EXCEPTION);
    if (strcmp(g_msg, "twin_core block 0: SyncAll: block 1 already returned without reaching this SyncAll (the "
                      "device would wait forever)") != 0 &&
        strcmp(g_msg, "twin_core block 1: SyncAll: the block returned after 0 SyncAll calls while 1 block(s) wait "
                      "at SyncAll number 1 (on the device they would wait forever)") != 0)
        MG_FAIL("message \"%s\"", g_msg);
}

/* a block returning after two barriers while its partner waits at the third */
static void sync_strands(uint8_t *const *args) {
    (void)args;
    int rounds = asc_twin_block_idx() == 0 ? 3 : 2;
    for (int r = 0; r < rounds; r++) {
        if (asc_twin_block_idx() == 1 && r == 1) sleep_ms(20);
        asc_twin_sync_all("SyncAll", 0);
    }
    if (asc_twin_block_idx() == 1) sleep_ms(50); /* block 0 is waiting at the third by now */
}

MG_TEST(a_block_returning_while_others_wait_is_reported) {
    MG_CHECK_EQ_INT(run_blocks(sync_strands, 2), ACL_ERROR_RT_AICORE_EXCEPTION);
    if (strcmp(g_msg, "twin_core block 1: SyncAll: the block returned after 2 SyncAll calls while 1 block(s) wait "
                      "at SyncAll number 3 (on the device they would wait forever)") != 0 &&
        strcmp(g_msg, "twin_core block 0: SyncAll: block 1 already returned without reaching this SyncAll (the "
                      "device would wait forever)") != 0)
        MG_FAIL("message \"%s\"", g_msg);
}

/* ---- TQue ------------------------------------------------------------------------------------ */

static int g_case;
static void queue_case(uint8_t *const *args) {
    (void)args;
    asc_twin_que q;
    switch (g_case) {
    case 0: /* 65 buffers asked: the queue has 64 */
        asc_twin_que_init(&q, 4, 65);
        for (int i = 0; i < 64; i++) g_v[0] += asc_twin_que_alloc(&q) == i;
        asc_twin_que_alloc(&q);
        break;
    case 1: /* a negative count: no buffer */
        asc_twin_que_init(&q, 4, -3);
        asc_twin_que_alloc(&q);
        break;
    case 2:
        asc_twin_que_init(&q, 2, 2);
        asc_twin_que_enque(&q, -1);
        break;
    case 3:
        asc_twin_que_init(&q, 2, 2);
        asc_twin_que_enque(&q, 2);
        break;
    case 4:
        asc_twin_que_init(&q, 2, 2);
        asc_twin_que_free(&q, 2);
        break;
    case 5:
        asc_twin_que_init(&q, 2, 2);
        asc_twin_que_free(&q, -1);
        break;
    case 6: /* a free buffer freed */
        asc_twin_que_init(&q, 2, 2);
        asc_twin_que_free(&q, 1);
        break;
    case 7: /* an enqueued buffer enqueued again */
        asc_twin_que_init(&q, 2, 2);
        asc_twin_que_enque(&q, asc_twin_que_alloc(&q));
        asc_twin_que_enque(&q, 0);
        break;
    case 8: { /* the order ring wraps: 200 rounds of two buffers in flight, FIFO each time */
        asc_twin_que_init(&q, 2, 3);
        int a = asc_twin_que_alloc(&q), b = asc_twin_que_alloc(&q);
        for (int r = 0; r < 200; r++) {
            asc_twin_que_enque(&q, a);
            asc_twin_que_enque(&q, b);
            int x = asc_twin_que_deque(&q), y = asc_twin_que_deque(&q);
            if (x != a || y != b) g_v[1]++;
            int t = a; /* swap which goes first */
            a = b, b = t;
        }
        g_v[0] = asc_twin_block_aborted() ? -1 : 1;
        break;
    }
    case 9: { /* the pipe's count: 63 then 1 fit, 63 then 2 do not (and add nothing) */
        uint32_t pipe = 63;
        g_v[0] = asc_twin_pipe_add_buffers(&pipe, 1);
        g_v[1] = pipe;
        pipe = 63;
        g_v[2] = asc_twin_pipe_add_buffers(&pipe, 2);
        g_v[3] = pipe;
        break;
    }
    case 10: {
        uint32_t pipe = 0;
        g_v[0] = asc_twin_pipe_add_buffers(&pipe, 65);
        g_v[1] = pipe;
        break;
    }
    default: {
        uint32_t pipe = 0;
        asc_twin_pipe_add_buffers(&pipe, -1);
        break;
    }
    }
}

MG_TEST(queue_bounds_and_foreign_buffers) {
    g_case = 0;
    expect_refused(queue_case, 1, "twin_core block 0: AllocTensor: all 64 buffers of the queue are in use (FreeTensor "
                                  "returns one)");
    MG_CHECK_EQ_INT(g_v[0], 64);
    g_case = 1;
    expect_refused(queue_case, 1, "twin_core block 0: AllocTensor: all 0 buffers of the queue are in use (FreeTensor "
                                  "returns one)");
    g_case = 2;
    expect_refused(queue_case, 1,
                   "twin_core block 0: EnQue: buffer -1 is foreign, not allocated by this queue's AllocTensor");
    g_case = 3;
    expect_refused(queue_case, 1,
                   "twin_core block 0: EnQue: buffer 2 is foreign, not allocated by this queue's AllocTensor");
    g_case = 4;
    expect_refused(queue_case, 1, "twin_core block 0: FreeTensor: buffer 2 is foreign, not allocated or dequeued");
    g_case = 5;
    expect_refused(queue_case, 1, "twin_core block 0: FreeTensor: buffer -1 is foreign, not allocated or dequeued");
    g_case = 6;
    expect_refused(queue_case, 1, "twin_core block 0: FreeTensor: buffer 1 is free, not allocated or dequeued");
    g_case = 7;
    expect_refused(queue_case, 1,
                   "twin_core block 0: EnQue: buffer 0 is enqueued, not allocated by this queue's AllocTensor");
    g_case = 8;
    expect_ok(queue_case, 1);
    MG_CHECK_EQ_INT(g_v[0], 1);
    MG_CHECK_EQ_INT(g_v[1], 0);
    g_case = 9;
    expect_refused(queue_case, 1, "twin_core block 0: InitBuffer: 65 buffers in one TPipe, at most 64 (QBUF_MAX_LEN)");
    MG_CHECK_EQ_INT(g_v[0], 0);
    MG_CHECK_EQ_INT(g_v[1], 64);
    MG_CHECK_EQ_INT(g_v[2], -1);
    MG_CHECK_EQ_INT(g_v[3], 63);
    g_case = 10;
    expect_refused(queue_case, 1, "twin_core block 0: InitBuffer: num 65 outside [1, 64]");
    MG_CHECK_EQ_INT(g_v[0], -1);
    MG_CHECK_EQ_INT(g_v[1], 0);
    g_case = 11;
    expect_refused(queue_case, 1, "twin_core block 0: InitBuffer: num -1 outside [1, 64]");
}

/* ---- GmAlloc / GmFree -------------------------------------------------------------------------- */

static uint8_t *g_blocks[40];
static void gm_touch(uint8_t *const *args) {
    (void)args;
    double v;
    /* the last float of every live block reads; a freed one is no GM */
    for (int i = 0; i < 40; i++) {
        if (g_blocks[i] == NULL) continue;
        asc_twin_gm_ref t = tt_gm(g_blocks[i], UINT64_MAX, ASC_TWIN_F32);
        if (asc_twin_gm_get_value(t, 24, &v) != 0 || v != (double)i) return;
        g_v[0]++;
    }
}
static void gm_past_end(uint8_t *const *args) {
    (void)args;
    double v;
    asc_twin_gm_get_value(tt_gm(g_blocks[0], UINT64_MAX, ASC_TWIN_F32), 25, &v);
}
static uint8_t *g_zero_block;
static void gm_zero(uint8_t *const *args) {
    (void)args;
    double v;
    asc_twin_gm_get_value(tt_gm(g_zero_block, UINT64_MAX, ASC_TWIN_I8), 0, &v);
}

MG_TEST(gm_alloc_and_free) {
    setup();
    /* 40 blocks of 100 bytes (past the table's first 16), the last float of each numbered */
    for (int i = 0; i < 40; i++) {
        g_blocks[i] = asc_twin_gm_alloc(100);
        MG_CHECK(g_blocks[i] != NULL);
        MG_CHECK_EQ_INT((uintptr_t)g_blocks[i] % 32, 0);
        for (int k = 0; k < 100; k++) MG_CHECK_EQ_INT(g_blocks[i][k], 0); /* zeroed */
        float f = (float)i;
        memcpy(g_blocks[i] + 96, &f, 4);
    }
    expect_ok(gm_touch, 1);
    MG_CHECK_EQ_INT(g_v[0], 40);
    /* the bound is the size asked for: float 25 starts at byte 100 */
    expect_refused(gm_past_end, 1, "twin_core block 0: GetValue: GM bytes [100, 104) of the tensor run 4 bytes past "
                                   "the end of its GmAlloc block (100 bytes)");
    /* freeing some in the middle keeps the others found */
    for (int i = 5; i < 40; i += 7) {
        asc_twin_gm_free(g_blocks[i]);
        g_blocks[i] = NULL;
    }
    expect_ok(gm_touch, 1);
    MG_CHECK_EQ_INT(g_v[0], 35);

    /* a pointer that is not a block's start is refused and not freed */
    aclGetRecentErrMsg();
    asc_twin_gm_free(g_blocks[0] + 32);
    char want[160];
    snprintf(want, sizeof want, "GmFree: %p is not a block from GmAlloc (not freed)", (void *)(g_blocks[0] + 32));
    expect_msg(want);
    expect_ok(gm_touch, 1);
    MG_CHECK_EQ_INT(g_v[0], 35);
    asc_twin_gm_free(NULL); /* nothing */
    for (int i = 0; i < 40; i++) asc_twin_gm_free(g_blocks[i]);

    /* 0 bytes: a block, but none of its bytes may be touched */
    g_zero_block = asc_twin_gm_alloc(0);
    MG_CHECK(g_zero_block != NULL);
    expect_refused(gm_zero, 1, "twin_core block 0: GetValue: GM bytes [0, 1) of the tensor run 1 bytes past the end "
                               "of its GmAlloc block (0 bytes)");
    asc_twin_gm_free(g_zero_block);
    /* a size that cannot be rounded to 32 */
    MG_CHECK(asc_twin_gm_alloc(SIZE_MAX) == NULL);
    char want2[96];
    snprintf(want2, sizeof want2, "GmAlloc: no memory for %zu bytes", (size_t)SIZE_MAX);
    expect_msg(want2);
    MG_CHECK(asc_twin_gm_alloc(SIZE_MAX - 30) == NULL); /* the largest size whose rounding to 32 wraps */
    snprintf(want2, sizeof want2, "GmAlloc: no memory for %zu bytes", (size_t)SIZE_MAX - 30);
    expect_msg(want2);
}

/* ---- calls outside a launch, and after a break ------------------------------------------------ */

static uint8_t *g_gm64;
/* every call of the core returns -1 (or does nothing) once its block broke a rule: the first
   report stays the launch's message */
static void after_break(uint8_t *const *args) {
    (void)args;
    asc_twin_ub_ref t = tt_ub(0, 256, ASC_TWIN_F32);
    asc_twin_duplicate(t, 1.0, 64);
    asc_twin_report("First", "the break");
    double v = 0;
    asc_twin_repeat r = {1, 8, 0, 0, 1, 1, 1, 8};
    asc_twin_l0_strides st = {{1, 1, 1}, {8, 8, 8}};
    asc_twin_copy_params p = {1, 32, 0, 0, 1};
    int rc[16] = {
        asc_twin_unary("Abs", ASC_TWIN_ABS, t, t, 8),
        asc_twin_duplicate(t, 2.0, 8),
        asc_twin_get_value(t, 0, &v),
        asc_twin_set_value(t, 0, 3.0),
        asc_twin_gm_get_value(tt_gm(g_gm64, 64, ASC_TWIN_F32), 0, &v),
        asc_twin_gm_set_value(tt_gm(g_gm64, 64, ASC_TWIN_F32), 0, 3.0),
        asc_twin_gm_fill(tt_gm(g_gm64, 64, ASC_TWIN_F32), 4, 3.0),
        asc_twin_whole_reduce("WholeReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(256, 256, ASC_TWIN_F32), t, &r,
                              ASC_TWIN_ORDER_ONLY_VALUE),
        asc_twin_level0("Add", 1, ASC_TWIN_ADD, t, t, t, 0.0, &r, &st),
        asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(g_gm64, 64, ASC_TWIN_F32), t, &p),
        asc_twin_copy_gm_to_ub_params("DataCopyPad", t, tt_gm(g_gm64, 64, ASC_TWIN_F32), &p, NULL),
        asc_twin_copy_ub_to_gm(tt_gm(g_gm64, 64, ASC_TWIN_F32), t, 8),
        asc_twin_cast(tt_ub(256, 256, ASC_TWIN_F16), t, ASC_TWIN_CAST_RINT, 8),
        asc_twin_reduce("ReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(256, 4, ASC_TWIN_F32), t, 8, 0),
        asc_twin_compare_scalar(tt_ub(256, 32, ASC_TWIN_U8), t, 1.0, ASC_TWIN_CMP_EQ, 8),
        asc_twin_select(t, tt_ub(256, 32, ASC_TWIN_U8), t, t, 0.0, ASC_TWIN_SEL_TENSOR_TENSOR_MODE, 8),
    };
    for (int i = 0; i < 16; i++) g_v[i] = rc[i];
    asc_twin_set_atomic(ASC_TWIN_ATOMIC_ADD, ASC_TWIN_F32); /* ignored */
    asc_twin_sync_all("SyncAll", 0);                         /* returns at once */
    float f;
    memcpy(&f, t.addr, 4);
    g_v[16] = f == 1.0f; /* nothing above wrote */
    uint64_t used = 0;
    g_v[17] = asc_twin_ub_init_buffer(&used, 32); /* placement is arithmetic: still answers */
}

MG_TEST(calls_outside_a_launch_and_after_a_break) {
    setup();
    if (g_gm64 == NULL) g_gm64 = asc_twin_gm_alloc(64);
    memset(g_gm64, 0, 64);
    /* one block: with two, whichever block reports first owns the launch's message (block 1
       did, once, under ASan), and both would write g_v */
    expect_refused(after_break, 1, "twin_core block 0: First: the break");
    for (int i = 0; i < 16; i++)
        if (g_v[i] != -1) MG_FAIL("call %d after the break returned %lld", i, (long long)g_v[i]);
    MG_CHECK_EQ_INT(g_v[16], 1);
    MG_CHECK_EQ_INT(g_v[17], 0);
    for (int i = 0; i < 64; i++) MG_CHECK_EQ_INT(g_gm64[i], 0);
    /* outside any launch: no UB, so every instruction is -1 and nothing is reported, not
       even the faults its arguments would be reported for inside a launch (a negative
       stride, an unknown reduction) */
    long log_at = mg_log_size();
    asc_twin_ub_ref t = {g_arg0, 64, ASC_TWIN_F32};
    double v = 0;
    MG_CHECK_EQ_INT(asc_twin_unary("Abs", ASC_TWIN_ABS, t, t, 8), -1);
    MG_CHECK_EQ_INT(asc_twin_gm_get_value(tt_gm(g_gm64, 64, ASC_TWIN_F32), 0, &v), -1);
    MG_CHECK_EQ_INT(asc_twin_gm_set_value(tt_gm(g_gm64, 64, ASC_TWIN_F32), 0, 1.0), -1);
    MG_CHECK_EQ_INT(asc_twin_gm_fill(tt_gm(g_gm64, 64, ASC_TWIN_F32), 1, 1.0), -1);
    asc_twin_repeat r = {1, 8, 0, 0, 1, 1, 1, 8};
    asc_twin_l0_strides st = {{1, 1, 1}, {8, 8, 8}};
    MG_CHECK_EQ_INT(asc_twin_level0("Add", 1, ASC_TWIN_ADD, t, t, t, 0.0, &r, &st), -1);
    MG_CHECK_EQ_INT(asc_twin_whole_reduce("WholeReduceSum", ASC_TWIN_REDUCE_SUM, t, t, &r, ASC_TWIN_ORDER_ONLY_VALUE), -1);
    asc_twin_l0_strides negative = {{1, -1, 1}, {8, 8, 8}};
    MG_CHECK_EQ_INT(asc_twin_level0("Add", 1, ASC_TWIN_ADD, t, t, t, 0.0, &r, &negative), -1);
    MG_CHECK_EQ_INT(asc_twin_whole_reduce("WholeReduceSum", (asc_twin_reduce_op)99, t, t, &r, ASC_TWIN_ORDER_ONLY_VALUE),
                    -1);
    MG_CHECK_EQ_INT(asc_twin_unary("Abs", ASC_TWIN_ABS, t, (asc_twin_ub_ref){g_arg0, 64, ASC_TWIN_F16}, 8), -1);
    asc_twin_set_atomic(ASC_TWIN_ATOMIC_ADD, ASC_TWIN_F32);
    asc_twin_sync_all("SyncAll", 0);
    for (int i = 0; i < 64; i++) MG_CHECK_EQ_INT(g_gm64[i], 0);
    char *log = mg_log_text_since(log_at);
    if (strstr(log, "ASCENDC") != NULL) MG_FAIL("instructions outside a launch logged: %s", log);
    free(log);
}

/* ---- the registry --------------------------------------------------------------------------- */

static void nothing(uint8_t *const *args) { (void)args; }

MG_TEST(registry_refuses_bad_descriptors_and_grows) {
    static const asc_twin_kernel no_name = {NULL, 0, 0, nothing};
    static const asc_twin_kernel no_entry = {"twin_reg_no_entry", 0, 0, NULL};
    static const asc_twin_kernel neg = {"twin_reg_neg", 0, -1, nothing};
    static const asc_twin_kernel zero = {"twin_reg_zero", 0, 0, nothing};
    MG_CHECK_EQ_INT(asc_twin_register(NULL), -1);
    MG_CHECK_EQ_INT(asc_twin_register(&no_name), -1);
    MG_CHECK_EQ_INT(asc_twin_register(&no_entry), -1);
    MG_CHECK_EQ_INT(asc_twin_register(&neg), -1);
    MG_CHECK(asc_twin_find("twin_reg_no_entry", 0) == NULL);
    MG_CHECK(asc_twin_find("twin_reg_neg", 0) == NULL);
    MG_CHECK_EQ_INT(asc_twin_register(&zero), 0);
    MG_CHECK(asc_twin_find("twin_reg_zero", 0) == &zero);
    /* 100 keys of one name: past the table's first 32 and its doubling */
    static asc_twin_kernel many[100];
    for (int i = 0; i < 100; i++) {
        many[i] = (asc_twin_kernel){"twin_reg_many", (uint64_t)i * 3, 1, nothing};
        MG_CHECK_EQ_INT(asc_twin_register(&many[i]), 0);
    }
    for (int i = 0; i < 100; i++) {
        MG_CHECK(asc_twin_find("twin_reg_many", (uint64_t)i * 3) == &many[i]);
        MG_CHECK(asc_twin_find("twin_reg_many", (uint64_t)i * 3 + 1) == NULL);
    }
    static const asc_twin_kernel again = {"twin_reg_many", 297, 1, nothing};
    MG_CHECK_EQ_INT(asc_twin_register(&again), -1);
    MG_CHECK(asc_twin_find("twin_reg_many", 297) == &many[99]);
}

MG_TEST_MAIN()

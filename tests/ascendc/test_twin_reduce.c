/*
 * tests/ascendc/test_twin_reduce.c: the reductions and level-0 forms of the vector core
 * (vec_reduce.c) against values written out here:
 *
 *   - ReduceSum in double rounded once (float and half, the half ties the float rounding moves),
 *     ReduceMax / ReduceMin keeping the first index, a NaN winning and staying;
 *   - WholeReduce in each order and BlockReduce, placed by dstRepStride; the lanes of a call
 *     from each mask kind (the block's mask, a count, a bitmask; half's 128 lanes over two
 *     words), counter mode over several repeats;
 *   - the level-0 elementwise forms with block and repeat strides, inactive lanes untouched,
 *     a destination of repeat stride 0 accumulating;
 *   - every refusal of vec_reduce.c with exactly its message and -1.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "mg_test.h"
#include "twin_test_util.h"

#define F32 ASC_TWIN_F32
#define F16 ASC_TWIN_F16

typedef void (*scenario_fn)(uint8_t *const *args);
static scenario_fn g_scenario;
static uint8_t g_dst[4096]; /* UB bytes [4096, 8192) after the scenario */
static void dispatch(uint8_t *const *args) {
    memset(asc_twin_ub_base() + 4096, 0x77, 4096); /* the destinations: a sentinel */
    g_scenario(args);
    memcpy(g_dst, asc_twin_ub_base() + 4096, sizeof g_dst);
}
static const asc_twin_kernel k_red = {"twin_red", 0, 1, dispatch};
static int g_rc[16];
static char g_msg[512];

static int run(scenario_fn s) {
    static int ready;
    if (!ready) {
        ready = 1;
        MG_CHECK_EQ_INT(aclInit(NULL), 0);
        MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    }
    g_scenario = s;
    memset(g_rc, 0x55, sizeof g_rc);
    static uint8_t dummy[32];
    uint8_t *args[1] = {dummy};
    return tt_run(&k_red, 1, args, 1, g_msg, sizeof g_msg);
}
static void expect_refused(scenario_fn s, const char *want) {
    MG_CHECK_EQ_INT(run(s), ACL_ERROR_RT_AICORE_EXCEPTION);
    if (strcmp(g_msg, want) != 0) MG_FAIL("message \"%s\", expected \"%s\"", g_msg, want);
    MG_CHECK_EQ_INT(g_rc[0], -1);
    for (int i = 0; i < 64; i++)
        if (g_dst[i] != 0x77) {
            MG_FAIL("%s: destination byte %d written", want, i);
            break;
        }
}
static void expect_ok(scenario_fn s) {
    int status = run(s);
    if (status != 0) MG_FAIL("launch failed: %d \"%s\"", status, g_msg);
}

/* the source at UB 0 (4096 bytes), the destination at UB 4096 */
static asc_twin_ub_ref src(asc_twin_dtype dt) { return tt_ub(0, 4096, dt); }
static asc_twin_ub_ref dst(asc_twin_dtype dt) { return tt_ub(4096, 4096, dt); }
static void take(void) { memcpy(g_dst, asc_twin_ub_base() + 4096, sizeof g_dst); }
static void put_f(int i, float v) { asc_twin_set_value(src(F32), (uint64_t)i, v); }
/* a half's value from its bits (normal and subnormal; the tests use no NaN) */
static double half_value(uint16_t h) {
    int e = (h >> 10) & 31, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? INFINITY : ldexp(1024 + m, e - 25);
    return h & 0x8000 ? -v : v;
}
static void put_h(int i, uint16_t h) { asc_twin_set_value(src(F16), (uint64_t)i, half_value(h)); }
static float dst_f(int i) {
    float f;
    memcpy(&f, g_dst + 4 * i, 4);
    return f;
}
static uint32_t dst_u32(int i) {
    uint32_t u;
    memcpy(&u, g_dst + 4 * i, 4);
    return u;
}
static uint16_t dst_u16(int i) { return (uint16_t)(g_dst[2 * i] | g_dst[2 * i + 1] << 8); }

/* ---- the count form ------------------------------------------------------------------------ */

static void count_form(uint8_t *const *a) {
    (void)a;
    /* 1 + 2^-24 + 2^-24: in float one addition at a time stays 1; in double, rounded once, 1 + 2^-23 */
    put_f(0, 1.0f), put_f(1, 0x1p-24f), put_f(2, 0x1p-24f);
    g_rc[0] = asc_twin_reduce("ReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(4096, 4, F32), src(F32), 3, 1);
    /* max and min keep the first index of their value */
    static const float v[6] = {3.0f, 5.0f, -2.0f, 5.0f, -2.0f, 1.0f};
    for (int i = 0; i < 6; i++) put_f(8 + i, v[i]);
    g_rc[1] = asc_twin_reduce("ReduceMax", ASC_TWIN_REDUCE_MAX, tt_ub(4096 + 32, 8, F32), tt_ub(32, 64, F32), 6, 1);
    g_rc[2] = asc_twin_reduce("ReduceMin", ASC_TWIN_REDUCE_MIN, tt_ub(4096 + 64, 8, F32), tt_ub(32, 64, F32), 6, 1);
    /* without calIndex only the value is written */
    g_rc[3] = asc_twin_reduce("ReduceMax", ASC_TWIN_REDUCE_MAX, tt_ub(4096 + 96, 8, F32), tt_ub(32, 64, F32), 6, 0);
    /* a NaN wins and stays, whatever follows */
    put_f(16, 1.0f), put_f(17, NAN), put_f(18, 9.0f), put_f(19, -9.0f);
    g_rc[4] = asc_twin_reduce("ReduceMax", ASC_TWIN_REDUCE_MAX, tt_ub(4096 + 128, 8, F32), tt_ub(64, 64, F32), 4, 1);
    g_rc[5] = asc_twin_reduce("ReduceMin", ASC_TWIN_REDUCE_MIN, tt_ub(4096 + 160, 8, F32), tt_ub(64, 64, F32), 4, 1);
    g_rc[6] = asc_twin_reduce("ReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(4096 + 192, 8, F32), tt_ub(64, 64, F32), 4, 1);
    /* one element: itself, index 0 */
    g_rc[7] = asc_twin_reduce("ReduceMin", ASC_TWIN_REDUCE_MIN, tt_ub(4096 + 224, 8, F32), tt_ub(32, 64, F32), 1, 1);
    take();
}

MG_TEST(count_form_sum_max_min) {
    expect_ok(count_form);
    for (int i = 0; i < 8; i++) MG_CHECK_EQ_INT(g_rc[i], 0);
    MG_CHECK(dst_f(0) == 1.0f + 0x1p-23f);
    MG_CHECK(dst_f(8) == 5.0f);
    MG_CHECK_EQ_INT(dst_u32(9), 1);
    MG_CHECK(dst_f(16) == -2.0f);
    MG_CHECK_EQ_INT(dst_u32(17), 2);
    MG_CHECK(dst_f(24) == 5.0f);
    MG_CHECK_EQ_INT(dst_u32(25), 0x77777777u); /* no index asked for */
    MG_CHECK(isnan(dst_f(32)));
    MG_CHECK_EQ_INT(dst_u32(33), 1);
    MG_CHECK(isnan(dst_f(40)));
    MG_CHECK_EQ_INT(dst_u32(41), 1);
    MG_CHECK(isnan(dst_f(48)));
    MG_CHECK_EQ_INT(dst_u32(49), 0x77777777u); /* a sum has no index */
    MG_CHECK(dst_f(56) == 3.0f);
    MG_CHECK_EQ_INT(dst_u32(57), 0);
}

/* half sums rounded once from their exact value */
static void half_sums(uint8_t *const *a) {
    (void)a;
    /* 1 + 2^-11 + 2^-24: float rounds it to the half tie 1 + 2^-11 (to even: 1); the exact sum
       lies above the tie, so 1 + 2^-10 (0x3c01) */
    put_h(0, 0x3c00), put_h(1, 0x1000), put_h(2, 0x0001);
    g_rc[0] = asc_twin_reduce("ReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(4096, 2, F16), tt_ub(0, 64, F16), 3, 0);
    /* the same below zero: 0xbc01 */
    put_h(16, 0xbc00), put_h(17, 0x9000), put_h(18, 0x8001);
    g_rc[1] = asc_twin_reduce("ReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(4096 + 32, 2, F16), tt_ub(32, 64, F16), 3, 0);
    /* an exact tie, 1 + 2^-11: to even, 1 (0x3c00); 1 + 3 * 2^-11: to even, 0x3c02 */
    put_h(32, 0x3c00), put_h(33, 0x1000);
    g_rc[2] = asc_twin_reduce("ReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(4096 + 64, 2, F16), tt_ub(64, 64, F16), 2, 0);
    put_h(48, 0x3c01), put_h(49, 0x1000);
    g_rc[3] = asc_twin_reduce("ReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(4096 + 96, 2, F16), tt_ub(96, 64, F16), 2, 0);
    /* past 65504 by more than half an ulp: infinity; the largest half with its index */
    put_h(64, 0x7bff), put_h(65, 0x7bff), put_h(66, 0x7bff);
    g_rc[4] = asc_twin_reduce("ReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(4096 + 128, 2, F16), tt_ub(128, 64, F16), 2, 0);
    g_rc[5] = asc_twin_reduce("ReduceMax", ASC_TWIN_REDUCE_MAX, tt_ub(4096 + 160, 4, F16), tt_ub(128, 64, F16), 3, 1);
    take();
}

MG_TEST(half_sums_round_once) {
    expect_ok(half_sums);
    for (int i = 0; i < 6; i++) MG_CHECK_EQ_INT(g_rc[i], 0);
    MG_CHECK_EQ_INT(dst_u16(0), 0x3c01);
    MG_CHECK_EQ_INT(dst_u16(16), 0xbc01);
    MG_CHECK_EQ_INT(dst_u16(32), 0x3c00);
    MG_CHECK_EQ_INT(dst_u16(48), 0x3c02);
    MG_CHECK_EQ_INT(dst_u16(64), 0x7c00);
    MG_CHECK_EQ_INT(dst_u16(80), 0x7bff);
    MG_CHECK_EQ_INT(dst_u16(81), 0); /* index 0, as 16-bit integer bits */
    MG_CHECK_EQ_INT(dst_u16(82), 0x7777);
}

/* ---- WholeReduce / BlockReduce ---------------------------------------------------------------- */

/* src float k at element k (0..255) */
static void ramp(void) {
    for (int i = 0; i < 256; i++) put_f(i, (float)((i * 37) % 101) - 50.0f);
}
static float ramp_v(int i) { return (float)((i * 37) % 101) - 50.0f; }

static asc_twin_reduce_order g_order;
static void whole_orders(uint8_t *const *a) {
    (void)a;
    ramp();
    /* 3 repeats of 16 lanes (mask count 16), repeats 64 bytes (2 blocks) apart, results 1 stride apart */
    asc_twin_repeat r = {1, 16, 0, 0, 3, 1, 1, 2};
    g_rc[0] = asc_twin_whole_reduce("WholeReduceMax", ASC_TWIN_REDUCE_MAX, dst(F32), src(F32), &r, g_order);
    asc_twin_repeat q = {1, 16, 0, 0, 3, 3, 1, 2}; /* dstRepStride 3: results 3 result-slots apart */
    g_rc[1] = asc_twin_whole_reduce("WholeReduceMin", ASC_TWIN_REDUCE_MIN, tt_ub(4096 + 1024, 1024, F32), src(F32),
                                    &q, g_order);
    g_rc[2] = asc_twin_whole_reduce("WholeReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(4096 + 2048, 1024, F32), src(F32),
                                    &r, g_order);
    take();
}

static void check_whole(int op, const uint8_t *base, int stride_results) {
    int with_value = g_order != ASC_TWIN_ORDER_ONLY_INDEX, with_index = g_order != ASC_TWIN_ORDER_ONLY_VALUE;
    int len = with_value + with_index;
    for (int rep = 0; rep < 3; rep++) {
        float best = ramp_v(16 * rep);
        uint32_t at = 0;
        for (int j = 1; j < 16; j++) {
            float v = ramp_v(16 * rep + j);
            if (op == 0 ? v > best : v < best) best = v, at = (uint32_t)j;
        }
        int slot0 = rep * stride_results * len;
        float got;
        uint32_t idx;
        int value_at = g_order == ASC_TWIN_ORDER_INDEX_VALUE ? 1 : 0;
        int index_at = g_order == ASC_TWIN_ORDER_VALUE_INDEX ? 1 : 0;
        memcpy(&got, base + 4 * (slot0 + value_at), 4);
        memcpy(&idx, base + 4 * (slot0 + index_at), 4);
        if (with_value && got != best) MG_FAIL("order %d op %d repeat %d: value %g, expected %g", g_order, op, rep,
                                               (double)got, (double)best);
        if (with_index && idx != at) MG_FAIL("order %d op %d repeat %d: index %u, expected %u", g_order, op, rep, idx, at);
        /* the slots between results are untouched */
        for (int k = slot0 + len; k < slot0 + stride_results * len && k < slot0 + 8; k++) {
            uint32_t u;
            memcpy(&u, base + 4 * k, 4);
            if (u != 0x77777777u) MG_FAIL("order %d op %d: slot %d written", g_order, op, k);
        }
    }
}

MG_TEST(whole_reduce_in_every_order) {
    for (int o = 0; o < 4; o++) {
        g_order = (asc_twin_reduce_order)o;
        expect_ok(whole_orders);
        for (int i = 0; i < 3; i++) MG_CHECK_EQ_INT(g_rc[i], 0);
        check_whole(0, g_dst, 1);
        check_whole(1, g_dst + 1024, 3);
        /* a sum takes only its value, one result per dstRepStride */
        for (int rep = 0; rep < 3; rep++) {
            double s = 0;
            for (int j = 0; j < 16; j++) s += ramp_v(16 * rep + j);
            MG_CHECK(dst_f(512 + rep) == (float)s);
        }
        MG_CHECK_EQ_INT(dst_u32(512 + 3), 0x77777777u);
    }
}

static void block_reduce(uint8_t *const *a) {
    (void)a;
    ramp();
    /* 2 repeats of all 64 lanes, repeats 8 blocks apart; results of a repeat 8 apart (dstRepStride 1) */
    asc_twin_repeat r = {1, 64, 0, 0, 2, 1, 1, 8};
    g_rc[0] = asc_twin_block_reduce("BlockReduceMax", ASC_TWIN_REDUCE_MAX, dst(F32), src(F32), &r);
    /* dstRepStride 2: 16 results apart; 12 lanes (a block and a half) */
    asc_twin_repeat q = {1, 12, 0, 0, 2, 2, 1, 8};
    g_rc[1] = asc_twin_block_reduce("BlockReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(4096 + 1024, 1024, F32), src(F32), &q);
    take();
}

MG_TEST(block_reduce_places_by_blocks) {
    expect_ok(block_reduce);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    MG_CHECK_EQ_INT(g_rc[1], 0);
    for (int rep = 0; rep < 2; rep++)
        for (int g = 0; g < 8; g++) {
            float m = ramp_v(64 * rep + 8 * g);
            for (int k = 1; k < 8; k++) m = fmaxf(m, ramp_v(64 * rep + 8 * g + k));
            MG_CHECK(dst_f(8 * rep + g) == m);
        }
    MG_CHECK_EQ_INT(dst_u32(16), 0x77777777u);
    for (int rep = 0; rep < 2; rep++) {
        float s0 = 0, s1 = 0;
        for (int k = 0; k < 8; k++) s0 += ramp_v(64 * rep + k);
        for (int k = 8; k < 12; k++) s1 += ramp_v(64 * rep + k);
        MG_CHECK(dst_f(256 + 16 * rep) == s0);
        MG_CHECK(dst_f(256 + 16 * rep + 1) == s1);
        MG_CHECK_EQ_INT(dst_u32(256 + 16 * rep + 2), 0x77777777u); /* groups with no lane: no result */
    }
}

/* the lanes: a sum of ones counts them */
static int g_kind;
static uint64_t g_count, g_hi, g_lo;
static asc_twin_dtype g_dt;
static int g_counter;
static void count_lanes(uint8_t *const *a) {
    (void)a;
    for (int i = 0; i < 1024; i++) asc_twin_set_value(tt_ub(0, 4096, g_dt), (uint64_t)i, 1.0);
    asc_twin_set_mask_counter(g_counter);
    asc_twin_set_vector_mask(g_hi, g_lo);
    /* 4 repeats, each one repeat (256 bytes) after the other */
    asc_twin_repeat r = {g_kind, g_count, g_hi, g_lo, 4, 1, 1, 8};
    g_rc[0] = asc_twin_whole_reduce("WholeReduceSum", ASC_TWIN_REDUCE_SUM, dst(g_dt), src(g_dt), &r,
                                    ASC_TWIN_ORDER_ONLY_VALUE);
    asc_twin_set_mask_counter(0);
    take();
}
static double result(int i) {
    if (g_dt == F32) return dst_f(i);
    uint16_t h = dst_u16(i);
    return h == 0x7777 ? -1 : half_value(h);
}
static int popcount64(uint64_t v) { return __builtin_popcountll(v); }

MG_TEST(lanes_from_each_mask_kind) {
    /* a count: float 1..64 lanes, half 1..128 (over both words) */
    g_counter = 0, g_kind = 1, g_hi = g_lo = 0;
    static const uint64_t f_counts[] = {1, 2, 31, 32, 63, 64};
    for (size_t k = 0; k < sizeof f_counts / sizeof f_counts[0]; k++) {
        g_dt = F32, g_count = f_counts[k];
        expect_ok(count_lanes);
        for (int r = 0; r < 4; r++) MG_CHECK(result(r) == (double)g_count);
    }
    static const uint64_t h_counts[] = {1, 63, 64, 65, 100, 127, 128};
    for (size_t k = 0; k < sizeof h_counts / sizeof h_counts[0]; k++) {
        g_dt = F16, g_count = h_counts[k];
        expect_ok(count_lanes);
        for (int r = 0; r < 4; r++)
            if (result(r) != (double)g_count) MG_FAIL("half mask count %llu: %g", (unsigned long long)g_count, result(r));
    }
    /* a bitmask given with the call: float ignores the high word */
    g_kind = 2, g_hi = 0xff00ff00ff00ff00ull, g_lo = 0x8000000000000001ull;
    g_dt = F32;
    expect_ok(count_lanes);
    MG_CHECK(result(0) == 2.0);
    g_dt = F16;
    expect_ok(count_lanes);
    MG_CHECK(result(0) == (double)(2 + popcount64(g_hi)));
    /* the block's own mask (SetVectorMask) */
    g_kind = 0, g_hi = 0x3, g_lo = 0xf0;
    g_dt = F16;
    expect_ok(count_lanes);
    MG_CHECK(result(3) == 6.0);
    g_dt = F32;
    expect_ok(count_lanes);
    MG_CHECK(result(3) == 4.0);
    /* counter mode: the mask is a count of elements over as many repeats as it takes (the
       call's repeat count is not used): 70 floats are 64 + 6 */
    g_counter = 1, g_kind = 1, g_count = 70, g_hi = g_lo = 0;
    g_dt = F32;
    expect_ok(count_lanes);
    MG_CHECK(result(0) == 64.0);
    MG_CHECK(result(1) == 6.0);
    MG_CHECK_EQ_INT(dst_u32(2), 0x77777777u);
    g_kind = 2, g_lo = 129, g_count = 0; /* bitwise kind: the count in the low word */
    g_dt = F16;
    expect_ok(count_lanes);
    MG_CHECK(result(0) == 128.0);
    MG_CHECK(result(1) == 1.0);
    MG_CHECK(result(2) == -1); /* untouched */
    g_kind = 0, g_lo = 3, g_hi = 0; /* the block's mask: its low word */
    g_dt = F32;
    expect_ok(count_lanes);
    MG_CHECK(result(0) == 3.0);
    MG_CHECK_EQ_INT(dst_u32(1), 0x77777777u);
    g_counter = 0;
}

/* ---- the level-0 elementwise forms ------------------------------------------------------------- */

static void l0_strided(uint8_t *const *a) {
    (void)a;
    ramp();
    for (int i = 0; i < 256; i++) asc_twin_set_value(tt_ub(2048, 2048, F32), (uint64_t)i, 0.5 * i);
    /* 12 lanes (one block and a half), 2 repeats; src0 blocks 2 apart, repeats 4 blocks apart; src1
       contiguous, repeats 8 blocks apart; dst blocks 1 apart, repeats 3 blocks apart */
    asc_twin_repeat r = {1, 12, 0, 0, 2, 0, 0, 0};
    asc_twin_l0_strides st = {{1, 2, 1}, {3, 4, 8}};
    g_rc[0] = asc_twin_level0("Sub", 1, ASC_TWIN_SUB, dst(F32), src(F32), tt_ub(2048, 2048, F32), 0.0, &r, &st);
    /* a destination of repeat stride 0 that is also source 0 accumulates source 1 over 3 repeats */
    asc_twin_duplicate(tt_ub(4096 + 1024, 32, F32), 100.0, 8);
    asc_twin_repeat q = {1, 8, 0, 0, 3, 0, 0, 0};
    asc_twin_l0_strides acc = {{1, 1, 1}, {0, 0, 1}};
    g_rc[1] = asc_twin_level0("Add", 1, ASC_TWIN_ADD, tt_ub(4096 + 1024, 32, F32), tt_ub(4096 + 1024, 32, F32),
                              tt_ub(2048, 2048, F32), 0.0, &q, &acc);
    /* the elementwise forms take their strides from `st`: the repeat's own (even negative
       ones, as the face passes them) are not read */
    asc_twin_repeat neg = {1, 8, 0, 0, 1, -1, -1, -1};
    asc_twin_l0_strides plain = {{1, 1, 1}, {8, 8, 8}};
    g_rc[3] = asc_twin_level0("Abs", 0, ASC_TWIN_ABS, tt_ub(4096 + 3072, 256, F32), src(F32), src(F32), 0.0, &neg, &plain);
    /* Muls over half with a bitmask of lanes 0, 5 and 127 */
    for (int i = 0; i < 128; i++) asc_twin_set_value(tt_ub(0, 256, F16), (uint64_t)i, i);
    asc_twin_repeat m = {2, 0, 1ull << 63, 0x21, 1, 0, 0, 0};
    asc_twin_l0_strides one = {{1, 1, 1}, {8, 8, 8}};
    asc_twin_ub_ref none = {NULL, 0, F16};
    g_rc[2] = asc_twin_level0("Muls", 2, ASC_TWIN_MULS, tt_ub(4096 + 2048, 256, F16), tt_ub(0, 256, F16), none, -2.0,
                              &m, &one);
    take();
}

MG_TEST(level0_elementwise_strides) {
    expect_ok(l0_strided);
    for (int i = 0; i < 4; i++) MG_CHECK_EQ_INT(g_rc[i], 0);
    for (int j = 0; j < 8; j++) MG_CHECK(dst_f(768 + j) == fabsf(ramp_v(j)));
    MG_CHECK_EQ_INT(dst_u32(768 + 8), 0x77777777u);
    for (int rep = 0; rep < 2; rep++)
        for (int j = 0; j < 12; j++) {
            int s0 = rep * 32 + (j / 8) * 16 + j % 8, s1 = rep * 64 + j, d = rep * 24 + j;
            float want = ramp_v(s0) - 0.5f * (float)s1;
            if (dst_f(d) != want) MG_FAIL("Sub repeat %d lane %d: %g, expected %g", rep, j, (double)dst_f(d), (double)want);
        }
    /* lanes 12..15 of each repeat's second block are inactive: untouched */
    for (int rep = 0; rep < 2; rep++)
        for (int j = 12; j < 24; j++) MG_CHECK_EQ_INT(dst_u32(rep * 24 + j), 0x77777777u);
    MG_CHECK_EQ_INT(dst_u32(48), 0x77777777u);
    for (int j = 0; j < 8; j++) MG_CHECK(dst_f(256 + j) == 100.0f + 0.5f * (float)(j + (8 + j) + (16 + j)));
    for (int j = 0; j < 128; j++) {
        uint16_t h = dst_u16(1024 + j);
        uint16_t want = j == 0 ? 0x8000 : j == 5 ? 0xc900 : j == 127 ? 0xdbf0 : 0x7777; /* -0, -10, -254 */
        if (h != want) MG_FAIL("Muls lane %d: 0x%04x, expected 0x%04x", j, h, want);
    }
}

/* lanes that leave out lane 0: lanes 1, 2 and 63 of a float Adds; the others untouched */
static void l0_no_lane0(uint8_t *const *a) {
    (void)a;
    ramp();
    asc_twin_repeat r = {2, 0, 0, (1ull << 63) | 0x6, 1, 0, 0, 0};
    asc_twin_l0_strides st = {{1, 1, 1}, {8, 8, 8}};
    asc_twin_ub_ref none = {NULL, 0, F32};
    g_rc[0] = asc_twin_level0("Adds", 2, ASC_TWIN_ADDS, dst(F32), src(F32), none, 0.5, &r, &st);
}
/* the destination must hold the last active lane (63): 252 bytes are one float short */
static void l0_last_lane_room(uint8_t *const *a) {
    (void)a;
    ramp();
    asc_twin_repeat r = {2, 0, 0, (1ull << 63) | 0x6, 1, 0, 0, 0};
    asc_twin_l0_strides st = {{1, 1, 1}, {8, 8, 8}};
    asc_twin_ub_ref none = {NULL, 0, F32};
    g_rc[0] = asc_twin_level0("Adds", 2, ASC_TWIN_ADDS, tt_ub(4096, 252, F32), src(F32), none, 0.5, &r, &st);
}
/* no lane at all: nothing is read, written or checked (even a misaligned source) */
static void whole_no_lane_misaligned(uint8_t *const *a) {
    (void)a;
    asc_twin_repeat r = {2, 0, 0, 0, 1, 1, 1, 8};
    g_rc[0] = asc_twin_whole_reduce("WholeReduceSum", ASC_TWIN_REDUCE_SUM, dst(F32), tt_ub(4, 4092, F32), &r,
                                    ASC_TWIN_ORDER_ONLY_VALUE);
    asc_twin_l0_strides st = {{1, 1, 1}, {8, 8, 8}};
    g_rc[1] = asc_twin_level0("Exp", 0, ASC_TWIN_EXP, dst(F32), tt_ub(4, 4092, F32), tt_ub(4, 4092, F32), 0.0, &r, &st);
}

MG_TEST(level0_lanes_away_from_lane_0) {
    expect_ok(l0_no_lane0);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    MG_CHECK_EQ_INT(dst_u32(0), 0x77777777u);
    MG_CHECK(dst_f(1) == ramp_v(1) + 0.5f);
    MG_CHECK(dst_f(2) == ramp_v(2) + 0.5f);
    for (int j = 3; j < 63; j++) MG_CHECK_EQ_INT(dst_u32(j), 0x77777777u);
    MG_CHECK(dst_f(63) == ramp_v(63) + 0.5f);
    expect_refused(l0_last_lane_room,
                   "twin_red block 0: Adds: count 64 elements (256 bytes) exceeds the destination tensor's 252 bytes");
    expect_ok(whole_no_lane_misaligned);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    MG_CHECK_EQ_INT(g_rc[1], 0);
    MG_CHECK_EQ_INT(dst_u32(0), 0x77777777u);
}

/* The first lane a bitmask lets through is lane 3, and it holds the maximum (the minimum,
   in a second source): each index is 3, its own lane's (seed 44: the first lane folded in
   kept index 0, which a mask never let through). Lanes 0-2, masked off, hold larger (and
   smaller) values that must not count. */
static void whole_first_lane_not_0(uint8_t *const *a) {
    (void)a;
    asc_twin_ub_ref low = tt_ub(2048, 2048, F32);
    for (int i = 0; i < 64; i++) {
        put_f(i, i < 3 ? 500.0f : i == 3 ? 100.0f : (float)(i % 7));
        asc_twin_set_value(low, (uint64_t)i, i < 3 ? -500.0 : i == 3 ? -100.0 : (double)(i % 5));
    }
    asc_twin_repeat r = {2, 0, 0, 0xF8, 1, 1, 1, 8}; /* lanes 3-7 */
    g_rc[0] = asc_twin_whole_reduce("WholeReduceMax", ASC_TWIN_REDUCE_MAX, dst(F32), src(F32), &r,
                                    ASC_TWIN_ORDER_VALUE_INDEX);
    g_rc[1] = asc_twin_whole_reduce("WholeReduceMin", ASC_TWIN_REDUCE_MIN, tt_ub(4096 + 1024, 1024, F32), low, &r,
                                    ASC_TWIN_ORDER_VALUE_INDEX);
    take();
}

MG_TEST(whole_reduce_index_of_a_first_lane_past_lane_0) {
    expect_ok(whole_first_lane_not_0);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    MG_CHECK_EQ_INT(g_rc[1], 0);
    MG_CHECK(dst_f(0) == 100.0f);
    MG_CHECK_EQ_INT(dst_u32(1), 3);
    MG_CHECK(dst_f(256) == -100.0f);
    MG_CHECK_EQ_INT(dst_u32(257), 3);
}

/* ---- refusals ------------------------------------------------------------------------------------ */

static asc_twin_repeat g_rp;
static void whole_call(uint8_t *const *a) {
    (void)a;
    for (int i = 0; i < 1024; i++) asc_twin_set_value(src(F32), (uint64_t)i, 1.0);
    g_rc[0] = asc_twin_whole_reduce("WholeReduceMax", ASC_TWIN_REDUCE_MAX, dst(F32), src(F32), &g_rp,
                                    ASC_TWIN_ORDER_VALUE_INDEX);
}
static void whole_half(uint8_t *const *a) {
    (void)a;
    for (int i = 0; i < 1024; i++) asc_twin_set_value(src(F16), (uint64_t)i, 1.0);
    g_rc[0] = asc_twin_whole_reduce("WholeReduceSum", ASC_TWIN_REDUCE_SUM, dst(F16), src(F16), &g_rp,
                                    ASC_TWIN_ORDER_ONLY_VALUE);
}
static void unknown_op(uint8_t *const *a) {
    (void)a;
    asc_twin_repeat r = {1, 8, 0, 0, 1, 1, 1, 8};
    g_rc[0] = asc_twin_whole_reduce("WholeReduce", (asc_twin_reduce_op)3, dst(F32), src(F32), &r, ASC_TWIN_ORDER_ONLY_VALUE);
}
static void unknown_order(uint8_t *const *a) {
    (void)a;
    asc_twin_repeat r = {1, 8, 0, 0, 1, 1, 1, 8};
    g_rc[0] = asc_twin_whole_reduce("WholeReduceMin", ASC_TWIN_REDUCE_MIN, dst(F32), src(F32), &r,
                                    (asc_twin_reduce_order)4);
}
static void bf16_type(uint8_t *const *a) {
    (void)a;
    asc_twin_repeat r = {1, 8, 0, 0, 1, 1, 1, 8};
    g_rc[0] = asc_twin_block_reduce("BlockReduceSum", ASC_TWIN_REDUCE_SUM, dst(ASC_TWIN_BF16), src(ASC_TWIN_BF16), &r);
}
static void mixed_type(uint8_t *const *a) {
    (void)a;
    asc_twin_repeat r = {1, 8, 0, 0, 1, 1, 1, 8};
    g_rc[0] = asc_twin_block_reduce("BlockReduceSum", ASC_TWIN_REDUCE_SUM, dst(F16), src(F32), &r);
}
static void count_zero(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_reduce("ReduceSum", ASC_TWIN_REDUCE_SUM, dst(F32), src(F32), 0, 0);
}
static void count_unknown(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_reduce("Reduce", (asc_twin_reduce_op)3, dst(F32), src(F32), 4, 0);
}
static void count_mixed(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_reduce("ReduceMax", ASC_TWIN_REDUCE_MAX, dst(F32), src(F16), 4, 0);
}
static void count_i32(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_reduce("ReduceMax", ASC_TWIN_REDUCE_MAX, dst(ASC_TWIN_I32), src(ASC_TWIN_I32), 4, 0);
}
/* with calIndex the destination holds two elements */
static void count_index_room(uint8_t *const *a) {
    (void)a;
    for (int i = 0; i < 4; i++) put_f(i, 1.0f);
    g_rc[0] = asc_twin_reduce("ReduceMax", ASC_TWIN_REDUCE_MAX, tt_ub(4096, 4, F32), src(F32), 4, 1);
}
static void count_sum_room(uint8_t *const *a) { /* a sum's index is never written: one element is room enough */
    (void)a;
    for (int i = 0; i < 4; i++) put_f(i, 1.0f);
    g_rc[0] = asc_twin_reduce("ReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(4096, 4, F32), src(F32), 4, 1);
}
/* level 0: 8 results of WholeReduceMax (value, index) at stride 1 need 16 floats of room */
static void whole_dst_room(uint8_t *const *a) {
    (void)a;
    for (int i = 0; i < 1024; i++) asc_twin_set_value(src(F32), (uint64_t)i, 1.0);
    asc_twin_repeat r = {1, 8, 0, 0, 8, 1, 1, 8};
    g_rc[0] = asc_twin_whole_reduce("WholeReduceMax", ASC_TWIN_REDUCE_MAX, tt_ub(4096, g_count, F32), src(F32), &r,
                                    ASC_TWIN_ORDER_VALUE_INDEX);
}
static void l0_unknown(uint8_t *const *a) {
    (void)a;
    asc_twin_repeat r = {1, 8, 0, 0, 1, 0, 0, 0};
    asc_twin_l0_strides st = {{1, 1, 1}, {8, 8, 8}};
    g_rc[0] = asc_twin_level0("Op", g_kind, (int)g_count, dst(F32), src(F32), src(F32), 0.0, &r, &st);
}
static void l0_negative(uint8_t *const *a) {
    (void)a;
    asc_twin_repeat r = {1, 8, 0, 0, 1, 0, 0, 0};
    asc_twin_l0_strides st = {{1, 1, 1}, {8, 8, 8}};
    if (g_count < 3) st.blk[g_count] = -1;
    else st.rep[g_count - 3] = -2;
    g_rc[0] = asc_twin_level0("Add", 1, ASC_TWIN_ADD, dst(F32), src(F32), src(F32), 0.0, &r, &st);
}
static void l0_mixed(uint8_t *const *a) {
    (void)a;
    asc_twin_repeat r = {1, 8, 0, 0, 1, 0, 0, 0};
    asc_twin_l0_strides st = {{1, 1, 1}, {8, 8, 8}};
    g_rc[0] = asc_twin_level0("Add", 1, ASC_TWIN_ADD, dst(F32), src(F32), src(F16), 0.0, &r, &st);
}

MG_TEST(reduce_refusals) {
    g_rp = (asc_twin_repeat){3, 8, 0, 0, 1, 1, 1, 8};
    expect_refused(whole_call, "twin_red block 0: WholeReduceMax: unknown mask kind 3");
    g_rp = (asc_twin_repeat){-1, 8, 0, 0, 1, 1, 1, 8};
    expect_refused(whole_call, "twin_red block 0: WholeReduceMax: unknown mask kind -1");
    g_rp = (asc_twin_repeat){1, 8, 0, 0, 1, -1, 0, 0};
    expect_refused(whole_call, "twin_red block 0: WholeReduceMax: negative stride (dstRepStride -1, srcBlkStride 0, "
                               "srcRepStride 0)");
    g_rp = (asc_twin_repeat){1, 8, 0, 0, 1, 0, -1, 0};
    expect_refused(whole_call, "twin_red block 0: WholeReduceMax: negative stride (dstRepStride 0, srcBlkStride -1, "
                               "srcRepStride 0)");
    g_rp = (asc_twin_repeat){1, 8, 0, 0, 1, 0, 0, -1};
    expect_refused(whole_call, "twin_red block 0: WholeReduceMax: negative stride (dstRepStride 0, srcBlkStride 0, "
                               "srcRepStride -1)");
    g_rp = (asc_twin_repeat){1, 8, 0, 0, 256, 1, 1, 0};
    expect_refused(whole_call, "twin_red block 0: WholeReduceMax: repeatTime 256 outside [0, 255]");
    g_rp = (asc_twin_repeat){1, 8, 0, 0, -1, 1, 1, 0};
    expect_refused(whole_call, "twin_red block 0: WholeReduceMax: repeatTime -1 outside [0, 255]");
    g_rp = (asc_twin_repeat){1, 8, 0, 0, 255, 1, 1, 0}; /* 255 repeats over the same 8 lanes */
    expect_ok(whole_call);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    g_rp = (asc_twin_repeat){1, 8, 0, 0, 0, 1, 1, 0}; /* 0 repeats: nothing */
    expect_ok(whole_call);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    g_rp = (asc_twin_repeat){1, 0, 0, 0, 1, 1, 1, 0};
    expect_refused(whole_call, "twin_red block 0: WholeReduceMax: mask 0 outside [1, 64] for 4-byte elements");
    g_rp = (asc_twin_repeat){1, 65, 0, 0, 1, 1, 1, 0};
    expect_refused(whole_call, "twin_red block 0: WholeReduceMax: mask 65 outside [1, 64] for 4-byte elements");
    g_rp = (asc_twin_repeat){1, 129, 0, 0, 1, 1, 1, 0};
    expect_refused(whole_half, "twin_red block 0: WholeReduceSum: mask 129 outside [1, 128] for 2-byte elements");
    g_rp = (asc_twin_repeat){2, 0, 0, 0, 1, 1, 1, 0}; /* no lane at all: nothing, no error */
    expect_ok(whole_half);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    expect_refused(unknown_op, "twin_red block 0: WholeReduce: unknown reduction 3 or order 2");
    expect_refused(unknown_order, "twin_red block 0: WholeReduceMin: unknown reduction 2 or order 4");
    expect_refused(bf16_type,
                   "twin_red block 0: BlockReduceSum: type bfloat16_t is not one this instruction takes (half, float)");
    expect_refused(mixed_type, "twin_red block 0: BlockReduceSum: destination half and source float differ (the "
                               "instruction takes one type)");
    expect_refused(count_zero, "twin_red block 0: ReduceSum: count 0: nothing to reduce");
    expect_refused(count_unknown, "twin_red block 0: Reduce: unknown reduction 3");
    expect_refused(count_mixed, "twin_red block 0: ReduceMax: destination float and source half differ (the "
                                "instruction takes one type)");
    expect_refused(count_i32,
                   "twin_red block 0: ReduceMax: type int32_t is not one this instruction takes (half, float)");
    expect_refused(count_index_room,
                   "twin_red block 0: ReduceMax: count 4 elements (8 bytes) exceeds the destination tensor's 4 bytes");
    expect_ok(count_sum_room);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    g_count = 64;
    expect_ok(whole_dst_room);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    g_count = 63;
    expect_refused(whole_dst_room,
                   "twin_red block 0: WholeReduceMax: count 16 elements (64 bytes) exceeds the destination tensor's 63 bytes");
    /* the level-0 elementwise forms */
    static const struct {
        int kind, op;
    } unknown[] = {{0, ASC_TWIN_NOT}, {0, ASC_TWIN_UNARY_COUNT}, {1, ASC_TWIN_AND}, {1, ASC_TWIN_OR},
                   {1, ASC_TWIN_BINARY_COUNT}, {2, ASC_TWIN_SHIFT_LEFT}, {2, ASC_TWIN_SHIFT_RIGHT},
                   {2, ASC_TWIN_SCALAR_COUNT}, {3, 0}, {0, -1}};
    for (size_t k = 0; k < sizeof unknown / sizeof unknown[0]; k++) {
        g_kind = unknown[k].kind, g_count = (uint64_t)unknown[k].op;
        char want[160];
        snprintf(want, sizeof want, "twin_red block 0: Op: instruction %d of kind %d has no level-0 float form in the twin",
                 unknown[k].op, unknown[k].kind);
        expect_refused(l0_unknown, want);
    }
    for (g_count = 0; g_count < 6; g_count++) {
        char want[160];
        int o = (int)(g_count % 3);
        snprintf(want, sizeof want, "twin_red block 0: Add: negative stride (operand %d: block %d, repeat %d)", o,
                 g_count < 3 ? -1 : 1, g_count < 3 ? 8 : -2);
        expect_refused(l0_negative, want);
    }
    expect_refused(l0_mixed, "twin_red block 0: Add: destination float and source half differ (the instruction takes "
                             "one type)");
}

MG_TEST_MAIN()

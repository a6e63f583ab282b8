/*
 * tests/ascendc/test_twin_more.c: the instructions ops-nn's kernels need beyond the seed's
 * (tools/twin_kernel_survey.py): Sign, Floor, Power, Divs, MulAddDst, the count-form
 * ReduceSum/Max/Min, InitGlobalMemory, ScalarCast; the level-0 mask state and the
 * WholeReduce / BlockReduce / elementwise repeat forms. Each value against a reference
 * computed here (double, or the IEEE float operation the API names), each rule with its
 * message.
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
enum { N = 256 };

/* The scenario a launch runs (set before the synchronous launch, read by its one block).
   args[0]: x (N floats), args[1]: y (N floats), args[2]: out (8 * N floats). */
typedef void (*scenario_fn)(uint8_t *const *args);
static scenario_fn g_scenario;
static void dispatch(uint8_t *const *args) { g_scenario(args); }
static const asc_twin_kernel k_more = {"twin_more", 0, 3, dispatch};
static float *g_x, *g_y, *g_out;

static int run(scenario_fn s, char *msg, size_t size) {
    g_scenario = s;
    uint8_t *args[3] = {(uint8_t *)g_x, (uint8_t *)g_y, (uint8_t *)g_out};
    int status = tt_run(&k_more, 1, args, 3, msg, size);
    if (status != 0) fprintf(stderr, "  (launch: %s)\n", msg);
    return status;
}
static void setup(void) {
    static int done;
    if (done) return;
    done = 1;
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    g_x = asc_twin_gm_alloc(N * 4);
    g_y = asc_twin_gm_alloc(N * 4);
    g_out = asc_twin_gm_alloc(8 * N * 4);
    for (int i = 0; i < N; i++) {
        g_x[i] = (float)(i - 100) * 0.0625f + 0.03125f; /* no integer: Floor and Sign move */
        g_y[i] = (float)(i % 7) * 0.375f - 0.5f;
    }
    g_x[100] = 0.0f;
    g_x[101] = -0.0f;
}

/* UB layout: x at 0, y at 1024, results from 2048 in rows of N floats */
static asc_twin_ub_ref ub_x(void) { return tt_ub(0, N * 4, F32); }
static asc_twin_ub_ref ub_y(void) { return tt_ub(1024, N * 4, F32); }
static asc_twin_ub_ref row(int r) { return tt_ub(2048 + (uint64_t)r * N * 4, N * 4, F32); }
/* x and y in, the result rows filled with a sentinel (what a call leaves unwritten stays -7;
   copying out never-written UB would be reported) */
static void load_xy(uint8_t *const *a) {
    asc_twin_duplicate(tt_ub(2048, 8 * N * 4, F32), -7.0, 8 * N);
    asc_twin_copy_gm_to_ub(ub_x(), tt_gm(a[0], N * 4, F32), N);
    asc_twin_copy_gm_to_ub(ub_y(), tt_gm(a[1], N * 4, F32), N);
}
static void store_rows(uint8_t *const *a, int rows) {
    asc_twin_copy_ub_to_gm(tt_gm(a[2], 8 * N * 4, F32), tt_ub(2048, (uint64_t)rows * N * 4, F32), (uint64_t)rows * N);
}

/* ---- elementwise ------------------------------------------------------------------------ */
static void elementwise(uint8_t *const *a) {
    load_xy(a);
    asc_twin_unary("Sign", ASC_TWIN_SIGN, row(0), ub_x(), N);
    asc_twin_unary("Floor", ASC_TWIN_FLOOR, row(1), ub_x(), N);
    asc_twin_unary("Abs", ASC_TWIN_ABS, row(2), ub_x(), N);
    asc_twin_binary("Power", ASC_TWIN_POWER, row(2), row(2), ub_y(), N); /* |x|^y */
    asc_twin_scalar("Divs", ASC_TWIN_DIVS, row(3), ub_x(), 3.0, N);
    asc_twin_scalar("Power", ASC_TWIN_POWER_TS, row(4), ub_y(), 2.5, N); /* y^2.5 (NaN below 0) */
    asc_twin_scalar("Power", ASC_TWIN_POWER_ST, row(5), ub_x(), 2.0, N); /* 2^x */
    asc_twin_duplicate(row(6), 0.1, N);
    asc_twin_mul_add_dst(row(6), ub_x(), ub_y(), N); /* x * y + 0.1 */
    store_rows(a, 7);
}

MG_TEST(sign_floor_power_divs_muladddst_against_references) {
    setup();
    char msg[512];
    MG_CHECK_EQ_INT(run(elementwise, msg, sizeof msg), 0);
    double worst_pow = 0;
    int sign_ok = 1, floor_ok = 1, divs_ok = 1, mad_ok = 1;
    for (int i = 0; i < N; i++) {
        float x = g_x[i], y = g_y[i];
        const float *o = g_out;
        float want_sign = x > 0 ? 1.0f : x < 0 ? -1.0f : x;
        sign_ok &= memcmp(&o[i], &want_sign, 4) == 0; /* the zero's sign kept */
        floor_ok &= o[N + i] == (float)floor((double)x);
        divs_ok &= o[3 * N + i] == x / 3.0f; /* IEEE float division */
        float p = x * y, want_mad = p + 0.1f;  /* two roundings: the product's, the sum's */
        mad_ok &= o[6 * N + i] == want_mad;
        double refs[3] = {pow(fabs((double)x), (double)y), pow((double)y, 2.5), pow(2.0, (double)x)};
        for (int k = 0; k < 3; k++) {
            float got = o[(k == 0 ? 2 : 3 + k) * N + i];
            if (isnan(refs[k])) {
                if (!isnan(got)) worst_pow = 1e30;
                continue;
            }
            double e = tt_ulp_f32(got, refs[k]);
            if (e > worst_pow) worst_pow = e;
        }
    }
    MG_CHECK(sign_ok);
    MG_CHECK(floor_ok);
    MG_CHECK(divs_ok);
    MG_CHECK(mad_ok);
    MG_CHECK(worst_pow <= 0.5); /* pow in double, rounded once: correctly rounded on these */
}

/* ---- count-form reductions ------------------------------------------------------------- */
static void reductions(uint8_t *const *a) {
    enum { M = 1000 };
    asc_twin_ub_ref s = tt_ub(0, M * 4, F32);
    asc_twin_duplicate(tt_ub(4096, 128, F32), -7.0, 32);
    /* 1, then 999 times 2^-24: a float running sum never leaves 1 */
    asc_twin_duplicate(s, 0x1p-24, M);
    asc_twin_set_value(s, 0, 1.0);
    asc_twin_reduce("ReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(4096, 32, F32), s, M, 0);
    /* max 7 first at 617 and again at 800, min -3 at 5 */
    asc_twin_set_value(s, 617, 7.0);
    asc_twin_set_value(s, 800, 7.0);
    asc_twin_set_value(s, 5, -3.0);
    asc_twin_reduce("ReduceMax", ASC_TWIN_REDUCE_MAX, tt_ub(4128, 32, F32), s, M, 1);
    asc_twin_reduce("ReduceMin", ASC_TWIN_REDUCE_MIN, tt_ub(4160, 32, F32), s, M, 1);
    /* half: the max index in a 16-bit lane */
    asc_twin_ub_ref h = tt_ub(8192, 200 * 2, ASC_TWIN_F16);
    asc_twin_duplicate(h, -1.5, 200);
    asc_twin_set_value(h, 123, 2.5);
    asc_twin_reduce("ReduceMax", ASC_TWIN_REDUCE_MAX, tt_ub(4192, 32, ASC_TWIN_F16), h, 200, 1);
    asc_twin_copy_ub_to_gm(tt_gm(a[2], 8 * N * 4, F32), tt_ub(4096, 128, F32), 32);
}
static void reduce_count0(uint8_t *const *a) {
    (void)a;
    asc_twin_duplicate(tt_ub(0, 64, F32), 1.0, 16);
    asc_twin_reduce("ReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(64, 32, F32), tt_ub(0, 64, F32), 0, 0);
}
static void reduce_unwritten(uint8_t *const *a) { /* 15 of 16 written: the sum is not */
    (void)a;
    double v;
    asc_twin_duplicate(tt_ub(0, 64, F32), 1.0, 15);
    asc_twin_reduce("ReduceSum", ASC_TWIN_REDUCE_SUM, tt_ub(64, 32, F32), tt_ub(0, 64, F32), 16, 0);
    asc_twin_get_value(tt_ub(64, 32, F32), 0, &v);
}

MG_TEST(reduce_sum_max_min_count_form) {
    setup();
    char msg[512];
    MG_CHECK_EQ_INT(run(reductions, msg, sizeof msg), 0);
    const float *o = g_out;
    MG_CHECK(o[0] == (float)(1.0 + 999.0 * 0x1p-24)); /* in double, rounded once */
    uint32_t idx;
    MG_CHECK(o[8] == 7.0f);
    memcpy(&idx, &o[9], 4);
    MG_CHECK_EQ_INT((int)idx, 617); /* the first of the two */
    MG_CHECK(o[16] == -3.0f);
    memcpy(&idx, &o[17], 4);
    MG_CHECK_EQ_INT((int)idx, 5);
    uint16_t hv[2];
    memcpy(hv, &o[24], 4);
    MG_CHECK_EQ_INT(hv[0], 0x4100); /* 2.5 in half */
    MG_CHECK_EQ_INT(hv[1], 123);
    MG_CHECK_EQ_INT(run(reduce_count0, msg, sizeof msg), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_STR_CONTAINS(msg, "twin_more block 0: ReduceSum: count 0: nothing to reduce");
    MG_CHECK_EQ_INT(run(reduce_unwritten, msg, sizeof msg), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_STR_CONTAINS(msg, "GetValue: 4 of the 4 bytes element 0 gives to a scalar were never written");
}

/* ---- level 0: the mask state and the reductions ------------------------------------------ */
static void l0_whole_normal(uint8_t *const *a) {
    load_xy(a);
    /* contiguous mask 10, 3 repeats of 64 floats: dst[r] = x[64r .. 64r + 9] summed */
    asc_twin_repeat rp = {1, 10, 0, 0, 3, 1, 1, 8};
    asc_twin_whole_reduce("WholeReduceSum", ASC_TWIN_REDUCE_SUM, row(0), ub_x(), &rp, ASC_TWIN_ORDER_ONLY_VALUE);
    /* bitwise mask: lanes 4..7 and 40..47, value and index per repeat */
    asc_twin_repeat bp = {2, 0, 0, 0x0000ff00000000f0ull, 2, 1, 1, 8};
    asc_twin_whole_reduce("WholeReduceMax", ASC_TWIN_REDUCE_MAX, row(1), ub_y(), &bp, ASC_TWIN_ORDER_VALUE_INDEX);
    /* the block's mask (isSetMask = false): lanes 0 and 63 */
    asc_twin_set_vector_mask(0, 0x8000000000000001ull);
    asc_twin_repeat sp = {0, 0, 0, 0, 1, 1, 1, 8};
    asc_twin_whole_reduce("WholeReduceMin", ASC_TWIN_REDUCE_MIN, row(2), ub_x(), &sp, ASC_TWIN_ORDER_ONLY_VALUE);
    /* BlockReduceMax, contiguous mask 64 over 2 repeats: 16 block maxima */
    asc_twin_repeat br = {1, 64, 0, 0, 2, 1, 1, 8};
    asc_twin_block_reduce("BlockReduceMax", ASC_TWIN_REDUCE_MAX, row(3), ub_y(), &br);
    store_rows(a, 4);
}
/* counter mode, log_softmax_v2's way: block sums of 203 floats, then the whole sum */
static void l0_counter(uint8_t *const *a) {
    load_xy(a);
    asc_twin_set_mask_counter(1);
    asc_twin_set_vector_mask(0, 203);
    asc_twin_repeat rp = {0, 0, 0, 0, 1 /* ignored */, 1, 1, 8};
    asc_twin_block_reduce("BlockReduceSum", ASC_TWIN_REDUCE_SUM, row(0), ub_x(), &rp);
    asc_twin_set_vector_mask(0, 26);
    asc_twin_whole_reduce("WholeReduceSum", ASC_TWIN_REDUCE_SUM, row(1), row(0), &rp, ASC_TWIN_ORDER_ONLY_VALUE);
    if (!asc_twin_mask_counter()) asc_twin_report("test", "counter mode lost");
    asc_twin_set_mask_counter(0);
    asc_twin_reset_mask();
    uint64_t hi, lo;
    asc_twin_vector_mask(&hi, &lo);
    if (hi != UINT64_MAX || lo != UINT64_MAX) asc_twin_report("test", "ResetMask left %llx:%llx", (unsigned long long)hi,
                                                            (unsigned long long)lo);
    store_rows(a, 2);
}
/* the elementwise level-0 form accumulating into a destination of repeat stride 0 */
static void l0_accumulate(uint8_t *const *a) {
    load_xy(a);
    asc_twin_duplicate(row(0), 0.25, 64);
    asc_twin_repeat rp = {1, 64, 0, 0, 4, 0, 0, 0};
    asc_twin_l0_strides st = {{1, 1, 1}, {0, 8, 0}};
    asc_twin_level0("Add", 1, ASC_TWIN_ADD, row(0), ub_x(), row(0), 0.0, &rp, &st);
    /* Muls over lanes 0..15 of 2 repeats, the rest of each repeat untouched */
    asc_twin_duplicate(row(1), 9.0, N);
    asc_twin_repeat mp = {1, 16, 0, 0, 2, 0, 0, 0};
    asc_twin_l0_strides us = {{1, 1, 0}, {8, 8, 0}};
    asc_twin_level0("Muls", 2, ASC_TWIN_MULS, row(1), ub_y(), ub_y(), 2.0, &mp, &us);
    store_rows(a, 2);
}
static void l0_repeat_break(uint8_t *const *a) {
    load_xy(a);
    asc_twin_repeat rp = {1, 8, 0, 0, 256, 1, 1, 8};
    asc_twin_whole_reduce("WholeReduceSum", ASC_TWIN_REDUCE_SUM, row(0), ub_x(), &rp, ASC_TWIN_ORDER_ONLY_VALUE);
}
static void l0_mask_break(uint8_t *const *a) {
    load_xy(a);
    asc_twin_repeat rp = {1, 65, 0, 0, 1, 1, 1, 8};
    asc_twin_block_reduce("BlockReduceSum", ASC_TWIN_REDUCE_SUM, row(0), ub_x(), &rp);
}
static void l0_extent_break(uint8_t *const *a) { /* the 5th repeat of 64 floats is past x's 256 */
    load_xy(a);
    asc_twin_repeat rp = {1, 64, 0, 0, 5, 1, 1, 8};
    asc_twin_whole_reduce("WholeReduceSum", ASC_TWIN_REDUCE_SUM, row(0), ub_x(), &rp, ASC_TWIN_ORDER_ONLY_VALUE);
}
static void l0_extent_inside(uint8_t *const *a) {
    load_xy(a);
    asc_twin_repeat rp = {1, 64, 0, 0, 4, 1, 1, 8};
    asc_twin_whole_reduce("WholeReduceSum", ASC_TWIN_REDUCE_SUM, row(0), ub_x(), &rp, ASC_TWIN_ORDER_ONLY_VALUE);
}

MG_TEST(level0_whole_and_block_reduce_normal_mode) {
    setup();
    char msg[512];
    MG_CHECK_EQ_INT(run(l0_whole_normal, msg, sizeof msg), 0);
    const float *o = g_out, *x = g_x, *y = g_y;
    for (int r = 0; r < 3; r++) {
        double s = 0;
        for (int j = 0; j < 10; j++) s += x[64 * r + j];
        MG_CHECK(o[r] == (float)s);
    }
    for (int r = 0; r < 2; r++) {
        float best = -INFINITY;
        int at = -1;
        for (int j = 0; j < 64; j++) {
            int on = (j >= 4 && j < 8) || (j >= 40 && j < 48);
            if (on && y[64 * r + j] > best) best = y[64 * r + j], at = j;
        }
        uint32_t idx;
        memcpy(&idx, &o[N + 2 * r + 1], 4);
        MG_CHECK(o[N + 2 * r] == best);
        MG_CHECK_EQ_INT((int)idx, at);
    }
    MG_CHECK(o[2 * N] == fminf(x[0], x[63]));
    for (int b = 0; b < 16; b++) {
        float m = -INFINITY;
        for (int j = 0; j < 8; j++) m = fmaxf(m, y[8 * b + j]);
        MG_CHECK(o[3 * N + b] == m);
    }
}

MG_TEST(level0_counter_mode_reduces_a_count_over_its_repeats) {
    setup();
    char msg[512];
    int status = run(l0_counter, msg, sizeof msg);
    if (status != 0) MG_FAIL("%s", msg);
    MG_CHECK_EQ_INT(status, 0);
    const float *o = g_out, *x = g_x;
    double total = 0;
    for (int b = 0; b < 26; b++) {
        double s = 0;
        for (int j = 8 * b; j < 8 * b + 8 && j < 203; j++) s += x[j];
        MG_CHECK(o[b] == (float)s);
        total += (float)s;
    }
    MG_CHECK(o[N] == (float)total);
}

MG_TEST(level0_elementwise_repeats_in_order) {
    setup();
    char msg[512];
    MG_CHECK_EQ_INT(run(l0_accumulate, msg, sizeof msg), 0);
    const float *o = g_out, *x = g_x, *y = g_y;
    for (int j = 0; j < 64; j++) {
        float acc = 0.25f;
        for (int r = 0; r < 4; r++) acc = x[64 * r + j] + acc;
        MG_CHECK(o[j] == acc);
    }
    for (int i = 0; i < N; i++) {
        int on = i < 128 && (i % 64) < 16;
        MG_CHECK(o[N + i] == (on ? y[i] * 2.0f : 9.0f));
    }
}

MG_TEST(level0_rules) {
    setup();
    char msg[512];
    MG_CHECK_EQ_INT(run(l0_repeat_break, msg, sizeof msg), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_STR_CONTAINS(msg, "twin_more block 0: WholeReduceSum: repeatTime 256 outside [0, 255]");
    MG_CHECK_EQ_INT(run(l0_mask_break, msg, sizeof msg), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_STR_CONTAINS(msg, "BlockReduceSum: mask 65 outside [1, 64] for 4-byte elements");
    MG_CHECK_EQ_INT(run(l0_extent_break, msg, sizeof msg), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_STR_CONTAINS(msg, "WholeReduceSum: count 320 elements (1280 bytes) exceeds the source tensor's 1024 bytes");
    MG_CHECK_EQ_INT(run(l0_extent_inside, msg, sizeof msg), 0);
}

/* ---- InitGlobalMemory, ScalarCast ------------------------------------------------------- */
static void gm_fill(uint8_t *const *a) { asc_twin_gm_fill(tt_gm(a[2], 100 * 4, F32), 100, 2.5); }
static void gm_fill_break(uint8_t *const *a) { asc_twin_gm_fill(tt_gm(a[2], 100 * 4, F32), 101, 2.5); }
static void scalar_casts(uint8_t *const *a) {
    double v[6] = {0};
    asc_twin_scalar_cast(1.0f + 0x1p-12f, ASC_TWIN_F16, ASC_TWIN_CAST_ODD, &v[0]);
    asc_twin_scalar_cast(1.0f + 0x1p-12f, ASC_TWIN_F16, ASC_TWIN_CAST_RINT, &v[1]);
    asc_twin_scalar_cast(2.5f, ASC_TWIN_I32, ASC_TWIN_CAST_ROUND, &v[2]);
    asc_twin_scalar_cast(2.5f, ASC_TWIN_I32, ASC_TWIN_CAST_RINT, &v[3]);
    asc_twin_scalar_cast(1.0f + 0x1p-8f, ASC_TWIN_BF16, ASC_TWIN_CAST_RINT, &v[4]); /* a tie: to even, 1 */
    asc_twin_scalar_cast(-2.5f, ASC_TWIN_I32, ASC_TWIN_CAST_FLOOR, &v[5]);
    for (int i = 0; i < 6; i++) asc_twin_gm_set_value(tt_gm(a[2], 8 * N * 4, F32), (uint64_t)i, v[i]);
}
static void scalar_cast_break(uint8_t *const *a) {
    (void)a;
    double v;
    asc_twin_scalar_cast(1.0f, ASC_TWIN_U8, ASC_TWIN_CAST_RINT, &v);
}

MG_TEST(init_global_memory_and_scalar_cast) {
    setup();
    char msg[512];
    g_out[100] = -1.0f;
    MG_CHECK_EQ_INT(run(gm_fill, msg, sizeof msg), 0);
    int all = 1;
    for (int i = 0; i < 100; i++) all &= g_out[i] == 2.5f;
    MG_CHECK(all);
    MG_CHECK(g_out[100] == -1.0f);
    MG_CHECK_EQ_INT(run(gm_fill_break, msg, sizeof msg), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_STR_CONTAINS(msg, "InitGlobalMemory: GM bytes [0, 404)");
    MG_CHECK(g_out[100] == -1.0f); /* nothing written by the refused fill */
    MG_CHECK_EQ_INT(run(scalar_casts, msg, sizeof msg), 0);
    MG_CHECK(g_out[0] == 1.0f + 0x1p-10f); /* round to odd: truncated, last bit set */
    MG_CHECK(g_out[1] == 1.0f);
    MG_CHECK(g_out[2] == 3.0f);
    MG_CHECK(g_out[3] == 2.0f);
    MG_CHECK(g_out[4] == 1.0f);
    MG_CHECK(g_out[5] == -3.0f);
    MG_CHECK_EQ_INT(run(scalar_cast_break, msg, sizeof msg), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_STR_CONTAINS(msg, "ScalarCast: float to uint8_t in CAST_RINT is not a conversion CANN's Cast supports");
}

MG_TEST_MAIN()

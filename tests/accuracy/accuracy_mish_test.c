/*
 * tests/accuracy/accuracy_mish_test.c: the forward, aclnnMish, through the public API
 * against the one reference (mish_reference.h) and its one tolerance rule: float32 within
 * 2 ulp of the exact mish(x) on every 509th finite pattern and dense windows around every
 * point where the kernel changes formula; float16 and bfloat16: every x within 1 ulp of
 * the correctly rounded result, >= 99.9% correctly rounded; PyTorch's special values.
 * Run once per ISA (MISHGRAD_ISA; skipped where the CPU lacks it).
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "kt_cpu.h"
#include "mg_test.h"
#include "mish_api_runner.h"
#include "mish_ranges.h"
#include "mish_reference.h"

#define BATCH (1 << 20)

static mish_api_runner runner;
static int runner_ready;
static float xs[BATCH], ys[BATCH];

static void close_runner(void) { mish_api_runner_close(&runner); }
static int ensure_runner(void) {
    if (!runner_ready && mish_api_runner_open(&runner, BATCH * sizeof(float)) == 0) {
        runner_ready = 1;
        atexit(close_runner);
    }
    return runner_ready;
}

static double worst_ulp;
static long over_two;

static void run_batch(size_t n) {
    if (n == 0) return;
    MG_CHECK_EQ_INT(mish_api_runner_run(&runner, ACL_FLOAT, NULL, xs, ys, n), 0);
    for (size_t i = 0; i < n; i++) {
        const double err = mish_ref_fwd_ulp_err_ld(ys[i], xs[i]);
        if (err > worst_ulp) worst_ulp = err;
        if (!(err <= 2.0) && over_two++ < 5)
            MG_FAIL("mish(%a) = %a through aclnnMish: %.3f ulp from %.12Lg", (double)xs[i], (double)ys[i], err,
                    mish_ref_fwd_ld(xs[i]));
    }
}

/* the 2^16 consecutive floats around centre */
static void run_window(float centre) {
    const int64_t k = mish_key_of_bits(mish_ref_f32_bits(centre));
    size_t n = 0;
    for (int64_t i = -32768; i < 32768; i++) xs[n++] = mish_ref_f32_from_bits(mish_bits_of_key(k + i));
    run_batch(n);
}

MG_TEST(f32_strided_and_windows_within_two_ulp) {
    MG_CHECK(ensure_runner());
    if (!runner_ready) return;
    size_t n = 0;
    for (int64_t key = MISH_KEY_MIN_FINITE; key <= MISH_KEY_MAX_FINITE; key += 509) {
        xs[n++] = mish_ref_f32_from_bits(mish_bits_of_key(key));
        if (n == BATCH) { run_batch(n); n = 0; }
    }
    run_batch(n);
    static const float centres[] = {-108.7f, -87.34f, -80.0f, -2.0f, -0.3f, 0.0f, 0.625f, 20.0f};
    for (size_t c = 0; c < sizeof centres / sizeof centres[0]; c++) run_window(centres[c]);
    for (size_t c = 0; c < MISH_FWD_TABLE_EDGE_COUNT; c++) run_window(mish_fwd_table_edges[c]);
    printf("  aclnnMish float32: worst %.3f ulp, %ld above 2\n", worst_ulp, over_two);
    MG_CHECK_EQ_INT(over_two, 0);
}

static void all_16bit(aclDataType dtype, uint16_t exp_mask, float (*widen)(uint16_t), uint16_t (*round)(long double, int *)) {
    static uint16_t x[65536], y[65536];
    MG_CHECK(ensure_runner());
    if (!runner_ready) return;
    for (uint32_t i = 0; i < 65536; i++) x[i] = (uint16_t)i;
    MG_CHECK_EQ_INT(mish_api_runner_run(&runner, dtype, NULL, x, y, 65536), 0);
    long finite = 0, exact = 0, worse = 0;
    for (uint32_t i = 0; i < 65536; i++) {
        const float xv = widen(x[i]);
        int tie = 0;
        const uint16_t want = round(mish_ref_fwd_ld(xv), &tie);
        const int32_t d = mish_ref_bits16_distance(y[i], want, exp_mask);
        if (isfinite(xv)) {
            finite++;
            exact += d == 0 || (tie && d == 1);
        }
        if (d > 1 && worse++ < 5) MG_FAIL("x=0x%04x: got 0x%04x, correctly rounded 0x%04x", x[i], y[i], want);
    }
    printf("  %s: %ld of %ld correctly rounded (%.4f%%), %ld more than 1 ulp off\n",
           dtype == ACL_FLOAT16 ? "float16" : "bfloat16", exact, finite, 100.0 * exact / finite, worse);
    MG_CHECK_EQ_INT(worse, 0);
    MG_CHECK((double)exact >= 0.999 * (double)finite);
}

MG_TEST(float16_every_input) { all_16bit(ACL_FLOAT16, 0x7C00, mish_ref_f16_to_f32, mish_ref_round_f16); }
MG_TEST(bfloat16_every_input) { all_16bit(ACL_BF16, 0x7F80, mish_ref_bf16_to_f32, mish_ref_round_bf16); }

MG_TEST(special_values_as_pytorch) {
    MG_CHECK(ensure_runner());
    if (!runner_ready) return;
    const float x[6] = {INFINITY, -INFINITY, NAN, -0.0f, 0.0f, -1e30f};
    float y[6];
    MG_CHECK_EQ_INT(mish_api_runner_run(&runner, ACL_FLOAT, NULL, x, y, 6), 0);
    MG_CHECK(y[0] == INFINITY);
    MG_CHECK(isnan(y[1]) && isnan(y[2]));
    MG_CHECK(y[3] == 0 && signbit(y[3]));
    MG_CHECK(y[4] == 0 && !signbit(y[4]));
    MG_CHECK(y[5] == 0 && signbit(y[5]));
}

KT_SKIP_UNLESS_CPU_HAS_REQUESTED_ISA()

MG_TEST_MAIN()

/*
 * tests/accuracy/accuracy_f16_bf16_test.c: every float16 and bfloat16 input x (all 65536
 * patterns) through the public API, for g = 1 and a set of other g. Issue 4's bound:
 * each result within 1 ulp of the correctly rounded g * mish'(x), and at least 99.9% of
 * them correctly rounded. NaN results must be quiet NaNs. Run once per ISA (MISHGRAD_ISA).
 *
 * The g set includes huge |g| for bfloat16: mish'(x) is a subnormal float32 for x < -87.3,
 * and g = 1e30 lifts it into bfloat16's normal range, where any float32 rounding of it
 * would show.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "kt_cpu.h"
#include "mg_test.h"
#include "mish_api_runner.h"
#include "mish_reference.h"

#define PATTERNS 65536

typedef struct sixteen_bit_format {
    const char *name;
    aclDataType dtype;
    uint16_t exp_mask;
    uint16_t quiet_bit;
    float (*widen)(uint16_t);
    uint16_t (*round)(long double, int *);
} sixteen_bit_format;

static const sixteen_bit_format f16_format = {"float16", ACL_FLOAT16, 0x7C00, 0x0200,
                                              mish_ref_f16_to_f32, mish_ref_round_f16};
static const sixteen_bit_format bf16_format = {"bfloat16", ACL_BF16, 0x7F80, 0x0040,
                                               mish_ref_bf16_to_f32, mish_ref_round_bf16};

static mish_api_runner runner;
static int runner_ready;

static void close_runner(void) { mish_api_runner_close(&runner); }

static int ensure_runner(void) {
    if (!runner_ready && mish_api_runner_open(&runner, PATTERNS * sizeof(uint16_t)) == 0) {
        runner_ready = 1;
        atexit(close_runner);
    }
    return runner_ready;
}

/* All 65536 x for one g; checks the bound and prints the tallies. */
static void check_all_patterns(const sixteen_bit_format *fmt, float g_value) {
    static uint16_t grad[PATTERNS], x[PATTERNS], out[PATTERNS];
    MG_CHECK(ensure_runner());
    if (!runner_ready) return;
    const uint16_t g_bits = fmt->round(g_value, NULL);
    const long double g = fmt->widen(g_bits);
    for (uint32_t i = 0; i < PATTERNS; i++) {
        grad[i] = g_bits;
        x[i] = (uint16_t)i;
    }
    MG_CHECK_EQ_INT(mish_api_runner_run(&runner, fmt->dtype, grad, x, out, PATTERNS), 0);

    long correctly_rounded = 0, off_by_one = 0, violations = 0, near_ties = 0;
    for (uint32_t i = 0; i < PATTERNS; i++) {
        const long double exact = g * mish_ref_grad_ld(fmt->widen(x[i]));
        int near_tie = 0;
        const uint16_t expected = fmt->round(exact, &near_tie);
        int32_t distance = mish_ref_bits16_distance(out[i], expected, fmt->exp_mask);
        const int out_is_nan = (out[i] & fmt->exp_mask) == fmt->exp_mask &&
                               (out[i] & (0x7FFF & ~fmt->exp_mask)) != 0;
        if (out_is_nan && !(out[i] & fmt->quiet_bit)) distance = INT32_MAX; /* signalling */
        near_ties += near_tie;
        /* At a midpoint closer than the reference can resolve, either neighbour is right. */
        if (distance == 0 || (near_tie && distance == 1)) {
            correctly_rounded++;
        } else if (distance == 1) {
            off_by_one++;
        } else {
            if (violations < 8)
                fprintf(stderr, "  %s g=0x%04X x=0x%04X (%.9g): got 0x%04X, correctly rounded 0x%04X\n",
                        fmt->name, g_bits, x[i], (double)fmt->widen(x[i]), out[i], expected);
            violations++;
        }
    }
    const double rate = (double)correctly_rounded / PATTERNS;
    printf("  %-8s g=%-12.6g correctly rounded %5ld (%.4f%%), 1 ulp %ld, worse %ld, near ties %ld\n",
           fmt->name, (double)g, correctly_rounded, 100.0 * rate, off_by_one, violations, near_ties);
    MG_CHECK_EQ_INT(violations, 0);
    MG_CHECK(rate >= 0.999);
}

MG_TEST(float16_g_one) { check_all_patterns(&f16_format, 1.0f); }
MG_TEST(bfloat16_g_one) { check_all_patterns(&bf16_format, 1.0f); }

MG_TEST(float16_other_g) {
    /* 65504 = the largest float16: results above it overflow to inf. 2^-24 = the smallest
       float16 subnormal: every result is subnormal or zero. */
    static const float gs[] = {-1.0f, 0.5f, 3.0f, -0.1f, 1000.0f, 65504.0f, 0x1p-24f, -0x1p-14f};
    for (size_t i = 0; i < sizeof gs / sizeof gs[0]; i++) check_all_patterns(&f16_format, gs[i]);
}

MG_TEST(bfloat16_other_g) {
    /* 2^-120 and -2^-126: results reach bfloat16's subnormals (quantum 2^-133); -3e38
       overflows to -inf wherever mish'(x) > 1.13. */
    static const float gs[] = {-1.0f, 0.5f, 3.0f, -0.1f, 100.0f, 0x1p-120f, -0x1p-126f, 1e30f, -3e38f};
    for (size_t i = 0; i < sizeof gs / sizeof gs[0]; i++) check_all_patterns(&bf16_format, gs[i]);
}

/* run for an ISA the CPU lacks: skipped (77), not passed on another ISA */
KT_SKIP_UNLESS_CPU_HAS_REQUESTED_ISA()

MG_TEST_MAIN()

/*
 * tests/accuracy/accuracy_fp_settings_test.c: the operators' results do not depend on the
 * caller's floating-point settings. The test thread switches to flush-to-zero,
 * denormals-are-zero and upward rounding (what a program linked with -ffast-math, or one
 * that calls fesetround, runs with) before aclInit, so the runtime's threads start with
 * them too. Then aclnnMish and aclnnMishBackward on float32 inputs with subnormal operands
 * and results must be within the reference's bounds (a flushed subnormal is 0, far
 * outside them), give the same bits as the same calls made afterwards under the IEEE
 * defaults, and leave the caller's settings as they were. ctest runs it with 1 and with
 * 2 threads (MISHGRAD_NUM_THREADS). x86-64 and aarch64 (where the flush bits exist);
 * elsewhere it reports a skip.
 */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "mg_test.h"
#include "mish_api_runner.h"
#include "mish_reference.h"

#if defined(__x86_64__)
#include <xmmintrin.h>
#define ODD_SETTINGS_SUPPORTED 1
/* FTZ (bit 15), DAZ (bit 6), round up (RC = 10b, bits 13-14), exceptions masked */
static const unsigned int odd_control = 0x1F80u | (1u << 15) | (1u << 6) | (2u << 13);
static void set_odd(void) { _mm_setcsr(odd_control); }
static void set_defaults(void) { _mm_setcsr(0x1F80u); }
static int odd_in_force(void) { return (_mm_getcsr() & 0xFFC0u) == (odd_control & 0xFFC0u); }
#elif defined(__aarch64__)
#define ODD_SETTINGS_SUPPORTED 1
/* FZ (bit 24) and round towards +inf (RMode = 01b, bits 22-23) */
static const uint64_t odd_control = (1ull << 24) | (1ull << 22);
static void set_fpcr(uint64_t v) { __asm__ volatile("msr fpcr, %0" : : "r"(v)); }
static uint64_t get_fpcr(void) {
    uint64_t v;
    __asm__ volatile("mrs %0, fpcr" : "=r"(v));
    return v;
}
static void set_odd(void) { set_fpcr(odd_control); }
static void set_defaults(void) { set_fpcr(0); }
static int odd_in_force(void) { return (get_fpcr() & ((3ull << 22) | (1ull << 24))) == odd_control; }
#else
#define ODD_SETTINGS_SUPPORTED 0
#endif

#if ODD_SETTINGS_SUPPORTED
enum { N = 4096 };
static float xs[N], gs[N], fwd_odd[N], bwd_odd[N], fwd_default[N], bwd_default[N];

static float from_bits(uint32_t b) {
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* Subnormal x (mish(x) ~ 0.6 x, subnormal), x whose mish is subnormal (around -90 to
   -104), ordinary x, and gradients small enough that g mish'(x) is subnormal. */
static void fill_inputs(void) {
    for (int i = 0; i < N; i++) {
        const int kind = i % 4;
        if (kind == 0) xs[i] = from_bits(1u + (uint32_t)i * 2039u) * (i & 8 ? -1.0f : 1.0f);
        else if (kind == 1) xs[i] = -88.0f - 16.0f * (float)i / (float)N;
        else xs[i] = -8.0f + 16.0f * (float)i / (float)N;
        gs[i] = kind == 3 ? from_bits(0x00400000u + (uint32_t)i) : 1.0f;
    }
}

static int run_both(float *fwd, float *bwd, mish_api_runner *runner) {
    if (mish_api_runner_run(runner, ACL_FLOAT, NULL, xs, fwd, N) != 0) return -1;
    return mish_api_runner_run(runner, ACL_FLOAT, gs, xs, bwd, N);
}
#endif

MG_TEST(results_ignore_the_callers_flush_and_rounding_settings) {
#if !ODD_SETTINGS_SUPPORTED
    MG_SKIP("no flush-to-zero control on this architecture");
#else
    fill_inputs();
    set_odd(); /* before aclInit: the runtime's threads start with these settings */
    mish_api_runner runner;
    MG_CHECK_EQ_INT(mish_api_runner_open(&runner, N * sizeof(float)), 0);
    MG_CHECK_EQ_INT(run_both(fwd_odd, bwd_odd, &runner), 0);
    MG_CHECK(odd_in_force()); /* the caller's settings survive the calls */
    set_defaults();
    MG_CHECK_EQ_INT(run_both(fwd_default, bwd_default, &runner), 0);
    mish_api_runner_close(&runner);

    long bad = 0, subnormal_results = 0;
    for (int i = 0; i < N; i++) {
        const double fwd_err = mish_ref_fwd_ulp_err_ld(fwd_odd[i], xs[i]);
        long double t1, t2;
        mish_ref_terms_ld(xs[i], &t1, &t2);
        const double bwd_err = mish_ref_err_ld(bwd_odd[i], gs[i], t1, t2);
        if (fpclassify(fwd_default[i]) == FP_SUBNORMAL || fpclassify(bwd_default[i]) == FP_SUBNORMAL)
            subnormal_results++;
        const int same_bits = memcmp(&fwd_odd[i], &fwd_default[i], sizeof(float)) == 0 &&
                              memcmp(&bwd_odd[i], &bwd_default[i], sizeof(float)) == 0;
        if ((!(fwd_err <= 2.0) || !(bwd_err <= 1.5) || !same_bits) && bad++ < 5)
            MG_FAIL("x = %a, g = %a: with FTZ/DAZ/round-up mish %a (%.2f ulp), g mish' %a (%.2f); under the "
                    "defaults %a and %a",
                    (double)xs[i], (double)gs[i], (double)fwd_odd[i], fwd_err, (double)bwd_odd[i], bwd_err,
                    (double)fwd_default[i], (double)bwd_default[i]);
    }
    MG_CHECK(subnormal_results > N / 4); /* the inputs do reach the subnormal range */
    MG_CHECK_EQ_INT((int)bad, 0);
#endif
}

MG_TEST_MAIN()

/*
 * tests/kernel/test_mg_exp.c: the shared exp of op_kernel/math/mg_exp.h (through the
 * portable vocabulary; every ISA computes the same bits, which the operators' bit-exact
 * tests check) against expl, over every float32 x in [-87.3, 20] with a small stride and
 * every float near the reduction's boundaries:
 *   mg_exp_rr2_lut16_p3: the unrounded T_j (1 + s') within 2^-27.5 relative, the rounded
 *                        result within 0.55 ulp (measured: 2^-27.63 and 0.549);
 *   mg_exp_rr1_lut16_p2: within 2^-20.3 relative (measured 2^-20.37, at x = -86).
 */
#include <math.h>
#include <stdio.h>

#include "simd/mg_simd_scalar.h"
#include "math/mg_exp.h"
#include "mg_test.h"

static float f_of(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }

MG_TEST(exp_accuracy) {
    double worst_rel = 0, worst_ulp = 0, worst_short = 0;
    float at_rel = 0, at_ulp = 0, at_short = 0;
    long n = 0;
    /* x in [-87.3, 20]: walk the float line from both signs' keys with stride 37 */
    for (int neg = 0; neg < 2; neg++) {
        const float limit = neg ? 87.3f : 20.0f;
        uint32_t lim;
        memcpy(&lim, &limit, 4);
        for (uint32_t b = 0; b <= lim; b += 37) {
            const float x = f_of(b | (neg ? 0x80000000u : 0));
            const long double want = expl((long double)x);
            mg_vi kbits;
            mg_vf s;
            const float e = mg_exp_rr2_lut16_p3(x, &kbits, &s);
            /* T_j (1 + s') 2^m unrounded, in long double */
            const long double parts = ldexpl((long double)mg_exp_lut16_t(kbits) * (1.0L + (long double)s),
                                             mg_exp_lut16_m(kbits));
            const double rel = (double)fabsl(parts / want - 1.0L);
            int ex = ilogbl(want);
            if (ex < -126) ex = -126;
            const double ulp = (double)(fabsl((long double)e - want) / ldexpl(1.0L, ex - 23));
            const double rel_short = (double)fabsl((long double)mg_exp_rr1_lut16_p2(x) / want - 1.0L);
            if (rel > worst_rel) { worst_rel = rel; at_rel = x; }
            if (ulp > worst_ulp) { worst_ulp = ulp; at_ulp = x; }
            if (rel_short > worst_short) { worst_short = rel_short; at_short = x; }
            n++;
        }
    }
    printf("  %ld x: rr2_lut16_p3 parts %.3g (2^%.2f) at %a, rounded %.4f ulp at %a; rr1_lut16_p2 %.3g (2^%.2f) at %a\n",
           n, worst_rel, log2(worst_rel), (double)at_rel, worst_ulp, (double)at_ulp, worst_short, log2(worst_short),
           (double)at_short);
    MG_CHECK(n > 50000000);
    MG_CHECK(worst_rel <= 0x1.6a09e6p-28); /* 2^-27.5 */
    MG_CHECK(worst_ulp <= 0.55);
    MG_CHECK(worst_short <= 0x1.9p-21); /* 2^-20.36 */
}

MG_TEST(exp_exact_points) {
    mg_vi kbits;
    mg_vf s;
    MG_CHECK(mg_exp_rr2_lut16_p3(0.0f, &kbits, &s) == 1.0f);
    MG_CHECK(s == 0.0f);
    MG_CHECK(mg_exp_lut16_m(kbits) == 0);
    MG_CHECK(mg_exp_rr1_lut16_p2(0.0f) == 1.0f);
    /* the parts at the clamp points the kernels use */
    (void)mg_exp_rr2_lut16_p3_parts(-110.0f, &kbits);
    MG_CHECK(mg_exp_lut16_m(kbits) == -159);
    (void)mg_exp_rr2_lut16_p3_parts(20.0f, &kbits);
    MG_CHECK(mg_exp_lut16_m(kbits) == 28);
}

MG_TEST_MAIN()

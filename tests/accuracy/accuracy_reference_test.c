/*
 * tests/accuracy/accuracy_reference_test.c: checks the yardstick before trusting it.
 * The reference is compared with CANN's published values, with a textbook formula in long
 * double, with asymptotic forms, and the fast double variant with the long double one;
 * the 16-bit rounding helpers with hand-worked patterns. No operator call here.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "mg_test.h"
#include "mish_reference.h"

/* Independent of the reference's algebra: tanh(log1p(exp(x))) and 1 / (1 + exp(-x)). */
static long double textbook_grad(long double x, long double *scale) {
    long double t = tanhl(log1pl(expl(x)));
    long double sigmoid = 1.0L / (1.0L + expl(-x));
    long double t2 = x * (1.0L - t * t) * sigmoid;
    *scale = fabsl(t) + fabsl(t2);
    return t + t2;
}

MG_TEST(cann_reference_values) {
    /* aclnn contract section 1 (float32 results printed to 6 decimals). */
    static const float grad[8] = {1, -0.5f, 0.25f, 1.5f, -1, 0.75f, 0.5f, -0.25f};
    static const float self[8] = {-3, -1, -0.1f, 0, 0.2f, 1.5f, 3, 5};
    static const double expected[8] = {-0.093393, -0.029608, 0.133926, 0.9,
                                       -0.724625, 0.816366, 0.510553, -0.250200};
    for (int i = 0; i < 8; i++)
        MG_CHECK_NEAR((double)((long double)grad[i] * mish_ref_grad_ld(self[i])), expected[i], 6e-7);
    static const float self2[8] = {1, 1, 1, 2, 2, 2, 3, 3};
    static const double expected2[8] = {0, 1.049036, 2.098072, 3.207954,
                                        4.277272, 5.346590, 6.126641, 7.147748};
    for (int i = 0; i < 8; i++)
        MG_CHECK_NEAR((double)(i * mish_ref_grad_ld(self2[i])), expected2[i], 6e-6);
}

MG_TEST(zero_gives_exactly_three_fifths) {
    long double t1, t2;
    mish_ref_terms_ld(0.0L, &t1, &t2);
    MG_CHECK(fabsl(t1 - 0.6L) <= 0x1p-63L);
    MG_CHECK(t2 == 0.0L);
    mish_ref_terms_ld(-0.0L, &t1, &t2);
    MG_CHECK(fabsl(t1 - 0.6L) <= 0x1p-63L);
}

MG_TEST(agrees_with_textbook_formula_in_main_range) {
    /* tanhl/log1pl/expl are each within a few ulp of long double; 1 - t^2 loses at most
       |x| * eps for large x, still far below 1e-15 of the scale. */
    double worst = 0;
    for (int i = -40000; i <= 40000; i++) {
        long double x = i / 1000.0L, scale;
        long double textbook = textbook_grad(x, &scale);
        double diff = (double)(fabsl(mish_ref_grad_ld(x) - textbook) / scale);
        if (diff > worst) worst = diff;
    }
    printf("  main range: worst |ref - textbook| = %.3g of |T1|+|T2|\n", worst);
    MG_CHECK(worst < 1e-15);
}

MG_TEST(agrees_with_asymptotic_forms) {
    /* x -> -inf: T1 = e^x (1 + O(e^x)), T2 = x e^x (1 + O(e^x)); below x = -50 the O()
       terms are < 2e-22 relative. Long double's exponent reaches e^-11000. */
    for (long double x = -50.0L; x > -11000.0L; x *= 1.37L) {
        long double t1, t2;
        mish_ref_terms_ld(x, &t1, &t2);
        long double asymptotic = (1.0L + x) * expl(x);
        MG_CHECK(fabsl((t1 + t2) / asymptotic - 1.0L) < 1e-17L);
    }
    /* x -> +inf: mish'(x) = 1 + O(x e^-2x); beyond x = 50 it is 1 to within 1e-40. */
    for (long double x = 50.0L; x < 1e38L; x *= 3.1L) MG_CHECK(fabsl(mish_ref_grad_ld(x) - 1.0L) < 1e-40L);
    MG_CHECK(mish_ref_grad_ld(FLT_MAX) == 1.0L);
    /* Every finite float32 has a finite, non-NaN gradient; +-inf and NaN give NaN. */
    MG_CHECK(isnan(mish_ref_grad_ld(INFINITY)));
    MG_CHECK(isnan(mish_ref_grad_ld(-INFINITY)));
    MG_CHECK(isnan(mish_ref_grad_ld(NAN)));
    MG_CHECK(mish_ref_grad_ld(-FLT_MAX) <= 0.0L);
}

MG_TEST(root_near_minus_1_19243) {
    /* mish has its minimum at x = -1.19243..., so mish' changes sign there. */
    long double lo = -1.2L, hi = -1.18L;
    MG_CHECK(mish_ref_grad_ld(lo) < 0.0L);
    MG_CHECK(mish_ref_grad_ld(hi) > 0.0L);
    for (int i = 0; i < 100; i++) {
        long double mid = 0.5L * (lo + hi);
        if (mish_ref_grad_ld(mid) < 0.0L) lo = mid; else hi = mid;
    }
    printf("  root of mish': %.18Lf\n", lo);
    MG_CHECK(lo > -1.19244L && lo < -1.19243L);
}

MG_TEST(double_variant_within_its_budget) {
    /* Every 4099th float32 pattern of either sign plus the double underflow points. */
    double worst = 0;
    long checked = 0;
    for (uint64_t bits = 0; bits < 0x7F800000u; bits += 4099) {
        for (int negative = 0; negative < 2; negative++) {
            float x = mish_ref_f32_from_bits((uint32_t)bits | (negative ? 0x80000000u : 0));
            long double t1l, t2l;
            double t1d, t2d;
            mish_ref_terms_ld(x, &t1l, &t2l);
            mish_ref_terms_d(x, &t1d, &t2d);
            long double scale = 0x1p-23L * (fabsl(t1l) + fabsl(t2l));
            if (scale < 0x1p-149L) scale = 0x1p-149L;
            double diff = (double)(fabsl(((long double)t1d + t2d) - (t1l + t2l)) / scale);
            if (diff > worst) worst = diff;
            checked++;
        }
    }
    static const double edges[] = {-708.3, -708.4, -709.0, -744.0, -745.2, -746.0, 372.0, 710.0};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        long double t1l, t2l;
        double t1d, t2d;
        mish_ref_terms_ld(edges[i], &t1l, &t2l);
        mish_ref_terms_d(edges[i], &t1d, &t2d);
        MG_CHECK(fabsl(((long double)t1d + t2d) - (t1l + t2l)) < 0x1p-180L);
    }
    printf("  %ld points: worst |double - long double| = %.3g error-measure units (budget %g)\n",
           checked, worst, MISH_REF_D_ERR_BOUND);
    MG_CHECK(worst <= MISH_REF_D_ERR_BOUND);
}

MG_TEST(error_measure_cases) {
    long double t1, t2;
    mish_ref_terms_ld(1.0L, &t1, &t2);
    float y = (float)(t1 + t2);
    MG_CHECK(mish_ref_err_ld(y, 1.0f, t1, t2) <= 0.5 * 1.0492 / 1.0492 + 1e-9);
    /* One float32 ulp (2^-23 at 1.049) off is about 1 / (|T1|+|T2|) * |T1+T2| units. */
    float off = nextafterf(y, 2.0f);
    double err = mish_ref_err_ld(off, 1.0f, t1, t2);
    MG_CHECK(err > 0.5 && err < 1.5);
    MG_CHECK(mish_ref_err_ld(NAN, 1.0f, t1, t2) == INFINITY);
    MG_CHECK(mish_ref_err_ld(INFINITY, 1.0f, t1, t2) == INFINITY);
    MG_CHECK(mish_ref_err_ld(INFINITY, INFINITY, t1, t2) == 0.0);
    MG_CHECK(mish_ref_err_ld(-INFINITY, INFINITY, t1, t2) == INFINITY);
    MG_CHECK(mish_ref_err_ld(-INFINITY, -INFINITY, t1, t2) == 0.0);
    MG_CHECK(mish_ref_err_ld(NAN, NAN, t1, t2) == 0.0);
    /* Overflow of g * mish'(x) must give infinity. */
    MG_CHECK(mish_ref_err_ld(INFINITY, FLT_MAX, t1, t2) == 0.0);
    MG_CHECK(mish_ref_err_ld(FLT_MAX, FLT_MAX, t1, t2) == INFINITY);
    /* x = -inf: the exact value is NaN. */
    mish_ref_terms_ld(-INFINITY, &t1, &t2);
    MG_CHECK(mish_ref_err_ld(NAN, 1.0f, t1, t2) == 0.0);
    MG_CHECK(mish_ref_err_ld(0.0f, 1.0f, t1, t2) == INFINITY);
    /* Far below: the floor 2^-149 rules, so +-0 and one subnormal step are cheap. */
    mish_ref_terms_ld(-200.0L, &t1, &t2);
    MG_CHECK(mish_ref_err_ld(-0.0f, 1.0f, t1, t2) < 1e-30);
    MG_CHECK(mish_ref_err_ld(0.0f, 1.0f, t1, t2) < 1e-30);
    MG_CHECK(fabs(mish_ref_err_ld(-0x1p-149f, 1.0f, t1, t2) - 1.0) < 1e-12);
    /* A g = +inf with mish'(-200) rounding to 0 in float32: NaN or -inf accepted. */
    MG_CHECK(mish_ref_err_ld(NAN, INFINITY, t1, t2) == 0.0);
    MG_CHECK(mish_ref_err_ld(-INFINITY, INFINITY, t1, t2) == 0.0);
    MG_CHECK(mish_ref_err_ld(INFINITY, INFINITY, t1, t2) == INFINITY);
    /* The double flavour agrees on the same cases. */
    double d1, d2;
    mish_ref_terms_d(1.0, &d1, &d2);
    MG_CHECK(fabs(mish_ref_err_d(off, 1.0f, d1, d2) - err) < 1e-6);
    MG_CHECK(mish_ref_err_d(INFINITY, FLT_MAX, d1, d2) == 0.0);
}

MG_TEST(ulp_error_measure) {
    MG_CHECK(mish_ref_ulp_err_ld(1.0f, 1.0L) == 0.0);
    MG_CHECK(fabs(mish_ref_ulp_err_ld(1.0f, 1.0L + 0x1p-24L) - 0.5) < 1e-12);
    MG_CHECK(fabs(mish_ref_ulp_err_ld(0x1p-149f, 0.0L) - 1.0) < 1e-12);
    MG_CHECK(fabs(mish_ref_ulp_err_d(3.0f, 3.0 + 0x1p-22) - 1.0) < 1e-12);
}

MG_TEST(f16_rounding_hand_worked) {
    int tie = 0;
    MG_CHECK_EQ_INT(mish_ref_round_f16(0.6L, NULL), 0x38CD);
    MG_CHECK_EQ_INT(mish_ref_round_f16(1.0L, NULL), 0x3C00);
    MG_CHECK_EQ_INT(mish_ref_round_f16(-2.0L, NULL), 0xC000);
    MG_CHECK_EQ_INT(mish_ref_round_f16(65504.0L, NULL), 0x7BFF);
    MG_CHECK_EQ_INT(mish_ref_round_f16(65519.99L, NULL), 0x7BFF);
    MG_CHECK_EQ_INT(mish_ref_round_f16(65520.0L, NULL), 0x7C00); /* tie to even = 2^16 */
    MG_CHECK_EQ_INT(mish_ref_round_f16(-1e6L, NULL), 0xFC00);
    MG_CHECK_EQ_INT(mish_ref_round_f16(0x1p-24L, NULL), 0x0001);
    MG_CHECK_EQ_INT(mish_ref_round_f16(0x1p-25L, &tie), 0x0000); /* tie to even = 0 */
    MG_CHECK(tie);
    MG_CHECK_EQ_INT(mish_ref_round_f16(0x1.000001p-25L, NULL), 0x0001);
    MG_CHECK_EQ_INT(mish_ref_round_f16(0x3p-25L, NULL), 0x0002);       /* 1.5 steps: even 2 */
    MG_CHECK_EQ_INT(mish_ref_round_f16(0x1.ff8p-15L, NULL), 0x03FF);  /* largest subnormal */
    MG_CHECK_EQ_INT(mish_ref_round_f16(0x1.ffcp-15L, NULL), 0x0400);  /* tie: up into the normals */
    MG_CHECK_EQ_INT(mish_ref_round_f16(1.0L + 0x1p-11L, &tie), 0x3C00);
    MG_CHECK(tie);
    MG_CHECK_EQ_INT(mish_ref_round_f16(1.0L + 0x3p-11L, NULL), 0x3C02);
    MG_CHECK_EQ_INT(mish_ref_round_f16(1.0L + 0x1.0001p-11L, &tie), 0x3C01);
    MG_CHECK(!tie);
    MG_CHECK_EQ_INT(mish_ref_round_f16(-0.0L, NULL), 0x8000);
    MG_CHECK_EQ_INT(mish_ref_round_f16(NAN, NULL) & 0x7E00, 0x7E00); /* quiet */
    MG_CHECK_EQ_INT(mish_ref_round_f16(INFINITY, NULL), 0x7C00);
}

MG_TEST(bf16_rounding_hand_worked) {
    int tie = 0;
    MG_CHECK_EQ_INT(mish_ref_round_bf16(0.6L, NULL), 0x3F1A);
    MG_CHECK_EQ_INT(mish_ref_round_bf16(1.0L + 0x1p-8L, &tie), 0x3F80);
    MG_CHECK(tie);
    MG_CHECK_EQ_INT(mish_ref_round_bf16(1.0L + 0x3p-8L, NULL), 0x3F82);
    MG_CHECK_EQ_INT(mish_ref_round_bf16(FLT_MAX, NULL), 0x7F80); /* rounds up to 2^128 */
    MG_CHECK_EQ_INT(mish_ref_round_bf16(0x1.fep127L, NULL), 0x7F7F);
    MG_CHECK_EQ_INT(mish_ref_round_bf16(-0x1p-133L, NULL), 0x8001);
    MG_CHECK_EQ_INT(mish_ref_round_bf16(0x1p-134L, NULL), 0x0000);
    MG_CHECK_EQ_INT(mish_ref_round_bf16(NAN, NULL) & 0x7FC0, 0x7FC0);
}

MG_TEST(sixteen_bit_round_trip_all_patterns) {
    /* Widening then rounding back must give every non-NaN pattern itself. */
    int bad_f16 = 0, bad_bf16 = 0;
    for (uint32_t b = 0; b < 65536; b++) {
        uint16_t bits = (uint16_t)b;
        float h = mish_ref_f16_to_f32(bits);
        float bf = mish_ref_bf16_to_f32(bits);
        if (!isnan(h) && mish_ref_round_f16(h, NULL) != bits) bad_f16++;
        if (!isnan(bf) && mish_ref_round_bf16(bf, NULL) != bits) bad_bf16++;
        if (isnan(h) != ((bits & 0x7C00) == 0x7C00 && (bits & 0x3FF))) bad_f16++;
    }
    MG_CHECK_EQ_INT(bad_f16, 0);
    MG_CHECK_EQ_INT(bad_bf16, 0);
    MG_CHECK(mish_ref_f16_to_f32(0x3C00) == 1.0f);
    MG_CHECK(mish_ref_f16_to_f32(0x0001) == 0x1p-24f);
    MG_CHECK(mish_ref_f16_to_f32(0xFBFF) == -65504.0f);
    MG_CHECK(mish_ref_bf16_to_f32(0x3F80) == 1.0f);
}

MG_TEST(sixteen_bit_distance) {
    MG_CHECK_EQ_INT(mish_ref_bits16_distance(0x0000, 0x8000, 0x7C00), 0);
    MG_CHECK_EQ_INT(mish_ref_bits16_distance(0x0001, 0x8001, 0x7C00), 2);
    MG_CHECK_EQ_INT(mish_ref_bits16_distance(0x3C00, 0x3C01, 0x7C00), 1);
    MG_CHECK_EQ_INT(mish_ref_bits16_distance(0x7BFF, 0x7C00, 0x7C00), 1);
    MG_CHECK_EQ_INT(mish_ref_bits16_distance(0x7E00, 0x7C00, 0x7C00), INT32_MAX);
    MG_CHECK_EQ_INT(mish_ref_bits16_distance(0x7E00, 0xFE01, 0x7C00), 0);
    MG_CHECK_EQ_INT(mish_ref_bits16_distance(0x7FC0, 0x7F80, 0x7F80), INT32_MAX);
    MG_CHECK_EQ_INT(mish_ref_bits16_distance(0x7F7F, 0x7F80, 0x7F80), 1);
}

/* ---- the forward reference, mish(x) ---- */

MG_TEST(forward_agrees_with_textbook_formula) {
    double worst = 0;
    for (int i = -40000; i <= 40000; i++) {
        const long double x = i / 1000.0L;
        const long double textbook = x * tanhl(log1pl(expl(x)));
        const long double ref = mish_ref_fwd_ld(x);
        const double diff = x == 0 ? (double)fabsl(ref) : (double)fabsl(ref / textbook - 1.0L);
        if (diff > worst) worst = diff;
    }
    printf("  forward, [-40, 40]: worst relative |ref - textbook| = %.3g\n", worst);
    MG_CHECK(worst < 1e-16);
}

MG_TEST(forward_asymptotics_and_specials) {
    /* x -> -inf: mish(x) = x e^x (1 - e^x / 2 + O(e^3x)) */
    for (long double x = -30.0L; x > -11000.0L; x *= 1.37L)
        MG_CHECK(fabsl(mish_ref_fwd_ld(x) / (x * expl(x)) - 1.0L) < 1e-12L);
    /* x -> +inf: x (1 - 2 e^-2x ...) */
    for (long double x = 40.0L; x < 1e38L; x *= 3.1L) MG_CHECK(mish_ref_fwd_ld(x) == x);
    MG_CHECK(fabsl(mish_ref_fwd_ld(1.0L) - 0.86509838826731L) < 1e-13L);
    MG_CHECK(isnan(mish_ref_fwd_ld(-INFINITY)));
    MG_CHECK(isnan(mish_ref_fwd_ld(NAN)));
    MG_CHECK(mish_ref_fwd_ld(INFINITY) == INFINITY);
    MG_CHECK(signbit(mish_ref_fwd_ld(-0.0L)) && mish_ref_fwd_ld(-0.0L) == 0);
    MG_CHECK(isnan(mish_ref_fwd_d(-INFINITY)) && mish_ref_fwd_d(INFINITY) == INFINITY);
    MG_CHECK(signbit(mish_ref_fwd_d(-1000.0)) && mish_ref_fwd_d(-1000.0) == 0);
    /* the tolerance rule's cases */
    MG_CHECK(mish_ref_fwd_ulp_err_ld(NAN, -INFINITY) == 0);
    MG_CHECK(mish_ref_fwd_ulp_err_ld(0.0f, -INFINITY) == INFINITY);
    MG_CHECK(mish_ref_fwd_ulp_err_ld(INFINITY, INFINITY) == 0);
    MG_CHECK(mish_ref_fwd_ulp_err_ld(FLT_MAX, INFINITY) == INFINITY);
    MG_CHECK(mish_ref_fwd_ulp_err_ld(NAN, 1.0f) == INFINITY);
    const float y1 = (float)mish_ref_fwd_ld(1.0f);
    MG_CHECK(mish_ref_fwd_ulp_err_ld(y1, 1.0f) <= 0.5);
    const double one_off = mish_ref_fwd_ulp_err_ld(nextafterf(y1, 2.0f), 1.0f);
    MG_CHECK(one_off > 0.5 && one_off <= 1.5);
}

MG_TEST(forward_double_within_its_budget) {
    double worst = 0;
    for (uint64_t bits = 0; bits < 0x7F800000u; bits += 4099)
        for (int negative = 0; negative < 2; negative++) {
            const float x = mish_ref_f32_from_bits((uint32_t)bits | (negative ? 0x80000000u : 0));
            const long double l = mish_ref_fwd_ld(x);
            const double d = mish_ref_fwd_d(x);
            /* below 2^-160 both are far under half of float32's smallest subnormal: the
               float32 answer is a signed zero either way (double underflows from x < -708) */
            if (fabsl(l) < 0x1p-160L) {
                MG_CHECK(fabs(d) < 0x1p-160 && (float)d == 0.0f && signbit(d) == signbit((double)l));
                continue;
            }
            const double rel = (double)fabsl(((long double)d - l) / l);
            if (rel > worst) worst = rel;
        }
    printf("  forward: worst relative |double - long double| = %.3g (budget %g)\n", worst, MISH_REF_FWD_D_REL_BOUND);
    MG_CHECK(worst <= MISH_REF_FWD_D_REL_BOUND);
}

MG_TEST_MAIN()

/*
 * op_kernel/mish_grad_v2_body.h: the MishGradV2 algorithm, written once.
 *
 * Included by op_kernel/kernel_isa.c, compiled once per ISA variant, after that ISA's
 * vocabulary header (simd/mg_simd_*.h), with MG_ISA_NAME defined to the variant's name. Every
 * line below is a sequence of IEEE-exact operations (add, mul, fma, div, compare, select,
 * exact bit tricks), so all ISAs produce the same bits. Which form a lane takes (the table
 * form for float32 x in (-8.5, +inf) with g finite, else the general path, grad_general,
 * which defines every result; grad_mixed selects per lane) depends on its own x and g alone,
 * so the vector width and the neighbours never change its bits. 16-bit tiles evaluate the
 * textbook form with a shorter exp (the section at the end). The math, its error and why it
 * does not cancel: docs/accuracy.md, "How the kernel computes float32".
 */

#ifndef MG_ISA_NAME
#error "define MG_ISA_NAME before including mish_grad_v2_body.h"
#endif

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define MG_CAT2_(a, b) a##b
#define MG_CAT_(a, b) MG_CAT2_(a, b)
#define MG_FN_(name) MG_CAT_(MG_CAT_(mish_grad_v2_, name), MG_CAT_(_, MG_ISA_NAME))

/* The table form must be inlined into the loops (constants kept
   in registers); the general path is rare and stays out of line, and is never called from
   inside the hot loop (a call there would make every constant a stack reload). The exp is
   the shared one (math/mg_exp.h), which defines MG_ALWAYS_INLINE and MG_OUT_OF_LINE. */
#include "math/mg_exp.h"
#include "math/mg_lut16_poly.h"
#include "mish_grad_lut16_p8.h"

/* Region boundaries (see the top of the file): "low" below MG_SPLIT_LOW, "middle" up to
   MG_SPLIT_HIGH, "high" above. */
#ifndef MG_SPLIT_LOW
#define MG_SPLIT_LOW -0.5f
#endif
#ifndef MG_SPLIT_HIGH
#define MG_SPLIT_HIGH 0.5f
#endif

/* Above 20 the result is exactly 1 (the correction 4x/e^2 < 2^-50), and below -200 it is
   a signed zero even for the largest gradient (|g e^x (1+x)| < 2^128 2^-288 200 < 2^-152);
   clamping keeps exp's 2^k in [-289, 29] and every polynomial term (up to e^80) finite. */
#define MG_X_MIN -200.0f
#define MG_X_MAX 20.0f

/* c0 = 0.6f, the middle region's anchor, and the exact float constants derived from it */
#define MG_C0 0x1.333334p-1f          /* 0.6f */
#define MG_1_MINUS_C0 0x1.999998p-2f  /* 1 - c0, exact */
#define MG_4_MINUS_8C0 -0x1.9999a0p-1f /* 4 - 8 c0, exact */
#define MG_MINUS_4C0 -0x1.333334p+1f  /* -4 c0, exact */

/* The general path's middle: from the clamped x, e = exp(xc), the low region's exp parts
   T_j, s' (exp(xc) = T_j (1 + s') 2^m) to t = P (c + R) as an unevaluated sum hi + lo, with
   P = T_j (1 + s') in the low region and 1 elsewhere, and
     low:    c = 1 + x (exact for x <= -0.5);
             num = -c e^4 + (1 - 4c) e^3 + (4 - 8c) e^2 + (4x + 6 - 8c) e   (+ 0)
     middle: c = c0;  num = e N(e) - c0 d^2
     high:   c = 1;   num = (4x - 2) e^2 + (4x - 4) e - 4
   num = (((a4 e + a3) e + a2) e + a1) e + a0, each a_i exact or one or two roundings from x,
   built with fmas and selects (no table lookups: they were slower on both x86 paths). R's
   denominator d^2 = (e (e + 2) + 2)^2 is two roundings of a sum of positive terms.
   Then with u = c + R held exactly as u_hi + u_lo and T = T_j (1 elsewhere, s' = 0),
   t = T u_hi + T (u_hi s' + u_lo): hi = RN(T u_hi) and its exact remainder (a two-product),
   plus the small rest, rounded but below 2^-4 of t (|s'| < 2^-5): hi + lo is within about
   2^-27 of t (relative; the exp's parts are the most of it) plus R's own error, so the
   caller's one rounding of (hi + lo) g 2^K is the only one of note, subnormal results
   included. */
MG_ALWAYS_INLINE mg_vf MG_FN_(anchored)(mg_vf xc, mg_vf e, mg_vm low, mg_vf t_j, mg_vf s, mg_vf *lo_out) {
    const mg_vf one = mg_set(1.0f), zero = mg_set(0.0f);
    const mg_vm high = mg_le(mg_set(MG_SPLIT_HIGH), xc);
    const mg_vf e4 = mg_add(e, mg_set(4.0f));
    const mg_vf c = mg_select(low, mg_add(xc, one), mg_select(high, one, mg_set(MG_C0)));
    const mg_vf low_flag = mg_select(low, one, zero);
    /* a4 = -c (low), 1 - c (middle, high): both exact, as 1 + x is exact in the low
       region (so -c = -1 - x) */
    const mg_vf a4 = mg_sub(mg_select(low, zero, one), c);
    /* a4 e + a3 = a4 (e + 4) + [low], as a3 = 4 a4 + [low]: one fma, no a3 */
    mg_vf num = mg_fma(a4, e4, low_flag);
    /* a1 = -4x - 2 (low), 4x + 4 - 8c (else): one fma, rounding once (4x is exact).
       a2 = -8x - 4 = 2 a1 (low, exact), 4x + 6 - 8c = a1 + 2 (else, one more rounding):
       one add, a1 + a1 or a1 + 2 */
    const mg_vf a1 = mg_fma(xc, mg_select(low, mg_set(-4.0f), mg_set(4.0f)),
                            mg_select(low, mg_set(-2.0f), mg_select(high, mg_set(-4.0f), mg_set(MG_4_MINUS_8C0))));
    const mg_vf a2 = mg_add(a1, mg_select(low, a1, mg_set(2.0f)));
    const mg_vf a0 = mg_select(low, zero, mg_select(high, mg_set(-4.0f), mg_set(MG_MINUS_4C0)));
    num = mg_fma(num, e, a2);
    num = mg_fma(num, e, a1);
    num = mg_fma(num, e, a0);
    const mg_vf d = mg_fma(mg_add(e, mg_set(2.0f)), e, mg_set(2.0f));
    const mg_vf den = mg_mul(d, d);
    /* u_hi + u_lo = c + R exactly (2Sum): near the root of mish', where R = -c, nothing
       of t is lost to the cancellation but R's own error */
    const mg_vf r = mg_div(num, den);
    const mg_vf u = mg_add(c, r);
    const mg_vf c_part = mg_sub(u, r);
    const mg_vf u_lo = mg_add(mg_sub(c, c_part), mg_sub(r, mg_sub(u, c_part)));
    const mg_vf big_t = mg_select(low, t_j, one);
    const mg_vf s_low = mg_select(low, s, zero);
    const mg_vf hi = mg_mul(big_t, u);
    /* lo = (T u - hi) + T (u s' + u_lo): the first exact, the second below 2^-4 of t */
    *lo_out = mg_fma(big_t, mg_fma(u, s_low, u_lo), mg_sub(zero, mg_fnma(big_t, u, hi)));
    return hi;
}

/* The general path: every input. Defines the result of every lane:
     y = RN((hi + lo) g 2^K), K = m in the low region and 0 elsewhere, rounded once
   (mg_fma_scaled_round_once: hi g exact in double, lo g rounded in float, a term below
   2^-4 of the sum), so the subnormal tail (x < -87.3) and huge gradients are rounded once,
   not twice. g enters scaled by 2^-64 (|g| >= 1) or 2^64 (else), exactly, and K by the
   opposite, so lo g neither overflows nor underflows where it would matter. g = +-0 and
   +-inf take the plain product (hi + lo) g: the sum of hi g and lo g could be +0 where the
   product is -0, or inf * 0 = NaN where lo is 0.
   x = +-inf or NaN, g = NaN, or inf * 0 give one canonical quiet NaN. */
MG_OUT_OF_LINE mg_vf MG_FN_(grad_general)(mg_vf g, mg_vf x) {
    const mg_vf xc = mg_min(mg_max(x, mg_set(MG_X_MIN)), mg_set(MG_X_MAX));
    mg_vi kbits;
    const mg_vf s = mg_exp_rr2_lut16_p3_parts(xc, &kbits);
    const mg_vf t_j = mg_exp_lut16_t(kbits);
    const mg_vf p = mg_fma(t_j, s, t_j);
    const mg_vi m = mg_exp_lut16_m(kbits); /* exp(xc) = p 2^m */
    /* e = exp(xc) for the polynomials; below x = -86.6 it is held at p 2^-125 (a normal
       number: subnormal operands are slow), which changes nothing: there the correction
       R it feeds is below 2^-100 of the anchor c = 1 + x */
    const mg_vf e = mg_mul(p, mg_pow2(mg_max_i(m, mg_set_i(-125))));
    const mg_vm low = mg_lt(xc, mg_set(MG_SPLIT_LOW));
    mg_vf lo;
    const mg_vf hi = MG_FN_(anchored)(xc, e, low, t_j, s, &lo);
    const mg_vm g_big = mg_le(mg_set(1.0f), mg_abs(g));
    const mg_vf g_scaled = mg_mul(g, mg_select(g_big, mg_set(0x1p-64f), mg_set(0x1p64f)));
    const mg_vi k = mg_add_i(mg_keep_i(low, m), mg_sub_i(mg_keep_i(g_big, mg_set_i(128)), mg_set_i(64)));
    mg_vf y = mg_fma_scaled_round_once(hi, g_scaled, mg_mul(lo, g_scaled), k);
    const mg_vm g_finite_nonzero = mg_mask_and(mg_lt(mg_set(0.0f), mg_abs(g)), mg_lt(mg_abs(g), mg_set(INFINITY)));
    y = mg_select(g_finite_nonzero, y, mg_mul(mg_add(hi, lo), g));
    const mg_vm finite_x = mg_lt(mg_abs(x), mg_set(INFINITY));
    return mg_select(mg_mask_and(finite_x, mg_ordered(y, y)), y, mg_set(NAN));
}

/* MG_FAST_X_MIN bounds the 16-bit tiles' short form (below); -40 was the old float32 fast
   path's bound too */
#define MG_FAST_X_MIN -40.0f

/* ---- the float32 table form ----------------------------------------------------------------
   mish'(x) = hi + q on 16 intervals, q = q0 + d (c1 + ... + d c8), d = x - k, k = round(x) in
   [-8, 7] (interval k covers [k - 0.5, k + 0.5], the last one [6.5, 12]; x is clamped at 12,
   where 1 - mish' < 2^-28 and the result rounds to 1). Coefficients from
   tools/fit_mish_grad_lut16.py, fitted in docs/accuracy.md's measure (at most 0.17 units);
   hi = mish'(k) as a float (0.6f around 0, so x = +-0 and subnormal x give 0.6f), so q is
   small and its roundings weigh little; y = RN(hi + q) g. No exp, no division. Domain:
   x in (-8.5, +inf), g finite; every
   other lane takes grad_general (exp based), lane by lane. */
#define MG_TABLE_X_MIN -8.5f
#define MG_TABLE_X_MAX 12.0f
MG_ALWAYS_INLINE mg_vf MG_FN_(table_form)(mg_vf x) {
    mg_vf hi;
    const mg_vf q = mg_lut16_poly(mish_grad_lut16_p8_coefficients, 10, x, MG_TABLE_X_MAX, &hi);
    return mg_add(hi, q);
}

/* Lanes in the table form's domain: x in (MG_TABLE_X_MIN, +inf), g finite */
MG_ALWAYS_INLINE mg_vm MG_FN_(table_lanes)(mg_vf x, mg_vf g) {
    const mg_vm x_ok = mg_mask_and(mg_lt(mg_set(MG_TABLE_X_MIN), x), mg_lt(x, mg_set(INFINITY)));
    return mg_mask_and(x_ok, mg_lt(mg_abs(g), mg_set(INFINITY)));
}

/* Whether every lane of two vectors is in the table's domain: (sum) * 0 is +-0 when the
   four are finite and NaN otherwise (or when the sum overflows, which only sends the pair
   to the per-lane path needlessly); added to min(x0, x1) it leaves the minimum to compare
   with the bound, or makes the ordered compare fail. */
MG_ALWAYS_INLINE int MG_FN_(pair_table)(mg_vf x0, mg_vf x1, mg_vf g0, mg_vf g1) {
    const mg_vf sum = mg_add(mg_add(x0, x1), mg_add(g0, g1));
    const mg_vf min_or_nan = mg_fma(sum, mg_set(0.0f), mg_min(x0, x1));
    return mg_all(mg_lt(mg_set(MG_TABLE_X_MIN), min_or_nan));
}

/* Every lane: the table form where its own x and g are in the domain, grad_general elsewhere */
MG_OUT_OF_LINE mg_vf MG_FN_(grad_mixed)(mg_vf g, mg_vf x) {
    return mg_select(MG_FN_(table_lanes)(x, g), mg_mul(MG_FN_(table_form)(x), g), MG_FN_(grad_general)(g, x));
}

MG_ALWAYS_INLINE mg_vf MG_FN_(grad_x)(mg_vf g, mg_vf x) {
    if (!MG_FN_(pair_table)(x, x, g, g)) return MG_FN_(grad_mixed)(g, x);
    return mg_mul(MG_FN_(table_form)(x), g);
}

/* pair_fast_lanes: the 16-bit tiles' test (x in [MG_FAST_X_MIN, +inf), g finite), same trick */
MG_ALWAYS_INLINE mg_vm MG_FN_(pair_fast_lanes)(mg_vf x0, mg_vf x1, mg_vf g0, mg_vf g1) {
    const mg_vf sum = mg_add(mg_add(x0, x1), mg_add(g0, g1));
    const mg_vf min_or_nan = mg_fma(sum, mg_set(0.0f), mg_min(x0, x1));
    return mg_le(mg_set(MG_FAST_X_MIN), min_or_nan);
}

/* ---- the loops: pairs of vectors (software-pipelined), then one, then a partial one ---- */

#define MG_DEFINE_TILE_(dtype, elem_t, LOAD, STORE, LOAD_N, STORE_N)                     \
    static void MG_FN_(dtype)(const void *grad_v, const void *x_v, void *out_v, size_t n) {    \
        const elem_t *grad = (const elem_t *)grad_v;                                     \
        const elem_t *x = (const elem_t *)x_v;                                           \
        elem_t *out = (elem_t *)out_v;                                                   \
        size_t i = 0;                                                                    \
        for (; i + 2 * MG_LANES <= n; i += 2 * MG_LANES) {                               \
            mg_prefetch_ahead(x + i, 2 * MG_LANES * sizeof(elem_t));                     \
            mg_prefetch_ahead(grad + i, 2 * MG_LANES * sizeof(elem_t));                  \
            const mg_vf x0 = LOAD(x + i), x1 = LOAD(x + i + MG_LANES);                   \
            const mg_vf g0 = LOAD(grad + i), g1 = LOAD(grad + i + MG_LANES);             \
            /* nothing of this pair is stored before both results exist, so in-place   \
               inputs stay intact */                                                     \
            mg_vf y0, y1;                                                                \
            if (MG_FN_(pair_table)(x0, x1, g0, g1)) {                                    \
                y0 = mg_mul(MG_FN_(table_form)(x0), g0);                                 \
                y1 = mg_mul(MG_FN_(table_form)(x1), g1);                                 \
            } else {                                                                     \
                y0 = MG_FN_(grad_mixed)(g0, x0);                                         \
                y1 = MG_FN_(grad_mixed)(g1, x1);                                         \
            }                                                                            \
            STORE(out + i, y0);                                                          \
            STORE(out + i + MG_LANES, y1);                                               \
        }                                                                                \
        for (; i + MG_LANES <= n; i += MG_LANES)                                         \
            STORE(out + i, MG_FN_(grad_x)(LOAD(grad + i), LOAD(x + i)));                 \
        if (i < n) {                                                                     \
            const size_t rest = n - i;                                                   \
            const mg_vf y = MG_FN_(grad_x)(LOAD_N(grad + i, rest), LOAD_N(x + i, rest)); \
            STORE_N(out + i, y, rest);                                                   \
        }                                                                                \
    }

MG_DEFINE_TILE_(f32, float, mg_loadu, mg_storeu, mg_load_f32_n, mg_store_f32_n)
MG_DEFINE_TILE_(f32_streamed, float, mg_loadu, mg_stream, mg_load_f32_n, mg_store_f32_n)

/* The general path on every lane, whatever the table form would take: the operator never
   calls it, but the table form's domain covers every finite-g lane from -8.5 up, so without
   this tile grad_general's middle and high regions would produce no result a test can check
   (only the sign of t reaches a g = +-inf or NaN lane). */
static void MG_FN_(f32_general)(const void *grad_v, const void *x_v, void *out_v, size_t n) {
    const float *grad = (const float *)grad_v;
    const float *x = (const float *)x_v;
    float *out = (float *)out_v;
    size_t i = 0;
    for (; i + MG_LANES <= n; i += MG_LANES)
        mg_storeu(out + i, MG_FN_(grad_general)(mg_loadu(grad + i), mg_loadu(x + i)));
    if (i < n) {
        const size_t rest = n - i;
        const mg_vf y = MG_FN_(grad_general)(mg_load_f32_n(grad + i, rest), mg_load_f32_n(x + i, rest));
        mg_store_f32_n(out + i, y, rest);
    }
}

/* ---- float16 and bfloat16: a shorter evaluation ------------------------------------------
   A 16-bit result needs its float32 value to about 2^-20, not to the 2 units float32 is
   held to, so these tiles evaluate the textbook form with a cheaper exp:
     exp(x) = T_j 2^m (1 + c1 r + c2 r^2), r = x - k L_hi (one product: k L_lo < 2^-23),
       c1, c2 minimax on |r| <= ln2/32 (relative error 4.3e-7 = 2^-21.1);
     mish'(x) = (n d + 4 x e (e + 1)) / d^2,  n = e (e + 2), d = n + 2;
     y = (that quotient) g     (after the division, so a tiny g does not go subnormal early).
   Every sum adds terms of one sign except n d + 4x e(e + 1) near the root of mish', where
   it cancels. Measured over every float16 and bfloat16 x (with the sweep's g values): all
   within 1 ulp of the correctly rounded result, >= 99.98% and 99.998% correctly rounded. One
   float16 input is too close to the root (x = -1.1923828, 5e-5 from it, where
   |mish'| = 1.3e-5 and the short form is 6e-4 off, a full float16 ulp for some g); lanes
   within 2^-12 of the root take the full evaluation, which holds 2.4e-5 there. No other
   float16 and no bfloat16 lies that close.
   The domain of the short form is per lane: x in [MG_FAST_X_MIN, +inf) outside that
   window, and g finite (-40 was the old float32 fast path's bound; further left the full
   evaluation keeps the tail right where e^x goes subnormal, which bfloat16's range with a
   large g can show). Lanes outside it (NaN, inf, x below -40) get the full evaluation,
   grad_general, so the result of every lane depends on its own x and g alone, whichever
   lanes share its vector. */
#define MG_ROOT -0x1.31432cp+0f /* the root of mish', -1.1924312 */
#define MG_ROOT_WINDOW 0x1p-12f
MG_ALWAYS_INLINE mg_vf MG_FN_(short_grad)(mg_vf x, mg_vf g) {
    const mg_vf xc = mg_min(x, mg_set(MG_X_MAX));
    const mg_vf e = mg_exp_rr1_lut16_p2(xc);
    const mg_vf n = mg_mul(e, mg_add(e, mg_set(2.0f)));
    const mg_vf d = mg_add(n, mg_set(2.0f));
    const mg_vf four_x_e_e1 = mg_mul(mg_mul(xc, e), mg_fma(e, mg_set(4.0f), mg_set(4.0f)));
    return mg_mul(mg_div(mg_fma(n, d, four_x_e_e1), mg_mul(d, d)), g);
}

/* Lanes in the short form's domain (see above), as a mask */
MG_ALWAYS_INLINE mg_vm MG_FN_(short_lanes)(mg_vf x, mg_vf g) {
    const mg_vm x_ok = mg_mask_and(mg_le(mg_set(MG_FAST_X_MIN), x), mg_lt(x, mg_set(INFINITY)));
    const mg_vm off_root = mg_le(mg_set(MG_ROOT_WINDOW), mg_abs(mg_sub(x, mg_set(MG_ROOT))));
    return mg_mask_and(mg_mask_and(x_ok, off_root), mg_lt(mg_abs(g), mg_set(INFINITY)));
}

MG_OUT_OF_LINE mg_vf MG_FN_(grad16_general)(mg_vf g, mg_vf x) {
    return mg_select(MG_FN_(short_lanes)(x, g), MG_FN_(short_grad)(x, g), MG_FN_(grad_general)(g, x));
}

/* Whether every lane of two vectors is in the short form's domain: pair_fast's test, and
   no lane in the root window. The window holds one float16 value and no bfloat16, so the
   equality test against that value (exact in float32) stands for it. */
#define MG_ROOT_F16 -0x1.314p+0f /* -1.1923828: the float16 nearest the root */
MG_ALWAYS_INLINE int MG_FN_(pair_short)(mg_vf x0, mg_vf x1, mg_vf g0, mg_vf g1) {
    const mg_vm off_root = mg_mask_and(mg_ne(x0, mg_set(MG_ROOT_F16)), mg_ne(x1, mg_set(MG_ROOT_F16)));
    return mg_all(mg_mask_and(MG_FN_(pair_fast_lanes)(x0, x1, g0, g1), off_root));
}

#define MG_DEFINE_TILE16_(dtype, LOAD, STORE, LOAD2, STORE2, LOAD_N, STORE_N)            \
    static void MG_FN_(dtype)(const void *grad_v, const void *x_v, void *out_v, size_t n) {    \
        const uint16_t *grad = (const uint16_t *)grad_v;                                 \
        const uint16_t *x = (const uint16_t *)x_v;                                       \
        uint16_t *out = (uint16_t *)out_v;                                               \
        size_t i = 0;                                                                    \
        for (; i + 2 * MG_LANES <= n; i += 2 * MG_LANES) {                               \
            mg_vf x0, x1, g0, g1;                                                        \
            mg_prefetch_ahead(x + i, 2 * MG_LANES * sizeof(uint16_t));                   \
            mg_prefetch_ahead(grad + i, 2 * MG_LANES * sizeof(uint16_t));                \
            LOAD2(x + i, &x0, &x1);                                                      \
            LOAD2(grad + i, &g0, &g1);                                                   \
            /* nothing is stored before both results exist, so in-place inputs stay intact */ \
            mg_vf y0, y1;                                                                \
            if (MG_FN_(pair_short)(x0, x1, g0, g1)) {                                    \
                y0 = MG_FN_(short_grad)(x0, g0);                                         \
                y1 = MG_FN_(short_grad)(x1, g1);                                         \
            } else {                                                                     \
                y0 = MG_FN_(grad16_general)(g0, x0);                                     \
                y1 = MG_FN_(grad16_general)(g1, x1);                                     \
            }                                                                            \
            STORE2(out + i, y0, y1);                                                     \
        }                                                                                \
        for (; i + MG_LANES <= n; i += MG_LANES)                                         \
            STORE(out + i, MG_FN_(grad16_general)(LOAD(grad + i), LOAD(x + i)));         \
        if (i < n) {                                                                     \
            const size_t rest = n - i;                                                   \
            const mg_vf xv = LOAD_N(x + i, rest), gv = LOAD_N(grad + i, rest);           \
            STORE_N(out + i, MG_FN_(grad16_general)(gv, xv), rest);                      \
        }                                                                                \
    }

MG_DEFINE_TILE16_(f16, mg_load_f16, mg_store_f16, mg_load_f16_x2, mg_store_f16_x2, mg_load_f16_n, mg_store_f16_n)
MG_DEFINE_TILE16_(bf16, mg_load_bf16, mg_store_bf16, mg_load_bf16_x2, mg_store_bf16_x2, mg_load_bf16_n,
                  mg_store_bf16_n)
MG_DEFINE_TILE16_(f16_streamed, mg_load_f16, mg_stream_f16, mg_load_f16_x2, mg_stream_f16_x2, mg_load_f16_n,
                  mg_store_f16_n)
MG_DEFINE_TILE16_(bf16_streamed, mg_load_bf16, mg_stream_bf16, mg_load_bf16_x2, mg_stream_bf16_x2, mg_load_bf16_n,
                  mg_store_bf16_n)

#undef MG_DEFINE_TILE16_

/* ---- the streaming tiles: the same results, with the full vectors' stores streamed --------
   For outputs too large to stay in cache (the host tiling decides): a cached store first
   reads its line (read-for-ownership), so streaming saves a quarter of the traffic of a
   float32 call, and the inputs keep the cache. Every full vector lands on a multiple of
   its own size from `out`, so an `out` on an MG_STREAM_ALIGN boundary aligns them all;
   any other `out` (a view's offset) takes the cached tile. The fence orders the streamed
   stores before the pool's release of the job. */
#define MG_DEFINE_STREAM_TILE_(dtype)                                                      \
    static void MG_FN_(dtype##_stream)(const void *grad, const void *x, void *out, size_t n) {  \
        if ((uintptr_t)out % MG_STREAM_ALIGN != 0) {                                     \
            MG_FN_(dtype)(grad, x, out, n);                                              \
            return;                                                                      \
        }                                                                                \
        MG_FN_(dtype##_streamed)(grad, x, out, n);                                       \
        mg_stream_fence();                                                               \
    }
MG_DEFINE_STREAM_TILE_(f32)
MG_DEFINE_STREAM_TILE_(f16)
MG_DEFINE_STREAM_TILE_(bf16)
#undef MG_DEFINE_STREAM_TILE_

/* The initializer of this ISA's kernel table (mish_grad_v2_kernel.h) */
#define MG_KERNEL_TABLE(isa_label)                                                        \
    {                                                                                    \
        .isa = isa_label, .f32 = MG_FN_(f32), .f16 = MG_FN_(f16), .bf16 = MG_FN_(bf16),  \
        .f32_stream = MG_FN_(f32_stream), .f16_stream = MG_FN_(f16_stream),              \
        .bf16_stream = MG_FN_(bf16_stream), .f32_general = MG_FN_(f32_general),          \
    }
#undef MG_DEFINE_TILE_

/*
 * op_kernel/mish_body.h: the Mish forward algorithm, written once.
 *
 * Included by one .c file per ISA after that ISA's vocabulary header (simd/mg_simd_*.h),
 * with MG_ISA_NAME defined to the ISA's name (used to build the function names). Every
 * line is a sequence of IEEE operations (add, mul, fma, div, compare, select, exact bit
 * tricks, and one exactly specified trip through double), so all ISAs give the same bits.
 *
 * The math. With e = exp(x), n = e (e + 2), d = n + 2 = e^2 + 2e + 2:
 *   mish(x) = x tanh(softplus(x)) = x t,  t = n / d,
 * without cancellation: every sum below adds terms whose cancellation is exact or small.
 * Evaluated as written (e, n, d, n/d, x t: five roundings that reach 1 x 2.5 ulp) it is
 * about 1.5 ulp off at worst. Here each region writes t = P (c + W) with an exact anchor c,
 * P = 1 or the exact table part of e, and a small W whose rounding errors shrink with it,
 * and the result is rounded once from x P (c + W):
 *   high   (x >= MISH_SPLIT_HIGH): c = 1,  W = -2 / d;
 *   middle:                        c = c0 (a float just below 0.6 = t(0)),
 *                                  W = (t - c0) = ((1 - c0) n - 2 c0) / d;
 *   low    (x < MISH_SPLIT_LOW):   exp(x) = P (1 + s) with P = T_j 2^m exact (math/mg_exp.h),
 *                                  t = e (e + 2) / d = P (1 + s) u,  u = (e + 2) / d,
 *                                  c = MISH_C_LOW near u, u - c = (-c e^2 + (1 - 2c) e + 2 - 2c) / d,
 *                                  W = (u - c) + s u   (so that t = P (c + W))
 *                                    = (-c e^2 + (1 - 2c) e + 2 - 2c + s (e + 2)) / d.
 * Each numerator is a Horner polynomial in e (middle, high: in v = e - 1) with exact
 * coefficients, evaluated with fmas; the low one adds s (e + 2) with one more fma, so one
 * division gives every region's W.
 * With hi + lo = x P exactly (a two-product), y = fma(hi, c, fma(hi, W, lo c)): one final
 * rounding plus errors proportional to W. Measured over every float32 x: see
 * docs/accuracy.md (the test bound is 2 ulp; goal 1).
 *
 * Two paths, one result per lane. The fast path takes x in [MISH_FAST_X_MIN, +inf), where
 * T_j 2^m and every product above are normal floats; the tail path takes the rest: x below
 * MISH_FAST_X_MIN (where exp(x) < 2^-115, so t = e (1 - e/2 ...) = e to 2^-100 and the
 * result is RN(x T_j (1 + s) 2^m), rounded once through double, into the subnormals), and
 * NaN and infinities: mish(+inf) = +inf, mish(-inf) = NaN and mish(NaN) = NaN (one
 * canonical quiet NaN), as PyTorch's x * tanh(log1p(exp(x))) gives. A vector with any lane
 * outside the fast domain computes both and takes, lane by lane, the path of that lane's
 * own x, so no lane's bits depend on its neighbours (or on the vector width).
 *
 * Float16 and bfloat16 need far less than float32's 2 ulp (their results are within 1 ulp
 * of correctly rounded when the float32 value is within about 2^-20 relative), so their
 * tiles evaluate t = n / d with the short exp mish_short (see there).
 */

#ifndef MG_ISA_NAME
#error "define MG_ISA_NAME before including mish_body.h"
#endif

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "math/mg_exp.h"

#define MG_CAT2_(a, b) a##b
#define MG_CAT_(a, b) MG_CAT2_(a, b)
#define MISH_FN_(name) MG_CAT_(MG_CAT_(mish_, name), MG_CAT_(_, MG_ISA_NAME))

/* Regions (see the top of the file) */
#ifndef MISH_SPLIT_LOW
#define MISH_SPLIT_LOW -0.3f
#endif
#ifndef MISH_SPLIT_HIGH
#define MISH_SPLIT_HIGH 0.625f
#endif
/* Above 20 the result is x (1 - t < 2^-57); the exp's argument is clamped there */
#define MISH_X_MAX 20.0f
/* The fast path's domain starts here: T_j 2^m >= 2^-116 keeps x P, its error term and the
   result normal (or their error below 2^-40 of the result). */
#define MISH_FAST_X_MIN -80.0f
/* Below this x the result is -0 (|x e^x| < 2^-150); the tail clamps the exp's argument */
#define MISH_TAIL_X_MIN -110.0f

/* c0 = 0x1.333332p-1 = 0.59999996, just below t(0) = 0.6: then x = -0 gives -0 (x W has
   the sign of x) and the middle numerator's coefficients are exact */
#define MISH_C0 0x1.333332p-1f
#define MISH_1_MINUS_C0 0x1.99999cp-2f      /* 1 - c0, exact */
#define MISH_4_MINUS_4C0 0x1.99999cp+0f     /* 4 (1 - c0), exact */
#define MISH_3_MINUS_5C0 0x1.8p-23f         /* 3 - 5 c0 = 3 2^-24, exact */
#ifndef MISH_C_LOW
#define MISH_C_LOW 0.8125f
#endif

/* ---- the fast path ------------------------------------------------------------------- */

MG_ALWAYS_INLINE mg_vf MISH_FN_(fast)(mg_vf x) {
    const mg_vf one = mg_set(1.0f);
    const mg_vf xc = mg_min(x, mg_set(MISH_X_MAX));
    mg_vi kbits;
    const mg_vf s = mg_exp_rr2_lut16_p3_parts(xc, &kbits);
    const mg_vf big_e = mg_exp_lut16_scaled(kbits); /* exp(x) = E (1 + s), E exact */
    const mg_vf e = mg_fma(big_e, s, big_e);
    const mg_vm is_low = mg_lt(xc, mg_set(MISH_SPLIT_LOW));
    const mg_vm is_high = mg_le(mg_set(MISH_SPLIT_HIGH), xc);
    /* middle and high: t - c = ((1 - c) v (v + 4) + 3 - 5c) / d in v = e - 1 =
       fma(E, s, E - 1), rounded once (E - 1 is exact for E in [0.5, 4)); for c = c0 the
       coefficients 1 - c0, 4 (1 - c0), 3 - 5 c0 are exact constants, and for c = 1 the
       numerator is the constant -2 */
    const mg_vf v = mg_fma(big_e, s, mg_sub(big_e, one));
    const mg_vf num_middle = mg_fma(mg_fma(mg_set(MISH_1_MINUS_C0), v, mg_set(MISH_4_MINUS_4C0)), v,
                                    mg_set(MISH_3_MINUS_5C0));
    /* low: W = (u - c) + s u = (-c e^2 + (1 - 2c) e + 2 - 2c + s (e + 2)) / d, c = MISH_C_LOW */
    const mg_vf e_plus_2 = mg_add(e, mg_set(2.0f));
    const mg_vf num_low = mg_fma(s, e_plus_2, mg_fma(mg_fma(mg_set(-MISH_C_LOW), e, mg_set(1.0f - 2.0f * MISH_C_LOW)), e,
                                 mg_set(2.0f - 2.0f * MISH_C_LOW)));
    /* -c, the anchor negated: the products below take it as it is, so no lane needs a
       negation of its own and the sign of a zero comes out of IEEE rules alone */
    const mg_vf neg_c = mg_select(is_low, mg_set(-MISH_C_LOW), mg_select(is_high, mg_set(-1.0f), mg_set(-MISH_C0)));
    const mg_vf num = mg_select(is_low, num_low, mg_select(is_high, mg_set(-2.0f), num_middle));
    const mg_vf d = mg_fma(e_plus_2, e, mg_set(2.0f));
    const mg_vf w = mg_div(num, d);
    /* low: P = E */
    const mg_vf p = mg_select(is_low, big_e, one);
    /* hi - nlo = x p exactly; nlo = hi - x p is +0 where x p is exact (every x outside
       the low region), and nlo (-c) is then -0, which keeps the sign of x = -0.
       y = hi c + (hi W - nlo c), the last product rounded first */
    const mg_vf hi = mg_mul(x, p);
    const mg_vf nlo = mg_fnma(x, p, hi);
    return mg_fnma(hi, neg_c, mg_fma(hi, w, mg_mul(nlo, neg_c)));
}

/* The 16-bit tiles' evaluation: t = n / d as written, with the short exp (relative error
   2^-21.1): the float32 value is within about 2^-20 of mish(x), so the 16-bit result is
   within 1 ulp of the correctly rounded one, and is that one unless mish(x) lies within
   2^-20 of a rounding midpoint (measured: docs/accuracy.md). Same domain as the fast path. */
MG_ALWAYS_INLINE mg_vf MISH_FN_(short)(mg_vf x) {
    const mg_vf e = mg_exp_rr1_lut16_p2(mg_min(x, mg_set(MISH_X_MAX)));
    const mg_vf n = mg_fma(e, e, mg_add(e, e));
    return mg_mul(x, mg_div(n, mg_add(n, mg_set(2.0f))));
}

/* Whether every lane of two vectors is in the fast domain [MISH_FAST_X_MIN, +inf):
   (x0 + x1) * 0 is +-0 when both are finite (NaN when either is NaN or infinite, or the
   sum overflows, which only sends the pair to the tail needlessly); added to min(x0, x1)
   it leaves the minimum to compare with the bound, or makes the ordered compare fail. */
MG_ALWAYS_INLINE mg_vm MISH_FN_(fast_lanes)(mg_vf x0, mg_vf x1) {
    const mg_vf min_or_nan = mg_fma(mg_add(x0, x1), mg_set(0.0f), mg_min(x0, x1));
    return mg_le(mg_set(MISH_FAST_X_MIN), min_or_nan);
}

/* ---- the tail: every lane outside the fast domain -------------------------------------- */

MG_OUT_OF_LINE mg_vf MISH_FN_(tail)(mg_vf x, mg_vf fast_result) {
    /* x < MISH_FAST_X_MIN: y = RN(xc T_j (1 + s) 2^m), the product T_j s rounded (its
       error is 2^-24 of a 2^-5 term) and everything else exact in double */
    const mg_vf xc = mg_min(mg_max(x, mg_set(MISH_TAIL_X_MIN)), mg_set(MISH_FAST_X_MIN));
    mg_vi kbits;
    const mg_vf s = mg_exp_rr2_lut16_p3_parts(xc, &kbits);
    const mg_vf t_j = mg_exp_lut16_t(kbits);
    const mg_vf tail = mg_fma_scaled_round_once(xc, t_j, mg_mul(mg_mul(xc, t_j), s), mg_exp_lut16_m(kbits));
    /* per lane: the fast result where x is in the fast domain, the tail below it, and the
       special values: +inf -> +inf, -inf and NaN -> NaN */
    const mg_vm in_fast = mg_mask_and(mg_le(mg_set(MISH_FAST_X_MIN), x), mg_lt(x, mg_set(INFINITY)));
    const mg_vm finite = mg_lt(mg_abs(x), mg_set(INFINITY));
    const mg_vf special = mg_select(mg_lt(mg_set(0.0f), x), mg_set(INFINITY), mg_set(NAN));
    return mg_select(in_fast, fast_result, mg_select(finite, tail, special));
}

/* ---- the tiles: pairs of vectors, then one, then a partial one ------------------------- */

#define MISH_DEFINE_TILE_(dtype, elem_t, EVAL, LOAD, STORE, LOAD2, STORE2, LOAD_N, STORE_N) \
    static void MISH_FN_(dtype)(const void *x_v, void *out_v, size_t n) {                  \
        const elem_t *x = (const elem_t *)x_v;                                           \
        elem_t *out = (elem_t *)out_v;                                                   \
        size_t i = 0;                                                                    \
        for (; i + 2 * MG_LANES <= n; i += 2 * MG_LANES) {                               \
            mg_vf x0, x1;                                                                \
            LOAD2(x + i, &x0, &x1);                                                      \
            /* both results exist before either store, so in place is safe */            \
            mg_vf y0 = MISH_FN_(EVAL)(x0), y1 = MISH_FN_(EVAL)(x1);                      \
            if (!mg_all(MISH_FN_(fast_lanes)(x0, x1))) {                                 \
                y0 = MISH_FN_(tail)(x0, y0);                                             \
                y1 = MISH_FN_(tail)(x1, y1);                                             \
            }                                                                            \
            STORE2(out + i, y0, y1);                                                     \
        }                                                                                \
        for (; i + MG_LANES <= n; i += MG_LANES) {                                       \
            const mg_vf xv = LOAD(x + i);                                                \
            mg_vf y = MISH_FN_(EVAL)(xv);                                                \
            if (!mg_all(MISH_FN_(fast_lanes)(xv, xv))) y = MISH_FN_(tail)(xv, y);        \
            STORE(out + i, y);                                                           \
        }                                                                                \
        if (i < n) {                                                                     \
            const size_t rest = n - i;                                                   \
            const mg_vf xv = LOAD_N(x + i, rest);                                        \
            mg_vf y = MISH_FN_(EVAL)(xv);                                                \
            if (!mg_all(MISH_FN_(fast_lanes)(xv, xv))) y = MISH_FN_(tail)(xv, y);        \
            STORE_N(out + i, y, rest);                                                   \
        }                                                                                \
    }

MISH_DEFINE_TILE_(f32, float, fast, mg_loadu, mg_storeu, mg_load_f32_x2, mg_store_f32_x2, mg_load_f32_n,
                  mg_store_f32_n)
MISH_DEFINE_TILE_(f32_streamed, float, fast, mg_loadu, mg_stream, mg_load_f32_x2, mg_stream_f32_x2, mg_load_f32_n,
                  mg_store_f32_n)
MISH_DEFINE_TILE_(f16, uint16_t, short, mg_load_f16, mg_store_f16, mg_load_f16_x2, mg_store_f16_x2, mg_load_f16_n,
                  mg_store_f16_n)
MISH_DEFINE_TILE_(bf16, uint16_t, short, mg_load_bf16, mg_store_bf16, mg_load_bf16_x2, mg_store_bf16_x2,
                  mg_load_bf16_n, mg_store_bf16_n)
MISH_DEFINE_TILE_(f16_streamed, uint16_t, short, mg_load_f16, mg_stream_f16, mg_load_f16_x2, mg_stream_f16_x2,
                  mg_load_f16_n, mg_store_f16_n)
MISH_DEFINE_TILE_(bf16_streamed, uint16_t, short, mg_load_bf16, mg_stream_bf16, mg_load_bf16_x2, mg_stream_bf16_x2,
                  mg_load_bf16_n, mg_store_bf16_n)
#undef MISH_DEFINE_TILE_

/* ---- the streaming tiles: the same results, the full vectors' stores streamed ------------
   Every full vector lands on a multiple of its own size from `out`, so an `out` on an
   MG_STREAM_ALIGN boundary aligns them all; any other `out` takes the cached tile. The
   fence orders the streamed stores before the pool's release of the job. */
#define MISH_DEFINE_STREAM_TILE_(dtype)                                                   \
    static void MISH_FN_(dtype##_stream)(const void *x, void *out, size_t n) {            \
        if ((uintptr_t)out % MG_STREAM_ALIGN != 0) {                                     \
            MISH_FN_(dtype)(x, out, n);                                                  \
            return;                                                                      \
        }                                                                                \
        MISH_FN_(dtype##_streamed)(x, out, n);                                           \
        mg_stream_fence();                                                               \
    }
MISH_DEFINE_STREAM_TILE_(f32)
MISH_DEFINE_STREAM_TILE_(f16)
MISH_DEFINE_STREAM_TILE_(bf16)
#undef MISH_DEFINE_STREAM_TILE_

/* The initializer of this ISA's table (mish_kernel.h) */
#define MISH_KERNEL_TABLE(isa_label)                                                      \
    {                                                                                    \
        .isa = isa_label, .f32 = MISH_FN_(f32), .f16 = MISH_FN_(f16), .bf16 = MISH_FN_(bf16), \
        .f32_stream = MISH_FN_(f32_stream), .f16_stream = MISH_FN_(f16_stream),          \
        .bf16_stream = MISH_FN_(bf16_stream),                                            \
    }

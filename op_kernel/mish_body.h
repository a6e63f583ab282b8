/*
 * op_kernel/mish_body.h: the Mish forward algorithm, written once.
 *
 * Included by op_kernel/kernel_isa.c, compiled once per ISA variant, after that ISA's
 * vocabulary header (simd/mg_simd_*.h), with MG_ISA_NAME defined to the variant's name. Every
 * line is a sequence of IEEE operations (add, mul, fma, div, compare, select, exact bit
 * tricks, and one exactly specified trip through double), so all ISAs give the same bits.
 * mish(x) = x t, t = tanh(softplus(x)) = n / d, n = e (e + 2), d = n + 2, e = exp(x). Each
 * float32 lane takes the form of its own x's domain (table: x >= -8.5; below: one exp, no
 * division; tail: x < -80, NaN, inf), so no lane's bits depend on its neighbours or on the
 * vector width. The 16-bit tiles look results up in a table the evaluated tiles (t = n / d,
 * short exp) fill (lookup16_tiles.h). The forms, their errors and special values:
 * docs/accuracy.md, "How the kernel computes it" (the forward's part).
 */

#ifndef MG_ISA_NAME
#error "define MG_ISA_NAME before including mish_body.h"
#endif

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "lookup16_tiles.h"
#include "math/mg_exp.h"
#include "math/mg_lut16_poly.h"
#include "mish_lut16_p7.h"

#define MG_CAT2_(a, b) a##b
#define MG_CAT_(a, b) MG_CAT2_(a, b)
#define MISH_FN_(name) MG_CAT_(MG_CAT_(mish_, name), MG_CAT_(_, MG_ISA_NAME))

/* Above 20 the result is x (1 - t < 2^-57); the exp's argument is clamped there */
#define MISH_X_MAX 20.0f
/* The exp forms' domain starts here: T_j 2^m >= 2^-116 keeps x P, its error term and the
   result normal (or their error below 2^-40 of the result). */
#define MISH_EXP_X_MIN -80.0f
/* Below this x the result is -0 (|x e^x| < 2^-150); the tail clamps the exp's argument */
#define MISH_TAIL_X_MIN -110.0f

/* The 16-bit tiles' evaluation: t = n / d as written, with the short exp (relative error
   2^-21.1): the float32 value is within about 2^-20 of mish(x), so the 16-bit result is
   within 1 ulp of the correctly rounded one, and is that one unless mish(x) lies within
   2^-20 of a rounding midpoint (measured: docs/accuracy.md). Same domain as the below form. */
MG_ALWAYS_INLINE mg_vf MISH_FN_(short)(mg_vf x) {
    const mg_vf e = mg_exp_rr1_lut16_p2(mg_min(x, mg_set(MISH_X_MAX)));
    const mg_vf n = mg_fma(e, e, mg_add(e, e));
    return mg_mul(x, mg_div(n, mg_add(n, mg_set(2.0f))));
}

/* ---- the float32 table form ----------------------------------------------------------- */

/* The table's domain: interval k = round(x) in [-8, 7] covers [k - 0.5, k + 0.5], the last
   one [6.5, MISH_LUT_X_MAX]; above that x is clamped (1 - t(9.5) < 2^-26, so y = x t(9.5)
   is within 0.2 ulp of x t(x) before its rounding) */
#define MISH_LUT_X_MIN -8.5f
#define MISH_LUT_X_MAX 9.5f
/* t(x) = hi + q (math/mg_lut16_poly.h), q = q0 + d (c1 + ... + d c7), d = x - k (exact:
   |d| <= 2.5 and x is a multiple of ulp(x) >= 2^-24 wherever k != 0); the coefficients from
   tools/fit_mish_lut16.py (minimax in relative error, 2^-25.9 at worst near x = 0, where
   the poles of t at 0.35 +- 2.36i are closest). The result is rounded once from
   x hi + x q: y = fma(x, hi, x q), with the anchor hi chosen so that |q / t| <= 0.46,
   which scales the roundings of q and x q. Its error is measured over every float32 in
   docs/accuracy.md. Valid on [MISH_LUT_X_MIN, +inf); NaN and infinities are the tail's. */
MG_ALWAYS_INLINE mg_vf MISH_FN_(lut16_p7)(mg_vf x) {
    mg_vf hi;
    const mg_vf q = mg_lut16_poly(mish_lut16_p7_coefficients, 9, x, MISH_LUT_X_MAX, &hi);
    return mg_fma(x, hi, mg_mul(x, q));
}

/* Below the table, x in [MISH_EXP_X_MIN, MISH_LUT_X_MIN): e = exp(x) = E (1 + s) < 2^-12
   (E = T_j 2^m exact, math/mg_exp.h) and t = e (e + 2) / d = e (1 - e/2 + e^3/4 - ...), so
   t = E (1 + W), W = s - h (1 + s), h = e/2, to 2^-38 (the e^3 term), without a division.
   With hi - nlo = x E exactly (a two-product), y = hi - (nlo - hi W): one rounding of the
   sum, and the inner one on a term below 2^-5 of it. */
MG_ALWAYS_INLINE mg_vf MISH_FN_(below_table)(mg_vf x) {
    mg_vi kbits;
    const mg_vf s = mg_exp_rr2_lut16_p3_parts(mg_max(x, mg_set(MISH_EXP_X_MIN)), &kbits);
    const mg_vf big_e = mg_exp_lut16_scaled(kbits);
    const mg_vf h = mg_mul(mg_fma(big_e, s, big_e), mg_set(0.5f));
    const mg_vf w = mg_fnma(h, s, mg_sub(s, h));
    const mg_vf hi = mg_mul(x, big_e);
    const mg_vf nlo = mg_fnma(x, big_e, hi);
    return mg_sub(hi, mg_fnma(hi, w, nlo));
}

/* Per lane: x is in [bound, +inf) (finite; NaN is not) */
MG_ALWAYS_INLINE mg_vm MISH_FN_(finite_from)(mg_vf x, float bound) {
    return mg_mask_and(mg_le(mg_set(bound), x), mg_lt(x, mg_set(INFINITY)));
}

/* Whether every lane of two vectors is in [bound, +inf):
   (x0 + x1) * 0 is +-0 when both are finite (NaN when either is NaN or infinite, or the
   sum overflows, which only sends the pair to the tail needlessly); added to min(x0, x1)
   it leaves the minimum to compare with the bound, or makes the ordered compare fail. */
MG_ALWAYS_INLINE mg_vm MISH_FN_(lanes_from)(mg_vf x0, mg_vf x1, float bound) {
    const mg_vf min_or_nan = mg_fma(mg_add(x0, x1), mg_set(0.0f), mg_min(x0, x1));
    return mg_le(mg_set(bound), min_or_nan);
}

/* ---- the tail: every lane outside the exp forms' domain ---------------------------------- */

MG_OUT_OF_LINE mg_vf MISH_FN_(tail)(mg_vf x, mg_vf exp_result) {
    /* x < MISH_EXP_X_MIN: y = RN(xc T_j (1 + s) 2^m), the product T_j s rounded (its
       error is 2^-24 of a 2^-5 term) and everything else exact in double */
    const mg_vf xc = mg_min(mg_max(x, mg_set(MISH_TAIL_X_MIN)), mg_set(MISH_EXP_X_MIN));
    mg_vi kbits;
    const mg_vf s = mg_exp_rr2_lut16_p3_parts(xc, &kbits);
    const mg_vf t_j = mg_exp_lut16_t(kbits);
    const mg_vf tail = mg_fma_scaled_round_once(xc, t_j, mg_mul(mg_mul(xc, t_j), s), mg_exp_lut16_m(kbits));
    /* per lane: the exp form's result where x is in its domain, the tail below it, and the
       special values: +inf -> +inf, -inf and NaN -> NaN */
    const mg_vm in_exp = MISH_FN_(finite_from)(x, MISH_EXP_X_MIN);
    const mg_vm finite = mg_lt(mg_abs(x), mg_set(INFINITY));
    const mg_vf special = mg_select(mg_lt(mg_set(0.0f), x), mg_set(INFINITY), mg_set(NAN));
    return mg_select(in_exp, exp_result, mg_select(finite, tail, special));
}

/* ---- each evaluation's domain check and the rest of its lanes ------------------------ */

MG_ALWAYS_INLINE mg_vm MISH_FN_(short_lanes)(mg_vf x0, mg_vf x1) {
    return MISH_FN_(lanes_from)(x0, x1, MISH_EXP_X_MIN);
}
MG_ALWAYS_INLINE mg_vf MISH_FN_(short_rest)(mg_vf x, mg_vf y) { return MISH_FN_(tail)(x, y); }
MG_ALWAYS_INLINE mg_vm MISH_FN_(lut16_p7_lanes)(mg_vf x0, mg_vf x1) {
    return MISH_FN_(lanes_from)(x0, x1, MISH_LUT_X_MIN);
}
/* A vector with a lane outside the table's domain: each lane takes the form of its own x's
   domain (the table's result, the form below it, or the tail, computed only where a lane
   needs it) */
MG_ALWAYS_INLINE mg_vf MISH_FN_(lut16_p7_rest)(mg_vf x, mg_vf table_result) {
    const mg_vm in_table = MISH_FN_(finite_from)(x, MISH_LUT_X_MIN);
    mg_vf below = MISH_FN_(below_table)(x);
    if (!mg_all(MISH_FN_(short_lanes)(x, x))) below = MISH_FN_(tail)(x, below);
    return mg_select(in_table, table_result, below);
}

/* ---- the tiles: pairs of vectors, then one, then a partial one ------------------------- */

#define MISH_DEFINE_TILE_(dtype, elem_t, EVAL, LOAD, STORE, LOAD2, STORE2, LOAD_N, STORE_N) \
    static void MISH_FN_(dtype)(const void *x_v, void *out_v, size_t n) {                  \
        const elem_t *x = (const elem_t *)x_v;                                           \
        elem_t *out = (elem_t *)out_v;                                                   \
        size_t i = 0;                                                                    \
        for (; i + 2 * MG_LANES <= n; i += 2 * MG_LANES) {                               \
            mg_vf x0, x1;                                                                \
            mg_prefetch_ahead(x + i, 2 * MG_LANES * sizeof(elem_t));                     \
            LOAD2(x + i, &x0, &x1);                                                      \
            /* both results exist before either store, so in place is safe */            \
            mg_vf y0 = MISH_FN_(EVAL)(x0), y1 = MISH_FN_(EVAL)(x1);                      \
            if (!mg_all(MISH_FN_(EVAL##_lanes)(x0, x1))) {                               \
                y0 = MISH_FN_(EVAL##_rest)(x0, y0);                                      \
                y1 = MISH_FN_(EVAL##_rest)(x1, y1);                                      \
            }                                                                            \
            STORE2(out + i, y0, y1);                                                     \
        }                                                                                \
        for (; i + MG_LANES <= n; i += MG_LANES) {                                       \
            const mg_vf xv = LOAD(x + i);                                                \
            mg_vf y = MISH_FN_(EVAL)(xv);                                                \
            if (!mg_all(MISH_FN_(EVAL##_lanes)(xv, xv))) y = MISH_FN_(EVAL##_rest)(xv, y); \
            STORE(out + i, y);                                                           \
        }                                                                                \
        if (i < n) {                                                                     \
            const size_t rest = n - i;                                                   \
            const mg_vf xv = LOAD_N(x + i, rest);                                        \
            mg_vf y = MISH_FN_(EVAL)(xv);                                                \
            if (!mg_all(MISH_FN_(EVAL##_lanes)(xv, xv))) y = MISH_FN_(EVAL##_rest)(xv, y); \
            STORE_N(out + i, y, rest);                                                   \
        }                                                                                \
    }

MISH_DEFINE_TILE_(f32, float, lut16_p7, mg_loadu, mg_storeu, mg_load_f32_x2, mg_store_f32_x2, mg_load_f32_n,
                  mg_store_f32_n)
MISH_DEFINE_TILE_(f32_streamed, float, lut16_p7, mg_loadu, mg_stream, mg_load_f32_x2, mg_stream_f32_x2, mg_load_f32_n,
                  mg_store_f32_n)
MISH_DEFINE_TILE_(f16_evaluated, uint16_t, short, mg_load_f16, mg_store_f16, mg_load_f16_x2, mg_store_f16_x2,
                  mg_load_f16_n, mg_store_f16_n)
MISH_DEFINE_TILE_(bf16_evaluated, uint16_t, short, mg_load_bf16, mg_store_bf16, mg_load_bf16_x2, mg_store_bf16_x2,
                  mg_load_bf16_n, mg_store_bf16_n)
#undef MISH_DEFINE_TILE_

/* ---- the 16-bit tiles: a table of the evaluated results, one entry per input -------------
   (op_kernel/lookup16_tiles.h): f16 / bf16 and their streamed forms look up what
   f16_evaluated / bf16_evaluated give. */
MG_DEFINE_LOOKUP16_TILES(MISH_FN_, f16)
MG_DEFINE_LOOKUP16_TILES(MISH_FN_, bf16)

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
        .bf16_stream = MISH_FN_(bf16_stream), .f16_evaluated = MISH_FN_(f16_evaluated),  \
        .bf16_evaluated = MISH_FN_(bf16_evaluated),                                      \
    }

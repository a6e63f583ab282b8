/*
 * op_kernel/mish_grad_v2_body.h: the MishGradV2 algorithm, written once.
 *
 * Included by one .c file per ISA after that ISA's vocabulary header (simd/mg_simd_*.h),
 * with MG_ISA_NAME defined to the ISA's name (used to build the function names). Every
 * line below is a sequence of IEEE-exact operations (add, mul, fma, div, compare, select,
 * exact bit tricks), so all ISAs produce the same bits.
 *
 * The math. With e = exp(x), n = e(e+2), d = n + 2 = e^2 + 2e + 2:
 *   mish'(x) = tanh(softplus(x)) + x sigmoid(x) (1 - tanh^2(softplus(x)))
 *            = n/d + 4 x e (1+e) / d^2 = e N(e) / d^2,  N = e^3 + 4e^2 + (4x+6)e + (4x+4).
 * Evaluated as written that takes ~7 roundings and reaches ~3 units of the issue-4 bound.
 * Instead each of three regions writes mish'(x) = anchor + correction, with an anchor
 * that is exact and a correction R = num(e) / d^2 that is small next to it, so R's
 * rounding errors shrink with R (measured worst case over every float32: 1.31 units):
 *   low    (x < -0.5):  mish' = e ((1 + x) + R)   -- 1 + x is exact there; e = p 2^k
 *                       stays split and 2^k is applied last, after the gradient, so the
 *                       subnormal tail (x < -87.3) is rounded once, not twice;
 *   middle (x < 0.5):   mish' = 0.6f + R          -- x = +-0 and subnormal x give 0.6f;
 *   high:               mish' = 1 + R             -- R ~ 4x/e^2.
 * One exp per element, one division.
 */

#ifndef MG_ISA_NAME
#error "define MG_ISA_NAME before including mish_grad_v2_body.h"
#endif

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define MG_CAT2_(a, b) a##b
#define MG_CAT_(a, b) MG_CAT2_(a, b)
#define MG_FN_(name) MG_CAT_(MG_CAT_(mish_grad_v2_, name), MG_CAT_(_, MG_ISA_NAME))

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
#define MG_4_MINUS_4C0 0x1.999998p+0f /* 4 - 4 c0, exact */
#define MG_6_MINUS_8C0 0x1.333330p+0f /* 6 - 8 c0, exact */
#define MG_4_MINUS_8C0 -0x1.9999a0p-1f /* 4 - 8 c0, exact */
#define MG_MINUS_4C0 -0x1.333334p+1f  /* -4 c0, exact */

static inline mg_vf MG_FN_(grad_x)(mg_vf g, mg_vf x) {
    const mg_vf one = mg_set(1.0f);
    const mg_vf xc = mg_min(mg_max(x, mg_set(MG_X_MIN)), mg_set(MG_X_MAX));

    /* exp(xc) = p * 2^k. k = round(xc / ln2) by the 1.5 * 2^23 rounding trick; the reduced
       argument r = xc - k ln2 with ln2 split in two floats (ln2_hi = ln2 rounded to float,
       so fma(k, -ln2_hi, xc) is exact for |k| <= 289; ln2_lo = ln2 - ln2_hi rounded). */
    const mg_vf magic = mg_set(0x1.8p23f);
    const mg_vf kf = mg_sub(mg_fma(xc, mg_set(0x1.715476p+0f) /* log2(e) */, magic), magic);
    mg_vf r = mg_fma(kf, mg_set(-0x1.62e430p-1f) /* -ln2_hi */, xc);
    r = mg_fma(kf, mg_set(0x1.05c610p-29f) /* -ln2_lo */, r);
    /* exp(r) = 1 + r + r^2 q(r) on |r| <= ln2/2; q: Chebyshev fit of (exp(r)-1-r)/r^2,
       degree 4, coefficients rounded to float (fit error 6.5e-8 on q, < 2^-27 on exp). */
    mg_vf q = mg_fma(mg_set(0x1.6d10fcp-10f), r, mg_set(0x1.120b62p-7f));
    q = mg_fma(q, r, mg_set(0x1.55551ap-5f));
    q = mg_fma(q, r, mg_set(0x1.5554dep-3f));
    q = mg_fma(q, r, mg_set(0x1.000000p-1f));
    const mg_vf p = mg_fma(mg_fma(q, r, one), r, one);
    /* 2^k as three normal factors 2^k_pre * 2^k_post * 2^k_tail: k_tail = min(k + 252, 0)
       takes what two factors (each >= 2^-126) cannot reach, and the rest is halved (the
       more negative half first) so that the low region's t * 2^k_pre below is exact and
       below 1 in magnitude. */
    const mg_vi k = mg_to_int(kf);
    const mg_vi k_tail = mg_min_i(mg_add_i(k, mg_set_i(252)), mg_set_i(0));
    const mg_vi k_two = mg_sub_i(k, k_tail);
    const mg_vi k_pre = mg_half_floor(k_two);
    const mg_vf s_pre = mg_pow2(k_pre);
    const mg_vf s_post = mg_pow2(mg_sub_i(k_two, k_pre));
    const mg_vf s_tail = mg_pow2(k_tail);
    /* e = exp(xc) itself for the polynomials; subnormal or 0 only in the low region's far
       tail, where the terms it feeds are negligible next to 1 + x */
    const mg_vf e = mg_mul(mg_mul(mg_mul(p, s_pre), s_post), s_tail);

    /* All three regions: mish'(x) = P (c + R) 2^K, R = num(e) / (e^2 + 2e + 2)^2,
         low:    c = 1 + x (exact for x <= -0.5), P = p, 2^K = 2^k;
                 num = e (-(1+x) e^3 - (3+4x) e^2 - (4+8x) e - (2+4x))
         middle: c = c0, P = 1, K = 0; num = e N(e) - c0 (e^2+2e+2)^2
         high:   c = 1,  P = 1, K = 0; num = (4x-2) e^2 + (4x-4) e - 4
       so R is a correction small next to c wherever c is not exact, and its rounding
       errors shrink with it. num = (((a4 e + a3) e + a2) e + a1) e + a0 with each
       a_i = alpha_i x + beta_i looked up by region. */
    const mg_vm low = mg_lt(xc, mg_set(MG_SPLIT_LOW));
    const mg_vi region = mg_region(mg_le(mg_set(MG_SPLIT_LOW), xc), mg_le(mg_set(MG_SPLIT_HIGH), xc));
    const mg_vf a4 = mg_fma(mg_lookup3(region, -1.0f, 0.0f, 0.0f), xc, mg_lookup3(region, -1.0f, MG_1_MINUS_C0, 0.0f));
    const mg_vf a3 = mg_fma(mg_lookup3(region, -4.0f, 0.0f, 0.0f), xc, mg_lookup3(region, -3.0f, MG_4_MINUS_4C0, 0.0f));
    const mg_vf a2 = mg_fma(mg_lookup3(region, -8.0f, 4.0f, 4.0f), xc, mg_lookup3(region, -4.0f, MG_6_MINUS_8C0, -2.0f));
    const mg_vf a1 = mg_fma(mg_lookup3(region, -4.0f, 4.0f, 4.0f), xc, mg_lookup3(region, -2.0f, MG_4_MINUS_8C0, -4.0f));
    const mg_vf a0 = mg_lookup3(region, 0.0f, MG_MINUS_4C0, -4.0f);
    mg_vf num = mg_fma(a4, e, a3);
    num = mg_fma(num, e, a2);
    num = mg_fma(num, e, a1);
    num = mg_fma(num, e, a0);
    /* (e^2 + 2e + 2)^2 = e^4 + 4e^3 + 8e^2 + 8e + 4, by Horner: all terms positive, so
       its rounding stays near one half ulp */
    mg_vf den = mg_add(e, mg_set(4.0f));
    den = mg_fma(den, e, mg_set(8.0f));
    den = mg_fma(den, e, mg_set(8.0f));
    den = mg_fma(den, e, mg_set(4.0f));
    const mg_vf correction = mg_div(num, den);
    const mg_vf c = mg_fma(mg_lookup3(region, 1.0f, 0.0f, 0.0f), xc, mg_lookup3(region, 1.0f, MG_C0, 1.0f));
    const mg_vf big_p = mg_select(low, p, one);
    const mg_vf t = mg_fma(big_p, c, mg_mul(big_p, correction));

    /* Low region: y = ((t 2^k_pre) g) 2^k_post 2^k_tail. The first product is exact and
       below 1, so a gradient up to FLT_MAX cannot overflow it; g's product is the one
       rounding for g != 1; the last factors round into the subnormals only once the
       result is below 2^-126 anyway (at most 2^-149 of error in all). Other regions: t g. */
    const mg_vf scale_pre = mg_select(low, s_pre, one);
    const mg_vf scale_post = mg_select(low, s_post, one);
    const mg_vf scale_tail = mg_select(low, s_tail, one);
    const mg_vf y = mg_mul(mg_mul(mg_mul(mg_mul(t, scale_pre), g), scale_post), scale_tail);

    /* x = +-inf or NaN, g = NaN, or inf * 0: one canonical quiet NaN, so that every ISA
       writes the same bits */
    const mg_vm finite_x = mg_lt(mg_abs(x), mg_set(INFINITY));
    const mg_vm ok = mg_mask_and(finite_x, mg_ordered(y, y));
    return mg_select(ok, y, mg_set(NAN));
}

/* ---- the loops: two vectors per step, then one, then a partial vector ---------------- */

#define MG_DEFINE_TILE_(dtype, elem_t, LOAD, STORE, LOAD_N, STORE_N)                     \
    static void MG_FN_(dtype)(const void *grad_v, const void *x_v, void *out_v, size_t n) {    \
        const elem_t *grad = (const elem_t *)grad_v;                                     \
        const elem_t *x = (const elem_t *)x_v;                                           \
        elem_t *out = (elem_t *)out_v;                                                   \
        size_t i = 0;                                                                    \
        for (; i + 2 * MG_LANES <= n; i += 2 * MG_LANES) {                               \
            const mg_vf g0 = LOAD(grad + i), x0 = LOAD(x + i);                           \
            const mg_vf g1 = LOAD(grad + i + MG_LANES), x1 = LOAD(x + i + MG_LANES);     \
            const mg_vf y0 = MG_FN_(grad_x)(g0, x0);                                     \
            const mg_vf y1 = MG_FN_(grad_x)(g1, x1);                                     \
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
MG_DEFINE_TILE_(f16, uint16_t, mg_load_f16, mg_store_f16, mg_load_f16_n, mg_store_f16_n)
MG_DEFINE_TILE_(bf16, uint16_t, mg_load_bf16, mg_store_bf16, mg_load_bf16_n, mg_store_bf16_n)

#undef MG_DEFINE_TILE_

/*
 * reference/mish_reference.h: an independent reference for mish'(x), the yardstick of
 * every accuracy test and of tools/mishgrad_sweep. It shares no code with op_kernel/.
 *
 *   T1 = tanh(softplus(x)),  T2 = x * (1 - T1^2) * sigmoid(x),  mish'(x) = T1 + T2
 *
 * Invariant: both terms come from one exponential in forms where every addition adds positive
 * numbers (exp(x) for x <= 0, exp(-x) above), so nothing cancels inside a term; only T1 + T2
 * cancels, near the root x = -1.19243, which is why the error measure is scaled by
 * |T1| + |T2|. The result is within 26 eps |g| (|T1| + |T2|): < 1.2e-11 units of the measure
 * in long double, < 2.5e-8 in double. The forms and the budget: docs/accuracy.md,
 * "The reference".
 */
#ifndef MISH_REFERENCE_H_
#define MISH_REFERENCE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The two terms of mish'(x). A NaN or infinite x gives NaN terms (the operator's contract:
   x = +-inf gives NaN, as PyTorch does). */
void mish_ref_terms_ld(long double x, long double *t1, long double *t2);
void mish_ref_terms_d(double x, double *t1, double *t2);

/* mish'(x) = T1 + T2 in long double. */
long double mish_ref_grad_ld(long double x);

/* Bounds of the reference itself in units of the error measure (see above). */
#define MISH_REF_LD_ERR_BOUND 1.2e-11
#define MISH_REF_D_ERR_BOUND 2.5e-8

/* The condition-aware error of a float32 result y for gradient g:
     err = |y - g (T1 + T2)| / max(2^-23 |g| (|T1| + |T2|), 2^-149)
   Special cases, written down:
   - the exact value is NaN (x not finite, g NaN): err = 0 if y is NaN, else +inf;
   - g infinite: mish'(x) is never 0 for a float x, so y must be the infinity of the right
     sign (err 0 or +inf); where mish'(x) rounds to zero in float32 (x below about -108.4)
     NaN is accepted too, since float32 arithmetic sees inf * 0 there;
   - the exact value rounds to +-inf in float32: y must be that infinity (0 or +inf);
   - otherwise a NaN or infinite y gives +inf. */
double mish_ref_err_ld(float y, float g, long double t1, long double t2);
double mish_ref_err_d(float y, float g, double t1, double t2);

/* ULP error |y - exact| / ulp(exact), ulp in float32 (2^-149 at and below the normal
   range). Meaningless near the root of mish'; callers skip that range. */
double mish_ref_ulp_err_ld(float y, long double exact);
double mish_ref_ulp_err_d(float y, double exact);

/* ---- the forward, mish(x) = x tanh(softplus(x)) ------------------------------------------
   With e = exp(x) (x <= 0) or u = exp(-x) (x > 0), every sum adds positive terms:
     x <= 0:  mish(x) = x e (e + 2) / (e^2 + 2e + 2)
     x >  0:  mish(x) = x (1 + 2u) / (1 + 2u + 2u^2)
   Error budget (first order, exp within 2 ulp of the working type): x <= 0: e 2, e+2 3,
   numerator 6, d 7 (e^2 2+2, +2e, +2), quotient 14, times x 15 eps; x > 0: 1+2u 3, d 6,
   quotient 10, times x 11 eps. So long double (eps = 2^-64) is within 15 * 2^-64 < 2^-60
   relative, 2^-37 of a float32 ulp; double within 15 * 2^-53 < 2^-49, 2^-25 of an ulp.
   Special values as PyTorch's x * tanh(log1p(exp(x))): mish(+inf) = +inf, mish(-inf) = NaN
   (-inf * 0), NaN -> NaN; mish(-0) = -0. Below x = -11355 (long double) or -745 (double)
   e underflows to 0 and the result is a signed zero, the correctly rounded float32. */
long double mish_ref_fwd_ld(long double x);
double mish_ref_fwd_d(double x);
#define MISH_REF_FWD_LD_REL_BOUND 0x1p-60
#define MISH_REF_FWD_D_REL_BOUND 0x1p-49

/* The forward's one tolerance rule: the float32 result y for x against the exact value, in
   float32 ulps of the exact value (mish_ref_ulp_err_*); NaN expected (x = -inf or NaN) and
   y NaN: 0; +inf expected and y = +inf: 0; any other NaN or inf mismatch: +inf. Bound: 2
   (goal 1). For float16 / bfloat16, round the exact value with mish_ref_round_f16/_bf16 and
   take mish_ref_bits16_distance: at most 1 everywhere, 0 for >= 99.9% of the inputs. */
double mish_ref_fwd_ulp_err_ld(float y, float x);
double mish_ref_fwd_ulp_err_d(float y, float x);

/* float32 <-> bit patterns, and the 16-bit types widened exactly to float32. */
float mish_ref_f32_from_bits(uint32_t bits);
uint32_t mish_ref_f32_bits(float value);
float mish_ref_f16_to_f32(uint16_t bits);
float mish_ref_bf16_to_f32(uint16_t bits);

/* Rounds v to float16 / bfloat16, nearest-even, directly from long double (no double
   rounding through float32); overflow gives infinity, NaN a quiet NaN of v's sign.
   *near_tie (may be NULL) is set when v lies within 2^-40 of a rounding midpoint in
   relative terms, i.e. closer than the reference's own error allows to decide. */
uint16_t mish_ref_round_f16(long double v, int *near_tie);
uint16_t mish_ref_round_bf16(long double v, int *near_tie);

/* Distance in representable steps between two 16-bit patterns of the same format
   (f16 or bf16 share the sign-magnitude layout); +0 and -0 are the same point. NaN in
   exactly one of them gives INT32_MAX, NaN in both 0. `exp_mask` is 0x7C00 (f16) or
   0x7F80 (bf16). */
int32_t mish_ref_bits16_distance(uint16_t a, uint16_t b, uint16_t exp_mask);

#ifdef __cplusplus
}
#endif

#endif /* MISH_REFERENCE_H_ */

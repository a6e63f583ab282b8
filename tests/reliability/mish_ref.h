/*
 * tests/reliability/mish_ref.h: what the reliability tests and the fuzz harness need around
 * the project's reference (reference/mish_reference.h, which shares no code with the
 * library): its 16-bit conversions and mish' * g from its terms, with the test inputs'
 * generators and a tolerance of this header's own.
 *
 * The tolerance is deliberately loose next to the accuracy issue's bound: these tests hunt
 * for wrong memory (a missed element, a stale value, a write through the wrong view), which
 * shows up as an error of whole units, not of a few ulp.
 */
#ifndef MISH_REF_H_
#define MISH_REF_H_

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "acl/acl_base.h"
#include "mg_rng.h"
#include "mish_reference.h"

/* Element size of the three dtypes the operator accepts, and a plausible size for the
   others (so a test can lay out a buffer for a dtype the operator must reject). */
static inline size_t mish_ref_elem_size(aclDataType dtype) {
    switch (dtype) {
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_DOUBLE: case ACL_INT64: case ACL_UINT64: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    default: return 1;
    }
}

static inline int mish_ref_dtype_is_float(aclDataType dtype) {
    return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16;
}

/* binary16 and bfloat16 -> double, exactly: the reference's decoders (widening to float
   is exact for both, and float to double too). */
static inline double mish_ref_half_to_double(uint16_t h) { return (double)mish_ref_f16_to_f32(h); }
static inline double mish_ref_bf16_to_double(uint16_t b) { return (double)mish_ref_bf16_to_f32(b); }

/* double -> binary16, round to nearest even: the reference's rounding (its NaN made the
   positive quiet one). Only used to store test inputs. */
static inline uint16_t mish_ref_double_to_half(double v) {
    return isnan(v) ? 0x7e00 : mish_ref_round_f16((long double)v, NULL);
}

/* double -> bfloat16 by way of float; rounding mode does not matter for stored inputs. */
static inline uint16_t mish_ref_double_to_bf16(double v) {
    float f = (float)v;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    if (isnan(v)) return 0x7fc0;
    return (uint16_t)(bits >> 16);
}

/* Reads element `index` (in elements) of `base` as a double. */
static inline double mish_ref_load(aclDataType dtype, const void *base, int64_t index) {
    const unsigned char *p = (const unsigned char *)base;
    if (dtype == ACL_FLOAT) {
        float f;
        memcpy(&f, p + index * 4, 4);
        return (double)f;
    }
    uint16_t h;
    memcpy(&h, p + index * 2, 2);
    return dtype == ACL_FLOAT16 ? mish_ref_half_to_double(h) : mish_ref_bf16_to_double(h);
}

static inline void mish_ref_store(aclDataType dtype, void *base, int64_t index, double v) {
    unsigned char *p = (unsigned char *)base;
    if (dtype == ACL_FLOAT) {
        float f = (float)v;
        memcpy(p + index * 4, &f, 4);
        return;
    }
    uint16_t h = dtype == ACL_FLOAT16 ? mish_ref_double_to_half(v) : mish_ref_double_to_bf16(v);
    memcpy(p + index * 2, &h, 2);
}

/* mish'(x) * g in double, from the project's one tested reference of mish'
   (reference/mish_reference.h: T1 = tanh(softplus(x)) and T2, the two terms;
   accuracy_reference checks it against long double and finite differences). `*scale`
   receives |g| * (|T1| + |T2|), the size the error is measured against (the result itself
   cancels to zero near x = -1.19243). x = +-inf or NaN gives NaN, as PyTorch does. */
static inline double mish_ref_grad(double g, double x, double *scale) {
    double t1, t2;
    mish_ref_terms_d(x, &t1, &t2);
    if (scale) *scale = fabs(g) * (fabs(t1) + fabs(t2));
    return g * (t1 + t2);
}

/* 1 when `got` (decoded from `dtype`) is an acceptable result for g * mish'(x). */
static inline int mish_ref_close(aclDataType dtype, double got, double g, double x) {
    double scale;
    double want = mish_ref_grad(g, x, &scale);
    if (isnan(want)) return isnan(got);
    if (isnan(got)) return 0;
    if (isinf(want) || isinf(got)) return want == got;
    double tol;
    if (dtype == ACL_FLOAT) {
        /* float32 compute: a few ulp of the terms, and a floor for the subnormal tail */
        tol = ldexp(scale, -19) + ldexp(1.0, -126) * (fabs(g) + 1.0);
    } else if (dtype == ACL_FLOAT16) {
        /* 2 ulp of the result plus float32 compute error; floor: the smallest subnormal */
        tol = ldexp(fabs(want), -9) + ldexp(scale, -18) + ldexp(1.0, -23);
    } else {
        tol = ldexp(fabs(want), -6) + ldexp(scale, -18) + ldexp(1.0, -126) * (fabs(g) + 1.0);
    }
    return fabs(got - want) <= tol;
}

static inline int64_t mish_ref_below(mg_rng *rng, int64_t n) {
    return n <= 0 ? 0 : (int64_t)(mg_rng_next(rng) % (uint64_t)n);
}

/* An input x: mostly the interesting range, sometimes a special value. */
static inline double mish_ref_random_x(mg_rng *rng, aclDataType dtype, int specials) {
    if (specials && mish_ref_below(rng, 16) == 0) {
        static const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -1.19243,
                                         30.0, -30.0, -90.0, 1e-30, 60000.0, -60000.0};
        double v = special[mish_ref_below(rng, (int64_t)(sizeof special / sizeof special[0]))];
        if (dtype == ACL_FLOAT16 && v != 0.0 && fabs(v) < 1e-7) v = 1e-7;
        return v;
    }
    return mg_rng_uniform(rng, -12.0, 12.0);
}

static inline double mish_ref_random_g(mg_rng *rng, int specials) {
    if (specials && mish_ref_below(rng, 32) == 0) {
        static const double special[] = {0.0, -0.0, NAN, 1.0};
        return special[mish_ref_below(rng, 4)];
    }
    return mg_rng_uniform(rng, -4.0, 4.0);
}

#endif /* MISH_REF_H_ */

/*
 * reference/mish_reference.c: the reference behind every accuracy verdict. The
 * formulas and their error budget are in mish_reference.h.
 */
#include "mish_reference.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* 2^-149: the smallest float32 subnormal, the floor of the error measure. */
#define MISH_REF_TINY 0x1p-149

void mish_ref_terms_ld(long double x, long double *t1, long double *t2) {
    if (!isfinite(x)) {
        *t1 = NAN;
        *t2 = NAN;
        return;
    }
    if (x <= 0.0L) {
        /* e <= 1: tanh(softplus) = n / (n + 2) with n = e(e + 2); all sums positive. */
        long double e = expl(x);
        long double n = e * (e + 2.0L);
        long double d = n + 2.0L;
        *t1 = n / d;
        *t2 = 4.0L * x * e * (e + 1.0L) / (d * d);
    } else {
        /* The same fractions multiplied through by u^2 = exp(-2x), so nothing overflows. */
        long double u = expl(-x);
        long double p = 1.0L + 2.0L * u;
        long double d = p + 2.0L * u * u;
        *t1 = p / d;
        /* x * u first: u * u alone underflows (harmlessly, but needlessly) for large x. */
        *t2 = 4.0L * x * u * u * (1.0L + u) / (d * d);
    }
}

void mish_ref_terms_d(double x, double *t1, double *t2) {
    if (!isfinite(x)) {
        *t1 = NAN;
        *t2 = NAN;
        return;
    }
    if (x <= 0.0) {
        /* exp(x) < 2^-1075 rounds to 0 below x = -745.14, so the terms are exactly 0 there;
           saying so skips glibc's slow underflow path (errno) and two divisions for a
           quarter of all float32 inputs. */
        if (x < -746.0) {
            /* What the formulas give for e = 0, without the divisions (4x * 0 is -0). */
            *t1 = 0.0;
            *t2 = -0.0;
            return;
        }
        double e = exp(x);
        double n = e * (e + 2.0);
        double d = n + 2.0;
        *t1 = n / d;
        *t2 = 4.0 * x * e * (e + 1.0) / (d * d);
    } else {
        if (x > 746.0) {
            *t1 = 1.0;
            *t2 = 0.0;
            return;
        }
        double u = exp(-x);
        double p = 1.0 + 2.0 * u;
        double d = p + 2.0 * u * u;
        *t1 = p / d;
        *t2 = 4.0 * x * u * u * (1.0 + u) / (d * d);
    }
}

long double mish_ref_grad_ld(long double x) {
    long double t1, t2;
    mish_ref_terms_ld(x, &t1, &t2);
    return t1 + t2;
}

/* The cases where the exact value is not a finite number decide alone; returns 1 and sets
   *err when they apply. `m_rounds_to_zero`: mish'(x) is 0 once rounded to float32. */
static int special_err(float y, float g, int m_is_nan, int m_negative, int m_rounds_to_zero,
                       double *err) {
    /* mish'(x) is never exactly 0 for a float x (its root is irrational), so an infinite g
       never meets a true zero: a computed 0 is an underflow whose sign the T2 term keeps. */
    if (m_is_nan || isnan(g)) {
        *err = isnan(y) ? 0.0 : INFINITY;
        return 1;
    }
    if (isinf(g)) {
        int want_negative = (signbit(g) != 0) != m_negative;
        if (isinf(y) && (signbit(y) != 0) == want_negative) {
            *err = 0.0;
        } else if (isnan(y) && m_rounds_to_zero) {
            /* float32 arithmetic sees inf * 0 here; both answers are defensible. */
            *err = 0.0;
        } else {
            *err = INFINITY;
        }
        return 1;
    }
    return 0;
}

double mish_ref_err_ld(float y, float g, long double t1, long double t2) {
    long double m = t1 + t2;
    double err;
    if (special_err(y, g, isnan(m), m < 0.0L || (m == 0.0L && signbit(t2)), (float)m == 0.0f, &err))
        return err;
    long double exact = (long double)g * m;
    /* Conversion from long double rounds once, to nearest-even, subnormals included. */
    float rounded = (float)exact;
    if (isinf(rounded)) return (isinf(y) && signbit(y) == signbit(rounded)) ? 0.0 : INFINITY;
    if (!isfinite(y)) return INFINITY;
    long double scale = 0x1p-23L * fabsl((long double)g) * (fabsl(t1) + fabsl(t2));
    if (scale < MISH_REF_TINY) scale = MISH_REF_TINY;
    return (double)(fabsl((long double)y - exact) / scale);
}

double mish_ref_err_d(float y, float g, double t1, double t2) {
    double m = t1 + t2;
    double err;
    if (special_err(y, g, isnan(m), m < 0.0 || (m == 0.0 && signbit(t2)), (float)m == 0.0f, &err))
        return err;
    double exact = (double)g * m;
    float rounded = (float)exact;
    if (isinf(rounded)) return (isinf(y) && signbit(y) == signbit(rounded)) ? 0.0 : INFINITY;
    if (!isfinite(y)) return INFINITY;
    double scale = 0x1p-23 * fabs((double)g) * (fabs(t1) + fabs(t2));
    if (scale < MISH_REF_TINY) scale = MISH_REF_TINY;
    return fabs((double)y - exact) / scale;
}

double mish_ref_ulp_err_ld(float y, long double exact) {
    if (isnan(y) || isnan(exact)) return (isnan(y) && isnan(exact)) ? 0.0 : INFINITY;
    if (isinf(y) || isinf(exact)) return (y == exact) ? 0.0 : INFINITY;
    int e = exact == 0.0L ? -126 : ilogbl(exact);
    if (e < -126) e = -126;
    return (double)(fabsl((long double)y - exact) / ldexpl(1.0L, e - 23));
}

double mish_ref_ulp_err_d(float y, double exact) {
    if (isnan(y) || isnan(exact)) return (isnan(y) && isnan(exact)) ? 0.0 : INFINITY;
    if (isinf(y) || isinf(exact)) return (y == exact) ? 0.0 : INFINITY;
    /* The exponent field gives ilogb for normal doubles; zero and double subnormals are
       far below float32's normal range and take the clamp. Bit work instead of
       ilogb/ldexp calls: this runs 4.28e9 times in a full sweep. */
    uint64_t bits;
    memcpy(&bits, &exact, sizeof bits);
    int e = (int)((bits >> 52) & 0x7FF) - 1023;
    if (e < -126) e = -126;
    const uint64_t ulp_bits = (uint64_t)(e - 23 + 1023) << 52;
    double ulp;
    memcpy(&ulp, &ulp_bits, sizeof ulp);
    return fabs((double)y - exact) / ulp;
}

float mish_ref_f32_from_bits(uint32_t bits) {
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

uint32_t mish_ref_f32_bits(float value) {
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits;
}

float mish_ref_f16_to_f32(uint16_t bits) {
    int negative = bits >> 15;
    int exponent = (bits >> 10) & 0x1F;
    int mantissa = bits & 0x3FF;
    float magnitude;
    if (exponent == 0) {
        magnitude = ldexpf((float)mantissa, -24);
    } else if (exponent == 0x1F) {
        magnitude = mantissa ? NAN : INFINITY;
    } else {
        magnitude = ldexpf((float)(mantissa | 0x400), exponent - 25);
    }
    return negative ? -magnitude : magnitude;
}

float mish_ref_bf16_to_f32(uint16_t bits) {
    /* bfloat16 is the top half of a float32. */
    return mish_ref_f32_from_bits((uint32_t)bits << 16);
}

/* Nearest-even rounding of v to a binary format with `mant` stored mantissa bits and
   exponents emin..emax (bias = emax), computed on the long double value directly. */
static uint16_t round16(long double v, int mant, int emin, int emax, int *near_tie) {
    const uint16_t sign = signbit(v) ? 0x8000 : 0;
    const uint16_t inf_bits = (uint16_t)((2 * emax + 1) << mant);
    if (near_tie) *near_tie = 0;
    if (isnan(v)) return (uint16_t)(sign | inf_bits | (1u << (mant - 1)));
    long double a = fabsl(v);
    if (isinf(a)) return (uint16_t)(sign | inf_bits);
    if (a == 0.0L) return sign;
    int e = ilogbl(a);
    if (e > emax) return (uint16_t)(sign | inf_bits);
    if (e < emin) e = emin; /* subnormal: a fixed quantum 2^(emin - mant) */
    /* Scaling by a power of two is exact in long double's range. */
    long double scaled = ldexpl(a, mant - e);
    long double rounded = nearbyintl(scaled); /* default mode: nearest, ties to even */
    if (near_tie) {
        long double frac = scaled - floorl(scaled);
        if (fabsl(frac - 0.5L) <= ldexpl(scaled, -40)) *near_tie = 1;
    }
    uint32_t m = (uint32_t)rounded;
    if (m == (1u << (mant + 1))) { /* rounded up into the next binade */
        m >>= 1;
        e++;
    }
    if (e > emax) return (uint16_t)(sign | inf_bits);
    if (m < (1u << mant)) return (uint16_t)(sign | m); /* subnormal, e == emin */
    return (uint16_t)(sign | ((uint32_t)(e + emax) << mant) | (m - (1u << mant)));
}

uint16_t mish_ref_round_f16(long double v, int *near_tie) { return round16(v, 10, -14, 15, near_tie); }

uint16_t mish_ref_round_bf16(long double v, int *near_tie) { return round16(v, 7, -126, 127, near_tie); }

int32_t mish_ref_bits16_distance(uint16_t a, uint16_t b, uint16_t exp_mask) {
    const uint16_t mant_mask = (uint16_t)(0x7FFF & ~exp_mask);
    int a_nan = (a & exp_mask) == exp_mask && (a & mant_mask) != 0;
    int b_nan = (b & exp_mask) == exp_mask && (b & mant_mask) != 0;
    if (a_nan || b_nan) return (a_nan && b_nan) ? 0 : INT32_MAX;
    /* Sign-magnitude to a monotone integer line on which +0 and -0 coincide. */
    int32_t ka = (a & 0x8000) ? -(int32_t)(a & 0x7FFF) : (int32_t)a;
    int32_t kb = (b & 0x8000) ? -(int32_t)(b & 0x7FFF) : (int32_t)b;
    return ka > kb ? ka - kb : kb - ka;
}

/* ---- the forward ----------------------------------------------------------------------- */

long double mish_ref_fwd_ld(long double x) {
    if (isnan(x)) return NAN;
    if (isinf(x)) return x > 0 ? x : (long double)NAN;
    if (x <= 0.0L) {
        const long double e = expl(x);
        return x * (e * (e + 2.0L)) / (e * e + 2.0L * e + 2.0L);
    }
    const long double u = expl(-x);
    return x * (1.0L + 2.0L * u) / (1.0L + 2.0L * u + 2.0L * u * u);
}

double mish_ref_fwd_d(double x) {
    if (isnan(x)) return NAN;
    if (isinf(x)) return x > 0 ? x : NAN;
    if (x <= 0.0) {
        if (x < -746.0) return x * 0.0; /* e = 0: -0, without glibc's slow underflow path */
        const double e = exp(x);
        return x * (e * (e + 2.0)) / (e * e + 2.0 * e + 2.0);
    }
    if (x > 746.0) return x;
    const double u = exp(-x);
    return x * (1.0 + 2.0 * u) / (1.0 + 2.0 * u + 2.0 * u * u);
}

static int fwd_special(float y, long double exact, double *err) {
    if (isnan(exact)) {
        *err = isnan(y) ? 0.0 : INFINITY;
        return 1;
    }
    if (isinf(exact)) {
        *err = (isinf(y) && signbit(y) == signbit(exact)) ? 0.0 : INFINITY;
        return 1;
    }
    if (!isfinite(y)) {
        *err = INFINITY;
        return 1;
    }
    return 0;
}

double mish_ref_fwd_ulp_err_ld(float y, float x) {
    const long double exact = mish_ref_fwd_ld(x);
    double err;
    if (fwd_special(y, exact, &err)) return err;
    return mish_ref_ulp_err_ld(y, exact);
}

double mish_ref_fwd_ulp_err_d(float y, float x) {
    const double exact = mish_ref_fwd_d(x);
    double err;
    if (fwd_special(y, exact, &err)) return err;
    return mish_ref_ulp_err_d(y, exact);
}

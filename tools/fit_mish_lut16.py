#!/usr/bin/env python3
"""tools/fit_mish_lut16.py: the coefficients of the float32 forward's table form.

    python3 tools/fit_mish_lut16.py [DEGREE] > op_kernel/mish_lut16_p7.h

The float32 forward (op_kernel/mish_body.h, mish_lut16_p7) writes t(x) = tanh(softplus(x))
on 16 intervals as c0 + d (c1 + d (c2 + ... + d c7)), d = x - k, k = round(x) in
[-8, 7]: interval k covers [k - 0.5, k + 0.5], the last one [6.5, 9.5] (x is clamped at
9.5, where 1 - t < 2^-26). The kernel rounds once from x hi + x q, q = t - hi: hi is a
float anchor, the harmonic mean of t's extremes on the interval, which makes |q / t| (the
weight of q's rounding errors in the result) as small as it can be (0.46 where t is like
exp(x), instead of 0.65 with hi = t(k)); on the interval around 0 it is at most t(0), so
that q(0) >= 0 and x = -0 gives -0. q = q0 + d (c1 + ...) is the fitted polynomial.

The coefficients are a minimax fit of the relative error t_poly / t - 1, rounded to
float32 one at a time (tools/fit_lut16.py, shared with the backward's tool). Prints the worst relative error of each interval (float32 coefficients, exact arithmetic)
to stderr. The evaluation's own roundings come on top: docs/accuracy.md has the measured
error of the kernel over every float32.

Needs numpy (Debian: python3-numpy). Only to regenerate the header; the build does not run it.
"""
import sys

import numpy as np

from fit_lut16 import LD, fit_and_print, fit_coefficients, interval_points

DEGREE = int(sys.argv[1]) if len(sys.argv) > 1 else 7
X_CLAMP = 9.5


def mish_t(x):
    """tanh(softplus(x)) = n / (n + 2), n = e (e + 2), e = exp(x): no cancellation"""
    e = np.exp(LD(x))
    n = e * (e + 2)
    return n / (n + 2)


def to_f32(v, down=False):
    f = np.float32(v)
    if down and LD(f) > LD(v):
        f = np.nextafter(f, np.float32(-np.inf))
    return f


def fit_interval(k):
    lo, hi, x = interval_points(k, X_CLAMP)
    t = mish_t(x)
    t_lo, t_hi = mish_t(LD(lo)), mish_t(LD(hi))
    anchor = to_f32(2 * t_lo * t_hi / (t_lo + t_hi), down=True)
    if k == 0 and LD(anchor) > mish_t(LD(0)):
        anchor = to_f32(mish_t(LD(0)), down=True)
    fixed, worst = fit_coefficients(x - LD(k), anchor, DEGREE, lambda value: value / t - 1, t)
    if k == 0:
        assert fixed[0] >= 0, "q(0) must be >= 0 for x = -0 to give -0"
    return [anchor] + fixed, worst


def main():
    fit_and_print(fit_interval, lambda worst: "relative error 2^%.1f" % np.log2(worst),
                  "mish_lut16_p%d.h" % DEGREE, "tools/fit_mish_lut16.py %d" % DEGREE,
                  "MISH_LUT16_P%d_H_" % DEGREE, "mish_lut16_p%d_coefficients" % DEGREE)


if __name__ == "__main__":
    main()

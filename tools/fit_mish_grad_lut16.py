#!/usr/bin/env python3
"""tools/fit_mish_grad_lut16.py: the coefficients of the float32 backward's table form.

    python3 tools/fit_mish_grad_lut16.py > op_kernel/mish_grad_lut16_p8.h

The float32 backward (op_kernel/mish_grad_v2_body.h, table_form) writes
mish'(x) = T1 + T2 (T1 = tanh(softplus(x)), T2 = x sigmoid(x) (1 - T1^2)) on 16 intervals
as hi + q, q = q0 + d (c1 + d (c2 + ... + d c8)), d = x - k, k = round(x) in [-8, 7]:
interval k covers [k - 0.5, k + 0.5], the last one [6.5, 12] (x is clamped at 12, where
1 - mish' < 2^-28, so the rounded result is 1). The anchor hi is mish'(k) rounded to
float32 (0.6f exactly on the interval around 0, so that x = +-0 and subnormal x give 0.6f),
which keeps q small and the rounding of its float32 coefficients negligible.

The fit minimizes docs/accuracy.md's measure, not the relative error: the error over
2^-23 (|T1| + |T2|), which stays bounded through the root of mish' (x = -1.19243), where a
relative fit would be impossible: minimax of (hi + q - mish') / (|T1| + |T2|), rounded to
float32 one at a time (tools/fit_lut16.py, shared with the forward's tool). Prints the worst fit error of each interval in units (float32 coefficients, exact
arithmetic) to stderr; the evaluation's roundings come on top (docs/accuracy.md has the
measured error of the kernel over every float32). Degree 8 on unit intervals: at most 0.17
units (the interval around 0, nearest the poles at 0.35 +- 2.36i); degree 7 reached 1.17.

Needs numpy (Debian: python3-numpy). Only to regenerate the header; the build does not run it.
"""
import numpy as np

from fit_lut16 import LD, fit_and_print, fit_coefficients, interval_points

DEGREE = 8
X_CLAMP = 12.0


def mish_grad_parts(x):
    """T1 = n / d and T2 = 4 x e (1 + e) / d^2, n = e (e + 2), d = n + 2, e = exp(x)"""
    e = np.exp(LD(x))
    n = e * (e + 2)
    d = n + 2
    return n / d, 4 * x * e * (1 + e) / (d * d)


def fit_interval(k):
    _, _, x = interval_points(k, X_CLAMP)
    t1, t2 = mish_grad_parts(x)
    f, weight = t1 + t2, abs(t1) + abs(t2)
    a1, a2 = mish_grad_parts(LD(k))
    anchor = np.float32(0.6) if k == 0 else np.float32(a1 + a2)
    fixed, worst = fit_coefficients(x - LD(k), anchor, DEGREE, lambda value: (value - f) / weight, weight)
    return [anchor] + fixed, worst * 2.0**23


def main():
    fit_and_print(fit_interval, lambda worst: "fit error %.3f units" % worst, "mish_grad_lut16_p8.h",
                  "tools/fit_mish_grad_lut16.py", "MISH_GRAD_LUT16_P8_H_", "mish_grad_lut16_p8_coefficients")


if __name__ == "__main__":
    main()

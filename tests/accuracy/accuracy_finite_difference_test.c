/*
 * tests/accuracy/accuracy_finite_difference_test.c: the gradient really is the derivative
 * of Mish. A double precision Mish forward, mish(x) = x tanh(log1p(exp(x))), is
 * differentiated numerically (central differences with one Richardson step) and compared
 * with the operator's output (public API) and with the long double reference. Nothing here
 * uses the reference's algebra, so a wrong formula in either would show. Run once per ISA.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "kt_cpu.h"
#include "mg_test.h"
#include "mish_api_runner.h"
#include "mish_reference.h"

#define GRID 4096

static double mish_forward(double x) { return x * tanh(log1p(exp(x))); }

/* Central difference, then Richardson: (4 D(h/2) - D(h)) / 3 cancels the h^2 term, leaving
   about h^4 f^(5) / 480. h = 2^-8 keeps x +- h exact in double and balances that
   truncation against rounding (eps |f| / h): on this grid the difference to the reference
   is at most 1.2e-5 units of the error measure (worst near x = -0.55), and it shrinks 16x
   with each halving of h down to 2^-8, the signature of truncation, not of a wrong formula. */
static double numeric_derivative(double x) {
    const double h = 0x1p-8;
    double d_h = (mish_forward(x + h) - mish_forward(x - h)) / (2 * h);
    double d_half = (mish_forward(x + h / 2) - mish_forward(x - h / 2)) / h;
    return (4 * d_half - d_h) / 3;
}

static mish_api_runner runner;
static int runner_ready;
static float grid_x[GRID], grid_g[GRID], grid_out[GRID];

static void close_runner(void) { mish_api_runner_close(&runner); }

static int ensure_runner(void) {
    if (!runner_ready && mish_api_runner_open(&runner, GRID * sizeof(float)) == 0) {
        runner_ready = 1;
        atexit(close_runner);
    }
    return runner_ready;
}

/* x from -110 to 90: through the subnormal-exp region, the root and the saturation. */
static void fill_grid(void) {
    for (int i = 0; i < GRID; i++) grid_x[i] = -110.0f + 200.0f * (float)i / (GRID - 1);
    /* A few exact points of interest replace grid points. */
    grid_x[0] = -1.1924312f;
    grid_x[1] = 0.0f;
    grid_x[2] = -87.3365f;
    grid_x[3] = -103.972f;
}

static void compare(float g, double bound) {
    MG_CHECK(ensure_runner());
    if (!runner_ready) return;
    fill_grid();
    for (int i = 0; i < GRID; i++) grid_g[i] = g;
    MG_CHECK_EQ_INT(mish_api_runner_run(&runner, ACL_FLOAT, grid_g, grid_x, grid_out, GRID), 0);
    double worst_kernel = 0, worst_reference = 0;
    int failures = 0;
    for (int i = 0; i < GRID; i++) {
        const double x = grid_x[i];
        const double derivative = numeric_derivative(x);
        /* The error measure's scale from the forward alone: T1 = tanh(softplus(x)), T2 the rest. */
        const double t1 = tanh(log1p(exp(x)));
        double unit = 0x1p-23 * fabs(g) * (fabs(t1) + fabs(derivative - t1));
        if (unit < 0x1p-149) unit = 0x1p-149;
        const double kernel_err = fabs(grid_out[i] - g * derivative) / unit;
        const double reference_err = (double)fabsl(mish_ref_grad_ld(x) * g - (long double)g * derivative) / unit;
        if (kernel_err > worst_kernel) worst_kernel = kernel_err;
        if (reference_err > worst_reference) worst_reference = reference_err;
        /* The numeric derivative is good to ~1e-5 units; allow 0.01 for it. */
        if (!(kernel_err <= bound + 0.01)) {
            if (failures++ < 8)
                MG_FAIL("g=%g x=%a: operator %a, finite difference %.12g (%.3f units)", (double)g, x,
                        (double)grid_out[i], g * derivative, kernel_err);
        }
    }
    printf("  g=%g: worst |operator - d mish/dx| = %.4f units, |reference - d mish/dx| = %.2g units\n",
           (double)g, worst_kernel, worst_reference);
    MG_CHECK(worst_kernel <= bound + 0.01);
    MG_CHECK(worst_reference <= 1e-4);
}

MG_TEST(gradient_matches_numeric_derivative_g_one) { compare(1.0f, 2.0); }
MG_TEST(gradient_matches_numeric_derivative_other_g) { compare(-0.75f, 3.0); }

/* run for an ISA the CPU lacks: skipped (77), not passed on another ISA */
KT_SKIP_UNLESS_CPU_HAS_REQUESTED_ISA()

MG_TEST_MAIN()

/*
 * tests/ut/op_host/test_training_step.c: a training step through the three operators, as
 * torch_npu runs one (mish -> aclnnMish, mish_backward -> aclnnMishBackward, mish_ ->
 * aclnnInplaceMish), against the same steps in double precision on the host.
 *
 * A batch of 6 rows of 11 pre-activations P is fitted to targets T under the mean squared
 * error of mish(P). Each of 5 steps: Y = aclnnMish(P); gradOutput = 2 (Y - T) / N on the
 * host; gradP = aclnnMishBackward(gradOutput, P); P -= lr * gradP on the host; then the
 * loss of the new P is measured with aclnnInplaceMish on a copy of P. The reference runs
 * the same steps in double from the same start, with mish and mish' from the project's one
 * reference (reference/mish_reference.h), so every number of every step can be compared; float32
 * arithmetic drifts from it by a few ulp per step, and the loss must fall.
 *
 * Each quantity is compared norm-wise, as training runs are compared: every element within
 * 2^-20 of the largest magnitude of that quantity in the batch (the loss: 2^-20 relative).
 * Measured on x86-64 (every ISA): at most 2^-22.6 (gradP, step 5), the loss 2^-25.8. An
 * element-wise relative test cannot hold for gradP, whose gradOutput 2 (Y - T) / N cancels
 * where Y is near T (relative errors up to 2^-15 there, at gradients near 0). A bound of
 * the form tol (1 + |want|) would be absolute for these values below 1: a forward 2^-17 off
 * (about 100 ulp) passed one of 2^-16 (1 + |want|); this one fails it.
 */
#include <stdint.h>

#include "ut_util.h"

#define ROWS 6
#define COLS 11
#define N (ROWS * COLS)
#define STEPS 5
#define LEARNING_RATE 0.5

/* float32 results of a few roundings per step, drifting by a few ulp a step: within 2^-20
   of the batch's largest |want| (8 float32 ulps of it) covers 5 steps with room to spare. */
#define TOLERANCE 0x1p-20

static void check_close(const char *what, int step, const float *got, const double *want, int n) {
    double scale = 0;
    for (int i = 0; i < n; i++) scale = fmax(scale, fabs(want[i]));
    for (int i = 0; i < n; i++) {
        mg_checks_done++;
        if (!(fabs(got[i] - want[i]) <= TOLERANCE * scale)) {
            MG_FAIL("step %d, %s[%d]: %.9g, double reference %.12g (error %.3g, bound %.3g)", step, what, i,
                    got[i], want[i], fabs(got[i] - want[i]), TOLERANCE * scale);
            return;
        }
    }
}

static void to_device(ut_tensor *u, const float *values) {
    for (int i = 0; i < N; i++) ut_set(u, i, values[i]);
    ut_upload(u);
}

static void from_device(ut_tensor *u, float *values) {
    ut_download(u);
    for (int i = 0; i < N; i++) values[i] = (float)ut_get(u, i);
}

MG_TEST(sgd_steps_match_a_double_precision_reference) {
    ut_init();
    mg_rng rng = {301};
    int64_t dims[2] = {ROWS, COLS};
    float p[N], t[N], y[N], g[N], grad_p[N];
    double p_ref[N], t_ref[N];
    for (int i = 0; i < N; i++) {
        p[i] = (float)mg_rng_uniform(&rng, -3, 3);
        t[i] = (float)mg_rng_uniform(&rng, -0.3, 2.5);
        p_ref[i] = p[i];
        t_ref[i] = t[i];
    }
    ut_tensor dp, dy, dg, dgp, dcopy;
    ut_tensor_dense(&dp, ACL_FLOAT, 2, dims);
    ut_tensor_dense(&dy, ACL_FLOAT, 2, dims);
    ut_tensor_dense(&dg, ACL_FLOAT, 2, dims);
    ut_tensor_dense(&dgp, ACL_FLOAT, 2, dims);
    ut_tensor_dense(&dcopy, ACL_FLOAT, 2, dims);

    double first_loss = -1, last_loss = -1;
    for (int step = 1; step <= STEPS; step++) {
        /* The reference step, in double. */
        double y_ref[N], g_ref[N], gp_ref[N], loss_ref = 0;
        for (int i = 0; i < N; i++) {
            y_ref[i] = ut_mish_ref(p_ref[i]);
            g_ref[i] = 2.0 * (y_ref[i] - t_ref[i]) / N;
            gp_ref[i] = g_ref[i] * ut_mish_grad_ref(p_ref[i]);
            p_ref[i] -= LEARNING_RATE * gp_ref[i];
        }
        for (int i = 0; i < N; i++) {
            double d = ut_mish_ref(p_ref[i]) - t_ref[i];
            loss_ref += d * d / N;
        }

        /* Forward: Y = mish(P). */
        to_device(&dp, p);
        ut_tensor fwd[2] = {dp, dy};
        MG_CHECK_EQ_INT(ut_op_run(&UT_MISH, fwd, ut_stream, NULL), ACLNN_SUCCESS);
        from_device(&dy, y);
        check_close("Y", step, y, y_ref, N);

        /* The loss's gradient on the host, then backward: gradP = gradOutput * mish'(P). */
        for (int i = 0; i < N; i++) g[i] = 2.0f * (y[i] - t[i]) / (float)N;
        to_device(&dg, g);
        ut_tensor bwd[3] = {dg, dp, dgp};
        MG_CHECK_EQ_INT(ut_op_run(&UT_MISH_BACKWARD, bwd, ut_stream, NULL), ACLNN_SUCCESS);
        from_device(&dgp, grad_p);
        check_close("gradP", step, grad_p, gp_ref, N);

        /* SGD, then the new loss through the in-place forward on a copy of P. */
        for (int i = 0; i < N; i++) p[i] -= (float)LEARNING_RATE * grad_p[i];
        check_close("P", step, p, p_ref, N);
        to_device(&dcopy, p);
        ut_tensor in_place[1] = {dcopy};
        MG_CHECK_EQ_INT(ut_op_run(&UT_INPLACE_MISH, in_place, ut_stream, NULL), ACLNN_SUCCESS);
        float activated[N];
        from_device(&dcopy, activated);
        double loss = 0;
        for (int i = 0; i < N; i++) loss += ((double)activated[i] - t[i]) * ((double)activated[i] - t[i]) / N;
        MG_CHECK_NEAR(loss, loss_ref, TOLERANCE * loss_ref);
        if (first_loss < 0) first_loss = loss;
        last_loss = loss;
    }
    /* It learns: the loss falls over the steps. */
    MG_CHECK(last_loss < first_loss);
    ut_tensor_free(&dp);
    ut_tensor_free(&dy);
    ut_tensor_free(&dg);
    ut_tensor_free(&dgp);
    ut_tensor_free(&dcopy);
}

int main(int argc, char **argv) { return ut_main(argc, argv); }

/*
 * tests/ut/ops/ut_op_mish_backward.h: aclnnMishBackward as the unit tests see it (a ut_op,
 * tests/ut/ut_ops.h). Its reference is the project's long-double one for mish'
 * (reference/mish_reference.h, through ut_mish_grad_ref in ut_util.h).
 */
#ifndef UT_OP_MISH_BACKWARD_H_
#define UT_OP_MISH_BACKWARD_H_

#include "aclnnop/aclnn_mish_backward.h"

static inline aclnnStatus ut_backward_phase1(aclTensor *const *t, uint64_t *ws, aclOpExecutor **ex) {
    return aclnnMishBackwardGetWorkspaceSize(t[0], t[1], t[2], ws, ex);
}
static inline aclnnStatus ut_backward_phase2(void *w, uint64_t n, aclOpExecutor *e, aclrtStream s) {
    return aclnnMishBackward(w, n, e, s);
}

/* The float32 kernel cancels near mish's root (x ~ -1.19), so its bound scales with
   |gradOutput| too. */
static inline double ut_backward_reference(const double *in, double *scale) {
    double ref = in[0] * ut_mish_grad_ref(in[1]);
    *scale = fabs(ref) + fabs(in[0]);
    return ref;
}

static const ut_op UT_MISH_BACKWARD = {
    "aclnnMishBackwardGetWorkspaceSize", "aclnnMishBackward", 2, 0, {"gradOutput", "self", "gradInput"},
    ut_backward_phase1, ut_backward_phase2, ut_backward_reference, {-4, -12}, {4, 12},
    /* the seed's table: BFLOAT16 from the 910B class on, FLOAT and FLOAT16 on the training
       and inference series (910, 310P), not on the 310B */
    {{1, 1}, {1, 1}, {1, 1}, {1, 0}, {1, 0}, {0, 0}}};
UT_OP_LISTED(UT_MISH_BACKWARD)

#endif /* UT_OP_MISH_BACKWARD_H_ */

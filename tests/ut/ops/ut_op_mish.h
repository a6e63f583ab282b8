/*
 * tests/ut/ops/ut_op_mish.h: aclnnMish and aclnnInplaceMish as the unit tests see them
 * (two ut_ops, tests/ut/ut_ops.h), with the forward's reference: the project's long-double
 * one (reference/mish_reference.h).
 */
#ifndef UT_OP_MISH_H_
#define UT_OP_MISH_H_

#include "aclnnop/aclnn_mish.h"

/* mish(x) = x * tanh(softplus(x)), PyTorch's special values (mish(-inf) = NaN). */
static inline double ut_mish_ref(double x) { return (double)mish_ref_fwd_ld((long double)x); }

static inline aclnnStatus ut_mish_phase1(aclTensor *const *t, uint64_t *ws, aclOpExecutor **ex) {
    return aclnnMishGetWorkspaceSize(t[0], t[1], ws, ex);
}
static inline aclnnStatus ut_inplace_phase1(aclTensor *const *t, uint64_t *ws, aclOpExecutor **ex) {
    return aclnnInplaceMishGetWorkspaceSize(t[0], ws, ex);
}

/* No cancellation; a quarter of the scale makes the bound 4 float32 ulp. */
static inline double ut_mish_reference(const double *in, double *scale) {
    double ref = ut_mish_ref(in[0]);
    *scale = 0.25 * fabs(ref);
    return ref;
}

/* ops-nn's docs/aclnnMish&aclnnInplaceMish.md: BFLOAT16 from the 910B class on, FLOAT and
   FLOAT16 on the training series, neither the inference series (310P) nor the 310B */
#define UT_MISH_PRODUCTS {{1, 1}, {1, 1}, {1, 1}, {1, 0}, {0, 0}, {0, 0}}

static const ut_op UT_MISH = {
    "aclnnMishGetWorkspaceSize", "aclnnMish", 1, 0, {"self", "out", NULL},
    ut_mish_phase1, aclnnMish, ut_mish_reference, {-12, 0}, {12, 0}, UT_MISH_PRODUCTS};
static const ut_op UT_INPLACE_MISH = {
    "aclnnInplaceMishGetWorkspaceSize", "aclnnInplaceMish", 1, 1, {"selfRef", "selfRef", NULL},
    ut_inplace_phase1, aclnnInplaceMish, ut_mish_reference, {-12, 0}, {12, 0}, UT_MISH_PRODUCTS};
UT_OP_LISTED(UT_MISH)
UT_OP_LISTED(UT_INPLACE_MISH)

#endif /* UT_OP_MISH_H_ */

/*
 * op_host/op_api/aclnn_mish.c: L2, the public two-phase aclnnMish and aclnnInplaceMish.
 *
 *   out = self * tanh(softplus(self))
 *
 * Declared as elementwise operators (tensors, dtypes per product, L0 launch); the shared
 * layer (op_host/elementwise/) does the checks, the plan and phase 2. The in-place form is
 * the same operator with selfRef as both input and output, as ops-nn's is.
 */
#include "aclnnop/aclnn_mish.h"
#include "elementwise.h"
#include "mish.h"


/* ops-nn's product table for aclnnMish / aclnnInplaceMish (docs/aclnnMish&aclnnInplaceMish.md):
   BFLOAT16 from the Ascend910B generation on, FLOAT and FLOAT16 on the Atlas training
   series; neither the Atlas inference series (310P) nor the Atlas 200I/500 A2 (310B) carries
   it. This differs from aclnnMishBackward's table, which runs on 310P. */
static const ew_dtype_list dtypes_by_product[MGRT_SOC_GENERATION_COUNT] = {
    [MGRT_SOC_CPU] = EW_FLOAT_FLOAT16_BF16,
    [MGRT_SOC_ASCEND910] = EW_FLOAT_FLOAT16,
    [MGRT_SOC_ASCEND310P] = EW_NOT_CARRIED,
    [MGRT_SOC_ASCEND310B] = EW_NOT_CARRIED,
    [MGRT_SOC_ASCEND910B] = EW_FLOAT_FLOAT16_BF16,
    [MGRT_SOC_ASCEND910_93] = EW_FLOAT_FLOAT16_BF16,
    [MGRT_SOC_ASCEND950] = EW_FLOAT_FLOAT16_BF16,
};

static aclnnStatus launch(aclOpExecutor *executor, const nnop_buffer *inputs, nnop_buffer out, int64_t numel,
                          aclDataType dtype) {
    return l0op_Mish(executor, inputs[0], out, numel, dtype);
}

static const char *const mish_names[] = {"self", "out"};
static const char *const inplace_names[] = {"selfRef", "selfRef"};

static const ew_operator mish = {
    .op_type = "Mish",
    .input_count = 1,
    .names = mish_names,
    .dtypes_by_product = dtypes_by_product,
    .l0 = launch,
};

static const ew_operator inplace_mish = {
    .op_type = "Mish",
    .input_count = 1,
    .names = inplace_names,
    .dtypes_by_product = dtypes_by_product,
    .l0 = launch,
};

aclnnStatus aclnnMishGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
    const aclTensor *const inputs[1] = {self};
    return ew_get_workspace_size(&mish, "aclnnMishGetWorkspaceSize", inputs, out, workspaceSize, executor);
}

aclnnStatus aclnnMish(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream) {
    return ew_launch("aclnnMish", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceMishGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
    const aclTensor *const inputs[1] = {selfRef};
    return ew_get_workspace_size(&inplace_mish, "aclnnInplaceMishGetWorkspaceSize", inputs, selfRef, workspaceSize,
                                 executor);
}

aclnnStatus aclnnInplaceMish(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream) {
    return ew_launch("aclnnInplaceMish", workspace, workspaceSize, executor, stream);
}

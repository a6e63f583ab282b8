/*
 * op_host/op_api/aclnn_mish_backward_v2.c: L2, the public two-phase aclnnMishBackward.
 *
 *   gradInput = gradOutput * mish'(self)
 *
 * Declared once as an elementwise operator (tensors, dtypes per product, L0 launch); the
 * shared layer (op_host/elementwise/) does the checks, the plan and phase 2.
 */
#include "aclnnop/aclnn_mish_backward.h"
#include "elementwise.h"
#include "mish_grad_v2.h"

static const char *const tensor_names[] = {"gradOutput", "self", "gradInput"};


/* The seed's product table: BFLOAT16 only on Ascend910B-class chips and later; the Atlas
   200I/500 A2 inference product (Ascend310B) does not carry the operator. */
static const ew_dtype_list dtypes_by_product[MGRT_SOC_GENERATION_COUNT] = {
    [MGRT_SOC_CPU] = EW_FLOAT_FLOAT16_BF16,
    [MGRT_SOC_ASCEND910] = EW_FLOAT_FLOAT16,
    [MGRT_SOC_ASCEND310P] = EW_FLOAT_FLOAT16,
    [MGRT_SOC_ASCEND310B] = EW_NOT_CARRIED,
    [MGRT_SOC_ASCEND910B] = EW_FLOAT_FLOAT16_BF16,
    [MGRT_SOC_ASCEND910_93] = EW_FLOAT_FLOAT16_BF16,
    [MGRT_SOC_ASCEND950] = EW_FLOAT_FLOAT16_BF16,
};

static aclnnStatus launch(aclOpExecutor *executor, const nnop_buffer *inputs, nnop_buffer out, int64_t numel,
                          aclDataType dtype) {
    return l0op_MishGradV2(executor, inputs[0], inputs[1], out, numel, dtype);
}

static const ew_operator mish_backward = {
    .op_type = "MishGradV2",
    .input_count = 2,
    .names = tensor_names,
    .dtypes_by_product = dtypes_by_product,
    .l0 = launch,
};

aclnnStatus aclnnMishBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self, aclTensor *gradInput,
                                              uint64_t *workspaceSize, aclOpExecutor **executor) {
    const aclTensor *const inputs[2] = {gradOutput, self};
    return ew_get_workspace_size(&mish_backward, "aclnnMishBackwardGetWorkspaceSize", inputs, gradInput,
                                 workspaceSize, executor);
}

aclnnStatus aclnnMishBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, const aclrtStream stream) {
    return ew_launch("aclnnMishBackward", workspace, workspaceSize, executor, stream);
}

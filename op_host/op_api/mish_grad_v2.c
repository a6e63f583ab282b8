/* op_host/op_api/mish_grad_v2.c: L0 launch of the MishGradV2 kernel (see the header). */
#include "mish_grad_v2.h"

#include "elementwise.h"
#include "mish_grad_v2_kernel.h"

aclnnStatus l0op_MishGradV2(aclOpExecutor *executor, nnop_buffer grad, nnop_buffer x, nnop_buffer out, int64_t numel,
                            aclDataType dtype) {
    const mish_grad_v2_kernels *table = mish_grad_v2_kernels_get();
    ew_kernel kernel = {.isa = table->isa};
    if (dtype == ACL_FLOAT) {
        kernel.cached.binary = table->f32;
        kernel.streaming.binary = table->f32_stream;
    } else if (dtype == ACL_FLOAT16) {
        kernel.cached.binary = table->f16;
        kernel.streaming.binary = table->f16_stream;
    } else {
        kernel.cached.binary = table->bf16;
        kernel.streaming.binary = table->bf16_stream;
    }
    const nnop_buffer inputs[2] = {grad, x};
    return ew_add_kernel(executor, "MishGradV2", &kernel, 2, inputs, out, numel, dtype);
}

/* op_host/op_api/mish.c: L0 launch of the Mish kernel (see the header). */
#include "mish.h"

#include "elementwise.h"
#include "mish_kernel.h"

aclnnStatus l0op_Mish(aclOpExecutor *executor, nnop_buffer x, nnop_buffer out, int64_t numel, aclDataType dtype) {
    const mish_kernels *table = mish_kernels_get();
    ew_kernel kernel = {.isa = table->isa};
    if (dtype == ACL_FLOAT) {
        kernel.cached.unary = table->f32;
        kernel.streaming.unary = table->f32_stream;
    } else if (dtype == ACL_FLOAT16) {
        kernel.cached.unary = table->f16;
        kernel.streaming.unary = table->f16_stream;
    } else {
        kernel.cached.unary = table->bf16;
        kernel.streaming.unary = table->bf16_stream;
    }
    return ew_add_kernel(executor, "Mish", &kernel, 1, &x, out, numel, dtype);
}

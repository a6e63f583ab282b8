/* op_host/op_api/mish_grad_v2.c: L0 launch of the MishGradV2 kernel (see the header). */
#include "mish_grad_v2.h"

#include "mgrt.h"
#include "mish_grad_v2_kernel.h"
#include "mish_grad_v2_tiling.h"

typedef struct kernel_params {
    MishGradV2TilingData tiling;
    mish_grad_v2_tile_fn tile;   /* chosen at phase 1, so phase 2 only runs */
} kernel_params;

typedef struct kernel_job {
    const kernel_params *params;
    const unsigned char *grad, *x;
    unsigned char *out;
} kernel_job;

static void run_block(void *ctx, int64_t block) {
    const kernel_job *job = ctx;
    const MishGradV2TilingData *tiling = &job->params->tiling;
    int64_t begin = block * tiling->block_elems;
    int64_t end = begin + tiling->block_elems;
    if (end > tiling->total_elems) end = tiling->total_elems;
    size_t es = (size_t)tiling->elem_size;
    for (int64_t at = begin; at < end; at += tiling->tile_elems) {
        int64_t count = end - at < tiling->tile_elems ? end - at : tiling->tile_elems;
        size_t byte = (size_t)at * es;
        job->params->tile(job->grad + byte, job->x + byte, job->out + byte, (size_t)count);
    }
}

/* buffers: [0] grad, [1] x, [2] out, all dense. */
static int32_t kernel_step(const void *params, void *const *buffers) {
    kernel_job job = {params, buffers[0], buffers[1], buffers[2]};
    mgrt_parallel_for(job.params->tiling.block_count, run_block, &job);
    return 0;
}

aclnnStatus l0op_MishGradV2(aclOpExecutor *executor, nnop_buffer grad, nnop_buffer x, nnop_buffer out, int64_t numel,
                            aclDataType dtype) {
    kernel_params params;
    aclnnStatus status = MishGradV2Tiling(numel, dtype, mgrt_num_threads(), &params.tiling);
    if (status != ACLNN_SUCCESS) return status;
    const mish_grad_v2_kernels *kernels = mish_grad_v2_kernels_get();
    if (dtype == ACL_FLOAT)
        params.tile = params.tiling.stream_out ? kernels->f32_stream : kernels->f32;
    else if (dtype == ACL_FLOAT16)
        params.tile = params.tiling.stream_out ? kernels->f16_stream : kernels->f16;
    else
        params.tile = params.tiling.stream_out ? kernels->bf16_stream : kernels->bf16;
    mgrt_log(MGRT_LOG_INFO, "OP",
             "MishGradV2 tiling: %lld elements, %d thread(s), %lld block(s) of %lld, tile %lld elements, isa %s%s",
             (long long)numel, (int)params.tiling.threads, (long long)params.tiling.block_count,
             (long long)params.tiling.block_elems, (long long)params.tiling.tile_elems, kernels->isa,
             params.tiling.stream_out ? ", streaming stores" : "");
    nnop_buffer buffers[3] = {grad, x, out};
    return nnop_executor_add_step(executor, "MishGradV2", kernel_step, &params, sizeof params, buffers, 3,
                                  (uint64_t)numel);
}

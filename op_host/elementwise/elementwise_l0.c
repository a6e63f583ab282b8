/*
 * op_host/elementwise/elementwise_l0.c: the tiling and the kernel step every elementwise
 * operator's L0 launch shares (see elementwise.h). Nothing here knows which function the
 * kernel computes.
 */
#include "elementwise.h"

#include <fenv.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

/* Blocks start on 512-byte boundaries, as CANN's tiling aligns them for its DMA. */
#define BLOCK_ALIGN_BYTES 512
/* Below this many elements per thread, a wake-up of the pool costs more than it saves:
   4096 elements is about one thread hand-off's worth of kernel time. The measurements behind
   this and the two constants below: docs/performance.md, "The tiling's constants". */
#define MIN_ELEMS_PER_THREAD 4096
/* Blocks are claimed dynamically (in shrinking runs, see runtime/thread_pool.c), so the
   threads finish together only if the last block is short: aim for blocks of about this
   many elements (~2 us of kernel time), with at least MIN_BLOCKS_PER_THREAD per thread (a
   thread slowed by a noisy neighbour hands its share to the others) and at most
   MAX_BLOCKS_PER_THREAD. */
#define TARGET_BLOCK_ELEMS 8192
#define MIN_BLOCKS_PER_THREAD 4
#define MAX_BLOCKS_PER_THREAD 64
/* Output of at least this many bytes per thread is written with streaming stores: it will
   not be in that core's L2 (1 MiB on AMD Zen 5, 1-2 MiB on most current cores) when the
   call returns anyway, and a cached store first reads the line it writes. Smaller outputs
   stay cached for whatever reads them next. */
#define STREAM_MIN_OUT_BYTES_PER_THREAD ((int64_t)1 << 20)
/* One kernel call's worth: 8192 elements = 32 KiB per f32 stream, within L1/L2 reach. */
#define TILE_ELEMS 8192

aclnnStatus ew_tile(int64_t total_elems, int64_t elem_size, int32_t threads, ew_tiling *tiling) {
    if (total_elems < 0 || threads < 1 || elem_size < 1 || elem_size > BLOCK_ALIGN_BYTES)
        return mgrt_fail(ACLNN_ERR_INNER_TILING_ERROR, "elementwise tiling: %lld elements of %lld bytes on %d threads",
                         (long long)total_elems, (long long)elem_size, (int)threads);
    int64_t useful_threads = total_elems / MIN_ELEMS_PER_THREAD;
    if (useful_threads > threads) useful_threads = threads;
    if (useful_threads < 1) useful_threads = 1;

    int64_t block_count = 1;
    if (useful_threads > 1) {
        block_count = total_elems / TARGET_BLOCK_ELEMS;
        if (block_count < useful_threads * MIN_BLOCKS_PER_THREAD) block_count = useful_threads * MIN_BLOCKS_PER_THREAD;
        if (block_count > useful_threads * MAX_BLOCKS_PER_THREAD) block_count = useful_threads * MAX_BLOCKS_PER_THREAD;
    }
    int64_t align = BLOCK_ALIGN_BYTES / elem_size;
    int64_t block_elems = (total_elems + block_count - 1) / block_count;
    block_elems = (block_elems + align - 1) / align * align;
    if (block_elems < 1) block_elems = 1;
    block_count = (total_elems + block_elems - 1) / block_elems;

    tiling->total_elems = total_elems;
    tiling->block_elems = block_elems;
    tiling->block_count = block_count;
    tiling->tile_elems = TILE_ELEMS;
    tiling->threads = (int32_t)useful_threads;
    tiling->elem_size = (int32_t)elem_size;
    tiling->stream_out = total_elems * elem_size / useful_threads >= STREAM_MIN_OUT_BYTES_PER_THREAD;
    return ACLNN_SUCCESS;
}

/* What the kernel step carries (copied into the executor, then into each launch). */
typedef struct kernel_params {
    ew_tiling tiling;
    ew_tile_fn tile;   /* chosen at phase 1, so phase 2 only runs */
    int32_t input_count;
} kernel_params;

typedef struct kernel_job {
    const kernel_params *params;
    const unsigned char *in[EW_MAX_INPUTS];
    unsigned char *out;
} kernel_job;

static void run_tile(const kernel_job *job, size_t byte, size_t count) {
    const ew_tile_fn tile = job->params->tile;
    switch (job->params->input_count) {
    case 1: tile.unary(job->in[0] + byte, job->out + byte, count); break;
    case 2: tile.binary(job->in[0] + byte, job->in[1] + byte, job->out + byte, count); break;
    default: tile.ternary(job->in[0] + byte, job->in[1] + byte, job->in[2] + byte, job->out + byte, count); break;
    }
}

/* The kernels' bits are specified under IEEE defaults: round to nearest, subnormals kept.
   A caller's thread may run with other settings (a program linked with -ffast-math sets
   flush-to-zero and denormals-are-zero at start-up, and threads inherit them; fesetround
   changes the rounding), and then the results would differ from every other caller's and
   between thread counts. So each block runs under the defaults and the thread's own
   settings come back afterwards. The check is one register read when the settings are
   already the defaults (the usual case). */
typedef struct fp_settings {
#if defined(__x86_64__) || defined(__i386__)
    unsigned int mxcsr;
#elif defined(__aarch64__)
    uint64_t fpcr;
#else
    int rounding;
#endif
    int changed;
} fp_settings;

#if defined(__x86_64__) || defined(__i386__)
/* MXCSR: every exception masked, round to nearest, no FTZ (bit 15), no DAZ (bit 6); the
   sticky flags (bits 0-5) are the thread's and are left as they are. */
#define MXCSR_DEFAULT 0x1F80u
#define MXCSR_CONTROL_BITS 0xFFC0u
static fp_settings fp_defaults_enter(void) {
    fp_settings saved = {_mm_getcsr(), 0};
    if ((saved.mxcsr & MXCSR_CONTROL_BITS) != MXCSR_DEFAULT) {
        _mm_setcsr(MXCSR_DEFAULT | (saved.mxcsr & ~MXCSR_CONTROL_BITS));
        saved.changed = 1;
    }
    return saved;
}
static void fp_defaults_leave(fp_settings saved) {
    if (saved.changed) _mm_setcsr(saved.mxcsr | (_mm_getcsr() & ~MXCSR_CONTROL_BITS));
}
#elif defined(__aarch64__)
/* FPCR: rounding (bits 22-23), flush-to-zero (bit 24), default NaN (bit 25) and the
   half-precision flush (bit 19) all zero, as at process start. */
#define FPCR_CONTROL_BITS ((3ull << 22) | (1ull << 24) | (1ull << 25) | (1ull << 19))
static fp_settings fp_defaults_enter(void) {
    fp_settings saved = {0, 0};
    __asm__ volatile("mrs %0, fpcr" : "=r"(saved.fpcr));
    if ((saved.fpcr & FPCR_CONTROL_BITS) != 0) {
        const uint64_t defaults = saved.fpcr & ~FPCR_CONTROL_BITS;
        __asm__ volatile("msr fpcr, %0" : : "r"(defaults));
        saved.changed = 1;
    }
    return saved;
}
static void fp_defaults_leave(fp_settings saved) {
    if (saved.changed) __asm__ volatile("msr fpcr, %0" : : "r"(saved.fpcr));
}
#else
static fp_settings fp_defaults_enter(void) {
    fp_settings saved = {fegetround(), 0};
    if (saved.rounding != FE_TONEAREST) {
        fesetround(FE_TONEAREST);
        saved.changed = 1;
    }
    return saved;
}
static void fp_defaults_leave(fp_settings saved) {
    if (saved.changed) fesetround(saved.rounding);
}
#endif

/* One block of the tiling, tile by tile, under the IEEE defaults. */
static void run_block(void *ctx, int64_t block) {
    const fp_settings callers = fp_defaults_enter();
    const kernel_job *job = ctx;
    const ew_tiling *tiling = &job->params->tiling;
    int64_t begin = block * tiling->block_elems;
    int64_t end = begin + tiling->block_elems;
    if (end > tiling->total_elems) end = tiling->total_elems;
    for (int64_t at = begin; at < end; at += tiling->tile_elems) {
        int64_t count = end - at < tiling->tile_elems ? end - at : tiling->tile_elems;
        run_tile(job, (size_t)at * (size_t)tiling->elem_size, (size_t)count);
    }
    fp_defaults_leave(callers);
}

/* buffers: the inputs, then the output, all dense. The blocks run on the tiling's number
   of threads (one: the calling thread alone, no wake-up). */
static int32_t kernel_step(const void *params, void *const *buffers) {
    kernel_job job;
    job.params = params;
    const int n = job.params->input_count;
    for (int i = 0; i < n; i++) job.in[i] = buffers[i];
    job.out = buffers[n];
    mgrt_parallel_for_threads(job.params->tiling.block_count, job.params->tiling.threads, run_block, &job);
    return 0;
}

aclnnStatus ew_add_kernel(aclOpExecutor *executor, const char *op_type, const ew_kernel *kernel, int input_count,
                          const nnop_buffer *inputs, nnop_buffer out, int64_t numel, aclDataType dtype) {
    if (input_count < 1 || input_count > EW_MAX_INPUTS)
        return mgrt_fail(ACLNN_ERR_INNER, "%s: %d inputs; an elementwise kernel takes 1 to %d", op_type, input_count,
                         EW_MAX_INPUTS);
    kernel_params params;
    params.input_count = input_count;
    aclnnStatus status = ew_tile(numel, (int64_t)aclDataTypeSize(dtype), mgrt_num_threads(), &params.tiling);
    if (status != ACLNN_SUCCESS) return status;
    params.tile = params.tiling.stream_out ? kernel->streaming : kernel->cached;
    if (params.tile.unary == NULL)
        return mgrt_fail(ACLNN_ERR_INNER_FIND_KERNEL_ERROR, "%s: no %s kernel for dtype %s", op_type,
                         params.tiling.stream_out ? "streaming" : "cached", ew_dtype_name(dtype));
    mgrt_log(MGRT_LOG_INFO, "OP",
             "%s tiling: %lld elements, %d thread(s), %lld block(s) of %lld, tile %lld elements, isa %s%s",
             op_type, (long long)numel, (int)params.tiling.threads, (long long)params.tiling.block_count,
             (long long)params.tiling.block_elems, (long long)params.tiling.tile_elems, kernel->isa,
             params.tiling.stream_out ? ", streaming stores" : "");
    nnop_buffer buffers[EW_MAX_TENSORS];
    for (int i = 0; i < input_count; i++) buffers[i] = inputs[i];
    buffers[input_count] = out;
    return nnop_executor_add_step(executor, op_type, kernel_step, &params, sizeof params, buffers,
                                  (uint32_t)input_count + 1, (uint64_t)numel);
}

/* op_host/mish_grad_v2_tiling.c: the block and tile split of MishGradV2 (see the header). */
#include "mish_grad_v2_tiling.h"

#include "mgrt.h"

/* Blocks start on 512-byte boundaries, as CANN's tiling aligns them for its DMA. */
#define BLOCK_ALIGN_BYTES 512
/* Below this many elements per thread, a wake-up of the pool costs more than it saves
   (a thread hand-off is a few microseconds; the kernel does ~4-5 elements per ns). */
#define MIN_ELEMS_PER_THREAD 32768
/* Blocks are claimed dynamically (in shrinking runs, see runtime/thread_pool.c), so the
   threads finish together only if the last block is short: aim for blocks of about this
   many elements (~2 us of kernel time), with at least MIN_BLOCKS_PER_THREAD per thread (a
   thread slowed by a noisy neighbour hands its share to the others) and at most
   MAX_BLOCKS_PER_THREAD. 8192 against 16384 measured the same at 1e6 and slightly better
   at 2e5 (bench/, 2 threads). */
#define TARGET_BLOCK_ELEMS 8192
#define MIN_BLOCKS_PER_THREAD 4
#define MAX_BLOCKS_PER_THREAD 64
/* Output of at least this many bytes per thread is written with streaming stores: it will
   not be in that core's L2 (1 MiB on this Zen 5, 1-2 MiB on most current cores) when the
   call returns anyway, and a cached store first reads the line it writes. Measured with
   bench/ on 2 threads: float32 +5% at 1e6 (2 MB per thread), +24% at 3e7. Smaller outputs
   stay cached for whatever reads them next. */
#define STREAM_MIN_OUT_BYTES_PER_THREAD ((int64_t)1 << 20)
/* One kernel call's worth: 8192 elements = 32 KiB per f32 stream, within L1/L2 reach. */
#define TILE_ELEMS 8192

aclnnStatus MishGradV2Tiling(int64_t total_elems, aclDataType dtype, int32_t threads, MishGradV2TilingData *tiling) {
    int64_t elem_size = dtype == ACL_FLOAT ? 4 : 2;
    if (total_elems < 0 || threads < 1)
        return mgrt_fail(ACLNN_ERR_INNER_TILING_ERROR, "MishGradV2Tiling: %lld elements on %d threads",
                         (long long)total_elems, (int)threads);
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

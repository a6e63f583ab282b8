/*
 * op_host/mish_grad_v2_tiling.h: how MishGradV2 splits its element range.
 *
 * Like CANN's host tiling for an AI core: the range is cut into blocks (one per unit of
 * parallel work, aligned to 512 bytes so no two threads share a cache line) and each block
 * is walked in tiles (what one kernel call processes). Small tensors get one block, so
 * they run on the calling thread with no wake-up at all.
 */
#ifndef MISH_GRAD_V2_TILING_H_
#define MISH_GRAD_V2_TILING_H_

#include <stdint.h>

#include "aclnn/acl_meta.h"

typedef struct MishGradV2TilingData {
    int64_t total_elems;
    int64_t block_elems;   /* elements per block (the last may have fewer) */
    int64_t block_count;
    int64_t tile_elems;    /* elements per kernel call inside a block */
    int32_t threads;       /* pool threads the blocks are spread over */
    int32_t elem_size;
    int32_t stream_out;    /* 1: write the output with streaming stores (too large to cache) */
} MishGradV2TilingData;

/* Fills `tiling` for `total_elems` elements of `dtype` on `threads` threads. Returns
   ACLNN_SUCCESS or ACLNN_ERR_INNER_TILING_ERROR (with the message set). */
aclnnStatus MishGradV2Tiling(int64_t total_elems, aclDataType dtype, int32_t threads, MishGradV2TilingData *tiling);

#endif /* MISH_GRAD_V2_TILING_H_ */

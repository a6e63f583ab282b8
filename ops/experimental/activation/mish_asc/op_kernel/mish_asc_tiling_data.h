/* mish_asc_tiling_data.h: what the MishAsc tiling hands its kernel (host/kernel contract;
   the kernel is the twin's, issue 23). Core i of blockDim handles elements
   [i * blockLength, min(total, (i + 1) * blockLength)) in tiles of tileLength elements.
   The kernel the host launches
   (l0op, ADD_TO_LAUNCHER_LIST_AICORE):
   template <typename D_T> __global__ __aicore__ void mish_asc(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
   GM_ADDR tiling), D_T one of float, half, bfloat16_t (keys 0, 1, 27). */
#ifndef MISH_ASC_TILING_DATA_H_
#define MISH_ASC_TILING_DATA_H_

#include <cstdint>

struct MishAscTilingData {
    int64_t totalLength; /* elements of x */
    int64_t blockLength; /* elements per core, a multiple of 256 bytes; the last core the rest */
    int64_t tileLength;  /* elements per UB tile, a multiple of 32 bytes */
};

#endif

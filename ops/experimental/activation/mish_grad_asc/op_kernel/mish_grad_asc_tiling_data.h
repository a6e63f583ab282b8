/* mish_grad_asc_tiling_data.h: what the MishGradAsc tiling hands its kernel (host/kernel
   contract; the kernel is the twin's, issue 23). Core i of blockDim handles elements
   [i * blockLength, min(total, (i + 1) * blockLength)) in tiles of tileLength elements. */
#ifndef MISH_GRAD_ASC_TILING_DATA_H_
#define MISH_GRAD_ASC_TILING_DATA_H_

#include <cstdint>

struct MishGradAscTilingData {
    int64_t totalLength; /* elements of grad (= of x and x_grad) */
    int64_t blockLength; /* elements per core, a multiple of 256 bytes; the last core the rest */
    int64_t tileLength;  /* elements per UB tile, a multiple of 32 bytes */
};

#endif

/* softsign_asc_tiling_data.h: what the SoftsignAsc tiling hands its kernel. Core i of
   blockDim handles elements [i * blockLength, min(total, (i + 1) * blockLength)) in tiles of
   tileLength elements. The kernel is not a template: it is compiled once per dtype
   combination of the definition (DTYPE_X, DTYPE_Y), and the tiling key is always 0. */
#ifndef SOFTSIGN_ASC_TILING_DATA_H_
#define SOFTSIGN_ASC_TILING_DATA_H_

#include <cstdint>

struct SoftsignAscTilingData {
    int64_t totalLength; /* elements of x */
    int64_t blockLength; /* elements per core, a multiple of 256 bytes; the last core the rest */
    int64_t tileLength;  /* elements per UB tile, a multiple of 32 bytes */
};

#endif

/* mish_asc.cpp: the MishAsc kernel entry. The host tiling (op_host/mish_asc_tiling.cpp) selects
   the instantiation by the dtype of x (mish_asc_tiling_key.h) and hands MishAscTilingData;
   each block takes its blockLength slice of the elements. */
#include "mish_asc.h"

template <typename D_T>
__global__ __aicore__ void mish_asc(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace; /* elementwise: the library workspace the tiling reserves is not used */
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    REGISTER_TILING_DEFAULT(MishAscTilingData);
    GET_TILING_DATA_WITH_STRUCT(MishAscTilingData, tilingData, tiling);
    AscendC::TPipe pipe;
    MishAscKernel::MishAscOp<D_T> op;
    op.Init(x, y, tilingData, &pipe);
    op.Process();
}

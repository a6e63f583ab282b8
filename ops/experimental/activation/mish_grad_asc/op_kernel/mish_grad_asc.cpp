/* mish_grad_asc.cpp: the MishGradAsc kernel entry. The host tiling (op_host/mish_grad_asc_tiling.cpp)
   selects the instantiation by the dtype of grad (mish_grad_asc_tiling_key.h) and hands
   MishGradAscTilingData; each block takes its blockLength slice of the elements. */
#include "mish_grad_asc.h"

template <typename D_T>
__global__ __aicore__ void mish_grad_asc(GM_ADDR grad, GM_ADDR x, GM_ADDR x_grad, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace; /* elementwise: the library workspace the tiling reserves is not used */
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    REGISTER_TILING_DEFAULT(MishGradAscTilingData);
    GET_TILING_DATA_WITH_STRUCT(MishGradAscTilingData, tilingData, tiling);
    AscendC::TPipe pipe;
    MishGradAscKernel::MishGradAscOp<D_T> op;
    op.Init(grad, x, x_grad, tilingData, &pipe);
    op.Process();
}

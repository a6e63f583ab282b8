/* softsign_asc.cpp: the SoftsignAsc kernel entry, written as CANN's non-template kernels are:
   against DTYPE_X (the dtype of x in the definition's combination this compilation is for;
   CANN's build, and opbuild here, compile it once per combination). The host tiling
   (op_host/softsign_asc_tiling.cpp) hands SoftsignAscTilingData; each block takes its
   blockLength slice of the elements. */
#include "softsign_asc.h"

__global__ __aicore__ void softsign_asc(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace; /* elementwise: the library workspace the tiling reserves is not used */
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    REGISTER_TILING_DEFAULT(SoftsignAscTilingData);
    GET_TILING_DATA_WITH_STRUCT(SoftsignAscTilingData, tilingData, tiling);
    AscendC::TPipe pipe;
    SoftsignAscKernel::SoftsignAscOp<DTYPE_X> op;
    op.Init(x, y, tilingData, &pipe);
    op.Process();
}

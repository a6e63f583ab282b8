/* optiling/src/platform.c: the SoC facts a tiling reads, from the runtime's profile (the
   same fields the AscendC twin runs kernels by). */
#include "mgrt.h"
#include "optiling/mg_optiling.h"

void mg_platform_query(mg_platform *p) {
    const mgrt_soc_profile *soc = mgrt_soc();
    p->aiv_core_num = soc->aiv_core_num;
    p->aic_core_num = soc->aiv_core_num / 2; /* 910B: one cube core per two vector cores */
    p->ub_bytes = soc->ub_bytes;
    p->l1_bytes = 512u * 1024u;
    p->lib_workspace_bytes = soc->lib_workspace_bytes;
    p->soc_generation = (int)soc->generation;
    p->soc_name = soc->soc_name;
}

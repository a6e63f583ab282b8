/*
 * asc_twin/gm.h: global memory the twin knows the bounds of (docs/ascendc_twin.md). tikicpulib's
 * AscendC::GmAlloc / GmFree call these; every GM access a kernel makes is bounded by the size
 * SetGlobalBuffer gave and by the real allocation it falls in (a block from here, an
 * aclrtMalloc block, or the launch's own tiling copy).
 */
#ifndef ASC_TWIN_GM_H_
#define ASC_TWIN_GM_H_

#include <stddef.h>
#include <stdint.h>

#include "asc_twin/launch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* `bytes` of zeroed GM, 32-byte aligned (0 bytes gives a 32-byte block); NULL with a message
   (aclGetRecentErrMsg) when memory runs out. */
ASC_TWIN_API void *asc_twin_gm_alloc(size_t bytes);
/* Frees a block from asc_twin_gm_alloc; NULL is ignored; any other pointer is reported (an
   error log and the recent error message) and not freed. */
ASC_TWIN_API void asc_twin_gm_free(void *p);
/* 1 when p lies inside a live asc_twin_gm_alloc block: its base and size are returned. */
ASC_TWIN_API int asc_twin_gm_extent(const void *p, uint8_t **base, uint64_t *bytes);

#ifdef __cplusplus
}
#endif

#endif /* ASC_TWIN_GM_H_ */

/*
 * asc_twin/face_state.h: the little state the C++ face keeps outside a block's buffers, in C
 * (ascendc/face/face_state.c): the tiling key ICPU_SET_TILING_KEY sets, the key of the
 * instantiation a block runs (TILING_KEY_IS), the library workspace GetUserWorkspace skips,
 * and the calls the twin does not model (reported, so a kernel that needs them fails).
 */
#ifndef ASC_TWIN_FACE_STATE_H_
#define ASC_TWIN_FACE_STATE_H_

#include <stdint.h>

#include "asc_twin/launch.h"
#include "asc_twin/vec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ICPU_SET_TILING_KEY: the key the next ICPU_RUN_KF runs under (process-wide, as CANN's). */
ASC_TWIN_API void asc_twin_face_set_icpu_key(uint64_t key);
ASC_TWIN_API uint64_t asc_twin_face_icpu_key(void);
/* The tiling key of the instantiation the calling thread's block runs (set by the entry
   trampolines before the kernel body; TILING_KEY_IS compares against it). */
ASC_TWIN_API void asc_twin_face_set_block_key(uint64_t key);
ASC_TWIN_API uint64_t asc_twin_face_block_key(void);
/* The SoC profile's library workspace (GetLibApiWorkSpaceSize): GetUserWorkspace(ws) is
   ws + this many bytes, as the host tiling adds it in front of the user's. */
ASC_TWIN_API uint64_t asc_twin_face_lib_workspace_bytes(void);
/* SyncAll's soft form (GM and UB workspaces of int32_t, 32 bytes a core, usedCores 0 for
   all): the workspaces checked, then the barrier of asc_twin_sync_all. */
ASC_TWIN_API void asc_twin_face_sync_all_soft(asc_twin_gm_ref gm, asc_twin_ub_ref ub, int32_t used_cores);
/* An API the twin does not model: reported, the block stops. */
ASC_TWIN_API void asc_twin_face_unsupported(const char *api, const char *why);

#ifdef __cplusplus
}
#endif

#endif /* ASC_TWIN_FACE_STATE_H_ */

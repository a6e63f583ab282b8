/*
 * ascendc/face/face_state.c: the C++ face's state outside the blocks (asc_twin/face_state.h).
 */
#include "asc_twin/face_state.h"

#include <stdatomic.h>

#include "mgrt.h"
#include "twin_block.h"
#include "vec_internal.h"

static _Atomic uint64_t icpu_key;
static _Thread_local uint64_t block_key;

void asc_twin_face_set_icpu_key(uint64_t key) { atomic_store(&icpu_key, key); }
uint64_t asc_twin_face_icpu_key(void) { return atomic_load(&icpu_key); }
void asc_twin_face_set_block_key(uint64_t key) { block_key = key; }
uint64_t asc_twin_face_block_key(void) { return block_key; }

uint64_t asc_twin_face_lib_workspace_bytes(void) { return mgrt_soc()->lib_workspace_bytes; }

void asc_twin_face_sync_all_soft(asc_twin_gm_ref gm, asc_twin_ub_ref ub, int32_t used_cores) {
    if (asc_twin_ub_base() == NULL || asc_twin_block_aborted()) return;
    int64_t cores = used_cores > 0 ? used_cores : asc_twin_block_num();
    /* the documented sizes: 32 bytes a core in both workspaces */
    uint64_t need = (uint64_t)cores * 32;
    if (gm.dtype != ASC_TWIN_I32 || ub.dtype != ASC_TWIN_I32) {
        asc_twin_report("SyncAll", "the soft form's workspaces are int32_t tensors");
        return;
    }
    if (gm.size_bytes != UINT64_MAX && gm.size_bytes < need) {
        asc_twin_report("SyncAll", "the GM workspace holds %llu bytes, %lld cores need %llu",
                        (unsigned long long)gm.size_bytes, (long long)cores, (unsigned long long)need);
        return;
    }
    if (twin_check_gm("SyncAll", "GM workspace", gm, 0, need) != 0) return;
    if (ub.capacity_bytes < need) {
        asc_twin_report("SyncAll", "the UB workspace holds %llu bytes, %lld cores need %llu",
                        (unsigned long long)ub.capacity_bytes, (long long)cores, (unsigned long long)need);
        return;
    }
    asc_twin_sync_all("SyncAll", used_cores);
}

void asc_twin_face_unsupported(const char *api, const char *why) { asc_twin_report(api, "%s", why); }

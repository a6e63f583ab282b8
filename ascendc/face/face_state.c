/*
 * ascendc/face/face_state.c: the C++ face's state outside the blocks (asc_twin/face_state.h).
 */
#include "asc_twin/face_state.h"

#include <stdatomic.h>

#include "mgrt.h"
#include "twin_block.h"

static _Atomic uint64_t icpu_key;
static _Thread_local uint64_t block_key;

void asc_twin_face_set_icpu_key(uint64_t key) { atomic_store(&icpu_key, key); }
uint64_t asc_twin_face_icpu_key(void) { return atomic_load(&icpu_key); }
void asc_twin_face_set_block_key(uint64_t key) { block_key = key; }
uint64_t asc_twin_face_block_key(void) { return block_key; }

uint64_t asc_twin_face_lib_workspace_bytes(void) { return mgrt_soc()->lib_workspace_bytes; }

void asc_twin_face_sync_all(void) {
    int64_t n = asc_twin_block_num();
    if (n > 1)
        asc_twin_report("SyncAll", "a barrier across %lld blocks is not modelled (blocks run one after another "
                        "on a pool thread)", (long long)n);
}

void asc_twin_face_unsupported(const char *api, const char *why) { asc_twin_report(api, "%s", why); }

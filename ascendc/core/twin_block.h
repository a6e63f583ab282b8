/*
 * ascendc/core/twin_block.h: the state one running block sees (the C++ face reads it through
 * these calls: GetBlockIdx, GetBlockNum, the reports). Internal to the twin.
 */
#ifndef ASC_TWIN_BLOCK_H_
#define ASC_TWIN_BLOCK_H_

#include <stdint.h>

#include "asc_twin/launch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The running block's index and the launch's block count (0 and 1 outside a launch, as
   CANN's twin answers a kernel function called directly). */
ASC_TWIN_API int64_t asc_twin_block_idx(void);
ASC_TWIN_API int64_t asc_twin_block_num(void);
/* The running kernel's name ("" outside a launch), for reports. */
ASC_TWIN_API const char *asc_twin_kernel_name(void);
/* Reports a broken rule: the first report of a launch becomes its error (ACL_ERROR_RT_AICORE_
   EXCEPTION and the message "<kernel> block <b>: <api>: <text>"), and the block is marked
   aborted; the face checks asc_twin_block_aborted() and does nothing more. */
ASC_TWIN_API void asc_twin_report(const char *api, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
ASC_TWIN_API int asc_twin_block_aborted(void);

/* SyncAll: the running block waits until every one of the launch's first `used_cores`
   blocks (all of them when 0) has called it. A block returning while others wait, or
   before they arrive, a block outside the group, blockDim beyond the SoC's vector cores, or
   a rule break anywhere in the launch ends the wait with a report (never a hang). */
ASC_TWIN_API void asc_twin_sync_all(const char *api, int64_t used_cores);

/* The running block's Unified Buffer: ub_bytes of the SoC profile (mgrt_soc()), zeroed at
   block start, NULL outside a launch or after an allocation failure (reported). */
ASC_TWIN_API uint8_t *asc_twin_ub_base(void);
ASC_TWIN_API uint64_t asc_twin_ub_bytes(void);
/* TPipe::InitBuffer's placement: `bytes` rounded up to 32 (UB tensors start 32-byte aligned)
   at the pipe's next free offset. Returns the offset, or -1 after reporting
   "InitBuffer: <total> bytes requested, UB holds <ub_bytes>" when the running total of
   `*pipe_used` would exceed the UB. */
ASC_TWIN_API int64_t asc_twin_ub_init_buffer(uint64_t *pipe_used, uint64_t bytes);

/* The running block's record of written UB bytes (bit i of the words: UB byte i was
   written; vec_rules.c), NULL outside a launch. */
uint32_t *asc_twin_ub_shadow(void);
/* A documented restriction broken in a way that is usually harmless (the overlap rule):
   logged once per launch and `api` as a warning and 0 returned; under
   MISHGRAD_TWIN_STRICT=1 (read at each launch) reported as a rule break and -1 returned. */
int asc_twin_warn(const char *api, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 1 when `p` lies in one of the running launch's own GM buffers (its tiling copy): that
   buffer's base and size are returned. */
int asc_twin_launch_extent(const void *p, uint8_t **base, uint64_t *bytes);

#ifdef __cplusplus
}
#endif

#endif /* ASC_TWIN_BLOCK_H_ */

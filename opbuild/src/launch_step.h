/* opbuild/src/launch_step.h: the executor step that runs one AscendC kernel through the
   twin: its GM arguments resolved by the executor, its tiling data copied into the plan. */
#ifndef MG_OPBUILD_LAUNCH_STEP_H_
#define MG_OPBUILD_LAUNCH_STEP_H_

#include <stdint.h>

#include "asc_twin/launch.h"
#include "nnop.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MG_LAUNCH_MAX_ARGS 16
#define MG_LAUNCH_TILING_CAPACITY (NNOP_MAX_STEP_PARAMS - 64 - MG_LAUNCH_MAX_ARGS)

typedef struct mg_launch_params {
    const asc_twin_kernel *kernel;
    uint32_t block_dim;
    int32_t nargs;                         /* the kernel's GM_ADDR count, tiling included */
    int8_t arg_buffer[MG_LAUNCH_MAX_ARGS]; /* per argument: its executor buffer, or -1 (NULL) */
    uint32_t tiling_size;
    unsigned char tiling[MG_LAUNCH_TILING_CAPACITY];
} mg_launch_params;
#ifdef __cplusplus
static_assert(sizeof(mg_launch_params) <= NNOP_MAX_STEP_PARAMS, "launch params fit a step");
#else
_Static_assert(sizeof(mg_launch_params) <= NNOP_MAX_STEP_PARAMS, "launch params fit a step");
#endif

/* The step: runs the kernel now on the stream's worker (asc_twin_run_sync) and returns
   its status (the twin sets the message). It runs inside the plan's task, as nnopbase's
   copy steps do, so the twin may spread the blocks over the runtime's pool the same way
   (mgrt_parallel_for), never by queueing on the stream the task is running on. */
int32_t mg_launch_step(const void *params, void *const *buffers);
/* The bytes of `p` a step must copy (the tiling's used part only). */
uint32_t mg_launch_params_size(const mg_launch_params *p);

#ifdef __cplusplus
}
#endif

#endif

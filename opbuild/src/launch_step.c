/* opbuild/src/launch_step.c: the AI-core launch step of a plan (see launch_step.h). The
   tiling argument's slot is left NULL: the twin copies the tiling data into GM itself. */
#include <stddef.h>

#include "launch_step.h"

int32_t mg_launch_step(const void *params, void *const *buffers) {
    const mg_launch_params *p = params;
    uint8_t *args[MG_LAUNCH_MAX_ARGS] = {0};
    for (int32_t i = 0; i < p->nargs && i < MG_LAUNCH_MAX_ARGS; i++)
        args[i] = p->arg_buffer[i] < 0 ? NULL : (uint8_t *)buffers[p->arg_buffer[i]];
    asc_twin_launch_args a = {p->kernel, p->block_dim, args, p->nargs, p->tiling, p->tiling_size};
    return asc_twin_run_sync(&a);
}

uint32_t mg_launch_params_size(const mg_launch_params *p) {
    return (uint32_t)(offsetof(mg_launch_params, tiling) + p->tiling_size);
}

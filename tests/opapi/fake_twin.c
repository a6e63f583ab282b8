/* A stand-in for the AscendC twin's launch interface (asc_twin/launch.h), for testing
   opbuild's launcher alone: a registry by (name, key), and a synchronous run that hands
   the kernel its GM arguments with the tiling copied into the last one, and records what
   it was given (block dim, argument count, tiling size) for the test to check. */
#include <stdlib.h>
#include <string.h>

#include "asc_twin/launch.h"

static const asc_twin_kernel *kernels[16];
static int kernel_count;
uint32_t fake_twin_last_block_dim;
int fake_twin_last_nargs;
size_t fake_twin_last_tiling_size; /* the bytes the kernel's tiling argument holds */

int asc_twin_register(const asc_twin_kernel *k) {
    if (kernel_count == 16) return 1;
    kernels[kernel_count++] = k;
    return 0;
}

const asc_twin_kernel *asc_twin_find(const char *name, uint64_t key) {
    for (int i = 0; i < kernel_count; i++)
        if (strcmp(kernels[i]->name, name) == 0 && kernels[i]->tiling_key == key) return kernels[i];
    return NULL;
}

int asc_twin_run_sync(const asc_twin_launch_args *a) {
    uint8_t *args[16];
    if (a->nargs > 16) return 1;
    memcpy(args, a->gm_args, (size_t)a->nargs * sizeof args[0]);
    uint8_t *tiling = malloc(a->tiling_size ? a->tiling_size : 1);
    if (tiling == NULL) return 1;
    memcpy(tiling, a->tiling, a->tiling_size);
    args[a->nargs - 1] = tiling;
    fake_twin_last_block_dim = a->block_dim;
    fake_twin_last_nargs = a->nargs;
    fake_twin_last_tiling_size = a->tiling_size;
    a->kernel->entry(args);
    free(tiling);
    return 0;
}

int asc_twin_launch(void *stream, const asc_twin_launch_args *a) {
    (void)stream;
    return asc_twin_run_sync(a);
}

/* asc_twin/launch.h: the AscendC twin's C launch interface, as the twin/opapi contract
   fixes it (the twin owns this file; opbuild's launcher only calls asc_twin_find and
   asc_twin_run_sync). */
#ifndef ASC_TWIN_LAUNCH_H_
#define ASC_TWIN_LAUNCH_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One kernel instantiation: a function taking the kernel's GM_ADDR arguments in order
   (inputs..., outputs..., workspace, tiling). */
typedef void (*asc_twin_entry)(uint8_t *const *gm_args);
typedef struct asc_twin_kernel {
    const char *name;        /* kernel function name, e.g. "mish_grad_v2" */
    uint64_t tiling_key;     /* key selecting this instantiation (ASCENDC_TPL encoding) */
    int nargs;               /* number of GM_ADDR parameters */
    asc_twin_entry entry;
} asc_twin_kernel;
int asc_twin_register(const asc_twin_kernel *k);              /* called from static ctors */
const asc_twin_kernel *asc_twin_find(const char *name, uint64_t tiling_key);
typedef struct asc_twin_launch_args {
    const asc_twin_kernel *kernel; uint32_t block_dim;
    uint8_t *const *gm_args; int nargs;     /* copied by the launch */
    const void *tiling; size_t tiling_size; /* copied into a GM buffer the kernel reads */
} asc_twin_launch_args;
/* Queue on an aclrtStream (the runtime's queue and thread pool); rule breaks make the
   stream's synchronize fail with CANN's error and the message. Returns aclError. */
int asc_twin_launch(void *stream, const asc_twin_launch_args *a);
/* Run now and wait (ICPU_RUN_KF); returns 0 or the error; message via aclGetRecentErrMsg. */
int asc_twin_run_sync(const asc_twin_launch_args *a);

#ifdef __cplusplus
}
#endif

#endif

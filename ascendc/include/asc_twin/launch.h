/*
 * asc_twin/launch.h: the AscendC twin's C launch interface (docs/ascendc_twin.md). The op_api
 * layer and the tests find a registered kernel instantiation by (name, tiling key) and run it
 * on the runtime's stream and thread pool; ICPU_RUN_KF runs one synchronously.
 */
#ifndef ASC_TWIN_LAUNCH_H_
#define ASC_TWIN_LAUNCH_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ASC_TWIN_API __attribute__((visibility("default")))

/* One kernel instantiation: a function taking the kernel's GM_ADDR arguments in order
   (inputs..., outputs..., workspace, tiling). */
typedef void (*asc_twin_entry)(uint8_t *const *gm_args);
typedef struct asc_twin_kernel {
    const char *name;        /* kernel function name, e.g. "mish_grad_v2" */
    uint64_t tiling_key;     /* key selecting this instantiation (ASCENDC_TPL encoding) */
    int nargs;               /* number of GM_ADDR parameters */
    asc_twin_entry entry;
} asc_twin_kernel;
/* Called from static constructors; the descriptor must outlive the process (it is kept by
   address). Returns 0, or -1 for a bad descriptor or a (name, key) already registered. */
ASC_TWIN_API int asc_twin_register(const asc_twin_kernel *k);
/* The instantiation registered as (name, tiling_key), or NULL. */
ASC_TWIN_API const asc_twin_kernel *asc_twin_find(const char *name, uint64_t tiling_key);

typedef struct asc_twin_launch_args {
    const asc_twin_kernel *kernel; uint32_t block_dim;
    uint8_t *const *gm_args; int nargs;     /* copied by the launch */
    const void *tiling; size_t tiling_size; /* copied into a GM buffer the kernel reads */
} asc_twin_launch_args;
/* Queue on an aclrtStream (the runtime's queue and thread pool); rule breaks make the
   stream's synchronize fail with CANN's error and the message. Returns aclError. */
ASC_TWIN_API int asc_twin_launch(void *stream, const asc_twin_launch_args *a);
/* Run now and wait (ICPU_RUN_KF); returns 0 or the error; message via aclGetRecentErrMsg. */
ASC_TWIN_API int asc_twin_run_sync(const asc_twin_launch_args *a);

#ifdef __cplusplus
}
#endif

#endif /* ASC_TWIN_LAUNCH_H_ */

/*
 * tests/accuracy/mish_api_runner.h: runs aclnnMishBackward or aclnnMish on host arrays through the
 * public API only (aclInit, aclrtMalloc, aclrtMemcpy, aclCreateTensor, both phases,
 * aclrtSynchronizeStream), the way a CANN application does. Shared by the accuracy tests
 * and tools/mishgrad_sweep, so every verdict is about what an application gets.
 */
#ifndef MISH_API_RUNNER_H_
#define MISH_API_RUNNER_H_

#include <stddef.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_mish_backward.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mish_api_runner {
    aclrtStream stream;
    void *device_grad, *device_x, *device_out;
    size_t capacity_bytes; /* of each device buffer */
} mish_api_runner;

/* aclInit (a repeated initialisation is fine), device 0, a stream and three device buffers
   of `max_bytes` each. Returns 0, or -1 after printing the failing call and its message. */
int mish_api_runner_open(mish_api_runner *runner, size_t max_bytes);
/* out[i] = grad[i] * mish'(x[i]) (aclnnMishBackward) for n elements of `dtype` (ACL_FLOAT,
   ACL_FLOAT16, ACL_BF16), as one 1-D tensor each; with grad NULL, out[i] = mish(x[i])
   (aclnnMish). Returns 0, or -1 after printing what failed. */
int mish_api_runner_run(mish_api_runner *runner, aclDataType dtype, const void *grad,
                        const void *x, void *out, size_t n);
/* Frees everything and calls aclFinalize. */
void mish_api_runner_close(mish_api_runner *runner);

#ifdef __cplusplus
}
#endif

#endif /* MISH_API_RUNNER_H_ */

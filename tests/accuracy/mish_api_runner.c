/*
 * tests/accuracy/mish_api_runner.c: the public-API call sequence of a CANN application.
 */
#include "mish_api_runner.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int report(const char *call, long code) {
    const char *message = aclGetRecentErrMsg();
    fprintf(stderr, "mish_api_runner: %s failed with %ld: %s\n", call, code,
            message ? message : "(no message)");
    return -1;
}

int mish_api_runner_open(mish_api_runner *runner, size_t max_bytes) {
    memset(runner, 0, sizeof *runner);
    aclError rc = aclInit(NULL);
    if (rc != ACL_SUCCESS && rc != ACL_ERROR_REPEAT_INITIALIZE) return report("aclInit", rc);
    if ((rc = aclrtSetDevice(0)) != ACL_SUCCESS) return report("aclrtSetDevice", rc);
    if ((rc = aclrtCreateStream(&runner->stream)) != ACL_SUCCESS) return report("aclrtCreateStream", rc);
    if ((rc = aclrtMalloc(&runner->device_grad, max_bytes, ACL_MEM_MALLOC_HUGE_FIRST)) != ACL_SUCCESS ||
        (rc = aclrtMalloc(&runner->device_x, max_bytes, ACL_MEM_MALLOC_HUGE_FIRST)) != ACL_SUCCESS ||
        (rc = aclrtMalloc(&runner->device_out, max_bytes, ACL_MEM_MALLOC_HUGE_FIRST)) != ACL_SUCCESS)
        return report("aclrtMalloc", rc);
    runner->capacity_bytes = max_bytes;
    return 0;
}

int mish_api_runner_run(mish_api_runner *runner, aclDataType dtype, const void *grad,
                        const void *x, void *out, size_t n) {
    const size_t elem = dtype == ACL_FLOAT ? 4 : 2;
    const size_t bytes = n * elem;
    if (n == 0) return 0;
    if (bytes > runner->capacity_bytes) {
        fprintf(stderr, "mish_api_runner: %zu elements exceed the buffers\n", n);
        return -1;
    }
    aclError rc;
    const int forward = grad == NULL;
    if ((!forward && (rc = aclrtMemcpy(runner->device_grad, runner->capacity_bytes, grad, bytes,
                                       ACL_MEMCPY_HOST_TO_DEVICE)) != ACL_SUCCESS) ||
        (rc = aclrtMemcpy(runner->device_x, runner->capacity_bytes, x, bytes,
                          ACL_MEMCPY_HOST_TO_DEVICE)) != ACL_SUCCESS)
        return report("aclrtMemcpy(HOST_TO_DEVICE)", rc);

    const int64_t shape[1] = {(int64_t)n};
    const int64_t stride[1] = {1};
    aclTensor *grad_tensor = aclCreateTensor(shape, 1, dtype, stride, 0, ACL_FORMAT_ND, shape, 1,
                                             runner->device_grad);
    aclTensor *x_tensor = aclCreateTensor(shape, 1, dtype, stride, 0, ACL_FORMAT_ND, shape, 1,
                                          runner->device_x);
    aclTensor *out_tensor = aclCreateTensor(shape, 1, dtype, stride, 0, ACL_FORMAT_ND, shape, 1,
                                            runner->device_out);
    int result = -1;
    uint64_t workspace_size = 0;
    aclOpExecutor *executor = NULL;
    void *workspace = NULL;
    aclnnStatus status;
    if (!grad_tensor || !x_tensor || !out_tensor) {
        report("aclCreateTensor", 0);
        goto done;
    }
    status = forward ? aclnnMishGetWorkspaceSize(x_tensor, out_tensor, &workspace_size, &executor)
                     : aclnnMishBackwardGetWorkspaceSize(grad_tensor, x_tensor, out_tensor, &workspace_size,
                                                         &executor);
    if (status != ACLNN_SUCCESS) {
        report(forward ? "aclnnMishGetWorkspaceSize" : "aclnnMishBackwardGetWorkspaceSize", status);
        goto done;
    }
    if (workspace_size > 0 &&
        (rc = aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST)) != ACL_SUCCESS) {
        report("aclrtMalloc(workspace)", rc);
        goto done;
    }
    status = forward ? aclnnMish(workspace, workspace_size, executor, runner->stream)
                     : aclnnMishBackward(workspace, workspace_size, executor, runner->stream);
    if (status != ACLNN_SUCCESS) {
        report(forward ? "aclnnMish" : "aclnnMishBackward", status);
        goto done;
    }
    if ((rc = aclrtSynchronizeStream(runner->stream)) != ACL_SUCCESS) {
        report("aclrtSynchronizeStream", rc);
        goto done;
    }
    if ((rc = aclrtMemcpy(out, bytes, runner->device_out, bytes, ACL_MEMCPY_DEVICE_TO_HOST)) !=
        ACL_SUCCESS) {
        report("aclrtMemcpy(DEVICE_TO_HOST)", rc);
        goto done;
    }
    result = 0;
done:
    if (workspace) aclrtFree(workspace);
    if (grad_tensor) aclDestroyTensor(grad_tensor);
    if (x_tensor) aclDestroyTensor(x_tensor);
    if (out_tensor) aclDestroyTensor(out_tensor);
    return result;
}

void mish_api_runner_close(mish_api_runner *runner) {
    if (runner->device_grad) aclrtFree(runner->device_grad);
    if (runner->device_x) aclrtFree(runner->device_x);
    if (runner->device_out) aclrtFree(runner->device_out);
    if (runner->stream) aclrtDestroyStream(runner->stream);
    aclrtResetDevice(0);
    aclFinalize();
    memset(runner, 0, sizeof *runner);
}

/*
 * examples/test_aclnn_mish_grad_v2.c: aclnnMishBackward called the way a CANN sample calls
 * it, in C11.
 *
 *   aclInit -> aclrtSetDevice -> aclrtCreateStream
 *   -> (aclrtMalloc + aclrtMemcpy + aclCreateTensor) for gradOutput, self, gradInput
 *   -> aclnnMishBackwardGetWorkspaceSize -> aclrtMalloc(workspace) when its size is > 0
 *   -> aclnnMishBackward -> aclrtSynchronizeStream -> aclrtMemcpy back
 *   -> aclDestroyTensor, aclrtFree, aclrtDestroyStream, aclrtResetDevice, aclFinalize
 *
 * The data are the operator document's: gradOutput = 0..7, self = 1,1,1,2,2,2,3,3 in a
 * [4, 2] float tensor. Every result is checked against a double-precision evaluation of
 * mish'(x) on the host; the last line says "passed" (exit 0) or "FAILED" (exit 1).
 *
 * Build against an installed MishGradV2 (or CANN):
 *   cc -std=c11 test_aclnn_mish_grad_v2.c -I$PREFIX/include -L$PREFIX/lib \
 *      -Wl,-rpath,$PREFIX/lib -lcust_opapi -lnnopbase -lascendcl -lm
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish_backward.h"

#define CHECK_RET(cond, return_expr) \
    do {                             \
        if (!(cond)) {               \
            return_expr;             \
        }                            \
    } while (0)

#define LOG_PRINT(...)         \
    do {                       \
        printf(__VA_ARGS__);   \
    } while (0)

#define TENSOR_RANK 2
#define ELEMENT_COUNT 8

/* Everything the example acquires, so that one function can give it all back whatever
   step failed. */
typedef struct ExampleResources {
    int32_t deviceId;
    aclrtStream stream;
    void *gradOutputDeviceAddr;
    void *selfDeviceAddr;
    void *gradInputDeviceAddr;
    void *workspaceAddr;
    aclTensor *gradOutput;
    aclTensor *self;
    aclTensor *gradInput;
} ExampleResources;

static int64_t GetShapeSize(const int64_t *shape, int rank)
{
    int64_t shapeSize = 1;
    for (int i = 0; i < rank; i++) {
        shapeSize *= shape[i];
    }
    return shapeSize;
}

static int Init(int32_t deviceId, aclrtStream *stream)
{
    aclError ret = aclInit(NULL);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg());
              return ret);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg());
              return ret);
    ret = aclrtCreateStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg());
              return ret);
    return ACL_SUCCESS;
}

/* Copies `hostData` (float32, row-major `shape`) into new device memory and describes it as
   a contiguous ND tensor. */
static int CreateAclTensor(const float *hostData, const int64_t *shape, int rank, void **deviceAddr,
                           aclDataType dataType, aclTensor **tensor)
{
    size_t size = (size_t)GetShapeSize(shape, rank) * sizeof(float);
    aclError ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
    ret = aclrtMemcpy(*deviceAddr, size, hostData, size, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);

    /* Row-major strides, in elements. */
    int64_t strides[TENSOR_RANK];
    for (int i = rank - 1; i >= 0; i--) {
        strides[i] = (i == rank - 1) ? 1 : shape[i + 1] * strides[i + 1];
    }
    *tensor = aclCreateTensor(shape, (uint64_t)rank, dataType, strides, 0, ACL_FORMAT_ND, shape, (uint64_t)rank,
                              *deviceAddr);
    CHECK_RET(*tensor != NULL, LOG_PRINT("aclCreateTensor failed: %s\n", aclGetRecentErrMsg());
              return ACLNN_ERR_INNER_NULLPTR);
    return ACL_SUCCESS;
}

/* mish'(x) in double precision, written from the definition mish(x) = x * tanh(softplus(x))
   rather than from the single-exp form the library uses, so the two are independent. */
static double MishGradReference(double gradOutput, double x)
{
    double softplus = fmax(x, 0.0) + log1p(exp(-fabs(x)));
    double tanhSoftplus = tanh(softplus);
    double sigmoid = 1.0 / (1.0 + exp(-x));
    return gradOutput * (tanhSoftplus + x * (1.0 - tanhSoftplus * tanhSoftplus) * sigmoid);
}

/* float32 arithmetic carries ~24 bits; a few ulps of relative slack, and an absolute floor
   for results near zero, where relative error means nothing. */
static int IsClose(float actual, double expected)
{
    return fabs((double)actual - expected) <= 1e-6 + 1e-5 * fabs(expected);
}

static int RunMishBackward(ExampleResources *res, int *mismatches)
{
    const int64_t shape[TENSOR_RANK] = {4, 2};
    const float gradOutputHostData[ELEMENT_COUNT] = {0, 1, 2, 3, 4, 5, 6, 7};
    const float selfHostData[ELEMENT_COUNT] = {1, 1, 1, 2, 2, 2, 3, 3};
    const float gradInputHostData[ELEMENT_COUNT] = {0, 0, 0, 0, 0, 0, 0, 0};

    int ret = CreateAclTensor(gradOutputHostData, shape, TENSOR_RANK, &res->gradOutputDeviceAddr, ACL_FLOAT,
                              &res->gradOutput);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(selfHostData, shape, TENSOR_RANK, &res->selfDeviceAddr, ACL_FLOAT, &res->self);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(gradInputHostData, shape, TENSOR_RANK, &res->gradInputDeviceAddr, ACL_FLOAT,
                          &res->gradInput);
    CHECK_RET(ret == ACL_SUCCESS, return ret);

    /* Phase 1: check the tensors and plan the work. */
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = NULL;
    ret = aclnnMishBackwardGetWorkspaceSize(res->gradOutput, res->self, res->gradInput, &workspaceSize, &executor);
    CHECK_RET(ret == ACLNN_SUCCESS,
              LOG_PRINT("aclnnMishBackwardGetWorkspaceSize failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg());
              return ret);
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&res->workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
    }

    /* Phase 2 only queues the work; the results exist once the stream is synchronized. */
    ret = aclnnMishBackward(res->workspaceAddr, workspaceSize, executor, res->stream);
    CHECK_RET(ret == ACLNN_SUCCESS,
              LOG_PRINT("aclnnMishBackward failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg()); return ret);
    ret = aclrtSynchronizeStream(res->stream);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg());
              return ret);

    float resultData[ELEMENT_COUNT] = {0};
    int64_t size = GetShapeSize(shape, TENSOR_RANK);
    ret = aclrtMemcpy(resultData, sizeof(resultData), res->gradInputDeviceAddr, (size_t)size * sizeof(float),
                      ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret);

    for (int64_t i = 0; i < size; i++) {
        double expected = MishGradReference(gradOutputHostData[i], selfHostData[i]);
        int ok = IsClose(resultData[i], expected);
        LOG_PRINT("result[%d] is: %f (expected %f)%s\n", (int)i, resultData[i], expected, ok ? "" : "  MISMATCH");
        if (!ok) {
            (*mismatches)++;
        }
    }
    return ACL_SUCCESS;
}

/* Gives back, in reverse order, whatever RunMishBackward and Init acquired. */
static void ReleaseResources(ExampleResources *res)
{
    if (res->gradOutput != NULL) aclDestroyTensor(res->gradOutput);
    if (res->self != NULL) aclDestroyTensor(res->self);
    if (res->gradInput != NULL) aclDestroyTensor(res->gradInput);
    if (res->gradOutputDeviceAddr != NULL) aclrtFree(res->gradOutputDeviceAddr);
    if (res->selfDeviceAddr != NULL) aclrtFree(res->selfDeviceAddr);
    if (res->gradInputDeviceAddr != NULL) aclrtFree(res->gradInputDeviceAddr);
    if (res->workspaceAddr != NULL) aclrtFree(res->workspaceAddr);
    if (res->stream != NULL) aclrtDestroyStream(res->stream);
    /* Harmless when Init failed before the device was set: it only returns an error. */
    aclrtResetDevice(res->deviceId);
    aclFinalize();
}

int main(void)
{
    /* 1. Device and stream; the CPU is device 0. */
    ExampleResources res = {0};
    res.deviceId = 0;
    int ret = Init(res.deviceId, &res.stream);
    int mismatches = 0;

    /* 2.-5. Tensors, both phases, synchronize, read back and check. */
    if (ret == ACL_SUCCESS) {
        ret = RunMishBackward(&res, &mismatches);
    }

    /* 6. Release tensors, memory, stream and device. */
    ReleaseResources(&res);

    if (ret != ACL_SUCCESS || mismatches != 0) {
        LOG_PRINT("aclnnMishBackward example FAILED (status %d, %d mismatches)\n", ret, mismatches);
        return 1;
    }
    LOG_PRINT("aclnnMishBackward example passed\n");
    return 0;
}

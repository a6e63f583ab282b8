/*
 * examples/test_aclnn_mish_grad_v2.cpp: the aclnnMishBackward example written the way CANN's
 * own C++ samples are (std::vector, a CreateAclTensor template, std::unique_ptr owners,
 * aclDataType::ACL_FLOAT, nullptr). It uses nothing MishGradV2-specific: the same source
 * builds against CANN, and builds unchanged against MishGradV2's installed headers with
 *
 *   g++ test_aclnn_mish_grad_v2.cpp -I$PREFIX/include -L$PREFIX/lib -Wl,-rpath,$PREFIX/lib \
 *       -lcust_opapi -lnnopbase -lascendcl
 *
 * Data: gradOutput = 0..7, self = 1,1,1,2,2,2,3,3, shape [4, 2], float32. Each result is
 * compared with a double-precision host evaluation of mish'(x); the last line says
 * "passed" (exit 0) or "FAILED" (exit 1).
 */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish_backward.h"

#define CHECK_RET(cond, return_expr) \
    do {                             \
        if (!(cond)) {               \
            return_expr;             \
        }                            \
    } while (0)

#define LOG_PRINT(message, ...)         \
    do {                                \
        printf(message, ##__VA_ARGS__); \
    } while (0)

int64_t GetShapeSize(const std::vector<int64_t>& shape)
{
    int64_t shapeSize = 1;
    for (auto dim : shape) {
        shapeSize *= dim;
    }
    return shapeSize;
}

int Init(int32_t deviceId, aclrtStream* stream)
{
    // Fixed pattern: runtime, device, stream.
    auto ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
    ret = aclrtCreateStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret);
    return 0;
}

void Finalize(int32_t deviceId, aclrtStream stream)
{
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
}

template <typename T>
int CreateAclTensor(const std::vector<T>& hostData, const std::vector<int64_t>& shape, void** deviceAddr,
                    aclDataType dataType, aclTensor** tensor)
{
    auto size = GetShapeSize(shape) * sizeof(T);
    // Device memory for the tensor, filled from the host.
    auto ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
    ret = aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);

    // Strides of a contiguous (row-major) tensor.
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--) {
        strides[i] = shape[i + 1] * strides[i + 1];
    }

    *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0, aclFormat::ACL_FORMAT_ND,
                              shape.data(), shape.size(), *deviceAddr);
    CHECK_RET(*tensor != nullptr, LOG_PRINT("aclCreateTensor failed.\n"); return -1);
    return 0;
}

// Host golden: mish'(x) from its definition, in double precision.
double MishBackwardGolden(double gradOutput, double x)
{
    double softplus = std::fmax(x, 0.0) + std::log1p(std::exp(-std::fabs(x)));
    double tanhSp = std::tanh(softplus);
    double sigmoid = 1.0 / (1.0 + std::exp(-x));
    return gradOutput * (tanhSp + x * (1.0 - tanhSp * tanhSp) * sigmoid);
}

int aclnnMishBackwardTest(int32_t deviceId, aclrtStream& stream)
{
    // 1. Device and stream initialisation.
    auto ret = Init(deviceId, &stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret);

    // 2. Inputs and output.
    std::vector<int64_t> gradOutputShape = {4, 2};
    std::vector<int64_t> selfShape = {4, 2};
    std::vector<int64_t> gradInputShape = {4, 2};
    void* gradOutputDeviceAddr = nullptr;
    void* selfDeviceAddr = nullptr;
    void* gradInputDeviceAddr = nullptr;
    aclTensor* gradOutput = nullptr;
    aclTensor* self = nullptr;
    aclTensor* gradInput = nullptr;
    std::vector<float> gradOutputHostData = {0, 1, 2, 3, 4, 5, 6, 7};
    std::vector<float> selfHostData = {1, 1, 1, 2, 2, 2, 3, 3};
    std::vector<float> gradInputHostData(GetShapeSize(gradInputShape), 0);

    ret = CreateAclTensor(gradOutputHostData, gradOutputShape, &gradOutputDeviceAddr, aclDataType::ACL_FLOAT,
                          &gradOutput);
    std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor*)> gradOutputTensorPtr(gradOutput, aclDestroyTensor);
    std::unique_ptr<void, aclError (*)(void*)> gradOutputDeviceAddrPtr(gradOutputDeviceAddr, aclrtFree);
    CHECK_RET(ret == ACL_SUCCESS, return ret);

    ret = CreateAclTensor(selfHostData, selfShape, &selfDeviceAddr, aclDataType::ACL_FLOAT, &self);
    std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor*)> selfTensorPtr(self, aclDestroyTensor);
    std::unique_ptr<void, aclError (*)(void*)> selfDeviceAddrPtr(selfDeviceAddr, aclrtFree);
    CHECK_RET(ret == ACL_SUCCESS, return ret);

    ret = CreateAclTensor(gradInputHostData, gradInputShape, &gradInputDeviceAddr, aclDataType::ACL_FLOAT,
                          &gradInput);
    std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor*)> gradInputTensorPtr(gradInput, aclDestroyTensor);
    std::unique_ptr<void, aclError (*)(void*)> gradInputDeviceAddrPtr(gradInputDeviceAddr, aclrtFree);
    CHECK_RET(ret == ACL_SUCCESS, return ret);

    // 3. The operator: phase 1 sizes the workspace, phase 2 runs on the stream.
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    ret = aclnnMishBackwardGetWorkspaceSize(gradOutput, self, gradInput, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnMishBackwardGetWorkspaceSize failed. ERROR: %d\n", ret);
              return ret);

    void* workspaceAddr = nullptr;
    std::unique_ptr<void, aclError (*)(void*)> workspaceAddrPtr(nullptr, aclrtFree);
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
        workspaceAddrPtr.reset(workspaceAddr);
    }

    ret = aclnnMishBackward(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnMishBackward failed. ERROR: %d\n", ret); return ret);

    // 4. Wait for the stream.
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);

    // 5. Copy the result back and compare it with the host golden.
    auto size = GetShapeSize(gradInputShape);
    std::vector<float> resultData(size, 0);
    ret = aclrtMemcpy(resultData.data(), resultData.size() * sizeof(resultData[0]), gradInputDeviceAddr,
                      size * sizeof(resultData[0]), ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret);
              return ret);

    int mismatches = 0;
    for (int64_t i = 0; i < size; i++) {
        double golden = MishBackwardGolden(gradOutputHostData[i], selfHostData[i]);
        // float32 result: relative 1e-5 plus an absolute floor for values near zero.
        bool close = std::fabs(resultData[i] - golden) <= 1e-6 + 1e-5 * std::fabs(golden);
        LOG_PRINT("result[%ld] is: %f (expected %f)%s\n", static_cast<long>(i), resultData[i], golden,
                  close ? "" : "  MISMATCH");
        mismatches += close ? 0 : 1;
    }
    CHECK_RET(mismatches == 0, LOG_PRINT("%d results differ from the golden.\n", mismatches); return 1);
    return ACL_SUCCESS;
}

int main()
{
    // The CPU is device 0.
    int32_t deviceId = 0;
    aclrtStream stream = nullptr;
    auto ret = aclnnMishBackwardTest(deviceId, stream);
    // The tensors and device memory are released (unique_ptr) before the runtime is finalized.
    Finalize(deviceId, stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnMishBackward example FAILED. ERROR: %d\n", ret); return 1);
    LOG_PRINT("aclnnMishBackward example passed\n");
    return 0;
}

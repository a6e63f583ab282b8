// opdev over libnnopbase's executor: an op_api function written in ops-nn's style chains
// the helper l0 ops (Contiguous of a strided float16 view, Cast to float, Reshape,
// BroadcastTo, ViewCopy into the caller's tensor), runs through phase 2 on a stream, and
// the values are checked against the written expectation out[i][j][k] = src[2j+1]; the
// checks' statuses and messages name the argument as the caller wrote it.
#include <cstdio>

#include "opapi_check.h"
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_kernels/cast.h"
#include "aclnn_kernels/common/op_error_check.h"
#include "aclnn_kernels/contiguous.h"
#include "aclnn_kernels/reshape.h"
#include "level0/broadcast_to.h"
#include "level0/muls.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_dfx.h"
#include "opdev/op_executor.h"
#include "opdev/platform.h"

using namespace op;

static aclnnStatus DemoGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                        aclOpExecutor **executor)
{
    OP_CHECK_COMM_INPUT(workspaceSize, executor);
    L2_DFX_PHASE_1(aclnnDemo, DFX_IN(self), DFX_OUT(out));
    auto unique = CREATE_EXECUTOR();
    CHECK_RET(unique.get() != nullptr, ACLNN_ERR_INNER_CREATE_EXECUTOR);
    OP_CHECK_NULL(self, return ACLNN_ERR_PARAM_NULLPTR);
    OP_CHECK_NULL(out, return ACLNN_ERR_PARAM_NULLPTR);
    static const std::initializer_list<DataType> supported = {DataType::DT_FLOAT16, DataType::DT_BF16};
    OP_CHECK_DTYPE_NOT_SUPPORT(self, supported, return ACLNN_ERR_PARAM_INVALID);
    OP_CHECK_MAX_DIM(out, 8, return ACLNN_ERR_PARAM_INVALID);
    auto c = l0op::Contiguous(self, unique.get());
    CHECK_RET(c != nullptr, ACLNN_ERR_INNER_NULLPTR);
    auto f = l0op::Cast(c, DataType::DT_FLOAT, unique.get());
    CHECK_RET(f != nullptr, ACLNN_ERR_INNER_NULLPTR);
    auto r = l0op::Reshape(f, Shape{3, 1}, unique.get());
    CHECK_RET(r != nullptr, ACLNN_ERR_INNER_NULLPTR);
    auto b = l0op::BroadcastTo(r, Shape{2, 3, 4}, unique.get());
    CHECK_RET(b != nullptr, ACLNN_ERR_INNER_NULLPTR);
    auto v = l0op::ViewCopy(b, out, unique.get());
    CHECK_RET(v != nullptr, ACLNN_ERR_INNER_NULLPTR);
    *workspaceSize = unique->GetWorkspaceSize();
    unique.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

static aclnnStatus Demo(void *workspace, uint64_t size, aclOpExecutor *executor, aclrtStream stream)
{
    L2_DFX_PHASE_2(aclnnDemo);
    return CommonOpExecutorRun(workspace, size, executor, stream);
}

// self * alpha through l0op::Muls, copied into out (same shape and dtype)
static aclnnStatus MulsDemoGetWorkspaceSize(const aclTensor *self, float alpha, aclTensor *out,
                                            uint64_t *workspaceSize, aclOpExecutor **executor)
{
    L2_DFX_PHASE_1(aclnnMulsDemo, DFX_IN(self, alpha), DFX_OUT(out));
    auto unique = CREATE_EXECUTOR();
    CHECK_RET(unique.get() != nullptr, ACLNN_ERR_INNER_CREATE_EXECUTOR);
    auto y = l0op::Muls(self, alpha, unique.get());
    CHECK_RET(y != nullptr, ACLNN_ERR_INNER_NULLPTR);
    auto v = l0op::ViewCopy(y, out, unique.get());
    CHECK_RET(v != nullptr, ACLNN_ERR_INNER_NULLPTR);
    *workspaceSize = unique->GetWorkspaceSize();
    unique.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

// Muls on float32 (against C's float multiply) and float16 (against the float product
// rounded by aclFloatToFloat16), through both phases; int32 refused at phase 1.
static void CheckMuls(aclrtStream stream)
{
    const float x[7] = {0.5f, -1.25f, 3.0e-3f, 65504.0f, -7.0f, 1.0f / 3.0f, 0.0f};
    const float alpha = 0.1f;
    int64_t dims[1] = {7}, strides[1] = {1};
    void *in_dev = nullptr, *out_dev = nullptr;
    CHECK(aclrtMalloc(&in_dev, sizeof x, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    CHECK(aclrtMalloc(&out_dev, sizeof x, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    for (int half = 0; half <= 1; half++) {
        aclFloat16 hx[7];
        for (int i = 0; i < 7; i++) hx[i] = aclFloatToFloat16(x[i]);
        CHECK(aclrtMemcpy(in_dev, sizeof x, half ? static_cast<const void *>(hx) : x, half ? sizeof hx : sizeof x,
                          ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
        const aclDataType dt = half ? ACL_FLOAT16 : ACL_FLOAT;
        aclTensor *self = aclCreateTensor(dims, 1, dt, strides, 0, ACL_FORMAT_ND, dims, 1, in_dev);
        aclTensor *out = aclCreateTensor(dims, 1, dt, strides, 0, ACL_FORMAT_ND, dims, 1, out_dev);
        uint64_t ws = 0;
        aclOpExecutor *executor = nullptr;
        CHECK(MulsDemoGetWorkspaceSize(self, alpha, out, &ws, &executor) == ACLNN_SUCCESS);
        void *workspace = nullptr;
        if (ws > 0) CHECK(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
        CHECK(Demo(workspace, ws, executor, stream) == ACLNN_SUCCESS);
        CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
        if (half) {
            aclFloat16 got[7];
            CHECK(aclrtMemcpy(got, sizeof got, out_dev, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
            for (int i = 0; i < 7; i++) CHECK(got[i] == aclFloatToFloat16(aclFloat16ToFloat(hx[i]) * alpha));
        } else {
            float got[7];
            CHECK(aclrtMemcpy(got, sizeof got, out_dev, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
            for (int i = 0; i < 7; i++) {
                const float want = x[i] * alpha;
                CHECK(std::memcmp(&got[i], &want, sizeof want) == 0);
            }
        }
        aclrtFree(workspace);
        aclDestroyTensor(self);
        aclDestroyTensor(out);
    }
    aclTensor *ints = aclCreateTensor(dims, 1, ACL_INT32, strides, 0, ACL_FORMAT_ND, dims, 1, in_dev);
    uint64_t ws = 0;
    aclOpExecutor *executor = nullptr;
    CHECK(MulsDemoGetWorkspaceSize(ints, alpha, ints, &ws, &executor) == ACLNN_ERR_INNER_NULLPTR);
    const char *m = aclGetRecentErrMsg();
    CHECK(m != nullptr && std::strstr(m, "Muls of") != nullptr && std::strstr(m, "not modelled") != nullptr);
    aclDestroyTensor(ints);
    aclrtFree(in_dev);
    aclrtFree(out_dev);
}

int main()
{
    CHECK(aclInit(nullptr) == ACL_SUCCESS);
    CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
    CHECK(GetCurrentPlatformInfo().GetSocVersion() == SocVersion::ASCEND910B);

    const float src[6] = {0.5f, 1.25f, -3.0f, 2.0f, 7.5f, -0.25f};
    void *in_dev = nullptr, *out_dev = nullptr;
    CHECK(aclrtMalloc(&in_dev, 6 * 2, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    CHECK(aclrtMalloc(&out_dev, 24 * 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    aclFloat16 halves[6];
    for (int i = 0; i < 6; i++) halves[i] = aclFloatToFloat16(src[i]);
    CHECK(aclrtMemcpy(in_dev, 12, halves, 12, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
    // self: the odd elements, a strided view (shape [3], stride 2, offset 1) of 6 float16s
    int64_t view[1] = {3}, stride[1] = {2}, storage[1] = {6};
    aclTensor *self = aclCreateTensor(view, 1, ACL_FLOAT16, stride, 1, ACL_FORMAT_ND, storage, 1, in_dev);
    int64_t odims[3] = {2, 3, 4}, ostr[3] = {12, 4, 1};
    aclTensor *out = aclCreateTensor(odims, 3, ACL_FLOAT, ostr, 0, ACL_FORMAT_ND, odims, 3, out_dev);

    uint64_t ws = 0;
    aclOpExecutor *executor = nullptr;
    CHECK(DemoGetWorkspaceSize(self, out, &ws, &executor) == ACLNN_SUCCESS);
    CHECK(ws > 0); // the dense float16 copy, the float cast and the broadcast live there
    // phase 2 without the workspace it asked for is refused, and releases the executor
    CHECK(Demo(nullptr, ws, executor, stream) == ACLNN_ERR_PARAM_NULLPTR);
    CHECK(DemoGetWorkspaceSize(self, out, &ws, &executor) == ACLNN_SUCCESS);
    void *workspace = nullptr;
    CHECK(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    CHECK(Demo(workspace, ws, executor, stream) == ACLNN_SUCCESS);
    CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    float got[24];
    CHECK(aclrtMemcpy(got, sizeof got, out_dev, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++) CHECK(got[i * 12 + j * 4 + k] == src[2 * j + 1]);

    // the checks: a dtype outside the list names `self`; NULL `out` is 161001
    aclTensor *ints = aclCreateTensor(view, 1, ACL_INT32, stride, 0, ACL_FORMAT_ND, storage, 1, out_dev);
    CHECK(DemoGetWorkspaceSize(ints, out, &ws, &executor) == ACLNN_ERR_PARAM_INVALID);
    const char *m = aclGetRecentErrMsg(); // reading the message clears it (as CANN's)
    CHECK(m != nullptr && std::strstr(m, "self") != nullptr && std::strstr(m, "DT_INT32") != nullptr);
    CHECK(DemoGetWorkspaceSize(self, nullptr, &ws, &executor) == ACLNN_ERR_PARAM_NULLPTR);
    m = aclGetRecentErrMsg();
    CHECK(m != nullptr && std::strstr(m, "out") != nullptr);
    CHECK(DemoGetWorkspaceSize(self, out, nullptr, &executor) == ACLNN_ERR_PARAM_NULLPTR);

    // aclIntArray's face, the broadcast and dimension checks, a scalar's dtype check
    const int64_t values[3] = {4, -1, 9};
    aclIntArray *array = aclCreateIntArray(values, 3);
    CHECK(array != nullptr && array->Size() == 3 && (*array)[0] == 4 && (*array)[2] == 9 && (*array)[3] == 0);
    static_assert(op::MAX_DIM_NUM == 8, "opbase's constant");
    int64_t d23[2] = {2, 3}, d13[2] = {1, 3}, d4[1] = {4}, s23[2] = {3, 1};
    aclTensor *a = aclCreateTensor(d23, 2, ACL_FLOAT, s23, 0, ACL_FORMAT_ND, d23, 2, out_dev);
    aclTensor *b = aclCreateTensor(d13, 2, ACL_FLOAT, s23, 0, ACL_FORMAT_ND, d13, 2, out_dev);
    aclTensor *c = aclCreateTensor(d4, 1, ACL_FLOAT, s23 + 1, 0, ACL_FORMAT_ND, d4, 1, out_dev);
    op::mg::DfxBegin("aclnnChecks");
    auto broadcast = [](const aclTensor *x, const aclTensor *y, op::Shape &shape) {
        OP_CHECK_BROADCAST_AND_INFER_SHAPE(x, y, shape, return false);
        return true;
    };
    op::Shape shape;
    CHECK(broadcast(a, b, shape) && shape.GetDimNum() == 2 && shape.GetDim(0) == 2 && shape.GetDim(1) == 3);
    CHECK(!broadcast(a, c, shape));
    m = aclGetRecentErrMsg();
    CHECK(m != nullptr && std::strstr(m, "cannot be broadcast") != nullptr && std::strstr(m, "aclnnChecks") != nullptr);
    auto dims = [](const aclTensor *x, size_t n) {
        OP_CHECK_WRONG_DIMENSION(x, n, return false);
        return true;
    };
    CHECK(dims(a, 2) && !dims(c, 2));
    m = aclGetRecentErrMsg();
    CHECK(m != nullptr && std::strstr(m, "1 dims, expected 2") != nullptr);
    const float one = 1.0f;
    aclScalar *scalar = aclCreateScalar(const_cast<float *>(&one), ACL_FLOAT);
    auto scalar_ok = [](const aclScalar *alpha, std::initializer_list<op::DataType> list) {
        OP_CHECK_DTYPE_NOT_SUPPORT(alpha, list, return false);
        return true;
    };
    CHECK(scalar_ok(scalar, {DataType::DT_FLOAT}) && !scalar_ok(scalar, {DataType::DT_INT32}));
    m = aclGetRecentErrMsg();
    CHECK(m != nullptr && std::strstr(m, "alpha") != nullptr);
    aclDestroyScalar(scalar);
    aclDestroyTensor(a);
    aclDestroyTensor(b);
    aclDestroyTensor(c);
    aclDestroyIntArray(array);

    CheckMuls(stream);

    aclDestroyTensor(ints);
    aclDestroyTensor(self);
    aclDestroyTensor(out);
    aclrtFree(workspace);
    aclrtFree(in_dev);
    aclrtFree(out_dev);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    CHECK(aclFinalize() == ACL_SUCCESS);
    return Finish();
}

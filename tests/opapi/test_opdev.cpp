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
#include "level0/fill.h"
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

// The shape of `out` as its dims tensor and int array, as ops-nn's callers build them
// (level2_base_caculation.h's fill helpers, sigmoid_grad's BroadcastTo).
static std::vector<int64_t> DimsOf(const aclTensor *t)
{
    std::vector<int64_t> d;
    for (size_t i = 0; i < t->GetViewShape().GetDimNum(); i++) d.push_back(t->GetViewShape().GetDim(i));
    return d;
}

// out[...] = value (a host value of type T converted to out's dtype) through l0op::Fill; with
// bad_dims the dims tensor names one element more than the int array.
template <typename T>
static aclnnStatus FillDemoGetWorkspaceSize(aclTensor *out, T value, bool bad_dims, uint64_t *workspaceSize,
                                            aclOpExecutor **executor)
{
    L2_DFX_PHASE_1(aclnnFillDemo, DFX_IN(value), DFX_OUT(out));
    auto unique = CREATE_EXECUTOR();
    CHECK_RET(unique.get() != nullptr, ACLNN_ERR_INNER_CREATE_EXECUTOR);
    std::vector<int64_t> d = DimsOf(out);
    std::vector<int64_t> td = d;
    if (bad_dims) td.back() += 1;
    auto dims = unique->ConvertToTensor(td.data(), td.size(), DataType::DT_INT64);
    auto shape = unique->AllocIntArray(d.data(), d.size());
    FVector<T> values = {value}; // as ops-nn writes it (FVector<bool> included)
    auto v = unique->ConvertToTensor(values.data(), values.size(), out->GetDataType());
    CHECK_RET(dims != nullptr && shape != nullptr && v != nullptr, ACLNN_ERR_INNER_NULLPTR);
    auto filled = l0op::Fill(dims, v, shape, unique.get());
    CHECK_RET(filled != nullptr, ACLNN_ERR_INNER_NULLPTR);
    CHECK_RET(l0op::ViewCopy(filled, out, unique.get()) != nullptr, ACLNN_ERR_INNER_NULLPTR);
    *workspaceSize = unique->GetWorkspaceSize();
    unique.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

// out = host values (int64 or float, converted to out's dtype by ConvertToTensor) copied by
// ViewCopy: the host tensor read by a step from the workspace.
template <typename T>
static aclnnStatus HostCopyDemoGetWorkspaceSize(const std::vector<T> &values, aclTensor *out,
                                                uint64_t *workspaceSize, aclOpExecutor **executor)
{
    L2_DFX_PHASE_1(aclnnHostCopyDemo, DFX_IN(values.size()), DFX_OUT(out));
    auto unique = CREATE_EXECUTOR();
    CHECK_RET(unique.get() != nullptr, ACLNN_ERR_INNER_CREATE_EXECUTOR);
    auto h = unique->ConvertToTensor(values.data(), values.size(), out->GetDataType());
    CHECK_RET(h != nullptr, ACLNN_ERR_INNER_NULLPTR);
    CHECK_RET(l0op::ViewCopy(h, out, unique.get()) != nullptr, ACLNN_ERR_INNER_NULLPTR);
    *workspaceSize = unique->GetWorkspaceSize();
    unique.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

// x broadcast into a tensor AllocTensor gave, with its dims as a host int64 tensor (the
// 4-argument BroadcastTo sigmoid_grad calls), then copied to out.
static aclnnStatus Broadcast4DemoGetWorkspaceSize(const aclTensor *x, aclTensor *out, uint64_t *workspaceSize,
                                                  aclOpExecutor **executor)
{
    L2_DFX_PHASE_1(aclnnBroadcast4Demo, DFX_IN(x), DFX_OUT(out));
    auto unique = CREATE_EXECUTOR();
    CHECK_RET(unique.get() != nullptr, ACLNN_ERR_INNER_CREATE_EXECUTOR);
    auto dst = unique->AllocTensor(out->GetViewShape(), x->GetDataType());
    std::vector<int64_t> d = DimsOf(out);
    auto shape = unique->ConvertToTensor(d.data(), d.size(), static_cast<op::DataType>(ACL_INT64));
    CHECK_RET(dst != nullptr && shape != nullptr, ACLNN_ERR_INNER_NULLPTR);
    auto b = l0op::BroadcastTo(x, dst, shape, unique.get());
    CHECK_RET(b == dst, ACLNN_ERR_INNER_NULLPTR);
    CHECK_RET(l0op::ViewCopy(b, out, unique.get()) != nullptr, ACLNN_ERR_INNER_NULLPTR);
    *workspaceSize = unique->GetWorkspaceSize();
    unique.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

template <typename Phase1> static bool RunDemo(Phase1 phase1, aclrtStream stream)
{
    uint64_t ws = 0;
    aclOpExecutor *executor = nullptr;
    if (phase1(&ws, &executor) != ACLNN_SUCCESS) return false;
    void *workspace = nullptr;
    if (ws > 0 && aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return false;
    bool ok = Demo(workspace, ws, executor, stream) == ACLNN_SUCCESS && aclrtSynchronizeStream(stream) == ACL_SUCCESS;
    aclrtFree(workspace);
    return ok;
}

// l0op::Fill and ConvertToTensor, each against a written expectation: a float filled into
// float32 (the value itself) and float16 (aclFloatToFloat16 of it) and a bool into float32
// (1.0f); a dims tensor that disagrees with the shape refused; int64 values past 2^53 kept
// bit for bit and floats rounded to float16 once; the 4-argument BroadcastTo.
static void CheckFill(aclrtStream stream)
{
    void *dev = nullptr;
    CHECK(aclrtMalloc(&dev, 24 * 8, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    int64_t d234[3] = {2, 3, 4}, s234[3] = {12, 4, 1};
    const float value = -0.3f;
    for (int half = 0; half <= 1; half++) {
        const aclDataType dt = half ? ACL_FLOAT16 : ACL_FLOAT;
        aclTensor *out = aclCreateTensor(d234, 3, dt, s234, 0, ACL_FORMAT_ND, d234, 3, dev);
        CHECK(aclrtMemset(dev, 24 * 8, 0x5a, 24 * 8) == ACL_SUCCESS);
        CHECK(RunDemo([&](uint64_t *ws, aclOpExecutor **e) { return FillDemoGetWorkspaceSize(out, value, false, ws, e); },
                      stream));
        if (half) {
            aclFloat16 got[24];
            CHECK(aclrtMemcpy(got, sizeof got, dev, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
            for (int i = 0; i < 24; i++) CHECK(got[i] == aclFloatToFloat16(value));
        } else {
            float got[24];
            CHECK(aclrtMemcpy(got, sizeof got, dev, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
            for (int i = 0; i < 24; i++) CHECK(got[i] == value);
        }
        aclDestroyTensor(out);
    }
    aclTensor *out = aclCreateTensor(d234, 3, ACL_FLOAT, s234, 0, ACL_FORMAT_ND, d234, 3, dev);
    CHECK(RunDemo([&](uint64_t *ws, aclOpExecutor **e) { return FillDemoGetWorkspaceSize(out, true, false, ws, e); },
                  stream));
    float got[24];
    CHECK(aclrtMemcpy(got, sizeof got, dev, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
    for (int i = 0; i < 24; i++) CHECK(got[i] == 1.0f);
    // one element is filled too (only a tensor with none has nothing to fill), and only it
    {
        int64_t d1[1] = {1}, s1[1] = {1};
        aclTensor *one = aclCreateTensor(d1, 1, ACL_FLOAT, s1, 0, ACL_FORMAT_ND, d1, 1, dev);
        CHECK(aclrtMemset(dev, 24 * 8, 0x5a, 24 * 8) == ACL_SUCCESS);
        CHECK(RunDemo([&](uint64_t *w, aclOpExecutor **e) { return FillDemoGetWorkspaceSize(one, value, false, w, e); },
                      stream));
        float two[2];
        CHECK(aclrtMemcpy(two, sizeof two, dev, sizeof two, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
        uint32_t untouched;
        std::memcpy(&untouched, &two[1], sizeof untouched);
        CHECK(two[0] == value && untouched == 0x5a5a5a5au);
        aclDestroyTensor(one);
    }
    uint64_t ws = 0;
    aclOpExecutor *executor = nullptr;
    CHECK(FillDemoGetWorkspaceSize(out, value, true, &ws, &executor) == ACLNN_ERR_INNER_NULLPTR);
    const char *m = aclGetRecentErrMsg();
    CHECK(m != nullptr && std::strstr(m, "Fill's dims tensor") != nullptr);

    // the 4-argument BroadcastTo: src[j] (shape [3, 1]) to [2, 3, 4]
    const float src[3] = {1.5f, -2.0f, 0.25f};
    void *src_dev = nullptr;
    CHECK(aclrtMalloc(&src_dev, sizeof src, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    CHECK(aclrtMemcpy(src_dev, sizeof src, src, sizeof src, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
    int64_t d31[2] = {3, 1}, s31[2] = {1, 1};
    aclTensor *x = aclCreateTensor(d31, 2, ACL_FLOAT, s31, 0, ACL_FORMAT_ND, d31, 2, src_dev);
    CHECK(RunDemo([&](uint64_t *w, aclOpExecutor **e) { return Broadcast4DemoGetWorkspaceSize(x, out, w, e); },
                  stream));
    CHECK(aclrtMemcpy(got, sizeof got, dev, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++) CHECK(got[i * 12 + j * 4 + k] == src[j]);
    // to one element: src[2] (a view at offset 2 of the 3-element storage) as [1] into a
    // [1, 1] out (a shape of its own, so a step runs); the element is written, the next not
    {
        int64_t d11[2] = {1, 1}, st3[1] = {3};
        aclTensor *x1 = aclCreateTensor(d11, 1, ACL_FLOAT, s31, 2, ACL_FORMAT_ND, st3, 1, src_dev);
        aclTensor *out1 = aclCreateTensor(d11, 2, ACL_FLOAT, s31, 0, ACL_FORMAT_ND, d11, 2, dev);
        CHECK(aclrtMemset(dev, 24 * 8, 0x5a, 24 * 8) == ACL_SUCCESS);
        CHECK(RunDemo([&](uint64_t *w, aclOpExecutor **e) { return Broadcast4DemoGetWorkspaceSize(x1, out1, w, e); },
                      stream));
        float two[2];
        CHECK(aclrtMemcpy(two, sizeof two, dev, sizeof two, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
        uint32_t untouched;
        std::memcpy(&untouched, &two[1], sizeof untouched);
        CHECK(two[0] == src[2] && untouched == 0x5a5a5a5au);
        aclDestroyTensor(x1);
        aclDestroyTensor(out1);
    }
    aclDestroyTensor(x);
    aclDestroyTensor(out);
    aclrtFree(src_dev);

    // host tensors read by a step: int64 exact past 2^53, float rounded to float16 once
    const std::vector<int64_t> big = {(int64_t(1) << 60) + 1, -7, 5};
    int64_t d3[1] = {3}, s1[1] = {1};
    aclTensor *ints = aclCreateTensor(d3, 1, ACL_INT64, s1, 0, ACL_FORMAT_ND, d3, 1, dev);
    CHECK(RunDemo([&](uint64_t *w, aclOpExecutor **e) { return HostCopyDemoGetWorkspaceSize(big, ints, w, e); },
                  stream));
    int64_t gi[3];
    CHECK(aclrtMemcpy(gi, sizeof gi, dev, sizeof gi, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
    for (int i = 0; i < 3; i++) CHECK(gi[i] == big[static_cast<size_t>(i)]);
    const std::vector<float> fl = {0.1f, -65504.0f, 3.0e-6f};
    aclTensor *halves = aclCreateTensor(d3, 1, ACL_FLOAT16, s1, 0, ACL_FORMAT_ND, d3, 1, dev);
    CHECK(RunDemo([&](uint64_t *w, aclOpExecutor **e) { return HostCopyDemoGetWorkspaceSize(fl, halves, w, e); },
                  stream));
    aclFloat16 gh[3];
    CHECK(aclrtMemcpy(gh, sizeof gh, dev, sizeof gh, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
    for (int i = 0; i < 3; i++) CHECK(gh[i] == aclFloatToFloat16(fl[static_cast<size_t>(i)]));
    aclDestroyTensor(ints);
    aclDestroyTensor(halves);
    aclrtFree(dev);
}

// Tensors of more dims than a plan's view holds (8): a 9-dim one whose dims collapse (size-1
// dims, a dense run) goes through Muls, its shape reported whole; a column-major 2x...x2 of
// 9 dims, which no merge shortens, is refused naming the rank.
static void CheckHighRank(aclrtStream stream)
{
    const float x[6] = {1.0f, -2.0f, 3.5f, 0.25f, -8.0f, 6.0f};
    void *in_dev = nullptr, *out_dev = nullptr;
    CHECK(aclrtMalloc(&in_dev, 512 * 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    CHECK(aclrtMalloc(&out_dev, 512 * 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    CHECK(aclrtMemcpy(in_dev, sizeof x, x, sizeof x, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
    int64_t dims[9] = {1, 2, 1, 1, 1, 1, 1, 1, 3}, strides[9] = {6, 3, 3, 3, 3, 3, 3, 3, 1};
    aclTensor *self = aclCreateTensor(dims, 9, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 9, in_dev);
    aclTensor *out = aclCreateTensor(dims, 9, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 9, out_dev);
    const op::Shape shape = self->GetViewShape();
    CHECK(shape.GetDimNum() == 9 && shape.GetDim(1) == 2 && shape.GetDim(8) == 3 && shape.GetShapeSize() == 6);
    CHECK(self->GetViewStrides().size() == 9 && self->GetViewStrides()[8] == 1 && op::IsContiguous(self));
    CHECK(RunDemo([&](uint64_t *w, aclOpExecutor **e) { return MulsDemoGetWorkspaceSize(self, 2.0f, out, w, e); },
                  stream));
    float got[6];
    CHECK(aclrtMemcpy(got, sizeof got, out_dev, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
    for (int i = 0; i < 6; i++) CHECK(got[i] == 2.0f * x[i]);
    int64_t twos[9], column[9];
    for (int i = 0; i < 9; i++) twos[i] = 2, column[i] = int64_t(1) << i;
    aclTensor *odd = aclCreateTensor(twos, 9, ACL_FLOAT, column, 0, ACL_FORMAT_ND, twos, 9, in_dev);
    CHECK(!op::IsContiguous(odd) && odd->GetViewShape().GetShapeSize() == 512);
    uint64_t ws = 0;
    aclOpExecutor *executor = nullptr;
    CHECK(MulsDemoGetWorkspaceSize(odd, 2.0f, out, &ws, &executor) != ACLNN_SUCCESS);
    const char *m = aclGetRecentErrMsg();
    CHECK(m != nullptr && std::strstr(m, "9 dims") != nullptr);
    aclDestroyTensor(self);
    aclDestroyTensor(out);
    aclDestroyTensor(odd);
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
    CheckFill(stream);
    CheckHighRank(stream);

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

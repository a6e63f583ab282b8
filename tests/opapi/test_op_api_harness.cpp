// The op_api UT harness (opbuild/ut): TestPrecision really runs the operator and compares
// with the float64 reference. An op_api written in ops-nn's style (aclnnHarnessScale:
// y = 3 * x through ADD_TO_LAUNCHER_LIST_AICORE) runs a kernel through the stand-in of the
// twin's interface (fake_twin.c); a right kernel passes every dtype and a strided view, a
// kernel off by one ulp-scale amount in one element fails TestPrecision, a kernel that
// leaves its output unwritten fails it, and an API without a reference fails it. A float16
// output is held to no less than one unit in its last place (the UT's 1e-4 cannot be met by
// any float16 result), and two units off still fails.
#include <cmath>
#include <cstring>

#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"

#include "aclnn_kernels/contiguous.h"
#include "asc_twin/launch.h"
#include "op_api_ut_common/op_api_ut.h"
#include "op_api_ut_common/references.h"
#include "op_api_ut_common/tensor_desc.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_executor.h"
#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"

namespace {
int mode = 0; // 0 right, 1 one element off, 2 output not written, 3 element 5 two float16 ulps off

struct ScaleTiling {
    int64_t n;
    int32_t dtype;
};

ge::graphStatus ScaleTilingFunc(gert::TilingContext *context)
{
    auto *t = context->GetTilingData<ScaleTiling>();
    t->n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    t->dtype = context->GetInputDesc(0)->GetDataType();
    context->SetBlockDim(1);
    context->SetTilingKey(0);
    return ge::GRAPH_SUCCESS;
}
struct Info {};
ge::graphStatus Parse(gert::TilingParseContext *) { return ge::GRAPH_SUCCESS; }
IMPL_OP_OPTILING(HarnessScale).Tiling(ScaleTilingFunc).TilingParse<Info>(Parse);

double Load(int dtype, const uint8_t *p, int64_t i)
{
    if (dtype == ACL_FLOAT) {
        float f;
        std::memcpy(&f, p + 4 * i, 4);
        return f;
    }
    aclFloat16 h;
    std::memcpy(&h, p + 2 * i, 2);
    return aclFloat16ToFloat(h);
}
void Store(int dtype, uint8_t *p, int64_t i, double v)
{
    if (dtype == ACL_FLOAT) {
        float f = static_cast<float>(v);
        std::memcpy(p + 4 * i, &f, 4);
    } else {
        aclFloat16 h = aclFloatToFloat16(static_cast<float>(v));
        std::memcpy(p + 2 * i, &h, 2);
    }
}
void Kernel(uint8_t *const *args)
{
    ScaleTiling t;
    std::memcpy(&t, args[3], sizeof t);
    if (mode == 2) return;
    for (int64_t i = 0; i < t.n; i++) Store(t.dtype, args[1], i, 3.0 * Load(t.dtype, args[0], i) + (mode == 1 && i == 5));
    if (mode == 3 && t.dtype == ACL_FLOAT16 && t.n > 5) {
        uint16_t bits; // the magnitude two steps up the float16 grid
        std::memcpy(&bits, args[1] + 10, 2);
        bits = static_cast<uint16_t>(bits + 2);
        std::memcpy(args[1] + 10, &bits, 2);
    }
}
const asc_twin_kernel kernel = {"harness_scale", 0, 4, Kernel};
const int registered = asc_twin_register(&kernel);

double Reference(const double *in, const double *, size_t) { return 3.0 * in[0]; }
const op_api_ut::Reference reference = {"aclnnHarnessScale", Reference};
} // namespace

namespace l0op {
const aclTensor *HarnessScale(const aclTensor *x, aclOpExecutor *executor)
{
    auto y = executor->AllocTensor(x->GetViewShape(), x->GetDataType(), x->GetStorageFormat());
    CHECK_RET(ADD_TO_LAUNCHER_LIST_AICORE(HarnessScale, OP_INPUT(x), OP_OUTPUT(y)) == ACLNN_SUCCESS, nullptr);
    return y;
}
} // namespace l0op

extern "C" aclnnStatus aclnnHarnessScaleGetWorkspaceSize(const aclTensor *x, aclTensor *y, uint64_t *ws,
                                                         aclOpExecutor **executor)
{
    L2_DFX_PHASE_1(aclnnHarnessScale, DFX_IN(x), DFX_OUT(y));
    auto unique = CREATE_EXECUTOR();
    auto c = l0op::Contiguous(x, unique.get());
    CHECK_RET(c != nullptr, ACLNN_ERR_INNER_NULLPTR);
    auto r = l0op::HarnessScale(c, unique.get());
    CHECK_RET(r != nullptr, ACLNN_ERR_INNER_NULLPTR);
    CHECK_RET(l0op::ViewCopy(r, y, unique.get()) != nullptr, ACLNN_ERR_INNER_NULLPTR);
    *ws = unique->GetWorkspaceSize();
    unique.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}
extern "C" aclnnStatus aclnnHarnessScale(void *ws, uint64_t size, aclOpExecutor *executor, aclrtStream stream)
{
    L2_DFX_PHASE_2(aclnnHarnessScale);
    return CommonOpExecutorRun(ws, size, executor, stream);
}
// The same API under a name no reference knows.
extern "C" aclnnStatus aclnnNoReferenceGetWorkspaceSize(const aclTensor *x, aclTensor *y, uint64_t *ws,
                                                        aclOpExecutor **executor)
{
    return aclnnHarnessScaleGetWorkspaceSize(x, y, ws, executor);
}
extern "C" aclnnStatus aclnnNoReference(void *ws, uint64_t size, aclOpExecutor *executor, aclrtStream stream)
{
    return aclnnHarnessScale(ws, size, executor, stream);
}

// EXPECT_*_FAILURE runs its statement in a local class: the cases are functions.
void RunScale(int64_t n)
{
    auto x = TensorDesc({n}, ACL_FLOAT, ACL_FORMAT_ND).ValueRange(-5, 5);
    auto y = TensorDesc({n}, ACL_FLOAT, ACL_FORMAT_ND).Precision(1e-3, 1e-3);
    OP_API_UT(aclnnHarnessScale, INPUT(x), OUTPUT(y)).TestPrecision();
}
void RunHalfTight()
{
    auto x = TensorDesc({64}, ACL_FLOAT16, ACL_FORMAT_ND).ValueRange(-5, 5);
    auto y = TensorDesc({64}, ACL_FLOAT16, ACL_FORMAT_ND).Precision(1e-4, 1e-4);
    OP_API_UT(aclnnHarnessScale, INPUT(x), OUTPUT(y)).TestPrecision();
}
void RunWithoutReference()
{
    auto x = TensorDesc({4}, ACL_FLOAT, ACL_FORMAT_ND);
    auto y = TensorDesc({4}, ACL_FLOAT, ACL_FORMAT_ND);
    OP_API_UT(aclnnNoReference, INPUT(x), OUTPUT(y)).TestPrecision();
}

class harness : public testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_EQ(registered, 0);
        op_api_ut::AddReference(&reference);
        mode = 0;
    }
};

TEST_F(harness, right_kernel_passes_every_dtype_and_strides)
{
    auto x = TensorDesc({7, 9}, ACL_FLOAT, ACL_FORMAT_ND).ValueRange(-5, 5);
    auto y = TensorDesc({7, 9}, ACL_FLOAT, ACL_FORMAT_ND).Precision(0, 1e-7);
    OP_API_UT(aclnnHarnessScale, INPUT(x), OUTPUT(y)).TestPrecision();
    auto xh = TensorDesc({100}, ACL_FLOAT16, ACL_FORMAT_ND).ValueRange(-5, 5);
    auto yh = TensorDesc({100}, ACL_FLOAT16, ACL_FORMAT_ND).Precision(0, 1e-3);
    OP_API_UT(aclnnHarnessScale, INPUT(xh), OUTPUT(yh)).TestPrecision();
    auto xs = TensorDesc({5, 4}, ACL_FLOAT, ACL_FORMAT_ND, {1, 5}, 0, {4, 5}).ValueRange(-1, 1);
    auto ys = TensorDesc({5, 4}, ACL_FLOAT, ACL_FORMAT_ND, {1, 5}, 0, {4, 5}).Precision(0, 1e-7);
    OP_API_UT(aclnnHarnessScale, INPUT(xs), OUTPUT(ys)).TestPrecision();
}

TEST_F(harness, a_wrong_element_fails)
{
    mode = 1;
    EXPECT_NONFATAL_FAILURE(RunScale(63), "element 5");
}

TEST_F(harness, float16_is_held_to_one_ulp_not_tighter)
{
    RunHalfTight(); // rounded once to float16: within one unit, though not within 1e-4
    mode = 3;
    EXPECT_NONFATAL_FAILURE(RunHalfTight(), "element 5");
}

TEST_F(harness, an_unwritten_output_fails)
{
    mode = 2;
    EXPECT_NONFATAL_FAILURE(RunScale(16), "16 of 16");
}

TEST_F(harness, no_reference_fails)
{
    EXPECT_FATAL_FAILURE(RunWithoutReference(), "no float64 reference");
}

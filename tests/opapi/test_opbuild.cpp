// opbuild's launcher: a seed-style operator (tiling with IMPL_OP_OPTILING, an OpDef naming
// its kernel file, an l0 op calling ADD_TO_LAUNCHER_LIST_AICORE with an attribute, an
// aclnn two-phase entry) runs its kernel through the twin's launch interface (here the
// stand-in fake_twin.c, so the glue is tested alone): values against y = alpha * x written
// out, the workspace covering the tiling's request, the tiling data and block dim reaching
// the kernel, and a key without a kernel refused with ACLNN_ERR_INNER_FIND_KERNEL_ERROR.
#include <cstdio>

#include "opapi_check.h"
#include <cstdlib>
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "aclnn_kernels/contiguous.h"
#include "asc_twin/launch.h"
#include "log/log.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_executor.h"
#include "opbuild/generated_aclnn.h"
#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"
#include "tiling/platform/platform_ascendc.h"

extern "C" uint32_t fake_twin_last_block_dim;
extern "C" int fake_twin_last_nargs;

struct DemoTiling {
    int64_t total;
    float alpha;
};

namespace optiling {
static ge::graphStatus DemoTilingFunc(gert::TilingContext *context)
{
    auto *shape = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, shape);
    auto *t = context->GetTilingData<DemoTiling>();
    t->total = shape->GetStorageShape().GetShapeSize();
    // as many ops-nn tilings do: the output's shape read too (it must be there)
    auto *out_shape = context->GetOutputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, out_shape);
    if (out_shape->GetStorageShape().GetShapeSize() != t->total) return ge::GRAPH_FAILED;
    const float *alpha = context->GetAttrs()->GetFloat(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, alpha);
    t->alpha = *alpha;
    context->SetBlockDim(t->total > 100 ? 4 : 1);
    context->SetTilingKey(static_cast<uint64_t>(context->GetInputDesc(0)->GetDataType()));
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    context->GetWorkspaceSizes(1)[0] = platform.GetLibApiWorkSpaceSize() + 1000;
    return ge::GRAPH_SUCCESS;
}
struct DemoCompileInfo {};
static ge::graphStatus DemoParse(gert::TilingParseContext *) { return ge::GRAPH_SUCCESS; }
IMPL_OP_OPTILING(DemoScale).Tiling(DemoTilingFunc).TilingParse<DemoCompileInfo>(DemoParse);
} // namespace optiling

namespace ops {
class DemoScale : public OpDef {
public:
    explicit DemoScale(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0f);
        OpAICoreConfig cfg;
        cfg.ExtendCfgInfo("opFile.value", "demo_scale_kernel");
        this->AICore().AddConfig("ascend910b", cfg);
    }
};
OP_ADD(DemoScale);
} // namespace ops

// the kernel (key 0, float): x, y, workspace, tiling
static void DemoKernel(uint8_t *const *args)
{
    DemoTiling t;
    std::memcpy(&t, args[3], sizeof t);
    const float *x = reinterpret_cast<const float *>(args[0]);
    float *y = reinterpret_cast<float *>(args[1]);
    for (int64_t i = 0; i < t.total; i++) y[i] = t.alpha * x[i];
    std::memset(args[2], 0x5a, 16); // the workspace is there and writable
}
static const asc_twin_kernel demo_kernel = {"demo_scale_kernel", 0, 4, DemoKernel};
static int registered = asc_twin_register(&demo_kernel);

// A two-input definition for the generated entry: y = x1 - 2 * x2 (each input made dense and
// handed to the kernel in the definition's order).
struct DemoSubTiling {
    int64_t total;
};
namespace optiling {
static ge::graphStatus DemoSubTilingFunc(gert::TilingContext *context)
{
    auto *shape = context->GetInputShape(1);
    OP_CHECK_NULL_WITH_CONTEXT(context, shape);
    context->GetTilingData<DemoSubTiling>()->total = shape->GetStorageShape().GetShapeSize();
    context->SetBlockDim(1);
    context->SetTilingKey(0);
    // the smallest workspace there is, over two slots: 1 + 0 bytes, still a region of its own
    size_t *workspaces = context->GetWorkspaceSizes(2);
    OP_CHECK_NULL_WITH_CONTEXT(context, workspaces);
    workspaces[0] = 1;
    workspaces[1] = 0;
    return ge::GRAPH_SUCCESS;
}
static ge::graphStatus DemoSubParse(gert::TilingParseContext *) { return ge::GRAPH_SUCCESS; }
IMPL_OP_OPTILING(DemoSub).Tiling(DemoSubTilingFunc).TilingParse<DemoCompileInfo>(DemoSubParse);
} // namespace optiling
namespace ops {
class DemoSub : public OpDef {
public:
    explicit DemoSub(const char *name) : OpDef(name)
    {
        this->Input("x1").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        this->Input("x2").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        OpAICoreConfig cfg;
        cfg.ExtendCfgInfo("opFile.value", "demo_sub_kernel");
        this->AICore().AddConfig("ascend910b", cfg);
    }
};
OP_ADD(DemoSub);
} // namespace ops
// x1, x2, y, workspace, tiling
static void DemoSubKernel(uint8_t *const *args)
{
    DemoSubTiling t;
    std::memcpy(&t, args[4], sizeof t);
    const float *x1 = reinterpret_cast<const float *>(args[0]);
    const float *x2 = reinterpret_cast<const float *>(args[1]);
    float *y = reinterpret_cast<float *>(args[2]);
    // the tiling asked for 1 byte: the kernel must get it (a missing one shows in y, all -1)
    const bool has_workspace = args[3] != nullptr;
    if (has_workspace) args[3][0] = 0x5a;
    for (int64_t i = 0; i < t.total; i++) y[i] = has_workspace ? x1[i] - 2.0f * x2[i] : -1.0f;
}
static const asc_twin_kernel demo_sub_kernel = {"demo_sub_kernel", 0, 5, DemoSubKernel};
static int registered_sub = asc_twin_register(&demo_sub_kernel);

namespace l0op {
OP_TYPE_REGISTER(DemoScale);
static const aclTensor *DemoScale(const aclTensor *x, float alpha, aclOpExecutor *executor)
{
    L0_DFX(DemoScale, x, alpha);
    auto out = executor->AllocTensor(x->GetViewShape(), x->GetDataType(), x->GetStorageFormat());
    CHECK_RET(out != nullptr, nullptr);
    auto ret = ADD_TO_LAUNCHER_LIST_AICORE(DemoScale, OP_INPUT(x), OP_OUTPUT(out), OP_ATTR(alpha));
    CHECK_RET(ret == ACLNN_SUCCESS, nullptr);
    return out;
}
} // namespace l0op

static aclnnStatus DemoGetWorkspaceSize(const aclTensor *x, float alpha, aclTensor *y, uint64_t *ws,
                                        aclOpExecutor **executor)
{
    L2_DFX_PHASE_1(aclnnDemoScale, DFX_IN(x, alpha), DFX_OUT(y));
    auto unique = CREATE_EXECUTOR();
    auto c = l0op::Contiguous(x, unique.get());
    CHECK_RET(c != nullptr, ACLNN_ERR_INNER_NULLPTR);
    auto r = l0op::DemoScale(c, alpha, unique.get());
    if (r == nullptr) return ACLNN_ERR_INNER_NULLPTR;
    CHECK_RET(l0op::ViewCopy(r, y, unique.get()) != nullptr, ACLNN_ERR_INNER_NULLPTR);
    *ws = unique->GetWorkspaceSize();
    unique.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}


// Every allocation behind the generated entry can fail. MISHGRAD_FAULT_ALLOC=k (read at
// aclInit) fails the k-th allocation after it: for each k in turn, a fresh session sets up
// (a step of the setup may take the fault: then that k is done) and runs DemoScale through
// GeneratedPhase1/2; the entry either succeeds with y = alpha * x or returns a status other
// than success with a message that says out of memory, y keeping its sentinel. Nothing may
// crash (seed 42: an output tensor the executor could not allocate went on as null, and the
// tiling, which reads the output's shape, failed in its place with a tiling error).
static void GeneratedEntryUnderFaults()
{
    static const int kDtypes[1] = {ge::DT_FLOAT};
    static const opbuild::GenParam kIn[1] = {{"x", 0, kDtypes}}, kOut[1] = {{"y", 0, kDtypes}};
    static const opbuild::GenAttr kAttrs[1] = {{"alpha", opbuild::GEN_FLOAT}};
    const opbuild::GenOp gen = {"aclnnDemoScale", "DemoScale", 1, kIn, 1, kOut, 1, kAttrs, 1};
    const opbuild::GenValue alpha = opbuild::GenFloat(3.0);
    const int64_t n = 64;
    int entry_failures = 0, clean_runs = 0;
    for (int k = 1; k <= 2000 && clean_runs < 20; k++) {
        char text[16];
        std::snprintf(text, sizeof text, "%d", k);
        setenv("MISHGRAD_FAULT_ALLOC", text, 1);
        CHECK(aclInit(nullptr) == ACL_SUCCESS);
        aclrtStream stream = nullptr;
        void *xd = nullptr, *yd = nullptr, *work = nullptr;
        aclTensor *x = nullptr, *y = nullptr;
        int64_t dims[1] = {n}, strides[1] = {1};
        float host[n], sentinel[n], got[n];
        for (int64_t i = 0; i < n; i++) {
            host[i] = static_cast<float>(i) - 20.0f;
            sentinel[i] = 4321.0f;
        }
        bool setup = aclrtSetDevice(0) == ACL_SUCCESS && aclrtCreateStream(&stream) == ACL_SUCCESS &&
                     aclrtMalloc(&xd, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
                     aclrtMalloc(&yd, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
                     aclrtMemcpy(xd, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS &&
                     aclrtMemcpy(yd, sizeof sentinel, sentinel, sizeof sentinel, ACL_MEMCPY_HOST_TO_DEVICE) ==
                         ACL_SUCCESS &&
                     (x = aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, xd)) != nullptr &&
                     (y = aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, yd)) != nullptr;
        if (setup) {
            const aclTensor *gin[1] = {x};
            const aclTensor *gout[1] = {y};
            uint64_t ws = 0;
            aclOpExecutor *ex = nullptr;
            aclnnStatus status = opbuild::GeneratedPhase1(gen, gin, gout, &alpha, &ws, &ex);
            if (status == ACLNN_SUCCESS) {
                if (aclrtMalloc(&work, ws ? ws : 1, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
                    // the fault took the workspace: the executor is never run (freed at aclFinalize)
                    setup = false;
                } else {
                    status = opbuild::GeneratedPhase2(gen, work, ws, ex, stream);
                    if (status == ACLNN_SUCCESS) status = aclrtSynchronizeStream(stream);
                }
            }
            if (setup) {
                const bool read = aclrtMemcpy(got, sizeof got, yd, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST) ==
                                  ACL_SUCCESS;
                if (read) {
                    int wrong = 0;
                    for (int64_t i = 0; i < n; i++)
                        wrong += got[i] != (status == ACLNN_SUCCESS ? 3.0f * host[i] : sentinel[i]);
                    if (wrong != 0)
                        std::fprintf(stderr, "fault at allocation %d: status %d, %d values wrong\n", k,
                                     (int)status, wrong);
                    CHECK(wrong == 0);
                }
                if (status != ACLNN_SUCCESS) {
                    const char *m = aclGetRecentErrMsg();
                    CHECK(m != nullptr && m[0] != '\0');
                    // said as what it is, first: an allocation that failed (not, say, a tiling
                    // that found an output missing because an allocation failed earlier)
                    const char *eol = m != nullptr ? std::strchr(m, '\n') : nullptr;
                    const std::string first = m == nullptr ? "" : eol ? std::string(m, eol) : std::string(m);
                    if (first.find("out of memory") == std::string::npos)
                        std::fprintf(stderr, "fault at allocation %d: status %d, said as: %s\n", k, (int)status,
                                     first.c_str());
                    CHECK(first.find("out of memory") != std::string::npos);
                    CHECK(status != ACLNN_ERR_INNER_TILING_ERROR);
                    entry_failures++;
                    clean_runs = 0;
                } else {
                    clean_runs++;
                }
            }
        }
        if (x != nullptr) aclDestroyTensor(x);
        if (y != nullptr) aclDestroyTensor(y);
        if (work != nullptr) aclrtFree(work);
        if (xd != nullptr) aclrtFree(xd);
        if (yd != nullptr) aclrtFree(yd);
        if (stream != nullptr) aclrtDestroyStream(stream);
        (void)aclGetRecentErrMsg();
        CHECK(aclFinalize() == ACL_SUCCESS);
    }
    unsetenv("MISHGRAD_FAULT_ALLOC");
    // the sweep reached the entry (some planted fault failed it) and ran past its last allocation
    CHECK(entry_failures > 0);
    CHECK(clean_runs >= 20);
    std::printf("generated entry under faults: %d runs failed by a planted fault, each cleanly\n", entry_failures);
}

int main()
{
    CHECK(registered == 0 && registered_sub == 0);
    CHECK(aclInit(nullptr) == ACL_SUCCESS);
    CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
    const int64_t n = 300;
    void *xd = nullptr, *yd = nullptr;
    CHECK(aclrtMalloc(&xd, n * 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    CHECK(aclrtMalloc(&yd, n * 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    float host[n];
    for (int64_t i = 0; i < n; i++) host[i] = static_cast<float>(i) - 150.0f;
    CHECK(aclrtMemcpy(xd, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
    int64_t dims[2] = {3, 100}, strides[2] = {100, 1};
    aclTensor *x = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 2, xd);
    aclTensor *y = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 2, yd);

    uint64_t ws = 0;
    aclOpExecutor *executor = nullptr;
    CHECK(DemoGetWorkspaceSize(x, 0.5f, y, &ws, &executor) == ACLNN_SUCCESS);
    // the tiling asked for 16 MiB + 1000 bytes; the kernel's output (1200 bytes) is there too
    CHECK(ws >= (16u << 20) + 1000 + n * 4);
    void *workspace = nullptr;
    CHECK(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    L2_DFX_PHASE_2(aclnnDemoScale);
    CHECK(CommonOpExecutorRun(workspace, ws, executor, stream) == ACLNN_SUCCESS);
    CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    float got[n];
    CHECK(aclrtMemcpy(got, sizeof got, yd, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
    for (int64_t i = 0; i < n; i++) CHECK(got[i] == 0.5f * host[i]);
    CHECK(fake_twin_last_block_dim == 4);
    CHECK(fake_twin_last_nargs == 4);

    // float16 selects key 1: no such instantiation, refused at phase 1 naming kernel and key
    aclTensor *xh = aclCreateTensor(dims, 2, ACL_FLOAT16, strides, 0, ACL_FORMAT_ND, dims, 2, xd);
    aclTensor *yh = aclCreateTensor(dims, 2, ACL_FLOAT16, strides, 0, ACL_FORMAT_ND, dims, 2, yd);
    CHECK(DemoGetWorkspaceSize(xh, 0.5f, yh, &ws, &executor) == ACLNN_ERR_INNER_NULLPTR);
    const char *m = aclGetRecentErrMsg();
    CHECK(m != nullptr && std::strstr(m, "demo_scale_kernel") != nullptr && std::strstr(m, "key 1") != nullptr);

    // The same definition through opbuild's generated aclnn entry (GeneratedPhase1/2, what
    // aclnn_gen.cpp writes for an operator directory without an op_api): the executor and the
    // workspace handed out, the values y = alpha * x, the definition's checks refused.
    {
        static const int kDtypes[2] = {ge::DT_FLOAT, ge::DT_FLOAT16};
        static const opbuild::GenParam kIn[1] = {{"x", 0, kDtypes}}, kOut[1] = {{"y", 0, kDtypes}};
        static const opbuild::GenAttr kAttrs[1] = {{"alpha", opbuild::GEN_FLOAT}};
        const opbuild::GenOp gen = {"aclnnDemoScale", "DemoScale", 1, kIn, 1, kOut, 1, kAttrs, 2};
        const aclTensor *gin[1] = {x};
        const aclTensor *gout[1] = {y};
        const opbuild::GenValue alpha = opbuild::GenFloat(-2.0);
        float sentinel[n];
        for (int64_t i = 0; i < n; i++) sentinel[i] = 1234.5f;
        CHECK(aclrtMemcpy(yd, sizeof sentinel, sentinel, sizeof sentinel, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
        uint64_t gws = 0;
        aclOpExecutor *gex = nullptr;
        CHECK(opbuild::GeneratedPhase1(gen, gin, gout, &alpha, &gws, &gex) == ACLNN_SUCCESS);
        CHECK(gex != nullptr);
        CHECK(gws >= (16u << 20) + 1000 + n * 4);
        void *gworkspace = nullptr;
        CHECK(aclrtMalloc(&gworkspace, gws, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
        CHECK(opbuild::GeneratedPhase2(gen, gworkspace, gws, gex, stream) == ACLNN_SUCCESS);
        CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
        CHECK(aclrtMemcpy(got, sizeof got, yd, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
        int wrong = 0;
        for (int64_t i = 0; i < n; i++) wrong += got[i] != -2.0f * host[i];
        CHECK(wrong == 0);
        // x float with y float16: not a column of the definition
        const aclTensor *mixed_out[1] = {yh};
        gex = nullptr;
        CHECK(opbuild::GeneratedPhase1(gen, gin, mixed_out, &alpha, &gws, &gex) == ACLNN_ERR_PARAM_INVALID);
        m = aclGetRecentErrMsg();
        CHECK(m != nullptr && std::strstr(m, "not a combination") != nullptr && std::strstr(m, "DemoScale") != nullptr);
        CHECK(gex == nullptr);
        // a required input missing
        const aclTensor *none[1] = {nullptr};
        CHECK(opbuild::GeneratedPhase1(gen, none, gout, &alpha, &gws, &gex) == ACLNN_ERR_PARAM_NULLPTR);
        m = aclGetRecentErrMsg();
        CHECK(m != nullptr && std::strstr(m, "x is nullptr") != nullptr);
        aclrtFree(gworkspace);
        // two inputs, the second a transposed view (made dense by the entry): y = x1 - 2 x2
        static const int kF32[1] = {ge::DT_FLOAT};
        static const opbuild::GenParam kSubIn[2] = {{"x1", 0, kF32}, {"x2", 0, kF32}}, kSubOut[1] = {{"y", 0, kF32}};
        const opbuild::GenOp sub = {"aclnnDemoSub", "DemoSub", 2, kSubIn, 1, kSubOut, 0, nullptr, 1};
        void *x2d = nullptr;
        CHECK(aclrtMalloc(&x2d, n * 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
        float second[n];
        for (int64_t i = 0; i < n; i++) second[i] = static_cast<float>(i % 7);
        CHECK(aclrtMemcpy(x2d, sizeof second, second, sizeof second, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
        int64_t tstrides[2] = {1, 3}; // [3, 100] over a [100, 3] row-major block: element (r, c) at c * 3 + r
        int64_t storage[1] = {n};
        aclTensor *x2t = aclCreateTensor(dims, 2, ACL_FLOAT, tstrides, 0, ACL_FORMAT_ND, storage, 1, x2d);
        const aclTensor *sin[2] = {x, x2t};
        CHECK(aclrtMemcpy(yd, sizeof sentinel, sentinel, sizeof sentinel, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
        gex = nullptr;
        CHECK(opbuild::GeneratedPhase1(sub, sin, gout, nullptr, &gws, &gex) == ACLNN_SUCCESS);
        CHECK(gex != nullptr);
        CHECK(aclrtMalloc(&gworkspace, gws ? gws : 1, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
        CHECK(opbuild::GeneratedPhase2(sub, gworkspace, gws, gex, stream) == ACLNN_SUCCESS);
        CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
        CHECK(aclrtMemcpy(got, sizeof got, yd, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
        wrong = 0;
        for (int64_t r = 0; r < 3; r++)
            for (int64_t c = 0; c < 100; c++)
                wrong += got[r * 100 + c] != host[r * 100 + c] - 2.0f * second[c * 3 + r];
        CHECK(wrong == 0);
        CHECK(fake_twin_last_nargs == 5);
        aclDestroyTensor(x2t);
        aclrtFree(gworkspace);
        aclrtFree(x2d);
    }

    aclDestroyTensor(x);
    aclDestroyTensor(y);
    aclDestroyTensor(xh);
    aclDestroyTensor(yh);
    aclrtFree(workspace);
    aclrtFree(xd);
    aclrtFree(yd);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    CHECK(aclFinalize() == ACL_SUCCESS);
    GeneratedEntryUnderFaults();
    return Finish();
}

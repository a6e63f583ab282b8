// opbuild's launcher and generated entry, part by part, each against a written expectation
// (the stand-in twin, fake_twin.c, records what a launch was given):
// - the kernel's name: the op type in snake case when no OpDef names a file (a capital after
//   a lower-case letter or a digit starts a word, a run of capitals does not), the OpDef's
//   file with "_apt" dropped, the per-dtype instantiation <kernel>__<dtypes> first (optional
//   inputs not in the name) and the plain kernel when there is none;
// - its arguments: inputs then outputs in order, NULL for an optional input left out, the
//   workspace (the sum of every size the tiling asked for; NULL when none), the tiling's
//   bytes (up to the 944 a step holds) and block dim;
// - each refusal, with its status and message: too many tensors, a non-dense tensor, an
//   argument count the kernel does not take, tiling data over the capacity, no kernel;
// - the generated entry's checks (a missing output, an unmodelled attribute, the dtype
//   combination named, the infershape's failure and its shape), its attributes reaching the
//   tiling as the caller passed them, and an empty tensor planning nothing.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <string>
#include <unistd.h>
#include <vector>

#include "opapi_check.h"

#include "acl/acl.h"
#include "aclnn_kernels/contiguous.h"
#include "asc_twin/launch.h"
#include "launch_step.h"
#include "log/log.h"
#include "opbuild/generated_aclnn.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_executor.h"
#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"

extern "C" uint32_t fake_twin_last_block_dim;
extern "C" int fake_twin_last_nargs;
extern "C" size_t fake_twin_last_tiling_size;

namespace {
// what the kernels saw
char ran = 0;            // which kernel ran
uint8_t *seen[16];       // its arguments (the tiling's a copy)
int seen_n = 0;
std::vector<unsigned char> seen_tiling;
int64_t seen_attr_int = 0;
bool seen_attr_bool = false;
float seen_attr_float = 0.0f;
int seen_attr_num = -1;
bool seen_bias_shape = true;

struct Total {
    int64_t total;
};

void Record(char which, int n, uint8_t *const *args, size_t tiling_bytes)
{
    ran = which;
    seen_n = n;
    for (int i = 0; i < n; i++) seen[i] = args[i];
    // at most what the launch handed over: a smaller tiling (attr 16) has only that many bytes
    const size_t have = std::min(tiling_bytes, fake_twin_last_tiling_size);
    seen_tiling.assign(args[n - 1], args[n - 1] + have);
}
// y = x (+ add) over total floats, from the tiling's first field
void Copy(const uint8_t *x, uint8_t *y, const uint8_t *tiling, float add)
{
    Total t;
    std::memcpy(&t, tiling, sizeof t);
    const float *xf = reinterpret_cast<const float *>(x);
    float *yf = reinterpret_cast<float *>(y);
    for (int64_t i = 0; i < t.total; i++) yf[i] = xf[i] + add;
}

// UnitsCamel2Op: no OpDef; its tiling writes attr-int bytes of tiling data (pattern i & 0xff
// after the total) and, with the bool attribute, asks for two workspaces of 100 and 28 bytes
void KCamel(uint8_t *const *a)
{
    Record('k', 4, a, 944);
    Copy(a[0], a[1], a[3], 1.0f);
}
void KComboPlain(uint8_t *const *a)
{
    Record('p', 5, a, sizeof(Total));
    Copy(a[0], a[2], a[4], 10.0f);
}
void KComboTyped(uint8_t *const *a)
{
    Record('c', 5, a, sizeof(Total));
    Copy(a[0], a[2], a[4], 100.0f);
}
void KApt(uint8_t *const *a)
{
    Record('a', 4, a, sizeof(Total));
    Copy(a[0], a[1], a[3], 0.5f);
}
void KAbc(uint8_t *const *a)
{
    Record('b', 4, a, sizeof(Total));
    Copy(a[0], a[1], a[3], 2.0f);
}
void KNever(uint8_t *const *a) { Record('n', 5, a, 0); }
// UnitsWide: 6 inputs and 1 output: y = the sum of the inputs
void KWide(uint8_t *const *a)
{
    Record('w', 9, a, sizeof(Total));
    Total t;
    std::memcpy(&t, a[8], sizeof t);
    float *y = reinterpret_cast<float *>(a[6]);
    for (int64_t i = 0; i < t.total; i++) {
        float s = 0;
        for (int k = 0; k < 6; k++) s += reinterpret_cast<const float *>(a[k])[i];
        y[i] = s;
    }
}
// UnitsBig: only counts its runs (the test watches when it runs, not what it computes)
std::atomic<int> big_runs{0};
void KBig(uint8_t *const *) { big_runs.fetch_add(1); }
const asc_twin_kernel kernels[] = {
    {"units_big", 0, 4, KBig},
    {"units_camel2_op", 0, 4, KCamel},      {"units_combo", 0, 5, KComboPlain}, {"units_combo__0_0", 0, 5, KComboTyped},
    {"units_apt_kernel", 0, 4, KApt},       {"units_bad", 0, 5, KNever},        {"units_wide", 0, 9, KWide},
    {"units_abcop", 0, 4, KAbc},
};
int registered = [] {
    int r = 0;
    for (const asc_twin_kernel &k : kernels) r |= asc_twin_register(&k);
    return r;
}();
} // namespace

namespace optiling {
struct NoInfo {};
static ge::graphStatus Parse(gert::TilingParseContext *) { return ge::GRAPH_SUCCESS; }
static int64_t Elements(gert::TilingContext *c)
{
    auto *s = c->GetInputShape(0);
    return s == nullptr ? 0 : s->GetStorageShape().GetShapeSize();
}
static ge::graphStatus CamelTiling(gert::TilingContext *c)
{
    const int64_t *bytes = c->GetAttrs()->GetInt(0);
    const bool *ws = c->GetAttrs()->GetBool(1);
    if (bytes == nullptr || ws == nullptr) return ge::GRAPH_FAILED;
    unsigned char *data = static_cast<unsigned char *>(c->GetRawTilingData()->GetData());
    for (int64_t i = 0; i < *bytes; i++) data[i] = static_cast<unsigned char>(i & 0xff);
    const Total t{Elements(c)};
    std::memcpy(data, &t, sizeof t);
    c->GetRawTilingData()->SetDataSize(static_cast<size_t>(*bytes));
    c->SetBlockDim(7);
    c->SetTilingKey(0);
    if (*ws) {
        size_t *w = c->GetWorkspaceSizes(2);
        w[0] = 100;
        w[1] = 28;
    }
    return ge::GRAPH_SUCCESS;
}
static ge::graphStatus TotalTiling(gert::TilingContext *c)
{
    c->GetTilingData<Total>()->total = Elements(c);
    c->SetBlockDim(1);
    c->SetTilingKey(0);
    return ge::GRAPH_SUCCESS;
}
// what the tiling saw of input 0 and output 0: dtype, format, origin and storage shapes
struct SeenDesc {
    int in_dtype = -1, in_format = -1, out_dtype = -1, out_format = -1;
    std::vector<int64_t> in_origin, in_storage, out_origin, out_storage;
} seen_desc;
static std::vector<int64_t> Dims(const gert::Shape &s)
{
    std::vector<int64_t> d;
    for (size_t i = 0; i < s.GetDimNum(); i++) d.push_back(s.GetDim(i));
    return d;
}
static ge::graphStatus ComboTiling(gert::TilingContext *c)
{
    seen_desc = SeenDesc();
    if (const auto *d = c->GetInputDesc(0)) seen_desc.in_dtype = d->GetDataType(), seen_desc.in_format = d->GetStorageFormat();
    if (const auto *d = c->GetOutputDesc(0))
        seen_desc.out_dtype = d->GetDataType(), seen_desc.out_format = d->GetStorageFormat();
    if (const auto *s = c->GetInputShape(0))
        seen_desc.in_origin = Dims(s->GetOriginShape()), seen_desc.in_storage = Dims(s->GetStorageShape());
    if (const auto *s = c->GetOutputShape(0))
        seen_desc.out_origin = Dims(s->GetOriginShape()), seen_desc.out_storage = Dims(s->GetStorageShape());
    seen_bias_shape = c->GetInputShape(1) != nullptr;
    seen_attr_num = static_cast<int>(c->GetAttrs()->GetAttrNum());
    const int64_t *i = c->GetAttrs()->GetInt(0);
    const bool *b = c->GetAttrs()->GetBool(1);
    const float *f = c->GetAttrs()->GetFloat(2);
    seen_attr_int = i != nullptr ? *i : -1;
    seen_attr_bool = b != nullptr && *b;
    seen_attr_float = f != nullptr ? *f : -1.0f;
    return TotalTiling(c);
}
IMPL_OP_OPTILING(UnitsCamel2Op).Tiling(CamelTiling).TilingParse<NoInfo>(Parse);
IMPL_OP_OPTILING(UnitsCombo).Tiling(ComboTiling).TilingParse<NoInfo>(Parse);
IMPL_OP_OPTILING(UnitsApt).Tiling(TotalTiling).TilingParse<NoInfo>(Parse);
IMPL_OP_OPTILING(UnitsBad).Tiling(TotalTiling).TilingParse<NoInfo>(Parse);
IMPL_OP_OPTILING(UnitsWide).Tiling(TotalTiling).TilingParse<NoInfo>(Parse);
IMPL_OP_OPTILING(UnitsABCOp).Tiling(TotalTiling).TilingParse<NoInfo>(Parse);
IMPL_OP_OPTILING(UnitsBig).Tiling(TotalTiling).TilingParse<NoInfo>(Parse);
IMPL_OP_OPTILING(UnitsNoKernel).Tiling(TotalTiling).TilingParse<NoInfo>(Parse);
IMPL_OP_OPTILING(UnitsInferBad).Tiling(TotalTiling).TilingParse<NoInfo>(Parse);
} // namespace optiling

namespace ops {
static ge::graphStatus InferCopy(gert::InferShapeContext *c)
{
    *c->GetOutputShape(0) = *c->GetInputShape(0);
    return ge::GRAPH_SUCCESS;
}
static ge::graphStatus InferFail(gert::InferShapeContext *) { return ge::GRAPH_FAILED; }
IMPL_OP_INFERSHAPE(UnitsCombo).InferShape(InferCopy);
IMPL_OP_INFERSHAPE(UnitsInferBad).InferShape(InferFail);
class UnitsCombo : public OpDef {
public:
    explicit UnitsCombo(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_INT32});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT, ge::DT_INT32});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_INT32});
        OpAICoreConfig cfg;
        cfg.ExtendCfgInfo("opFile.value", "units_combo");
        this->AICore().AddConfig("ascend910b", cfg);
    }
};
OP_ADD(UnitsCombo);
class UnitsApt : public OpDef {
public:
    explicit UnitsApt(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        OpAICoreConfig cfg;
        cfg.ExtendCfgInfo("opFile.value", "units_apt_kernel_apt");
        this->AICore().AddConfig("ascend910b", cfg);
    }
};
OP_ADD(UnitsApt);
class UnitsBad : public OpDef {
public:
    explicit UnitsBad(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        OpAICoreConfig cfg;
        cfg.ExtendCfgInfo("opFile.value", "units_bad");
        this->AICore().AddConfig("ascend910b", cfg);
    }
};
OP_ADD(UnitsBad);
} // namespace ops

namespace {
std::string Recent()
{
    const char *m = aclGetRecentErrMsg();
    return m != nullptr ? m : "";
}
bool Has(const std::string &s, const char *what) { return s.find(what) != std::string::npos; }
bool EndsWith(const std::string &s, const std::string &end)
{
    return s.size() > end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}
// The status and message a refusal leaves (the recent error cleared first).
#define EXPECT_REFUSED(expr, status, want)                                                      \
    do {                                                                                        \
        Recent();                                                                               \
        CHECK((expr) == (status));                                                              \
        const std::string got_ = Recent();                                                      \
        CHECK(got_ == std::string(want));                                                       \
        if (got_ != std::string(want)) std::fprintf(stderr, "  got: %s\n", got_.c_str());       \
    } while (0)

// A refusal OP_LOGE logged: the message, then where it was logged.
#define EXPECT_LOGGED(expr, status, want)                                                         \
    do {                                                                                          \
        Recent();                                                                                 \
        CHECK((expr) == (status));                                                                \
        const std::string got_ = Recent();                                                        \
        const std::string want_ = std::string(want) + " (generated_aclnn.cpp:";                   \
        CHECK(got_.compare(0, want_.size(), want_) == 0);                                         \
        if (got_.compare(0, want_.size(), want_) != 0) std::fprintf(stderr, "  got: %s\n", got_.c_str()); \
    } while (0)

aclrtStream stream;
const int64_t N = 12;
std::vector<void *> blocks;

void *Dev(const std::vector<float> &values)
{
    void *p = nullptr;
    CHECK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    if (!values.empty())
        CHECK(aclrtMemcpy(p, values.size() * 4, values.data(), values.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE) ==
              ACL_SUCCESS);
    blocks.push_back(p);
    return p;
}
std::vector<float> Read(void *p, size_t n)
{
    std::vector<float> v(n);
    CHECK(aclrtMemcpy(v.data(), n * 4, p, n * 4, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
    return v;
}
aclTensor *Tensor(void *p, std::vector<int64_t> dims, aclDataType dt = ACL_FLOAT)
{
    std::vector<int64_t> st(dims.size());
    int64_t s = 1;
    for (size_t i = dims.size(); i-- > 0;) {
        st[i] = s;
        s *= dims[i];
    }
    return aclCreateTensor(dims.data(), dims.size(), dt, st.data(), 0, ACL_FORMAT_ND, dims.data(), dims.size(), p);
}

// A launch through LaunchAiCore (what ADD_TO_LAUNCHER_LIST_AICORE calls): the inputs as given,
// dense outputs from the executor copied into `outs` afterwards; phase 2 run when planned.
aclnnStatus Launch(const char *type, std::vector<const aclTensor *> ins, std::vector<aclTensor *> outs,
                   op::mg::AttrArgs attrs, uint64_t *ws_out = nullptr)
{
    op::mg::DfxBegin("aclnnUnitsLaunch");
    UniqueExecutor u("x");
    op::mg::InputArgs in;
    in.tensors = ins;
    op::mg::OutputArgs out;
    std::vector<aclTensor *> dense;
    for (aclTensor *o : outs) {
        dense.push_back(u->AllocTensor(o->GetViewShape(), o->GetDataType(), o->GetStorageFormat()));
        out.tensors.push_back(dense.back());
    }
    aclnnStatus status = op::mg::LaunchAiCore(type, u.get(), in, out, attrs);
    if (status != ACLNN_SUCCESS) return status;
    for (size_t i = 0; i < outs.size(); i++)
        if (l0op::ViewCopy(dense[i], outs[i], u.get()) == nullptr) return ACLNN_ERR_INNER_NULLPTR;
    const uint64_t ws = u->GetWorkspaceSize();
    if (ws_out != nullptr) *ws_out = ws;
    aclOpExecutor *e = nullptr;
    u.ReleaseTo(&e);
    void *w = nullptr;
    if (ws > 0 && aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return ACLNN_ERR_INNER;
    status = CommonOpExecutorRun(w, ws, e, stream);
    if (status == ACLNN_SUCCESS && aclrtSynchronizeStream(stream) != ACL_SUCCESS) status = ACLNN_ERR_INNER;
    aclrtFree(w);
    return status;
}

std::vector<float> Ramp(float from)
{
    std::vector<float> v(N);
    for (int64_t i = 0; i < N; i++) v[static_cast<size_t>(i)] = from + static_cast<float>(i);
    return v;
}

void CheckLauncher()
{
    const std::vector<float> xv = Ramp(-3.0f);
    void *xd = Dev(xv), *yd = Dev({});
    aclTensor *x = Tensor(xd, {3, 4}), *y = Tensor(yd, {3, 4});

    // snake case with a digit, 944 bytes of tiling data, two workspaces: one region of 128
    ran = 0;
    uint64_t ws = 0, ws_none = 0;
    CHECK(Launch("UnitsCamel2Op", {x}, {y}, op::mg::MakeAttrs(int64_t{944}, true), &ws) == ACLNN_SUCCESS);
    CHECK(ran == 'k' && fake_twin_last_block_dim == 7 && fake_twin_last_nargs == 4);
    CHECK(seen[2] != nullptr);
    bool pattern = seen_tiling.size() == 944;
    for (size_t i = sizeof(Total); pattern && i < 944; i++) pattern = seen_tiling[i] == (i & 0xff);
    CHECK(pattern);
    std::vector<float> got = Read(yd, N);
    for (int64_t i = 0; i < N; i++) CHECK(got[static_cast<size_t>(i)] == xv[static_cast<size_t>(i)] + 1.0f);
    // no workspace asked for: the kernel's workspace argument is NULL
    ran = 0;
    CHECK(Launch("UnitsCamel2Op", {x}, {y}, op::mg::MakeAttrs(int64_t{16}, false), &ws_none) == ACLNN_SUCCESS);
    CHECK(ran == 'k' && seen[2] == nullptr);
    CHECK(ws >= ws_none + 128); // both sizes in the one region
    // 945 bytes do not fit a step
    ran = 0;
    EXPECT_REFUSED(Launch("UnitsCamel2Op", {x}, {y}, op::mg::MakeAttrs(int64_t{945}, false)),
                   ACLNN_ERR_INNER_TILING_ERROR,
                   "aclnnUnitsLaunch: UnitsCamel2Op's tiling data is 945 bytes, more than the 944 modelled");
    CHECK(ran == 0);
    // a run of capitals is one word: UnitsABCOp -> units_abcop
    CHECK(Launch("UnitsABCOp", {x}, {y}, {}) == ACLNN_SUCCESS && ran == 'b');
    // the OpDef's file, "_apt" dropped
    CHECK(Launch("UnitsApt", {x}, {y}, {}) == ACLNN_SUCCESS && ran == 'a');
    got = Read(yd, N);
    CHECK(got[5] == xv[5] + 0.5f);

    // the per-dtype instantiation first (bias optional: not in the name), NULL for it
    void *bd = Dev(Ramp(0.0f));
    aclTensor *bias = Tensor(bd, {3, 4});
    ran = 0;
    CHECK(Launch("UnitsCombo", {x, nullptr}, {y}, {}) == ACLNN_SUCCESS);
    CHECK(ran == 'c' && seen[1] == nullptr && seen[0] != nullptr && seen[2] != nullptr && !seen_bias_shape);
    got = Read(yd, N);
    CHECK(got[0] == xv[0] + 100.0f && got[11] == xv[11] + 100.0f);
    ran = 0;
    CHECK(Launch("UnitsCombo", {x, bias}, {y}, {}) == ACLNN_SUCCESS);
    CHECK(ran == 'c' && seen[1] != nullptr && seen_bias_shape);
    // the tensors' descriptions reach the tiling: dtype, format, shapes (origin = storage)
    int64_t dn[4] = {1, 3, 2, 2}, sn[4] = {12, 4, 2, 1};
    aclTensor *xn = aclCreateTensor(dn, 4, ACL_FLOAT, sn, 0, ACL_FORMAT_NCHW, dn, 4, xd);
    aclTensor *yn = aclCreateTensor(dn, 4, ACL_FLOAT, sn, 0, ACL_FORMAT_NHWC, dn, 4, yd);
    CHECK(Launch("UnitsCombo", {xn, nullptr}, {yn}, {}) == ACLNN_SUCCESS);
    const std::vector<int64_t> want_dims = {1, 3, 2, 2};
    const optiling::SeenDesc &seen_desc = optiling::seen_desc;
    CHECK(seen_desc.in_dtype == ge::DT_FLOAT && seen_desc.in_format == ge::FORMAT_NCHW &&
          seen_desc.out_dtype == ge::DT_FLOAT && seen_desc.out_format == ge::FORMAT_NHWC);
    CHECK(seen_desc.in_origin == want_dims && seen_desc.in_storage == want_dims && seen_desc.out_origin == want_dims &&
          seen_desc.out_storage == want_dims);
    aclDestroyTensor(xn);
    aclDestroyTensor(yn);
    // int32 tensors: no units_combo__3_3, the plain kernel
    void *id = Dev(Ramp(1.0f)), *jd = Dev({});
    aclTensor *xi = Tensor(id, {3, 4}, ACL_INT32), *yi = Tensor(jd, {3, 4}, ACL_INT32);
    ran = 0;
    CHECK(Launch("UnitsCombo", {xi, nullptr}, {yi}, {}) == ACLNN_SUCCESS && ran == 'p');

    // six inputs and an output (7 tensors and the workspace fill a step's 8 buffers)
    std::vector<const aclTensor *> six;
    for (int k = 0; k < 6; k++) six.push_back(x);
    ran = 0;
    CHECK(Launch("UnitsWide", six, {y}, {}) == ACLNN_SUCCESS && ran == 'w' && fake_twin_last_nargs == 9);
    got = Read(yd, N);
    CHECK(got[3] == 6.0f * xv[3] && got[11] == 6.0f * xv[11]);
    // a seventh input: more tensors than a step holds
    six.push_back(x);
    EXPECT_REFUSED(Launch("UnitsWide", six, {y}, {}), ACLNN_ERR_INNER,
                   "aclnnUnitsLaunch: UnitsWide has more tensors than a step holds");
    // 15 tensors and the workspace and tiling: more than a launch's 16 arguments
    std::vector<const aclTensor *> many(14, nullptr);
    EXPECT_REFUSED(Launch("UnitsWide", many, {y}, {}), ACLNN_ERR_INNER,
                   "aclnnUnitsLaunch: UnitsWide has more inputs, outputs or attributes than modelled");
    std::vector<const aclTensor *> seventeen(17, nullptr);
    EXPECT_REFUSED(Launch("UnitsWide", seventeen, {}, {}), ACLNN_ERR_INNER,
                   "aclnnUnitsLaunch: UnitsWide has more inputs, outputs or attributes than modelled");
    // a strided input: the kernel reads dense data
    int64_t d[1] = {4}, st[1] = {3}, sd[1] = {12};
    aclTensor *strided = aclCreateTensor(d, 1, ACL_FLOAT, st, 0, ACL_FORMAT_ND, sd, 1, xd);
    void *y4d = Dev({});
    aclTensor *y4 = Tensor(y4d, {4});
    EXPECT_REFUSED(Launch("UnitsApt", {strided}, {y4}, {}), ACLNN_ERR_INNER,
                   "aclnnUnitsLaunch: input 0 of UnitsApt is not contiguous (an AI-core kernel reads dense data: "
                   "l0op::Contiguous first)");
    // an argument count the kernel does not take
    EXPECT_REFUSED(Launch("UnitsBad", {x}, {y}, {}), ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
                   "aclnnUnitsLaunch: kernel units_bad takes 5 GM arguments, but UnitsBad launches it with 1 inputs "
                   "and 1 outputs (+ workspace, tiling = 4)");
    // no kernel at all
    EXPECT_REFUSED(Launch("UnitsNoKernel", {x}, {y}, {}), ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
                   "aclnnUnitsLaunch: no kernel units_no_kernel for tiling key 0 of UnitsNoKernel (is its op_kernel "
                   "built, and does its ASCENDC_TPL_SEL list the key?)");
    // no tiling
    EXPECT_REFUSED(Launch("UnitsNoTiling", {x}, {y}, {}), ACLNN_ERR_INNER_TILING_ERROR,
                   "aclnnUnitsLaunch: no tiling registered for operator type UnitsNoTiling "
                   "(IMPL_OP_OPTILING(UnitsNoTiling).Tiling)");
    // a failed tiling (UnitsCamel2Op without its attributes)
    EXPECT_REFUSED(Launch("UnitsCamel2Op", {x}, {y}, {}), ACLNN_ERR_INNER_TILING_ERROR,
                   "aclnnUnitsLaunch: the tiling of UnitsCamel2Op returned failure " +
                       std::to_string(static_cast<unsigned>(ge::GRAPH_FAILED)));

    // the step's parameters: the tiling's used part only; NULL for a -1 argument
    mg_launch_params p;
    std::memset(&p, 0, sizeof p);
    p.tiling_size = 10;
    CHECK(mg_launch_params_size(&p) == offsetof(mg_launch_params, tiling) + 10);
    p.tiling_size = 0;
    CHECK(mg_launch_params_size(&p) == offsetof(mg_launch_params, tiling));

    aclDestroyTensor(x);
    aclDestroyTensor(y);
    aclDestroyTensor(bias);
    aclDestroyTensor(xi);
    aclDestroyTensor(yi);
    aclDestroyTensor(strided);
    aclDestroyTensor(y4);
}

// The launch step's cost is its outputs' elements (the product of each output's dims,
// summed): a plan of 2^22 elements or more wakes the stream's worker at once, a smaller one
// waits for the thread that synchronizes (mgrt_stream_submit). The caller's own dense
// tensors are the kernel's, so the launch is the plan's only step.
void CheckCost()
{
    void *xd = nullptr;
    const size_t bytes = (size_t{1} << 22) * 4;
    CHECK(aclrtMalloc(&xd, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    struct Case {
        std::vector<int64_t> dims;
        bool woken;
    };
    const Case cases[] = {{{2048, 2048}, true}, {{2, 1024, 2048}, true}, {{4194303}, false}, {{2047, 2048}, false}};
    for (const Case &c : cases) {
        aclTensor *x = Tensor(xd, c.dims);
        op::mg::DfxBegin("aclnnUnitsBig");
        UniqueExecutor u("x");
        op::mg::InputArgs in;
        in.tensors = {x};
        op::mg::OutputArgs out;
        out.tensors = {x};
        CHECK(op::mg::LaunchAiCore("UnitsBig", u.get(), in, out, {}) == ACLNN_SUCCESS);
        aclOpExecutor *e = nullptr;
        const uint64_t ws = u->GetWorkspaceSize();
        u.ReleaseTo(&e);
        void *w = nullptr;
        if (ws > 0) CHECK(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
        const int before = big_runs.load();
        CHECK(CommonOpExecutorRun(w, ws, e, stream) == ACLNN_SUCCESS);
        // woken: it runs without a synchronize (waited for up to 20 s); not woken: still
        // queued 300 ms later
        const auto limit = std::chrono::steady_clock::now() + std::chrono::milliseconds(c.woken ? 20000 : 300);
        while (big_runs.load() == before && std::chrono::steady_clock::now() < limit)
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        CHECK((big_runs.load() > before) == c.woken);
        CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
        CHECK(big_runs.load() == before + 1);
        aclrtFree(w);
        aclDestroyTensor(x);
    }
    aclrtFree(xd);
}

// The generated entry (GeneratedPhase1/2) on the UnitsCombo definition: float or int32
// columns, an optional bias, attributes int, bool, float.
void CheckGenerated()
{
    static const int kCols[2] = {ge::DT_FLOAT, ge::DT_INT32};
    static const opbuild::GenParam kIn[2] = {{"x", 0, kCols}, {"bias", 1, kCols}}, kOut[1] = {{"y", 0, kCols}};
    static const opbuild::GenAttr kAttrs[3] = {{"scale", opbuild::GEN_INT}, {"flag", opbuild::GEN_BOOL},
                                               {"alpha", opbuild::GEN_FLOAT}};
    const opbuild::GenOp gen = {"aclnnUnitsCombo", "UnitsCombo", 2, kIn, 1, kOut, 3, kAttrs, 2};
    const opbuild::GenValue attrs[3] = {opbuild::GenInt(-77), opbuild::GenBool(true), opbuild::GenFloat(0.75)};
    const std::vector<float> xv = Ramp(5.0f);
    void *xd = Dev(xv), *yd = Dev({}), *hd = Dev({});
    aclTensor *x = Tensor(xd, {3, 4}), *y = Tensor(yd, {3, 4}), *y6 = Tensor(yd, {6, 2});
    aclTensor *yh = Tensor(hd, {3, 4}, ACL_INT32);
    aclTensor *y43 = Tensor(yd, {4, 3});
    const aclTensor *in1[2] = {x, nullptr};
    const aclTensor *out1[1] = {y};
    uint64_t ws = 0;
    aclOpExecutor *e = nullptr;
    CHECK(opbuild::GeneratedPhase1(gen, in1, out1, attrs, &ws, &e) == ACLNN_SUCCESS && e != nullptr);
    CHECK(seen_attr_num == 3 && seen_attr_int == -77 && seen_attr_bool && seen_attr_float == 0.75f);
    void *w = nullptr;
    if (ws > 0) CHECK(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    ran = 0;
    CHECK(opbuild::GeneratedPhase2(gen, w, ws, e, stream) == ACLNN_SUCCESS);
    CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    aclrtFree(w);
    CHECK(ran == 'c');
    std::vector<float> got = Read(yd, N);
    CHECK(got[0] == xv[0] + 100.0f && got[7] == xv[7] + 100.0f);
    // the other boolean and int values
    const opbuild::GenValue attrs2[3] = {opbuild::GenInt(5), opbuild::GenBool(false), opbuild::GenFloat(-1.5)};
    e = nullptr;
    CHECK(opbuild::GeneratedPhase1(gen, in1, out1, attrs2, &ws, &e) == ACLNN_SUCCESS);
    CHECK(seen_attr_int == 5 && !seen_attr_bool && seen_attr_float == -1.5f);
    CHECK(opbuild::GeneratedPhase2(gen, nullptr, 0, e, stream) != ACLNN_SUCCESS || ws == 0);

    // the definition's second column (int32 x and y): a combination it lists, found past the first
    {
        void *id = Dev(Ramp(1.0f)), *jd = Dev({});
        aclTensor *xi = Tensor(id, {3, 4}, ACL_INT32), *yi = Tensor(jd, {3, 4}, ACL_INT32);
        const aclTensor *ini[2] = {xi, nullptr};
        const aclTensor *outi[1] = {yi};
        e = nullptr;
        Recent();
        CHECK(opbuild::GeneratedPhase1(gen, ini, outi, attrs, &ws, &e) == ACLNN_SUCCESS && e != nullptr);
        const std::string mi = Recent();
        if (e == nullptr) std::fprintf(stderr, "  got: %s\n", mi.c_str());
        void *wi = nullptr;
        if (ws > 0) CHECK(aclrtMalloc(&wi, ws, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
        ran = 0;
        if (e != nullptr) CHECK(opbuild::GeneratedPhase2(gen, wi, ws, e, stream) == ACLNN_SUCCESS);
        CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
        CHECK(ran == 'p'); // int32: no units_combo__3_3, the plain kernel
        aclrtFree(wi);
        aclDestroyTensor(xi);
        aclDestroyTensor(yi);
    }

    // phase 2 names the entry (not the API the thread ran last): a missing workspace
    e = nullptr;
    CHECK(opbuild::GeneratedPhase1(gen, in1, out1, attrs, &ws, &e) == ACLNN_SUCCESS && ws > 0);
    op::mg::DfxBegin("aclnnSomethingElse");
    Recent();
    CHECK(opbuild::GeneratedPhase2(gen, nullptr, ws, e, stream) == ACLNN_ERR_PARAM_NULLPTR);
    std::string m2 = Recent();
    CHECK(Has(m2, "aclnnUnitsCombo") && !Has(m2, "aclnnSomethingElse"));
    // phase 1 names each tensor as the definition does: a view past its storage
    int64_t dx[2] = {3, 4}, sx[2] = {4, 1}, st5[1] = {5};
    aclTensor *badv = aclCreateTensor(dx, 2, ACL_FLOAT, sx, 0, ACL_FORMAT_ND, st5, 1, xd);
    const aclTensor *in_bad[2] = {badv, nullptr};
    const aclTensor *in_badb[2] = {x, badv};
    const aclTensor *out_bad[1] = {badv};
    for (int k = 0; k < 3; k++) {
        e = nullptr;
        Recent();
        const aclnnStatus st = k == 0   ? opbuild::GeneratedPhase1(gen, in_bad, out1, attrs, &ws, &e)
                               : k == 1 ? opbuild::GeneratedPhase1(gen, in_badb, out1, attrs, &ws, &e)
                                        : opbuild::GeneratedPhase1(gen, in1, out_bad, attrs, &ws, &e);
        CHECK(st != ACLNN_SUCCESS && e == nullptr);
        const std::string mb = Recent();
        const char *name = k == 0 ? "aclnnUnitsCombo: x" : k == 1 ? "aclnnUnitsCombo: bias" : "aclnnUnitsCombo: y";
        CHECK(Has(mb, name));
        if (!Has(mb, name)) std::fprintf(stderr, "  got: %s\n", mb.c_str());
    }
    aclDestroyTensor(badv);

    // the refusals
    const aclTensor *none_out[1] = {nullptr};
    EXPECT_LOGGED(opbuild::GeneratedPhase1(gen, in1, none_out, attrs, &ws, &e), ACLNN_ERR_PARAM_NULLPTR,
                   "aclnnUnitsCombo: y is nullptr");
    const aclTensor *out_h[1] = {yh};
    EXPECT_LOGGED(opbuild::GeneratedPhase1(gen, in1, out_h, attrs, &ws, &e), ACLNN_ERR_PARAM_INVALID,
                   "aclnnUnitsCombo: the dtypes (x DT_FLOAT, y DT_INT32) are not a combination UnitsCombo's "
                   "definition lists");
    const aclTensor *in_b[2] = {x, yh};
    EXPECT_LOGGED(opbuild::GeneratedPhase1(gen, in_b, out1, attrs, &ws, &e), ACLNN_ERR_PARAM_INVALID,
                   "aclnnUnitsCombo: the dtypes (x DT_FLOAT, bias DT_INT32, y DT_FLOAT) are not a combination "
                   "UnitsCombo's definition lists");
    const aclTensor *out6[1] = {y6};
    EXPECT_LOGGED(opbuild::GeneratedPhase1(gen, in1, out6, attrs, &ws, &e), ACLNN_ERR_PARAM_INVALID,
                   "aclnnUnitsCombo: y has shape [6,2], but UnitsCombo's infershape gives [3,4]");
    const aclTensor *out43[1] = {y43};
    EXPECT_LOGGED(opbuild::GeneratedPhase1(gen, in1, out43, attrs, &ws, &e), ACLNN_ERR_PARAM_INVALID,
                   "aclnnUnitsCombo: y has shape [4,3], but UnitsCombo's infershape gives [3,4]");
    aclTensor *y35 = Tensor(yd, {3, 5}); // only the last dim differs
    const aclTensor *out35[1] = {y35};
    EXPECT_LOGGED(opbuild::GeneratedPhase1(gen, in1, out35, attrs, &ws, &e), ACLNN_ERR_PARAM_INVALID,
                  "aclnnUnitsCombo: y has shape [3,5], but UnitsCombo's infershape gives [3,4]");
    aclDestroyTensor(y35);
    aclTensor *y12 = Tensor(yd, {12});
    const aclTensor *out12[1] = {y12};
    EXPECT_LOGGED(opbuild::GeneratedPhase1(gen, in1, out12, attrs, &ws, &e), ACLNN_ERR_PARAM_INVALID,
                   "aclnnUnitsCombo: y has shape [12], but UnitsCombo's infershape gives [3,4]");
    static const opbuild::GenAttr kBadAttrs[1] = {{"mode", opbuild::GEN_UNSUPPORTED}};
    const opbuild::GenOp bad = {"aclnnUnitsCombo", "UnitsCombo", 2, kIn, 1, kOut, 1, kBadAttrs, 2};
    EXPECT_LOGGED(opbuild::GeneratedPhase1(bad, in1, out1, attrs, &ws, &e), ACLNN_ERR_PARAM_INVALID,
                   "aclnnUnitsCombo: attribute mode of UnitsCombo is a string or list attribute, which the launcher "
                   "does not model");
    static const opbuild::GenParam kOne[1] = {{"x", 0, kCols}};
    const opbuild::GenOp inferbad = {"aclnnUnitsInferBad", "UnitsInferBad", 1, kOne, 1, kOut, 0, nullptr, 2};
    const aclTensor *in_x[1] = {x};
    EXPECT_LOGGED(opbuild::GeneratedPhase1(inferbad, in_x, out1, nullptr, &ws, &e), ACLNN_ERR_PARAM_INVALID,
                   "aclnnUnitsInferBad: the infershape of UnitsInferBad returned failure");
    // the common input check runs before the entry names itself: the message's end
    Recent();
    CHECK(opbuild::GeneratedPhase1(gen, in1, out1, attrs, nullptr, &e) == ACLNN_ERR_PARAM_NULLPTR);
    std::string m = Recent();
    CHECK(EndsWith(m, ": workspaceSize is NULL"));
    CHECK(opbuild::GeneratedPhase1(gen, in1, out1, attrs, &ws, nullptr) == ACLNN_ERR_PARAM_NULLPTR);
    m = Recent();
    CHECK(EndsWith(m, ": executor is NULL"));

    // an empty input or output: nothing planned, the output left as it is
    const std::vector<float> marks(N, 9.0f);
    CHECK(aclrtMemcpy(yd, N * 4, marks.data(), N * 4, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
    aclTensor *x0 = Tensor(xd, {0, 4}), *y0 = Tensor(yd, {0, 4});
    const aclTensor *in0[2] = {x0, nullptr};
    const aclTensor *out0[1] = {y0};
    ws = 77;
    e = nullptr;
    ran = 0;
    CHECK(opbuild::GeneratedPhase1(gen, in0, out0, attrs, &ws, &e) == ACLNN_SUCCESS && ws == 0 && e != nullptr);
    CHECK(opbuild::GeneratedPhase2(gen, nullptr, 0, e, stream) == ACLNN_SUCCESS);
    CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS && ran == 0);
    // an empty optional input: also nothing
    const aclTensor *in0b[2] = {x, x0};
    e = nullptr;
    ws = 77;
    CHECK(opbuild::GeneratedPhase1(gen, in0b, out1, attrs, &ws, &e) == ACLNN_SUCCESS && ws == 0);
    CHECK(opbuild::GeneratedPhase2(gen, nullptr, 0, e, stream) == ACLNN_SUCCESS);
    CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS && ran == 0);
    got = Read(yd, N);
    CHECK(got[0] == 9.0f && got[11] == 9.0f);

    aclDestroyTensor(x);
    aclDestroyTensor(y);
    aclDestroyTensor(y6);
    aclDestroyTensor(yh);
    aclDestroyTensor(y43);
    aclDestroyTensor(y12);
    aclDestroyTensor(x0);
    aclDestroyTensor(y0);
}
} // namespace

int main()
{
    CHECK(registered == 0);
    CHECK(aclInit(nullptr) == ACL_SUCCESS);
    CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
    CheckLauncher();
    CheckGenerated();
    CheckCost();
    for (void *p : blocks) aclrtFree(p);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    CHECK(aclFinalize() == ACL_SUCCESS);
    return Finish();
}

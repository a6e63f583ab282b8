// opbuild/ut/op_api_ut.cpp: the harness behind op_api_ut.h: materialising descriptions as
// aclTensors (seeded values, rounded to the dtype, which the reference then reads), the
// stream, and the comparison against the API's float64 reference.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "mgrt.h"
#include "op_api_ut_common/op_api_ut.h"
#include "op_api_ut_common/references.h"

namespace op_api_ut {
namespace {
int64_t ElemSize(aclDataType t) { return static_cast<int64_t>(aclDataTypeSize(t)); }

uint16_t ToBf16(float f)
{
    uint32_t w;
    std::memcpy(&w, &f, 4);
    if (std::isnan(f)) return static_cast<uint16_t>((w >> 16) | 0x40);
    w += 0x7FFFu + ((w >> 16) & 1u);
    return static_cast<uint16_t>(w >> 16);
}

void Encode(aclDataType t, double v, unsigned char *p)
{
    switch (t) {
    case ACL_FLOAT: { float f = static_cast<float>(v); std::memcpy(p, &f, 4); break; }
    case ACL_FLOAT16: { aclFloat16 h = aclFloatToFloat16(static_cast<float>(v)); std::memcpy(p, &h, 2); break; }
    case ACL_BF16: { uint16_t h = ToBf16(static_cast<float>(v)); std::memcpy(p, &h, 2); break; }
    case ACL_DOUBLE: std::memcpy(p, &v, 8); break;
    case ACL_INT32: { int32_t i = static_cast<int32_t>(std::lround(v)); std::memcpy(p, &i, 4); break; }
    case ACL_INT64: { int64_t i = std::llround(v); std::memcpy(p, &i, 8); break; }
    case ACL_INT16: { int16_t i = static_cast<int16_t>(std::lround(v)); std::memcpy(p, &i, 2); break; }
    case ACL_INT8: { int8_t i = static_cast<int8_t>(std::lround(v)); std::memcpy(p, &i, 1); break; }
    case ACL_UINT8: { uint8_t i = static_cast<uint8_t>(std::lround(std::fabs(v))); std::memcpy(p, &i, 1); break; }
    case ACL_BOOL: p[0] = v != 0.0; break;
    default: std::memset(p, 0, static_cast<size_t>(ElemSize(t))); break;
    }
}

double Decode(aclDataType t, const unsigned char *p)
{
    switch (t) {
    case ACL_FLOAT: { float f; std::memcpy(&f, p, 4); return f; }
    case ACL_FLOAT16: { aclFloat16 h; std::memcpy(&h, p, 2); return aclFloat16ToFloat(h); }
    case ACL_BF16: { uint16_t h; std::memcpy(&h, p, 2); uint32_t w = static_cast<uint32_t>(h) << 16; float f;
                     std::memcpy(&f, &w, 4); return f; }
    case ACL_DOUBLE: { double d; std::memcpy(&d, p, 8); return d; }
    case ACL_INT32: { int32_t i; std::memcpy(&i, p, 4); return i; }
    case ACL_INT64: { int64_t i; std::memcpy(&i, p, 8); return static_cast<double>(i); }
    case ACL_INT16: { int16_t i; std::memcpy(&i, p, 2); return i; }
    case ACL_INT8: return static_cast<int8_t>(p[0]);
    case ACL_UINT8: case ACL_BOOL: return p[0];
    default: return 0.0;
    }
}

std::vector<int64_t> RowMajor(const std::vector<int64_t> &shape)
{
    std::vector<int64_t> s(shape.size());
    int64_t stride = 1;
    for (size_t i = shape.size(); i-- > 0;) {
        s[i] = stride;
        stride *= shape[i];
    }
    return s;
}

int64_t Numel(const std::vector<int64_t> &shape)
{
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

// The storage offset of view element `flat` (row-major over the view's shape).
int64_t StorageIndex(const TensorDesc &d, const std::vector<int64_t> &strides, int64_t flat)
{
    int64_t at = d.offset_;
    for (size_t i = d.shape_.size(); i-- > 0;) {
        int64_t dim = d.shape_[i] > 0 ? d.shape_[i] : 1;
        at += (flat % dim) * strides[i];
        flat /= dim;
    }
    return at;
}

std::mt19937_64 &Rng()
{
    static std::mt19937_64 rng(20261205);
    return rng;
}

aclrtStream stream = nullptr;
} // namespace

void EnsureRuntime()
{
    static bool ready = [] {
        aclInit(nullptr);
        aclrtSetDevice(0);
        aclrtCreateStream(&stream);
        return true;
    }();
    (void)ready;
}

aclrtStream Stream() { return stream; }

std::string RecentError()
{
    const char *m = aclGetRecentErrMsg();
    return m != nullptr ? m : "(no message)";
}

std::string PeekRecentError(int32_t status)
{
    // reading clears it (as CANN's): recorded again, with the status it came with (which logs
    // it once more at error level: the only way back in a build without test hooks)
    const char *m = aclGetRecentErrMsg();
    if (m == nullptr) return "(no message)";
    std::string copy = m;
    mgrt_fail(status, "%s", copy.c_str());
    return copy;
}

Materialized::~Materialized()
{
    for (aclTensor *t : tensors) aclDestroyTensor(t);
    for (aclScalar *s : scalars) aclDestroyScalar(s);
    for (aclIntArray *a : arrays) aclDestroyIntArray(a);
    for (void *p : memory) aclrtFree(p);
}

aclTensor *MakeTensor(const TensorDesc &d, bool output, Materialized &m)
{
    const std::vector<int64_t> strides = d.strides_.empty() ? RowMajor(d.shape_) : d.strides_;
    std::vector<int64_t> storage = d.storage_;
    if (storage.empty()) storage = {d.offset_ + Numel(d.shape_)};
    const int64_t elems = Numel(storage), size = ElemSize(d.dtype_);
    void *device = nullptr;
    std::vector<unsigned char> host(static_cast<size_t>(elems > 0 ? elems * size : 1));
    if (elems > 0 && size > 0) {
        aclrtMalloc(&device, static_cast<size_t>(elems * size), ACL_MEM_MALLOC_HUGE_FIRST);
        m.memory.push_back(device);
        std::uniform_real_distribution<double> dist(d.lo_, d.hi_);
        for (int64_t i = 0; i < elems; i++)
            Encode(d.dtype_, output ? std::nan("") : dist(Rng()), &host[static_cast<size_t>(i * size)]);
        if (!output && !d.values_.empty())
            for (int64_t i = 0; i < Numel(d.shape_) && i < static_cast<int64_t>(d.values_.size()); i++)
                Encode(d.dtype_, d.values_[static_cast<size_t>(i)],
                       &host[static_cast<size_t>(StorageIndex(d, strides, i) * size)]);
        aclrtMemcpy(device, static_cast<size_t>(elems * size), host.data(), static_cast<size_t>(elems * size),
                    ACL_MEMCPY_HOST_TO_DEVICE);
    }
    aclTensor *t = aclCreateTensor(d.shape_.data(), d.shape_.size(), d.dtype_, strides.data(), d.offset_, d.format_,
                                   storage.data(), storage.size(), device);
    if (t != nullptr) m.tensors.push_back(t);
    if (output) {
        m.outputs.push_back({&d, device, storage});
    } else if (size > 0) {
        std::vector<double> values(static_cast<size_t>(Numel(d.shape_) > 0 ? Numel(d.shape_) : 0));
        for (size_t i = 0; i < values.size(); i++)
            values[i] = Decode(d.dtype_, &host[static_cast<size_t>(StorageIndex(d, strides, static_cast<int64_t>(i)) *
                                                                   size)]);
        m.input_values.push_back(std::move(values));
        m.input_shapes.push_back(d.shape_);
    }
    return t;
}

aclScalar *Arg(const ScalarDesc &d, bool, Materialized &m)
{
    unsigned char bytes[8] = {0};
    Encode(d.dtype_, d.value_, bytes);
    aclScalar *s = aclCreateScalar(bytes, d.dtype_);
    m.scalars.push_back(s);
    m.attrs.push_back(d.value_);
    return s;
}

aclIntArray *Arg(const std::vector<int64_t> &v, bool, Materialized &m)
{
    aclIntArray *a = aclCreateIntArray(v.data(), v.size());
    m.arrays.push_back(a);
    return a;
}

// One unit in the last place of `dtype` at the magnitude of v: the spacing of the values the
// output can hold there (0 for the dtypes this floor does not concern).
double Ulp(aclDataType dtype, double v)
{
    int mantissa, min_exp;
    switch (dtype) {
    case ACL_FLOAT16: mantissa = 10, min_exp = -14; break;
    case ACL_BF16: mantissa = 7, min_exp = -126; break;
    case ACL_FLOAT: mantissa = 23, min_exp = -126; break;
    default: return 0.0;
    }
    if (!std::isfinite(v)) return 0.0;
    int e = 0;
    std::frexp(std::fabs(v), &e); // |v| in [2^(e-1), 2^e)
    return std::ldexp(1.0, std::max(e - 1, min_exp) - mantissa);
}

void Compare(const char *api, const Materialized &m)
{
    if (m.outputs.empty()) return;
    const Materialized::Output &out = m.outputs[0];
    const TensorDesc &d = *out.desc;
    const int64_t n = Numel(d.shape_);
    if (n == 0) return; // an empty result: phase 2 and the synchronize succeeding is the test
    const Reference *ref = FindReference(api);
    const TensorReference *whole = ref == nullptr ? FindTensorReference(api) : nullptr;
    ASSERT_TRUE(ref != nullptr || (whole != nullptr && !m.input_values.empty()))
        << "no float64 reference for " << api << " (opbuild/ut/references.cpp): its values cannot be checked";
    std::vector<double> whole_out;
    if (whole != nullptr)
        whole->fn(m.input_values[0], m.input_shapes[0], m.attrs.data(), m.attrs.size(), d.shape_, whole_out);
    const int64_t size = ElemSize(d.dtype_), elems = Numel(out.storage);
    std::vector<unsigned char> host(static_cast<size_t>(elems * size));
    ASSERT_EQ(aclrtMemcpy(host.data(), host.size(), out.device, host.size(), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    const std::vector<int64_t> strides = d.strides_.empty() ? RowMajor(d.shape_) : d.strides_;
    int64_t bad = 0;
    std::string first; // the first few mismatches, in one failure with the count
    double in[8] = {0};
    for (int64_t i = 0; i < n; i++) {
        // inputs broadcast to the output by numpy's rule (trailing dims aligned)
        for (size_t k = 0; k < m.input_values.size() && k < 8; k++) {
            const std::vector<int64_t> &shape = m.input_shapes[k];
            int64_t flat = i, index = 0, stride = 1;
            for (size_t o = d.shape_.size(), s = shape.size(); o-- > 0;) {
                int64_t coord = flat % d.shape_[o];
                flat /= d.shape_[o];
                if (s == 0) continue;
                s--;
                index += (shape[s] == 1 ? 0 : coord) * stride;
                stride *= shape[s];
            }
            in[k] = m.input_values[k].empty() ? 0.0 : m.input_values[k][static_cast<size_t>(index)];
        }
        const double want = whole != nullptr ? whole_out[static_cast<size_t>(i)]
                                             : ref->fn(in, m.attrs.data(), m.attrs.size());
        const double got = Decode(d.dtype_, &host[static_cast<size_t>(StorageIndex(d, strides, i) * size)]);
        // The UT's Precision, but never tighter than one unit in the last place of the output
        // dtype at the reference: a float16 output cannot come closer to the reference than its
        // rounding (half a unit), and a kernel computing in float and rounding once may land
        // on the neighbour near a tie (ops-nn's UTs ask 1e-4 of float16 outputs, which CANN's
        // own TestPrecision never checks).
        const bool ok = std::isnan(want) ? std::isnan(got)
                                         : std::fabs(got - want) <= std::max(d.atol_ + d.rtol_ * std::fabs(want),
                                                                             Ulp(d.dtype_, want));
        if (!ok && bad++ < 5)
            first += "\n  element " + std::to_string(i) + ": got " + std::to_string(got) + ", float64 reference " +
                     std::to_string(want);
    }
    if (bad > 0)
        ADD_FAILURE() << api << ": " << bad << " of " << n << " elements out of tolerance (atol " << d.atol_
                      << ", rtol " << d.rtol_ << ")" << first;
}
} // namespace op_api_ut

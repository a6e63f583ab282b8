// opdev's and optiling's parts one by one, each against a written expectation: the dtype
// table (every index), opdev's CPU conversions at every saturation bound (and the bfloat16
// rounding), the Muls/BroadcastTo/Fill/const steps, CollapseView, the tensor and scalar
// accessors, every OP_CHECK_* rule's message and status, ConvertToTensor's limits, the l0
// ops' refusals and their messages, the operator log (its level filter, the recent error,
// the log line with its code), the platform facts, and the registry. The statuses are read
// from the log line mgrt_fail writes (ASCEND_LOG_PRINT_TO_STDOUT=1 in this test's
// environment, captured from stdout).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif
#include <string>
#include <unistd.h>
#include <vector>

#include "opapi_check.h"

#include "acl/acl.h"
#include "aclnn_kernels/cast.h"
#include "aclnn_kernels/common/op_error_check.h"
#include "aclnn_kernels/contiguous.h"
#include "aclnn_kernels/reshape.h"
#include "l0_kernels.h"
#include "level0/broadcast_to.h"
#include "level0/fill.h"
#include "level0/muls.h"
#include "mgrt.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_dfx.h"
#include "opdev/op_executor.h"
#include "opdev/platform.h"
#include "opdev_internal.h"
#include "optiling/mg_optiling.h"
#include "optiling/mg_registry.h"

extern "C" void mg_op_log(int level, const char *subject, int code, const char *file, int line, const char *fmt, ...);

using namespace op;

namespace {
// ---- capture: what a call writes to a stream (the runtime prints its log lines to stdout
// here; the registry names a full table on stderr), through an anonymous temporary file ----
template <typename F> std::string CaptureFd(FILE *stream, int target, F f)
{
    std::fflush(stream);
    FILE *tmp = std::tmpfile();
    if (tmp == nullptr) return "(no temporary file)";
    const int saved = dup(target);
    dup2(fileno(tmp), target);
    f();
    std::fflush(stream);
    dup2(saved, target);
    close(saved);
    std::string text;
    std::rewind(tmp);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, tmp)) > 0) text.append(buf, n);
    std::fclose(tmp);
    return text;
}
template <typename F> std::string Capture(F f) { return CaptureFd(stdout, 1, f); }
bool Has(const std::string &s, const char *what) { return s.find(what) != std::string::npos; }
std::string Recent()
{
    const char *m = aclGetRecentErrMsg();
    return m != nullptr ? m : "";
}
// The recent error is exactly `want`, and the log line says `code`.
#define EXPECT_FAIL(call, code, want)                                                                           \
    do {                                                                                                        \
        Recent(); /* earlier messages cleared */                                                                \
        const std::string log_ = Capture([&] { call; });                                                        \
        const std::string msg_ = Recent();                                                                      \
        CHECK(msg_ == std::string(want));                                                                       \
        CHECK(Has(log_, ("error code " + std::to_string(code) + ": ").c_str()));                                \
        if (msg_ != std::string(want)) std::fprintf(stderr, "  got: %s\n  log: %s\n", msg_.c_str(), log_.c_str()); \
    } while (0)

// ---- optiling/src/types.c: every index against the written table (ge's numbering) ----
void CheckDtypeTable()
{
    struct Row {
        int dtype, size;
        const char *name;
    };
    const Row rows[] = {{0, 4, "DT_FLOAT"},      {1, 2, "DT_FLOAT16"},     {2, 1, "DT_INT8"},     {3, 4, "DT_INT32"},
                        {4, 1, "DT_UINT8"},      {5, 0, "DT_UNKNOWN"},     {6, 2, "DT_INT16"},    {7, 2, "DT_UINT16"},
                        {8, 4, "DT_UINT32"},     {9, 8, "DT_INT64"},       {10, 8, "DT_UINT64"},  {11, 8, "DT_DOUBLE"},
                        {12, 1, "DT_BOOL"},      {13, 0, "DT_STRING"},     {14, 0, "DT_UNKNOWN"}, {15, 0, "DT_UNKNOWN"},
                        {16, 8, "DT_COMPLEX64"}, {17, 16, "DT_COMPLEX128"}, {18, 1, "DT_QINT8"},   {19, 2, "DT_QINT16"},
                        {20, 4, "DT_QINT32"},    {21, 1, "DT_QUINT8"},     {22, 2, "DT_QUINT16"}, {23, 0, "DT_UNKNOWN"},
                        {24, 0, "DT_UNKNOWN"},   {25, 0, "DT_UNKNOWN"},    {26, 0, "DT_UNKNOWN"}, {27, 2, "DT_BF16"},
                        {28, 0, "DT_UNDEFINED"}, {29, 0, "DT_UNKNOWN"},    {30, 0, "DT_UNKNOWN"}, {31, 0, "DT_UNKNOWN"},
                        {32, 0, "DT_UNKNOWN"},   {33, 4, "DT_COMPLEX32"},  {34, 0, "DT_UNKNOWN"}, {35, 0, "DT_UNKNOWN"},
                        {-1, 0, "DT_UNKNOWN"},   {1000, 0, "DT_UNKNOWN"}};
    for (const Row &r : rows) {
        CHECK(mg_dtype_size(r.dtype) == r.size);
        CHECK(std::strcmp(mg_dtype_name(r.dtype), r.name) == 0);
    }
}

// ---- opdev/src/l0_kernels.c ----
template <typename T> T Convert(int src, const void *from, int dst)
{
    T out;
    std::memset(&out, 0xee, sizeof out);
    CHECK(mg_convert_values(src, from, dst, &out, 1) == 0);
    return out;
}
template <typename T> T FromDouble(double v, int dst) { return Convert<T>(ge::DT_DOUBLE, &v, dst); }
uint16_t Bf16Bits(float f, int src = ge::DT_FLOAT)
{
    return src == ge::DT_FLOAT ? Convert<uint16_t>(src, &f, ge::DT_BF16) : 0;
}

void CheckConversions()
{
    // which dtypes are modelled, and their element sizes
    const int known[] = {0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 27};
    const int sizes[] = {4, 2, 1, 4, 1, 2, 2, 4, 8, 8, 8, 1, 2};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        CHECK(mg_cast_supported(known[i]) == 1);
        CHECK(mg_cast_elem_size(known[i]) == sizes[i]);
    }
    for (int t : {5, 13, 16, 17, 18, 28, 33, -1}) {
        CHECK(mg_cast_supported(t) == 0);
        CHECK(mg_cast_elem_size(t) == 0);
    }
    double d = 1.0;
    unsigned char sink[8] = {0};
    CHECK(mg_convert_values(ge::DT_DOUBLE, &d, 16, sink, 1) == -1);
    CHECK(mg_convert_values(16, &d, ge::DT_FLOAT, sink, 1) == -1);
    // n <= 0 writes nothing and succeeds
    std::memset(sink, 0x11, sizeof sink);
    CHECK(mg_convert_values(ge::DT_DOUBLE, &d, ge::DT_FLOAT, sink, 0) == 0 && sink[0] == 0x11 && sink[3] == 0x11);
    CHECK(mg_convert_values(ge::DT_DOUBLE, &d, ge::DT_FLOAT, sink, -3) == 0 && sink[0] == 0x11);

    // integer targets: truncation toward zero, saturation at each bound, NaN -> 0
    CHECK(FromDouble<int8_t>(127.9, ge::DT_INT8) == 127);
    CHECK(FromDouble<int8_t>(128.0, ge::DT_INT8) == 127);
    CHECK(FromDouble<int8_t>(-128.9, ge::DT_INT8) == -128);
    CHECK(FromDouble<int8_t>(-129.0, ge::DT_INT8) == -128);
    CHECK(FromDouble<int8_t>(-5.7, ge::DT_INT8) == -5);
    CHECK(FromDouble<int8_t>(NAN, ge::DT_INT8) == 0);
    CHECK(FromDouble<uint8_t>(255.5, ge::DT_UINT8) == 255);
    CHECK(FromDouble<uint8_t>(256.0, ge::DT_UINT8) == 255);
    CHECK(FromDouble<uint8_t>(-1.0, ge::DT_UINT8) == 0);
    CHECK(FromDouble<uint8_t>(-0.5, ge::DT_UINT8) == 0);
    CHECK(FromDouble<uint8_t>(200.7, ge::DT_UINT8) == 200);
    CHECK(FromDouble<int16_t>(32767.5, ge::DT_INT16) == 32767);
    CHECK(FromDouble<int16_t>(40000.0, ge::DT_INT16) == 32767);
    CHECK(FromDouble<int16_t>(-32768.5, ge::DT_INT16) == -32768);
    CHECK(FromDouble<int16_t>(-40000.0, ge::DT_INT16) == -32768);
    CHECK(FromDouble<int16_t>(-300.2, ge::DT_INT16) == -300);
    CHECK(FromDouble<uint16_t>(65535.9, ge::DT_UINT16) == 65535);
    CHECK(FromDouble<uint16_t>(70000.0, ge::DT_UINT16) == 65535);
    CHECK(FromDouble<uint16_t>(-2.0, ge::DT_UINT16) == 0);
    CHECK(FromDouble<uint16_t>(40000.2, ge::DT_UINT16) == 40000);
    CHECK(FromDouble<int32_t>(2147483647.5, ge::DT_INT32) == 2147483647);
    CHECK(FromDouble<int32_t>(3e9, ge::DT_INT32) == 2147483647);
    CHECK(FromDouble<int32_t>(-2147483648.5, ge::DT_INT32) == INT32_MIN);
    CHECK(FromDouble<int32_t>(-3e9, ge::DT_INT32) == INT32_MIN);
    CHECK(FromDouble<int32_t>(-123456.9, ge::DT_INT32) == -123456);
    CHECK(FromDouble<int32_t>(NAN, ge::DT_INT32) == 0);
    CHECK(FromDouble<uint32_t>(4294967295.5, ge::DT_UINT32) == 4294967295u);
    CHECK(FromDouble<uint32_t>(5e9, ge::DT_UINT32) == 4294967295u);
    CHECK(FromDouble<uint32_t>(-7.0, ge::DT_UINT32) == 0u);
    CHECK(FromDouble<uint32_t>(3000000000.7, ge::DT_UINT32) == 3000000000u);
    CHECK(FromDouble<int64_t>(1e19, ge::DT_INT64) == INT64_C(9223372036854774784));
    CHECK(FromDouble<int64_t>(-1e19, ge::DT_INT64) == INT64_MIN);
    CHECK(FromDouble<int64_t>(-9007199254740993.0, ge::DT_INT64) == INT64_C(-9007199254740992));
    CHECK(FromDouble<int64_t>(NAN, ge::DT_INT64) == 0);
    CHECK(FromDouble<uint64_t>(2e19, ge::DT_UINT64) == UINT64_C(18446744073709549568));
    CHECK(FromDouble<uint64_t>(-1.0, ge::DT_UINT64) == 0u);
    CHECK(FromDouble<uint64_t>(1e19, ge::DT_UINT64) == UINT64_C(10000000000000000000));
    CHECK(FromDouble<uint8_t>(0.5, ge::DT_BOOL) == 1);
    CHECK(FromDouble<uint8_t>(-0.0, ge::DT_BOOL) == 0);
    CHECK(FromDouble<uint8_t>(0.0, ge::DT_BOOL) == 0);
    CHECK(FromDouble<uint8_t>(-3.0, ge::DT_BOOL) == 1);
    // floating targets
    CHECK(FromDouble<double>(0.1, ge::DT_DOUBLE) == 0.1);
    CHECK(FromDouble<float>(0.1, ge::DT_FLOAT) == 0.1f);
    CHECK(FromDouble<aclFloat16>(0.1, ge::DT_FLOAT16) == aclFloatToFloat16(0.1f));
    CHECK(FromDouble<aclFloat16>(-65504.0, ge::DT_FLOAT16) == aclFloatToFloat16(-65504.0f));
    // bfloat16: the upper half of the float, rounded to nearest even; a NaN stays quiet
    CHECK(Bf16Bits(1.0f) == 0x3f80);
    CHECK(Bf16Bits(-2.5f) == 0xc020);
    auto bits = [](uint32_t w) {
        float f;
        std::memcpy(&f, &w, 4);
        return f;
    };
    CHECK(Bf16Bits(bits(0x3f808000u)) == 0x3f80); // a tie, even below: stays
    CHECK(Bf16Bits(bits(0x3f818000u)) == 0x3f82); // a tie, odd below: up
    CHECK(Bf16Bits(bits(0x3f808001u)) == 0x3f81); // above the tie: up
    CHECK(Bf16Bits(bits(0x3f807fffu)) == 0x3f80); // below the tie: down
    CHECK(Bf16Bits(bits(0x7f800001u)) == 0x7fc0); // a signalling NaN: quiet
    CHECK(Bf16Bits(bits(0xff800000u)) == 0xff80); // -inf kept
    // sources: each dtype read as its value (through double), to int64 or double
    {
        const int8_t i8 = -100;
        const uint8_t u8 = 250;
        const int16_t i16 = -30000;
        const uint16_t u16 = 60000;
        const int32_t i32 = -2000000000;
        const uint32_t u32 = 4000000000u;
        const int64_t i64 = -(INT64_C(1) << 40) - 3;
        const uint64_t u64 = UINT64_C(1) << 63;
        const uint16_t bf = 0xc0a0; // -5.0
        const uint8_t b = 7;
        const double f64 = -0.375;
        CHECK(Convert<double>(ge::DT_INT8, &i8, ge::DT_DOUBLE) == -100.0);
        CHECK(Convert<double>(ge::DT_UINT8, &u8, ge::DT_DOUBLE) == 250.0);
        CHECK(Convert<double>(ge::DT_INT16, &i16, ge::DT_DOUBLE) == -30000.0);
        CHECK(Convert<double>(ge::DT_UINT16, &u16, ge::DT_DOUBLE) == 60000.0);
        CHECK(Convert<double>(ge::DT_INT32, &i32, ge::DT_DOUBLE) == -2000000000.0);
        CHECK(Convert<double>(ge::DT_UINT32, &u32, ge::DT_DOUBLE) == 4000000000.0);
        CHECK(Convert<double>(ge::DT_INT64, &i64, ge::DT_DOUBLE) == -1099511627779.0);
        CHECK(Convert<double>(ge::DT_UINT64, &u64, ge::DT_DOUBLE) == 9223372036854775808.0);
        CHECK(Convert<double>(ge::DT_BF16, &bf, ge::DT_DOUBLE) == -5.0);
        CHECK(Convert<double>(ge::DT_BOOL, &b, ge::DT_DOUBLE) == 1.0);
        CHECK(Convert<float>(ge::DT_DOUBLE, &f64, ge::DT_FLOAT) == -0.375f);
        CHECK(Convert<int64_t>(ge::DT_UINT32, &u32, ge::DT_INT64) == INT64_C(4000000000));
        CHECK(Convert<uint8_t>(ge::DT_INT16, &i16, ge::DT_UINT8) == 0);
        CHECK(Convert<int8_t>(ge::DT_UINT8, &u8, ge::DT_INT8) == 127);
        // the same dtype is copied bit for bit, also beyond 2^53
        const int64_t big[3] = {(INT64_C(1) << 60) + 1, -1, 3};
        int64_t out[3] = {0, 0, 0};
        CHECK(mg_convert_values(ge::DT_INT64, big, ge::DT_INT64, out, 3) == 0);
        CHECK(out[0] == big[0] && out[1] == -1 && out[2] == 3);
        // several elements: each at its own offset
        const int16_t many[4] = {1, -2, 300, -32768};
        float f[4] = {0, 0, 0, 0};
        CHECK(mg_convert_values(ge::DT_INT16, many, ge::DT_FLOAT, f, 4) == 0);
        CHECK(f[0] == 1.0f && f[1] == -2.0f && f[2] == 300.0f && f[3] == -32768.0f);
    }

    // the steps
    {
        const float src[5] = {1.5f, -2.0f, 3.25f, 0.0f, 1e30f};
        float dst[5] = {0};
        mg_muls_params m{5, ge::DT_FLOAT, -0.5f};
        void *bufs[2] = {const_cast<float *>(src), dst};
        CHECK(mg_muls_step(&m, bufs) == 0);
        for (int i = 0; i < 5; i++) CHECK(dst[i] == src[i] * -0.5f);
        const uint16_t bsrc[3] = {0x3f80, 0xc020, 0x4000}; // 1, -2.5, 2 in bfloat16
        uint16_t bdst[3] = {0, 0, 0};
        mg_muls_params mb{3, ge::DT_BF16, 3.0f};
        void *bb[2] = {const_cast<uint16_t *>(bsrc), bdst};
        CHECK(mg_muls_step(&mb, bb) == 0);
        CHECK(bdst[0] == 0x4040 && bdst[1] == 0xc0f0 && bdst[2] == 0x40c0); // 3, -7.5, 6
        CHECK(mg_muls_supported(ge::DT_FLOAT) && mg_muls_supported(ge::DT_FLOAT16) && mg_muls_supported(ge::DT_BF16));
        CHECK(!mg_muls_supported(ge::DT_DOUBLE) && !mg_muls_supported(ge::DT_INT32));
        // a cast step of several int32 to int8 (saturating) and float16
        const int32_t is[3] = {5, 1000, -1000};
        int8_t os[3] = {0, 0, 0};
        mg_cast_params c{3, ge::DT_INT32, ge::DT_INT8};
        void *cb[2] = {const_cast<int32_t *>(is), os};
        CHECK(mg_cast_step(&c, cb) == 0);
        CHECK(os[0] == 5 && os[1] == 127 && os[2] == -128);
        // every source dtype read by the cast step, widened to double exactly; a bool byte
        // other than 0 is true
        struct Source {
            ge::DataType t;
            unsigned char bytes[24];
            int n;
            double want[3];
        };
        auto source = [](ge::DataType t, const void *v, size_t size, int n, std::initializer_list<double> want) {
            Source src{t, {0}, n, {0, 0, 0}};
            std::memcpy(src.bytes, v, size);
            std::copy(want.begin(), want.end(), src.want);
            return src;
        };
        const float sf[2] = {-1.75f, 3.0f};
        const aclFloat16 sh[2] = {aclFloatToFloat16(0.5f), aclFloatToFloat16(-2.0f)};
        const uint16_t sbf[2] = {0x4110, 0xc020}; // 9, -2.5
        const double sd[2] = {1e300, -0.5};
        const int8_t si8[2] = {-9, 127};
        const uint8_t su8[2] = {200, 0}, sbool[3] = {0, 1, 2};
        const int16_t si16[2] = {-1234, 32767};
        const uint16_t su16[2] = {65535, 1};
        const int32_t si32[2] = {-70000, 5};
        const uint32_t su32[2] = {4000000000u, 7};
        const int64_t si64[2] = {-(INT64_C(1) << 50), 3};
        const uint64_t su64[2] = {UINT64_C(1) << 60, 9};
        const Source sources[] = {
            source(ge::DT_FLOAT, sf, sizeof sf, 2, {-1.75, 3.0}),
            source(ge::DT_FLOAT16, sh, sizeof sh, 2, {0.5, -2.0}),
            source(ge::DT_BF16, sbf, sizeof sbf, 2, {9.0, -2.5}),
            source(ge::DT_DOUBLE, sd, sizeof sd, 2, {1e300, -0.5}),
            source(ge::DT_INT8, si8, sizeof si8, 2, {-9.0, 127.0}),
            source(ge::DT_UINT8, su8, sizeof su8, 2, {200.0, 0.0}),
            source(ge::DT_BOOL, sbool, sizeof sbool, 3, {0.0, 1.0, 1.0}),
            source(ge::DT_INT16, si16, sizeof si16, 2, {-1234.0, 32767.0}),
            source(ge::DT_UINT16, su16, sizeof su16, 2, {65535.0, 1.0}),
            source(ge::DT_INT32, si32, sizeof si32, 2, {-70000.0, 5.0}),
            source(ge::DT_UINT32, su32, sizeof su32, 2, {4000000000.0, 7.0}),
            source(ge::DT_INT64, si64, sizeof si64, 2, {-1125899906842624.0, 3.0}),
            source(ge::DT_UINT64, su64, sizeof su64, 2, {1152921504606846976.0, 9.0}),
        };
        for (const Source &src : sources) {
            double wide[3] = {-7, -7, -7};
            mg_cast_params to_double{src.n, src.t, ge::DT_DOUBLE};
            void *wb[2] = {const_cast<unsigned char *>(src.bytes), wide};
            CHECK(mg_cast_step(&to_double, wb) == 0);
            for (int i = 0; i < src.n; i++)
                if (wide[i] != src.want[i])
                    std::fprintf(stderr, "  cast of dtype %d element %d: %.17g, expected %.17g\n", static_cast<int>(src.t),
                                 i, wide[i], src.want[i]);
            for (int i = 0; i < src.n; i++) CHECK(wide[i] == src.want[i]);
        }
        // every destination dtype written from double: integers truncated toward zero and
        // saturated at both ends of their range (the 64-bit ones at the last double inside
        // it), NaN to 0 (and true); floats rounded, out of range to infinity
        const double from[5] = {-1e300, 1e300, -2.75, 2.75, NAN};
        const int8_t e_i8[5] = {-128, 127, -2, 2, 0};
        const uint8_t e_u8[5] = {0, 255, 0, 2, 0}, e_bool[5] = {1, 1, 1, 1, 1};
        const int16_t e_i16[5] = {-32768, 32767, -2, 2, 0};
        const uint16_t e_u16[5] = {0, 65535, 0, 2, 0};
        const int32_t e_i32[5] = {INT32_MIN, INT32_MAX, -2, 2, 0};
        const uint32_t e_u32[5] = {0, UINT32_MAX, 0, 2, 0};
        const int64_t e_i64[5] = {INT64_MIN, INT64_C(9223372036854774784), -2, 2, 0};
        const uint64_t e_u64[5] = {0, UINT64_C(18446744073709549568), 0, 2, 0};
        const float e_f32[4] = {-INFINITY, INFINITY, -2.75f, 2.75f};
        const uint16_t e_f16[4] = {0xfc00, 0x7c00, 0xc180, 0x4180}, e_bf16[4] = {0xff80, 0x7f80, 0xc030, 0x4030};
        const double e_f64[4] = {-1e300, 1e300, -2.75, 2.75};
        struct Destination {
            ge::DataType t;
            const void *want;
            size_t size;
            int compared; // elements compared byte for byte; a float's NaN is checked apart
        } destinations[] = {
            {ge::DT_INT8, e_i8, 1, 5},    {ge::DT_UINT8, e_u8, 1, 5},    {ge::DT_BOOL, e_bool, 1, 5},
            {ge::DT_INT16, e_i16, 2, 5},  {ge::DT_UINT16, e_u16, 2, 5},  {ge::DT_INT32, e_i32, 4, 5},
            {ge::DT_UINT32, e_u32, 4, 5}, {ge::DT_INT64, e_i64, 8, 5},   {ge::DT_UINT64, e_u64, 8, 5},
            {ge::DT_FLOAT, e_f32, 4, 4},  {ge::DT_FLOAT16, e_f16, 2, 4}, {ge::DT_BF16, e_bf16, 2, 4},
            {ge::DT_DOUBLE, e_f64, 8, 4},
        };
        for (const Destination &d : destinations) {
            unsigned char out[48];
            std::memset(out, 0xa5, sizeof out);
            mg_cast_params to{5, ge::DT_DOUBLE, d.t};
            void *ob[2] = {const_cast<double *>(from), out};
            CHECK(mg_cast_step(&to, ob) == 0);
            const bool same = std::memcmp(out, d.want, d.size * static_cast<size_t>(d.compared)) == 0;
            if (!same) {
                std::fprintf(stderr, "  cast of double to dtype %d, bytes:", static_cast<int>(d.t));
                for (size_t k = 0; k < 5 * d.size; k++) std::fprintf(stderr, " %02x", out[k]);
                std::fprintf(stderr, "\n");
            }
            CHECK(same);
            if (d.compared == 4) {
                double back = 0;
                mg_cast_params widen{1, d.t, ge::DT_DOUBLE};
                void *wb[2] = {out + 4 * d.size, &back};
                CHECK(mg_cast_step(&widen, wb) == 0);
                CHECK(std::isnan(back));
            }
            CHECK(out[5 * d.size] == 0xa5); // nothing past the fifth element
            // and one element at a time: a compiler may convert a run of elements with
            // saturating vector instructions and a lone one with a scalar conversion
            for (int i = 0; i < d.compared; i++) {
                unsigned char one[8];
                mg_cast_params single{1, ge::DT_DOUBLE, d.t};
                void *sb[2] = {const_cast<double *>(&from[i]), one};
                CHECK(mg_cast_step(&single, sb) == 0);
                const bool alike = std::memcmp(one, static_cast<const unsigned char *>(d.want) + i * d.size, d.size) == 0;
                if (!alike) std::fprintf(stderr, "  cast of double %g alone to dtype %d: not the expected bytes\n", from[i],
                                         static_cast<int>(d.t));
                CHECK(alike);
            }
        }
        // float16 and bfloat16 targets rounded once from the double, to nearest even: ties,
        // the subnormals, the edge of infinity, and a double just above a tie that a detour
        // through float would have rounded down
        struct Narrow {
            ge::DataType t;
            double v;
            uint16_t want;
        } narrows[] = {
            {ge::DT_FLOAT16, 2049.0, 0x6800},            {ge::DT_FLOAT16, 2051.0, 0x6802},
            {ge::DT_FLOAT16, std::ldexp(1.0, -24), 0x0001}, {ge::DT_FLOAT16, std::ldexp(1.0, -25), 0x0000},
            {ge::DT_FLOAT16, std::ldexp(3.0, -25), 0x0002}, {ge::DT_FLOAT16, -std::ldexp(1023.5, -24), 0x8400},
            {ge::DT_FLOAT16, 65504.0, 0x7bff},           {ge::DT_FLOAT16, 65519.99, 0x7bff},
            {ge::DT_FLOAT16, 65520.0, 0x7c00},           {ge::DT_FLOAT16, -0.0, 0x8000},
            {ge::DT_FLOAT16, 70000.0, 0x7c00},           {ge::DT_BF16, -4e38, 0xff80},
            {ge::DT_FLOAT16, 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30), 0x3c01},
            {ge::DT_BF16, 1.0 + std::ldexp(1.0, -8), 0x3f80}, {ge::DT_BF16, 1.0 + std::ldexp(3.0, -8), 0x3f82},
            {ge::DT_BF16, std::ldexp(1.0, -133), 0x0001},    {ge::DT_BF16, std::ldexp(127.5, -133), 0x0080},
            {ge::DT_BF16, 3.4e38, 0x7f80},                   {ge::DT_BF16, -3.38e38, 0xff7e},
            {ge::DT_BF16, 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40), 0x3f81},
        };
        for (const Narrow &n : narrows) {
            uint16_t got = 0x5a5a;
            mg_cast_params to{1, ge::DT_DOUBLE, n.t};
            void *nb[2] = {const_cast<double *>(&n.v), &got};
            CHECK(mg_cast_step(&to, nb) == 0);
            if (got != n.want)
                std::fprintf(stderr, "  %a to dtype %d: 0x%04x, expected 0x%04x\n", n.v, static_cast<int>(n.t), got, n.want);
            CHECK(got == n.want);
        }
        // float16 sources are IEEE: infinities and NaN, and every finite pattern as the
        // runtime's aclFloat16ToFloat reads it (the two agree below exponent 31); every float
        // in float16's range to float16 as aclFloatToFloat16 rounds it (sampled)
        {
            std::vector<uint16_t> all(65536);
            for (int i = 0; i < 65536; i++) all[static_cast<size_t>(i)] = static_cast<uint16_t>(i);
            std::vector<double> wide(65536);
            mg_cast_params from_half{65536, ge::DT_FLOAT16, ge::DT_DOUBLE};
            void *hb[2] = {all.data(), wide.data()};
            CHECK(mg_cast_step(&from_half, hb) == 0);
            int wrong = 0;
            for (int i = 0; i < 65536; i++) {
                const double w = wide[static_cast<size_t>(i)];
                const int exponent = (i >> 10) & 0x1f, fraction = i & 0x3ff;
                const bool ok = exponent != 31 ? w == static_cast<double>(aclFloat16ToFloat(static_cast<aclFloat16>(i)))
                                : fraction == 0 ? w == ((i & 0x8000) ? -INFINITY : INFINITY)
                                                : std::isnan(w);
                if (!ok && wrong++ < 3) std::fprintf(stderr, "  float16 0x%04x read as %a\n", i, w);
            }
            CHECK(wrong == 0);
            std::vector<float> floats;
            for (uint32_t bits = 0; bits < 0x477ff000u; bits += 4093u) {
                float f;
                std::memcpy(&f, &bits, 4);
                floats.push_back(f);
                floats.push_back(-f);
            }
            std::vector<uint16_t> halves(floats.size());
            mg_cast_params to_half{static_cast<int64_t>(floats.size()), ge::DT_FLOAT, ge::DT_FLOAT16};
            void *fb[2] = {floats.data(), halves.data()};
            CHECK(mg_cast_step(&to_half, fb) == 0);
            wrong = 0;
            for (size_t i = 0; i < floats.size(); i++)
                if (halves[i] != static_cast<uint16_t>(aclFloatToFloat16(floats[i])) && wrong++ < 3)
                    std::fprintf(stderr, "  %a to float16: 0x%04x, aclFloatToFloat16 0x%04x\n", floats[i], halves[i],
                                 static_cast<unsigned>(aclFloatToFloat16(floats[i])));
            CHECK(wrong == 0);
        }
    }
    {
        // broadcast [2,1,3] -> [2,4,3] with the odometer over the output
        const int32_t src[6] = {1, 2, 3, 4, 5, 6};
        int32_t dst[24] = {0};
        mg_broadcast_params p;
        std::memset(&p, 0, sizeof p);
        p.rank = 3;
        p.elem_size = 4;
        p.numel = 24;
        p.dims[0] = 2, p.dims[1] = 4, p.dims[2] = 3;
        p.in_strides[0] = 3, p.in_strides[1] = 0, p.in_strides[2] = 1;
        void *bufs[2] = {const_cast<int32_t *>(src), dst};
        CHECK(mg_broadcast_step(&p, bufs) == 0);
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 4; j++)
                for (int k = 0; k < 3; k++) CHECK(dst[i * 12 + j * 3 + k] == src[i * 3 + k]);
        // [3,1] -> [3,2]: the repeated dim is the last
        int32_t d2[6] = {0};
        std::memset(&p, 0, sizeof p);
        p.rank = 2, p.elem_size = 4, p.numel = 6, p.dims[0] = 3, p.dims[1] = 2, p.in_strides[0] = 1;
        void *b2[2] = {const_cast<int32_t *>(src), d2};
        CHECK(mg_broadcast_step(&p, b2) == 0);
        const int32_t want2[6] = {1, 1, 2, 2, 3, 3};
        CHECK(std::memcmp(d2, want2, sizeof want2) == 0);
    }
    {
        mg_fill_params f;
        std::memset(&f, 0, sizeof f);
        f.n = 3, f.elem_size = 2, f.value[0] = 0x34, f.value[1] = 0x12;
        uint16_t dst[4] = {0, 0, 0, 0x5555};
        void *b[1] = {dst};
        CHECK(mg_fill_step(&f, b) == 0);
        CHECK(dst[0] == 0x1234 && dst[1] == 0x1234 && dst[2] == 0x1234 && dst[3] == 0x5555);
        const uint32_t v = 0xdeadbeef;
        uint32_t d2[3] = {0, 0, 7};
        f.n = 2, f.elem_size = 4, f.from_buffer = 1;
        void *b2[2] = {const_cast<uint32_t *>(&v), d2};
        CHECK(mg_fill_step(&f, b2) == 0);
        CHECK(d2[0] == v && d2[1] == v && d2[2] == 7);
        mg_const_params c;
        c.nbytes = 3;
        c.bytes[0] = 9, c.bytes[1] = 8, c.bytes[2] = 7, c.bytes[3] = 6;
        unsigned char out[4] = {0, 0, 0, 0};
        void *b3[1] = {out};
        CHECK(mg_const_step(&c, b3) == 0);
        CHECK(out[0] == 9 && out[1] == 8 && out[2] == 7 && out[3] == 0);
    }
}

// ---- CollapseView (tensor.cpp) ----
bool Collapse(std::vector<int64_t> dims, std::vector<int64_t> strides, const std::vector<int64_t> &wd,
              const std::vector<int64_t> &ws, bool fits = true)
{
    const bool ok = mg::CollapseView(&dims, &strides);
    return ok == fits && dims == wd && strides == ws;
}
void CheckCollapse()
{
    CHECK(Collapse({2, 3, 4}, {12, 4, 1}, {24}, {1}));
    CHECK(Collapse({2, 1, 3}, {3, 3, 1}, {6}, {1}));
    CHECK(Collapse({1, 1, 1}, {5, 5, 5}, {1}, {1}));
    CHECK(Collapse({3, 0, 2}, {2, 2, 1}, {0}, {1}));
    CHECK(Collapse({2, 3}, {1, 2}, {2, 3}, {1, 2}));          // column-major: no merge
    CHECK(Collapse({4, 3}, {6, 2}, {12}, {2}));                // a stride-2 run merges
    CHECK(Collapse({4, 3}, {7, 2}, {4, 3}, {7, 2}));           // a gap: no merge
    std::vector<int64_t> nine(9, 2), col(9);
    for (int i = 0; i < 9; i++) col[static_cast<size_t>(i)] = int64_t(1) << i;
    CHECK(Collapse(nine, col, nine, col, false));               // 9 dims left: does not fit
    std::vector<int64_t> eight(8, 2), col8(col.begin(), col.begin() + 8);
    CHECK(Collapse(eight, col8, eight, col8, true));            // 8 dims fit
}

// ---- the tensor, scalar and int array accessors (tensor.cpp) ----
void CheckAccessors()
{
    std::vector<float> storage(64, 0.0f);
    int64_t view[2] = {2, 3}, strides[2] = {1, 2}, st[1] = {40};
    aclTensor *t = aclCreateTensor(view, 2, ACL_BF16, strides, 5, ACL_FORMAT_NCHW, st, 1, storage.data());
    CHECK(t->GetDataType() == DataType::DT_BF16);
    CHECK(t->GetStorageFormat() == Format::FORMAT_NCHW);
    CHECK(t->GetViewShape().GetDimNum() == 2 && t->GetViewShape().GetDim(0) == 2 && t->GetViewShape().GetDim(1) == 3);
    CHECK(t->GetStorageShape().GetDimNum() == 1 && t->GetStorageShape().GetDim(0) == 40);
    CHECK(t->GetViewStrides().size() == 2 && t->GetViewStrides()[0] == 1 && t->GetViewStrides()[1] == 2);
    CHECK(t->GetViewOffset() == 5);
    CHECK(t->GetData() == storage.data());
    CHECK(t->Size() == 6);
    CHECK(!IsContiguous(t));
    int64_t d3[3] = {1, 4, 1}, s3[3] = {99, 1, 77};
    aclTensor *ones = aclCreateTensor(d3, 3, ACL_FLOAT, s3, 0, ACL_FORMAT_ND, d3, 3, storage.data());
    CHECK(IsContiguous(ones)); // size-1 dims step anywhere
    int64_t s3b[3] = {4, 2, 1};
    aclTensor *gap = aclCreateTensor(d3, 3, ACL_FLOAT, s3b, 0, ACL_FORMAT_ND, d3, 3, storage.data());
    CHECK(!IsContiguous(gap));
    int64_t d2[2] = {3, 2}, s2[2] = {2, 1};
    aclTensor *dense = aclCreateTensor(d2, 2, ACL_FLOAT, s2, 0, ACL_FORMAT_ND, d2, 2, storage.data());
    CHECK(IsContiguous(dense));
    int64_t s2b[2] = {3, 1};
    aclTensor *pitched = aclCreateTensor(d2, 2, ACL_FLOAT, s2b, 0, ACL_FORMAT_ND, d2, 2, storage.data());
    CHECK(!IsContiguous(pitched));
    // a NULL tensor reads as empty
    const aclTensor *none = nullptr;
    CHECK(!IsContiguous(none));
    aclDestroyTensor(t);
    aclDestroyTensor(ones);
    aclDestroyTensor(gap);
    aclDestroyTensor(dense);
    aclDestroyTensor(pitched);

    // aclScalar::ToDouble and GetDataType, every dtype it reads
    struct S {
        aclDataType t;
        unsigned char bytes[8];
        double want;
    };
    auto make = [](aclDataType type, const void *v, size_t n) {
        S s;
        s.t = type;
        std::memset(s.bytes, 0, sizeof s.bytes);
        std::memcpy(s.bytes, v, n);
        s.want = 0;
        return s;
    };
    const float f = -1.75f;
    const double dd = 1e300;
    const aclFloat16 h = aclFloatToFloat16(0.5f);
    const uint16_t bf = 0x4110; // 9.0
    const int8_t i8 = -9;
    const uint8_t u8 = 200, bl = 1;
    const int16_t i16 = -1234;
    const int32_t i32 = -70000;
    const int64_t i64 = -(INT64_C(1) << 50);
    std::vector<S> cases = {make(ACL_FLOAT, &f, 4),   make(ACL_DOUBLE, &dd, 8), make(ACL_FLOAT16, &h, 2),
                            make(ACL_BF16, &bf, 2),   make(ACL_INT8, &i8, 1),   make(ACL_UINT8, &u8, 1),
                            make(ACL_BOOL, &bl, 1),   make(ACL_INT16, &i16, 2), make(ACL_INT32, &i32, 4),
                            make(ACL_INT64, &i64, 8)};
    const double want[] = {-1.75, 1e300, 0.5, 9.0, -9.0, 200.0, 1.0, -1234.0, -70000.0, -1125899906842624.0};
    for (size_t i = 0; i < cases.size(); i++) {
        aclScalar *s = aclCreateScalar(cases[i].bytes, cases[i].t);
        CHECK(s != nullptr);
        if (s == nullptr) continue;
        CHECK(s->ToDouble() == want[i]);
        CHECK(s->GetDataType() == static_cast<DataType>(cases[i].t));
        aclDestroyScalar(s);
    }
    const uint32_t u32 = 7;
    aclScalar *s32 = aclCreateScalar(const_cast<uint32_t *>(&u32), ACL_UINT32);
    if (s32 != nullptr) {
        CHECK(s32->ToDouble() == 0.0); // not a type ToDouble reads
        aclDestroyScalar(s32);
    }

    const int64_t values[4] = {7, -8, 9, 10};
    aclIntArray *a = aclCreateIntArray(values, 4);
    CHECK(a->Size() == 4 && a->ToVector() == std::vector<int64_t>({7, -8, 9, 10}));
    CHECK((*a)[0] == 7 && (*a)[3] == 10 && (*a)[4] == 0 && (*a)[100] == 0);
    aclIntArray *empty = aclCreateIntArray(values, 0);
    if (empty != nullptr) {
        CHECK(empty->Size() == 0 && empty->ToVector().empty() && (*empty)[0] == 0);
        aclDestroyIntArray(empty);
    }
    aclDestroyIntArray(a);
}

// ---- nothing leaks: the dims and strides opdev copies out of libnnopbase are freed (the heap
// in use after 20000 calls of each is what it was, within a margin far below what 20000
// forgotten frees would keep) ----
void CheckNoLeaks()
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    std::vector<float> storage(1024, 0.0f);
    int64_t d9[9] = {1, 2, 1, 1, 1, 1, 1, 1, 3}, s9[9] = {6, 3, 3, 3, 3, 3, 3, 3, 1};
    aclTensor *t = aclCreateTensor(d9, 9, ACL_FLOAT, s9, 0, ACL_FORMAT_ND, d9, 9, storage.data());
    mg::DfxBegin("aclnnLeaks");
    auto in_use = [] { return mallinfo2().uordblks; };
    auto grows = [&](const char *what, auto f) {
        for (int i = 0; i < 100; i++) f(); // warm up (lazily made state)
        const size_t before = in_use();
        for (int i = 0; i < 20000; i++) f();
        const size_t after = in_use();
        const bool ok = after < before + 64 * 1024;
        if (!ok) std::fprintf(stderr, "  %s: the heap in use grew by %zu bytes\n", what, after - before);
        return ok;
    };
    CHECK(grows("CheckMaxDim", [&] { (void)mg::CheckMaxDim(t, "t", 9); }));
    CHECK(grows("GetStorageShape", [&] { (void)t->GetStorageShape(); }));
    CHECK(grows("GetViewShape of 9 dims", [&] { (void)t->GetViewShape(); }));
    CHECK(grows("IsContiguous of 9 dims", [&] { (void)IsContiguous(t); }));
    CHECK(grows("FullView", [&] {
        std::vector<int64_t> d, st;
        (void)mg::FullView(t, &d, &st);
    }));
    aclDestroyTensor(t);
#endif // mallinfo2: glibc 2.33 on (elsewhere the sanitizer builds' leak checks cover it)
}

// ---- every rule of op_error_check.h (checks.cpp): status, message ----
void CheckRules()
{
    mg::DfxBegin("aclnnUnits");
    float storage[64] = {0};
    int64_t d23[2] = {2, 3}, s23[2] = {3, 1}, d3[1] = {3}, s1[1] = {1}, d9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 2},
            s9[9] = {2, 2, 2, 2, 2, 2, 2, 2, 1};
    aclTensor *self = aclCreateTensor(d23, 2, ACL_FLOAT, s23, 0, ACL_FORMAT_ND, d23, 2, storage);
    aclTensor *other = aclCreateTensor(d3, 1, ACL_FLOAT16, s1, 0, ACL_FORMAT_ND, d3, 1, storage);
    aclTensor *big = aclCreateTensor(d9, 9, ACL_FLOAT, s9, 0, ACL_FORMAT_ND, d9, 9, storage);
    int64_t d4[1] = {4};
    aclTensor *four = aclCreateTensor(d4, 1, ACL_FLOAT, s1, 0, ACL_FORMAT_ND, d4, 1, storage);
    const void *p = nullptr;
    const void *q = storage;

    CHECK(mg::CheckNull(q, "q"));
    EXPECT_FAIL(CHECK(!mg::CheckNull(p, "p")), ACLNN_ERR_PARAM_NULLPTR,
                "aclnnUnits: expected a proper value but got null for argument p");
    CHECK(mg::CheckNull(self, "self"));
    CHECK(!mg::CheckNull(static_cast<const aclTensor *>(nullptr), "self"));
    CHECK(Has(Recent(), "self"));

    CHECK(mg::CheckDtypeSupported(self, "self", {DataType::DT_FLOAT16, DataType::DT_FLOAT}));
    EXPECT_FAIL(CHECK(!mg::CheckDtypeSupported(self, "self", {DataType::DT_FLOAT16, DataType::DT_BF16,
                                                               DataType::DT_INT32})),
                ACLNN_ERR_PARAM_INVALID,
                "aclnnUnits: self has dtype DT_FLOAT, which is not supported; supported: [DT_FLOAT16, DT_BF16, "
                "DT_INT32]");
    EXPECT_FAIL(CHECK(!mg::CheckDtypeSupported(self, "self", {})), ACLNN_ERR_PARAM_INVALID,
                "aclnnUnits: self has dtype DT_FLOAT, which is not supported; supported: []");

    CHECK(mg::CheckDtypeMatch(self, "self", DataType::DT_FLOAT));
    EXPECT_FAIL(CHECK(!mg::CheckDtypeMatch(self, "self", DataType::DT_INT64)), ACLNN_ERR_PARAM_INVALID,
                "aclnnUnits: self has dtype DT_FLOAT, expected DT_INT64");
    CHECK(mg::CheckDtypeSame(self, "self", four, "four"));
    EXPECT_FAIL(CHECK(!mg::CheckDtypeSame(self, "self", other, "other")), ACLNN_ERR_PARAM_INVALID,
                "aclnnUnits: self (DT_FLOAT) and other (DT_FLOAT16) must have the same dtype");

    CHECK(mg::CheckMaxDim(self, "self", 2) && mg::CheckMaxDim(self, "self", 3));
    EXPECT_FAIL(CHECK(!mg::CheckMaxDim(self, "self", 1)), ACLNN_ERR_PARAM_INVALID,
                "aclnnUnits: self has 2 dims, more than the 1 supported");
    CHECK(mg::CheckMaxDim(big, "big", 9));
    EXPECT_FAIL(CHECK(!mg::CheckMaxDim(big, "big", 8)), ACLNN_ERR_PARAM_INVALID,
                "aclnnUnits: big has 9 dims, more than the 8 supported");
    CHECK(mg::CheckMinDim(self, "self", 2) && mg::CheckMinDim(self, "self", 1));
    EXPECT_FAIL(CHECK(!mg::CheckMinDim(self, "self", 3)), ACLNN_ERR_PARAM_INVALID,
                "aclnnUnits: self has 2 dims, fewer than the 3 required");

    CHECK(mg::CheckShapeEqual(self, "self", self, "self2"));
    EXPECT_FAIL(CHECK(!mg::CheckShapeEqual(self, "self", other, "other")), ACLNN_ERR_PARAM_INVALID,
                "aclnnUnits: the shapes of self [2,3] and other [3] must be equal");
    CHECK(mg::CheckShapeExpected(self, "self", Shape{2, 3}));
    EXPECT_FAIL(CHECK(!mg::CheckShapeExpected(self, "self", Shape{3, 2})), ACLNN_ERR_PARAM_INVALID,
                "aclnnUnits: the shape of self is [2,3], expected [3,2]");

    CHECK(mg::CheckBroadcast(self, "self", other, "other"));
    EXPECT_FAIL(CHECK(!mg::CheckBroadcast(self, "self", four, "four")), ACLNN_ERR_PARAM_INVALID,
                "aclnnUnits: self [2,3] and four [4] cannot be broadcast together");
    Shape out;
    CHECK(mg::CheckBroadcastInfer(other, "other", self, "self", out) && out == Shape({2, 3}));
    EXPECT_FAIL(CHECK(!mg::CheckBroadcastInfer(four, "four", self, "self", out)), ACLNN_ERR_PARAM_INVALID,
                "aclnnUnits: four [4] and self [2,3] cannot be broadcast together");

    CHECK(mg::CheckDimension(self, "self", 2));
    EXPECT_FAIL(CHECK(!mg::CheckDimension(self, "self", 3)), ACLNN_ERR_PARAM_INVALID,
                "aclnnUnits: self has 2 dims, expected 3");
    EXPECT_FAIL(CHECK(!mg::CheckDimension(self, "self", 1)), ACLNN_ERR_PARAM_INVALID,
                "aclnnUnits: self has 2 dims, expected 1");

    const int32_t iv = 3;
    aclScalar *alpha = aclCreateScalar(const_cast<int32_t *>(&iv), ACL_INT32);
    CHECK(mg::CheckDtypeSupported(alpha, "alpha", {DataType::DT_FLOAT, DataType::DT_INT32}));
    EXPECT_FAIL(CHECK(!mg::CheckDtypeSupported(alpha, "alpha", {DataType::DT_FLOAT})), ACLNN_ERR_PARAM_INVALID,
                "aclnnUnits: alpha has dtype DT_INT32, which is not supported; supported: [DT_FLOAT]");
    aclDestroyScalar(alpha);

    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;
    CHECK(mg::CheckCommInput(&ws, &ex));
    EXPECT_FAIL(CHECK(!mg::CheckCommInput(nullptr, &ex)), ACLNN_ERR_PARAM_NULLPTR,
                "aclnnUnits: workspaceSize is NULL");
    EXPECT_FAIL(CHECK(!mg::CheckCommInput(&ws, nullptr)), ACLNN_ERR_PARAM_NULLPTR, "aclnnUnits: executor is NULL");
    EXPECT_FAIL(CHECK(!mg::CheckCommInput(nullptr, nullptr)), ACLNN_ERR_PARAM_NULLPTR,
                "aclnnUnits: workspaceSize is NULL");

    // DFX names: the name recorded for a tensor, "tensor" for any other
    mg::DfxName(self, "selfName", 4);
    CHECK(std::strcmp(mg::NameOf(self), "self") == 0);
    CHECK(std::strcmp(mg::NameOf(other), "tensor") == 0);
    mg::DfxName(nullptr, "x", 1); // ignored
    CHECK(std::strcmp(mg::CurrentApi(), "aclnnUnits") == 0);
    mg::DfxBegin("aclnnOther");
    CHECK(std::strcmp(mg::NameOf(self), "tensor") == 0); // a new API forgets the names

    aclDestroyTensor(self);
    aclDestroyTensor(other);
    aclDestroyTensor(big);
    aclDestroyTensor(four);
}

// ---- the executor: ConvertToTensor's limits, AllocTensor's forms, the l0 ops' refusals ----
void CheckExecutor(aclrtStream stream)
{
    mg::DfxBegin("aclnnExec");
    {
        UniqueExecutor u("x");
        aclOpExecutor *e = u.get();
        CHECK(e != nullptr);
        // 1000 bytes of host values: 250 floats, 125 int64 pass, one more does not
        std::vector<float> f(251, 1.0f);
        CHECK(e->ConvertToTensor(f.data(), 250, DataType::DT_FLOAT) != nullptr);
        EXPECT_FAIL(CHECK(e->ConvertToTensor(f.data(), 251, DataType::DT_FLOAT) == nullptr), ACLNN_ERR_INNER,
                    "aclnnExec: ConvertToTensor of 251 DT_FLOAT values (more than 1000 bytes) is not modelled");
        std::vector<int64_t> i(126, 2);
        CHECK(e->ConvertToTensor(i.data(), 125, DataType::DT_INT64) != nullptr);
        EXPECT_FAIL(CHECK(e->ConvertToTensor(i.data(), 126, DataType::DT_INT64) == nullptr), ACLNN_ERR_INNER,
                    "aclnnExec: ConvertToTensor of 126 DT_INT64 values (more than 1000 bytes) is not modelled");
        EXPECT_FAIL(CHECK(e->ConvertToTensor(i.data(), 2, DataType::DT_COMPLEX64) == nullptr), ACLNN_ERR_INNER,
                    "aclnnExec: ConvertToTensor from DT_INT64 to DT_COMPLEX64 is not modelled");
        const int64_t *none = nullptr;
        EXPECT_FAIL(CHECK(e->ConvertToTensor(none, 2, DataType::DT_INT64) == nullptr), ACLNN_ERR_INNER_NULLPTR,
                    "aclnnExec: ConvertToTensor without values or a live executor");
        // zero values: an empty tensor of shape [0]
        const aclTensor *z = e->ConvertToTensor(none, 0, DataType::DT_INT64);
        CHECK(z != nullptr && z->GetViewShape() == Shape({0}) && z->GetDataType() == DataType::DT_INT64);
        // the int array and scalar forms: shape [n] and a scalar (shape [])
        const int64_t v3[3] = {4, 5, 6};
        aclIntArray *arr = aclCreateIntArray(v3, 3);
        const aclTensor *ta = e->ConvertToTensor(arr, DataType::DT_INT32);
        CHECK(ta != nullptr && ta->GetViewShape() == Shape({3}) && ta->GetDataType() == DataType::DT_INT32);
        const std::vector<unsigned char> *hv = mg::HostValues(e, ta);
        CHECK(hv != nullptr && hv->size() == 12);
        if (hv != nullptr && hv->size() == 12) {
            int32_t got[3];
            std::memcpy(got, hv->data(), 12);
            CHECK(got[0] == 4 && got[1] == 5 && got[2] == 6);
        }
        EXPECT_FAIL(CHECK(e->ConvertToTensor(static_cast<const aclIntArray *>(nullptr), DataType::DT_INT32) ==
                          nullptr),
                    ACLNN_ERR_INNER_NULLPTR, "aclnnExec: ConvertToTensor without values or a live executor");
        const float two = 2.5f;
        aclScalar *sc = aclCreateScalar(const_cast<float *>(&two), ACL_FLOAT);
        const aclTensor *ts = e->ConvertToTensor(sc, DataType::DT_FLOAT16);
        CHECK(ts != nullptr && ts->GetViewShape().GetDimNum() == 0 && ts->GetDataType() == DataType::DT_FLOAT16);
        hv = mg::HostValues(e, ts);
        CHECK(hv != nullptr && hv->size() == 2);
        if (hv != nullptr && hv->size() == 2) {
            aclFloat16 hh;
            std::memcpy(&hh, hv->data(), 2);
            CHECK(hh == aclFloatToFloat16(2.5f));
        }
        EXPECT_FAIL(CHECK(e->ConvertToTensor(static_cast<const aclScalar *>(nullptr), DataType::DT_FLOAT) == nullptr),
                    ACLNN_ERR_INNER_NULLPTR, "aclnnExec: ConvertToTensor without values or a live executor");
        CHECK(mg::HostValues(e, nullptr) == nullptr);
        aclDestroyScalar(sc);
        aclDestroyIntArray(arr);

        // AllocTensor's three forms
        aclTensor *a1 = e->AllocTensor(Shape{2, 5}, DataType::DT_INT16, Format::FORMAT_NCHW);
        CHECK(a1 != nullptr && a1->GetViewShape() == Shape({2, 5}) && a1->GetDataType() == DataType::DT_INT16 &&
              a1->GetStorageFormat() == Format::FORMAT_NCHW && a1->GetViewStrides()[0] == 5 &&
              a1->GetViewStrides()[1] == 1);
        aclTensor *a2 = e->AllocTensor(Shape{7}, Shape{1, 7}, DataType::DT_INT8, Format::FORMAT_NHWC,
                                       Format::FORMAT_ND);
        CHECK(a2 != nullptr && a2->GetViewShape() == Shape({7}) && a2->GetDataType() == DataType::DT_INT8 &&
              a2->GetStorageFormat() == Format::FORMAT_NHWC);
        aclTensor *a3 = e->AllocTensor(DataType::DT_BF16, Format::FORMAT_ND, Format::FORMAT_ND);
        CHECK(a3 != nullptr && a3->GetViewShape().GetDimNum() == 0 && a3->GetDataType() == DataType::DT_BF16);
        EXPECT_FAIL(CHECK(e->AllocTensor(Shape{2}, DataType::DT_STRING) == nullptr), ACLNN_ERR_INNER,
                    "aclnnExec: cannot plan a DT_STRING tensor of shape [2] (no element count or size)");
        EXPECT_FAIL(CHECK(e->AllocTensor(Shape{2, -1}, DataType::DT_FLOAT) == nullptr), ACLNN_ERR_INNER,
                    "aclnnExec: cannot plan a DT_FLOAT tensor of shape [2,-1] (no element count or size)");
        // the workspace: a dense region per intermediate, at least their bytes
        const uint64_t before = e->GetWorkspaceSize();
        CHECK(e->AllocTensor(Shape{1000}, DataType::DT_DOUBLE) != nullptr);
        CHECK(e->GetWorkspaceSize() >= before + 8000);
        const int64_t v2[2] = {1, 2};
        aclIntArray *owned = e->AllocIntArray(v2, 2);
        CHECK(owned != nullptr && owned->Size() == 2 && (*owned)[1] == 2);

        // no live executor: where a tensor lives cannot be planned
        int64_t d1[1] = {1}, s1[1] = {1};
        float one = 1.0f;
        aclTensor *lone = aclCreateTensor(d1, 1, ACL_FLOAT, s1, 0, ACL_FORMAT_ND, d1, 1, &one);
        mg::Place place;
        EXPECT_FAIL(CHECK(mg::Locate(nullptr, lone, false, &place) == ACLNN_ERR_INNER_NULLPTR),
                    ACLNN_ERR_INNER_NULLPTR, "aclnnExec: the executor is not live");
        EXPECT_FAIL(CHECK(mg::NewTensor(nullptr, Shape{2}, DataType::DT_FLOAT, Format::FORMAT_ND, nullptr) == nullptr),
                    ACLNN_ERR_INNER_NULLPTR, "aclnnExec: the executor is not live");
        EXPECT_FAIL(CHECK(l0op::Contiguous(lone, nullptr) == nullptr), ACLNN_ERR_INNER_NULLPTR,
                    "aclnnExec: the executor is not live");
        CHECK(mg::HostValues(nullptr, lone) == nullptr);
        aclDestroyTensor(lone);
        // without a launcher (this test links no opbuild) an AI-core launch is refused
        mg::InputArgs in;
        mg::OutputArgs out;
        mg::AttrArgs attrs;
        EXPECT_FAIL(CHECK(mg::LaunchAiCore("Foo", e, in, out, attrs) == ACLNN_ERR_INNER_FIND_KERNEL_ERROR),
                    ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
                    "aclnnExec: no AI-core launcher is linked for Foo (opbuild's library is missing)");
    }
    // an executor that is gone owns nothing more: AllocIntArray is refused (it would be an
    // array nobody destroys), as NewTensor is
    {
        aclOpExecutor *gone = nullptr;
        {
            UniqueExecutor u("x");
            gone = u.get();
        }
        const int64_t v2[2] = {1, 2};
        EXPECT_FAIL(CHECK(gone->AllocIntArray(v2, 2) == nullptr), ACLNN_ERR_INNER_NULLPTR,
                    "aclnnExec: the executor is not live");
    }

    // the l0 ops' refusals, each with its message
    std::vector<float> storage(256, 1.0f);
    void *dev = nullptr;
    CHECK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    int64_t d6[1] = {6}, s1[1] = {1}, d23[2] = {2, 3}, s23[2] = {3, 1}, d4[1] = {4}, s2[1] = {2};
    aclTensor *x6 = aclCreateTensor(d6, 1, ACL_FLOAT, s1, 0, ACL_FORMAT_ND, d6, 1, dev);
    aclTensor *y23 = aclCreateTensor(d23, 2, ACL_FLOAT, s23, 0, ACL_FORMAT_ND, d23, 2, dev);
    aclTensor *y4 = aclCreateTensor(d4, 1, ACL_FLOAT, s1, 0, ACL_FORMAT_ND, d4, 1, dev);
    aclTensor *h6 = aclCreateTensor(d6, 1, ACL_FLOAT16, s1, 0, ACL_FORMAT_ND, d6, 1, dev);
    aclTensor *c64 = aclCreateTensor(d6, 1, ACL_COMPLEX64, s1, 0, ACL_FORMAT_ND, d6, 1, dev);
    int64_t d8[1] = {8};
    aclTensor *strided = aclCreateTensor(d4, 1, ACL_FLOAT, s2, 0, ACL_FORMAT_ND, d8, 1, dev); // 4 elems, stride 2
    {
        UniqueExecutor u("x");
        aclOpExecutor *e = u.get();
        // ViewCopy into another count or element size
        EXPECT_FAIL(CHECK(l0op::ViewCopy(x6, y4, e) == nullptr), ACLNN_ERR_INNER,
                    "aclnnExec: ViewCopy of 6 4-byte elements into 4 4-byte elements");
        EXPECT_FAIL(CHECK(l0op::ViewCopy(x6, h6, e) == nullptr), ACLNN_ERR_INNER,
                    "aclnnExec: ViewCopy of 6 4-byte elements into 6 2-byte elements");
        CHECK(l0op::ViewCopy(nullptr, h6, e) == nullptr && l0op::ViewCopy(x6, nullptr, e) == nullptr);
        // Cast of a type Cast does not model, either side
        EXPECT_FAIL(CHECK(l0op::Cast(x6, DataType::DT_COMPLEX64, e) == nullptr), ACLNN_ERR_INNER,
                    "aclnnExec: Cast from DT_FLOAT to DT_COMPLEX64 is not modelled");
        EXPECT_FAIL(CHECK(l0op::CastOnlyForConvBackward(c64, DataType::DT_FLOAT, e) == nullptr), ACLNN_ERR_INNER,
                    "aclnnExec: Cast from DT_COMPLEX64 to DT_FLOAT is not modelled");
        CHECK(l0op::Cast(x6, DataType::DT_FLOAT, e) == x6); // the same dtype: x itself
        CHECK(l0op::Cast(nullptr, DataType::DT_FLOAT, e) == nullptr);
        EXPECT_FAIL(CHECK(l0op::Muls(c64, 2.0f, e) == nullptr), ACLNN_ERR_INNER,
                    "aclnnExec: Muls of DT_COMPLEX64 is not modelled (float32, float16, bfloat16)");
        CHECK(l0op::Muls(nullptr, 2.0f, e) == nullptr);
        // Reshape to another element count; by an int array of too many dims
        EXPECT_FAIL(CHECK(l0op::Reshape(x6, Shape{4, 2}, e) == nullptr), ACLNN_ERR_INNER,
                    "aclnnExec: Reshape of 6 elements to [4,2]");
        // an int array of more dims than a Shape holds (25)
        std::vector<int64_t> many(26, 1);
        many[25] = 6;
        aclIntArray *a26 = aclCreateIntArray(many.data(), 26);
        EXPECT_FAIL(CHECK(l0op::Reshape(x6, a26, e) == nullptr), ACLNN_ERR_PARAM_INVALID,
                    "aclnnExec: a shape of 26 dims");
        EXPECT_FAIL(CHECK(l0op::BroadcastTo(x6, a26, e) == nullptr), ACLNN_ERR_PARAM_INVALID,
                    "aclnnExec: a shape of 26 dims");
        aclDestroyIntArray(a26);
        aclIntArray *a25 = aclCreateIntArray(many.data() + 1, 25);
        const aclTensor *r25 = l0op::Reshape(x6, a25, e);
        CHECK(r25 != nullptr && r25->GetViewShape().GetDimNum() == 25 && r25->GetViewShape().GetDim(24) == 6);
        aclDestroyIntArray(a25);
        const int64_t eight[8] = {1, 1, 1, 1, 1, 1, 2, 3};
        aclIntArray *a8 = aclCreateIntArray(eight, 8);
        const aclTensor *r8 = l0op::Reshape(x6, a8, e);
        CHECK(r8 != nullptr && r8->GetViewShape() == Shape({1, 1, 1, 1, 1, 1, 2, 3}));
        aclDestroyIntArray(a8);
        CHECK(l0op::Reshape(nullptr, Shape{6}, e) == nullptr);
        // BroadcastTo: shapes that do not broadcast, a target the input broadcasts beyond
        EXPECT_FAIL(CHECK(l0op::BroadcastTo(x6, Shape{2, 4}, e) == nullptr), ACLNN_ERR_PARAM_INVALID,
                    "aclnnExec: [6] cannot be broadcast to [2,4]");
        EXPECT_FAIL(CHECK(l0op::BroadcastTo(y23, Shape{3}, e) == nullptr), ACLNN_ERR_PARAM_INVALID,
                    "aclnnExec: [2,3] cannot be broadcast to [3]");
        EXPECT_FAIL(CHECK(l0op::BroadcastTo(x6, Shape{1, 1, 1, 1, 1, 1, 1, 1, 6}, e) == nullptr),
                    ACLNN_ERR_PARAM_INVALID, "aclnnExec: [6] cannot be broadcast to [1,1,1,1,1,1,1,1,6]");
        CHECK(l0op::BroadcastTo(y23, Shape{2, 3}, e) == y23); // the shape already: x itself
        CHECK(l0op::BroadcastTo(nullptr, Shape{2, 3}, e) == nullptr);
        // into a caller's tensor that is not dense (or of another dtype)
        int64_t d32[2] = {3, 2}, s32[2] = {1, 3};
        aclTensor *col = aclCreateTensor(d32, 2, ACL_FLOAT, s32, 0, ACL_FORMAT_ND, d32, 2, dev);
        int64_t d31[2] = {3, 1}, s31[2] = {1, 1};
        aclTensor *x31 = aclCreateTensor(d31, 2, ACL_FLOAT, s31, 0, ACL_FORMAT_ND, d31, 2, dev);
        const int64_t dims32[2] = {3, 2};
        const aclTensor *shape32 = e->ConvertToTensor(dims32, 2, DataType::DT_INT64);
        EXPECT_FAIL(CHECK(l0op::BroadcastTo(x31, col, shape32, e) == nullptr), ACLNN_ERR_INNER,
                    "aclnnExec: BroadcastTo into a tensor that is not a dense [3,2] of the source's dtype");
        CHECK(l0op::BroadcastTo(nullptr, col, shape32, e) == nullptr && l0op::BroadcastTo(x31, nullptr, shape32, e) ==
              nullptr && l0op::BroadcastTo(x31, col, nullptr, e) == nullptr);
        aclDestroyTensor(col);
        aclDestroyTensor(x31);
        // Fill with a value of more than one element
        const int64_t dims2[1] = {2};
        aclIntArray *s2a = aclCreateIntArray(dims2, 1);
        const aclTensor *dt = e->ConvertToTensor(dims2, 1, DataType::DT_INT64);
        EXPECT_FAIL(CHECK(l0op::Fill(dt, x6, s2a, e) == nullptr), ACLNN_ERR_PARAM_INVALID,
                    "aclnnExec: Fill's value is a DT_FLOAT tensor of 6 elements, not one element");
        CHECK(l0op::Fill(nullptr, x6, s2a, e) == nullptr && l0op::Fill(dt, nullptr, s2a, e) == nullptr &&
              l0op::Fill(dt, x6, nullptr, e) == nullptr);
        // a dims tensor of one-byte elements (DT_INT8) names the shape as an int64 one does:
        // past the dims check to the value's (seed 43: a one-byte element counted as none)
        const aclTensor *dt8 = e->ConvertToTensor(dims2, 1, DataType::DT_INT8);
        CHECK(dt8 != nullptr);
        EXPECT_FAIL(CHECK(l0op::Fill(dt8, x6, s2a, e) == nullptr), ACLNN_ERR_PARAM_INVALID,
                    "aclnnExec: Fill's value is a DT_FLOAT tensor of 6 elements, not one element");
        aclDestroyIntArray(s2a);
        // a dims tensor of exactly kMaxDimNum (25) values names a 25-dim shape: it passes the
        // dims check, and the call goes on to the value's check
        std::vector<int64_t> ones25(25, 1);
        aclIntArray *s25a = aclCreateIntArray(ones25.data(), 25);
        const aclTensor *dt25 = e->ConvertToTensor(ones25.data(), 25, DataType::DT_INT64);
        EXPECT_FAIL(CHECK(l0op::Fill(dt25, x6, s25a, e) == nullptr), ACLNN_ERR_PARAM_INVALID,
                    "aclnnExec: Fill's value is a DT_FLOAT tensor of 6 elements, not one element");
        aclDestroyIntArray(s25a);
        // a host tensor written by a step
        const float hv[4] = {1, 2, 3, 4};
        const aclTensor *host = e->ConvertToTensor(hv, 4, DataType::DT_FLOAT);
        EXPECT_FAIL(CHECK(l0op::ViewCopy(y4, host, e) == nullptr), ACLNN_ERR_INNER,
                    "aclnnExec: a host tensor (ConvertToTensor) is written by a step");
        // ... and after a step has read it (its write step is planned by then)
        const aclTensor *read_first = e->ConvertToTensor(hv, 4, DataType::DT_FLOAT);
        CHECK(l0op::ViewCopy(read_first, y4, e) == y4);
        EXPECT_FAIL(CHECK(l0op::ViewCopy(y4, read_first, e) == nullptr), ACLNN_ERR_INNER,
                    "aclnnExec: a host tensor (ConvertToTensor) is written by a step");
    }

    // values through phase 2: Cast of a strided view (Dense copies it first), Reshape and
    // BroadcastTo by int arrays, Fill with the value in a device tensor
    {
        const float src[6] = {0.5f, -1.0f, 2.25f, 8.0f, -3.5f, 100.0f};
        CHECK(aclrtMemcpy(dev, sizeof src, src, sizeof src, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
        void *odev = nullptr;
        CHECK(aclrtMalloc(&odev, 4096, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
        int64_t d24[2] = {2, 4}, s24[2] = {4, 1};
        aclTensor *h4 = aclCreateTensor(d4, 1, ACL_FLOAT16, s1, 0, ACL_FORMAT_ND, d4, 1, odev);
        aclTensor *f24 = aclCreateTensor(d24, 2, ACL_FLOAT, s24, 0, ACL_FORMAT_ND, d24, 2, static_cast<char *>(odev) + 64);
        aclTensor *f5 = aclCreateTensor(d4, 1, ACL_INT32, s1, 0, ACL_FORMAT_ND, d4, 1, static_cast<char *>(odev) + 128);
        aclTensor *one = aclCreateTensor(s1, 1, ACL_INT32, s1, 0, ACL_FORMAT_ND, s1, 1, static_cast<char *>(odev) + 256);
        int64_t d22[2] = {2, 2}, s22[2] = {2, 1};
        aclTensor *f4b = aclCreateTensor(d22, 2, ACL_FLOAT, s22, 0, ACL_FORMAT_ND, d22, 2, static_cast<char *>(odev) + 512);
        const int32_t seven = -7;
        CHECK(aclrtMemcpy(static_cast<char *>(odev) + 256, 4, &seven, 4, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
        uint64_t ws = 0;
        aclOpExecutor *executor = nullptr;
        {
            mg::DfxBegin("aclnnValues");
            UniqueExecutor u("x");
            aclOpExecutor *e = u.get();
            const aclTensor *c = l0op::Cast(strided, DataType::DT_FLOAT16, e); // src[0], src[2], src[4], (src[6])
            CHECK(c != nullptr && l0op::ViewCopy(c, h4, e) != nullptr);
            const int64_t r14[2] = {1, 4}, t24[2] = {2, 4};
            aclIntArray *ra = aclCreateIntArray(r14, 2), *ta = aclCreateIntArray(t24, 2);
            const aclTensor *dense4 = l0op::Contiguous(strided, e);
            const aclTensor *r = l0op::Reshape(dense4, ra, e);
            const aclTensor *b = r == nullptr ? nullptr : l0op::BroadcastTo(r, ta, e);
            CHECK(b != nullptr && b->GetViewShape() == Shape({2, 4}) && l0op::ViewCopy(b, f24, e) != nullptr);
            // ViewCopy into a tensor of the workspace (its dense view's dims and strides), then out
            const aclTensor *x34 = l0op::Reshape(dense4, Shape{2, 2}, e);
            aclTensor *w34 = e->AllocTensor(Shape{2, 2}, DataType::DT_FLOAT);
            CHECK(x34 != nullptr && w34 != nullptr && l0op::ViewCopy(x34, w34, e) == w34);
            CHECK(l0op::ViewCopy(w34, f4b, e) != nullptr);
            const int64_t four[1] = {4};
            aclIntArray *fa = aclCreateIntArray(four, 1);
            const aclTensor *fd = e->ConvertToTensor(four, 1, DataType::DT_INT64);
            const aclTensor *filled = l0op::Fill(fd, one, fa, e);
            CHECK(filled != nullptr && l0op::ViewCopy(filled, f5, e) != nullptr);
            aclDestroyIntArray(ra);
            aclDestroyIntArray(ta);
            aclDestroyIntArray(fa);
            ws = e->GetWorkspaceSize();
            u.ReleaseTo(&executor);
        }
        // src has 6 floats; the strided view's 4th element is storage[6]: write it
        const float more[2] = {42.0f, 43.0f};
        CHECK(aclrtMemcpy(static_cast<char *>(dev) + 24, 8, more, 8, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
        void *workspace = nullptr;
        if (ws > 0) CHECK(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
        CHECK(CommonOpExecutorRun(workspace, ws, executor, stream) == ACLNN_SUCCESS);
        CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
        const float want[4] = {0.5f, 2.25f, -3.5f, 42.0f};
        aclFloat16 gh[4];
        float gf[8];
        int32_t gi[4];
        CHECK(aclrtMemcpy(gh, 8, odev, 8, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
        CHECK(aclrtMemcpy(gf, 32, static_cast<char *>(odev) + 64, 32, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
        CHECK(aclrtMemcpy(gi, 16, static_cast<char *>(odev) + 128, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
        float g4[4];
        CHECK(aclrtMemcpy(g4, 16, static_cast<char *>(odev) + 512, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
        for (int k = 0; k < 4; k++) CHECK(g4[k] == want[k]);
        for (int k = 0; k < 4; k++) {
            CHECK(gh[k] == aclFloatToFloat16(want[k]));
            CHECK(gf[k] == want[k] && gf[4 + k] == want[k]);
            CHECK(gi[k] == -7);
        }
        aclrtFree(workspace);
        aclDestroyTensor(h4);
        aclDestroyTensor(f24);
        aclDestroyTensor(f5);
        aclDestroyTensor(one);
        aclDestroyTensor(f4b);
        aclrtFree(odev);
    }

    // a host tensor read by many steps is written into the workspace once, before its first
    // reader: nine Muls of it and two copies out are 1 + 9 + 2 of the executor's 16 steps (a
    // ConvertToTensor step per read would make 20: the ninth Muls would not fit)
    {
        void *odev = nullptr;
        CHECK(aclrtMalloc(&odev, 64, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
        int64_t n4[1] = {4}, unit[1] = {1};
        aclTensor *o1 = aclCreateTensor(n4, 1, ACL_FLOAT, unit, 0, ACL_FORMAT_ND, n4, 1, odev);
        aclTensor *o9 = aclCreateTensor(n4, 1, ACL_FLOAT, unit, 0, ACL_FORMAT_ND, n4, 1, static_cast<char *>(odev) + 32);
        uint64_t ws = 0;
        aclOpExecutor *executor = nullptr;
        {
            mg::DfxBegin("aclnnHostReads");
            UniqueExecutor u("x");
            aclOpExecutor *e = u.get();
            const float hv[4] = {1.0f, -2.0f, 0.5f, 8.0f};
            const aclTensor *host = e->ConvertToTensor(hv, 4, DataType::DT_FLOAT);
            CHECK(host != nullptr);
            const aclTensor *m[9] = {};
            for (int k = 0; k < 9; k++) {
                m[k] = l0op::Muls(host, static_cast<float>(k + 1), e);
                CHECK(m[k] != nullptr);
            }
            CHECK(m[0] != nullptr && l0op::ViewCopy(m[0], o1, e) == o1);
            CHECK(m[8] != nullptr && l0op::ViewCopy(m[8], o9, e) == o9);
            ws = e->GetWorkspaceSize();
            u.ReleaseTo(&executor);
        }
        void *workspace = nullptr;
        if (ws > 0) CHECK(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
        CHECK(CommonOpExecutorRun(workspace, ws, executor, stream) == ACLNN_SUCCESS);
        CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
        float got[8] = {};
        CHECK(aclrtMemcpy(got, 16, odev, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
        CHECK(aclrtMemcpy(got + 4, 16, static_cast<char *>(odev) + 32, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
        const float want[8] = {1.0f, -2.0f, 0.5f, 8.0f, 9.0f, -18.0f, 4.5f, 72.0f};
        for (int k = 0; k < 8; k++) CHECK(got[k] == want[k]);
        aclrtFree(workspace);
        aclDestroyTensor(o1);
        aclDestroyTensor(o9);
        aclrtFree(odev);
    }
    aclDestroyTensor(x6);
    aclDestroyTensor(y23);
    aclDestroyTensor(y4);
    aclDestroyTensor(h6);
    aclDestroyTensor(c64);
    aclDestroyTensor(strided);
    aclrtFree(dev);
}

// ---- optiling: the operator log, the platform, the registry ----
void CheckOptiling()
{
    // an error: the recent error (subject, text, file's base name, line), the log line's code,
    // and the last error the tiling's message quotes
    mg_op_clear_last_error();
    CHECK(std::strcmp(mg_op_last_error(), "") == 0);
    EXPECT_FAIL(mg_op_log(MGRT_LOG_ERROR, "Ctx", 161002, "/a/b/tiling.cpp", 42, "bad %d", 7), 161002,
                "Ctx: bad 7 (tiling.cpp:42)");
    CHECK(std::strcmp(mg_op_last_error(), "bad 7 (tiling.cpp:42)") == 0);
    EXPECT_FAIL(mg_op_log(MGRT_LOG_ERROR, "", 0, "plain.cpp", 3, "no subject"), ACLNN_ERR_INNER,
                "no subject (plain.cpp:3)");
    CHECK(std::strcmp(mg_op_last_error(), "no subject (plain.cpp:3)") == 0);
    // longer than the message keeps: the text cut at 1000 characters
    std::string longer(1100, 'x');
    Capture([&] { mg_op_log(MGRT_LOG_ERROR, "", 0, "f.c", 1, "%s", longer.c_str()); });
    Recent();
    CHECK(std::strlen(mg_op_last_error()) == 1000 + std::strlen(" (f.c:1)"));
    mg_op_clear_last_error();
    CHECK(mg_op_last_error()[0] == '\0');
    // below the error level: a log line (the level is INFO in this test), no recent error
    Recent();
    std::string info = Capture([] { mg_op_log(MGRT_LOG_INFO, "Sub", 0, "dir/x.cpp", 9, "note %s", "n"); });
    CHECK(Has(info, "[INFO]") && Has(info, "[OP] [x.cpp:9] Sub: note n"));
    CHECK(Recent().empty() && mg_op_last_error()[0] == '\0');
    info = Capture([] { mg_op_log(MGRT_LOG_WARNING, "", 0, "y.cpp", 10, "warned"); });
    CHECK(Has(info, "[WARNING]") && Has(info, "[OP] [y.cpp:10] warned\n"));
    info = Capture([] { mg_op_log(MGRT_LOG_DEBUG, "", 0, "y.cpp", 11, "hidden"); });
    CHECK(!Has(info, "hidden")); // DEBUG is below the INFO threshold

    // the platform: the 910B profile's facts
    mg_platform p;
    std::memset(&p, 0xff, sizeof p);
    mg_platform_query(&p);
    CHECK(p.aiv_core_num == 48 && p.aic_core_num == 24);
    CHECK(p.ub_bytes == 192u * 1024u && p.l1_bytes == 512u * 1024u);
    CHECK(p.lib_workspace_bytes == 16u * 1024u * 1024u);
    CHECK(p.soc_generation == static_cast<int>(mgrt_soc()->generation));
    CHECK(p.soc_name != nullptr && std::strcmp(p.soc_name, mgrt_soc()->soc_name) == 0);
    const PlatformInfo &info2 = GetCurrentPlatformInfo();
    CHECK(info2.GetSocVersion() == SocVersion::ASCEND910B);
    CHECK(info2.GetCurNpuArch() == NpuArch::DAV_2201);
    CHECK(info2.GetVectorCoreNum() == 48 && info2.GetCubeCoreNum() == 24);

    // the registry: defaults, each setter, lookups, a full table
    CHECK(mg_registry_find("UnitsNone") == nullptr);
    mg_registry_set_optional_inputs("UnitsA", 5u);
    const mg_op_entry *a = mg_registry_find("UnitsA");
    CHECK(a != nullptr && std::strcmp(a->type, "UnitsA") == 0 && a->input_num == -1 && a->output_num == -1 &&
          a->tiling == nullptr && a->kernel_file[0] == '\0' && a->optional_inputs == 5u);
    CHECK(mg_opdef_input_optional("UnitsA", 0) && !mg_opdef_input_optional("UnitsA", 1) &&
          mg_opdef_input_optional("UnitsA", 2) && !mg_opdef_input_optional("UnitsNone", 0));
    mg_registry_set_optional_inputs("UnitsHigh", 0x80000000u);
    CHECK(mg_opdef_input_optional("UnitsHigh", 31) && !mg_opdef_input_optional("UnitsHigh", 32) &&
          !mg_opdef_input_optional("UnitsHigh", 30));
    mg_registry_set_opdef("UnitsA", "units_a_kernel", 3, 2);
    CHECK(a->input_num == 3 && a->output_num == 2 && std::strcmp(a->kernel_file, "units_a_kernel") == 0);
    CHECK(std::strcmp(mg_opdef_kernel_file("UnitsA"), "units_a_kernel") == 0);
    mg_registry_set_opdef("UnitsA", nullptr, 1, 1);
    CHECK(a->kernel_file[0] == '\0' && mg_opdef_kernel_file("UnitsA") == nullptr && a->input_num == 1);
    CHECK(mg_opdef_kernel_file("UnitsNone") == nullptr);
    CHECK(!mg_optiling_has("UnitsA") && !mg_optiling_has("UnitsNone"));
    mg_fn fn = reinterpret_cast<mg_fn>(&CheckOptiling);
    mg_registry_set_infer_shape("UnitsA", fn);
    CHECK(a->infer_shape == fn && !mg_optiling_has("UnitsA"));
    mg_registry_set_tiling("UnitsA", fn);
    CHECK(a->tiling == fn && mg_optiling_has("UnitsA"));
    mg_registry_set_parse("UnitsA", fn, nullptr, nullptr);
    CHECK(a->parse == fn);
    CHECK(mg_registry_find("UnitsA") == a && mg_registry_find("UnitsHigh") != a);
    // fill the table (256 types): the next type is left out, named on stderr
    static std::vector<std::string> names;
    for (int i = 0; i < 300; i++) names.push_back("UnitsFill" + std::to_string(i));
    int stored = 0;
    for (const std::string &n : names) { // up to the first left out (named on stderr)
        mg_registry_set_optional_inputs(n.c_str(), 1u);
        if (mg_registry_find(n.c_str()) == nullptr) break;
        stored++;
    }
    int before = 0;
    while (before < 300 && mg_registry_find(names[static_cast<size_t>(before)].c_str()) != nullptr) before++;
    CHECK(before == stored && stored < 300 && stored > 200);
    const std::string left = names[static_cast<size_t>(stored)];
    const std::string err = CaptureFd(stderr, 2, [&] {
        mg_registry_set_tiling(left.c_str(), fn);
        mg_registry_set_parse(left.c_str(), fn, nullptr, nullptr);
        mg_registry_set_infer_shape(left.c_str(), fn);
        mg_registry_set_opdef(left.c_str(), "k", 1, 1);
    });
    CHECK(Has(err, ("optiling: more than 256 operator types registered; " + left + " is left out\n").c_str()));
    CHECK(mg_registry_find(left.c_str()) == nullptr && !mg_optiling_has(left.c_str()));
    // the earlier entries are intact
    CHECK(mg_registry_find("UnitsA") == a && a->tiling == fn);
}
} // namespace

int main(int argc, char **argv)
{
    if (argc > 1 && std::strcmp(argv[1], "quiet") == 0) {
        // ASCEND_GLOBAL_LOG_LEVEL=4 (no log at all): an error is still the recent error and
        // the tiling's last error; nothing is printed
        const std::string out = Capture([] { mg_op_log(MGRT_LOG_ERROR, "S", 0, "q.c", 5, "quiet %d", 1); });
        CHECK(out.empty());
        CHECK(Recent() == "S: quiet 1 (q.c:5)");
        CHECK(std::strcmp(mg_op_last_error(), "quiet 1 (q.c:5)") == 0);
        return Finish();
    }
    if (argc > 5 && std::strcmp(argv[1], "soc") == 0) {
        // MISHGRAD_SOC_VERSION names a product: opdev's SoC version and architecture for it,
        // and the core counts and memories a tiling reads (argv: version, arch, AIV cores,
        // UB KiB, library workspace MiB)
        CHECK(aclInit(nullptr) == ACL_SUCCESS);
        const PlatformInfo &info = GetCurrentPlatformInfo();
        CHECK(static_cast<int>(info.GetSocVersion()) == std::atoi(argv[2]));
        CHECK(static_cast<int>(info.GetCurNpuArch()) == std::atoi(argv[3]));
        const uint32_t aiv = static_cast<uint32_t>(std::atoi(argv[4]));
        CHECK(info.GetVectorCoreNum() == aiv && info.GetCubeCoreNum() == aiv / 2);
        mg_platform p;
        std::memset(&p, 0, sizeof p);
        mg_platform_query(&p);
        CHECK(p.aiv_core_num == aiv && p.aic_core_num == aiv / 2 && p.l1_bytes == 512u * 1024u);
        CHECK(p.ub_bytes == static_cast<uint64_t>(std::atoi(argv[5])) * 1024u);
        CHECK(argc > 6 && p.lib_workspace_bytes == static_cast<uint32_t>(std::atoi(argv[6])) * 1024u * 1024u);
        CHECK(std::strcmp(p.soc_name, std::getenv("MISHGRAD_SOC_VERSION")) == 0);
        CHECK(p.soc_generation == static_cast<int>(mgrt_soc()->generation));
        CHECK(aclFinalize() == ACL_SUCCESS);
        return Finish();
    }
    CHECK(aclInit(nullptr) == ACL_SUCCESS);
    CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
    CheckDtypeTable();
    CheckConversions();
    CheckCollapse();
    CheckAccessors();
    CheckNoLeaks();
    CheckRules();
    CheckExecutor(stream);
    CheckOptiling();
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    CHECK(aclFinalize() == ACL_SUCCESS);
    return Finish();
}

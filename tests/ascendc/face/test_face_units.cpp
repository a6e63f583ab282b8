// The kernel API face's own code, piece by piece, against independent references and
// written expectations (docs/ascendc_twin.md, "The kernel API face"):
// - half: every one of the 65536 bit patterns to float against ldexp; float to half against
//   round-to-nearest-even over the table of all finite halves, at every midpoint and its
//   neighbours, on a sweep of float bit patterns, and in constant expressions;
// - bfloat16_t: float to bfloat16 against nearest-even by distance, ties both ways, NaN;
// - the scalar helpers (Std::min/max, TwinScalar, TwinFromDouble, ToFloat, ToBfloat16);
// - GlobalTensor/LocalTensor slicing, sizes and addresses, a refused scalar read giving 0;
//   TwinBuffers' Ref and IndexOf;
// - the level-0 and copy parameter structs and their conversions (TwinCopy, TwinRepeat,
//   TwinStrides); the workspace and block helpers of control.h;
// - inside a block (a kernel registered here): SetVectorMask's lane masks in both modes,
//   the utility setters, ResetMask, GetBlockIdx/GetBlockNum, TwinDispatch's refusals.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "acl/acl_rt.h"
#include "asc_twin/gm.h"
#include "asc_twin/launch.h"
#include "kernel_operator.h"
#include "asc_face/entry.h"

using namespace AscendC;

namespace {
uint32_t Bits(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
float FromBits(uint32_t u)
{
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// ---- half ----------------------------------------------------------------------------------
// The value of a half bit pattern, by the definition (not by bit moves).
double HalfValue(uint16_t h)
{
    const int e = (h >> 10) & 31, m = h & 1023;
    const double sign = (h & 0x8000) ? -1.0 : 1.0;
    if (e == 0) return sign * std::ldexp(m, -24);
    if (e == 31) return m == 0 ? sign * INFINITY : NAN;
    return sign * std::ldexp(1024 + m, e - 25);
}

TEST(FaceHalf, EveryPatternToFloat)
{
    for (uint32_t b = 0; b < 65536; b++) {
        const uint16_t h = static_cast<uint16_t>(b);
        const float got = half::ToFloat(h);
        const double want = HalfValue(h);
        if (std::isnan(want)) {
            ASSERT_TRUE(std::isnan(got)) << b;
            // the payload moves up 13 bits, the sign stays
            ASSERT_EQ(Bits(got), (static_cast<uint32_t>(h & 0x8000) << 16) | 0x7f800000u | ((h & 1023u) << 13)) << b;
        } else {
            ASSERT_EQ(static_cast<double>(got), want) << b;
            ASSERT_EQ(std::signbit(got), (h & 0x8000) != 0) << b;
        }
        const half x = half::FromBits(h);
        ASSERT_EQ(x.bits, h);
        ASSERT_EQ(Bits(static_cast<float>(x)), Bits(got));
    }
}

// Nearest-even rounding of a finite float to half by the table of every finite half.
struct HalfTable {
    std::vector<double> values; // the 31744 non-negative finite halves, ascending (bits 0..0x7bff)
    HalfTable()
    {
        for (uint32_t b = 0; b <= 0x7bff; b++) values.push_back(HalfValue(static_cast<uint16_t>(b)));
    }
    uint16_t Round(float f) const
    {
        if (std::isnan(f)) return static_cast<uint16_t>((std::signbit(f) ? 0x8000 : 0) | 0x7e00);
        const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
        const double a = std::fabs(static_cast<double>(f));
        // past the largest half by half an ulp (65504 + 16) or more: infinity
        if (a >= 65520.0) return static_cast<uint16_t>(sign | 0x7c00);
        size_t hi = static_cast<size_t>(std::lower_bound(values.begin(), values.end(), a) - values.begin());
        if (hi == values.size()) return static_cast<uint16_t>(sign | 0x7bff); // (65504, 65520): 65504
        if (values[hi] == a) return static_cast<uint16_t>(sign | hi);
        const size_t lo = hi - 1;
        const double dl = a - values[lo], dh = values[hi] - a;
        size_t pick = dl < dh ? lo : dh < dl ? hi : (lo % 2 == 0 ? lo : hi);
        return static_cast<uint16_t>(sign | pick);
    }
};

TEST(FaceHalf, FloatToHalfNearestEven)
{
    const HalfTable table;
    auto check = [&](float f) {
        const uint16_t want = table.Round(f);
        const uint16_t got = half::FromFloat(f);
        if (std::isnan(f))
            EXPECT_EQ(got, want) << std::hex << Bits(f);
        else
            ASSERT_EQ(got, want) << std::hex << Bits(f) << " " << f;
        ASSERT_EQ(half(f).bits, got);
    };
    // every half, the midpoint above it (a tie) and the floats beside both
    for (uint32_t b = 0; b < 0x7bff; b++) {
        const double v = table.values[b], mid = (v + table.values[b + 1]) / 2;
        for (float f : {static_cast<float>(v), static_cast<float>(mid)})
            for (float g : {f, std::nextafter(f, 0.0f), std::nextafter(f, INFINITY)}) {
                check(g);
                check(-g);
            }
    }
    // the top: 65504, the overflow boundary 65520 (a tie that rounds to infinity), beyond
    for (float f : {65504.0f, 65519.996f, 65520.0f, 65536.0f, 1e10f, INFINITY, FLT_MAX, 0.0f, -0.0f,
                    FromBits(0x33000000u), FromBits(0x33000001u), FromBits(0x32ffffffu), FromBits(0x38800000u),
                    FromBits(0x387fffffu), FromBits(0x477ff000u), FromBits(0x477fefffu), FromBits(1u)}) {
        check(f);
        check(-f);
    }
    // NaNs: a quiet NaN with the sign
    EXPECT_EQ(half::FromFloat(NAN), 0x7e00);
    EXPECT_EQ(half::FromFloat(-NAN), 0xfe00);
    EXPECT_EQ(half::FromFloat(FromBits(0x7f800001u)), 0x7e00);
    EXPECT_EQ(half::FromFloat(FromBits(0xffc12345u)), 0xfe00);
    // a sweep over the float bit patterns
    for (uint64_t u = 0; u < (uint64_t{1} << 32); u += 65521) check(FromBits(static_cast<uint32_t>(u)));
}

// In constant expressions (kernels declare constexpr half constants)
constexpr half kTenth(0.1f);
static_assert(kTenth.bits == 0x2e66, "0.1 rounds to 0x2e66");
static_assert(half(1).bits == 0x3c00 && half(-2.0).bits == 0xc000 && half(65504).bits == 0x7bff, "exact halves");
static_assert(half(65520.0f).bits == 0x7c00 && half(1e-8f).bits == 0 && half(6e-8f).bits == 1, "the ends");
static_assert(half::ToFloat(0x3555) == 0.333251953125f, "ToFloat is constexpr");

TEST(FaceHalf, ConversionsAndArithmetic)
{
    EXPECT_EQ(half(3).bits, 0x4200);
    EXPECT_EQ(half(static_cast<int64_t>(-1)).bits, 0xbc00);
    EXPECT_EQ(half(0.5).bits, 0x3800);
    EXPECT_EQ(static_cast<float>(half(1.5f)) + 1.0f, 2.5f);
    const half h;
    EXPECT_EQ(h.bits, 0);
}

// ---- bfloat16 ------------------------------------------------------------------------------
uint16_t Bf16Reference(float f)
{
    const uint32_t u = Bits(f);
    if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40);
    const uint32_t lo = u & 0xffff0000u;
    const double a = std::fabs(static_cast<double>(f));
    const double vlo = std::fabs(static_cast<double>(FromBits(lo)));
    // the next bfloat16 away from zero; past the largest finite one, 2^128 (rounds to inf)
    const uint32_t up = lo + 0x10000u;
    const double vhi = ((up & 0x7fffffffu) >= 0x7f800000u) ? std::ldexp(1.0, 128) : std::fabs(static_cast<double>(FromBits(up)));
    const double dl = a - vlo, dh = vhi - a;
    const bool take_up = dh < dl || (dh == dl && ((lo >> 16) & 1u));
    return static_cast<uint16_t>((take_up ? up : lo) >> 16);
}

TEST(FaceBfloat16, NearestEven)
{
    for (uint64_t u = 0; u < (uint64_t{1} << 32); u += 4099) {
        const float f = FromBits(static_cast<uint32_t>(u));
        if ((static_cast<uint32_t>(u) & 0x7f800000u) == 0x7f800000u && (static_cast<uint32_t>(u) & 0x7fffff)) continue;
        ASSERT_EQ(bfloat16_t::FromFloat(f), Bf16Reference(f)) << std::hex << u;
    }
    // ties: even below stays, odd below goes up; just above/below a tie
    for (uint32_t top : {0x3f80u, 0x3f81u, 0x0001u, 0x7f7fu, 0x8000u, 0xbf81u, 0xff7eu}) {
        const uint32_t base = top << 16;
        for (uint32_t low : {0x0000u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu}) {
            const float f = FromBits(base | low);
            EXPECT_EQ(bfloat16_t::FromFloat(f), Bf16Reference(f)) << std::hex << (base | low);
        }
    }
    EXPECT_EQ(bfloat16_t::FromFloat(FromBits(0x3f808000u)), 0x3f80);
    EXPECT_EQ(bfloat16_t::FromFloat(FromBits(0x3f818000u)), 0x3f82);
    EXPECT_EQ(bfloat16_t::FromFloat(FromBits(0x7f7f8000u)), 0x7f80); // rounds to infinity
    // a NaN stays a NaN, quieted
    EXPECT_EQ(bfloat16_t::FromFloat(FromBits(0x7f800001u)), 0x7fc0);
    EXPECT_EQ(bfloat16_t::FromFloat(FromBits(0xff812345u)), 0xffc1);
    EXPECT_EQ(bfloat16_t::FromFloat(FromBits(0x7fc00000u)), 0x7fc0);
    EXPECT_EQ(bfloat16_t::FromFloat(INFINITY), 0x7f80);
    // to float: the bits shifted up
    bfloat16_t b;
    EXPECT_EQ(b.bits, 0);
    b.bits = 0xc0a0;
    EXPECT_EQ(static_cast<float>(b), -5.0f);
    EXPECT_EQ(bfloat16_t(2).bits, 0x4000);
    EXPECT_EQ(ToFloat(bfloat16_t(-0.75f)), -0.75f);
    EXPECT_EQ(ToBfloat16(1.0f + 1.0f / 128).bits, 0x3f81);
    EXPECT_EQ(ToFloat(half(0.25f)), 0.25f);
}

// ---- scalar helpers ------------------------------------------------------------------------
TEST(FaceScalars, Helpers)
{
    const int a = 3, b = 3, c = 5;
    EXPECT_EQ(&Std::min(a, b), &a); // equal: the first
    EXPECT_EQ(&Std::max(a, b), &a);
    EXPECT_EQ(&Std::min(c, a), &a);
    EXPECT_EQ(&Std::max(a, c), &c);
    EXPECT_EQ(&Std::min(a, c), &a);
    EXPECT_EQ(&Std::max(c, a), &c);
    static_assert(Std::min(2, 7) == 2 && Std::max(2, 7) == 7, "constexpr");
    static_assert(IsSameType<float, float>::value && !IsSameType<float, half>::value, "IsSameType");
    static_assert(Std::is_same_v<half, float16_t> && Std::is_same_v<__bf16, bfloat16_t>, "the CCE names");
    // a scalar is converted to the tensor's type first
    EXPECT_EQ(TwinScalar<half>(0.1), static_cast<double>(half::ToFloat(0x2e66)));
    EXPECT_EQ(TwinScalar<bfloat16_t>(1.0f + 1.0f / 256), 1.0);
    EXPECT_EQ(TwinScalar<float>(0.1), static_cast<double>(0.1f));
    EXPECT_EQ(TwinScalar<int32_t>(-7.9), -7.0);
    EXPECT_EQ(TwinScalar<uint8_t>(200), 200.0);
    EXPECT_EQ(TwinFromDouble<half>(0.1).bits, 0x2e66);
    EXPECT_EQ(TwinFromDouble<bfloat16_t>(-5.0).bits, 0xc0a0);
    EXPECT_EQ(TwinFromDouble<int16_t>(-300.0), -300);
    EXPECT_EQ(TwinFromDouble<float>(0.5), 0.5f);
    static_assert(TwinDtype<float>::value == ASC_TWIN_F32 && TwinDtype<half>::value == ASC_TWIN_F16 &&
                      TwinDtype<bfloat16_t>::value == ASC_TWIN_BF16 && TwinDtype<bool>::value == ASC_TWIN_U8 &&
                      TwinDtype<int64_t>::value == ASC_TWIN_I64 && TwinDtype<uint16_t>::value == ASC_TWIN_U16,
                  "dtypes");
}

// CANN's enum values (the face maps them onto the core's by value: a kernel compiled against
// CANN's headers passes the same numbers), and the <type_traits> names AscendC::Std offers.
static_assert(static_cast<int>(RoundMode::CAST_NONE) == 0 && static_cast<int>(RoundMode::CAST_RINT) == 1 &&
                  static_cast<int>(RoundMode::CAST_FLOOR) == 2 && static_cast<int>(RoundMode::CAST_CEIL) == 3 &&
                  static_cast<int>(RoundMode::CAST_ROUND) == 4 && static_cast<int>(RoundMode::CAST_TRUNC) == 5 &&
                  static_cast<int>(RoundMode::CAST_ODD) == 6 && static_cast<int>(RoundMode::CAST_HYBRID) == 7 &&
                  static_cast<int>(RoundMode::CAST_EVEN) == 8 && static_cast<int>(RoundMode::CAST_ZERO) == 9 &&
                  static_cast<int>(RoundMode::UNKNOWN) == 0xFF,
              "RoundMode");
static_assert(static_cast<int>(CMPMODE::LT) == ASC_TWIN_CMP_LT && static_cast<int>(CMPMODE::GT) == ASC_TWIN_CMP_GT &&
                  static_cast<int>(CMPMODE::EQ) == ASC_TWIN_CMP_EQ && static_cast<int>(CMPMODE::LE) == ASC_TWIN_CMP_LE &&
                  static_cast<int>(CMPMODE::GE) == ASC_TWIN_CMP_GE && static_cast<int>(CMPMODE::NE) == ASC_TWIN_CMP_NE &&
                  static_cast<int>(CMPMODE::LT) == 0 && static_cast<int>(CMPMODE::NE) == 5,
              "CMPMODE");
static_assert(static_cast<int>(SELMODE::VSEL_CMPMASK_SPR) == 0 && static_cast<int>(SELMODE::VSEL_TENSOR_SCALAR_MODE) == 1 &&
                  static_cast<int>(SELMODE::VSEL_TENSOR_TENSOR_MODE) == 2,
              "SELMODE");
static_assert(static_cast<int>(MaskMode::NORMAL) == 0 && static_cast<int>(MaskMode::COUNTER) == 1, "MaskMode");
static_assert(static_cast<int>(ReduceOrder::ORDER_VALUE_INDEX) == 0 && static_cast<int>(ReduceOrder::ORDER_INDEX_VALUE) == 1 &&
                  static_cast<int>(ReduceOrder::ORDER_ONLY_VALUE) == 2 && static_cast<int>(ReduceOrder::ORDER_ONLY_INDEX) == 3 &&
                  static_cast<int>(ReduceOrder::ORDER_ONLY_VALUE) == ASC_TWIN_ORDER_ONLY_VALUE,
              "ReduceOrder");
static_assert(static_cast<int>(CacheLine::SINGLE_CACHE_LINE) == 0 && static_cast<int>(CacheLine::ENTIRE_DATA_CACHE) == 1 &&
                  static_cast<int>(DcciDst::CACHELINE_ALL) == 0 && static_cast<int>(DcciDst::CACHELINE_ATOMIC) == 3,
              "data cache");
static_assert(static_cast<int>(CacheMode::CACHE_MODE_DISABLE) == 0 && static_cast<int>(CacheMode::CACHE_MODE_NORMAL) == 1 &&
                  static_cast<int>(CacheMode::CACHE_MODE_LAST) == 2 && static_cast<int>(CacheMode::CACHE_MODE_PERSISTENT) == 4,
              "CacheMode");
static_assert(static_cast<int>(TPosition::GM) == 0 && static_cast<int>(TPosition::VECIN) == 9 &&
                  static_cast<int>(TPosition::VECCALC) == 11 && TPosition::LCM == TPosition::VECCALC &&
                  static_cast<int>(TPosition::SPM) == 12 && TPosition::SHM == TPosition::SPM &&
                  static_cast<int>(TPosition::MAX) == 16,
              "TPosition");
static_assert(static_cast<int>(HardEvent::MTE2_MTE1) == 0 && static_cast<int>(HardEvent::MTE2_V) == 4 &&
                  static_cast<int>(HardEvent::V_MTE3) == 7 && static_cast<int>(HardEvent::MAX) == 35,
              "HardEvent");
static_assert(EVENT_ID0 == 0 && EVENT_ID7 == 7 && PIPE_S == 0 && PIPE_V == 1 && PIPE_MTE2 == 4 && PIPE_ALL == 6 &&
                  PIPE_FIX == 10,
              "event_t, pipe_t");
static_assert(std::is_same_v<Std::conditional<true, int, float>::type, int> &&
                  std::is_same_v<Std::enable_if<true, short>::type, short> &&
                  Std::integral_constant<int, 3>::value == 3 && Std::is_same<int, int>::value,
              "AscendC::Std's type traits");

// ---- tensors -------------------------------------------------------------------------------
TEST(FaceTensors, GlobalTensor)
{
    float buf[16];
    GlobalTensor<float> g;
    EXPECT_EQ(g.TwinRef().addr, nullptr);
    EXPECT_EQ(g.TwinRef().size_bytes, UINT64_MAX);
    EXPECT_EQ(g.TwinRef().dtype, ASC_TWIN_F32);
    EXPECT_EQ(g.GetSize(), 0u);
    g.SetGlobalBuffer(buf, 10);
    EXPECT_EQ(g.TwinRef().addr, reinterpret_cast<uint8_t *>(buf));
    EXPECT_EQ(g.TwinRef().size_bytes, 40u);
    EXPECT_EQ(g.GetSize(), 10u);
    EXPECT_EQ(g.GetPhyAddr(), buf);
    EXPECT_EQ(g.GetPhyAddr(3), buf + 3);
    GlobalTensor<float> s = g[4];
    EXPECT_EQ(s.TwinRef().addr, reinterpret_cast<uint8_t *>(buf + 4));
    EXPECT_EQ(s.TwinRef().size_bytes, 24u);
    EXPECT_EQ(s.GetSize(), 6u);
    EXPECT_EQ(g[10].TwinRef().size_bytes, 0u); // at the end
    EXPECT_EQ(g[11].TwinRef().size_bytes, 0u); // past it
    EXPECT_EQ(g[9].TwinRef().size_bytes, 4u);
    // a size that overflows bytes: unbounded
    g.SetGlobalBuffer(buf, UINT64_MAX / 4 + 1);
    EXPECT_EQ(g.TwinRef().size_bytes, UINT64_MAX);
    g.SetGlobalBuffer(buf, UINT64_MAX / 4);
    EXPECT_EQ(g.TwinRef().size_bytes, (UINT64_MAX / 4) * 4);
    g.SetGlobalBuffer(buf);
    EXPECT_EQ(g.TwinRef().size_bytes, UINT64_MAX);
    EXPECT_EQ(g[5].TwinRef().size_bytes, UINT64_MAX); // unbounded stays unbounded
    EXPECT_EQ(g[5].GetPhyAddr(), buf + 5);
    GlobalTensor<half> none;
    EXPECT_EQ(none[3].TwinRef().addr, nullptr); // an unset optional input stays NULL
    EXPECT_EQ(none.TwinRef().dtype, ASC_TWIN_F16);
    GlobalTensor<int64_t> wide;
    int64_t w[4];
    wide.SetGlobalBuffer(w, 4);
    EXPECT_EQ(wide[1].TwinRef().size_bytes, 24u);
    EXPECT_EQ(wide[1].TwinRef().addr, reinterpret_cast<uint8_t *>(w + 1));
}

TEST(FaceTensors, LocalTensor)
{
    alignas(32) uint8_t ub[512]; // the tensor holds the first 256 (slices past its end stay in the array)
    LocalTensor<float> t(asc_twin_ub_ref{ub, 256, ASC_TWIN_U8});
    EXPECT_EQ(t.TwinRef().dtype, ASC_TWIN_F32); // the element type is the tensor's
    EXPECT_EQ(t.GetSize(), 64u);
    EXPECT_EQ(t.GetLength(), 256u);
    EXPECT_EQ(t.GetPhyAddr(), reinterpret_cast<float *>(ub));
    EXPECT_EQ(t.GetPhyAddr(5), reinterpret_cast<float *>(ub) + 5);
    LocalTensor<float> s = t[10];
    EXPECT_EQ(s.TwinRef().addr, ub + 40);
    EXPECT_EQ(s.TwinRef().capacity_bytes, 216u);
    EXPECT_EQ(t[64].TwinRef().capacity_bytes, 0u);
    EXPECT_EQ(t[65].TwinRef().capacity_bytes, 0u);
    EXPECT_EQ(t[63].TwinRef().capacity_bytes, 4u);
    LocalTensor<half> h = t.ReinterpretCast<half>();
    EXPECT_EQ(h.TwinRef().dtype, ASC_TWIN_F16);
    EXPECT_EQ(h.GetSize(), 128u);
    EXPECT_EQ(h[3].TwinRef().addr, ub + 6);
    // SetSize only shrinks
    t.SetSize(100);
    EXPECT_EQ(t.GetSize(), 64u);
    t.SetSize(64);
    EXPECT_EQ(t.GetSize(), 64u);
    t.SetSize(63);
    EXPECT_EQ(t.GetSize(), 63u);
    EXPECT_EQ(t.GetLength(), 252u);
    t.SetSize(0);
    EXPECT_EQ(t.GetLength(), 0u);
    LocalTensor<int16_t> empty;
    EXPECT_EQ(empty.TwinRef().addr, nullptr);
    EXPECT_EQ(empty.TwinRef().capacity_bytes, 0u);
    EXPECT_EQ(empty.TwinRef().dtype, ASC_TWIN_I16);
    EXPECT_EQ(empty[4].TwinRef().addr, nullptr);
}

// A scalar read the twin refuses (here: outside any launch, where no UB or GM access is
// allowed) gives 0, never the bytes behind the tensor: the kernel's C++ goes on with a
// defined value while the launch fails with the report.
TEST(FaceTensors, RefusedScalarReadsGiveZero)
{
    alignas(32) float ub[16];
    float gm[16];
    for (int i = 0; i < 16; i++) ub[i] = gm[i] = 7.0f;
    LocalTensor<float> t(asc_twin_ub_ref{reinterpret_cast<uint8_t *>(ub), sizeof ub, ASC_TWIN_F32});
    EXPECT_EQ(t.GetValue(3), 0.0f);
    EXPECT_EQ(static_cast<float>(t(3)), 0.0f);
    LocalTensor<int32_t> ti(asc_twin_ub_ref{reinterpret_cast<uint8_t *>(ub), sizeof ub, ASC_TWIN_I32});
    EXPECT_EQ(static_cast<int32_t>(ti(2)), 0);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(gm, 16);
    EXPECT_EQ(g.GetValue(3), 0.0f);
}

TEST(FaceTensors, TwinBuffers)
{
    alignas(32) uint8_t ub[512];
    TwinBuffers b;
    EXPECT_EQ(b.Ref(0).addr, nullptr);
    EXPECT_EQ(b.IndexOf(ub), -1);
    b.base = ub + 64;
    b.len = 96;
    b.stride = 96;
    b.num = 3;
    EXPECT_EQ(b.Ref(0).addr, ub + 64);
    EXPECT_EQ(b.Ref(0).capacity_bytes, 96u);
    EXPECT_EQ(b.Ref(0).dtype, ASC_TWIN_U8);
    EXPECT_EQ(b.Ref(2).addr, ub + 64 + 192);
    EXPECT_EQ(b.Ref(3).addr, nullptr);
    EXPECT_EQ(b.Ref(3).capacity_bytes, 0u);
    EXPECT_EQ(b.Ref(-1).addr, nullptr);
    EXPECT_EQ(b.IndexOf(ub + 64), 0);
    EXPECT_EQ(b.IndexOf(ub + 64 + 95), 0);
    EXPECT_EQ(b.IndexOf(ub + 64 + 96), 1);
    EXPECT_EQ(b.IndexOf(ub + 64 + 287), 2);
    EXPECT_EQ(b.IndexOf(ub + 64 + 288), -1);
    EXPECT_EQ(b.IndexOf(ub + 63), -1);
    b.stride = 0;
    EXPECT_EQ(b.IndexOf(ub + 64), -1);
}

// ---- parameter structs ---------------------------------------------------------------------
TEST(FaceParams, CopyAndRepeat)
{
    const DataCopyParams d0;
    EXPECT_EQ(d0.blockCount, 1);
    EXPECT_EQ(d0.blockLen, 0);
    EXPECT_EQ(d0.srcStride, 0);
    EXPECT_EQ(d0.dstStride, 0);
    const DataCopyParams d(3, 4, 5, 6);
    const asc_twin_copy_params p = TwinCopy(d, 32);
    EXPECT_EQ(p.block_count, 3u);
    EXPECT_EQ(p.block_len, 4u);
    EXPECT_EQ(p.src_stride, 5u);
    EXPECT_EQ(p.dst_stride, 6u);
    EXPECT_EQ(p.unit_bytes, 32u);
    EXPECT_EQ(TwinCopy(d, 1).unit_bytes, 1u);
    const DataCopyExtParams e(7, 100000, 8, 9, 10);
    EXPECT_EQ(e.rsv, 10u);
    const asc_twin_copy_params q = TwinCopy(e);
    EXPECT_EQ(q.block_count, 7u);
    EXPECT_EQ(q.block_len, 100000u);
    EXPECT_EQ(q.src_stride, 8u);
    EXPECT_EQ(q.dst_stride, 9u);
    EXPECT_EQ(q.unit_bytes, 1u);
    const DataCopyExtParams e0;
    EXPECT_EQ(e0.blockCount, 1);
    EXPECT_EQ(e0.blockLen + e0.srcStride + e0.dstStride + e0.rsv, 0u);
    const DataCopyPadParams pp(true, 2, 3, 0x1234);
    EXPECT_TRUE(pp.isPad);
    EXPECT_EQ(pp.leftPadding, 2);
    EXPECT_EQ(pp.rightPadding, 3);
    EXPECT_EQ(pp.paddingValue, 0x1234u);
    const DataCopyPadParams pp0;
    EXPECT_FALSE(pp0.isPad);
    EXPECT_EQ(pp0.leftPadding, 0);
    EXPECT_EQ(pp0.rightPadding, 0);
    EXPECT_EQ(pp0.paddingValue, 0u);
    const DataCopyPadExtParams<half> pe(true, 1, 4, half(2.0f));
    EXPECT_EQ(pe.paddingValue.bits, 0x4000);
    EXPECT_EQ(pe.leftPadding, 1);
    EXPECT_EQ(pe.rightPadding, 4);
    const DataCopyPadExtParams<float> pe0;
    EXPECT_FALSE(pe0.isPad);
    EXPECT_EQ(pe0.leftPadding, 0);
    EXPECT_EQ(pe0.rightPadding, 0);
    EXPECT_EQ(pe0.paddingValue, 0.0f);

    asc_twin_repeat r = TwinRepeat(true, 70, 5, 1, 2, 3);
    EXPECT_EQ(r.mask_kind, 1);
    EXPECT_EQ(r.mask_count, 70u);
    EXPECT_EQ(r.repeat_times, 5);
    EXPECT_EQ(r.dst_rep_stride, 1);
    EXPECT_EQ(r.src_blk_stride, 2);
    EXPECT_EQ(r.src_rep_stride, 3);
    r = TwinRepeat(false, -3, 1, 0, 0, 0);
    EXPECT_EQ(r.mask_kind, 0);
    EXPECT_EQ(r.mask_count, 0u);
    EXPECT_EQ(TwinRepeat(true, 0, 1, 0, 0, 0).mask_count, 0u);
    const uint64_t bits[2] = {0x1234, 0xff00};
    r = TwinRepeat(true, bits, 2, 4, 5, 6);
    EXPECT_EQ(r.mask_kind, 2);
    EXPECT_EQ(r.mask_count, 0u); // a bitwise mask has no lane count
    EXPECT_EQ(r.mask_lo, 0x1234u);
    EXPECT_EQ(r.mask_hi, 0xff00u);
    EXPECT_EQ(r.repeat_times, 2);
    EXPECT_EQ(r.dst_rep_stride, 4);
    EXPECT_EQ(r.src_blk_stride, 5);
    EXPECT_EQ(r.src_rep_stride, 6);
    r = TwinRepeat(false, bits, 2, 4, 5, 6);
    EXPECT_EQ(r.mask_kind, 0);
    EXPECT_EQ(r.mask_count, 0u);
    EXPECT_EQ(r.repeat_times, 2);
    EXPECT_EQ(r.mask_lo, 0u);
    EXPECT_EQ(r.mask_hi, 0u);

    const BinaryRepeatParams b0;
    EXPECT_EQ(b0.dstBlkStride + b0.src0BlkStride + b0.src1BlkStride, 3);
    EXPECT_EQ(b0.dstRepStride + b0.src0RepStride + b0.src1RepStride, 24);
    const BinaryRepeatParams b(1, 2, 3, 4, 5, 6);
    asc_twin_l0_strides s = TwinStrides(b);
    EXPECT_EQ(s.blk[0], 1);
    EXPECT_EQ(s.blk[1], 2);
    EXPECT_EQ(s.blk[2], 3);
    EXPECT_EQ(s.rep[0], 4);
    EXPECT_EQ(s.rep[1], 5);
    EXPECT_EQ(s.rep[2], 6);
    const UnaryRepeatParams u0;
    EXPECT_EQ(u0.dstBlkStride + u0.srcBlkStride, 2);
    EXPECT_EQ(u0.dstRepStride + u0.srcRepStride, 16);
    const UnaryRepeatParams u(7, 8, 9, 10);
    s = TwinStrides(u);
    EXPECT_EQ(s.blk[0], 7);
    EXPECT_EQ(s.blk[1], 8);
    EXPECT_EQ(s.blk[2], 0);
    EXPECT_EQ(s.rep[0], 9);
    EXPECT_EQ(s.rep[1], 10);
    EXPECT_EQ(s.rep[2], 0);
    static_assert(ONE_BLK_SIZE == 32 && ONE_REPEAT_BYTE_SIZE == 256 && DEFAULT_BLK_NUM == 8 &&
                      DEFAULT_REPEAT_STRIDE == 8 && DEFAULT_BLK_STRIDE == 1 && MASK_PLACEHOLDER == 0,
                  "CANN's constants");
}

// ---- control.h outside a block -----------------------------------------------------------
TEST(FaceControl, Helpers)
{
    // CANN declares these at global scope too
    EXPECT_EQ(::GetUserWorkspace(nullptr), nullptr);
    ::SetSysWorkspace(reinterpret_cast<uint8_t *>(uintptr_t{64}));
    EXPECT_EQ(::GetSysWorkSpacePtr(), reinterpret_cast<uint8_t *>(uintptr_t{64}));
    ::SetSysWorkspace(nullptr);
    EXPECT_EQ(GetUserWorkspace(nullptr), nullptr);
    uint8_t *ws = reinterpret_cast<uint8_t *>(uintptr_t{1} << 40);
    EXPECT_EQ(GetUserWorkspace(ws), ws + 16u * 1024u * 1024u);
    EXPECT_EQ(GetSysWorkSpacePtr(), nullptr);
    SetSysWorkspace(ws);
    EXPECT_EQ(GetSysWorkSpacePtr(), ws);
    SetSysWorkspace(nullptr);
    const int64_t c1 = GetSystemCycle(), c2 = GetSystemCycle();
    EXPECT_EQ(c2, c1 + 1);
    EXPECT_EQ(GetSubBlockIdx(), 0);
    EXPECT_EQ(GetTaskRation(), 1);
    EXPECT_EQ(GetTPipePtr(), nullptr);
    {
        TPipe pipe;
        EXPECT_EQ(GetTPipePtr(), &pipe);
        {
            TPipe inner;
            EXPECT_EQ(GetTPipePtr(), &inner);
        }
        EXPECT_EQ(GetTPipePtr(), nullptr); // the last made one is gone
        EXPECT_EQ(pipe.FetchEventID(HardEvent::V_MTE3), 0);
    }
    EXPECT_EQ(GetTPipePtr(), nullptr);
    TQue<TPosition::VECIN, 2> q;
    EXPECT_TRUE(q.VacantInQue());
    EXPECT_FALSE(q.HasTensorInQue());
    EXPECT_EQ(q.GetTensorCountInQue(), 0);
    EXPECT_FALSE(q.HasIdleBuffer()); // no InitBuffer: no buffers at all
    EXPECT_EQ(q.AllocTensor<float>().TwinRef().addr, nullptr);
}

// ---- inside a block ------------------------------------------------------------------------
// out[0..]: pairs (hi, lo) of the vector mask after each setter; then the block's index/num
void MaskKernel(uint8_t *const *args)
{
    uint64_t *out = reinterpret_cast<uint64_t *>(args[0]) + 64 * GetBlockIdx();
    int k = 0;
    auto rec = [&] {
        asc_twin_vector_mask(&out[k], &out[k + 1]);
        k += 2;
    };
    SetMaskNorm();
    for (int32_t len : {0, 1, 63, 64, 65, 127, 128, 200, -5}) {
        SetVectorMask<float>(len);
        rec();
    }
    SetVectorMask<float, MaskMode::COUNTER>(77); // counter form in normal mode: the count
    rec();
    SetMaskCount();
    out[k++] = static_cast<uint64_t>(asc_twin_mask_counter());
    SetVectorMask<half>(300);
    rec();
    SetMaskNorm();
    out[k++] = static_cast<uint64_t>(asc_twin_mask_counter());
    SetVectorMask<float>(uint64_t{0xabc}, uint64_t{0xdef});
    rec();
    AscendCUtils::SetMask<float>(uint64_t{5}, uint64_t{6});
    rec();
    AscendCUtils::SetMask<float>(3);
    rec();
    ResetMask();
    rec();
    AscendCUtils::SetMask<float>(1);
    AscendCUtils::ResetMask();
    rec();
    out[k++] = static_cast<uint64_t>(GetBlockIdx());
    out[k++] = static_cast<uint64_t>(GetBlockNum());
}
const asc_twin_kernel mask_kernel = {"face_units_mask", 0, 2, MaskKernel};
// TwinDispatch by key (asc_twin_face_set_icpu_key): a missing key, a wrong argument count
void DispatchKernel(uint8_t *const *args)
{
    TwinDispatch("face_units_mask", static_cast<int>(reinterpret_cast<uintptr_t>(args[0])), args + 1);
}
const asc_twin_kernel dispatch_kernel = {"face_units_dispatch", 0, 3, DispatchKernel};
// TwinCallKernel: each GM_ADDR to the parameter's pointer type
int64_t called_sum;
void Three(GM_ADDR a, float *b, int32_t *c) { called_sum = reinterpret_cast<intptr_t>(a) + reinterpret_cast<intptr_t>(b) * 10 + reinterpret_cast<intptr_t>(c) * 100; }
// The soft SyncAll's checks (face_state.c), by mode: 1 workspaces of another dtype, 2 a UB
// workspace short of 32 bytes a core, 3 a GM workspace short of it, 4 exact sizes, 5 an
// unbounded GM workspace, 6 usedCores = 1 with a 32-byte UB
void SyncKernel(uint8_t *const *args)
{
    const int mode = static_cast<int>(reinterpret_cast<uintptr_t>(args[0]));
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, mode == 2 || mode == 6 ? 32 : 64);
    LocalTensor<int32_t> ub = buf.Get<int32_t>();
    GlobalTensor<int32_t> gm;
    if (mode == 5)
        gm.SetGlobalBuffer(reinterpret_cast<int32_t *>(args[1]));
    else
        gm.SetGlobalBuffer(reinterpret_cast<int32_t *>(args[1]), mode == 3 ? 8 : 16);
    if (mode == 1) {
        asc_twin_gm_ref g = gm.TwinRef();
        g.dtype = ASC_TWIN_F32;
        asc_twin_face_sync_all_soft(g, ub.TwinRef(), 0);
    } else if (mode == 6) {
        if (GetBlockIdx() == 0) SyncAll(gm, ub, 1); // block 0 alone: 32 bytes of UB suffice
    } else {
        SyncAll(gm, ub);
    }
    // after the barrier (or a report): mark this block's pass
    if (!asc_twin_block_aborted()) reinterpret_cast<int32_t *>(args[1])[32 + GetBlockIdx()] = 1;
}
const asc_twin_kernel sync_kernel = {"face_units_sync", 0, 3, SyncKernel};
// The data moves' parameter forms (x: 32 floats, out: 40 floats):
//   out[0, 8):   DataCopyPad in, Ext form, 1 element of 7.5 left, x[0, 5), 2 of 7.5 right; out by the Ext form
//   out[8, 16):  DataCopyPad in, DataCopyParams form (bytes), x[0, 3) then 5 of -2.0 (paddingValue's bits);
//                out by the DataCopyParams form of DataCopyPad
//   out[16, 32): DataCopy in, DataCopyParams form (32-byte blocks): 2 blocks of 8 floats, 1 block
//                skipped between them in GM: x[0, 8), x[16, 24); out by the DataCopyParams form of DataCopy
//   out[32, 40): DataCopy count forms GM -> UB -> UB -> GM: x[8, 16)
void CopyKernel(uint8_t *const *args)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b1, b2, b3, b4, b5;
    pipe.InitBuffer(b1, 32);
    pipe.InitBuffer(b2, 32);
    pipe.InitBuffer(b3, 64);
    pipe.InitBuffer(b4, 32);
    pipe.InitBuffer(b5, 32);
    GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer(reinterpret_cast<float *>(args[0]), 32);
    og.SetGlobalBuffer(reinterpret_cast<float *>(args[1]), 40);
    LocalTensor<float> u1 = b1.Get<float>(), u2 = b2.Get<float>(), u3 = b3.Get<float>(), u4 = b4.Get<float>(),
                       u5 = b5.Get<float>();
    DataCopyPad(u1, xg, DataCopyExtParams{1, 5 * 4, 0, 0, 0}, DataCopyPadExtParams<float>{true, 1, 2, 7.5f});
    DataCopyPad(og, u1, DataCopyExtParams{1, 8 * 4, 0, 0, 0});
    const float minus2 = -2.0f;
    uint32_t bits;
    std::memcpy(&bits, &minus2, 4);
    DataCopyPad(u2, xg, DataCopyParams{1, 3 * 4, 0, 0}, DataCopyPadParams{true, 0, 5, bits});
    DataCopyPad(og[8], u2, DataCopyParams{1, 8 * 4, 0, 0});
    DataCopy(u3, xg, DataCopyParams{2, 1, 1, 0});
    DataCopy(og[16], u3, DataCopyParams{1, 2, 0, 0});
    DataCopy(u4, xg[8], 8u);
    DataCopy(u5, u4, 8u);
    DataCopy(og[32], u5, 8u);
}
const asc_twin_kernel copy_kernel = {"face_units_copy", 0, 3, CopyKernel};
const int registered = asc_twin_register(&mask_kernel) | asc_twin_register(&dispatch_kernel) |
                       asc_twin_register(&sync_kernel) | asc_twin_register(&copy_kernel);

int RunKernel(const char *name, uint32_t blocks, std::vector<uint8_t *> args, std::string *msg)
{
    asc_twin_launch_args a = {};
    a.kernel = asc_twin_find(name, 0);
    if (a.kernel == nullptr) return -100;
    a.block_dim = blocks;
    args.push_back(nullptr);
    a.gm_args = args.data();
    a.nargs = static_cast<int>(args.size());
    const int zero = 0;
    a.tiling = &zero;
    a.tiling_size = sizeof zero;
    const int status = asc_twin_run_sync(&a);
    if (status != 0 && msg != nullptr) {
        const char *m = aclGetRecentErrMsg();
        *msg = m != nullptr ? m : "";
    }
    return status;
}

TEST(FaceBlock, VectorMasks)
{
    ASSERT_EQ(registered, 0);
    uint64_t *out = static_cast<uint64_t *>(asc_twin_gm_alloc(3 * 64 * 8));
    std::memset(out, 0xee, 3 * 64 * 8);
    std::string msg;
    ASSERT_EQ(RunKernel("face_units_mask", 3, {reinterpret_cast<uint8_t *>(out)}, &msg), 0) << msg;
    const uint64_t M = UINT64_MAX;
    const uint64_t want[] = {
        0, 0,                        // 0 lanes
        0, 1,                        // 1
        0, (uint64_t{1} << 63) - 1,  // 63
        0, M,                        // 64
        1, M,                        // 65
        (uint64_t{1} << 63) - 1, M,  // 127
        M, M,                        // 128
        M, M,                        // 200
        0, 0,                        // negative: none
        0, 77,                       // the counter form
        1,                           // counter mode on
        0, 300,                      // counter mode: the count
        0,                           // normal again
        0xabc, 0xdef,                // hi, lo as given
        5, 6,                        // the utility setter
        0, 7,                        // its length form
        M, M,                        // ResetMask
        M, M,                        // AscendCUtils::ResetMask
    };
    const size_t n = sizeof want / sizeof want[0];
    for (int b = 0; b < 3; b++) {
        for (size_t i = 0; i < n; i++) EXPECT_EQ(out[64 * b + i], want[i]) << "block " << b << " entry " << i;
        EXPECT_EQ(out[64 * b + n], static_cast<uint64_t>(b));
        EXPECT_EQ(out[64 * b + n + 1], 3u);
    }
    asc_twin_gm_free(out);
}

TEST(FaceBlock, Dispatch)
{
    uint64_t *out = static_cast<uint64_t *>(asc_twin_gm_alloc(64 * 8));
    std::string msg;
    // the right count (2 arguments: out and the tiling) under key 0
    asc_twin_face_set_icpu_key(0);
    EXPECT_EQ(RunKernel("face_units_dispatch", 1, {reinterpret_cast<uint8_t *>(uintptr_t{2}), reinterpret_cast<uint8_t *>(out)},
                  &msg),
              0)
        << msg;
    EXPECT_EQ(out[0], 0u); // 0 lanes: the mask kernel ran
    EXPECT_EQ(asc_twin_face_icpu_key(), 0u);
    EXPECT_NE(RunKernel("face_units_dispatch", 1, {reinterpret_cast<uint8_t *>(uintptr_t{3}), reinterpret_cast<uint8_t *>(out)},
                  &msg),
              0);
    EXPECT_EQ(msg, "face_units_dispatch block 0: ICPU_RUN_KF: face_units_mask takes 2 GM_ADDR arguments, 3 given");
    asc_twin_face_set_icpu_key(9);
    EXPECT_EQ(asc_twin_face_icpu_key(), 9u);
    EXPECT_NE(RunKernel("face_units_dispatch", 1, {reinterpret_cast<uint8_t *>(uintptr_t{2}), reinterpret_cast<uint8_t *>(out)},
                  &msg),
              0);
    EXPECT_EQ(msg, "face_units_dispatch block 0: ICPU_RUN_KF: no instantiation of face_units_mask is registered for "
                   "tiling key 9 (ICPU_SET_TILING_KEY; the ASCENDC_TPL_SEL list)");
    asc_twin_face_set_icpu_key(0);
    asc_twin_gm_free(out);
    // TwinCallKernel and TwinKernelArity
    static_assert(TwinKernelArity<decltype(&Three)>::value == 3, "three parameters");
    uint8_t *args[3] = {reinterpret_cast<uint8_t *>(uintptr_t{1}), reinterpret_cast<uint8_t *>(uintptr_t{2}),
                        reinterpret_cast<uint8_t *>(uintptr_t{3})};
    TwinCallKernel(&Three, args);
    EXPECT_EQ(called_sum, 321);
    // TwinEntry sets the block's key before the call
    TwinEntry<&Three, 42>(args);
    EXPECT_EQ(asc_twin_face_block_key(), 42u);
    EXPECT_EQ(called_sum, 321);
}
TEST(FaceBlock, SoftSyncAll)
{
    int32_t *gm = static_cast<int32_t *>(asc_twin_gm_alloc(64 * 4));
    auto run = [&](int mode, std::string *msg) {
        std::memset(gm, 0, 64 * 4);
        return RunKernel("face_units_sync", 2, {reinterpret_cast<uint8_t *>(uintptr_t(mode)),
                                                reinterpret_cast<uint8_t *>(gm)},
                         msg);
    };
    std::string msg;
    auto tail = [&](const std::string &m) { return m.substr(m.find("SyncAll: ") == std::string::npos ? 0 : m.find("SyncAll: ")); };
    EXPECT_NE(run(1, &msg), 0);
    EXPECT_EQ(tail(msg), "SyncAll: the soft form's workspaces are int32_t tensors");
    EXPECT_NE(run(2, &msg), 0);
    EXPECT_EQ(tail(msg), "SyncAll: the UB workspace holds 32 bytes, 2 cores need 64");
    EXPECT_NE(run(3, &msg), 0);
    EXPECT_EQ(tail(msg), "SyncAll: the GM workspace holds 32 bytes, 2 cores need 64");
    for (int mode : {4, 5, 6}) {
        msg.clear();
        EXPECT_EQ(run(mode, &msg), 0) << mode << " " << msg;
        EXPECT_EQ(gm[32], 1) << mode;
        EXPECT_EQ(gm[33], 1) << mode;
    }
    asc_twin_gm_free(gm);
}

TEST(FaceBlock, CopyForms)
{
    float *x = static_cast<float *>(asc_twin_gm_alloc(32 * 4));
    float *out = static_cast<float *>(asc_twin_gm_alloc(40 * 4));
    for (int i = 0; i < 32; i++) x[i] = 0.5f + static_cast<float>(i);
    for (int i = 0; i < 40; i++) out[i] = -99.0f;
    std::string msg;
    ASSERT_EQ(RunKernel("face_units_copy", 1, {reinterpret_cast<uint8_t *>(x), reinterpret_cast<uint8_t *>(out)}, &msg),
              0)
        << msg;
    const float want0[8] = {7.5f, x[0], x[1], x[2], x[3], x[4], 7.5f, 7.5f};
    for (int i = 0; i < 8; i++) EXPECT_EQ(out[i], want0[i]) << i;
    const float want1[8] = {x[0], x[1], x[2], -2.0f, -2.0f, -2.0f, -2.0f, -2.0f};
    for (int i = 0; i < 8; i++) EXPECT_EQ(out[8 + i], want1[i]) << i;
    for (int i = 0; i < 8; i++) {
        EXPECT_EQ(out[16 + i], x[i]) << i;
        EXPECT_EQ(out[24 + i], x[16 + i]) << i;
        EXPECT_EQ(out[32 + i], x[8 + i]) << i;
    }
    asc_twin_gm_free(x);
    asc_twin_gm_free(out);
}

// Outside a launch the soft SyncAll does nothing at all (no check, no log line).
TEST(FaceControl, SoftSyncAllOutsideALaunch)
{
    int32_t w[4] = {0, 0, 0, 0};
    GlobalTensor<int32_t> gm;
    gm.SetGlobalBuffer(w, 1);
    const LocalTensor<int32_t> ub;
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    SyncAll(gm, ub, 4);
    asc_twin_gm_ref g = gm.TwinRef();
    g.dtype = ASC_TWIN_F16;
    asc_twin_face_sync_all_soft(g, ub.TwinRef(), 0);
    const std::string out = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
    EXPECT_EQ(out, "");
}
} // namespace

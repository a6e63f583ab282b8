// op::fp16_t (include/aclnn/opdev/fp16_t.h) against an independent reference: binary16's
// values written from the format's definition (sign, 5-bit exponent biased by 15, 10-bit
// fraction, subnormals below 2^-14), and rounding by searching the sorted table of all
// finite values for the nearest one (ties to the even pattern), not by bit arithmetic.
// Also the interface ops-nn's examples use: std::vector<op::fp16_t>(n, 1.0), (n, 0),
// static_cast<float>.
#include "aclnn/opdev/fp16_t.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

static int failures = 0;
#define CHECK(cond, ...)                                      \
    do {                                                      \
        if (!(cond)) {                                        \
            std::printf("FAIL %s:%d: ", __FILE__, __LINE__);  \
            std::printf(__VA_ARGS__);                         \
            std::printf("\n");                                \
            failures++;                                       \
        }                                                     \
    } while (0)

// The value of pattern h from the definition, by repeated halving/doubling (no ldexp).
static double ref_value(unsigned h) {
    unsigned e = (h >> 10) & 31u, f = h & 1023u;
    double v;
    if (e == 31) return 0.0;  // not used for inf/NaN
    if (e == 0) {
        v = f;
        for (int i = 0; i < 24; i++) v /= 2.0;
    } else {
        v = 1024.0 + f;
        int p = (int)e - 25;
        for (; p > 0; p--) v *= 2.0;
        for (; p < 0; p++) v /= 2.0;
    }
    return (h & 0x8000u) ? -v : v;
}

struct entry {
    double value;
    unsigned bits;
};
static std::vector<entry> positives;  // +0 .. 65504, ascending
static std::vector<entry> table;      // the same and 65536 (pattern 0x7c00, infinity)

// Nearest-even by search: the two table neighbours of |x|, the closer, ties to the even
// pattern; beyond 65504 the next value would be 65536 (its pattern 0x7c00 = infinity).
static unsigned ref_round(double x) {
    unsigned sign = std::signbit(x) ? 0x8000u : 0u;
    double a = std::fabs(x);
    if (a >= 65536.0) return sign | 0x7c00u;
    std::vector<entry>::iterator hi =
        std::lower_bound(table.begin(), table.end(), a, [](const entry &e, double v) { return e.value < v; });
    if (hi->value == a) return sign | hi->bits;
    std::vector<entry>::iterator lo = hi - 1;
    double dlo = a - lo->value, dhi = hi->value - a;
    unsigned pick;
    if (dlo < dhi) pick = lo->bits;
    else if (dhi < dlo) pick = hi->bits;
    else pick = (lo->bits & 1u) ? hi->bits : lo->bits;
    return sign | pick;
}

int main() {
    for (unsigned h = 0; h < 0x7c00u; h++) positives.push_back(entry{ref_value(h), h});
    for (size_t i = 1; i < positives.size(); i++)
        if (!(positives[i - 1].value < positives[i].value)) { std::printf("reference table not ascending\n"); return 1; }
    table = positives;
    table.push_back(entry{65536.0, 0x7c00u});

    // 1. Every pattern to float and double, and back (round trip exact).
    for (unsigned h = 0; h < 0x10000u; h++) {
        op::fp16_t v(static_cast<uint16_t>(h));
        CHECK(v.val == h, "bits constructor keeps 0x%04x", h);
        unsigned e = (h >> 10) & 31u;
        if (e == 31) {
            bool nan = (h & 1023u) != 0;
            CHECK(op::isnan(v) == nan, "isnan(0x%04x)", h);
            CHECK(std::isnan(v.toFloat()) == nan, "0x%04x toFloat NaN-ness", h);
            if (!nan) CHECK(v.IsInf() == ((h & 0x8000u) ? -1 : 1) && std::isinf(static_cast<double>(v)), "0x%04x inf", h);
            continue;
        }
        double want = ref_value(h);
        CHECK(static_cast<double>(v) == want && v.toDouble() == want, "0x%04x to double: %.17g want %.17g", h,
              static_cast<double>(v), want);
        CHECK(static_cast<float>(v) == (float)want && v.toFloat() == (float)want, "0x%04x to float", h);
        CHECK(std::signbit(v.toFloat()) == ((h & 0x8000u) != 0), "0x%04x sign", h);
        CHECK(v.IsInf() == 0 && !op::isnan(v), "0x%04x not inf/NaN", h);
        op::fp16_t back(static_cast<float>(v));
        CHECK(back.val == h, "0x%04x float round trip gives 0x%04x", h, back.val);
    }

    // 2. Rounding: every midpoint between neighbours (ties), a quarter either side of it,
    //    and random floats, against the search.
    for (size_t i = 0; i + 1 < positives.size(); i++) {
        double a = positives[i].value, b = positives[i + 1].value;
        double pts[3] = {(a + b) / 2, a + (b - a) / 4, b - (b - a) / 4};
        for (int k = 0; k < 3; k++) {
            for (int s = 0; s < 2; s++) {
                double x = s ? -pts[k] : pts[k];
                unsigned got = op::fp16_t(x).val, want = ref_round(x);
                CHECK(got == want, "round(%.17g) = 0x%04x want 0x%04x", x, got, want);
                if (got != want) break;
                // float holds every one of these points exactly (at most 12 significant bits)
                unsigned gotf = op::fp16_t(static_cast<float>(x)).val;
                CHECK(gotf == want, "round((float)%.17g) = 0x%04x want 0x%04x", x, gotf, want);
            }
        }
    }
    std::srand(12345);
    for (int i = 0; i < 200000; i++) {
        uint32_t u = (uint32_t)std::rand() << 16 ^ (uint32_t)std::rand();
        u = (u & 0x807fffffu) | ((uint32_t)(96 + std::rand() % 50) << 23);  // 2^-31 .. 2^18
        float f;
        std::memcpy(&f, &u, sizeof f);
        unsigned got = op::fp16_t(f).val, want = ref_round(f);
        CHECK(got == want, "round(%.9g) = 0x%04x want 0x%04x", (double)f, got, want);
        if (got != want) break;
    }
    // The edges by name.
    CHECK(op::fp16_t(65504.0f).val == 0x7bffu, "65504");
    CHECK(op::fp16_t(65519.99).val == 0x7bffu, "65519.99 stays finite");
    CHECK(op::fp16_t(65520.0).val == 0x7c00u, "65520 ties to even: infinity");
    CHECK(op::fp16_t(-1e9).val == 0xfc00u && op::fp16_t(-1e9).IsInf() == -1, "-1e9 to -inf");
    CHECK(op::fp16_t(std::numeric_limits<float>::infinity()).val == 0x7c00u, "+inf");
    CHECK(op::isnan(op::fp16_t(std::numeric_limits<double>::quiet_NaN())), "NaN stays NaN");
    CHECK(op::fp16_t(-0.0).val == 0x8000u, "-0 keeps its sign");
    CHECK(op::fp16_t(std::ldexp(1.0, -25)).val == 0x0000u, "2^-25 ties to even: 0");
    CHECK(op::fp16_t(std::ldexp(1.5, -25)).val == 0x0001u, "1.5 * 2^-25 rounds up to the smallest subnormal");
    CHECK(op::fp16_t(std::ldexp(1.5, -24)).val == 0x0002u, "1.5 * 2^-24 ties to even: 2 * 2^-24");
    CHECK(op::fp16_t(2049).val == 0x6800u, "2049 ties to even: 2048");
    CHECK(op::fp16_t(2051).val == 0x6802u, "2051 ties to even: 2052");
    CHECK(op::fp16_t(1).val == 0x3c00u && op::fp16_t(static_cast<int64_t>(-2)).val == 0xc000u, "integers");

    // 3. Arithmetic: exactly rounded, against the reference rounding of the exact result.
    for (int i = 0; i < 100000; i++) {
        unsigned ha = (unsigned)std::rand() % 0x7c00u, hb = 1u + (unsigned)std::rand() % 0x7bffu;
        if (std::rand() & 1) ha |= 0x8000u;
        op::fp16_t a(static_cast<uint16_t>(ha)), b(static_cast<uint16_t>(hb));
        double da = ref_value(ha), db = ref_value(hb);
        CHECK((a + b).val == ref_round(da + db) || (da + db == 0 && ((a + b).val & 0x7fffu) == 0), "0x%04x + 0x%04x", ha, hb);
        CHECK((a - b).val == ref_round(da - db) || (da - db == 0 && ((a - b).val & 0x7fffu) == 0), "0x%04x - 0x%04x", ha, hb);
        CHECK((a * b).val == ref_round(da * db), "0x%04x * 0x%04x", ha, hb);
        CHECK((a / b).val == ref_round(da / db), "0x%04x / 0x%04x", ha, hb);
        CHECK((a < b) == (da < db) && (a == b) == (da == db) && (a >= b) == (da >= db), "compare 0x%04x 0x%04x", ha, hb);
    }
    op::fp16_t acc(1.0);
    acc += op::fp16_t(2.0);
    acc *= op::fp16_t(4.0);
    acc -= op::fp16_t(2.0);
    acc /= op::fp16_t(5.0);
    CHECK(acc.toFloat() == 2.0f, "compound assignment: (1+2)*4-2)/5 = 2, got %g", (double)acc.toFloat());
    CHECK(op::fp16_t(0.0) == op::fp16_t(-0.0), "+0 == -0");
    op::fp16_t nan(std::numeric_limits<float>::quiet_NaN());
    CHECK(!(nan == nan) && nan != nan, "NaN unordered");

    // 4. Conversions to integers: truncation toward zero, saturating, NaN 0.
    CHECK(op::fp16_t(-2.75).toInt32() == -2 && op::fp16_t(2.75).toInt8() == 2, "truncation");
    CHECK(op::fp16_t(300.0).toInt8() == 127 && op::fp16_t(-300.0).toUInt8() == 0, "saturation");
    CHECK(op::fp16_t(65504.0).toInt16() == 32767 && op::fp16_t(65504.0).toUInt16() == 65504, "16-bit limits");
    CHECK(static_cast<int64_t>(op::fp16_t(-65504.0)) == -65504 && nan.toUInt32() == 0, "int64, NaN");
    CHECK(static_cast<bool>(op::fp16_t(0.5)) && !static_cast<bool>(op::fp16_t(-0.0)), "bool");

    // 5. What ops-nn's example does with it.
    std::vector<op::fp16_t> ones(6, 1.0), zeros(6, 0);
    CHECK(sizeof(op::fp16_t) == 2 && ones[5].val == 0x3c00u && zeros[0].val == 0, "vector(n, 1.0) / vector(n, 0)");
    CHECK(static_cast<float>(ones[2]) == 1.0f, "static_cast<float>");
    static_assert(std::is_trivially_copyable<op::fp16_t>::value, "fp16_t copies as its 2 bytes");

    if (failures) {
        std::printf("test_fp16_t: %d failure(s)\n", failures);
        return 1;
    }
    std::printf("test_fp16_t: all 65536 patterns, every tie and neighbourhood, 200000 random floats, 100000 "
                "random operations: ok\n");
    return 0;
}

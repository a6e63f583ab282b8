/*
 * tests/ascendc/test_twin_int.c: the vector core's integer lanes and its mask instructions,
 * value by value (asc_twin/vec.h): binary Add/Sub/Mul/Max/Min/And/Or, the tensor-scalar forms
 * (Adds, Muls, Maxs, Mins, ShiftLeft, ShiftRight), Not and Relu, MulAddDst, Duplicate in every
 * element width, Compare / CompareScalar in every mode and Select in every mode. Each result
 * is compared with a reference computed here with C's own integer and float operations
 * (wrapping to the element width as the device's integer lanes do), and each type or mode
 * the instruction refuses fails the launch with exactly its message.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "mg_test.h"
#include "twin_test_util.h"

enum { N = 16 };

/* The scenario a launch runs; its one block writes what it computed into g_out (raw
   element bytes) and the return codes of its calls into g_rc. */
typedef void (*scenario_fn)(uint8_t *const *args);
static scenario_fn g_scenario;
/* UB bytes [2048, 4096) (the destinations and masks) after the scenario: a refused
   instruction writes none of them (the rules run before any byte is written) */
static uint8_t g_after[2048];
static void dispatch(uint8_t *const *args) {
    memset(asc_twin_ub_base() + 2048, 0xa5, 2048);
    g_scenario(args);
    memcpy(g_after, asc_twin_ub_base() + 2048, 2048);
}
static const asc_twin_kernel k_int = {"twin_int", 0, 1, dispatch};
static uint8_t g_out[4096];
static int g_rc[64];
static char g_msg[512];

static const char *twin_dtype_name_for_test(asc_twin_dtype dt) {
    static const char *names[] = {"float", "half", "bfloat16_t", "int8_t", "uint8_t", "int16_t",
                                  "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t"};
    return (unsigned)dt < sizeof names / sizeof names[0] ? names[dt] : "?";
}

static int run(scenario_fn s) {
    static int ready;
    if (!ready) {
        ready = 1;
        MG_CHECK_EQ_INT(aclInit(NULL), 0);
        MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    }
    g_scenario = s;
    memset(g_out, 0, sizeof g_out);
    memset(g_rc, 0x55, sizeof g_rc);
    static uint8_t dummy[32];
    uint8_t *args[1] = {dummy};
    return tt_run(&k_int, 1, args, 1, g_msg, sizeof g_msg);
}

/* The launch fails with exactly `want` (the whole message). */
static void expect_refused(scenario_fn s, const char *want) {
    MG_CHECK_EQ_INT(run(s), ACL_ERROR_RT_AICORE_EXCEPTION);
    if (strcmp(g_msg, want) != 0) MG_FAIL("message \"%s\", expected \"%s\"", g_msg, want);
    MG_CHECK_EQ_INT(g_rc[0], -1);
    for (size_t i = 0; i < sizeof g_after; i++)
        if (g_after[i] != 0xa5) {
            MG_FAIL("%s: UB byte %zu written by a refused instruction", want, 2048 + i);
            break;
        }
}
static void expect_ok(scenario_fn s) {
    int status = run(s);
    if (status != 0) MG_FAIL("launch failed: %d \"%s\"", status, g_msg);
}

/* UB tensors of 1024 bytes at 0 (x), 1024 (y), 2048 (dst), 3072 (mask) */
static asc_twin_ub_ref at(int slot, asc_twin_dtype dt) { return tt_ub((uint64_t)slot * 1024, 1024, dt); }

/* ---- the values --------------------------------------------------------------------- */

static const int64_t XS[N] = {0, 1, -1, 2, -2, 127, -128, 255, 32767, -32768, 65535, 2147483647, -2147483647 - 1,
                              100000, -99999, 7};
static const int64_t YS[N] = {5, -1, -1, 3, 7, 1, -1, 1, 2, -2, 3, 1, -1, 70000, 33, -9};

/* v wrapped to dt's width and read back as dt reads it */
static int64_t wrap(asc_twin_dtype dt, int64_t v) {
    uint64_t u = (uint64_t)v;
    switch (dt) {
    case ASC_TWIN_I8: return (int8_t)(uint8_t)u;
    case ASC_TWIN_U8: return (uint8_t)u;
    case ASC_TWIN_I16: return (int16_t)(uint16_t)u;
    case ASC_TWIN_U16: return (uint16_t)u;
    case ASC_TWIN_I32: return (int32_t)(uint32_t)u;
    case ASC_TWIN_U32: return (uint32_t)u;
    default: return v;
    }
}
static void put(uint8_t *p, asc_twin_dtype dt, int i, int64_t v) {
    uint32_t es = asc_twin_dtype_size(dt);
    uint64_t u = (uint64_t)v;
    for (uint32_t k = 0; k < es; k++) p[(size_t)i * es + k] = (uint8_t)(u >> (8 * k)); /* little endian */
}
static int64_t get(const uint8_t *p, asc_twin_dtype dt, int i) {
    uint32_t es = asc_twin_dtype_size(dt);
    uint64_t u = 0;
    for (uint32_t k = 0; k < es; k++) u |= (uint64_t)p[(size_t)i * es + k] << (8 * k);
    return wrap(dt, (int64_t)u);
}
static void load_xy(asc_twin_dtype dt) {
    for (int i = 0; i < N; i++) {
        put(at(0, dt).addr, dt, i, wrap(dt, XS[i]));
        put(at(1, dt).addr, dt, i, wrap(dt, YS[i]));
    }
    memset(at(2, dt).addr, 0xa5, 1024); /* what no lane writes stays 0xa5 */
}
static void take_dst(void) { memcpy(g_out, at(2, ASC_TWIN_U8).addr, 1024); }

/* ---- binary --------------------------------------------------------------------------- */

static asc_twin_dtype g_dt;
static int g_op;
static double g_scalar;

static void binary_int(uint8_t *const *a) {
    (void)a;
    load_xy(g_dt);
    g_rc[0] = asc_twin_binary("Op", (asc_twin_binary_op)g_op, at(2, g_dt), at(0, g_dt), at(1, g_dt), N);
    take_dst();
}

static int64_t binary_ref(int op, int64_t x, int64_t y) {
    switch (op) {
    case ASC_TWIN_ADD: return (int64_t)((uint64_t)x + (uint64_t)y);
    case ASC_TWIN_SUB: return (int64_t)((uint64_t)x - (uint64_t)y);
    case ASC_TWIN_MUL: return (int64_t)((uint64_t)x * (uint64_t)y);
    case ASC_TWIN_MAX: return x > y ? x : y;
    case ASC_TWIN_MIN: return x < y ? x : y;
    case ASC_TWIN_AND: return x & y;
    default: return x | y;
    }
}

static void check_binary(asc_twin_dtype dt, int op) {
    g_dt = dt, g_op = op;
    expect_ok(binary_int);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    uint32_t es = asc_twin_dtype_size(dt);
    for (int i = 0; i < N; i++) {
        int64_t want = wrap(dt, binary_ref(op, wrap(dt, XS[i]), wrap(dt, YS[i])));
        if (get(g_out, dt, i) != want)
            MG_FAIL("%s op %d element %d: %lld, expected %lld", twin_dtype_name_for_test(dt), op, i,
                    (long long)get(g_out, dt, i), (long long)want);
    }
    for (uint32_t b = N * es; b < N * es + 32; b++) MG_CHECK_EQ_INT(g_out[b], 0xa5); /* nothing past count */
}

MG_TEST(binary_integer_lanes_wrap_to_their_width) {
    static const int ops[] = {ASC_TWIN_ADD, ASC_TWIN_SUB, ASC_TWIN_MUL, ASC_TWIN_MAX, ASC_TWIN_MIN};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        check_binary(ASC_TWIN_I16, ops[k]);
        check_binary(ASC_TWIN_I32, ops[k]);
    }
    /* And / Or take every integer width, unsigned ones read zero-extended */
    static const asc_twin_dtype ints[] = {ASC_TWIN_I8,  ASC_TWIN_U8,  ASC_TWIN_I16, ASC_TWIN_U16,
                                          ASC_TWIN_I32, ASC_TWIN_U32, ASC_TWIN_I64, ASC_TWIN_U64};
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        check_binary(ints[k], ASC_TWIN_AND);
        check_binary(ints[k], ASC_TWIN_OR);
    }
}

static void div_i32(uint8_t *const *a) {
    (void)a;
    load_xy(ASC_TWIN_I32);
    g_rc[0] = asc_twin_binary("Div", ASC_TWIN_DIV, at(2, ASC_TWIN_I32), at(0, ASC_TWIN_I32), at(1, ASC_TWIN_I32), N);
}
static void power_i16(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_binary("Power", ASC_TWIN_POWER, at(2, ASC_TWIN_I16), at(0, ASC_TWIN_I16), at(1, ASC_TWIN_I16), N);
}
static void add_i8(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_binary("Add", ASC_TWIN_ADD, at(2, ASC_TWIN_I8), at(0, ASC_TWIN_I8), at(1, ASC_TWIN_I8), N);
}
static void add_u16(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_binary("Add", ASC_TWIN_ADD, at(2, ASC_TWIN_U16), at(0, ASC_TWIN_U16), at(1, ASC_TWIN_U16), N);
}
static void and_f32(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_binary("And", ASC_TWIN_AND, at(2, ASC_TWIN_F32), at(0, ASC_TWIN_F32), at(1, ASC_TWIN_F32), N);
}
static void add_mixed0(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_binary("Add", ASC_TWIN_ADD, at(2, ASC_TWIN_I32), at(0, ASC_TWIN_I16), at(1, ASC_TWIN_I32), N);
}
static void add_mixed1(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_binary("Add", ASC_TWIN_ADD, at(2, ASC_TWIN_I32), at(0, ASC_TWIN_I32), at(1, ASC_TWIN_F32), N);
}
static void binary_unknown(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_binary("Op", ASC_TWIN_BINARY_COUNT, at(2, ASC_TWIN_I32), at(0, ASC_TWIN_I32), at(1, ASC_TWIN_I32), N);
}

MG_TEST(binary_refuses_the_types_it_does_not_take) {
    expect_refused(div_i32, "twin_int block 0: Div: type int32_t is not a type this instruction takes");
    expect_refused(power_i16, "twin_int block 0: Power: type int16_t is not a type this instruction takes");
    expect_refused(add_i8, "twin_int block 0: Add: type int8_t is not a type this instruction takes");
    expect_refused(add_u16, "twin_int block 0: Add: type uint16_t is not a type this instruction takes");
    expect_refused(and_f32, "twin_int block 0: And: type float is not a type this instruction takes");
    expect_refused(add_mixed0,
                   "twin_int block 0: Add: destination int32_t and source int16_t differ (the instruction takes one type)");
    expect_refused(add_mixed1,
                   "twin_int block 0: Add: destination int32_t and source float differ (the instruction takes one type)");
    expect_refused(binary_unknown, "twin_int block 0: Op: unknown binary instruction 9");
}

/* ---- tensor-scalar -------------------------------------------------------------------- */

static void scalar_int(uint8_t *const *a) {
    (void)a;
    load_xy(g_dt);
    g_rc[0] = asc_twin_scalar("Op", (asc_twin_scalar_op)g_op, at(2, g_dt), at(0, g_dt), g_scalar, N);
    take_dst();
}

static int is_signed_dt(asc_twin_dtype dt) {
    return dt == ASC_TWIN_I8 || dt == ASC_TWIN_I16 || dt == ASC_TWIN_I32 || dt == ASC_TWIN_I64;
}

/* the reference: the scalar truncated toward zero; shifts by whole-number division */
static int64_t scalar_ref(asc_twin_dtype dt, int op, int64_t x, double scalar) {
    int64_t s = (int64_t)scalar;
    switch (op) {
    case ASC_TWIN_ADDS: return (int64_t)((uint64_t)x + (uint64_t)s);
    case ASC_TWIN_MULS: return (int64_t)((uint64_t)x * (uint64_t)s);
    case ASC_TWIN_MAXS: return x > s ? x : s;
    case ASC_TWIN_MINS: return x < s ? x : s;
    case ASC_TWIN_SHIFT_LEFT: return (int64_t)((uint64_t)x << s);
    default:
        if (is_signed_dt(dt)) {
            /* floor(x / 2^s): an arithmetic shift */
            int64_t d = (int64_t)1 << s, q = x / d;
            if (x % d != 0 && x < 0) q--;
            return q;
        }
        return (int64_t)((uint64_t)x >> s); /* x already read zero-extended */
    }
}

static void check_scalar(asc_twin_dtype dt, int op, double scalar) {
    g_dt = dt, g_op = op, g_scalar = scalar;
    expect_ok(scalar_int);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    for (int i = 0; i < N; i++) {
        int64_t want = wrap(dt, scalar_ref(dt, op, wrap(dt, XS[i]), scalar));
        if (get(g_out, dt, i) != want)
            MG_FAIL("%s op %d scalar %g element %d (x %lld): %lld, expected %lld", twin_dtype_name_for_test(dt), op,
                    scalar, i, (long long)wrap(dt, XS[i]), (long long)get(g_out, dt, i), (long long)want);
    }
    MG_CHECK_EQ_INT(g_out[N * asc_twin_dtype_size(dt)], 0xa5);
}

MG_TEST(tensor_scalar_integer_lanes) {
    static const int ops[] = {ASC_TWIN_ADDS, ASC_TWIN_MULS, ASC_TWIN_MAXS, ASC_TWIN_MINS};
    static const double scalars[] = {-3.7, 3.7, 70000.0, -1.0, 0.0};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        for (size_t s = 0; s < sizeof scalars / sizeof scalars[0]; s++) {
            check_scalar(ASC_TWIN_I16, ops[k], scalars[s]);
            check_scalar(ASC_TWIN_I32, ops[k], scalars[s]);
        }
}

MG_TEST(shifts_in_every_integer_width) {
    static const asc_twin_dtype ints[] = {ASC_TWIN_I8,  ASC_TWIN_U8,  ASC_TWIN_I16, ASC_TWIN_U16,
                                          ASC_TWIN_I32, ASC_TWIN_U32, ASC_TWIN_I64, ASC_TWIN_U64};
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        uint32_t bits = 8 * asc_twin_dtype_size(ints[k]);
        /* 0, 1, a middle one, the widest (8 * size - 1), and 3.9 (truncated to 3) */
        double shifts[] = {0, 1, 3.9, (double)(bits / 2 + 1), (double)(bits - 1)};
        for (size_t s = 0; s < sizeof shifts / sizeof shifts[0]; s++) {
            if (bits == 64 && shifts[s] == 63) continue; /* the reference's 2^63 would overflow */
            check_scalar(ints[k], ASC_TWIN_SHIFT_LEFT, shifts[s]);
            check_scalar(ints[k], ASC_TWIN_SHIFT_RIGHT, shifts[s]);
        }
    }
}

static void shift_i32_32(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_scalar("ShiftRight", ASC_TWIN_SHIFT_RIGHT, at(2, ASC_TWIN_I32), at(0, ASC_TWIN_I32), 32.0, N);
}
static void shift_i8_8(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_scalar("ShiftLeft", ASC_TWIN_SHIFT_LEFT, at(2, ASC_TWIN_I8), at(0, ASC_TWIN_I8), 8.0, N);
}
static void shift_u64_64(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_scalar("ShiftLeft", ASC_TWIN_SHIFT_LEFT, at(2, ASC_TWIN_U64), at(0, ASC_TWIN_U64), 64.0, N);
}
static void shift_negative(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_scalar("ShiftLeft", ASC_TWIN_SHIFT_LEFT, at(2, ASC_TWIN_U16), at(0, ASC_TWIN_U16), -1.0, N);
}
static void shift_nan(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_scalar("ShiftLeft", ASC_TWIN_SHIFT_LEFT, at(2, ASC_TWIN_U16), at(0, ASC_TWIN_U16), NAN, N);
}
static void shift_f32(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_scalar("ShiftLeft", ASC_TWIN_SHIFT_LEFT, at(2, ASC_TWIN_F32), at(0, ASC_TWIN_F32), 1.0, N);
}
static void leaky_i32(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_scalar("LeakyRelu", ASC_TWIN_LEAKY_RELU, at(2, ASC_TWIN_I32), at(0, ASC_TWIN_I32), 1.0, N);
}
static void divs_i16(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_scalar("Divs", ASC_TWIN_DIVS, at(2, ASC_TWIN_I16), at(0, ASC_TWIN_I16), 1.0, N);
}
static void pows_i16(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_scalar("Power", ASC_TWIN_POWER_TS, at(2, ASC_TWIN_I16), at(0, ASC_TWIN_I16), 1.0, N);
}
static void pows2_i16(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_scalar("Power", ASC_TWIN_POWER_ST, at(2, ASC_TWIN_I16), at(0, ASC_TWIN_I16), 1.0, N);
}
static void adds_i8(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_scalar("Adds", ASC_TWIN_ADDS, at(2, ASC_TWIN_I8), at(0, ASC_TWIN_I8), 1.0, N);
}
static void adds_mixed(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_scalar("Adds", ASC_TWIN_ADDS, at(2, ASC_TWIN_F16), at(0, ASC_TWIN_F32), 1.0, N);
}
static void scalar_unknown(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_scalar("Op", ASC_TWIN_SCALAR_COUNT, at(2, ASC_TWIN_I32), at(0, ASC_TWIN_I32), 1.0, N);
}

MG_TEST(tensor_scalar_refusals) {
    expect_refused(shift_i32_32, "twin_int block 0: ShiftRight: shift by 32 bits, outside [0, 32) for int32_t");
    expect_refused(shift_i8_8, "twin_int block 0: ShiftLeft: shift by 8 bits, outside [0, 8) for int8_t");
    expect_refused(shift_u64_64, "twin_int block 0: ShiftLeft: shift by 64 bits, outside [0, 64) for uint64_t");
    expect_refused(shift_negative, "twin_int block 0: ShiftLeft: shift by -1 bits, outside [0, 16) for uint16_t");
    expect_refused(shift_nan, "twin_int block 0: ShiftLeft: shift by nan bits, outside [0, 16) for uint16_t");
    expect_refused(shift_f32, "twin_int block 0: ShiftLeft: type float is not a type this instruction takes");
    expect_refused(leaky_i32, "twin_int block 0: LeakyRelu: type int32_t is not a type this instruction takes");
    expect_refused(divs_i16, "twin_int block 0: Divs: type int16_t is not a type this instruction takes");
    expect_refused(pows_i16, "twin_int block 0: Power: type int16_t is not a type this instruction takes");
    expect_refused(pows2_i16, "twin_int block 0: Power: type int16_t is not a type this instruction takes");
    expect_refused(adds_i8, "twin_int block 0: Adds: type int8_t is not a type this instruction takes");
    expect_refused(adds_mixed,
                   "twin_int block 0: Adds: destination half and source float differ (the instruction takes one type)");
    expect_refused(scalar_unknown, "twin_int block 0: Op: unknown tensor-scalar instruction 10");
}

/* ---- unary: Not, Relu on int32 -------------------------------------------------------- */

static void unary_int(uint8_t *const *a) {
    (void)a;
    load_xy(g_dt);
    g_rc[0] = asc_twin_unary("Op", (asc_twin_unary_op)g_op, at(2, g_dt), at(0, g_dt), N);
    take_dst();
}

MG_TEST(not_and_int32_relu) {
    static const asc_twin_dtype ints[] = {ASC_TWIN_I8,  ASC_TWIN_U8,  ASC_TWIN_I16, ASC_TWIN_U16,
                                          ASC_TWIN_I32, ASC_TWIN_U32, ASC_TWIN_I64, ASC_TWIN_U64};
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        g_dt = ints[k], g_op = ASC_TWIN_NOT;
        expect_ok(unary_int);
        MG_CHECK_EQ_INT(g_rc[0], 0);
        for (int i = 0; i < N; i++) MG_CHECK_EQ_INT(get(g_out, ints[k], i), wrap(ints[k], ~wrap(ints[k], XS[i])));
    }
    g_dt = ASC_TWIN_I32, g_op = ASC_TWIN_RELU;
    expect_ok(unary_int);
    for (int i = 0; i < N; i++) {
        int64_t x = wrap(ASC_TWIN_I32, XS[i]);
        MG_CHECK_EQ_INT(get(g_out, ASC_TWIN_I32, i), x > 0 ? x : 0);
    }
}

static void relu_i16(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_unary("Relu", ASC_TWIN_RELU, at(2, ASC_TWIN_I16), at(0, ASC_TWIN_I16), N);
}
static void not_f32(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_unary("Not", ASC_TWIN_NOT, at(2, ASC_TWIN_F32), at(0, ASC_TWIN_F32), N);
}
static void exp_i32(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_unary("Exp", ASC_TWIN_EXP, at(2, ASC_TWIN_I32), at(0, ASC_TWIN_I32), N);
}
static void unary_unknown(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_unary("Op", ASC_TWIN_UNARY_COUNT, at(2, ASC_TWIN_F32), at(0, ASC_TWIN_F32), N);
}
static void unary_mixed(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_unary("Abs", ASC_TWIN_ABS, at(2, ASC_TWIN_F32), at(0, ASC_TWIN_BF16), N);
}

MG_TEST(unary_refusals) {
    expect_refused(relu_i16, "twin_int block 0: Relu: type int16_t is not a type this instruction takes");
    expect_refused(not_f32, "twin_int block 0: Not: type float is not a type this instruction takes");
    expect_refused(exp_i32, "twin_int block 0: Exp: type int32_t is not a type this instruction takes");
    expect_refused(unary_unknown, "twin_int block 0: Op: unknown unary instruction 12");
    expect_refused(unary_mixed,
                   "twin_int block 0: Abs: destination float and source bfloat16_t differ (the instruction takes one type)");
}

/* ---- MulAddDst ------------------------------------------------------------------------ */

static void mul_add_int(uint8_t *const *a) {
    (void)a;
    load_xy(g_dt);
    for (int i = 0; i < N; i++) put(at(2, g_dt).addr, g_dt, i, wrap(g_dt, 1000 + 3 * i));
    g_rc[0] = asc_twin_mul_add_dst(at(2, g_dt), at(0, g_dt), at(1, g_dt), N);
    take_dst();
}

/* half: 1 + 2^-10 squared is 1 + 2^-9 + 2^-20, rounded to half 1 + 2^-9 (0x3c02); plus 2^-11
   it is a tie between 0x3c02 and 0x3c03, to even: 0x3c02. Without the product's own rounding
   the sum would lie above the tie (0x3c03). */
static void mul_add_half(uint8_t *const *a) {
    (void)a;
    uint16_t x = 0x3c01, z = 0x1000, neg = 0xbc01;
    for (int i = 0; i < N; i++) {
        memcpy(at(0, ASC_TWIN_F16).addr + 2 * i, &x, 2);
        memcpy(at(1, ASC_TWIN_F16).addr + 2 * i, i == 1 ? &neg : &x, 2);
        memcpy(at(2, ASC_TWIN_F16).addr + 2 * i, &z, 2);
    }
    g_rc[0] = asc_twin_mul_add_dst(at(2, ASC_TWIN_F16), at(0, ASC_TWIN_F16), at(1, ASC_TWIN_F16), N);
    take_dst();
}
static void mul_add_i8(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_mul_add_dst(at(2, ASC_TWIN_I8), at(0, ASC_TWIN_I8), at(1, ASC_TWIN_I8), N);
}
static void mul_add_mixed(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_mul_add_dst(at(2, ASC_TWIN_F32), at(0, ASC_TWIN_F32), at(1, ASC_TWIN_F16), N);
}

MG_TEST(mul_add_dst_integer_and_half) {
    static const asc_twin_dtype dts[] = {ASC_TWIN_I16, ASC_TWIN_I32};
    for (size_t k = 0; k < 2; k++) {
        g_dt = dts[k];
        expect_ok(mul_add_int);
        MG_CHECK_EQ_INT(g_rc[0], 0);
        for (int i = 0; i < N; i++) {
            int64_t x = wrap(g_dt, XS[i]), y = wrap(g_dt, YS[i]), z = wrap(g_dt, 1000 + 3 * i);
            MG_CHECK_EQ_INT(get(g_out, g_dt, i), wrap(g_dt, (int64_t)((uint64_t)x * (uint64_t)y + (uint64_t)z)));
        }
    }
    expect_ok(mul_add_half);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    uint16_t h;
    memcpy(&h, g_out, 2);
    MG_CHECK_EQ_INT(h, 0x3c02);
    /* -(1 + 2^-10) * (1 + 2^-10) + 2^-11: -(1 + 2^-9) + 2^-11 = -(1 + 2^-10 + 2^-11), a tie
       between 0xbc01 and 0xbc02: to even, 0xbc02 */
    memcpy(&h, g_out + 2, 2);
    MG_CHECK_EQ_INT(h, 0xbc02);
    expect_refused(mul_add_i8, "twin_int block 0: MulAddDst: type int8_t is not a type this instruction takes");
    expect_refused(mul_add_mixed,
                   "twin_int block 0: MulAddDst: destination float and source half differ (the instruction takes one type)");
}

/* ---- Duplicate ------------------------------------------------------------------------ */

static void duplicate_all(uint8_t *const *a) {
    (void)a;
    static const asc_twin_dtype dts[] = {ASC_TWIN_I8, ASC_TWIN_F16, ASC_TWIN_F32, ASC_TWIN_I64, ASC_TWIN_U16};
    for (int k = 0; k < 5; k++) {
        memset(at(2, ASC_TWIN_U8).addr, 0xa5, 1024);
        g_rc[k] = asc_twin_duplicate(at(2, dts[k]), -2.75, 5);
        memcpy(g_out + 64 * k, at(2, ASC_TWIN_U8).addr, 64);
    }
}
/* scalars beyond an integer type: NaN is 0, beyond int64 its limits, then the width's wrap */
static void duplicate_edges(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_duplicate(tt_ub(2048, 8, ASC_TWIN_I32), NAN, 2);
    g_rc[1] = asc_twin_duplicate(tt_ub(2048 + 32, 8, ASC_TWIN_I64), 1e30, 1);
    g_rc[2] = asc_twin_duplicate(tt_ub(2048 + 64, 8, ASC_TWIN_I64), -1e30, 1);
    g_rc[3] = asc_twin_duplicate(tt_ub(2048 + 96, 8, ASC_TWIN_I32), 1e30, 1);
    g_rc[4] = asc_twin_duplicate(tt_ub(2048 + 128, 8, ASC_TWIN_I16), -70000.9, 1);
    g_rc[5] = asc_twin_duplicate(tt_ub(2048 + 160, 8, ASC_TWIN_F32), 1e300, 1);
    g_rc[6] = asc_twin_duplicate(tt_ub(2048 + 192, 8, ASC_TWIN_F32), -1e300, 1);
    g_rc[7] = asc_twin_duplicate(tt_ub(2048 + 224, 8, ASC_TWIN_F16), 1e300, 1);
    memcpy(g_out, asc_twin_ub_base() + 2048, 256);
}
static void duplicate_unknown(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_duplicate(at(2, ASC_TWIN_DTYPE_COUNT), 1.0, 4);
}

MG_TEST(duplicate_in_every_width) {
    expect_ok(duplicate_all);
    for (int k = 0; k < 5; k++) MG_CHECK_EQ_INT(g_rc[k], 0);
    /* int8: -2.75 truncated to -2 (0xfe); half -2.75 is 0xc180; float 0xc0300000; int64 -2;
       uint16: -2 wrapped, 0xfffe */
    for (int i = 0; i < 5; i++) MG_CHECK_EQ_INT(g_out[i], 0xfe);
    MG_CHECK_EQ_INT(g_out[5], 0xa5);
    for (int i = 0; i < 5; i++) MG_CHECK_EQ_INT(g_out[64 + 2 * i] | g_out[64 + 2 * i + 1] << 8, 0xc180);
    MG_CHECK_EQ_INT(g_out[64 + 10], 0xa5);
    for (int i = 0; i < 5; i++) {
        uint32_t u;
        memcpy(&u, g_out + 128 + 4 * i, 4);
        MG_CHECK_EQ_INT(u, 0xc0300000u);
    }
    MG_CHECK_EQ_INT(g_out[128 + 20], 0xa5);
    for (int i = 0; i < 5; i++) {
        int64_t v;
        memcpy(&v, g_out + 192 + 8 * i, 8);
        MG_CHECK_EQ_INT(v, -2);
    }
    MG_CHECK_EQ_INT(g_out[192 + 40], 0xa5);
    for (int i = 0; i < 5; i++) MG_CHECK_EQ_INT(g_out[256 + 2 * i] | g_out[256 + 2 * i + 1] << 8, 0xfffe);
    MG_CHECK_EQ_INT(g_out[256 + 10], 0xa5);
    expect_refused(duplicate_unknown, "twin_int block 0: Duplicate: type unknown is not a type this instruction takes");
    expect_ok(duplicate_edges);
    for (int i = 0; i < 8; i++) MG_CHECK_EQ_INT(g_rc[i], 0);
    int32_t i32;
    int64_t i64;
    int16_t i16;
    memcpy(&i32, g_out, 4);
    MG_CHECK_EQ_INT(i32, 0);
    memcpy(&i32, g_out + 4, 4);
    MG_CHECK_EQ_INT(i32, 0);
    memcpy(&i64, g_out + 32, 8);
    MG_CHECK(i64 == INT64_MAX);
    memcpy(&i64, g_out + 64, 8);
    MG_CHECK(i64 == INT64_MIN);
    memcpy(&i32, g_out + 96, 4);
    MG_CHECK_EQ_INT(i32, -1); /* INT64_MAX's low 32 bits */
    memcpy(&i16, g_out + 128, 2);
    MG_CHECK_EQ_INT(i16, (int16_t)(uint16_t)(-70000 & 0xffff)); /* -70000 wrapped: -4464 */
    float f;
    memcpy(&f, g_out + 160, 4);
    MG_CHECK(f == INFINITY);
    memcpy(&f, g_out + 192, 4);
    MG_CHECK(f == -INFINITY);
    MG_CHECK_EQ_INT(g_out[224] | g_out[225] << 8, 0x7c00);
}

/* ---- Compare / CompareScalar / Select ------------------------------------------------- */

static const float CX[10] = {1.0f, 2.0f, 3.0f, NAN, -0.0f, 5.5f, -1e30f, INFINITY, 2.0f, 0.5f};
static const float CY[10] = {2.0f, 2.0f, 2.0f, NAN, 0.0f, NAN, -1e29f, INFINITY, 2.5f, 0.25f};
static const int64_t IX[10] = {1, 2, 3, -2147483647 - 1, 0, 2147483647, -5, 7, 2, 100};
static const int64_t IY[10] = {2, 2, 2, 2147483647, 0, -2147483647 - 1, -5, 6, 3, 99};

static int cmp_ref(int mode, double x, double y) {
    switch (mode) {
    case ASC_TWIN_CMP_LT: return x < y;
    case ASC_TWIN_CMP_GT: return x > y;
    case ASC_TWIN_CMP_EQ: return x == y;
    case ASC_TWIN_CMP_LE: return x <= y;
    case ASC_TWIN_CMP_GE: return x >= y;
    default: return x != y;
    }
}

static void compare_all(uint8_t *const *a) {
    (void)a;
    memcpy(at(0, ASC_TWIN_F32).addr, CX, sizeof CX);
    memcpy(at(1, ASC_TWIN_F32).addr, CY, sizeof CY);
    for (int i = 0; i < 10; i++) {
        int32_t x = (int32_t)IX[i], y = (int32_t)IY[i];
        memcpy(at(0, ASC_TWIN_F32).addr + 64 + 4 * i, &x, 4);
        memcpy(at(1, ASC_TWIN_F32).addr + 64 + 4 * i, &y, 4);
    }
    for (int mode = 0; mode < 6; mode++) {
        asc_twin_ub_ref d = tt_ub(2048 + 32 * (uint64_t)mode, 32, ASC_TWIN_U8);
        memset(d.addr, 0xff, 32);
        g_rc[mode] = asc_twin_compare(d, at(0, ASC_TWIN_F32), at(1, ASC_TWIN_F32), (asc_twin_cmp_mode)mode, 10);
        asc_twin_ub_ref di = tt_ub(2048 + 256 + 32 * (uint64_t)mode, 32, ASC_TWIN_U8);
        memset(di.addr, 0xff, 32);
        g_rc[6 + mode] = asc_twin_compare(di, tt_ub(64, 960, ASC_TWIN_I32), tt_ub(1024 + 64, 960, ASC_TWIN_I32),
                                          (asc_twin_cmp_mode)mode, 10);
        asc_twin_ub_ref ds = tt_ub(2048 + 512 + 32 * (uint64_t)mode, 32, ASC_TWIN_U8);
        memset(ds.addr, 0xff, 32);
        g_rc[12 + mode] = asc_twin_compare_scalar(ds, at(0, ASC_TWIN_F32), 2.0, (asc_twin_cmp_mode)mode, 10);
    }
    /* bfloat16 (the float values are exact in it: 1, 2, 3, NaN, -0, 5.5, ...) against 2 */
    for (int i = 0; i < 10; i++) {
        uint32_t u;
        memcpy(&u, &CX[i], 4);
        uint16_t h = (uint16_t)(u >> 16);
        memcpy(at(0, ASC_TWIN_BF16).addr + 512 + 2 * i, &h, 2);
    }
    for (int mode = 0; mode < 6; mode++) {
        asc_twin_ub_ref db = tt_ub(2048 + 768 + 32 * (uint64_t)mode, 32, ASC_TWIN_U8);
        memset(db.addr, 0xff, 32);
        g_rc[18 + mode] = asc_twin_compare_scalar(db, tt_ub(512, 512, ASC_TWIN_BF16), 2.0, (asc_twin_cmp_mode)mode, 10);
    }
    memcpy(g_out, at(2, ASC_TWIN_U8).addr, 1024);
}

static int bit(const uint8_t *mask, int i) { return (mask[i / 8] >> (i % 8)) & 1; }

MG_TEST(compare_in_every_mode) {
    expect_ok(compare_all);
    for (int mode = 0; mode < 6; mode++) {
        MG_CHECK_EQ_INT(g_rc[mode], 0);
        MG_CHECK_EQ_INT(g_rc[6 + mode], 0);
        MG_CHECK_EQ_INT(g_rc[12 + mode], 0);
        const uint8_t *m = g_out + 32 * mode, *mi = g_out + 256 + 32 * mode, *ms = g_out + 512 + 32 * mode;
        const uint8_t *mb = g_out + 768 + 32 * mode;
        MG_CHECK_EQ_INT(g_rc[18 + mode], 0);
        for (int i = 0; i < 10; i++) {
            float bf; /* CX[i] truncated to bfloat16: exact for these values except -1e30 */
            uint32_t u;
            memcpy(&u, &CX[i], 4);
            u &= 0xffff0000u;
            memcpy(&bf, &u, 4);
            if (bit(mb, i) != cmp_ref(mode, bf, 2.0)) MG_FAIL("CompareScalar bfloat16 mode %d element %d", mode, i);
            if (bit(m, i) != cmp_ref(mode, CX[i], CY[i])) MG_FAIL("Compare float mode %d element %d", mode, i);
            if (bit(mi, i) != cmp_ref(mode, (double)IX[i], (double)IY[i])) MG_FAIL("Compare int32 mode %d element %d", mode, i);
            if (bit(ms, i) != cmp_ref(mode, CX[i], 2.0)) MG_FAIL("CompareScalar mode %d element %d", mode, i);
        }
        /* the bits past the count in the last byte are 0; the byte after it is not written */
        MG_CHECK_EQ_INT(m[1] & 0xfc, 0);
        MG_CHECK_EQ_INT(mi[1] & 0xfc, 0);
        MG_CHECK_EQ_INT(ms[1] & 0xfc, 0);
        MG_CHECK_EQ_INT(m[2], 0xff);
        MG_CHECK_EQ_INT(ms[2], 0xff);
    }
}

static void compare_unknown(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_compare(at(3, ASC_TWIN_U8), at(0, ASC_TWIN_F32), at(1, ASC_TWIN_F32), (asc_twin_cmp_mode)6, 8);
}
static void compare_scalar_unknown(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_compare_scalar(at(3, ASC_TWIN_U8), at(0, ASC_TWIN_F16), 1.0, (asc_twin_cmp_mode)-1, 8);
}
static void compare_i8(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_compare(at(3, ASC_TWIN_U8), at(0, ASC_TWIN_I8), at(1, ASC_TWIN_I8), ASC_TWIN_CMP_LT, 8);
}
static void compare_mixed(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_compare(at(3, ASC_TWIN_U8), at(0, ASC_TWIN_F32), at(1, ASC_TWIN_F16), ASC_TWIN_CMP_LT, 8);
}
static void compare_mask_capacity(uint8_t *const *a) { /* 257 elements need 33 mask bytes */
    (void)a;
    g_rc[0] = asc_twin_compare_scalar(tt_ub(3072, 32, ASC_TWIN_U8), at(0, ASC_TWIN_F32), 1.0, ASC_TWIN_CMP_LT, 257);
}
static void compare_mask_exact(uint8_t *const *a) { /* 256 elements: 32 mask bytes fit */
    (void)a;
    memset(at(0, ASC_TWIN_F32).addr, 0, 1024);
    g_rc[0] = asc_twin_compare_scalar(tt_ub(3072, 32, ASC_TWIN_U8), at(0, ASC_TWIN_F32), 1.0, ASC_TWIN_CMP_LT, 256);
}

MG_TEST(compare_refusals) {
    expect_refused(compare_unknown, "twin_int block 0: Compare: unknown compare mode 6");
    expect_refused(compare_scalar_unknown, "twin_int block 0: CompareScalar: unknown compare mode -1");
    expect_refused(compare_i8, "twin_int block 0: Compare: source type int8_t is not a type this instruction takes");
    expect_refused(compare_mixed,
                   "twin_int block 0: Compare: destination float and source half differ (the instruction takes one type)");
    expect_refused(compare_mask_capacity, "twin_int block 0: CompareScalar: count 257 elements (33 bytes) exceeds the "
                                          "destination mask tensor's 32 bytes");
    expect_ok(compare_mask_exact);
    MG_CHECK_EQ_INT(g_rc[0], 0);
}

static const uint8_t SEL_MASK[2] = {0x5a, 0x03}; /* elements 1, 3, 4, 6, 8, 9 from source 0 */

static void select_all(uint8_t *const *a) {
    (void)a;
    for (int i = 0; i < 10; i++) {
        int32_t x = 100 + i, y = -100 - i;
        memcpy(at(0, ASC_TWIN_I32).addr + 4 * i, &x, 4);
        memcpy(at(1, ASC_TWIN_I32).addr + 4 * i, &y, 4);
    }
    memcpy(at(3, ASC_TWIN_U8).addr, SEL_MASK, 2);
    asc_twin_ub_ref none = {NULL, 0, ASC_TWIN_I32};
    for (int mode = 0; mode < 3; mode++) {
        asc_twin_ub_ref d = tt_ub(2048 + 64 * (uint64_t)mode, 64, ASC_TWIN_I32);
        memset(d.addr, 0xa5, 64);
        /* modes 0 and 1 with the scalar, mode 2 with the tensor */
        g_rc[mode] = asc_twin_select(d, at(3, ASC_TWIN_U8), at(0, ASC_TWIN_I32), mode == 2 ? at(1, ASC_TWIN_I32) : none,
                                     -7.9, (asc_twin_sel_mode)mode, 10);
    }
    memcpy(g_out, at(2, ASC_TWIN_U8).addr, 1024);
}

MG_TEST(select_in_every_mode) {
    expect_ok(select_all);
    for (int mode = 0; mode < 3; mode++) {
        MG_CHECK_EQ_INT(g_rc[mode], 0);
        for (int i = 0; i < 10; i++) {
            int32_t got;
            memcpy(&got, g_out + 64 * mode + 4 * i, 4);
            int32_t want = bit(SEL_MASK, i) ? 100 + i : mode == 2 ? -100 - i : -7;
            if (got != want) MG_FAIL("Select mode %d element %d: %d, expected %d", mode, i, got, want);
        }
        MG_CHECK_EQ_INT(g_out[64 * mode + 40], 0xa5); /* element 10 untouched */
    }
}

static void select_unknown(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_select(at(2, ASC_TWIN_F32), at(3, ASC_TWIN_U8), at(0, ASC_TWIN_F32), at(1, ASC_TWIN_F32), 0.0,
                    (asc_twin_sel_mode)3, 8);
}
static void select_i8(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_select(at(2, ASC_TWIN_I8), at(3, ASC_TWIN_U8), at(0, ASC_TWIN_I8), at(1, ASC_TWIN_I8), 0.0,
                    ASC_TWIN_SEL_TENSOR_TENSOR_MODE, 8);
}
static void select_mixed(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_select(at(2, ASC_TWIN_F32), at(3, ASC_TWIN_U8), at(0, ASC_TWIN_F32), at(1, ASC_TWIN_I32), 0.0,
                    ASC_TWIN_SEL_TENSOR_TENSOR_MODE, 8);
}
static void select_mixed0(uint8_t *const *a) {
    (void)a;
    asc_twin_ub_ref none = {NULL, 0, ASC_TWIN_F32};
    g_rc[0] = asc_twin_select(at(2, ASC_TWIN_F32), at(3, ASC_TWIN_U8), at(0, ASC_TWIN_F16), none, 0.0,
                    ASC_TWIN_SEL_TENSOR_SCALAR_MODE, 8);
}
static void select_mask_capacity(uint8_t *const *a) {
    (void)a;
    asc_twin_ub_ref none = {NULL, 0, ASC_TWIN_F32};
    g_rc[0] = asc_twin_select(at(2, ASC_TWIN_F32), tt_ub(3072, 1, ASC_TWIN_U8), at(0, ASC_TWIN_F32), none, 0.0,
                    ASC_TWIN_SEL_TENSOR_SCALAR_MODE, 9);
}

MG_TEST(select_refusals) {
    expect_refused(select_unknown, "twin_int block 0: Select: unknown selection mode 3");
    expect_refused(select_i8, "twin_int block 0: Select: type int8_t is not a type this instruction takes");
    expect_refused(select_mixed,
                   "twin_int block 0: Select: destination float and source int32_t differ (the instruction takes one type)");
    expect_refused(select_mixed0,
                   "twin_int block 0: Select: destination float and source half differ (the instruction takes one type)");
    expect_refused(select_mask_capacity,
                   "twin_int block 0: Select: count 9 elements (2 bytes) exceeds the selection mask tensor's 1 bytes");
}

MG_TEST_MAIN()

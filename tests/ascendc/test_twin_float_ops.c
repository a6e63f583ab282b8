/*
 * tests/ascendc/test_twin_float_ops.c: every float instruction of the vector core in each
 * float type (asc_twin/vec.h), over a count that spans more than one of the twin's
 * 1024-element tiles, against written expectations:
 *
 *   - each result (of positive and negative inputs) near the value C's double math gives (within the type's rounding: this is
 *     what instruction ran, not its accuracy, which test_twin_numerics.c bounds), the same
 *     input giving the same bits in every tile, and no element past the count written;
 *   - the in-place rule: the basic APIs take dst == src (also under MISHGRAD_TWIN_STRICT=1),
 *     Tanh and Sigmoid, a Compare mask over its source and a partial overlap do not (an error
 *     when strict, with exactly its message; by default the result is computed from what the
 *     source held before).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "mg_test.h"
#include "twin_test_util.h"

enum { COUNT = 1064, PERIOD = 8 };

typedef void (*scenario_fn)(uint8_t *const *args);
static scenario_fn g_scenario;
static void dispatch(uint8_t *const *args) { g_scenario(args); }
static const asc_twin_kernel k_fl = {"twin_fl", 0, 1, dispatch};
static int g_rc[8];
static char g_msg[512];
static uint8_t g_out[COUNT * 4 + 64];

static int run(scenario_fn s) {
    static int ready;
    if (!ready) {
        ready = 1;
        MG_CHECK_EQ_INT(aclInit(NULL), 0);
        MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    }
    g_scenario = s;
    memset(g_rc, 0x55, sizeof g_rc);
    static uint8_t dummy[32];
    uint8_t *args[1] = {dummy};
    return tt_run(&k_fl, 1, args, 1, g_msg, sizeof g_msg);
}

/* the operands: x at UB 0, y at 8192, dst at 16384 (each 8192 bytes) */
static const double XS[PERIOD] = {0.5, -1.25, 2.0, -3.5, 0.75, -1.5, 4.0, -0.3125};
static const double YS[PERIOD] = {2.0, 0.5, 1.5, 3.0, 0.25, 1.25, 0.75, 2.5};
static const double SCALAR = 1.75;

static asc_twin_dtype g_dt;
static int g_kind, g_op;

static double value_of(const uint8_t *p, asc_twin_dtype dt, size_t i) {
    if (dt == ASC_TWIN_F32) {
        float f;
        memcpy(&f, p + 4 * i, 4);
        return f;
    }
    uint16_t h = (uint16_t)(p[2 * i] | p[2 * i + 1] << 8);
    if (dt == ASC_TWIN_BF16) {
        uint32_t u = (uint32_t)h << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    int e = (h >> 10) & 31, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return h & 0x8000 ? -v : v;
}

static void instruction(uint8_t *const *a) {
    (void)a;
    uint32_t es = asc_twin_dtype_size(g_dt);
    asc_twin_ub_ref x = tt_ub(0, 8192, g_dt), y = tt_ub(8192, 8192, g_dt), d = tt_ub(16384, 8192, g_dt);
    for (int i = 0; i < COUNT; i++) {
        asc_twin_set_value(x, (uint64_t)i, XS[i % PERIOD]);
        asc_twin_set_value(y, (uint64_t)i, YS[i % PERIOD]);
    }
    memset(d.addr, 0x77, 8192);
    if (g_kind == 0) g_rc[0] = asc_twin_unary("Op", (asc_twin_unary_op)g_op, d, x, COUNT);
    else if (g_kind == 1) g_rc[0] = asc_twin_binary("Op", (asc_twin_binary_op)g_op, d, x, y, COUNT);
    else g_rc[0] = asc_twin_scalar("Op", (asc_twin_scalar_op)g_op, d, x, SCALAR, COUNT);
    memcpy(g_out, d.addr, (size_t)COUNT * es + 64);
}

static double reference(int kind, int op, double x, double y) {
    if (kind == 0) {
        switch (op) {
        case ASC_TWIN_EXP: return exp(x);
        case ASC_TWIN_LN: return log(x);
        case ASC_TWIN_ABS: return fabs(x);
        case ASC_TWIN_RELU: return x > 0 ? x : 0;
        case ASC_TWIN_SQRT: return sqrt(x);
        case ASC_TWIN_RSQRT: return 1 / sqrt(x);
        case ASC_TWIN_RECIPROCAL: return 1 / x;
        case ASC_TWIN_TANH: return tanh(x);
        case ASC_TWIN_SIGMOID: return 1 / (1 + exp(-x));
        case ASC_TWIN_SIGN: return x > 0 ? 1 : x < 0 ? -1 : x;
        default: return floor(x);
        }
    }
    if (kind == 1) {
        switch (op) {
        case ASC_TWIN_ADD: return x + y;
        case ASC_TWIN_SUB: return x - y;
        case ASC_TWIN_MUL: return x * y;
        case ASC_TWIN_DIV: return x / y;
        case ASC_TWIN_MAX: return x > y ? x : y;
        case ASC_TWIN_MIN: return x < y ? x : y;
        default: return pow(x, y);
        }
    }
    switch (op) {
    case ASC_TWIN_ADDS: return x + SCALAR;
    case ASC_TWIN_MULS: return x * SCALAR;
    case ASC_TWIN_MAXS: return x > SCALAR ? x : SCALAR;
    case ASC_TWIN_MINS: return x < SCALAR ? x : SCALAR;
    case ASC_TWIN_LEAKY_RELU: return x >= 0 ? x : x * SCALAR;
    case ASC_TWIN_DIVS: return x / SCALAR;
    case ASC_TWIN_POWER_TS: return pow(x, SCALAR);
    default: return pow(SCALAR, x);
    }
}

/* the type's rounding of an operand (XS, YS and SCALAR are exact in all three) and of a result */
static double tolerance(asc_twin_dtype dt) { return dt == ASC_TWIN_F32 ? 1e-6 : dt == ASC_TWIN_F16 ? 2e-3 : 1.6e-2; }

static void check_op(int kind, int op) {
    static const asc_twin_dtype types[] = {ASC_TWIN_F32, ASC_TWIN_F16, ASC_TWIN_BF16};
    for (int t = 0; t < 3; t++) {
        g_dt = types[t], g_kind = kind, g_op = op;
        int status = run(instruction);
        if (status != 0) {
            MG_FAIL("kind %d op %d type %d: %d \"%s\"", kind, op, t, status, g_msg);
            continue;
        }
        MG_CHECK_EQ_INT(g_rc[0], 0);
        uint32_t es = asc_twin_dtype_size(g_dt);
        for (int i = 0; i < COUNT; i++) {
            if (memcmp(g_out + (size_t)i * es, g_out + (size_t)(i % PERIOD) * es, es) != 0) {
                MG_FAIL("kind %d op %d type %d: element %d differs from element %d", kind, op, t, i, i % PERIOD);
                break;
            }
        }
        for (int i = 0; i < PERIOD; i++) {
            double want = reference(kind, op, XS[i], YS[i]), got = value_of(g_out, g_dt, (size_t)i);
            /* a NaN result is the float NaN made quiet in the narrower format: half s11111 1000000000,
               bfloat16 s11111111 1000000 (the kernels' NaNs carry no payload) */
            if (isnan(want) && g_dt != ASC_TWIN_F32) {
                uint16_t h = (uint16_t)(g_out[2 * i] | g_out[2 * i + 1] << 8);
                if ((h & 0x7fff) != (g_dt == ASC_TWIN_F16 ? 0x7e00 : 0x7fc0))
                    MG_FAIL("kind %d op %d type %d element %d: NaN bits 0x%04x", kind, op, t, i, h);
            }
            if (isnan(want) ? !isnan(got) : !(fabs(got - want) <= tolerance(g_dt) * fmax(1.0, fabs(want))))
                MG_FAIL("kind %d op %d type %d element %d: %.9g, expected %.9g", kind, op, t, i, got, want);
        }
        for (size_t b = (size_t)COUNT * es; b < (size_t)COUNT * es + 64; b++)
            if (g_out[b] != 0x77) {
                MG_FAIL("kind %d op %d type %d: byte %zu past the count written", kind, op, t, b);
                break;
            }
    }
}

MG_TEST(every_float_instruction_in_every_float_type) {
    for (int op = 0; op < ASC_TWIN_UNARY_COUNT; op++)
        if (op != ASC_TWIN_NOT) check_op(0, op);
    for (int op = 0; op < ASC_TWIN_BINARY_COUNT; op++)
        if (op != ASC_TWIN_AND && op != ASC_TWIN_OR) check_op(1, op);
    for (int op = 0; op < ASC_TWIN_SCALAR_COUNT; op++)
        if (op != ASC_TWIN_SHIFT_LEFT && op != ASC_TWIN_SHIFT_RIGHT) check_op(2, op);
}

/* ---- in place and overlapping operands -------------------------------------------------------- */

static int g_case;
static float g_res[32];
static void in_place(uint8_t *const *a) {
    (void)a;
    asc_twin_ub_ref t = tt_ub(0, 4096, ASC_TWIN_F32), u = tt_ub(4096, 4096, ASC_TWIN_F32);
    for (int i = 0; i < 32; i++) {
        asc_twin_set_value(t, (uint64_t)i, 1.0 + i);
        asc_twin_set_value(u, (uint64_t)i, 2.0);
    }
    asc_twin_ub_ref none = {NULL, 0, ASC_TWIN_F32};
    switch (g_case) {
    case 0: g_rc[0] = asc_twin_unary("Exp", ASC_TWIN_EXP, t, t, 16); break;
    case 1: g_rc[0] = asc_twin_binary("Add", ASC_TWIN_ADD, t, t, u, 16); break;
    case 2: g_rc[0] = asc_twin_binary("Add", ASC_TWIN_ADD, u, t, u, 16); break;
    case 3: g_rc[0] = asc_twin_scalar("Adds", ASC_TWIN_ADDS, t, t, 1.0, 16); break;
    case 4: g_rc[0] = asc_twin_mul_add_dst(t, t, u, 16); break;
    case 5: g_rc[0] = asc_twin_mul_add_dst(t, u, t, 16); break;
    case 6: /* Select with dst == source 0 */
        asc_twin_set_value(tt_ub(8192, 32, ASC_TWIN_U8), 0, 0x0f);
        asc_twin_set_value(tt_ub(8192, 32, ASC_TWIN_U8), 1, 0xf0);
        g_rc[0] = asc_twin_select(t, tt_ub(8192, 32, ASC_TWIN_U8), t, none, 0.0, ASC_TWIN_SEL_TENSOR_SCALAR_MODE, 16);
        break;
    case 7: /* Select with dst == source 1 */
        asc_twin_set_value(tt_ub(8192, 32, ASC_TWIN_U8), 0, 0x0f);
        asc_twin_set_value(tt_ub(8192, 32, ASC_TWIN_U8), 1, 0xf0);
        g_rc[0] = asc_twin_select(t, tt_ub(8192, 32, ASC_TWIN_U8), u, t, 0.0, ASC_TWIN_SEL_TENSOR_TENSOR_MODE, 16);
        break;
    case 8: /* Cast into a narrower destination at the same start */
        g_rc[0] = asc_twin_cast(tt_ub(0, 4096, ASC_TWIN_F16), t, ASC_TWIN_CAST_RINT, 16);
        break;
    case 9: g_rc[0] = asc_twin_copy_ub_to_ub(t, t, 16); break;
    /* the ones the rule refuses (a warning by default) */
    case 10: g_rc[0] = asc_twin_unary("Tanh", ASC_TWIN_TANH, t, t, 16); break;
    case 11: g_rc[0] = asc_twin_unary("Sigmoid", ASC_TWIN_SIGMOID, t, t, 16); break;
    case 12: /* Adds into the source shifted by 32 bytes (8 floats) */
        g_rc[0] = asc_twin_scalar("Adds", ASC_TWIN_ADDS, tt_ub(32, 4064, ASC_TWIN_F32), t, 1.0, 16);
        break;
    case 13: /* Add whose second source starts 32 bytes before the destination */
        g_rc[0] = asc_twin_binary("Add", ASC_TWIN_ADD, tt_ub(32, 4064, ASC_TWIN_F32), u, t, 16);
        break;
    case 14: /* a Compare mask written over its source */
        g_rc[0] = asc_twin_compare_scalar(tt_ub(0, 4096, ASC_TWIN_U8), t, 4.5, ASC_TWIN_CMP_LT, 16);
        break;
    case 15: /* Exp into the source shifted back by 32 bytes */
        g_rc[0] = asc_twin_unary("Exp", ASC_TWIN_EXP, t, tt_ub(32, 4064, ASC_TWIN_F32), 16);
        break;
    case 16: /* a cast into a wider destination at the same start */
        g_rc[0] = asc_twin_cast(tt_ub(0, 4096, ASC_TWIN_F32), tt_ub(0, 4096, ASC_TWIN_F16), ASC_TWIN_CAST_NONE, 16);
        break;
    case 18: /* operands that touch without overlapping: dst right after the source */
        g_rc[0] = asc_twin_scalar("Adds", ASC_TWIN_ADDS, tt_ub(64, 4032, ASC_TWIN_F32), t, 1.0, 16);
        break;
    case 19: /* and right before it */
        g_rc[0] = asc_twin_scalar("Adds", ASC_TWIN_ADDS, t, tt_ub(64, 4032, ASC_TWIN_F32), 1.0, 16);
        break;
    default: /* DataCopy UB -> UB shifted by one block */
        g_rc[0] = asc_twin_copy_ub_to_ub(tt_ub(32, 4064, ASC_TWIN_F32), t, 16);
        break;
    }
    memcpy(g_res, t.addr, sizeof g_res);
}

static void expect_in_place(int c) {
    g_case = c;
    int status = run(in_place);
    if (status != 0) MG_FAIL("case %d: %d \"%s\"", c, status, g_msg);
    MG_CHECK_EQ_INT(g_rc[0], 0);
}
static void expect_strict_error(int c, const char *want) {
    setenv("MISHGRAD_TWIN_STRICT", "1", 1);
    g_case = c;
    MG_CHECK_EQ_INT(run(in_place), ACL_ERROR_RT_AICORE_EXCEPTION);
    if (strcmp(g_msg, want) != 0) MG_FAIL("case %d: \"%s\", expected \"%s\"", c, g_msg, want);
    MG_CHECK_EQ_INT(g_rc[0], -1);
    unsetenv("MISHGRAD_TWIN_STRICT");
}

MG_TEST(in_place_operands) {
    /* allowed: the same under MISHGRAD_TWIN_STRICT=1 */
    for (int strict = 0; strict < 2; strict++) {
        if (strict) setenv("MISHGRAD_TWIN_STRICT", "1", 1);
        for (int c = 0; c <= 9; c++) expect_in_place(c);
        expect_in_place(18);
        expect_in_place(19);
        unsetenv("MISHGRAD_TWIN_STRICT");
    }
    expect_in_place(1);
    for (int i = 0; i < 16; i++) MG_CHECK(g_res[i] == (float)(3 + i));
    expect_in_place(3);
    for (int i = 0; i < 16; i++) MG_CHECK(g_res[i] == (float)(2 + i));
    MG_CHECK(g_res[16] == 17.0f);
    expect_in_place(4); /* dst = src0 * src1 + dst: x * 2 + x */
    for (int i = 0; i < 16; i++) MG_CHECK(g_res[i] == 3.0f * (float)(1 + i));
    expect_in_place(6); /* elements 0..3 and 12..15 kept, the others 0 */
    for (int i = 0; i < 16; i++) MG_CHECK(g_res[i] == ((i < 4 || i >= 12) ? (float)(1 + i) : 0.0f));
    expect_in_place(7); /* from source 0 (2) where the mask is set, else itself */
    for (int i = 0; i < 16; i++) MG_CHECK(g_res[i] == ((i < 4 || i >= 12) ? 2.0f : (float)(1 + i)));

    /* refused: by default a warning and the result from the source as it was */
    expect_in_place(12);
    for (int i = 0; i < 8; i++) MG_CHECK(g_res[i] == (float)(1 + i));
    for (int i = 8; i < 24; i++) MG_CHECK(g_res[i] == (float)(1 + (i - 8)) + 1.0f);
    expect_in_place(13);
    for (int i = 8; i < 24; i++) MG_CHECK(g_res[i] == (float)(1 + (i - 8)) + 2.0f);
    expect_in_place(17);
    for (int i = 8; i < 24; i++) MG_CHECK(g_res[i] == (float)(1 + (i - 8)));
    expect_in_place(16); /* the widened halves read before they are overwritten */
    expect_in_place(14);
    uint8_t mask[2];
    memcpy(mask, g_res, 2);
    MG_CHECK_EQ_INT(mask[0], 0x0f);
    MG_CHECK_EQ_INT(mask[1], 0x00);

    expect_strict_error(10, "twin_fl block 0: Tanh: the destination and source tensors are the same (UB offset 0): "
                            "the API forbids in-place operands");
    expect_strict_error(11, "twin_fl block 0: Sigmoid: the destination and source tensors are the same (UB offset "
                            "0): the API forbids in-place operands");
    expect_strict_error(12, "twin_fl block 0: Adds: the destination [UB offset 32, +64) and source [UB offset 0, +64) "
                            "overlap partially");
    expect_strict_error(13, "twin_fl block 0: Add: the destination [UB offset 32, +64) and source 1 [UB offset 0, "
                            "+64) overlap partially");
    expect_strict_error(14, "twin_fl block 0: CompareScalar: the destination mask and source 0 tensors are the same "
                            "(UB offset 0): ");
    expect_strict_error(15, "twin_fl block 0: Exp: the destination [UB offset 0, +64) and source [UB offset 32, +64) "
                            "overlap partially");
    expect_strict_error(16, "twin_fl block 0: Cast: the destination and source tensors are the same (UB offset 0): a "
                            "wider destination overwrites its source");
    expect_strict_error(17, "twin_fl block 0: DataCopy: the destination [UB offset 32, +64) and source [UB offset 0, "
                            "+64) overlap partially");
}

MG_TEST_MAIN()

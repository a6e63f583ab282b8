/*
 * tests/ascendc/test_twin_written.c: the record of written UB bytes, instruction by
 * instruction (docs/ascendc_twin.md, "Rules": a read of never-written UB reaching GM or a
 * scalar is a report). For each instruction, each of its source operands in turn is left with
 * one element never written (element 5 of 16); the destination's element 5 must then read as
 * never written (GetValue refuses it with exactly its message) and every other element as
 * written, and with every source written every destination element reads. The record's own
 * exceptions are checked too: a Select element taken from the other source stays written, a
 * Compare mask byte is written when any of its eight elements' sources were, a reduction's
 * result is written only when every lane it read was.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "mg_test.h"
#include "twin_test_util.h"

enum { HOLE = 5, CNT = 16 };

typedef void (*instr_fn)(void);
static instr_fn g_instr;
static int g_hole;    /* the operand left with a hole: 0 source 0, 1 source 1, 2 destination (MulAddDst), 3 the
                         Select mask, -1 none */
static int g_probe;   /* the destination element GetValue reads; -1: every one but HOLE, -2: every one */
/* the destination, as an offset in the UB and a type (its address exists only in a launch) */
typedef struct dref {
    uint64_t off;
    asc_twin_dtype dt;
} dref;
static dref D(int k, asc_twin_dtype dt) {
    dref d = {(uint64_t)k * 1024, dt};
    return d;
}
static dref g_dst;
static uint64_t g_n = CNT; /* the destination's elements probed */
static int g_rc;
static char g_msg[512];

static asc_twin_ub_ref slot(int k, asc_twin_dtype dt) { return tt_ub((uint64_t)k * 1024, 1024, dt); }

/* writes CNT elements of t (element HOLE left out when `hole`) */
static void fill(asc_twin_ub_ref t, int hole) {
    for (int i = 0; i < CNT; i++)
        if (!(hole && i == HOLE)) asc_twin_set_value(t, (uint64_t)i, 1.0 + 0.25 * i);
}

static void kernel(uint8_t *const *args) {
    (void)args;
    g_instr();
    if (asc_twin_block_aborted()) return;
    double v;
    for (uint64_t i = 0; i < g_n; i++) {
        if (g_probe >= 0 && i != (uint64_t)g_probe) continue;
        if (g_probe == -1 && i == HOLE) continue;
        g_rc = asc_twin_get_value(tt_ub(g_dst.off, 1024, g_dst.dt), i, &v);
    }
}
static const asc_twin_kernel k_written = {"twin_w", 0, 1, kernel};

static int run(void) {
    static int ready;
    if (!ready) {
        ready = 1;
        MG_CHECK_EQ_INT(aclInit(NULL), 0);
        MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    }
    static uint8_t dummy[32];
    uint8_t *args[1] = {dummy};
    g_rc = 99;
    return tt_run(&k_written, 1, args, 1, g_msg, sizeof g_msg);
}

/* with operand `hole` missing element HOLE: the destination's element `probe` reads as never
   written (message `bytes` of its bytes, at UB offset `at`), every other one reads */
static void expect_hole(const char *what, instr_fn f, int hole, dref dst, int probe, unsigned bytes,
                        unsigned at) {
    g_instr = f, g_hole = hole, g_dst = dst;
    g_probe = probe;
    char want[256];
    snprintf(want, sizeof want,
             "twin_w block 0: GetValue: %u of the %u bytes element %d gives to a scalar were never written (first at "
             "UB offset %u)",
             bytes, bytes, probe, at);
    int status = run();
    if (status != ACL_ERROR_RT_AICORE_EXCEPTION || strcmp(g_msg, want) != 0)
        MG_FAIL("%s, hole in operand %d: %d \"%s\", expected \"%s\"", what, hole, status, g_msg, want);
    MG_CHECK_EQ_INT(g_rc, -1);
    g_probe = -1;
    status = run();
    if (status != 0) MG_FAIL("%s, hole in operand %d: the other elements: %d \"%s\"", what, hole, status, g_msg);
    MG_CHECK_EQ_INT(g_rc, 0);
}
/* with operand `hole` missing element HOLE (or none, -1), every destination element reads */
static void expect_all(const char *what, instr_fn f, int hole, dref dst) {
    g_instr = f, g_hole = hole, g_dst = dst, g_probe = -2;
    int status = run();
    if (status != 0) MG_FAIL("%s, hole in operand %d: %d \"%s\"", what, hole, status, g_msg);
    MG_CHECK_EQ_INT(g_rc, 0);
}

#define F32 ASC_TWIN_F32
#define DST_F32 D(2, F32)

/* ---- elementwise -------------------------------------------------------------------------- */

static void exp_f32(void) {
    fill(slot(0, F32), g_hole == 0);
    g_rc = asc_twin_unary("Exp", ASC_TWIN_EXP, slot(2, F32), slot(0, F32), CNT);
}
static void not_i32(void) {
    fill(slot(0, ASC_TWIN_I32), g_hole == 0);
    asc_twin_unary("Not", ASC_TWIN_NOT, slot(2, ASC_TWIN_I32), slot(0, ASC_TWIN_I32), CNT);
}
static void add_f32(void) {
    fill(slot(0, F32), g_hole == 0);
    fill(slot(1, F32), g_hole == 1);
    asc_twin_binary("Add", ASC_TWIN_ADD, slot(2, F32), slot(0, F32), slot(1, F32), CNT);
}
static void mul_i32(void) {
    fill(slot(0, ASC_TWIN_I32), g_hole == 0);
    fill(slot(1, ASC_TWIN_I32), g_hole == 1);
    asc_twin_binary("Mul", ASC_TWIN_MUL, slot(2, ASC_TWIN_I32), slot(0, ASC_TWIN_I32), slot(1, ASC_TWIN_I32), CNT);
}
static void adds_half(void) {
    fill(slot(0, ASC_TWIN_F16), g_hole == 0);
    asc_twin_scalar("Adds", ASC_TWIN_ADDS, slot(2, ASC_TWIN_F16), slot(0, ASC_TWIN_F16), 2.0, CNT);
}
static void shift_i16(void) {
    fill(slot(0, ASC_TWIN_I16), g_hole == 0);
    asc_twin_scalar("ShiftLeft", ASC_TWIN_SHIFT_LEFT, slot(2, ASC_TWIN_I16), slot(0, ASC_TWIN_I16), 2.0, CNT);
}
static void mul_add_f32(void) {
    fill(slot(0, F32), g_hole == 0);
    fill(slot(1, F32), g_hole == 1);
    fill(slot(2, F32), g_hole == 2);
    asc_twin_mul_add_dst(slot(2, F32), slot(0, F32), slot(1, F32), CNT);
}
static void mul_add_i32(void) {
    fill(slot(0, ASC_TWIN_I32), g_hole == 0);
    fill(slot(1, ASC_TWIN_I32), g_hole == 1);
    fill(slot(2, ASC_TWIN_I32), g_hole == 2);
    asc_twin_mul_add_dst(slot(2, ASC_TWIN_I32), slot(0, ASC_TWIN_I32), slot(1, ASC_TWIN_I32), CNT);
}

MG_TEST(elementwise_instructions_carry_unwritten_elements) {
    expect_all("Exp", exp_f32, -1, DST_F32);
    expect_hole("Exp", exp_f32, 0, DST_F32, HOLE, 4, 2048 + 20);
    expect_hole("Not", not_i32, 0, D(2, ASC_TWIN_I32), HOLE, 4, 2048 + 20);
    expect_all("Add", add_f32, -1, DST_F32);
    expect_hole("Add", add_f32, 0, DST_F32, HOLE, 4, 2048 + 20);
    expect_hole("Add", add_f32, 1, DST_F32, HOLE, 4, 2048 + 20);
    expect_hole("Mul", mul_i32, 0, D(2, ASC_TWIN_I32), HOLE, 4, 2048 + 20);
    expect_hole("Mul", mul_i32, 1, D(2, ASC_TWIN_I32), HOLE, 4, 2048 + 20);
    expect_all("Adds", adds_half, -1, D(2, ASC_TWIN_F16));
    expect_hole("Adds", adds_half, 0, D(2, ASC_TWIN_F16), HOLE, 2, 2048 + 10);
    expect_hole("ShiftLeft", shift_i16, 0, D(2, ASC_TWIN_I16), HOLE, 2, 2048 + 10);
    expect_all("MulAddDst", mul_add_f32, -1, DST_F32);
    for (int h = 0; h < 3; h++) {
        expect_hole("MulAddDst", mul_add_f32, h, DST_F32, HOLE, 4, 2048 + 20);
        expect_hole("MulAddDst", mul_add_i32, h, D(2, ASC_TWIN_I32), HOLE, 4, 2048 + 20);
    }
}

/* ---- Cast, DataCopy UB -> UB, Duplicate, the level-0 forms ---------------------------------------- */

static void cast_narrow(void) {
    fill(slot(0, F32), g_hole == 0);
    asc_twin_cast(slot(2, ASC_TWIN_F16), slot(0, F32), ASC_TWIN_CAST_RINT, CNT);
}
static void cast_widen(void) {
    fill(slot(0, ASC_TWIN_F16), g_hole == 0);
    asc_twin_cast(slot(2, F32), slot(0, ASC_TWIN_F16), ASC_TWIN_CAST_NONE, CNT);
}
static void cast_to_int(void) {
    fill(slot(0, F32), g_hole == 0);
    asc_twin_cast(slot(2, ASC_TWIN_I32), slot(0, F32), ASC_TWIN_CAST_FLOOR, CNT);
}
/* a cast into a wider destination over its own source reads from a snapshot */
static void cast_widen_in_place(void) {
    fill(tt_ub(2048, 1024, ASC_TWIN_F16), g_hole == 0);
    asc_twin_cast(slot(2, F32), tt_ub(2048, 1024, ASC_TWIN_F16), ASC_TWIN_CAST_NONE, CNT);
}
static void copy_ub(void) {
    fill(slot(0, F32), g_hole == 0);
    asc_twin_copy_ub_to_ub(slot(2, F32), slot(0, F32), CNT);
}
/* Duplicate writes its count: over a hole it fills it */
static void duplicate_over(void) {
    fill(slot(2, F32), g_hole == 2);
    asc_twin_duplicate(slot(2, F32), 3.0, CNT);
}
/* the level-0 forms: 16 lanes (mask count 16), one repeat, contiguous */
static asc_twin_repeat rp16(void) {
    asc_twin_repeat r = {1, CNT, 0, 0, 1, 8, 1, 8};
    return r;
}
static void l0_add(void) {
    fill(slot(0, F32), g_hole == 0);
    fill(slot(1, F32), g_hole == 1);
    asc_twin_repeat r = rp16();
    asc_twin_l0_strides st = {{1, 1, 1}, {8, 8, 8}};
    asc_twin_level0("Add", 1, ASC_TWIN_ADD, slot(2, F32), slot(0, F32), slot(1, F32), 0.0, &r, &st);
}
static void l0_exp(void) {
    fill(slot(0, F32), g_hole == 0);
    asc_twin_repeat r = rp16();
    asc_twin_l0_strides st = {{1, 1, 1}, {8, 8, 8}};
    asc_twin_ub_ref none = {NULL, 0, F32};
    asc_twin_level0("Exp", 0, ASC_TWIN_EXP, slot(2, F32), slot(0, F32), none, 0.0, &r, &st);
}
static void l0_adds(void) {
    fill(slot(0, F32), g_hole == 0);
    asc_twin_repeat r = rp16();
    asc_twin_l0_strides st = {{1, 1, 1}, {8, 8, 8}};
    asc_twin_ub_ref none = {NULL, 0, F32};
    asc_twin_level0("Adds", 2, ASC_TWIN_ADDS, slot(2, F32), slot(0, F32), none, 1.5, &r, &st);
}

MG_TEST(cast_copy_duplicate_and_level0_carry_unwritten_elements) {
    expect_all("Cast", cast_narrow, -1, D(2, ASC_TWIN_F16));
    expect_hole("Cast", cast_narrow, 0, D(2, ASC_TWIN_F16), HOLE, 2, 2048 + 10);
    expect_hole("Cast", cast_widen, 0, DST_F32, HOLE, 4, 2048 + 20);
    expect_hole("Cast", cast_to_int, 0, D(2, ASC_TWIN_I32), HOLE, 4, 2048 + 20);
    expect_all("Cast in place", cast_widen_in_place, -1, DST_F32);
    expect_hole("Cast in place", cast_widen_in_place, 0, DST_F32, HOLE, 4, 2048 + 20);
    expect_all("DataCopy", copy_ub, -1, DST_F32);
    expect_hole("DataCopy", copy_ub, 0, DST_F32, HOLE, 4, 2048 + 20);
    expect_all("Duplicate", duplicate_over, 2, DST_F32);
    expect_all("Add level 0", l0_add, -1, DST_F32);
    expect_hole("Add level 0", l0_add, 0, DST_F32, HOLE, 4, 2048 + 20);
    expect_hole("Add level 0", l0_add, 1, DST_F32, HOLE, 4, 2048 + 20);
    expect_hole("Exp level 0", l0_exp, 0, DST_F32, HOLE, 4, 2048 + 20);
    expect_hole("Adds level 0", l0_adds, 0, DST_F32, HOLE, 4, 2048 + 20);
}

/* ---- Select and Compare ------------------------------------------------------------------------ */

/* mask bits: every element from source 0 except element HOLE's neighbour 6 */
static void select_tt(void) {
    fill(slot(0, F32), g_hole == 0);
    fill(slot(1, F32), g_hole == 1);
    asc_twin_ub_ref m = slot(3, ASC_TWIN_U8);
    if (g_hole != 3) asc_twin_set_value(m, 0, 0xbf); /* 1011 1111: element 6 from source 1 */
    asc_twin_set_value(m, 1, 0xff);
    asc_twin_select(slot(2, F32), m, slot(0, F32), slot(1, F32), 0.0, ASC_TWIN_SEL_TENSOR_TENSOR_MODE, CNT);
}
/* element HOLE taken from source 1: that source's record decides it */
static void select_tt_from_1(void) {
    fill(slot(0, F32), g_hole == 0);
    fill(slot(1, F32), g_hole == 1);
    asc_twin_ub_ref m = slot(3, ASC_TWIN_U8);
    asc_twin_set_value(m, 0, 0xdf); /* 1101 1111: element 5 from source 1 */
    asc_twin_set_value(m, 1, 0xff);
    asc_twin_select(slot(2, F32), m, slot(0, F32), slot(1, F32), 0.0, ASC_TWIN_SEL_TENSOR_TENSOR_MODE, CNT);
}
/* with the scalar: elements not taken from source 0 are the scalar's, always written */
static void select_ts(void) {
    fill(slot(0, F32), g_hole == 0);
    asc_twin_ub_ref m = slot(3, ASC_TWIN_U8);
    asc_twin_set_value(m, 0, g_hole == 0 ? 0xdf : 0xff); /* 1101 1111: element 5 the scalar */
    asc_twin_set_value(m, 1, 0xff);
    asc_twin_ub_ref none = {NULL, 0, F32};
    asc_twin_select(slot(2, F32), m, slot(0, F32), none, 1.0, ASC_TWIN_SEL_TENSOR_SCALAR_MODE, CNT);
}

static int g_compare_gap; /* 1: elements 8..15 of source 0 all unwritten */
static void compare_f32(void) {
    asc_twin_ub_ref s0 = slot(0, F32), s1 = slot(1, F32);
    for (int i = 0; i < CNT; i++) {
        if (!(g_hole == 0 && i == HOLE) && !(g_compare_gap && i >= 8)) asc_twin_set_value(s0, (uint64_t)i, i);
        if (!(g_hole == 1 && i == HOLE)) asc_twin_set_value(s1, (uint64_t)i, 7.0);
    }
    asc_twin_compare(slot(3, ASC_TWIN_U8), s0, s1, ASC_TWIN_CMP_LT, CNT);
}
static void compare_scalar_f32(void) {
    asc_twin_ub_ref s0 = slot(0, F32);
    for (int i = 0; i < CNT; i++)
        if (!(g_compare_gap && i >= 8)) asc_twin_set_value(s0, (uint64_t)i, i);
    asc_twin_compare_scalar(slot(3, ASC_TWIN_U8), s0, 3.0, ASC_TWIN_CMP_GE, CNT);
}

MG_TEST(select_and_compare_records) {
    expect_all("Select", select_tt, -1, DST_F32);
    expect_hole("Select", select_tt, 0, DST_F32, HOLE, 4, 2048 + 20);
    /* a hole in source 1 at element 5, which comes from source 0: every element written */
    expect_all("Select", select_tt, 1, DST_F32);
    /* ... and taken from source 1 there: not written */
    expect_hole("Select", select_tt_from_1, 1, DST_F32, HOLE, 4, 2048 + 20);
    expect_all("Select", select_tt_from_1, 0, DST_F32);
    /* the mask byte never written: its 8 elements are not */
    g_instr = select_tt, g_hole = 3, g_dst = DST_F32, g_probe = 0;
    MG_CHECK_EQ_INT(run(), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_STR_CONTAINS(g_msg, "GetValue: 4 of the 4 bytes element 0 gives to a scalar were never written (first "
                                 "at UB offset 2048)");
    g_probe = 7;
    MG_CHECK_EQ_INT(run(), ACL_ERROR_RT_AICORE_EXCEPTION);
    g_probe = 8;
    MG_CHECK_EQ_INT(run(), 0);
    expect_all("Select scalar", select_ts, -1, DST_F32);
    /* element 5 of source 0 unwritten but not taken (the scalar is): written */
    expect_all("Select scalar", select_ts, 0, DST_F32);

    /* Compare: a mask byte is written when any of its 8 elements' sources were */
    g_compare_gap = 0;
    g_n = 2; /* the mask's two bytes */
    expect_all("Compare", compare_f32, 0, D(3, ASC_TWIN_U8));
    expect_all("Compare", compare_f32, 1, D(3, ASC_TWIN_U8));
    g_compare_gap = 1;
    g_instr = compare_f32, g_hole = -1, g_dst = D(3, ASC_TWIN_U8), g_probe = 1;
    MG_CHECK_EQ_INT(run(), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_STR_CONTAINS(g_msg, "twin_w block 0: GetValue: 1 of the 1 bytes element 1 gives to a scalar were never "
                                 "written (first at UB offset 3073)");
    g_probe = 0;
    MG_CHECK_EQ_INT(run(), 0);
    g_instr = compare_scalar_f32, g_probe = 1;
    MG_CHECK_EQ_INT(run(), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_STR_CONTAINS(g_msg, "GetValue: 1 of the 1 bytes element 1 gives to a scalar were never written");
    g_probe = 0;
    MG_CHECK_EQ_INT(run(), 0);
    g_compare_gap = 0;
    g_probe = 1;
    MG_CHECK_EQ_INT(run(), 0);
    g_n = CNT;
}

/* ---- DataCopyPad: data and pad values written, the rest not ------------------------------------- */

static int g_is_pad;
static void pad_in(void) {
    static uint8_t *gm;
    if (gm == NULL) gm = asc_twin_gm_alloc(256);
    /* one block of 3 floats, 2 left and 1 right padding floats: 24 bytes of UB rounded to 32 */
    asc_twin_copy_params p = {1, 12, 0, 0, 1};
    asc_twin_pad_params pad = {g_is_pad, 2, 1, 9.0};
    asc_twin_copy_gm_to_ub_params("DataCopyPad", slot(2, F32), tt_gm(gm, 256, F32), &p, &pad);
}

MG_TEST(datacopypad_padding_records) {
    g_n = 8;
    g_instr = pad_in, g_hole = -1, g_dst = DST_F32;
    g_is_pad = 1;
    for (g_probe = 0; g_probe < 8; g_probe++) {
        MG_CHECK_EQ_INT(run(), g_probe < 6 ? 0 : ACL_ERROR_RT_AICORE_EXCEPTION); /* 2 + 3 + 1 written */
    }
    g_is_pad = 0;
    for (g_probe = 0; g_probe < 8; g_probe++) {
        MG_CHECK_EQ_INT(run(), g_probe >= 2 && g_probe < 5 ? 0 : ACL_ERROR_RT_AICORE_EXCEPTION); /* the data only */
    }
    g_n = CNT;
}

/* ---- reductions ------------------------------------------------------------------------------- */

static int g_red_op;
static void reduce_count(void) {
    fill(slot(0, F32), g_hole == 0);
    asc_twin_reduce("Reduce", (asc_twin_reduce_op)g_red_op, slot(2, F32), slot(0, F32), CNT, 1);
}
/* WholeReduceMax over two repeats of 8 lanes: repeat 0 reads elements 0..7 (the hole), repeat 1
   elements 8..15; value and index of each at dst[2r], dst[2r + 1] */
static void whole_reduce(void) {
    fill(slot(0, F32), g_hole == 0);
    asc_twin_repeat r = {1, 8, 0, 0, 2, 1, 1, 1};
    asc_twin_whole_reduce("WholeReduceMax", ASC_TWIN_REDUCE_MAX, slot(2, F32), slot(0, F32), &r,
                          ASC_TWIN_ORDER_VALUE_INDEX);
}
/* BlockReduceSum: 8 lanes of each 32-byte block to one result: 2 results from 16 lanes */
static void block_reduce(void) {
    fill(slot(0, F32), g_hole == 0);
    asc_twin_repeat r = {1, CNT, 0, 0, 1, 1, 1, 8};
    asc_twin_block_reduce("BlockReduceSum", ASC_TWIN_REDUCE_SUM, slot(2, F32), slot(0, F32), &r);
}

MG_TEST(reductions_are_written_when_every_lane_was) {
    for (g_red_op = 0; g_red_op < 3; g_red_op++) {
        g_n = g_red_op == 0 ? 1 : 2; /* the value, and the index of a max or min */
        expect_all("ReduceSum/Max/Min", reduce_count, -1, DST_F32);
        g_instr = reduce_count, g_hole = 0, g_dst = DST_F32;
        for (g_probe = 0; g_probe < (g_red_op == 0 ? 1 : 2); g_probe++) {
            MG_CHECK_EQ_INT(run(), ACL_ERROR_RT_AICORE_EXCEPTION);
            char want[160];
            snprintf(want, sizeof want, "GetValue: 4 of the 4 bytes element %d gives to a scalar were never written",
                     g_probe);
            MG_CHECK_STR_CONTAINS(g_msg, want);
        }
    }
    g_n = 4;
    g_instr = whole_reduce, g_hole = 0, g_dst = DST_F32;
    for (g_probe = 0; g_probe < 4; g_probe++) MG_CHECK_EQ_INT(run(), g_probe < 2 ? ACL_ERROR_RT_AICORE_EXCEPTION : 0);
    g_hole = -1;
    for (g_probe = 0; g_probe < 4; g_probe++) MG_CHECK_EQ_INT(run(), 0);
    g_instr = block_reduce, g_hole = 0;
    for (g_probe = 0; g_probe < 2; g_probe++) MG_CHECK_EQ_INT(run(), g_probe == 0 ? ACL_ERROR_RT_AICORE_EXCEPTION : 0);
    g_hole = -1;
    for (g_probe = 0; g_probe < 2; g_probe++) MG_CHECK_EQ_INT(run(), 0);
    g_n = CNT;
}

MG_TEST_MAIN()

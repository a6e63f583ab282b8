/*
 * tests/ascendc/test_twin_align.c: the 32-byte alignment rule operand by operand (docs/
 * ascendc_twin.md, "Rules"): every instruction, with each of its UB operands in turn moved 4
 * bytes off a 32-byte boundary, fails with exactly "the <role> tensor starts at UB offset <n>,
 * not 32-byte aligned" and returns -1; with every operand aligned it runs. The operands the
 * rule does not cover (a reduction's destination, a scalar access) take any element-aligned
 * start.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "mg_test.h"
#include "twin_test_util.h"

#define F32 ASC_TWIN_F32

typedef int (*instr_fn)(void);
static instr_fn g_instr;
static int g_shift;  /* which operand (0..3) starts 4 bytes late; -1: none */
static int g_rc;
static char g_msg[512];

/* operand k at UB k * 4096, 4 bytes late when k is the shifted one; every byte written */
static asc_twin_ub_ref op(int k, asc_twin_dtype dt) {
    return tt_ub((uint64_t)k * 4096 + (k == g_shift ? 4 : 0), 2048, dt);
}
static void kernel(uint8_t *const *args) {
    (void)args;
    asc_twin_duplicate(tt_ub(0, 5 * 4096, ASC_TWIN_F32), 1.0, 5 * 1024);
    g_rc = g_instr();
}
static const asc_twin_kernel k_align = {"twin_align", 0, 1, kernel};

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
    return tt_run(&k_align, 1, args, 1, g_msg, sizeof g_msg);
}

/* `roles[k]` names operand k (NULL: not an operand); `checked[k]`: whether the rule covers it */
static void expect_rule(const char *api, instr_fn f, const char *const roles[4], const int checked[4]) {
    g_instr = f, g_shift = -1;
    int status = run();
    if (status != 0 || g_rc != 0) MG_FAIL("%s aligned: %d (rc %d) \"%s\"", api, status, g_rc, g_msg);
    for (int k = 0; k < 4; k++) {
        if (roles[k] == NULL) continue;
        g_shift = k;
        status = run();
        if (!checked[k]) {
            if (status != 0 || g_rc != 0) MG_FAIL("%s, %s 4 bytes off: %d \"%s\"", api, roles[k], status, g_msg);
            continue;
        }
        char want[256];
        snprintf(want, sizeof want, "twin_align block 0: %s: the %s tensor starts at UB offset %d, not 32-byte aligned",
                 api, roles[k], k * 4096 + 4);
        if (status != ACL_ERROR_RT_AICORE_EXCEPTION || strcmp(g_msg, want) != 0)
            MG_FAIL("%s, %s 4 bytes off: %d \"%s\", expected \"%s\"", api, roles[k], status, g_msg, want);
        MG_CHECK_EQ_INT(g_rc, -1);
    }
}

static int unary(void) { return asc_twin_unary("Abs", ASC_TWIN_ABS, op(0, F32), op(1, F32), 16); }
static int binary(void) { return asc_twin_binary("Add", ASC_TWIN_ADD, op(0, F32), op(1, F32), op(2, F32), 16); }
static int scalar(void) { return asc_twin_scalar("Muls", ASC_TWIN_MULS, op(0, F32), op(1, F32), 2.0, 16); }
static int mul_add(void) { return asc_twin_mul_add_dst(op(0, F32), op(1, F32), op(2, F32), 16); }
static int duplicate(void) { return asc_twin_duplicate(op(0, F32), 2.0, 16); }
static int compare(void) { return asc_twin_compare(op(0, ASC_TWIN_U8), op(1, F32), op(2, F32), ASC_TWIN_CMP_GE, 16); }
static int compare_scalar(void) { return asc_twin_compare_scalar(op(0, ASC_TWIN_U8), op(1, F32), 0.5, ASC_TWIN_CMP_GE, 16); }
static int select_tt(void) {
    return asc_twin_select(op(0, F32), op(3, ASC_TWIN_U8), op(1, F32), op(2, F32), 0.0, ASC_TWIN_SEL_TENSOR_TENSOR_MODE, 16);
}
static int cast(void) { return asc_twin_cast(op(0, ASC_TWIN_F16), op(1, F32), ASC_TWIN_CAST_RINT, 16); }
static int copy_ub(void) { return asc_twin_copy_ub_to_ub(op(0, F32), op(1, F32), 16); }
static int reduce(void) { return asc_twin_reduce("ReduceMax", ASC_TWIN_REDUCE_MAX, op(0, F32), op(1, F32), 16, 1); }
static int whole_reduce(void) {
    asc_twin_repeat r = {1, 16, 0, 0, 1, 1, 1, 8};
    return asc_twin_whole_reduce("WholeReduceSum", ASC_TWIN_REDUCE_SUM, op(0, F32), op(1, F32), &r,
                                 ASC_TWIN_ORDER_ONLY_VALUE);
}
static int level0(void) {
    asc_twin_repeat r = {1, 16, 0, 0, 1, 0, 0, 0};
    asc_twin_l0_strides st = {{1, 1, 1}, {8, 8, 8}};
    return asc_twin_level0("Sub", 1, ASC_TWIN_SUB, op(0, F32), op(1, F32), op(2, F32), 0.0, &r, &st);
}
static int scalar_access(void) {
    double v;
    return asc_twin_set_value(op(0, F32), 3, 1.0) | asc_twin_get_value(op(0, F32), 3, &v);
}

MG_TEST(every_operand_starts_32_byte_aligned) {
    static const int all[4] = {1, 1, 1, 1};
    expect_rule("Abs", unary, (const char *const[]){"destination", "source", NULL, NULL}, all);
    expect_rule("Add", binary, (const char *const[]){"destination", "source 0", "source 1", NULL}, all);
    expect_rule("Muls", scalar, (const char *const[]){"destination", "source", NULL, NULL}, all);
    expect_rule("MulAddDst", mul_add, (const char *const[]){"destination", "source 0", "source 1", NULL}, all);
    expect_rule("Duplicate", duplicate, (const char *const[]){"destination", NULL, NULL, NULL}, all);
    expect_rule("Compare", compare, (const char *const[]){"destination mask", "source 0", "source 1", NULL}, all);
    expect_rule("CompareScalar", compare_scalar, (const char *const[]){"destination mask", "source 0", NULL, NULL}, all);
    expect_rule("Select", select_tt, (const char *const[]){"destination", "source 0", "source 1", "selection mask"}, all);
    expect_rule("Cast", cast, (const char *const[]){"destination", "source", NULL, NULL}, all);
    expect_rule("DataCopy", copy_ub, (const char *const[]){"destination", "source", NULL, NULL}, all);
    /* a reduction's destination holds one or two elements: any element-aligned start */
    static const int src_only[4] = {0, 1, 0, 0};
    expect_rule("ReduceMax", reduce, (const char *const[]){"destination", "source", NULL, NULL}, src_only);
    expect_rule("WholeReduceSum", whole_reduce, (const char *const[]){"destination", "source", NULL, NULL}, src_only);
    expect_rule("Sub", level0, (const char *const[]){"destination", "source 0", "source 1", NULL}, all);
    static const int none[4] = {0, 0, 0, 0};
    expect_rule("SetValue", scalar_access, (const char *const[]){"tensor", NULL, NULL, NULL}, none);
}

MG_TEST_MAIN()

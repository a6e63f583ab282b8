/*
 * tests/ascendc/test_twin_rules.c: the planted-rule suite of the vector core (asc_twin/vec.h,
 * docs/ascendc_twin.md "Rules"). For every rule a small kernel that breaks it (its launch fails
 * with ACL_ERROR_RT_AICORE_EXCEPTION and exactly its message) and one that stays just inside
 * (passes); nothing outside the kernel's buffers is written by a broken instruction; the
 * overlap rule is a warning by default and an error under MISHGRAD_TWIN_STRICT=1.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "mg_log_file.h"
#include "mg_test.h"
#include "twin_test_util.h"

#define UB 196608u
#define F32 ASC_TWIN_F32

/* The kernel's GM arguments: args[0] the scenario (int32), args[1] a 4000-byte GmAlloc
   block, args[2] a 4000-byte aclrtMalloc block, args[3] a 4032-byte GmAlloc block,
   args[4] a host buffer from malloc (no GM), args[5] the tiling (8 bytes). */
enum { NARGS = 6 };
static uint8_t *g_args[NARGS];

typedef void (*scenario_fn)(uint8_t *const *args);

/* 1024 floats written at UB offset `at` */
static void fill(uint64_t at, uint64_t count) { asc_twin_duplicate(tt_ub(at, count * 4, F32), 1.5, count); }

/* ---- count within each operand -------------------------------------------------------- */
static void cap_break(uint8_t *const *a) {
    (void)a;
    fill(8192, 2048);
    asc_twin_unary("Exp", ASC_TWIN_EXP, tt_ub(0, 4096, F32), tt_ub(8192, 8192, F32), 1040);
}
static void cap_inside(uint8_t *const *a) {
    (void)a;
    fill(8192, 2048);
    asc_twin_unary("Exp", ASC_TWIN_EXP, tt_ub(0, 4096, F32), tt_ub(8192, 8192, F32), 1024);
}
static void cap_src1_break(uint8_t *const *a) {
    (void)a;
    fill(8192, 3072);
    asc_twin_binary("Add", ASC_TWIN_ADD, tt_ub(0, 8192, F32), tt_ub(8192, 8192, F32), tt_ub(16384, 4096, F32), 1040);
}
/* ---- inside the block's UB ----------------------------------------------------------- */
static void ub_break(uint8_t *const *a) {
    (void)a;
    asc_twin_duplicate(tt_ub(UB - 4096, 8192, F32), 0.0, 1032);
}
static void ub_inside(uint8_t *const *a) {
    (void)a;
    asc_twin_duplicate(tt_ub(UB - 4096, 8192, F32), 0.0, 1024);
}
static void ub_foreign(uint8_t *const *a) {
    asc_twin_ub_ref gm_as_ub = {a[1], 4000, F32};
    fill(0, 1000);
    asc_twin_unary("Exp", ASC_TWIN_EXP, gm_as_ub, tt_ub(0, 4096, F32), 1000);
}
/* ---- 32-byte aligned UB starts -------------------------------------------------------- */
static void align_break(uint8_t *const *a) {
    (void)a;
    fill(0, 2048);
    asc_twin_unary("Exp", ASC_TWIN_EXP, tt_ub(8192, 4096, F32), tt_ub(16, 4096, F32), 1000);
}
static void align_inside(uint8_t *const *a) {
    (void)a;
    fill(0, 2048);
    asc_twin_unary("Exp", ASC_TWIN_EXP, tt_ub(8192, 4096, F32), tt_ub(32, 4096, F32), 1000);
}
/* ---- DataCopy lengths in 32-byte blocks ------------------------------------------------ */
static void len_break(uint8_t *const *a) { asc_twin_copy_gm_to_ub(tt_ub(0, 8192, F32), tt_gm(a[3], 4032, F32), 1001); }
static void len_inside(uint8_t *const *a) { asc_twin_copy_gm_to_ub(tt_ub(0, 8192, F32), tt_gm(a[3], 4032, F32), 1000); }
/* ---- GM within SetGlobalBuffer's size -------------------------------------------------- */
static void gmsize_break(uint8_t *const *a) { asc_twin_copy_gm_to_ub(tt_ub(0, 8192, F32), tt_gm(a[3], 4000, F32), 1008); }
static void gmsize_inside(uint8_t *const *a) { asc_twin_copy_gm_to_ub(tt_ub(0, 8192, F32), tt_gm(a[3], 4000, F32), 1000); }
/* DataCopyPad out of 1001 floats into a 1000-float GlobalTensor: nothing may reach GM */
static void gmsize_out_break(uint8_t *const *a) {
    fill(0, 1008);
    asc_twin_copy_params p = {1, 4004, 0, 0, 1};
    asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[3], 4000, F32), tt_ub(0, 8192, F32), &p);
}
/* ---- GM within the real allocation ----------------------------------------------------- */
static void gmalloc_break(uint8_t *const *a) {
    asc_twin_copy_gm_to_ub(tt_ub(0, 8192, F32), tt_gm(a[1], UINT64_MAX, F32), 1008);
}
static void gmalloc_inside(uint8_t *const *a) {
    asc_twin_copy_gm_to_ub(tt_ub(0, 8192, F32), tt_gm(a[1], UINT64_MAX, F32), 1000);
}
static void acl_break(uint8_t *const *a) {
    fill(0, 1008);
    /* 2 blocks of 500 floats, 36-byte GM gap: 4036 bytes, past the 4032 that aclrtMalloc(4000)
       spans on a device (4000 rounded up to 32, plus 32) */
    asc_twin_copy_params p = {2, 2000, 0, 36, 1};
    asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[2], UINT64_MAX, F32), tt_ub(0, 8192, F32), &p);
}
static void acl_padding_write(uint8_t *const *a) {
    fill(0, 1008);
    asc_twin_copy_params p = {2, 2000, 0, 4, 1}; /* 4004 bytes: the last 4 in the padding */
    asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[2], UINT64_MAX, F32), tt_ub(0, 8192, F32), &p);
}
static void acl_padding_read(uint8_t *const *a) { /* 4032 bytes in, the last 32 in the padding, all out */
    if (asc_twin_copy_gm_to_ub(tt_ub(0, 4096, F32), tt_gm(a[2], UINT64_MAX, F32), 1008) == 0)
        asc_twin_copy_ub_to_gm(tt_gm(a[3], 4032, F32), tt_ub(0, 4096, F32), 1008);
}
static void acl_padding_past(uint8_t *const *a) { /* 4064 bytes in: 32 past the padding */
    asc_twin_copy_gm_to_ub(tt_ub(0, 8192, F32), tt_gm(a[2], UINT64_MAX, F32), 1016);
}
static void acl_inside(uint8_t *const *a) {
    fill(0, 1008);
    asc_twin_copy_params p = {2, 2000, 0, 0, 1};
    asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[2], UINT64_MAX, F32), tt_ub(0, 8192, F32), &p);
}
static void nogm_break(uint8_t *const *a) { asc_twin_copy_gm_to_ub(tt_ub(0, 8192, F32), tt_gm(a[4], 4096, F32), 8); }
/* a core-level tensor whose capacity runs past the UB's end (the faces never make one) */
static void ub_end_pad_out_break(uint8_t *const *a) {
    asc_twin_copy_params p = {1, 128, 0, 0, 1};
    asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[3], 4000, F32), tt_ub(196608 - 64, 8192, F32), &p);
}
static void ub_end_pad_in_break(uint8_t *const *a) {
    asc_twin_copy_params p = {1, 128, 0, 0, 1};
    asc_twin_copy_gm_to_ub_params("DataCopyPad", tt_ub(196608 - 64, 8192, F32), tt_gm(a[1], 4000, F32), &p, NULL);
}
static void nogm_out_break(uint8_t *const *a) {
    fill(0, 8);
    asc_twin_copy_ub_to_gm(tt_gm(a[4], 4096, F32), tt_ub(0, 8192, F32), 8);
}
static void tiling_break(uint8_t *const *a) {
    double v;
    asc_twin_gm_ref t = tt_gm(a[5], UINT64_MAX, ASC_TWIN_I32);
    if (asc_twin_gm_get_value(t, 1, &v) == 0) asc_twin_gm_get_value(t, 2, &v);
}
static void tiling_inside(uint8_t *const *a) {
    double v;
    asc_twin_gm_get_value(tt_gm(a[5], UINT64_MAX, ASC_TWIN_I32), 1, &v);
}
/* ---- unwritten UB bytes reaching GM or a scalar ----------------------------------------- */
static void pad_in(uint8_t *const *a) { /* 1001 floats: the UB block is 4032 bytes, 28 unwritten */
    asc_twin_copy_params p = {1, 4004, 0, 0, 1};
    asc_twin_copy_gm_to_ub_params("DataCopyPad", tt_ub(0, 8192, F32), tt_gm(a[3], 4032, F32), &p, NULL);
}
static void unw_pad_break(uint8_t *const *a) {
    pad_in(a);
    asc_twin_copy_params p = {1, 4032, 0, 0, 1};
    asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[3], 4032, F32), tt_ub(0, 8192, F32), &p);
}
static void unw_inside(uint8_t *const *a) { /* the seed's way: compute over the aligned tile, copy 1001 out */
    pad_in(a);
    asc_twin_unary("Exp", ASC_TWIN_EXP, tt_ub(8192, 4032, F32), tt_ub(0, 4032, F32), 1008);
    asc_twin_binary("Mul", ASC_TWIN_MUL, tt_ub(8192, 4032, F32), tt_ub(8192, 4032, F32), tt_ub(0, 4032, F32), 1008);
    asc_twin_copy_params p = {1, 4004, 0, 0, 1};
    asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[3], 4032, F32), tt_ub(8192, 4032, F32), &p);
}
static void unw_propagate_break(uint8_t *const *a) {
    pad_in(a);
    asc_twin_unary("Exp", ASC_TWIN_EXP, tt_ub(8192, 4032, F32), tt_ub(0, 4032, F32), 1008);
    asc_twin_copy_ub_to_gm(tt_gm(a[3], 4032, F32), tt_ub(8192, 4032, F32), 1008);
}
static void unw_pad_value_inside(uint8_t *const *a) { /* isPad fills the 7 right padding floats */
    asc_twin_copy_params p = {1, 4004, 0, 0, 1};
    asc_twin_pad_params pad = {1, 0, 7, 2.0};
    asc_twin_copy_gm_to_ub_params("DataCopyPad", tt_ub(0, 8192, F32), tt_gm(a[3], 4032, F32), &p, &pad);
    asc_twin_copy_ub_to_gm(tt_gm(a[3], 4032, F32), tt_ub(0, 4032, F32), 1008);
}
static void unw_get_break(uint8_t *const *a) {
    (void)a;
    double v;
    asc_twin_set_value(tt_ub(0, 64, F32), 4, 1.0);
    if (asc_twin_get_value(tt_ub(0, 64, F32), 4, &v) == 0) asc_twin_get_value(tt_ub(0, 64, F32), 5, &v);
}
/* Compare over a count rounded up past the data, Select over it, copy the data out (ops-nn's
   hard_shrink): mask byte 125 holds elements 1000..1007, of which only 1000 was written */
static void mask_tail(uint8_t *const *a) {
    pad_in(a);
    asc_twin_duplicate(tt_ub(20480, 4096, F32), 0.5, 1024);
    asc_twin_compare(tt_ub(16384, 128, ASC_TWIN_U8), tt_ub(0, 4096, F32), tt_ub(20480, 4096, F32), ASC_TWIN_CMP_GT,
                     1024);
    asc_twin_select(tt_ub(8192, 4096, F32), tt_ub(16384, 128, ASC_TWIN_U8), tt_ub(0, 4096, F32),
                    (asc_twin_ub_ref){NULL, 0, F32}, 0.0, ASC_TWIN_SEL_TENSOR_SCALAR_MODE, 1024);
}
static void unw_mask_inside(uint8_t *const *a) {
    mask_tail(a);
    asc_twin_copy_params p = {1, 4004, 0, 0, 1};
    asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[3], 4032, F32), tt_ub(8192, 4032, F32), &p);
}
static void unw_mask_break(uint8_t *const *a) { /* mask byte 126 (elements 1008..1015): none written */
    double v;
    mask_tail(a);
    asc_twin_get_value(tt_ub(8192, 4096, F32), 1007, &v);
    asc_twin_get_value(tt_ub(8192, 4096, F32), 1008, &v);
}
/* ---- operands that overlap where the API forbids it ------------------------------------- */
static void ovl_tanh(uint8_t *const *a) {
    (void)a;
    fill(0, 1024);
    asc_twin_unary("Tanh", ASC_TWIN_TANH, tt_ub(0, 4096, F32), tt_ub(0, 4096, F32), 1024);
    asc_twin_unary("Tanh", ASC_TWIN_TANH, tt_ub(0, 4096, F32), tt_ub(0, 4096, F32), 1024);
}
static void ovl_partial(uint8_t *const *a) {
    /* y = x + x with y 8 floats past x: the result must be 2x of x as it was before */
    for (int i = 0; i < 1032; i++) asc_twin_set_value(tt_ub(0, 8192, F32), (uint64_t)i, (double)i);
    asc_twin_binary("Add", ASC_TWIN_ADD, tt_ub(32, 4096, F32), tt_ub(0, 4096, F32), tt_ub(0, 4096, F32), 1024);
    asc_twin_copy_ub_to_gm(tt_gm(a[3], 4032, F32), tt_ub(32, 4096, F32), 1008);
}
static void ovl_inside(uint8_t *const *a) {
    (void)a;
    fill(0, 1024);
    asc_twin_unary("Exp", ASC_TWIN_EXP, tt_ub(0, 4096, F32), tt_ub(0, 4096, F32), 1024);
    asc_twin_scalar("Muls", ASC_TWIN_MULS, tt_ub(0, 4096, F32), tt_ub(0, 4096, F32), 2.0, 1024);
}
/* ---- Cast's documented conversions -------------------------------------------------------- */
static void cast_pair_break(uint8_t *const *a) {
    (void)a;
    fill(0, 64);
    asc_twin_cast(tt_ub(4096, 64, ASC_TWIN_I8), tt_ub(0, 256, F32), ASC_TWIN_CAST_RINT, 64);
}
static void cast_mode_break(uint8_t *const *a) {
    (void)a;
    asc_twin_duplicate(tt_ub(0, 128, ASC_TWIN_F16), 1.0, 64);
    asc_twin_cast(tt_ub(4096, 256, F32), tt_ub(0, 128, ASC_TWIN_F16), ASC_TWIN_CAST_RINT, 64);
}
static void cast_u8_break(uint8_t *const *a) {
    (void)a;
    asc_twin_duplicate(tt_ub(0, 128, ASC_TWIN_F16), 1.0, 64);
    asc_twin_set_value(tt_ub(0, 128, ASC_TWIN_F16), 9, -0.5);
    asc_twin_cast(tt_ub(4096, 64, ASC_TWIN_U8), tt_ub(0, 128, ASC_TWIN_F16), ASC_TWIN_CAST_TRUNC, 64);
}
static void cast_inside(uint8_t *const *a) {
    (void)a;
    asc_twin_duplicate(tt_ub(0, 128, ASC_TWIN_F16), 1.0, 64);
    asc_twin_cast(tt_ub(4096, 64, ASC_TWIN_U8), tt_ub(0, 128, ASC_TWIN_F16), ASC_TWIN_CAST_TRUNC, 64);
    asc_twin_cast(tt_ub(8192, 256, F32), tt_ub(0, 128, ASC_TWIN_F16), ASC_TWIN_CAST_NONE, 64);
}

static const scenario_fn scenarios[] = {
    cap_break, cap_inside, cap_src1_break, ub_break, ub_inside, ub_foreign, align_break, align_inside,
    len_break, len_inside, gmsize_break, gmsize_inside, gmsize_out_break, gmalloc_break, gmalloc_inside,
    acl_break, acl_inside, nogm_break, tiling_break, tiling_inside, unw_pad_break, unw_inside,
    unw_propagate_break, unw_pad_value_inside, unw_get_break, ovl_tanh, ovl_partial, ovl_inside,
    cast_pair_break, cast_mode_break, cast_u8_break, cast_inside, unw_mask_inside, unw_mask_break,
    acl_padding_write, acl_padding_read, acl_padding_past, nogm_out_break, ub_end_pad_out_break, ub_end_pad_in_break,
};
enum {
    S_CAP_BREAK, S_CAP_INSIDE, S_CAP_SRC1_BREAK, S_UB_BREAK, S_UB_INSIDE, S_UB_FOREIGN, S_ALIGN_BREAK,
    S_ALIGN_INSIDE, S_LEN_BREAK, S_LEN_INSIDE, S_GMSIZE_BREAK, S_GMSIZE_INSIDE, S_GMSIZE_OUT_BREAK,
    S_GMALLOC_BREAK, S_GMALLOC_INSIDE, S_ACL_BREAK, S_ACL_INSIDE, S_NOGM_BREAK, S_TILING_BREAK,
    S_TILING_INSIDE, S_UNW_PAD_BREAK, S_UNW_INSIDE, S_UNW_PROPAGATE_BREAK, S_UNW_PAD_VALUE_INSIDE,
    S_UNW_GET_BREAK, S_OVL_TANH, S_OVL_PARTIAL, S_OVL_INSIDE, S_CAST_PAIR_BREAK, S_CAST_MODE_BREAK,
    S_CAST_U8_BREAK, S_CAST_INSIDE, S_UNW_MASK_INSIDE, S_UNW_MASK_BREAK,
    S_ACL_PADDING_WRITE, S_ACL_PADDING_READ, S_ACL_PADDING_PAST, S_NOGM_OUT_BREAK, S_UB_END_PAD_OUT_BREAK,
    S_UB_END_PAD_IN_BREAK, S_COUNT
};

static void dispatch(uint8_t *const *args) {
    int32_t which;
    memcpy(&which, args[0], sizeof which);
    if (which >= 0 && which < S_COUNT) scenarios[which](args);
}
static const asc_twin_kernel k_rules = {"twin_rules", 0, NARGS, dispatch};

/* Runs scenario `s`; returns the status, the message (after "twin_rules block 0: ") in msg. */
static int run(int s, char *msg, size_t size) {
    memcpy(g_args[0], &s, sizeof s);
    int32_t tiling[2] = {7, 8};
    asc_twin_launch_args a = {&k_rules, 1, g_args, NARGS, tiling, sizeof tiling};
    int status = asc_twin_run_sync(&a);
    const char *recent = status != 0 ? aclGetRecentErrMsg() : NULL;
    const char *prefix = "twin_rules block 0: ";
    if (recent != NULL && strncmp(recent, prefix, strlen(prefix)) == 0) recent += strlen(prefix);
    snprintf(msg, size, "%s", recent ? recent : "");
    return status;
}

static void expect_break(int s, const char *message) {
    char msg[512];
    MG_CHECK_EQ_INT(run(s, msg, sizeof msg), ACL_ERROR_RT_AICORE_EXCEPTION);
    if (strcmp(msg, message) != 0) MG_FAIL("scenario %d: message\n    %s\n  expected\n    %s", s, msg, message);
    MG_CHECK(strcmp(msg, message) == 0);
}
static void expect_pass(int s) {
    char msg[512];
    int status = run(s, msg, sizeof msg);
    if (status != 0) MG_FAIL("scenario %d failed: %s", s, msg);
    MG_CHECK_EQ_INT(status, 0);
}

static void setup(void) {
    static int done;
    if (done) return;
    done = 1;
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "2", 1); /* the overlap rule's warnings are logged */
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    g_args[0] = asc_twin_gm_alloc(4);
    g_args[1] = asc_twin_gm_alloc(4000);
    void *dev = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&dev, 4000, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    g_args[2] = dev;
    g_args[3] = asc_twin_gm_alloc(4032);
    g_args[4] = malloc(4096);
    g_args[5] = NULL; /* the launch's tiling copy */
}

MG_TEST(count_within_each_operand) {
    setup();
    expect_break(S_CAP_BREAK, "Exp: count 1040 elements (4160 bytes) exceeds the destination tensor's 4096 bytes");
    expect_pass(S_CAP_INSIDE);
    expect_break(S_CAP_SRC1_BREAK, "Add: count 1040 elements (4160 bytes) exceeds the source 1 tensor's 4096 bytes");
}

MG_TEST(ub_operands_inside_the_blocks_ub) {
    setup();
    expect_break(S_UB_BREAK, "Duplicate: the destination tensor's 4128 bytes at UB offset 192512 run past the UB's "
                             "end (196608 bytes)");
    expect_pass(S_UB_INSIDE);
    expect_break(S_UB_END_PAD_OUT_BREAK, "DataCopyPad: the source tensor's 128 bytes at UB offset 196544 run past "
                                         "the UB's end (196608 bytes)");
    expect_break(S_UB_END_PAD_IN_BREAK, "DataCopyPad: the destination tensor's 128 bytes at UB offset 196544 run "
                                        "past the UB's end (196608 bytes)");
    char msg[512], want[256];
    MG_CHECK_EQ_INT(run(S_UB_FOREIGN, msg, sizeof msg), ACL_ERROR_RT_AICORE_EXCEPTION);
    snprintf(want, sizeof want, "Exp: the destination tensor at %p is not in the block's UB (196608 bytes)",
             (void *)g_args[1]);
    MG_CHECK_STR_CONTAINS(msg, want);
}

MG_TEST(ub_starts_32_byte_aligned) {
    setup();
    expect_break(S_ALIGN_BREAK, "Exp: the source tensor starts at UB offset 16, not 32-byte aligned");
    expect_pass(S_ALIGN_INSIDE);
}

MG_TEST(datacopy_lengths_in_32_byte_blocks) {
    setup();
    expect_break(S_LEN_BREAK, "DataCopy: count 1001 elements (4004 bytes) is not a multiple of 32 bytes");
    expect_pass(S_LEN_INSIDE);
}

MG_TEST(gm_within_setglobalbuffer_size_and_nothing_written) {
    setup();
    expect_break(S_GMSIZE_BREAK, "DataCopy: GM bytes [0, 4032) of the source exceed the 4000 bytes SetGlobalBuffer gave");
    expect_pass(S_GMSIZE_INSIDE);
    memset(g_args[3], 0x5a, 4032);
    expect_break(S_GMSIZE_OUT_BREAK,
                 "DataCopyPad: GM bytes [0, 4004) of the destination exceed the 4000 bytes SetGlobalBuffer gave");
    int untouched = 1;
    for (int i = 0; i < 4032; i++) untouched &= g_args[3][i] == 0x5a;
    MG_CHECK(untouched);
}

MG_TEST(gm_within_the_real_allocation) {
    setup();
    expect_break(S_GMALLOC_BREAK,
                 "DataCopy: GM bytes [0, 4032) of the source run 32 bytes past the end of its GmAlloc block (4000 bytes)");
    expect_pass(S_GMALLOC_INSIDE);
    memset(g_args[2], 0x5a, 4000);
    expect_break(S_ACL_BREAK, "DataCopyPad: GM bytes [0, 4036) of the destination run 36 bytes past the end of its "
                              "aclrtMalloc block (4000 bytes)");
    MG_CHECK(g_args[2][0] == 0x5a && g_args[2][3999] == 0x5a);
    expect_pass(S_ACL_INSIDE);
    char msg[512], want[256];
    MG_CHECK_EQ_INT(run(S_NOGM_BREAK, msg, sizeof msg), ACL_ERROR_RT_AICORE_EXCEPTION);
    snprintf(want, sizeof want, "DataCopy: GM bytes [%p, +32) of the source are in no GM allocation", (void *)g_args[4]);
    MG_CHECK_STR_CONTAINS(msg, want);
    /* a destination in no GM allocation: refused, and not a byte of it written */
    memset(g_args[4], 0x5a, 4096);
    MG_CHECK_EQ_INT(run(S_NOGM_OUT_BREAK, msg, sizeof msg), ACL_ERROR_RT_AICORE_EXCEPTION);
    snprintf(want, sizeof want, "DataCopy: GM bytes [%p, +32) of the destination are in no GM allocation",
             (void *)g_args[4]);
    MG_CHECK_STR_CONTAINS(msg, want);
    int untouched = 1;
    for (int i = 0; i < 4096; i++) untouched &= g_args[4][i] == 0x5a;
    MG_CHECK(untouched);
    expect_break(S_TILING_BREAK,
                 "GetValue: GM bytes [8, 12) of the tensor run 4 bytes past the end of its launch's tiling copy (8 bytes)");
    expect_pass(S_TILING_INSIDE);
}

/* CANN's aclrtMalloc spans the size rounded up to 32 bytes plus 32: a copy into that padding
   stays inside the allocation on a device. A warning (the bytes in the block copied, the
   padding read as zeros and never written), an error under MISHGRAD_TWIN_STRICT=1, and one
   byte block past the padding an error as before. */
MG_TEST(aclrtmalloc_padding_is_a_warning) {
    setup();
    static const float one_and_a_half = 1.5f;
    memset(g_args[2], 0x5a, 4000);
    expect_pass(S_ACL_PADDING_WRITE);
    float first, last;
    memcpy(&first, g_args[2], 4);
    memcpy(&last, g_args[2] + 3996, 4); /* block 1 lands at [2004, 4004): 3996 is its last float in the block */
    MG_CHECK(first == one_and_a_half && last == one_and_a_half);
    MG_CHECK(g_args[2][2000] == 0x5a && g_args[2][2003] == 0x5a); /* the gap */
    for (int i = 0; i < 1000; i++) memcpy(g_args[2] + 4 * i, &i, 4);
    memset(g_args[3], 0x5a, 4032);
    expect_pass(S_ACL_PADDING_READ);
    int same = memcmp(g_args[3], g_args[2], 4000) == 0, zeros = 1;
    for (int i = 4000; i < 4032; i++) zeros &= g_args[3][i] == 0;
    MG_CHECK(same);
    MG_CHECK(zeros);
    expect_break(S_ACL_PADDING_PAST, "DataCopy: GM bytes [0, 4064) of the source run 64 bytes past the end of its "
                                     "aclrtMalloc block (4000 bytes)");
    setenv("MISHGRAD_TWIN_STRICT", "1", 1);
    memset(g_args[2], 0x5a, 4000);
    expect_break(S_ACL_PADDING_WRITE,
                 "DataCopyPad: GM bytes [0, 4004) of the destination run 4 bytes past the end of its aclrtMalloc "
                 "block (4000 bytes), within the padding CANN's aclrtMalloc adds (4032 bytes in all): read as zeros, "
                 "not written here");
    MG_CHECK(g_args[2][0] == 0x5a && g_args[2][3999] == 0x5a);
    unsetenv("MISHGRAD_TWIN_STRICT");
}

MG_TEST(unwritten_ub_bytes_never_reach_gm_or_a_scalar) {
    setup();
    expect_break(S_UNW_PAD_BREAK,
                 "DataCopyPad: 28 of the 4032 bytes the source tensor gives to GM were never written (first at UB offset 4004)");
    expect_pass(S_UNW_INSIDE);
    expect_break(S_UNW_PROPAGATE_BREAK,
                 "DataCopy: 28 of the 4032 bytes the source tensor gives to GM were never written (first at UB offset 12196)");
    expect_pass(S_UNW_PAD_VALUE_INSIDE);
    float *y = (float *)(void *)g_args[3];
    MG_CHECK(y[1001] == 2.0f && y[1007] == 2.0f);
    expect_break(S_UNW_GET_BREAK, "GetValue: 4 of the 4 bytes element 5 gives to a scalar were never written (first at UB "
                                  "offset 20)");
    /* a Compare mask byte is written when any of its elements' sources were */
    expect_pass(S_UNW_MASK_INSIDE);
    expect_break(S_UNW_MASK_BREAK, "GetValue: 4 of the 4 bytes element 1008 gives to a scalar were never written (first "
                                   "at UB offset 12224)");
}

MG_TEST(overlap_is_a_warning_by_default_and_an_error_when_strict) {
    setup();
    long log_at = mg_log_size();
    expect_pass(S_OVL_TANH);
    expect_pass(S_OVL_PARTIAL);
    float *y = (float *)(void *)g_args[3];
    int right = 1;
    for (int i = 0; i < 1008; i++) right &= y[i] == 2.0f * (float)i; /* read before written */
    MG_CHECK(right);
    expect_pass(S_OVL_INSIDE);
    char *log = mg_log_text_since(log_at);
    MG_CHECK(log != NULL);
    if (log != NULL) {
        const char *first = strstr(log, "twin_rules block 0: Tanh: the destination and source tensors are the same");
        MG_CHECK(first != NULL);
        if (first) MG_CHECK(strstr(first + 40, "Tanh: the destination and source") == NULL); /* once per launch */
        MG_CHECK(strstr(log, "Add: the destination [UB offset 32, +4096) and source 0 [UB offset 0, +4096) overlap "
                             "partially") != NULL);
        MG_CHECK(strstr(log, "Exp:") == NULL);
        free(log);
    }
    setenv("MISHGRAD_TWIN_STRICT", "1", 1);
    expect_break(S_OVL_TANH, "Tanh: the destination and source tensors are the same (UB offset 0): the API forbids "
                             "in-place operands");
    expect_break(S_OVL_PARTIAL, "Add: the destination [UB offset 32, +4096) and source 0 [UB offset 0, +4096) overlap "
                                "partially");
    expect_pass(S_OVL_INSIDE);
    unsetenv("MISHGRAD_TWIN_STRICT");
}

MG_TEST(cast_takes_the_documented_conversions) {
    setup();
    expect_break(S_CAST_PAIR_BREAK, "Cast: float to int8_t is not a conversion CANN's Cast supports (Atlas A2 table)");
    expect_break(S_CAST_MODE_BREAK, "Cast: half to float does not take CAST_RINT");
    expect_break(S_CAST_U8_BREAK,
                 "Cast: element 9 is -0.5, negative for uint8_t (CANN's Cast treats it as an exception)");
    expect_pass(S_CAST_INSIDE);
}

MG_TEST_MAIN()

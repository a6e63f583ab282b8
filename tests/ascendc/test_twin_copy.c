/*
 * tests/ascendc/test_twin_copy.c: the data moves and scalar accesses of the vector core, byte
 * by byte against layouts written out here (asc_twin/vec.h, vec_copy.c's DataCopyPad layout):
 *
 *   - DataCopy with params, both directions, in both units (1 byte, 32 bytes): where each block
 *     lands, the gaps and padding left alone, DataCopyPad's left and right padding filled with
 *     the pad value, blocks of 0 bytes; each parameter refusal with exactly its message;
 *   - SetAtomicAdd / Max / Min moves to GM in every type they take, over more than one of the
 *     twin's 256-element tiles, NaN in max and min, the wrap of an integer sum;
 *   - GetValue / SetValue on UB and GM at the last element and one past it, InitGlobalMemory.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "mg_test.h"
#include "twin_test_util.h"

#define F32 ASC_TWIN_F32

typedef void (*scenario_fn)(uint8_t *const *args);
static scenario_fn g_scenario;
static void dispatch(uint8_t *const *args) { g_scenario(args); }
static const asc_twin_kernel k_copy = {"twin_copy", 0, 2, dispatch};
static uint8_t *g_gm, *g_gm2;  /* 4096 bytes each (GmAlloc) */
static uint8_t g_ub[8192];    /* UB bytes [0, 8192) after the scenario */
static int g_rc[16];
static double g_val[16];
static char g_msg[512];

static void setup(void) {
    static int ready;
    if (!ready) {
        ready = 1;
        MG_CHECK_EQ_INT(aclInit(NULL), 0);
        MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
        g_gm = asc_twin_gm_alloc(4096);
        g_gm2 = asc_twin_gm_alloc(4096);
    }
}
static int run(scenario_fn s) {
    setup();
    g_scenario = s;
    memset(g_rc, 0x55, sizeof g_rc);
    uint8_t *args[2] = {g_gm, g_gm2};
    return tt_run(&k_copy, 1, args, 2, g_msg, sizeof g_msg);
}
static void expect_refused(scenario_fn s, const char *want) {
    MG_CHECK_EQ_INT(run(s), ACL_ERROR_RT_AICORE_EXCEPTION);
    if (strcmp(g_msg, want) != 0) MG_FAIL("message \"%s\", expected \"%s\"", g_msg, want);
    MG_CHECK_EQ_INT(g_rc[0], -1);
}
static void expect_ok(scenario_fn s) {
    int status = run(s);
    if (status != 0) MG_FAIL("launch failed: %d \"%s\"", status, g_msg);
}

static float fget(const uint8_t *p, size_t i) {
    float f;
    memcpy(&f, p + 4 * i, 4);
    return f;
}
static void fput(uint8_t *p, size_t i, float f) { memcpy(p + 4 * i, &f, 4); }
static void gm_numbers(void) {
    setup();
    for (int i = 0; i < 1024; i++) fput(g_gm, (size_t)i, (float)i);
}
/* the UB filled with the sentinel byte 0x77 (what no move writes keeps it) */
static void ub_sentinel(void) { memset(asc_twin_ub_base(), 0x77, 4096); }
static void take_ub(void) { memcpy(g_ub, asc_twin_ub_base(), sizeof g_ub); }
static int is_sentinel(const uint8_t *p, size_t from, size_t to) {
    for (size_t i = from; i < to; i++)
        if (p[i] != 0x77) return 0;
    return 1;
}

/* ---- GM -> UB with params --------------------------------------------------------------------- */

static asc_twin_copy_params g_p;
static asc_twin_pad_params g_pad;
static int g_use_pad;

static void gm_to_ub(uint8_t *const *a) {
    ub_sentinel();
    g_rc[0] = asc_twin_copy_gm_to_ub_params("DataCopyPad", tt_ub(0, 4096, F32), tt_gm(a[0], 4096, F32), &g_p,
                                            g_use_pad ? &g_pad : NULL);
    take_ub();
}

/* Zero blocks and blocks of zero bytes between tensors of no bytes (UB and GM), both ways. */
static void zero_blocks_no_room(uint8_t *const *a) {
    ub_sentinel();
    const asc_twin_copy_params none = {0, 20, 0, 0, 1}, empty = {4, 0, 0, 0, 1};
    g_rc[0] = asc_twin_copy_gm_to_ub_params("DataCopyPad", tt_ub(64, 0, F32), tt_gm(a[0], 0, F32), &none, NULL);
    g_rc[1] = asc_twin_copy_gm_to_ub_params("DataCopyPad", tt_ub(64, 0, F32), tt_gm(a[0], 0, F32), &empty, NULL);
    g_rc[2] = asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[0], 0, F32), tt_ub(64, 0, F32), &none);
    g_rc[3] = asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[0], 0, F32), tt_ub(64, 0, F32), &empty);
    take_ub();
}

MG_TEST(gm_to_ub_params_layout) {
    gm_numbers();
    /* 3 blocks of 5 floats (20 bytes), 8 GM bytes between them; each UB block is 1 left + 5 + 2
       right padding floats = 32 bytes, then 1 block (32 bytes) of gap */
    g_p = (asc_twin_copy_params){3, 20, 8, 1, 1};
    g_pad = (asc_twin_pad_params){1, 1, 2, -1.5};
    g_use_pad = 1;
    expect_ok(gm_to_ub);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    for (int b = 0; b < 3; b++) {
        const uint8_t *u = g_ub + 64 * b;
        MG_CHECK(fget(u, 0) == -1.5f);
        for (int k = 0; k < 5; k++) MG_CHECK(fget(u, 1 + (size_t)k) == (float)(7 * b + k));
        MG_CHECK(fget(u, 6) == -1.5f);
        MG_CHECK(fget(u, 7) == -1.5f);
        MG_CHECK(is_sentinel(g_ub, 64 * (size_t)b + 32, 64 * (size_t)b + 64)); /* the gap */
    }
    MG_CHECK(is_sentinel(g_ub, 192, 4096));

    /* without isPad the padding is left alone (and unwritten) */
    g_pad.is_pad = 0;
    expect_ok(gm_to_ub);
    for (int b = 0; b < 3; b++) {
        MG_CHECK(is_sentinel(g_ub, 64 * (size_t)b, 64 * (size_t)b + 4));
        for (int k = 0; k < 5; k++) MG_CHECK(fget(g_ub + 64 * b, 1 + (size_t)k) == (float)(7 * b + k));
        MG_CHECK(is_sentinel(g_ub, 64 * (size_t)b + 24, 64 * (size_t)b + 64));
    }
    /* no pad parameters: no padding, blocks of 20 bytes rounded to 32, no gap */
    g_use_pad = 0;
    g_p = (asc_twin_copy_params){3, 20, 8, 0, 1};
    expect_ok(gm_to_ub);
    for (int b = 0; b < 3; b++) {
        for (int k = 0; k < 5; k++) MG_CHECK(fget(g_ub + 32 * b, (size_t)k) == (float)(7 * b + k));
        MG_CHECK(is_sentinel(g_ub, 32 * (size_t)b + 20, 32 * (size_t)b + 32));
    }
    /* the 32-byte unit: 2 blocks of 1 unit (8 floats), 1 unit of GM gap, 2 units of UB gap */
    g_p = (asc_twin_copy_params){2, 1, 1, 2, 32};
    expect_ok(gm_to_ub);
    for (int k = 0; k < 8; k++) {
        MG_CHECK(fget(g_ub, (size_t)k) == (float)k);
        MG_CHECK(fget(g_ub + 96, (size_t)k) == (float)(16 + k));
    }
    MG_CHECK(is_sentinel(g_ub, 32, 96));
    MG_CHECK(is_sentinel(g_ub, 128, 4096));
    /* zero blocks, or blocks of zero bytes: nothing moves */
    g_use_pad = 0;
    g_p = (asc_twin_copy_params){0, 20, 0, 0, 1};
    expect_ok(gm_to_ub);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    MG_CHECK(is_sentinel(g_ub, 0, 4096));
    g_p = (asc_twin_copy_params){4, 0, 0, 0, 1};
    expect_ok(gm_to_ub);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    MG_CHECK(is_sentinel(g_ub, 0, 4096));
    /* ... and they span no byte on either side: a tensor of no bytes takes them both ways */
    expect_ok(zero_blocks_no_room);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    MG_CHECK_EQ_INT(g_rc[1], 0);
    MG_CHECK_EQ_INT(g_rc[2], 0);
    MG_CHECK_EQ_INT(g_rc[3], 0);
    MG_CHECK(is_sentinel(g_ub, 0, 4096));
}

/* a half move: left 16 elements (32 bytes) of padding, 8 data elements, right 4 elements */
static void gm_to_ub_half(uint8_t *const *a) {
    ub_sentinel();
    uint16_t h[8];
    for (int i = 0; i < 8; i++) h[i] = (uint16_t)(0x3c00 + i); /* 1 + i * 2^-10 */
    memcpy(a[1], h, sizeof h);
    asc_twin_copy_params p = {1, 16, 0, 0, 1};
    asc_twin_pad_params pad = {1, 16, 4, 0.5};
    g_rc[0] = asc_twin_copy_gm_to_ub_params("DataCopyPad", tt_ub(0, 4096, ASC_TWIN_F16), tt_gm(a[1], 4096, ASC_TWIN_F16),
                                            &p, &pad);
    take_ub();
}

MG_TEST(half_padding_at_its_most) {
    expect_ok(gm_to_ub_half);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    for (int k = 0; k < 16; k++) MG_CHECK_EQ_INT(g_ub[2 * k] | g_ub[2 * k + 1] << 8, 0x3800); /* 0.5 */
    for (int k = 0; k < 8; k++) MG_CHECK_EQ_INT(g_ub[32 + 2 * k] | g_ub[32 + 2 * k + 1] << 8, 0x3c00 + k);
    for (int k = 0; k < 4; k++) MG_CHECK_EQ_INT(g_ub[48 + 2 * k] | g_ub[48 + 2 * k + 1] << 8, 0x3800);
    MG_CHECK(is_sentinel(g_ub, 56, 4096));
}

/* refusals */
static void params_call(const asc_twin_copy_params *p, const asc_twin_pad_params *pad, asc_twin_dtype src_dt,
                        uint64_t capacity) {
    g_rc[0] = asc_twin_copy_gm_to_ub_params("DataCopyPad", tt_ub(0, capacity, F32), tt_gm(g_gm, 4096, src_dt), p, pad);
}
static void unit_2(uint8_t *const *a) {
    (void)a;
    asc_twin_copy_params p = {1, 32, 0, 0, 2};
    params_call(&p, NULL, F32, 4096);
}
static void no_params(uint8_t *const *a) {
    (void)a;
    params_call(NULL, NULL, F32, 4096);
}
static void negative_src(uint8_t *const *a) {
    (void)a;
    asc_twin_copy_params p = {2, 32, -1, 0, 1};
    params_call(&p, NULL, F32, 4096);
}
static void negative_dst(uint8_t *const *a) {
    (void)a;
    asc_twin_copy_params p = {2, 32, 0, -3, 1};
    params_call(&p, NULL, F32, 4096);
}
static void partial_element(uint8_t *const *a) {
    (void)a;
    asc_twin_copy_params p = {2, 6, 0, 0, 1};
    params_call(&p, NULL, F32, 4096);
}
static void pad_left_9(uint8_t *const *a) {
    (void)a;
    asc_twin_copy_params p = {1, 32, 0, 0, 1};
    asc_twin_pad_params pad = {1, 9, 0, 0.0};
    params_call(&p, &pad, F32, 4096);
}
static void pad_right_9(uint8_t *const *a) {
    (void)a;
    asc_twin_copy_params p = {1, 32, 0, 0, 1};
    asc_twin_pad_params pad = {0, 0, 9, 0.0};
    params_call(&p, &pad, F32, 4096);
}
/* 3 blocks of 40 bytes (64 in UB each) with 1 gap block: 2 * 96 + 64 = 256 bytes of UB */
static void span_fits(uint8_t *const *a) {
    (void)a;
    asc_twin_copy_params p = {3, 40, 0, 1, 1};
    params_call(&p, NULL, F32, 256);
}
static void span_beyond(uint8_t *const *a) {
    (void)a;
    asc_twin_copy_params p = {3, 40, 0, 1, 1};
    params_call(&p, NULL, F32, 255);
}
static void span_gm_beyond(uint8_t *const *a) { /* 2 blocks of 2048 bytes, 4 bytes apart: 4100 GM bytes */
    (void)a;
    asc_twin_copy_params p = {2, 2048, 4, 0, 1};
    params_call(&p, NULL, F32, 8192);
}
static void mixed_types(uint8_t *const *a) {
    (void)a;
    asc_twin_copy_params p = {1, 32, 0, 0, 1};
    params_call(&p, NULL, ASC_TWIN_F16, 4096);
}
static void out_mixed_types(uint8_t *const *a) {
    asc_twin_copy_params p = {1, 32, 0, 0, 1};
    g_rc[0] = asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[0], 4096, ASC_TWIN_I32), tt_ub(0, 4096, F32), &p);
}
static void out_unit(uint8_t *const *a) {
    asc_twin_copy_params p = {1, 32, 0, 0, 0};
    g_rc[0] = asc_twin_copy_ub_to_gm_params("DataCopy", tt_gm(a[0], 4096, F32), tt_ub(0, 4096, F32), &p);
}
static void out_span(uint8_t *const *a) {
    asc_twin_copy_params p = {2, 33, 0, 0, 1}; /* 2 blocks of 64 UB bytes: 128 */
    asc_twin_duplicate(tt_ub(0, 4096, F32), 1.0, 64);
    g_rc[0] = asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[0], 4096, ASC_TWIN_U8), tt_ub(0, 127, ASC_TWIN_U8), &p);
}
static void count_mixed(uint8_t *const *a) {
    g_rc[0] = asc_twin_copy_gm_to_ub(tt_ub(0, 4096, F32), tt_gm(a[0], 4096, ASC_TWIN_I32), 8);
}
static void count_ub_mixed(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_copy_ub_to_ub(tt_ub(0, 4096, F32), tt_ub(2048, 1024, ASC_TWIN_F16), 16);
}
static void count_out_mixed(uint8_t *const *a) {
    asc_twin_duplicate(tt_ub(0, 4096, F32), 1.0, 64);
    g_rc[0] = asc_twin_copy_ub_to_gm(tt_gm(a[0], 4096, ASC_TWIN_F16), tt_ub(0, 4096, F32), 8);
}
static void count_ub_len(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_copy_ub_to_ub(tt_ub(0, 4096, ASC_TWIN_F16), tt_ub(2048, 1024, ASC_TWIN_F16), 17);
}
/* the count form's UB side, measured in bytes against the UB tensor (seed 61: the byte count
   left at 0, no count was ever too large for a UB tensor or ran past the UB's end) */
static void count_over_destination(uint8_t *const *a) {
    g_rc[0] = asc_twin_copy_gm_to_ub(tt_ub(0, 64, F32), tt_gm(a[0], 4096, F32), 24);
}
static void count_over_source(uint8_t *const *a) {
    asc_twin_duplicate(tt_ub(0, 4096, F32), 1.0, 64);
    g_rc[0] = asc_twin_copy_ub_to_gm(tt_gm(a[0], 4096, F32), tt_ub(0, 64, F32), 24);
}
static void count_past_ub_end(uint8_t *const *a) {
    const uint64_t ub = asc_twin_ub_bytes();
    g_rc[0] = asc_twin_copy_gm_to_ub(tt_ub(ub - 64, 4096, F32), tt_gm(a[0], 4096, F32), 24);
}

MG_TEST(params_refusals) {
    expect_refused(unit_2, "twin_copy block 0: DataCopyPad: copy parameters missing or with a unit of 2 bytes (1 or 32)");
    expect_refused(no_params, "twin_copy block 0: DataCopyPad: copy parameters missing or with a unit of 0 bytes (1 or 32)");
    expect_refused(negative_src, "twin_copy block 0: DataCopyPad: negative stride (srcStride -1, dstStride 0)");
    expect_refused(negative_dst, "twin_copy block 0: DataCopyPad: negative stride (srcStride 0, dstStride -3)");
    expect_refused(partial_element,
                   "twin_copy block 0: DataCopyPad: blockLen 6 bytes is not a whole number of 4-byte elements");
    expect_refused(pad_left_9, "twin_copy block 0: DataCopyPad: padding of 9 and 0 elements exceeds 32 bytes a side");
    expect_refused(pad_right_9, "twin_copy block 0: DataCopyPad: padding of 0 and 9 elements exceeds 32 bytes a side");
    expect_ok(span_fits);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    expect_refused(span_beyond, "twin_copy block 0: DataCopyPad: 3 blocks of 40 bytes span 256 bytes of UB, beyond the "
                                "destination tensor's 255 bytes");
    expect_refused(span_gm_beyond, "twin_copy block 0: DataCopyPad: GM bytes [0, 4100) of the source exceed the 4096 "
                                   "bytes SetGlobalBuffer gave");
    expect_refused(mixed_types,
                   "twin_copy block 0: DataCopyPad: destination float and source half differ (a copy moves one type)");
    expect_refused(out_mixed_types,
                   "twin_copy block 0: DataCopyPad: destination int32_t and source float differ (a copy moves one type)");
    expect_refused(out_unit, "twin_copy block 0: DataCopy: copy parameters missing or with a unit of 0 bytes (1 or 32)");
    expect_refused(out_span, "twin_copy block 0: DataCopyPad: 2 blocks of 33 bytes span 128 bytes of UB, beyond the "
                             "source tensor's 127 bytes");
    expect_refused(count_mixed,
                   "twin_copy block 0: DataCopy: destination float and source int32_t differ (a copy moves one type)");
    expect_refused(count_ub_mixed,
                   "twin_copy block 0: DataCopy: destination float and source half differ (a copy moves one type)");
    expect_refused(count_out_mixed,
                   "twin_copy block 0: DataCopy: destination half and source float differ (a copy moves one type)");
    expect_refused(count_ub_len, "twin_copy block 0: DataCopy: count 17 elements (34 bytes) is not a multiple of 32 bytes");
    expect_refused(count_over_destination,
                   "twin_copy block 0: DataCopy: count 24 elements (96 bytes) exceeds the destination tensor's 64 bytes");
    expect_refused(count_over_source,
                   "twin_copy block 0: DataCopy: count 24 elements (96 bytes) exceeds the source tensor's 64 bytes");
    /* the twin's UB is the Ascend910B's 192 KiB */
    expect_refused(count_past_ub_end, "twin_copy block 0: DataCopy: the destination tensor's 96 bytes at UB offset "
                                      "196544 run past the UB's end (196608 bytes)");
}

/* ---- UB -> GM with params ------------------------------------------------------------------ */

static void ub_to_gm(uint8_t *const *a) {
    memset(a[1], 0x77, 4096);
    for (int i = 0; i < 256; i++) asc_twin_set_value(tt_ub(0, 4096, F32), (uint64_t)i, 1000 + i);
    /* 2 blocks of 3 floats (12 bytes), each from a 32-byte UB block followed by 1 gap block,
       to GM 4 bytes apart */
    asc_twin_copy_params p = {2, 12, 1, 4, 1};
    g_rc[0] = asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[1], 4096, F32), tt_ub(0, 4096, F32), &p);
    /* the 32-byte unit: 2 blocks of 8 floats, UB gap 1 block, GM gap 2 blocks, at GM byte 256 */
    asc_twin_copy_params q = {2, 1, 1, 2, 32};
    g_rc[1] = asc_twin_copy_ub_to_gm_params("DataCopy", tt_gm(a[1] + 256, 3840, F32), tt_ub(0, 4096, F32), &q);
}

MG_TEST(ub_to_gm_params_layout) {
    expect_ok(ub_to_gm);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    MG_CHECK_EQ_INT(g_rc[1], 0);
    for (int k = 0; k < 3; k++) {
        MG_CHECK(fget(g_gm2, (size_t)k) == (float)(1000 + k));
        MG_CHECK(fget(g_gm2, 4 + (size_t)k) == (float)(1000 + 16 + k));
    }
    MG_CHECK(is_sentinel(g_gm2, 12, 16));
    MG_CHECK(is_sentinel(g_gm2, 28, 256));
    for (int k = 0; k < 8; k++) {
        MG_CHECK(fget(g_gm2 + 256, (size_t)k) == (float)(1000 + k));
        MG_CHECK(fget(g_gm2 + 256 + 96, (size_t)k) == (float)(1000 + 16 + k));
    }
    MG_CHECK(is_sentinel(g_gm2, 256 + 32, 256 + 96));
    MG_CHECK(is_sentinel(g_gm2, 256 + 128, 4096));
}

/* Blocks of one byte (DataCopyPad's byte unit, uint8): each block moves, in both directions
   (seed 65: a block length tested `> 1` instead of `> 0` moved none of them). */
static void one_byte_blocks(uint8_t *const *a) {
    memset(a[1], 0x77, 4096);
    asc_twin_ub_ref ub = tt_ub(0, 4096, ASC_TWIN_U8);
    for (int i = 0; i < 96; i++) asc_twin_set_value(ub, (uint64_t)i, 10 + i);
    /* 3 blocks of 1 byte from UB bytes 0, 32, 64 (a block is a 32-byte unit, no gap) to GM
       bytes 0, 3, 6 (a 2-byte gap) */
    asc_twin_copy_params p = {3, 1, 0, 2, 1};
    g_rc[0] = asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[1], 4096, ASC_TWIN_U8), ub, &p);
    /* and back: GM bytes 0, 3, 6 to UB bytes 128, 160, 192 */
    asc_twin_copy_params q = {3, 1, 2, 0, 1};
    asc_twin_ub_ref back = tt_ub(128, 4096 - 128, ASC_TWIN_U8);
    g_rc[1] = asc_twin_copy_gm_to_ub_params("DataCopyPad", back, tt_gm(a[1], 4096, ASC_TWIN_U8), &q, NULL);
    for (int k = 0; k < 3; k++) asc_twin_get_value(back, (uint64_t)(32 * k), &g_val[k]);
}

MG_TEST(one_byte_blocks_both_ways) {
    expect_ok(one_byte_blocks);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    MG_CHECK_EQ_INT(g_rc[1], 0);
    const uint8_t want[8] = {10, 0x77, 0x77, 42, 0x77, 0x77, 74, 0x77};
    for (int i = 0; i < 8; i++) MG_CHECK_EQ_INT(g_gm2[i], want[i]);
    MG_CHECK(is_sentinel(g_gm2, 8, 4096));
    MG_CHECK(g_val[0] == 10.0 && g_val[1] == 42.0 && g_val[2] == 74.0);
}

/* ---- atomic moves ----------------------------------------------------------------------------- */

static int g_atomic;
static asc_twin_dtype g_adt;
enum { AN = 300 }; /* more than one 256-element tile */

static double agm(int i) { return i % 2 ? -(double)(i % 50) : (double)(i % 60); }
static double aub(int i) { return i % 3 == 0 ? 7.0 : (double)(i % 40) - 20.0; }

static void atomic_move(uint8_t *const *a) {
    uint32_t es = asc_twin_dtype_size(g_adt);
    asc_twin_gm_ref g = tt_gm(a[1], 4096, g_adt);
    for (int i = 0; i < AN; i++) asc_twin_gm_set_value(g, (uint64_t)i, agm(i));
    for (int i = 0; i < AN + 32; i++) asc_twin_set_value(tt_ub(0, 4096, g_adt), (uint64_t)i, aub(i));
    asc_twin_set_atomic((asc_twin_atomic_op)g_atomic, g_adt);
    /* AN elements: the count form takes whole 32-byte blocks, so AN rounded down, then the
       rest through the params form */
    uint64_t whole = (uint64_t)AN * es / 32 * 32 / es;
    g_rc[0] = asc_twin_copy_ub_to_gm(g, tt_ub(0, 4096, g_adt), whole);
    asc_twin_copy_params p = {1, (uint32_t)((AN - whole) * es), 0, 0, 1};
    asc_twin_gm_ref rest = tt_gm(a[1] + whole * es, 4096 - whole * es, g_adt);
    g_rc[1] = asc_twin_copy_ub_to_gm_params("DataCopyPad", rest, tt_ub(whole * es, 4096 - whole * es, g_adt), &p);
    asc_twin_set_atomic(ASC_TWIN_ATOMIC_NONE, g_adt);
}

static double combine(int op, double x, double y) {
    if (op == ASC_TWIN_ATOMIC_ADD) return x + y;
    if (x != x || y != y) return NAN;
    return op == ASC_TWIN_ATOMIC_MAX ? (x > y ? x : y) : (x < y ? x : y);
}

MG_TEST(atomic_moves_in_every_type) {
    static const asc_twin_dtype types[] = {ASC_TWIN_F32, ASC_TWIN_F16, ASC_TWIN_BF16,
                                           ASC_TWIN_I8,  ASC_TWIN_I16, ASC_TWIN_I32};
    for (int op = ASC_TWIN_ATOMIC_ADD; op <= ASC_TWIN_ATOMIC_MIN; op++)
        for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
            g_atomic = op, g_adt = types[t];
            setup();
    memset(g_gm2, 0, 4096);
            expect_ok(atomic_move);
            MG_CHECK_EQ_INT(g_rc[0], 0);
            MG_CHECK_EQ_INT(g_rc[1], 0);
            /* the values are small integers: exact in every type, sums too */
            uint32_t es = asc_twin_dtype_size(g_adt);
            for (int i = 0; i < AN; i++) {
                double want = combine(op, agm(i), aub(i)), got;
                const uint8_t *p = g_gm2 + (size_t)i * es;
                if (g_adt == ASC_TWIN_F32) got = fget(p, 0);
                else if (g_adt == ASC_TWIN_F16 || g_adt == ASC_TWIN_BF16) {
                    uint16_t h = (uint16_t)(p[0] | p[1] << 8);
                    uint32_t u;
                    if (g_adt == ASC_TWIN_BF16) u = (uint32_t)h << 16;
                    else { /* small integers only: normal halves */
                        uint32_t e = (h >> 10) & 31, m = h & 0x3ff;
                        u = (h & 0x8000u) << 16 | (e == 0 ? 0 : ((e + 112) << 23 | m << 13));
                    }
                    float f;
                    memcpy(&f, &u, 4);
                    got = f;
                } else if (g_adt == ASC_TWIN_I8) got = (int8_t)p[0];
                else if (g_adt == ASC_TWIN_I16) got = (int16_t)(uint16_t)(p[0] | p[1] << 8);
                else {
                    int32_t v;
                    memcpy(&v, p, 4);
                    got = v;
                }
                if (got != want) {
                    MG_FAIL("op %d type %zu element %d: %g, expected %g", op, t, i, got, want);
                    break;
                }
            }
            MG_CHECK_EQ_INT(g_gm2[(size_t)AN * es], 0); /* nothing past the move */
        }
}

/* NaN and the integer wrap */
static void atomic_edges(uint8_t *const *a) {
    asc_twin_gm_ref g = tt_gm(a[1], 4096, F32);
    asc_twin_ub_ref u = tt_ub(0, 4096, F32);
    const double gv[8] = {NAN, 1.0, NAN, -2.0, 5.0, 0.0, 3.0, 4.0};
    const double uv[8] = {1.0, NAN, NAN, -3.0, 4.0, -0.0, 3.0, 8.0};
    for (int op = 0; op < 2; op++) {
        for (int i = 0; i < 8; i++) {
            asc_twin_gm_set_value(g, (uint64_t)(8 * op + i), gv[i]);
            asc_twin_set_value(u, (uint64_t)i, uv[i]);
        }
        asc_twin_set_atomic(op == 0 ? ASC_TWIN_ATOMIC_MAX : ASC_TWIN_ATOMIC_MIN, F32);
        asc_twin_copy_ub_to_gm(tt_gm(a[1] + 32 * op, 32, F32), u, 8);
    }
    /* int8: 100 + 100 wraps to -56; int16 max of -32768 and 32767 */
    asc_twin_set_atomic(ASC_TWIN_ATOMIC_ADD, ASC_TWIN_I8);
    asc_twin_gm_ref g8 = tt_gm(a[1] + 64, 32, ASC_TWIN_I8);
    for (int i = 0; i < 32; i++) {
        asc_twin_gm_set_value(g8, (uint64_t)i, 100);
        asc_twin_set_value(tt_ub(64, 32, ASC_TWIN_I8), (uint64_t)i, 100);
    }
    asc_twin_copy_ub_to_gm(g8, tt_ub(64, 32, ASC_TWIN_I8), 32);
    asc_twin_set_atomic(ASC_TWIN_ATOMIC_NONE, F32);
    /* a plain move after SetAtomicNone copies */
    asc_twin_copy_ub_to_gm(tt_gm(a[1] + 96, 32, F32), u, 8);
}

MG_TEST(atomic_nan_and_wrap) {
    setup();
    memset(g_gm2, 0, 4096);
    expect_ok(atomic_edges);
    /* max, then min: NaN on either side gives NaN, else the larger / smaller */
    const float wmax[8] = {NAN, NAN, NAN, -2.0f, 5.0f, 0.0f, 3.0f, 8.0f};
    const float wmin[8] = {NAN, NAN, NAN, -3.0f, 4.0f, 0.0f, 3.0f, 4.0f};
    for (int i = 0; i < 8; i++) {
        float mx = fget(g_gm2, (size_t)i), mn = fget(g_gm2 + 32, (size_t)i);
        if (!(mx == wmax[i] || (mx != mx && wmax[i] != wmax[i]))) MG_FAIL("max %d: %g", i, (double)mx);
        if (!(mn == wmin[i] || (mn != mn && wmin[i] != wmin[i]))) MG_FAIL("min %d: %g", i, (double)mn);
    }
    for (int i = 0; i < 32; i++) MG_CHECK_EQ_INT((int8_t)g_gm2[64 + i], -56);
    const float plain[8] = {1.0f, NAN, NAN, -3.0f, 4.0f, -0.0f, 3.0f, 8.0f};
    for (int i = 0; i < 8; i++) {
        float f = fget(g_gm2 + 96, (size_t)i);
        if (memcmp(&f, &plain[i], 4) != 0 && !(f != f && plain[i] != plain[i])) MG_FAIL("plain %d: %g", i, (double)f);
    }
}

static void atomic_wrong_type_params(uint8_t *const *a) {
    asc_twin_duplicate(tt_ub(0, 4096, F32), 1.0, 64);
    asc_twin_set_atomic(ASC_TWIN_ATOMIC_MAX, ASC_TWIN_I32);
    asc_twin_copy_params p = {1, 32, 0, 0, 1};
    g_rc[0] = asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[1], 4096, F32), tt_ub(0, 4096, F32), &p);
}

MG_TEST(atomic_type_rule_in_the_params_form) {
    setup();
    setup();
    memset(g_gm2, 0x33, 4096);
    expect_refused(atomic_wrong_type_params, "twin_copy block 0: DataCopyPad: moves float to GM while "
                                             "SetAtomicMax<int32_t> is set (the atomic type must be the moved one)");
    for (int i = 0; i < 64; i++) MG_CHECK_EQ_INT(g_gm2[i], 0x33); /* nothing written */
}

/* ---- scalar access ---------------------------------------------------------------------------- */

static void scalars(uint8_t *const *a) {
    asc_twin_ub_ref t = tt_ub(0, 64, ASC_TWIN_I16); /* 32 elements */
    g_rc[1] = asc_twin_set_value(t, 31, -12345.9);
    g_rc[2] = asc_twin_get_value(t, 31, &g_val[0]);
    asc_twin_gm_ref g = tt_gm(a[1], 64, ASC_TWIN_BF16); /* 32 elements */
    g_rc[3] = asc_twin_gm_set_value(g, 31, 1.5);
    g_rc[4] = asc_twin_gm_get_value(g, 31, &g_val[1]);
    asc_twin_gm_ref u = tt_gm(a[1] + 64, 64, ASC_TWIN_U16);
    g_rc[5] = asc_twin_gm_set_value(u, 0, 65535);
    g_rc[6] = asc_twin_gm_get_value(u, 0, &g_val[2]);
    asc_twin_gm_ref h = tt_gm(a[1] + 128, 64, ASC_TWIN_F16);
    g_rc[7] = asc_twin_gm_fill(h, 32, -0.25);
    g_rc[8] = asc_twin_gm_get_value(h, 31, &g_val[3]);
    /* an index so large its byte offset would wrap: refused (-1) */
    g_rc[9] = asc_twin_gm_get_value(g, UINT64_MAX / 2 + 1, &g_val[4]);
    g_rc[10] = asc_twin_gm_set_value(g, UINT64_MAX / 2 + 1, 1.0);
    asc_twin_gm_ref unknown = tt_gm(a[1], 64, ASC_TWIN_DTYPE_COUNT);
    g_rc[11] = asc_twin_gm_get_value(unknown, 0, &g_val[5]);
    g_rc[12] = asc_twin_gm_set_value(unknown, 0, 1.0);
    g_rc[13] = asc_twin_gm_fill(unknown, 1, 1.0);
    g_rc[0] = asc_twin_block_aborted();
}

MG_TEST(scalar_access_at_the_last_element) {
    setup();
    memset(g_gm2, 0, 4096);
    expect_ok(scalars);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    for (int i = 1; i <= 8; i++) MG_CHECK_EQ_INT(g_rc[i], 0);
    MG_CHECK(g_val[0] == -12345.0);
    MG_CHECK(g_val[1] == 1.5);
    MG_CHECK(g_val[2] == 65535.0);
    MG_CHECK(g_val[3] == -0.25);
    MG_CHECK_EQ_INT(g_gm2[62] | g_gm2[63] << 8, 0x3fc0); /* bfloat16 1.5 */
    MG_CHECK_EQ_INT(g_gm2[64] | g_gm2[65] << 8, 0xffff);
    for (int i = 0; i < 32; i++) MG_CHECK_EQ_INT(g_gm2[128 + 2 * i] | g_gm2[129 + 2 * i] << 8, 0xb400);
    MG_CHECK_EQ_INT(g_gm2[192], 0); /* nothing past the fill */
    for (int i = 9; i <= 13; i++) MG_CHECK_EQ_INT(g_rc[i], -1);
}

static void ub_past(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_set_value(tt_ub(0, 64, ASC_TWIN_I16), 32, 1.0);
}
static void ub_get_past(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_get_value(tt_ub(0, 63, ASC_TWIN_I16), 31, &g_val[0]);
}
static void ub_unknown(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_set_value(tt_ub(0, 64, ASC_TWIN_DTYPE_COUNT), 0, 1.0);
}
static void ub_get_unknown(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_get_value(tt_ub(0, 64, (asc_twin_dtype)-1), 0, &g_val[0]);
}
static void gm_past(uint8_t *const *a) { g_rc[0] = asc_twin_gm_set_value(tt_gm(a[1], 64, ASC_TWIN_I32), 16, 1.0); }
static void gm_get_past(uint8_t *const *a) { g_rc[0] = asc_twin_gm_get_value(tt_gm(a[1], 62, ASC_TWIN_I16), 31, &g_val[0]); }
static void fill_past(uint8_t *const *a) { g_rc[0] = asc_twin_gm_fill(tt_gm(a[1], 64, ASC_TWIN_I8), 65, 1.0); }
static void fill_overflow(uint8_t *const *a) {
    g_rc[0] = asc_twin_gm_fill(tt_gm(a[1], 64, F32), UINT64_MAX / 4 + 1, 1.0);
}
static void fill_exact(uint8_t *const *a) {
    g_rc[0] = asc_twin_gm_fill(tt_gm(a[1], 64, ASC_TWIN_I8), 64, -1.0);
    g_rc[1] = asc_twin_gm_fill(tt_gm(a[1], 64, ASC_TWIN_I8), 0, 5.0);
}

static void gm_far_past(uint8_t *const *a) { g_rc[0] = asc_twin_gm_get_value(tt_gm(a[1], 64, ASC_TWIN_I32), 100, &g_val[0]); }
/* a count-form move to GM of a source with unwritten bytes: refused, nothing written */
static void out_unwritten(uint8_t *const *a) {
    asc_twin_duplicate(tt_ub(0, 4096, F32), 1.0, 8);
    asc_twin_set_value(tt_ub(0, 4096, F32), 9, 2.0);
    g_rc[0] = asc_twin_copy_ub_to_gm(tt_gm(a[1], 4096, F32), tt_ub(0, 4096, F32), 16);
}
static void params_out_unwritten(uint8_t *const *a) { /* the second block's bytes 4..7 were never written */
    asc_twin_duplicate(tt_ub(0, 4096, F32), 1.0, 8);
    asc_twin_set_value(tt_ub(0, 4096, F32), 16, 2.0);
    asc_twin_copy_params p = {2, 8, 1, 0, 1};
    g_rc[0] = asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[1], 4096, F32), tt_ub(0, 4096, F32), &p);
}
static void params_out_unwritten_byte(uint8_t *const *a) { /* one-byte blocks: the second never written */
    asc_twin_set_value(tt_ub(0, 4096, ASC_TWIN_U8), 0, 5.0);
    asc_twin_copy_params p = {2, 1, 0, 0, 1};
    g_rc[0] = asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[1], 4096, ASC_TWIN_U8),
                                            tt_ub(0, 4096, ASC_TWIN_U8), &p);
}
/* the UB side of a params move: 32-byte aligned, within the UB */
static void params_ub_misaligned(uint8_t *const *a) {
    asc_twin_copy_params p = {1, 32, 0, 0, 1};
    g_rc[0] = asc_twin_copy_gm_to_ub_params("DataCopyPad", tt_ub(4, 4092, F32), tt_gm(a[0], 4096, F32), &p, NULL);
}
static void params_out_misaligned(uint8_t *const *a) {
    asc_twin_duplicate(tt_ub(0, 4096, F32), 1.0, 64);
    asc_twin_copy_params p = {1, 32, 0, 0, 1};
    g_rc[0] = asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[1], 4096, F32), tt_ub(36, 4060, F32), &p);
}
static void params_ub_end(uint8_t *const *a) {
    asc_twin_copy_params p = {2, 64, 0, 0, 1};
    g_rc[0] = asc_twin_copy_gm_to_ub_params("DataCopyPad", tt_ub(196608 - 64, 4096, F32), tt_gm(a[0], 4096, F32), &p, NULL);
}
/* blocks of 0 bytes out: nothing moves, nothing is checked for being written */
static void params_out_empty(uint8_t *const *a) {
    asc_twin_copy_params p = {3, 0, 0, 0, 1};
    g_rc[0] = asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[1], 4096, F32), tt_ub(0, 4096, F32), &p);
    asc_twin_copy_params q = {0, 32, 0, 0, 1};
    g_rc[1] = asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(a[1], 4096, F32), tt_ub(0, 4096, F32), &q);
}

MG_TEST(scalar_access_refusals) {
    expect_refused(gm_far_past, "twin_copy block 0: GetValue: GM bytes [400, 404) of the tensor exceed the 64 bytes "
                                "SetGlobalBuffer gave");
    memset(g_gm2, 0x33, 4096);
    expect_refused(out_unwritten, "twin_copy block 0: DataCopy: 28 of the 64 bytes the source tensor gives to GM were "
                                  "never written (first at UB offset 32)");
    expect_refused(params_out_unwritten, "twin_copy block 0: DataCopyPad: 4 of the 8 bytes the source tensor gives to "
                                         "GM were never written (first at UB offset 68)");
    expect_refused(params_out_unwritten_byte, "twin_copy block 0: DataCopyPad: 1 of the 1 bytes the source tensor "
                                              "gives to GM were never written (first at UB offset 32)");
    for (int i = 0; i < 64; i++) MG_CHECK_EQ_INT(g_gm2[i], 0x33);
    expect_refused(params_ub_misaligned,
                   "twin_copy block 0: DataCopyPad: the destination tensor starts at UB offset 4, not 32-byte aligned");
    expect_refused(params_out_misaligned,
                   "twin_copy block 0: DataCopyPad: the source tensor starts at UB offset 36, not 32-byte aligned");
    expect_refused(params_ub_end, "twin_copy block 0: DataCopyPad: the destination tensor's 128 bytes at UB offset "
                                  "196544 run past the UB's end (196608 bytes)");
    expect_ok(params_out_empty);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    MG_CHECK_EQ_INT(g_rc[1], 0);
    for (int i = 0; i < 64; i++) MG_CHECK_EQ_INT(g_gm2[i], 0x33);
    expect_refused(ub_past, "twin_copy block 0: SetValue: index 32 is past the tensor's 32 elements");
    expect_refused(ub_get_past, "twin_copy block 0: GetValue: index 31 is past the tensor's 31 elements");
    expect_refused(ub_unknown, "twin_copy block 0: SetValue: unknown element type 11");
    expect_refused(ub_get_unknown, "twin_copy block 0: GetValue: unknown element type -1");
    expect_refused(gm_past, "twin_copy block 0: SetValue: GM bytes [64, 68) of the tensor exceed the 64 bytes "
                            "SetGlobalBuffer gave");
    expect_refused(gm_get_past, "twin_copy block 0: GetValue: GM bytes [62, 64) of the tensor exceed the 62 bytes "
                                "SetGlobalBuffer gave");
    expect_refused(fill_past, "twin_copy block 0: InitGlobalMemory: GM bytes [0, 65) of the tensor exceed the 64 bytes "
                              "SetGlobalBuffer gave");
    expect_refused(fill_overflow,
                   "twin_copy block 0: InitGlobalMemory: 4611686018427387904 elements overflow a byte count");
    setup();
    memset(g_gm2, 0, 4096);
    expect_ok(fill_exact);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    MG_CHECK_EQ_INT(g_rc[1], 0);
    for (int i = 0; i < 64; i++) MG_CHECK_EQ_INT(g_gm2[i], 0xff);
    MG_CHECK_EQ_INT(g_gm2[64], 0);
}

/* ---- aclrtMalloc's padding from an offset inside the block ------------------------------------- */

static uint8_t *g_dev; /* aclrtMalloc(4000): CANN's allocation spans 4032 bytes */
static void dev_setup(void) {
    setup();
    if (g_dev == NULL) {
        void *p = NULL;
        MG_CHECK_EQ_INT(aclrtMalloc(&p, 4000, ACL_MEM_MALLOC_HUGE_FIRST), 0);
        g_dev = p;
    }
    for (int i = 0; i < 1000; i++) fput(g_dev, (size_t)i, (float)i);
}
static void dev_read(uint8_t *const *a) {
    (void)a;
    ub_sentinel();
    /* 16 floats from byte 3968: 8 in the block, 8 in the padding (zeros) */
    g_rc[0] = asc_twin_copy_gm_to_ub(tt_ub(0, 4096, F32), tt_gm(g_dev + 3968, UINT64_MAX, F32), 16);
    /* 8 floats from the block's very end: all padding */
    g_rc[1] = asc_twin_copy_gm_to_ub(tt_ub(128, 4096, F32), tt_gm(g_dev + 4000, UINT64_MAX, F32), 8);
    /* params: 2 blocks of 16 bytes, 3984 bytes apart: the second starts at 4000 (zeros) */
    asc_twin_copy_params p = {2, 16, 3984, 0, 1};
    g_rc[2] = asc_twin_copy_gm_to_ub_params("DataCopyPad", tt_ub(256, 4096, F32), tt_gm(g_dev, UINT64_MAX, F32), &p, NULL);
    /* 3 blocks of 1344 bytes: the third ends 32 bytes into the padding */
    asc_twin_copy_params q = {3, 1344, 0, 0, 1};
    g_rc[3] = asc_twin_copy_gm_to_ub_params("DataCopyPad", tt_ub(512, 8192, F32), tt_gm(g_dev, UINT64_MAX, F32), &q, NULL);
    memcpy(g_ub, asc_twin_ub_base(), sizeof g_ub);
}
static void dev_write(uint8_t *const *a) {
    (void)a;
    asc_twin_duplicate(tt_ub(0, 4096, F32), -1.0, 1024);
    /* 16 floats to byte 3968: the 8 in the block written, the 8 in the padding dropped */
    g_rc[0] = asc_twin_copy_ub_to_gm(tt_gm(g_dev + 3968, UINT64_MAX, F32), tt_ub(0, 4096, F32), 16);
    /* params: 2 blocks of 16 bytes, the second at 4000: dropped */
    asc_twin_copy_params p = {2, 16, 0, 3984, 1};
    g_rc[1] = asc_twin_copy_ub_to_gm_params("DataCopyPad", tt_gm(g_dev, UINT64_MAX, F32), tt_ub(0, 4096, F32), &p);
}
static void dev_past(uint8_t *const *a) {
    (void)a;
    g_rc[0] = asc_twin_copy_gm_to_ub(tt_ub(0, 4096, F32), tt_gm(g_dev + 4000, UINT64_MAX, F32), 24);
}

/* a scalar access gets no padding: past the aclrtMalloc block's end it is an error */
static void dev_scalar_past(uint8_t *const *a) {
    (void)a;
    double v;
    g_rc[0] = asc_twin_gm_get_value(tt_gm(g_dev, UINT64_MAX, F32), 1000, &v);
}

MG_TEST(aclrtmalloc_padding_from_an_offset) {
    dev_setup();
    expect_ok(dev_read);
    for (int i = 0; i < 4; i++) MG_CHECK_EQ_INT(g_rc[i], 0);
    for (int k = 0; k < 8; k++) {
        MG_CHECK(fget(g_ub, (size_t)k) == (float)(992 + k));
        MG_CHECK(fget(g_ub, 8 + (size_t)k) == 0.0f);
        MG_CHECK(fget(g_ub + 128, (size_t)k) == 0.0f);
    }
    for (int k = 0; k < 4; k++) {
        MG_CHECK(fget(g_ub + 256, (size_t)k) == (float)k);
        MG_CHECK(fget(g_ub + 256 + 32, (size_t)k) == 0.0f);
    }
    for (int k = 0; k < 1008; k++) { /* 3 blocks of 336 floats, each rounded to 1344 bytes in the UB: no gap */
        float want = k < 1000 ? (float)k : 0.0f;
        if (fget(g_ub + 512, (size_t)k) != want) {
            MG_FAIL("params read element %d: %g", k, (double)fget(g_ub + 512, (size_t)k));
            break;
        }
    }
    dev_setup();
    expect_ok(dev_write);
    MG_CHECK_EQ_INT(g_rc[0], 0);
    MG_CHECK_EQ_INT(g_rc[1], 0);
    for (int k = 0; k < 992; k++) {
        float want = k < 4 ? -1.0f : (float)k;
        if (fget(g_dev, (size_t)k) != want) {
            MG_FAIL("element %d: %g", k, (double)fget(g_dev, (size_t)k));
            break;
        }
    }
    for (int k = 992; k < 1000; k++) MG_CHECK(fget(g_dev, (size_t)k) == -1.0f);
    expect_refused(dev_past, "twin_copy block 0: DataCopy: GM bytes [4000, 4096) of the source run 96 bytes past the "
                             "end of its aclrtMalloc block (4000 bytes)");
    expect_refused(dev_scalar_past, "twin_copy block 0: GetValue: GM bytes [4000, 4004) of the tensor run 4 bytes past "
                                    "the end of its aclrtMalloc block (4000 bytes)");
}

MG_TEST_MAIN()

/*
 * tests/ascendc/test_twin_launch.c: the twin's C launch interface (asc_twin/launch.h): the
 * registry, a synchronous run over every block, a stream launch, and a reported rule break
 * failing the stream's synchronize with ACL_ERROR_RT_AICORE_EXCEPTION and its message.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "asc_twin/launch.h"
#include "mg_test.h"
#include "mgrt.h"
#include "twin_block.h"

/* args: out (int64 per block), tiling (int64 added to each block's index) */
static void add_index(uint8_t *const *args) {
    int64_t *out = (int64_t *)(void *)args[0];
    int64_t bias;
    memcpy(&bias, args[1], sizeof bias);
    out[asc_twin_block_idx()] = asc_twin_block_idx() + bias + 1000 * asc_twin_block_num();
}

/* block 3 breaks a rule; every block writes its slot first */
static void break_in_block3(uint8_t *const *args) {
    int32_t *out = (int32_t *)(void *)args[0];
    if (asc_twin_block_idx() == 3) {
        asc_twin_report("InitBuffer", "%d bytes requested, UB holds %d", 196800, 196608);
        return;
    }
    out[asc_twin_block_idx()] = 1;
}

/* args: requested InitBuffer sizes (uint64 list ending in 0); block writes its offsets */
static void init_buffers(uint8_t *const *args) {
    const uint64_t *sizes = (const uint64_t *)(const void *)args[0];
    int64_t *offsets = (int64_t *)(void *)args[1];
    uint64_t used = 0;
    for (int i = 0; sizes[i] != 0; i++) {
        offsets[i] = asc_twin_ub_init_buffer(&used, sizes[i]);
        if (asc_twin_block_aborted()) return;
    }
    /* the whole UB is this block's to use */
    uint8_t *ub = asc_twin_ub_base();
    ub[asc_twin_ub_bytes() - 1] = 1;
}

static const asc_twin_kernel k_add = {"twin_test_add_index", 7, 2, add_index};
static const asc_twin_kernel k_break = {"twin_test_break", 0, 1, break_in_block3};

MG_TEST(registry_finds_by_name_and_key) {
    MG_CHECK_EQ_INT(asc_twin_register(&k_add), 0);
    MG_CHECK_EQ_INT(asc_twin_register(&k_add), -1);   /* a second (name, key) is refused */
    MG_CHECK(asc_twin_find("twin_test_add_index", 7) == &k_add);
    MG_CHECK(asc_twin_find("twin_test_add_index", 8) == NULL);
    MG_CHECK(asc_twin_find("twin_test_add", 7) == NULL);
    MG_CHECK(asc_twin_find(NULL, 7) == NULL);
}

MG_TEST(run_sync_runs_every_block_with_the_tiling_copy) {
    int64_t out[40] = {0}, bias = 5;
    uint8_t *args[2] = {(uint8_t *)out, NULL};
    asc_twin_launch_args a = {&k_add, 40, args, 2, &bias, sizeof bias};
    MG_CHECK_EQ_INT(asc_twin_run_sync(&a), 0);
    for (int i = 0; i < 40; i++) MG_CHECK_EQ_INT(out[i], i + 5 + 40000);
    a.nargs = 3;
    MG_CHECK_EQ_INT(asc_twin_run_sync(&a), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "takes 2 GM_ADDR arguments, 3 given");
    a.nargs = 2;
    a.block_dim = 0;
    MG_CHECK_EQ_INT(asc_twin_run_sync(&a), ACL_ERROR_INVALID_PARAM);
}

MG_TEST(stream_launch_reports_the_break_at_synchronize) {
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    aclrtStream stream = NULL;
    MG_CHECK_EQ_INT(aclrtCreateStream(&stream), 0);
    int32_t out[8] = {0};
    uint8_t *args[1] = {(uint8_t *)out};
    asc_twin_launch_args a = {&k_break, 8, args, 1, NULL, 0};
    MG_CHECK_EQ_INT(asc_twin_launch(stream, &a), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(),
                          "twin_test_break block 3: InitBuffer: 196800 bytes requested, UB holds 196608");
    for (int i = 0; i < 8; i++) MG_CHECK_EQ_INT(out[i], i == 3 ? 0 : 1);
    /* the same kernel without a break passes on the same stream */
    int64_t out2[4] = {0}, bias = 0;
    uint8_t *args2[2] = {(uint8_t *)out2, NULL};
    asc_twin_launch_args ok = {&k_add, 4, args2, 2, &bias, sizeof bias};
    MG_CHECK_EQ_INT(asc_twin_launch(stream, &ok), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(stream), 0);
    MG_CHECK_EQ_INT(out2[3], 3 + 4000);
    MG_CHECK_EQ_INT(aclrtDestroyStream(stream), 0);
    MG_CHECK_EQ_INT(aclrtResetDevice(0), 0);
    MG_CHECK_EQ_INT(aclFinalize(), 0);
}

static const asc_twin_kernel k_init = {"twin_test_init", 0, 2, init_buffers};

MG_TEST(init_buffer_total_within_ub) {
    /* just inside: 196608 in all, the 100-byte buffer taking 128 (32-byte rounding) */
    uint64_t inside[] = {100, 196608 - 128, 0};
    int64_t offsets[4] = {0};
    uint8_t *args[2] = {(uint8_t *)inside, (uint8_t *)offsets};
    asc_twin_launch_args a = {&k_init, 2, args, 2, NULL, 0};
    MG_CHECK_EQ_INT(asc_twin_run_sync(&a), 0);
    MG_CHECK_EQ_INT(offsets[0], 0);
    MG_CHECK_EQ_INT(offsets[1], 128);
    /* one byte more: the second buffer rounds to 32 more */
    uint64_t over[] = {100, 196608 - 127, 0};
    args[0] = (uint8_t *)over;
    MG_CHECK_EQ_INT(asc_twin_run_sync(&a), ACL_ERROR_RT_AICORE_EXCEPTION);
    /* aclGetRecentErrMsg clears the message it returns: one read; either block may report first */
    char message[512];
    const char *recent = aclGetRecentErrMsg();
    snprintf(message, sizeof message, "%s", recent ? recent : "");
    MG_CHECK(strstr(message, "twin_test_init block 0: ") != NULL || strstr(message, "twin_test_init block 1: ") != NULL);
    MG_CHECK_STR_CONTAINS(message, ": InitBuffer: 196640 bytes requested, UB holds 196608");
    uint64_t issue[] = {196800, 0};
    args[0] = (uint8_t *)issue;
    MG_CHECK_EQ_INT(asc_twin_run_sync(&a), ACL_ERROR_RT_AICORE_EXCEPTION);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "InitBuffer: 196800 bytes requested, UB holds 196608");
}

/* A single buffer as large as the whole UB fits (196608 bytes, a multiple of 32): only a
   request past the UB is refused, not one that fills it exactly. */
MG_TEST(init_buffer_of_the_whole_ub_fits) {
    uint64_t whole[] = {196608, 0};
    int64_t offsets[2] = {-7, -7};
    uint8_t *args[2] = {(uint8_t *)whole, (uint8_t *)offsets};
    asc_twin_launch_args a = {&k_init, 1, args, 2, NULL, 0};
    MG_CHECK_EQ_INT(asc_twin_run_sync(&a), 0);
    MG_CHECK_EQ_INT(offsets[0], 0);
}

/* The default `cpu` profile models Ascend910B (docs/ascendc_twin.md); a named SoC gets its own. */
MG_TEST(soc_profile_has_the_vector_core_facts) {
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    const mgrt_soc_profile *p = mgrt_soc();
    MG_CHECK_EQ_INT(p->aiv_core_num, 48);
    MG_CHECK_EQ_INT(p->ub_bytes, 196608);
    MG_CHECK_EQ_INT(p->lib_workspace_bytes, 16 * 1024 * 1024);
    MG_CHECK_EQ_INT(aclFinalize(), 0);
}

MG_TEST_MAIN()

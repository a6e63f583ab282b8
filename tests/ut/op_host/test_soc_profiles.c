/*
 * tests/ut/op_host/test_soc_profiles.c: the seed's product table, one SoC per process.
 *
 * CTest runs this executable once per MISHGRAD_SOC_VERSION value. The expectation comes
 * from the table below, written from the seed's product-support list (not from the
 * runtime's own table): BFLOAT16 only on Ascend910B-class chips and later (A2, A3, 950);
 * Atlas 200I/500 A2 (Ascend310B) does not carry the operator at all; an unknown name fails
 * aclInit.
 */
#include <stdint.h>

#include "ut_util.h"

typedef struct product {
    const char *prefix;   /* SoC names starting with this */
    int supports_bf16;
    int supports_operator;
} product;

/* More specific prefixes first: "Ascend910B" before "Ascend910". */
static const product products[] = {
    {"Ascend910B", 1, 1},    /* Atlas A2 training / inference */
    {"Ascend910_93", 1, 1},  /* Atlas A3 */
    {"Ascend950", 1, 1},     /* Ascend 950PR / 950DT */
    {"Ascend910", 0, 1},     /* Atlas training series */
    {"Ascend310P", 0, 1},    /* Atlas inference series */
    {"Ascend310B", 0, 0},    /* Atlas 200I/500 A2 inference: not supported */
};

static const char *requested_soc(void) {
    const char *soc = getenv("MISHGRAD_SOC_VERSION");
    return soc && *soc ? soc : NULL;
}

/* NULL for a name the table does not know; the CPU default (no name) supports all. */
static const product *expected_product(void) {
    static const product cpu = {"", 1, 1};
    const char *soc = requested_soc();
    if (!soc || strcmp(soc, "cpu") == 0) return &cpu;
    for (size_t i = 0; i < sizeof products / sizeof products[0]; i++) {
        if (strncmp(soc, products[i].prefix, strlen(products[i].prefix)) == 0) return &products[i];
    }
    return NULL;
}

MG_TEST(aclinit_accepts_known_socs_only) {
    aclError rc = aclInit(NULL);
    if (expected_product() == NULL) {
        MG_CHECK_EQ_INT(rc, ACL_ERROR_INVALID_PARAM);
        MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "MISHGRAD_SOC_VERSION");
        if (rc == ACL_SUCCESS) aclFinalize();
        return;
    }
    MG_CHECK_EQ_INT(rc, ACL_SUCCESS);
    if (rc != ACL_SUCCESS) return;
    MG_CHECK_EQ_INT(aclrtSetDevice(0), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtCreateStream(&ut_stream), ACL_SUCCESS);
    ut_acl_ready = 1;
    const char *name = aclrtGetSocName();
    MG_CHECK(name != NULL);
    if (name && requested_soc() && strcmp(requested_soc(), "cpu") != 0) MG_CHECK(strcmp(name, requested_soc()) == 0);
}

static void run_one(aclDataType dtype, int expect_ok) {
    mg_rng rng = {40 + (uint64_t)dtype};
    int64_t dims[2] = {7, 9};
    ut_tensor t[3];
    for (int i = 0; i < 3; i++) ut_tensor_dense(&t[i], dtype, 2, dims);
    ut_fill_random(&t[0], &rng, -3, 3);
    ut_fill_random(&t[1], &rng, -6, 6);
    aclnnStatus st = ut_run(&t[0], &t[1], &t[2], ut_stream, NULL);
    if (expect_ok) {
        MG_CHECK_EQ_INT(st, ACLNN_SUCCESS);
        ut_check_values(&t[0], &t[1], &t[2], "supported dtype");
    } else {
        MG_CHECK(st != ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(ut_changed_bytes(&t[2]), 0);
    }
    for (int i = 0; i < 3; i++) ut_tensor_free(&t[i]);
}

MG_TEST(float_and_float16_run_where_the_operator_exists) {
    const product *p = expected_product();
    if (!p) { /* an unknown SoC: aclInit refused it, so nothing can run */
        MG_CHECK(!ut_acl_ready);
        return;
    }
    if (!ut_acl_ready) MG_SKIP("aclInit failed (reported by aclinit_accepts_known_socs_only)");
    run_one(ACL_FLOAT, p->supports_operator);
    run_one(ACL_FLOAT16, p->supports_operator);
}

MG_TEST(bfloat16_only_on_910b_class_and_later) {
    const product *p = expected_product();
    if (!p) { /* an unknown SoC: aclInit refused it, so nothing can run */
        MG_CHECK(!ut_acl_ready);
        return;
    }
    if (!ut_acl_ready) MG_SKIP("aclInit failed (reported by aclinit_accepts_known_socs_only)");
    if (!p->supports_operator) { /* no operator on this product: BFLOAT16 is refused too */
        run_one(ACL_BF16, 0);
        return;
    }
    run_one(ACL_BF16, p->supports_bf16);
    if (!p->supports_bf16) {
        /* The refusal is the dtype rule's: 161002, naming the first tensor. */
        int64_t dims[1] = {4};
        ut_tensor t[3];
        for (int i = 0; i < 3; i++) ut_tensor_dense(&t[i], ACL_BF16, 1, dims);
        uint64_t ws = 0;
        aclOpExecutor *executor = NULL;
        MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0].tensor, t[1].tensor, t[2].tensor, &ws, &executor),
                        ACLNN_ERR_PARAM_INVALID);
        MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "gradOutput");
        for (int i = 0; i < 3; i++) ut_tensor_free(&t[i]);
    }
}

int main(int argc, char **argv) { return ut_main(argc, argv); }

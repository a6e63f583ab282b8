/*
 * tests/ut/op_host/test_soc_profiles.c: each operator's product table, one SoC per process.
 *
 * CTest runs this executable once per MISHGRAD_SOC_VERSION value. The expectations are
 * written below from the products' documentation, not from the operators' tables:
 * - aclnnMishBackward (the seed): BFLOAT16 only on Ascend910B-class chips and later (A2,
 *   A3, 950); the Atlas inference series (310P) and training series (910) take FLOAT and
 *   FLOAT16; the Atlas 200I/500 A2 (310B) does not carry it.
 * - aclnnMish / aclnnInplaceMish (ops-nn's docs/aclnnMish&aclnnInplaceMish.md): the same,
 *   except that the Atlas inference series (310P) does not carry them either.
 * An operator a product does not carry: 561003, the message naming the SoC, for the dtypes
 * the pre-910B chips take (FLOAT, FLOAT16; CANN's operators judge every chip outside the
 * 910B class by that list, ops-nn's GetDtypeSupportListV2); BFLOAT16 is a dtype error there
 * as on the training series. A dtype a product does not take: 161002 naming the first tensor
 * and the dtype. An unknown name fails aclInit.
 */
#include <stdint.h>

#include "ut_util.h"

typedef ut_support support;

/* The products, more specific prefixes first ("Ascend910B" before "Ascend910"). */
enum { PRODUCT_COUNT = UT_PRODUCT_COUNT }; /* in the order tests/ut/ut_ops.h documents */
static const char *const product_prefixes[PRODUCT_COUNT] = {
    "Ascend910B",   /* Atlas A2 training / inference */
    "Ascend910_93", /* Atlas A3 */
    "Ascend950",    /* Ascend 950PR / 950DT */
    "Ascend910",    /* Atlas training series */
    "Ascend310P",   /* Atlas inference series */
    "Ascend310B",   /* Atlas 200I/500 A2 inference */
};

static const char *requested_soc(void) {
    const char *soc = getenv("MISHGRAD_SOC_VERSION");
    return soc && *soc ? soc : NULL;
}

/* The index of the requested product; PRODUCT_COUNT for the CPU default (no name or "cpu",
   which takes everything); -1 for a name the table does not know. */
static int expected_product(void) {
    const char *soc = requested_soc();
    if (!soc || strcmp(soc, "cpu") == 0) return PRODUCT_COUNT;
    for (int i = 0; i < PRODUCT_COUNT; i++)
        if (strncmp(soc, product_prefixes[i], strlen(product_prefixes[i])) == 0) return i;
    return -1;
}

/* The operator's own table (its ut_op, written from its documentation); everything on the
   CPU default */
static support expected_support(int product, const ut_op *op) {
    const support everything = {1, 1};
    return product == PRODUCT_COUNT ? everything : op->products[product];
}

MG_TEST(aclinit_accepts_known_socs_only) {
    aclError rc = aclInit(NULL);
    if (expected_product() < 0) {
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
    if (name && !requested_soc()) MG_CHECK(strcmp(name, "MishGradV2-CPU") == 0); /* unset or empty */
}

/* Runs `op` on dense [7, 9] tensors of `dtype`: right values where expected to run, else
   the expected refusal with nothing written. */
static void run_one(const ut_op *op, aclDataType dtype, aclnnStatus expected_status) {
    mg_rng rng = {40 + (uint64_t)dtype};
    int64_t dims[2] = {7, 9};
    ut_tensor t[3];
    for (int i = 0; i < ut_op_tensor_count(op); i++) ut_tensor_dense(&t[i], dtype, 2, dims);
    char what[96];
    snprintf(what, sizeof what, "%s dtype %d on %s", op->phase1_name, (int)dtype, aclrtGetSocName());
    if (expected_status == ACLNN_SUCCESS) {
        MG_CHECK_EQ_INT(ut_op_run_checked(op, t, &rng, ut_stream, NULL, what), 0);
    } else {
        for (int i = 0; i < op->input_count; i++) ut_fill_random(&t[i], &rng, op->lo[i], op->hi[i]);
        ut_tensor *out = ut_op_output(op, t);
        ut_download(out);
        unsigned char *before = malloc(out->bytes);
        memcpy(before, out->host, out->bytes);
        aclnnStatus st = ut_op_run(op, t, ut_stream, NULL);
        const char *m = aclGetRecentErrMsg();
        char message[512];
        snprintf(message, sizeof message, "%s", m ? m : "");
        MG_CHECK_EQ_INT(st, expected_status);
        if (expected_status == ACLNN_ERR_INNER_FIND_KERNEL_ERROR) {
            MG_CHECK_STR_CONTAINS(message, op->phase1_name);
            MG_CHECK_STR_CONTAINS(message, "is not supported on");
            MG_CHECK_STR_CONTAINS(message, aclrtGetSocName());
        } else {
            char expected[128];
            snprintf(expected, sizeof expected, "%s: %s has dtype BFLOAT16", op->phase1_name, op->names[0]);
            MG_CHECK_STR_CONTAINS(message, expected);
        }
        ut_download(out);
        MG_CHECK(memcmp(before, out->host, out->bytes) == 0);
        free(before);
    }
    for (int i = 0; i < ut_op_tensor_count(op); i++) ut_tensor_free(&t[i]);
}

/* A product without the operator still judges the arguments first (CANN's order: the
   parameter checks, then the kernel lookup): NULL is 161001, DOUBLE and an invalid
   descriptor are 161002, and only a valid call gets 561003. */
static void arguments_come_first(const ut_op *op) {
    int64_t dims[1] = {4};
    ut_tensor t[3];
    for (int i = 0; i < ut_op_tensor_count(op); i++) ut_tensor_dense(&t[i], ACL_DOUBLE, 1, dims);
    aclTensor *raw[3] = {NULL, NULL, NULL};
    uint64_t ws = 0;
    aclOpExecutor *executor = NULL;
    MG_CHECK_EQ_INT(op->phase1(raw, &ws, &executor), ACLNN_ERR_PARAM_NULLPTR);
    for (int i = 0; i < op->input_count; i++) raw[i] = t[i].tensor;
    raw[op->input_count] = ut_op_output(op, t)->tensor;
    MG_CHECK_EQ_INT(op->phase1(raw, &ws, &executor), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "has dtype DOUBLE");
    aclTensor *bad = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, NULL); /* NULL data */
    for (int i = 0; i <= op->input_count; i++) raw[i] = bad;
    MG_CHECK_EQ_INT(op->phase1(raw, &ws, &executor), ACLNN_ERR_PARAM_INVALID);
    aclDestroyTensor(bad);
    for (int i = 0; i < ut_op_tensor_count(op); i++) ut_tensor_free(&t[i]);
}

/* ...but an empty tensor is no work: CANN's L2 returns success with workspace 0 before
   the kernel lookup, so the product's missing kernel is never asked for (and phase 2 of
   that executor runs, doing nothing). */
static void empty_needs_no_kernel(const ut_op *op) {
    int64_t dims[2] = {0, 3};
    aclTensor *raw[3] = {NULL, NULL, NULL};
    for (int i = 0; i <= op->input_count; i++)
        raw[i] = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, NULL);
    uint64_t ws = 99;
    aclOpExecutor *executor = NULL;
    MG_CHECK_EQ_INT(op->phase1(raw, &ws, &executor), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT((int)ws, 0);
    MG_CHECK(executor != NULL);
    if (executor != NULL) MG_CHECK_EQ_INT(op->phase2(NULL, 0, executor, ut_stream), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(ut_stream), ACL_SUCCESS);
    for (int i = 0; i <= op->input_count; i++) aclDestroyTensor(raw[i]);
}

MG_TEST(each_operator_takes_its_dtypes_on_this_product) {
    const int p = expected_product();
    if (p < 0) { /* aclInit failed: no profile, no SoC name */
        MG_CHECK(aclrtGetSocName() == NULL);
        return;
    }
    MG_CHECK(ut_acl_ready);
    if (!ut_acl_ready) return;
    for (int k = 0; k < UT_OP_COUNT; k++) {
        const ut_op *op = UT_OPS[k];
        support s = expected_support(p, op);
        aclnnStatus absent = ACLNN_ERR_INNER_FIND_KERNEL_ERROR;
        run_one(op, ACL_FLOAT, s.runs ? ACLNN_SUCCESS : absent);
        run_one(op, ACL_FLOAT16, s.runs ? ACLNN_SUCCESS : absent);
        run_one(op, ACL_BF16, s.runs && s.bf16 ? ACLNN_SUCCESS : ACLNN_ERR_PARAM_INVALID);
        if (!s.runs) {
            arguments_come_first(op);
            empty_needs_no_kernel(op);
        }
    }
}

int main(int argc, char **argv) { return ut_main(argc, argv); }

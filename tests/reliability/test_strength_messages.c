/*
 * tests/reliability/test_strength_messages.c: exact status codes and message content of
 * aclnnMishBackwardGetWorkspaceSize's refusals (docs/aclnnMishBackward.md), each message
 * compared with the words it must carry in their order (which argument, what it has, what
 * it is compared with), so a message that swaps two values, names the wrong argument or
 * loses a value fails. Also: adjacent (touching, not overlapping) tensors in one block are
 * apart (workspace 0), and the product without the operator answers 561003.
 */
#include "mg_test.h"
#include "mgrt.h"
#include "rel_job.h"

#define PHASE1 "aclnnMishBackwardGetWorkspaceSize"

typedef struct desc {
    aclDataType dtype;
    int rank;
    int64_t dims[10];
    const int64_t *strides; /* NULL: row-major */
    int64_t offset;
    int64_t storage;        /* elements; 0: what the view needs */
} desc;

static void *block;       /* one aclrtMalloc block every tensor points into */
#define BLOCK_BYTES (1 << 16)

static aclTensor *make(const desc *d) {
    int64_t storage = d->storage;
    if (storage == 0) {
        storage = d->offset + 1;
        int64_t stride = 1;
        for (int i = d->rank; i-- > 0;) {
            storage += (d->dims[i] - 1) * (d->strides ? d->strides[i] : stride);
            stride *= d->dims[i];
        }
    }
    return aclCreateTensor(d->dims, (uint64_t)d->rank, d->dtype, d->strides, d->offset, ACL_FORMAT_ND, &storage, 1,
                           block);
}

/* Phase 1 on three descriptors: the status, and the message in `message`. */
static int phase1(const desc *g, const desc *x, const desc *o, char *message, size_t capacity) {
    aclTensor *t[3] = {make(g), make(x), make(o)};
    uint64_t ws = 0;
    aclOpExecutor *executor = NULL;
    int status = aclnnMishBackwardGetWorkspaceSize(t[0], t[1], t[2], &ws, &executor);
    const char *m = aclGetRecentErrMsg();
    snprintf(message, capacity, "%s", m ? m : "");
    if (status == ACLNN_SUCCESS) {
        aclSetAclOpExecutorRepeatable(executor);
        aclDestroyAclOpExecutor(executor);
    }
    for (int i = 0; i < 3; i++) aclDestroyTensor(t[i]);
    return status;
}

/* `message` holds each of `words` (NULL-terminated), in this order. */
static void check_words_in_order(const char *message, const char *const *words) {
    const char *at = message;
    for (int i = 0; words[i]; i++) {
        const char *found = strstr(at, words[i]);
        if (found == NULL) {
            MG_FAIL("\"%s\" lacks \"%s\" (in this place: words in order)", message, words[i]);
            return;
        }
        at = found + strlen(words[i]);
    }
    MG_CHECK(1);
}

static void setup(void) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    if (block == NULL) MG_CHECK_EQ_INT(aclrtMalloc(&block, BLOCK_BYTES, ACL_MEM_MALLOC_HUGE_FIRST), 0);
}

MG_TEST(dtype_mismatch_names_both_dtypes_in_order) {
    setup();
    char m[1024];
    desc f32 = {ACL_FLOAT, 2, {2, 3}, NULL, 0, 0}, f16 = {ACL_FLOAT16, 2, {2, 3}, NULL, 0, 0},
         bf16 = {ACL_BF16, 2, {2, 3}, NULL, 0, 0};
    MG_CHECK_EQ_INT(phase1(&f32, &f16, &f32, m, sizeof m), ACLNN_ERR_PARAM_INVALID);
    check_words_in_order(m, (const char *const[]){PHASE1, "self", "FLOAT16", "gradOutput", "FLOAT", NULL});
    MG_CHECK(strstr(m, "gradOutput has dtype FLOAT16") == NULL);
    MG_CHECK_EQ_INT(phase1(&f16, &f16, &bf16, m, sizeof m), ACLNN_ERR_PARAM_INVALID);
    check_words_in_order(m, (const char *const[]){"gradInput", "BFLOAT16", "gradOutput", "FLOAT16", NULL});
    MG_CHECK_EQ_INT(phase1(&bf16, &f32, &f32, m, sizeof m), ACLNN_ERR_PARAM_INVALID);
    check_words_in_order(m, (const char *const[]){"self", "FLOAT", "gradOutput", "BFLOAT16", NULL});
}

MG_TEST(unsupported_dtype_names_the_tensor_and_the_list) {
    setup();
    char m[1024];
    desc f32 = {ACL_FLOAT, 1, {4}, NULL, 0, 0}, dbl = {ACL_DOUBLE, 1, {4}, NULL, 0, 0},
         i32 = {ACL_INT32, 1, {4}, NULL, 0, 0};
    MG_CHECK_EQ_INT(phase1(&dbl, &f32, &f32, m, sizeof m), ACLNN_ERR_PARAM_INVALID);
    check_words_in_order(m, (const char *const[]){"gradOutput", "DOUBLE", "FLOAT", "FLOAT16", "BFLOAT16", NULL});
    MG_CHECK_EQ_INT(phase1(&f32, &f32, &i32, m, sizeof m), ACLNN_ERR_PARAM_INVALID);
    check_words_in_order(m, (const char *const[]){"gradInput", "INT32", NULL});
}

MG_TEST(shape_mismatch_names_both_shapes_in_order) {
    setup();
    char m[1024];
    desc a = {ACL_FLOAT, 2, {2, 3}, NULL, 0, 0}, b = {ACL_FLOAT, 2, {2, 4}, NULL, 0, 0},
         c = {ACL_FLOAT, 3, {1, 2, 3}, NULL, 0, 0}, s = {ACL_FLOAT, 0, {0}, NULL, 0, 0};
    MG_CHECK_EQ_INT(phase1(&a, &b, &a, m, sizeof m), ACLNN_ERR_PARAM_INVALID);
    check_words_in_order(m, (const char *const[]){"self", "[2,4]", "gradOutput", "[2,3]", NULL});
    MG_CHECK_EQ_INT(phase1(&a, &a, &c, m, sizeof m), ACLNN_ERR_PARAM_INVALID);
    check_words_in_order(m, (const char *const[]){"gradInput", "[1,2,3]", "gradOutput", "[2,3]", NULL});
    MG_CHECK_EQ_INT(phase1(&s, &a, &s, m, sizeof m), ACLNN_ERR_PARAM_INVALID);
    check_words_in_order(m, (const char *const[]){"self", "[2,3]", "gradOutput", "[]", NULL});
}

MG_TEST(rank_and_descriptor_messages) {
    setup();
    char m[1024];
    desc r9 = {ACL_FLOAT, 9, {1, 1, 1, 1, 1, 1, 1, 1, 2}, NULL, 0, 0}, r8 = {ACL_FLOAT, 8, {1, 1, 1, 1, 1, 1, 1, 2}, NULL, 0, 0};
    MG_CHECK_EQ_INT(phase1(&r8, &r9, &r8, m, sizeof m), ACLNN_ERR_PARAM_INVALID);
    check_words_in_order(m, (const char *const[]){"self", "9", "8", NULL});
    MG_CHECK_EQ_INT(phase1(&r8, &r8, &r8, m, sizeof m), ACLNN_SUCCESS);
    /* an element count of exactly INT64_MAX - 1 is countable (broadcast inputs); the output
       cannot hold it, so the refusal names gradInput, not an overflow of gradOutput */
    static const int64_t zero[2] = {0, 0};
    desc big_in = {ACL_FLOAT, 2, {2, INT64_MAX / 2}, zero, 0, 1};
    desc big_out = {ACL_FLOAT, 2, {2, INT64_MAX / 2}, NULL, 0, 64};
    MG_CHECK_EQ_INT(phase1(&big_in, &big_in, &big_out, m, sizeof m), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_STR_CONTAINS(m, "gradInput");
    MG_CHECK(strstr(m, "gradOutput") == NULL);
    /* one more element than int64 counts */
    desc over = {ACL_FLOAT, 2, {3, INT64_MAX / 2}, zero, 0, 1};
    desc over_out = {ACL_FLOAT, 2, {3, INT64_MAX / 2}, NULL, 0, 64};
    MG_CHECK_EQ_INT(phase1(&over, &over, &over_out, m, sizeof m), ACLNN_ERR_PARAM_INVALID);
    check_words_in_order(m, (const char *const[]){"gradOutput", "int64", NULL});
}

MG_TEST(null_arguments_named) {
    setup();
    desc a = {ACL_FLOAT, 1, {4}, NULL, 0, 0};
    aclTensor *t = make(&a);
    uint64_t ws = 0;
    aclOpExecutor *executor = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t, NULL, t, &ws, &executor), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "Expected a proper Tensor but got null for argument self.");
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t, t, NULL, &ws, &executor), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "Expected a proper Tensor but got null for argument gradInput.");
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t, t, t, NULL, &executor), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "workspaceSize is NULL");
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t, t, t, &ws, NULL), ACLNN_ERR_PARAM_NULLPTR);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "executor is NULL");
    aclDestroyTensor(t);
}

/* Three contiguous tensors side by side in one block, touching but not overlapping: they
   are apart, so no workspace, and the results are right. */
MG_TEST(adjacent_tensors_are_apart) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    const int64_t n = 37;
    void *one = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&one, (size_t)(3 * n) * 4, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    float *f = one;
    for (int64_t i = 0; i < n; i++) {
        f[i] = 0.25f * (float)(i % 7) - 0.5f;  /* gradOutput */
        f[n + i] = 0.125f * (float)i - 2.0f;   /* self */
        f[2 * n + i] = 1234.0f;                /* gradInput */
    }
    int64_t dims[1] = {n}, storage = 3 * n;
    aclTensor *g = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, &storage, 1, one);
    aclTensor *x = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, n, ACL_FORMAT_ND, &storage, 1, one);
    aclTensor *o = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 2 * n, ACL_FORMAT_ND, &storage, 1, one);
    uint64_t ws = 99;
    aclOpExecutor *executor = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(g, x, o, &ws, &executor), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(ws, 0);
    MG_CHECK_EQ_INT(aclnnMishBackward(NULL, 0, executor, NULL), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    long bad = 0;
    for (int64_t i = 0; i < n; i++) {
        double gv = 0.25 * (double)(i % 7) - 0.5, xv = 0.125 * (double)i - 2.0;
        if (!mish_ref_close(ACL_FLOAT, f[2 * n + i], gv, xv)) bad++;
        if (f[i] != (float)gv || f[n + i] != (float)xv) bad++;
    }
    MG_CHECK_EQ_INT(bad, 0);
    aclDestroyTensor(g);
    aclDestroyTensor(x);
    aclDestroyTensor(o);
    MG_CHECK_EQ_INT(aclrtFree(one), 0);
}

/* The Atlas 200I/500 A2 (Ascend310B) does not carry the operator: valid tensors get
   561003 and a message naming the product. */
MG_TEST(product_without_the_operator) {
    aclFinalize();
    setenv("MISHGRAD_SOC_VERSION", "Ascend310B1", 1);
    int up = rel_runtime_up();
    unsetenv("MISHGRAD_SOC_VERSION");
    MG_CHECK_EQ_INT(up, 0);
    void *data = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&data, 64, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    int64_t dims[1] = {4}, storage = 4;
    aclTensor *t = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, &storage, 1, data);
    uint64_t ws = 0;
    aclOpExecutor *executor = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t, t, t, &ws, &executor), ACLNN_ERR_INNER_FIND_KERNEL_ERROR);
    check_words_in_order(aclGetRecentErrMsg(), (const char *const[]){PHASE1, "Ascend310B1", NULL});
    aclDestroyTensor(t);
    MG_CHECK_EQ_INT(aclrtFree(data), 0);
    aclFinalize();
    block = NULL; /* it went with the session */
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
}

/* ---- the Set*TensorAddr family names the parameters of the kind it addresses (issue 25.14) ---- */

static const char *set_addr_message(void) {
    static char copy[1024];
    const char *m = aclGetRecentErrMsg();
    snprintf(copy, sizeof copy, "%s", m != NULL ? m : "");
    return copy;
}

static aclTensor *set_addr_vector(float *data, int64_t n) {
    const int64_t dims[1] = {n}, strides[1] = {1};
    return aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, data);
}

MG_TEST(set_tensor_addr_messages_name_the_parameters_addressed) {
    MG_CHECK_EQ_INT(rel_runtime_up(), 0);
    enum { N = 8 };
    void *block[3];
    aclTensor *t[3];
    for (int i = 0; i < 3; i++) {
        MG_CHECK_EQ_INT(aclrtMalloc(&block[i], N * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        t[i] = set_addr_vector(block[i], N);
        MG_CHECK(t[i] != NULL);
    }
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    MG_CHECK_EQ_INT(aclnnMishBackwardGetWorkspaceSize(t[0], t[1], t[2], &ws, &e), ACLNN_SUCCESS);
    MG_CHECK_EQ_INT(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    /* MishBackward: 2 inputs (gradOutput, self), 1 output (gradInput), 3 in all */
    static const struct {
        aclnnStatus (*set)(aclOpExecutor *, const size_t, aclTensor *, void *);
        size_t index;
        const char *says;
    } plain[] = {
        {aclSetInputTensorAddr, 2, "aclSetInputTensorAddr: index 2 is out of range; "},
        {aclSetOutputTensorAddr, 1, "aclSetOutputTensorAddr: index 1 is out of range; "},
        {aclSetTensorAddr, 3, "aclSetTensorAddr: index 3 is out of range; "},
        {AclSetInputTensorAddr, 2, "AclSetInputTensorAddr: index 2 is out of range; "},
        {AclSetOutputTensorAddr, 1, "AclSetOutputTensorAddr: index 1 is out of range; "},
        {AclSetTensorAddr, 3, "AclSetTensorAddr: index 3 is out of range; "},
    };
    static const char *const plain_tail[] = {"has 2 inputs", "has 1 outputs", "has 3 tensors"};
    for (int f = 0; f < 6; f++) {
        MG_CHECK_EQ_INT(plain[f].set(e, plain[f].index, t[0], block[0]), ACLNN_ERR_PARAM_INVALID);
        const char *said = set_addr_message();
        MG_CHECK_STR_CONTAINS(said, plain[f].says);
        MG_CHECK_STR_CONTAINS(said, plain_tail[f % 3]);
    }
    /* the dynamic forms: every irIndex is refused (no aclTensorList parameter), naming the
       parameters of the kind the call addresses */
    float other[N];
    const aclTensor *items[1] = {set_addr_vector(other, N)};
    aclTensorList *list = aclCreateTensorList(items, 1);
    MG_CHECK(list != NULL);
    static const struct {
        aclnnStatus (*set)(aclOpExecutor *, size_t, const size_t, aclTensorList *, void *);
        const char *api;
    } dynamic[] = {
        {aclSetDynamicInputTensorAddr, "aclSetDynamicInputTensorAddr"},
        {aclSetDynamicOutputTensorAddr, "aclSetDynamicOutputTensorAddr"},
        {aclSetDynamicTensorAddr, "aclSetDynamicTensorAddr"},
        {AclSetDynamicInputTensorAddr, "AclSetDynamicInputTensorAddr"},
        {AclSetDynamicOutputTensorAddr, "AclSetDynamicOutputTensorAddr"},
        {AclSetDynamicTensorAddr, "AclSetDynamicTensorAddr"},
    };
    static const char *const dynamic_tail[] = {"has 2 input(s), all aclTensor", "has 1 output(s), all aclTensor",
                                               "has 3 parameter(s), all aclTensor"};
    for (int f = 0; f < 6; f++) {
        MG_CHECK_EQ_INT(dynamic[f].set(e, 0, 0, list, other), ACLNN_ERR_PARAM_INVALID);
        char want[96];
        snprintf(want, sizeof want, "%s: irIndex 0 names no aclTensorList parameter", dynamic[f].api);
        const char *said = set_addr_message();
        MG_CHECK_STR_CONTAINS(said, want);
        MG_CHECK_STR_CONTAINS(said, dynamic_tail[f % 3]);
    }
    MG_CHECK_EQ_INT(aclDestroyTensorList(list), ACLNN_SUCCESS);
    /* The list took its element with it: each dynamic call above looked into the list (its
       element for NULL, CANN's 561103 check) under a pin of its own, and gave the pin back; a
       pin left behind would keep the destroyed list, and its element, alive (seed 31). */
    MG_CHECK_EQ_INT(aclDestroyTensor((aclTensor *)items[0]), ACLNN_ERR_PARAM_INVALID);
    MG_CHECK_EQ_INT(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    for (int i = 0; i < 3; i++) {
        MG_CHECK_EQ_INT(aclDestroyTensor(t[i]), ACLNN_SUCCESS);
        MG_CHECK_EQ_INT(aclrtFree(block[i]), ACL_SUCCESS);
    }
}

MG_TEST_MAIN()

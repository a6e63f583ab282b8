/*
 * tests/reliability/test_mutation_l2.c: the elementwise layer's phase 1 (ew_get_workspace_size,
 * op_host/elementwise/elementwise.h, compiled into this test) with operators made up here,
 * so that what the shipped operators never exercise is checked against written
 * expectations: three inputs; every argument position in the NULL, dtype, equal-dtype and
 * shape checks (exact messages); dtype tables that differ by product (the list a product
 * that does not carry the operator judges against is the union of every product's, in
 * product order; the hint names the first Ascend product that takes a dtype); the plan for
 * strided, transposed and in-place inputs (values computed through every path, workspace
 * 0 when nothing is copied, one 64-byte-aligned dense buffer per copied tensor); a plan the
 * L0 refuses (no executor kept); the line a plan logs at INFO.
 */
#include "elementwise.h"
#include "mg_test.h"
#include "mgrt_handle.h"
#include "mg_log_file.h"

/* ---- a three-input operator: out = a + 2 b + 4 c ------------------------------------------ */

static void tern_f32(const void *a, const void *b, const void *c, void *out, size_t n) {
    for (size_t i = 0; i < n; i++)
        ((float *)out)[i] = ((const float *)a)[i] + 2.0f * ((const float *)b)[i] + 4.0f * ((const float *)c)[i];
}

static aclnnStatus tern_l0(aclOpExecutor *executor, const nnop_buffer *inputs, nnop_buffer out, int64_t numel,
                           aclDataType dtype) {
    ew_kernel kernel;
    memset(&kernel, 0, sizeof kernel);
    kernel.isa = "test";
    kernel.cached.ternary = tern_f32;
    kernel.streaming.ternary = tern_f32;
    return ew_add_kernel(executor, "Tern", &kernel, 3, inputs, out, numel, dtype);
}

static const char *const tern_names[] = {"a", "b", "c", "out"};
/* CPU: float32 and float16 (float16 only to reach the equal-dtypes check) */
static const ew_dtype_list tern_dtypes[MGRT_SOC_GENERATION_COUNT] = {
    [MGRT_SOC_CPU] = EW_FLOAT_FLOAT16,
};
static const ew_operator tern = {"Tern", 3, tern_names, tern_dtypes, tern_l0};

/* ---- an operator whose dtypes differ by product ------------------------------------------ */

static const char *const odd_names[] = {"x", "y"};
static const ew_dtype_list odd_dtypes[MGRT_SOC_GENERATION_COUNT] = {
    [MGRT_SOC_CPU] = {1, {ACL_FLOAT16}},
    [MGRT_SOC_ASCEND910] = {1, {ACL_FLOAT}},
    [MGRT_SOC_ASCEND310P] = EW_NOT_CARRIED,
    [MGRT_SOC_ASCEND310B] = EW_NOT_CARRIED,
    [MGRT_SOC_ASCEND910B] = {2, {ACL_BF16, ACL_FLOAT}},
    [MGRT_SOC_ASCEND910_93] = {1, {ACL_BF16}},
    [MGRT_SOC_ASCEND950] = {1, {ACL_INT8}},
};
static aclnnStatus odd_l0(aclOpExecutor *executor, const nnop_buffer *inputs, nnop_buffer out, int64_t numel,
                          aclDataType dtype) {
    (void)executor, (void)inputs, (void)out, (void)numel, (void)dtype;
    return ACLNN_SUCCESS; /* no kernel step: phase 1 is what is judged */
}
static const ew_operator odd = {"Odd", 1, odd_names, odd_dtypes, odd_l0};
/* an operator with no Ascend910 list: a product without it is judged by every product's dtypes,
   each once (the Ascend950 list repeats the union's first dtype, FLOAT16, after a new one) */
static const ew_dtype_list late_dtypes[MGRT_SOC_GENERATION_COUNT] = {
    [MGRT_SOC_CPU] = {1, {ACL_FLOAT16}},
    [MGRT_SOC_ASCEND910B] = {2, {ACL_BF16, ACL_FLOAT}},
    [MGRT_SOC_ASCEND950] = {2, {ACL_INT8, ACL_FLOAT16}},
};
static const ew_operator late = {"Late", 1, odd_names, late_dtypes, odd_l0};
/* an operator with no Ascend910 list whose products name ten dtypes in all: the union holds
   the first eight in product order (EW_MAX_DTYPES), the other two are left out */
static const ew_dtype_list many_dtypes[MGRT_SOC_GENERATION_COUNT] = {
    [MGRT_SOC_CPU] = {8, {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT32, ACL_UINT8, ACL_INT16, ACL_UINT16, ACL_UINT32}},
    [MGRT_SOC_ASCEND910B] = {3, {ACL_FLOAT, ACL_INT64, ACL_BF16}},
};
static const ew_operator many = {"Many", 1, odd_names, many_dtypes, odd_l0};
/* an operator no product carries: every dtype is refused, against an empty list */
static const ew_dtype_list none_dtypes[MGRT_SOC_GENERATION_COUNT] = {{0, {0}}};
static const ew_operator none = {"None", 1, odd_names, none_dtypes, odd_l0};

/* an operator whose CPU list names 8 values aclDataType does not have: its text, 8 times
   "not a known aclDataType" joined by ", " (198 characters), is longer than the message's
   160-byte list buffer */
static const ew_dtype_list wide_dtypes[MGRT_SOC_GENERATION_COUNT] = {
    [MGRT_SOC_CPU] = {8, {(aclDataType)100, (aclDataType)101, (aclDataType)102, (aclDataType)103, (aclDataType)104,
                          (aclDataType)105, (aclDataType)106, (aclDataType)107}},
};
static const ew_operator wide = {"Wide", 1, odd_names, wide_dtypes, odd_l0};

/* an operator whose L0 refuses its plan (as an ops-nn l0 op refuses a shape it cannot tile) */
static aclnnStatus refusing_l0(aclOpExecutor *executor, const nnop_buffer *inputs, nnop_buffer out, int64_t numel,
                               aclDataType dtype) {
    (void)executor, (void)inputs, (void)out, (void)numel, (void)dtype;
    return mgrt_fail_at("Refusing", ACLNN_ERR_INNER_TILING_ERROR, "Refusing: the plan is refused");
}
static const ew_operator refusing = {"Refusing", 1, odd_names, odd_dtypes, refusing_l0};

/* ---- helpers --------------------------------------------------------------------------- */

static void session(const char *soc) {
    (void)aclFinalize();
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
    if (soc) setenv("MISHGRAD_SOC_VERSION", soc, 1); else unsetenv("MISHGRAD_SOC_VERSION");
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    unsetenv("MISHGRAD_SOC_VERSION");
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    (void)aclGetRecentErrMsg();
}

typedef struct buf {
    void *data;
    aclTensor *t;
} buf;

/* A tensor over its own block: dims, strides (NULL: row-major), element offset. */
static buf make(aclDataType dtype, int rank, const int64_t *dims, const int64_t *strides, int64_t offset,
                int64_t storage) {
    buf b = {NULL, NULL};
    size_t es = dtype == ACL_FLOAT ? 4 : dtype == ACL_INT8 ? 1 : dtype == ACL_INT32 ? 4 : 2;
    (void)aclrtMalloc(&b.data, (size_t)storage * es + 64, ACL_MEM_MALLOC_HUGE_FIRST);
    memset(b.data, 0, (size_t)storage * es + 64);
    int64_t sdims[1] = {storage};
    b.t = aclCreateTensor(dims, (uint64_t)rank, dtype, strides, offset, ACL_FORMAT_ND, sdims, 1, b.data);
    return b;
}

static void drop(buf *b) {
    if (b->t) aclDestroyTensor(b->t);
    if (b->data) aclrtFree(b->data);
    b->t = NULL;
    b->data = NULL;
}

static void check_message(const char *want) {
    const char *got = aclGetRecentErrMsg();
    if (got == NULL || strcmp(got, want) != 0)
        MG_FAIL("message \"%s\"\n      expected \"%s\"", got ? got : "(null)", want);
    else
        MG_CHECK(1);
}

static aclnnStatus phase1(const ew_operator *op, const char *api, buf *in, buf *out, uint64_t *ws, aclOpExecutor **e) {
    const aclTensor *inputs[3] = {in[0].t, op->input_count > 1 ? in[1].t : NULL, op->input_count > 2 ? in[2].t : NULL};
    return ew_get_workspace_size(op, api, inputs, out->t, ws, e);
}

/* ---- the checks, every argument position --------------------------------------------------- */

MG_TEST(three_inputs_null_order) {
    session(NULL);
    int64_t dims[2] = {2, 4};
    buf t[4];
    for (int i = 0; i < 4; i++) t[i] = make(ACL_FLOAT, 2, dims, NULL, 0, 8);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    const aclTensor *inputs[3] = {t[0].t, t[1].t, t[2].t};
    MG_CHECK_EQ_INT(ew_get_workspace_size(&tern, "aclnnTern", inputs, t[3].t, NULL, &e), ACLNN_ERR_PARAM_NULLPTR);
    check_message("aclnnTern: workspaceSize is NULL");
    MG_CHECK_EQ_INT(ew_get_workspace_size(&tern, "aclnnTern", inputs, t[3].t, &ws, NULL), ACLNN_ERR_PARAM_NULLPTR);
    check_message("aclnnTern: executor is NULL");
    for (int i = 0; i < 4; i++) {
        const aclTensor *in[3] = {t[0].t, t[1].t, t[2].t};
        aclTensor *out = t[3].t;
        if (i < 3) in[i] = NULL; else out = NULL;
        /* an earlier argument NULL too must not matter for a later one: only the first */
        MG_CHECK_EQ_INT(ew_get_workspace_size(&tern, "aclnnTern", in, out, &ws, &e), ACLNN_ERR_PARAM_NULLPTR);
        char want[128];
        snprintf(want, sizeof want, "Expected a proper Tensor but got null for argument %s.", tern_names[i]);
        check_message(want);
    }
    /* the NULL checks need no runtime: before aclInit a NULL argument still gets 161001 naming
       it, and only valid pointers reach the "aclInit has not been called" refusal (361001) */
    (void)aclFinalize();
    for (int i = 0; i <= 4; i++) {
        const aclTensor *in[3] = {t[0].t, t[1].t, t[2].t};
        aclTensor *out = t[3].t;
        if (i < 3) in[i] = NULL; else if (i == 3) out = NULL;
        aclnnStatus st = ew_get_workspace_size(&tern, "aclnnTern", in, out, &ws, &e);
        char want[128];
        if (i < 4)
            snprintf(want, sizeof want, "Expected a proper Tensor but got null for argument %s.", tern_names[i]);
        else
            snprintf(want, sizeof want, "aclnnTern: aclInit has not been called");
        MG_CHECK_EQ_INT(st, i < 4 ? ACLNN_ERR_PARAM_NULLPTR : ACLNN_ERR_RUNTIME_ERROR);
        check_message(want);
    }
    session(NULL);
    for (int i = 0; i < 4; i++) drop(&t[i]);
}

MG_TEST(three_inputs_dtype_and_shape_checks_name_the_right_argument) {
    session(NULL);
    int64_t dims[2] = {2, 4}, other[2] = {2, 3}, nine[9] = {1, 1, 1, 1, 1, 1, 1, 2, 4};
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    for (int bad = 0; bad < 4; bad++) {
        char want[256];
        buf in[3], out;
        /* a dtype outside the list */
        for (int i = 0; i < 3; i++) in[i] = make(i == bad ? ACL_INT32 : ACL_FLOAT, 2, dims, NULL, 0, 8);
        out = make(bad == 3 ? ACL_INT32 : ACL_FLOAT, 2, dims, NULL, 0, 8);
        MG_CHECK_EQ_INT(phase1(&tern, "aclnnTern", in, &out, &ws, &e), ACLNN_ERR_PARAM_INVALID);
        snprintf(want, sizeof want, "aclnnTern: %s has dtype INT32 (value 3); supported: FLOAT, FLOAT16", tern_names[bad]);
        check_message(want);
        for (int i = 0; i < 3; i++) drop(&in[i]);
        drop(&out);
        /* dtypes not equal (each in the list) */
        if (bad > 0) {
            for (int i = 0; i < 3; i++) in[i] = make(i == bad ? ACL_FLOAT16 : ACL_FLOAT, 2, dims, NULL, 0, 8);
            out = make(bad == 3 ? ACL_FLOAT16 : ACL_FLOAT, 2, dims, NULL, 0, 8);
            MG_CHECK_EQ_INT(phase1(&tern, "aclnnTern", in, &out, &ws, &e), ACLNN_ERR_PARAM_INVALID);
            snprintf(want, sizeof want,
                     "aclnnTern: %s has dtype FLOAT16 but a has FLOAT; the dtypes must be equal (no promotion)",
                     tern_names[bad]);
            check_message(want);
            for (int i = 0; i < 3; i++) drop(&in[i]);
            drop(&out);
            /* shapes not equal */
            for (int i = 0; i < 3; i++) in[i] = make(ACL_FLOAT, 2, i == bad ? other : dims, NULL, 0, 8);
            out = make(ACL_FLOAT, 2, bad == 3 ? other : dims, NULL, 0, 8);
            MG_CHECK_EQ_INT(phase1(&tern, "aclnnTern", in, &out, &ws, &e), ACLNN_ERR_PARAM_INVALID);
            snprintf(want, sizeof want, "aclnnTern: %s has shape [2,3] but a has [2,4]; shapes must be equal (no broadcast)",
                     tern_names[bad]);
            check_message(want);
            for (int i = 0; i < 3; i++) drop(&in[i]);
            drop(&out);
        }
        /* too many dims */
        for (int i = 0; i < 3; i++) in[i] = make(ACL_FLOAT, i == bad ? 9 : 2, i == bad ? nine : dims, NULL, 0, 8);
        out = make(ACL_FLOAT, bad == 3 ? 9 : 2, bad == 3 ? nine : dims, NULL, 0, 8);
        MG_CHECK_EQ_INT(phase1(&tern, "aclnnTern", in, &out, &ws, &e), ACLNN_ERR_PARAM_INVALID);
        snprintf(want, sizeof want, "aclnnTern: %s has 9 dims; at most 8 are supported", tern_names[bad]);
        check_message(want);
        for (int i = 0; i < 3; i++) drop(&in[i]);
        drop(&out);
    }
    /* a shape differing only in a later dim, and only in rank */
    {
        int64_t d3[3] = {2, 4, 5}, d3b[3] = {2, 4, 6}, d2[2] = {2, 4};
        buf in[3] = {make(ACL_FLOAT, 3, d3, NULL, 0, 40), make(ACL_FLOAT, 3, d3, NULL, 0, 40),
                     make(ACL_FLOAT, 3, d3b, NULL, 0, 48)};
        buf out = make(ACL_FLOAT, 3, d3, NULL, 0, 40);
        MG_CHECK_EQ_INT(phase1(&tern, "aclnnTern", in, &out, &ws, &e), ACLNN_ERR_PARAM_INVALID);
        check_message("aclnnTern: c has shape [2,4,6] but a has [2,4,5]; shapes must be equal (no broadcast)");
        drop(&out);
        out = make(ACL_FLOAT, 2, d2, NULL, 0, 8);
        drop(&in[2]);
        in[2] = make(ACL_FLOAT, 3, d3, NULL, 0, 40);
        MG_CHECK_EQ_INT(phase1(&tern, "aclnnTern", in, &out, &ws, &e), ACLNN_ERR_PARAM_INVALID);
        check_message("aclnnTern: out has shape [2,4] but a has [2,4,5]; shapes must be equal (no broadcast)");
        for (int i = 0; i < 3; i++) drop(&in[i]);
        drop(&out);
    }
}

/* A shape's text in the mismatch message has room for 159 characters (a buffer of 160 with
   its terminator): a text of up to 158 characters keeps its "]", a longer one is cut at 159
   characters with no "]" -- and nothing is written past the buffer. aclCreateTensor takes any
   dims (they are judged in phase 1, after the shape check), so dims of 17-19 digits reach the
   message. Rank 8: seven dims of 19 digits and one of `last` digits make 1 + 133 + last + 7
   characters before the "]". */
MG_TEST(a_long_shape_in_the_message_is_cut_at_the_buffer) {
    session(NULL);
    static const struct {
        int last_digits; /* the eighth dim: 10^(last_digits - 1) */
        const char *tail; /* what the text ends with after the seventh dim's "," */
    } cases[] = {
        {17, "10000000000000000]"},  /* 158 characters + "]": fits */
        {18, "100000000000000000"},  /* 159 characters: the "]" has no room */
        {19, "100000000000000000"},  /* 160 characters: cut inside the last dim */
    };
    int64_t small[2] = {2, 4};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int64_t dims[8];
        for (int d = 0; d < 7; d++) dims[d] = INT64_C(1000000000000000000);
        int64_t last = 1;
        for (int i = 1; i < cases[k].last_digits; i++) last *= 10;
        dims[7] = last;
        buf in[3] = {make(ACL_FLOAT, 2, small, NULL, 0, 8), make(ACL_FLOAT, 2, small, NULL, 0, 8),
                     make(ACL_FLOAT, 8, dims, NULL, 0, 8)};
        buf out = make(ACL_FLOAT, 2, small, NULL, 0, 8);
        uint64_t ws = 0;
        aclOpExecutor *e = NULL;
        MG_CHECK_EQ_INT(phase1(&tern, "aclnnTern", in, &out, &ws, &e), ACLNN_ERR_PARAM_INVALID);
        char want[512];
        int n = snprintf(want, sizeof want, "aclnnTern: c has shape [");
        for (int d = 0; d < 7; d++) n += snprintf(want + n, sizeof want - (size_t)n, "1000000000000000000,");
        snprintf(want + n, sizeof want - (size_t)n, "%s but a has [2,4]; shapes must be equal (no broadcast)",
                 cases[k].tail);
        check_message(want);
        for (int i = 0; i < 3; i++) drop(&in[i]);
        drop(&out);
    }
}

/* The supported-dtypes text is cut at its 160-byte buffer (159 characters and the NUL):
   each name is written with the room left, never more. */
MG_TEST(a_long_dtype_list_in_the_message_is_cut_at_the_buffer) {
    session(NULL);
    int64_t dims[1] = {4};
    buf in = make(ACL_FLOAT, 1, dims, NULL, 0, 4), out = make(ACL_FLOAT, 1, dims, NULL, 0, 4);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    MG_CHECK_EQ_INT(phase1(&wide, "aclnnWide", &in, &out, &ws, &e), ACLNN_ERR_PARAM_INVALID);
    char list[256];
    int n = 0;
    for (int i = 0; i < 8; i++)
        n += snprintf(list + n, sizeof list - (size_t)n, i ? ", %s" : "%s", "not a known aclDataType");
    MG_CHECK_EQ_INT(n, 198);
    list[159] = '\0';
    char want[512];
    snprintf(want, sizeof want, "aclnnWide: x has dtype FLOAT (value 0); supported: %s", list);
    check_message(want);
    drop(&in);
    drop(&out);
}

/* ---- products ----------------------------------------------------------------------------- */

MG_TEST(dtype_lists_by_product) {
    int64_t dims[1] = {4};
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    static const struct {
        const char *soc;
        aclDataType dtype;
        aclnnStatus status;
        const char *message; /* NULL: accepted */
        int late;            /* 1: the call is to Late, 0: to Odd */
    } cases[] = {
        /* the CPU profile takes FLOAT16 only; the hint names the first Ascend product */
        {NULL, ACL_FLOAT16, ACLNN_SUCCESS, NULL, 0},
        {NULL, ACL_FLOAT, ACLNN_ERR_PARAM_INVALID,
         "aclnnOdd: x has dtype FLOAT (value 0); supported: FLOAT16 (FLOAT needs an Ascend910-class SoC; this is "
         "MishGradV2-CPU)", 0},
        {NULL, ACL_BF16, ACLNN_ERR_PARAM_INVALID,
         "aclnnOdd: x has dtype BFLOAT16 (value 27); supported: FLOAT16 (BFLOAT16 needs an Ascend910B-class SoC or "
         "later; this is MishGradV2-CPU)", 0},
        {NULL, ACL_INT8, ACLNN_ERR_PARAM_INVALID,
         "aclnnOdd: x has dtype INT8 (value 2); supported: FLOAT16 (INT8 needs an Ascend950-class SoC; this is "
         "MishGradV2-CPU)", 0},
        {NULL, ACL_INT32, ACLNN_ERR_PARAM_INVALID, "aclnnOdd: x has dtype INT32 (value 3); supported: FLOAT16", 0},
        {"Ascend910B2", ACL_FLOAT, ACLNN_SUCCESS, NULL, 0},
        {"Ascend910B2", ACL_BF16, ACLNN_SUCCESS, NULL, 0},
        {"Ascend910B2", ACL_FLOAT16, ACLNN_ERR_PARAM_INVALID,
         "aclnnOdd: x has dtype FLOAT16 (value 1); supported: BFLOAT16, FLOAT", 0},
        {"Ascend950PR", ACL_INT8, ACLNN_SUCCESS, NULL, 0},
        /* a product that does not carry it: judged against its Ascend910 list (CANN's default
           list for the chips before the 910B), then 561003 */
        {"Ascend310P3", ACL_FLOAT, ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
         "aclnnOdd: Odd is not supported on Ascend310P3 (Atlas inference series)", 0},
        {"Ascend310B1", ACL_FLOAT, ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
         "aclnnOdd: Odd is not supported on Ascend310B1 (Atlas 200I/500 A2 inference product)", 0},
        {"Ascend310P3", ACL_FLOAT16, ACLNN_ERR_PARAM_INVALID, "aclnnOdd: x has dtype FLOAT16 (value 1); supported: FLOAT", 0},
        {"Ascend310P3", ACL_INT8, ACLNN_ERR_PARAM_INVALID,
         "aclnnOdd: x has dtype INT8 (value 2); supported: FLOAT (INT8 needs an Ascend950-class SoC; this is "
         "Ascend310P3)", 0},
        {"Ascend310B1", ACL_BF16, ACLNN_ERR_PARAM_INVALID,
         "aclnnOdd: x has dtype BFLOAT16 (value 27); supported: FLOAT (BFLOAT16 needs an Ascend910B-class SoC or "
         "later; this is Ascend310B1)", 0},
        {"Ascend310P3", ACL_INT32, ACLNN_ERR_PARAM_INVALID, "aclnnOdd: x has dtype INT32 (value 3); supported: FLOAT", 0},
        /* an operator with no Ascend910 list: judged against the union, in product order */
        {"Ascend310P3", ACL_INT8, ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
         "aclnnLate: Late is not supported on Ascend310P3 (Atlas inference series)", 1},
        {"Ascend910A", ACL_FLOAT, ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
         "aclnnLate: Late is not supported on Ascend910A (Atlas training series)", 1},
        {"Ascend310B1", ACL_INT32, ACLNN_ERR_PARAM_INVALID,
         "aclnnLate: x has dtype INT32 (value 3); supported: FLOAT16, BFLOAT16, FLOAT, INT8", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        session(cases[i].soc);
        buf x = make(cases[i].dtype, 1, dims, NULL, 0, 4), y = make(cases[i].dtype, 1, dims, NULL, 0, 4);
        e = NULL;
        const char *api = cases[i].late ? "aclnnLate" : "aclnnOdd";
        aclnnStatus status =
            cases[i].late ? phase1(&late, api, &x, &y, &ws, &e) : phase1(&odd, api, &x, &y, &ws, &e);
        if (status != cases[i].status)
            MG_FAIL("%s, dtype %d: status %d, expected %d", cases[i].soc ? cases[i].soc : "cpu", (int)cases[i].dtype,
                    (int)status, (int)cases[i].status);
        else
            MG_CHECK(1);
        if (cases[i].message) check_message(cases[i].message);
        if (status == ACLNN_SUCCESS && e != NULL) MG_CHECK_EQ_INT(ew_launch(api, NULL, ws, e, NULL), 0);
        drop(&x);
        drop(&y);
    }
    session(NULL);
    {
        buf x = make(ACL_FLOAT, 1, dims, NULL, 0, 4), y = make(ACL_FLOAT, 1, dims, NULL, 0, 4);
        MG_CHECK_EQ_INT(phase1(&none, "aclnnNone", &x, &y, &ws, &e), ACLNN_ERR_PARAM_INVALID);
        check_message("aclnnNone: x has dtype FLOAT (value 0); supported: ");
        drop(&x);
        drop(&y);
    }
    session("Ascend310P3");
    {
        buf x = make(ACL_INT64, 1, dims, NULL, 0, 8), y = make(ACL_INT64, 1, dims, NULL, 0, 8);
        MG_CHECK_EQ_INT(phase1(&many, "aclnnMany", &x, &y, &ws, &e), ACLNN_ERR_PARAM_INVALID);
        check_message("aclnnMany: x has dtype INT64 (value 9); supported: FLOAT, FLOAT16, INT8, INT32, UINT8, INT16, "
                      "UINT16, UINT32 (INT64 needs an Ascend910B-class SoC or later; this is Ascend310P3)");
        drop(&x);
        drop(&y);
    }
    session(NULL);
}

/* ---- the plan, through every path ------------------------------------------------------------- */

/* dims [3,5]; layout 0 row-major, 1 transposed (column-major), 2 with gaps (row stride 7),
   each at an element offset of 2. Returns the element offset of index (i, j). */
static int64_t at(int layout, int i, int j) {
    return 2 + (layout == 0 ? i * 5 + j : layout == 1 ? j * 3 + i : i * 7 + j);
}

static void run_layouts(int la, int lb, int lc, int lo, int in_place_of) {
    static const int64_t dims[2] = {3, 5};
    static const int64_t strides[3][2] = {{5, 1}, {1, 3}, {7, 1}};
    const int layouts[4] = {la, lb, lc, lo};
    buf t[4];
    for (int k = 0; k < 4; k++) {
        if (k == 3 && in_place_of >= 0) {
            t[3] = t[in_place_of];
            continue;
        }
        t[k] = make(ACL_FLOAT, 2, dims, strides[layouts[k]], 2, 40);
        float *f = t[k].data;
        for (int i = 0; i < 42; i++) f[i] = -1000.0f - (float)i; /* outside the view: must stay */
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 5; j++) f[at(layouts[k], i, j)] = (float)(k * 100 + i * 10 + j);
    }
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    MG_CHECK_EQ_INT(phase1(&tern, "aclnnTern", t, &t[3], &ws, &e), 0);
    /* one 64-byte-aligned dense buffer (15 floats: 64 bytes) per input read through a copy
       and one for a strided output (unless it is in place on a copied input) */
    int copies = 0;
    for (int k = 0; k < 3; k++) copies += layouts[k] != 0;
    if (layouts[3] != 0 && !(in_place_of >= 0 && layouts[in_place_of] != 0)) copies++;
    if (in_place_of < 0 && layouts[3] == 0) {
        /* a dense output apart from every input: the inputs are read in place if dense */
    }
    MG_CHECK_EQ_INT(ws, (uint64_t)copies * 64);
    void *workspace = NULL;
    if (ws > 0) MG_CHECK_EQ_INT(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    MG_CHECK_EQ_INT(ew_launch("aclnnTern", workspace, ws, e, NULL), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);
    const float *o = t[3].data;
    int wrong = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++) {
            float a = (float)(0 + i * 10 + j), b = (float)(100 + i * 10 + j), c = (float)(200 + i * 10 + j);
            float want = a + 2 * b + 4 * c;
            wrong += o[at(layouts[3], i, j)] != want;
        }
    /* outside the output's view, nothing changed */
    for (int p = 0; p < 42; p++) {
        int inside = 0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 5; j++) inside |= at(layouts[3], i, j) == p;
        if (!inside) wrong += o[p] != -1000.0f - (float)p;
    }
    if (wrong)
        MG_FAIL("layouts a%d b%d c%d out%d in place of %d: %d wrong", la, lb, lc, lo, in_place_of, wrong);
    else
        MG_CHECK(1);
    if (workspace) aclrtFree(workspace);
    for (int k = 0; k < 4; k++)
        if (!(k == 3 && in_place_of >= 0)) drop(&t[k]);
}

MG_TEST(three_inputs_every_layout_and_in_place) {
    session(NULL);
    for (int la = 0; la < 3; la++)
        for (int lb = 0; lb < 3; lb++)
            for (int lc = 0; lc < 3; lc++)
                for (int lo = 0; lo < 3; lo++) run_layouts(la, lb, lc, lo, -1);
    /* in place on each input, each layout */
    for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++) {
            int ls[3] = {0, 0, 0};
            ls[k] = l;
            run_layouts(ls[0], ls[1], ls[2], l, k);
        }
}

/* A plan the L0 refuses: phase 1 returns the L0's status and message, writes neither output,
   and keeps no executor (the one it made for the plan is given up). */
MG_TEST(a_refused_plan_keeps_no_executor) {
    session(NULL);
    const int64_t dims[1] = {16};
    buf in = make(ACL_FLOAT16, 1, dims, NULL, 0, 16), out = make(ACL_FLOAT16, 1, dims, NULL, 0, 16);
    const size_t before = mgrt_handle_live_count(MGRT_HANDLE_EXECUTOR);
    uint64_t ws = 77;
    aclOpExecutor *e = (aclOpExecutor *)&ws;
    MG_CHECK_EQ_INT(phase1(&refusing, "aclnnRefusingGetWorkspaceSize", &in, &out, &ws, &e), ACLNN_ERR_INNER_TILING_ERROR);
    check_message("Refusing: the plan is refused");
    MG_CHECK_EQ_INT((long)ws, 77);
    MG_CHECK(e == (aclOpExecutor *)&ws);
    MG_CHECK_EQ_INT((long)mgrt_handle_live_count(MGRT_HANDLE_EXECUTOR), (long)before);
    drop(&in);
    drop(&out);
}

/* In place through a second descriptor of the same view: a size-1 dim's stride is not part
   of the view, so [3,1,5] strides [7,99,1] and [7,1,1] over the same data and offset are the
   in-place form (the output is computed in the input's dense copy: one buffer, not two). */
MG_TEST(in_place_ignores_size_one_strides) {
    session(NULL);
    const int64_t dims[3] = {3, 1, 5}, sa[3] = {7, 99, 1}, so[3] = {7, 1, 1};
    for (int variant = 0; variant < 2; variant++) {
        buf a = make(ACL_FLOAT, 3, dims, sa, 2, 40), b = make(ACL_FLOAT, 3, dims, NULL, 0, 15),
            c = make(ACL_FLOAT, 3, dims, NULL, 0, 15);
        int64_t sdims[1] = {40};
        /* variant 1: the output's size-1 stride differs, and so does a dim > 1's: not in place */
        const int64_t s_other[3] = {7, 1, 2};
        aclTensor *o = aclCreateTensor(dims, 3, ACL_FLOAT, variant ? s_other : so, 2, ACL_FORMAT_ND, sdims, 1, a.data);
        buf in[3] = {a, b, c}, out = {NULL, o};
        uint64_t ws = 0;
        aclOpExecutor *e = NULL;
        aclnnStatus st = phase1(&tern, "aclnnTern", in, &out, &ws, &e);
        if (variant == 0) {
            MG_CHECK_EQ_INT(st, 0);
            MG_CHECK_EQ_INT(ws, 64);
            if (st == 0) {
                void *w = NULL;
                MG_CHECK_EQ_INT(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), 0);
                float *f = a.data;
                for (int i = 0; i < 3; i++)
                    for (int j = 0; j < 5; j++) f[2 + i * 7 + j] = (float)(i * 5 + j);
                MG_CHECK_EQ_INT(ew_launch("aclnnTern", w, ws, e, NULL), 0);
                MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);
                int wrong = 0;
                for (int i = 0; i < 3; i++)
                    for (int j = 0; j < 5; j++) wrong += f[2 + i * 7 + j] != (float)(i * 5 + j); /* b = c = 0 */
                MG_CHECK_EQ_INT(wrong, 0);
                aclrtFree(w);
            }
        } else {
            /* [3,1,5] strides [7,1,2]: an output that partly overlaps input a (not in place): the
               choice is the library's (refuse, or compute through copies); if it computes, it
               needs a buffer of its own for the output */
            if (st == 0) MG_CHECK(ws >= 128); else MG_CHECK_EQ_INT(st, ACLNN_ERR_PARAM_INVALID);
            if (st == 0) nnop_executor_abandon(e);
        }
        aclDestroyTensor(o);
        drop(&a);
        drop(&b);
        drop(&c);
    }
}

/* At log level INFO (ASCEND_GLOBAL_LOG_LEVEL=1) a plan says what it planned, one line: the
   API, the shape, the dtype, the workspace it asks for and which tensors are dense, each by
   its argument name, and an empty call says it has nothing to do. */
MG_TEST(an_info_line_says_what_was_planned) {
    session(NULL);
    (void)aclFinalize();
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "1", 1);
    MG_CHECK_EQ_INT(aclInit(NULL), 0);
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
    const int64_t dims[2] = {2, 3}, transposed[2] = {1, 2}, empty[2] = {0, 3};
    buf in[3] = {make(ACL_FLOAT, 2, dims, NULL, 0, 6), make(ACL_FLOAT, 2, dims, transposed, 0, 6),
                 make(ACL_FLOAT, 2, dims, NULL, 0, 6)};
    buf out = make(ACL_FLOAT, 2, dims, NULL, 0, 6);
    long mark = mg_log_size();
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    MG_CHECK_EQ_INT(phase1(&tern, "aclnnTernGetWorkspaceSize", in, &out, &ws, &e), 0);
    MG_CHECK(ws > 0); /* b is copied dense */
    char want[200];
    snprintf(want, sizeof want,
             "aclnnTernGetWorkspaceSize: shape [2,3], dtype FLOAT, workspace %llu bytes, contiguous a=1 b=0 c=1 out=1\n",
             (unsigned long long)ws);
    char *text = mg_log_text_since(mark);
    MG_CHECK(text != NULL);
    if (text != NULL) MG_CHECK_STR_CONTAINS(text, want);
    free(text);
    void *workspace = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    MG_CHECK_EQ_INT(ew_launch("aclnnTern", workspace, ws, e, NULL), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeDevice(), 0);
    (void)aclrtFree(workspace);
    for (int i = 0; i < 3; i++) drop(&in[i]);
    drop(&out);
    /* empty: every tensor dense, no workspace, nothing to do */
    buf ein[3] = {make(ACL_FLOAT, 2, empty, NULL, 0, 1), make(ACL_FLOAT, 2, empty, NULL, 0, 1),
                  make(ACL_FLOAT, 2, empty, NULL, 0, 1)};
    buf eout = make(ACL_FLOAT, 2, empty, NULL, 0, 1);
    mark = mg_log_size();
    e = NULL;
    MG_CHECK_EQ_INT(phase1(&tern, "aclnnTernGetWorkspaceSize", ein, &eout, &ws, &e), 0);
    text = mg_log_text_since(mark);
    MG_CHECK(text != NULL);
    if (text != NULL)
        MG_CHECK_STR_CONTAINS(text, "aclnnTernGetWorkspaceSize: shape [0,3], dtype FLOAT, workspace 0 bytes, "
                                    "contiguous a=1 b=1 c=1 out=1 (empty: nothing to do)\n");
    free(text);
    MG_CHECK_EQ_INT(ew_launch("aclnnTern", NULL, 0, e, NULL), 0);
    for (int i = 0; i < 3; i++) drop(&ein[i]);
    drop(&eout);
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
}

MG_TEST_MAIN()

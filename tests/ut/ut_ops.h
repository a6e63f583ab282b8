/*
 * tests/ut/ut_ops.h: the operators under test, described once, and the one runner.
 *
 * Included at the end of ut_util.h (it uses ut_tensor and the 16-bit helpers there). Each
 * operator is one ut_op, defined in its own header under tests/ut/ops/ (phase functions,
 * argument names, its reference, input ranges) and listed once: its header's line in
 * tests/ut/ops/ut_op_list.h. A test
 * names an operator by its ut_op (UT_MISH_BACKWARD, UT_MISH, UT_INPLACE_MISH) and runs it
 * with ut_op_run (the CANN two-phase flow: phase 1, workspace, phase 2, synchronize);
 * ut_op_check compares the output with the operator's reference, value by value. The
 * contract tests loop over UT_OPS.
 *
 * Tensors are passed as an array: the operator's inputs in its argument order, then the
 * output. For the in-place form the "output" entry is the same ut_tensor as input 0.
 */
#ifndef UT_OPS_H_
#define UT_OPS_H_

/* ---- what an operator is to these tests ----------------------------------------------- */

/* What the operator's documentation says of one product: it carries the operator, and
   takes BFLOAT16 too. The products, in this order (test_soc_profiles.c's prefixes): Atlas A2
   (Ascend910B), Atlas A3 (Ascend910_93), Ascend 950, the Atlas training series (Ascend910),
   the Atlas inference series (Ascend310P), Atlas 200I/500 A2 (Ascend310B). */
typedef struct ut_support {
    int runs;
    int bf16;
} ut_support;
#define UT_PRODUCT_COUNT 6

typedef struct ut_op {
    const char *phase1_name;   /* as the messages name it */
    const char *phase2_name;
    int input_count;           /* inputs (the output comes after them) */
    int in_place;              /* the output is input 0: only one tensor is passed */
    const char *names[3];      /* argument names: inputs, then the output */
    /* Phase 1 on raw descriptors: inputs, then the output (ignored when in_place). */
    aclnnStatus (*phase1)(aclTensor *const *tensors, uint64_t *workspace_size, aclOpExecutor **executor);
    aclnnStatus (*phase2)(void *workspace, uint64_t workspace_size, aclOpExecutor *executor, aclrtStream stream);
    /* The exact result for inputs `in`, and the scale of its float32 error bound. */
    double (*reference)(const double *in, double *scale);
    double lo[2], hi[2];       /* ranges for random inputs */
    /* its product table, written from its documentation (test_soc_profiles.c checks it) */
    ut_support products[UT_PRODUCT_COUNT];
} ut_op;

/* ---- the operators: one header each, one line each in ops/ut_op_list.h ----------------- */

/* UT_OPS: every listed ut_op, in the list's order (each header's UT_OP_LISTED lines,
   registered at start-up as the tests are); UT_OP_COUNT of them, at most UT_MAX_OPS. */
#define UT_MAX_OPS 32
static const ut_op *UT_OPS[UT_MAX_OPS];
static int ut_op_count_;
#define UT_OP_COUNT ut_op_count_
#define UT_OP_LISTED(op)                                                        \
    __attribute__((constructor)) static void ut_op_listed_##op(void) {          \
        if (ut_op_count_ == UT_MAX_OPS) {                                       \
            fprintf(stderr, "tests/ut/ut_ops.h: more than %d ut_ops\n", UT_MAX_OPS); \
            abort();                                                            \
        }                                                                       \
        UT_OPS[ut_op_count_++] = &op;                                           \
    }

#include "ops/ut_op_list.h"

/* Tensors the caller makes for `op`: its inputs, plus a separate output unless in place. */
static inline int ut_op_tensor_count(const ut_op *op) { return op->input_count + (op->in_place ? 0 : 1); }
static inline ut_tensor *ut_op_output(const ut_op *op, ut_tensor *t) { return op->in_place ? &t[0] : &t[op->input_count]; }

/* ---- the runner ---------------------------------------------------------------------- */

/* Values of a view in row-major order, from its host mirror (before a run overwrites it). */
static inline double *ut_snapshot(const ut_tensor *u) {
    int64_t n = ut_numel(u);
    double *v = (double *)malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    for (int64_t i = 0; i < n; i++) v[i] = ut_get(u, i);
    return v;
}

/* Phase 1 on the tensors `t` (inputs then output; `t` holds ut_op_tensor_count entries),
   a workspace when one is needed, phase 2 on `stream`, synchronize. Returns the first
   failing status (0 when all succeeded); *workspace_size gets phase 1's answer. */
static inline aclnnStatus ut_op_run(const ut_op *op, ut_tensor *t, aclrtStream stream, uint64_t *workspace_size) {
    aclTensor *raw[3] = {NULL, NULL, NULL};
    for (int i = 0; i < op->input_count; i++) raw[i] = t[i].tensor;
    raw[op->input_count] = ut_op_output(op, t)->tensor;
    uint64_t ws = 0;
    aclOpExecutor *executor = NULL;
    aclnnStatus st = op->phase1(raw, &ws, &executor);
    if (workspace_size) *workspace_size = ws;
    if (st != ACLNN_SUCCESS) return st;
    void *workspace = NULL;
    if (ws > 0 && aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return -1;
    st = op->phase2(workspace, ws, executor, stream);
    aclError sync = aclrtSynchronizeStream(stream);
    if (workspace) aclrtFree(workspace);
    if (st != ACLNN_SUCCESS) return st;
    return sync;
}

/* Whether `got` (with 16-bit encoding `bits`) is acceptable for exact value `ref` in `dtype`:
   float32 within 16 eps * scale (+ the smallest subnormal); 16-bit within 1 ulp of `ref`
   rounded to the type, or within the float32 bound where float32 rounding inside the
   kernel exceeds a 16-bit ulp. NaN must give NaN. The one tolerance rule of these tests. */
static inline int ut_result_ok(aclDataType dtype, double ref, double scale, double got, uint16_t bits) {
    if (isnan(ref)) return isnan(got);
    if (isnan(got)) return 0;
    if (isinf(ref)) return got == ref;
    int f32_ok = fabs(got - ref) <= 16.0 * FLT_EPSILON * scale + 0x1p-149;
    if (dtype == ACL_FLOAT) return f32_ok;
    ut_format f = dtype == ACL_FLOAT16 ? UT_FP16 : UT_BF16;
    uint16_t want = ut_encode(ut_round_to_format(ref, f), f);
    return ut_ulp_distance(bits, want) <= 1 || f32_ok;
}

/* Downloads the output and counts the elements of its view that differ from the
   reference of the inputs' values `before` (ut_snapshot of each input, taken before the
   run). The first few mismatches are reported as failures when `what` is set. */
static inline int64_t ut_op_check(const ut_op *op, double *const *before, ut_tensor *out, const char *what) {
    mg_checks_done++;
    ut_download(out);
    int64_t n = ut_numel(out), bad = 0;
    for (int64_t i = 0; i < n; i++) {
        double in[2] = {before[0][i], op->input_count > 1 ? before[1][i] : 0.0}, scale = 0;
        double ref = op->reference(in, &scale);
        int64_t at = ut_storage_index(out, i);
        double got = ut_load(out->dtype, out->host, at);
        uint16_t bits = out->dtype == ACL_FLOAT ? 0 : ut_load_bits16(out->host, at);
        if (ut_result_ok(out->dtype, ref, scale, got, bits)) continue;
        if (what && bad < 5)
            MG_FAIL("%s (%s): element %" PRId64 ": inputs %.9g %.9g -> %.9g, expected %.9g", what, op->phase2_name, i,
                    in[0], in[1], got, ref);
        bad++;
    }
    if (what && bad > 5) MG_FAIL("%s (%s): %" PRId64 " of %" PRId64 " elements wrong", what, op->phase2_name, bad, n);
    return bad;
}

/* Random inputs in the operator's ranges (uploaded), then run and check: the common case.
   Returns the number of wrong elements (-1 when the run failed, which is reported). */
static inline int64_t ut_op_run_checked(const ut_op *op, ut_tensor *t, mg_rng *rng, aclrtStream stream,
                                        uint64_t *workspace_size, const char *what) {
    for (int i = 0; i < op->input_count; i++) ut_fill_random(&t[i], rng, op->lo[i], op->hi[i]);
    double *before[2] = {NULL, NULL};
    for (int i = 0; i < op->input_count; i++) before[i] = ut_snapshot(&t[i]);
    aclnnStatus st = ut_op_run(op, t, stream, workspace_size);
    int64_t bad = -1;
    mg_checks_done++;
    if (st != ACLNN_SUCCESS)
        MG_FAIL("%s (%s): status %d (%s)", what, op->phase2_name, (int)st, aclGetRecentErrMsg());
    else
        bad = ut_op_check(op, before, ut_op_output(op, t), what);
    for (int i = 0; i < op->input_count; i++) free(before[i]);
    return bad;
}

#endif /* UT_OPS_H_ */

/*
 * fuzz/mish_backward_fuzz.c: libFuzzer harness for the two phases of aclnnMishBackward,
 * aclnnMish and aclnnInplaceMish (the operator is the layout's last byte; none: backward).
 *
 * The input bytes are read as a list of decisions (fuzz/fuzz_layout.h, in order): which
 * argument is NULL, the dtypes, rank and dims, for each tensor its strides, offset, format
 * and storage dims, how the three tensors share buffers, how large each buffer is, and
 * phase 2's workspace, stream, repeatability and address refreshes. Buffers come from
 * aclrtMalloc with sizes rounded to the runtime's 64-byte granule and storage placed at
 * the end, so an overrun leaves the block and AddressSanitizer sees it.
 *
 * The harness predicts every status from its own reading of the contract and checks:
 *   - every status is 0, 161001 or 161002 (the one predicted when the case is clear-cut);
 *   - every failure sets a message, and writes nothing to any buffer;
 *   - on success each output element equals the reference computed, through the views, from
 *     a snapshot of all buffers taken just before the launch (so aliasing cannot fool it);
 *   - every byte outside the output view is unchanged.
 * A violation prints what it saw and aborts, which libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "fuzz_layout.h"
#include "mgrt.h"
#include "mish_ref.h"
#include "mish_reference.h"

#define MAX_RANK_DECODED 10
#define VALID_MAX_RANK 8
/* Phase 2 runs only below these sizes; above, the executor is released unused. */
#define MAX_RUN_ELEMS (1 << 16)
#define MAX_WORKSPACE_BYTES ((uint64_t)64 << 20)
/* Buffers never exceed this; a storage that needs more is made invalid on purpose. */
#define MAX_BUFFER_BYTES ((int64_t)1 << 20)
#define GRANULE 64

enum { T_GRAD_OUTPUT = 0, T_SELF = 1, T_GRAD_INPUT = 2, TENSORS = 3 };
static const char *const tensor_name[TENSORS] = {"gradOutput", "self", "gradInput"};

enum buffer_kind { BUF_DEVICE = 0, BUF_HOST = 1, BUF_FREED = 2 };

typedef struct buffer {
    int used;
    enum buffer_kind kind;
    unsigned char *base;
    int64_t bytes;
    unsigned char *snapshot;
    unsigned char *written; /* 1 per byte the output view may write */
} buffer;

typedef struct tensor_desc {
    aclDataType dtype;
    uint64_t rank;
    int dims_null; /* viewDims NULL with rank > 0: aclCreateTensor must refuse */
    int unused;    /* the operator has no such argument (gradOutput of the forward) */
    int64_t dims[MAX_RANK_DECODED + 1];
    int strides_null;
    int64_t strides[MAX_RANK_DECODED + 1];
    int64_t offset;
    aclFormat format;
    uint64_t storage_rank;
    int64_t storage_dims[MAX_RANK_DECODED];
    int storage_mode;
    int storage_extra;
    int buffer;   /* -1: data NULL */
    int64_t rel;  /* element shift of data from its buffer's anchor */
    /* derived */
    size_t es;
    void *data;
    aclTensor *object;
    int shares_object_of; /* -1, or the tensor whose aclTensor this one reuses */
} tensor_desc;

/* The harness's own verdict on one descriptor. */
typedef struct verdict {
    int invalid;   /* the contract says 161002 */
    int unsure;    /* the contract leaves it open (0 or 161002) */
    int empty;
    int64_t numel;
    int64_t max_elem;
    int64_t storage_elems;
    int contiguous;
} verdict;

typedef struct fuzz_case {
    int op;         /* FUZZ_OP_*: which operator the input drives */
    int null_case;
    tensor_desc t[TENSORS];
    buffer buf[TENSORS];
    int alias_mode;
    int ws_mode;
    int stream_index; /* 0: NULL stream */
    int repeatable;
    int runs;
    int refresh_mode;
    int run_single_twice;
    mg_rng rng;
} fuzz_case;

static aclrtStream streams[3];

/* What the inputs reached (the replay driver prints these). */
long mish_fuzz_phase1_ok, mish_fuzz_runs_checked, mish_fuzz_elements_checked;
long mish_fuzz_op_runs_checked[FUZZ_OPS]; /* by FUZZ_OP_* */
static int bf16_supported = 1;
static int harness_ready;

#define FUZZ_ASSERT(cond, ...)                                                     \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "mish_backward_fuzz: %s:%d: check failed: %s\n  ", __FILE__, \
                    __LINE__, #cond);                                              \
            fprintf(stderr, __VA_ARGS__);                                          \
            fprintf(stderr, "\n  recent error: %s\n", aclGetRecentErrMsg());       \
            abort();                                                               \
        }                                                                          \
    } while (0)

/* ---- overflow-checked int64 arithmetic (no builtins: plain C11) ------------------------- */

static int mul_overflows(int64_t a, int64_t b, int64_t *out) {
    /* both >= 0 here */
    if (a != 0 && b > INT64_MAX / a) return 1;
    *out = a * b;
    return 0;
}

static int add_overflows(int64_t a, int64_t b, int64_t *out) {
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return 1;
    *out = a + b;
    return 0;
}

/* ---- decoding --------------------------------------------------------------------------- */

static const aclDataType valid_dtypes[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

/* The forward's arguments: self is tensor 1, out tensor 2 (aclnnInplaceMish: selfRef is
   tensor 1 and tensor 2 is the same aclTensor); tensor 0's decisions are read and ignored. */
static int forward_alias_mode(int mode) {
    switch (mode) {
    case FUZZ_ALIAS_INPLACE_GRAD: return FUZZ_ALIAS_INPLACE_SELF;
    case FUZZ_ALIAS_INPUTS_SHARE: return FUZZ_ALIAS_SEPARATE;
    case FUZZ_ALIAS_SHIFTED_GRAD: return FUZZ_ALIAS_SHIFTED_SELF;
    default: return mode;
    }
}

static void decode_as(fuzz_reader *in, fuzz_case *c, int op) {
    memset(c, 0, sizeof *c);
    c->op = op;
    for (int i = 0; i < TENSORS; i++) c->t[i].shares_object_of = -1;
    int forward = op != FUZZ_OP_BACKWARD;
    /* the tensor an "alias arg" / NULL-dims choice picks, among the operator's own */
    #define PICK(arg) (op == FUZZ_OP_INPLACE ? T_SELF : forward ? 1 + (arg) % 2 : (arg) % TENSORS)

    c->null_case = fuzz_null_case(fuzz_byte(in));
    if (forward && c->null_case == FUZZ_NULL_GRAD_OUTPUT) c->null_case = FUZZ_NULL_NONE;
    if (op == FUZZ_OP_INPLACE && c->null_case == FUZZ_NULL_GRAD_INPUT) c->null_case = FUZZ_NULL_NONE;

    uint8_t dtype_byte = fuzz_byte(in);
    aclDataType common = fuzz_dtype(dtype_byte);
    int mismatch = (dtype_byte >> 2) & 3;

    uint8_t rank_byte = fuzz_byte(in);
    uint64_t rank = fuzz_rank(rank_byte);
    int64_t dims[MAX_RANK_DECODED];
    for (uint64_t d = 0; d < rank; d++) dims[d] = fuzz_dim(fuzz_byte(in));
    uint8_t shape_byte = fuzz_byte(in);

    for (int i = 0; i < TENSORS; i++) {
        tensor_desc *t = &c->t[i];
        t->dtype = common;
        t->rank = rank;
        memcpy(t->dims, dims, sizeof(int64_t) * rank);
        int mode = fuzz_byte(in) % FUZZ_STRIDE_MODES;
        fuzz_strides(mode, in, rank, t->dims, t->strides, &t->strides_null);
        t->offset = fuzz_offset(fuzz_byte(in));
        t->format = fuzz_format(fuzz_byte(in));
        uint8_t storage_byte = fuzz_byte(in);
        t->storage_mode = storage_byte % FUZZ_STORAGE_MODES;
        t->storage_extra = 1 + ((storage_byte >> 3) & 7);
        t->buffer = i;
        t->rel = 0;
    }

    c->alias_mode = fuzz_byte(in) % FUZZ_ALIAS_MODES;
    uint8_t alias_arg = fuzz_byte(in);
    int8_t shift_a = (int8_t)fuzz_byte(in), shift_b = (int8_t)fuzz_byte(in);
    if (forward) c->t[T_GRAD_OUTPUT].unused = 1;
    if (op == FUZZ_OP_FORWARD) c->alias_mode = forward_alias_mode(c->alias_mode);
    if (op == FUZZ_OP_INPLACE && c->alias_mode != FUZZ_ALIAS_NULL_DATA && c->alias_mode != FUZZ_ALIAS_FOREIGN_MEMORY)
        c->alias_mode = FUZZ_ALIAS_SAME_OBJECT; /* selfRef: one aclTensor, in and out */
    switch (forward && c->alias_mode == FUZZ_ALIAS_SAME_OBJECT ? -1 : c->alias_mode) {
    case -1:
        break; /* the forward's out is self's aclTensor: copied last, below */
    case FUZZ_ALIAS_INPLACE_GRAD:
        c->t[T_GRAD_INPUT] = c->t[T_GRAD_OUTPUT];
        break;
    case FUZZ_ALIAS_INPLACE_SELF:
        c->t[T_GRAD_INPUT] = c->t[T_SELF];
        break;
    case FUZZ_ALIAS_SAME_OBJECT:
        c->t[T_GRAD_INPUT] = c->t[T_GRAD_OUTPUT];
        c->t[T_GRAD_INPUT].shares_object_of = T_GRAD_OUTPUT;
        break;
    case FUZZ_ALIAS_INPUTS_SHARE:
        c->t[T_SELF] = c->t[T_GRAD_OUTPUT];
        break;
    case FUZZ_ALIAS_SHIFTED_GRAD:
        c->t[T_GRAD_INPUT].buffer = T_GRAD_OUTPUT;
        c->t[T_GRAD_INPUT].rel = shift_a;
        break;
    case FUZZ_ALIAS_SHIFTED_SELF:
        c->t[T_GRAD_INPUT].buffer = T_SELF;
        c->t[T_GRAD_INPUT].rel = shift_a;
        break;
    case FUZZ_ALIAS_ALL_ONE_BUFFER:
        if (forward) {
            c->t[T_GRAD_INPUT].buffer = T_SELF;
            c->t[T_GRAD_INPUT].rel = (int64_t)shift_b - shift_a;
            break;
        }
        c->t[T_SELF].buffer = T_GRAD_OUTPUT;
        c->t[T_SELF].rel = shift_a;
        c->t[T_GRAD_INPUT].buffer = T_GRAD_OUTPUT;
        c->t[T_GRAD_INPUT].rel = shift_b;
        break;
    case FUZZ_ALIAS_NULL_DATA:
        c->t[PICK(alias_arg)].buffer = -1;
        break;
    case FUZZ_ALIAS_FOREIGN_MEMORY:
        c->buf[PICK(alias_arg)].kind = (alias_arg & 4) ? BUF_FREED : BUF_HOST;
        break;
    default:
        break;
    }
    /* Mismatches come after the copies so that in-place cases can also be malformed. */
    if (mismatch > 0 && c->t[mismatch - 1].shares_object_of < 0 && !c->t[mismatch - 1].unused) {
        tensor_desc *t = &c->t[mismatch - 1];
        for (int k = 0; k < 3; k++)
            if (valid_dtypes[k] == common) t->dtype = valid_dtypes[(k + 1) % 3];
        if (!mish_ref_dtype_is_float(common)) t->dtype = ACL_FLOAT;
    }
    if ((shape_byte & 7) == 7) {
        tensor_desc *t = &c->t[(shape_byte >> 3) % TENSORS];
        if (t->shares_object_of < 0 && !t->unused) {
            if ((shape_byte & 0x80) || t->rank == 0) {
                /* one more trailing dim of 1: broadcastable, still not equal */
                t->dims[t->rank] = 1;
                t->strides[t->rank] = 1;
                t->rank++;
            } else {
                int64_t *dim = &t->dims[(shape_byte >> 5) % t->rank];
                *dim = *dim < INT64_MAX ? *dim + 1 : 1;
            }
        }
    }
    if (c->null_case == FUZZ_NULL_DIMS) c->t[PICK(alias_arg)].dims_null = 1;
    #undef PICK
    if (op == FUZZ_OP_INPLACE || (forward && c->alias_mode == FUZZ_ALIAS_SAME_OBJECT)) {
        /* out (or selfRef's output side) is self's aclTensor itself */
        c->t[T_GRAD_INPUT] = c->t[T_SELF];
        c->t[T_GRAD_INPUT].shares_object_of = T_SELF;
    }

    for (int b = 0; b < TENSORS; b++) c->buf[b].bytes = fuzz_byte(in); /* slack byte, read below */

    uint8_t phase2 = fuzz_byte(in);
    c->ws_mode = (phase2 & 7) % FUZZ_WS_MODES;
    c->stream_index = ((phase2 >> 3) & 3) % 3;
    uint8_t repeat = fuzz_byte(in);
    c->repeatable = repeat & 1;
    c->runs = 1 + (repeat >> 1) % 3;
    c->refresh_mode = (repeat >> 3) & 3;
    c->run_single_twice = (repeat >> 5) & 1;

    uint64_t seed = 0;
    for (int k = 0; k < 4; k++) seed = seed << 8 | fuzz_byte(in);
    c->rng.state = seed;
}

/* The operator byte comes last (a missing one reads as 0, the backward), after bytes whose
   count depends on earlier decisions: read the case once to find it, then for real. The
   operator changes what the bytes mean, never how many are read. */
static void decode(fuzz_reader *in, fuzz_case *c) {
    fuzz_reader probe = *in;
    decode_as(&probe, c, FUZZ_OP_BACKWARD);
    int op = fuzz_op(fuzz_byte(&probe));
    decode_as(in, c, op);
    (void)fuzz_byte(in);
}

/* ---- the harness's own validation of one descriptor ---------------------------------------- */

static void storage_dims_for(tensor_desc *t, const verdict *v) {
    /* saturated so that need + extra and -need stay defined for a view at INT64_MAX */
    int64_t need = v->empty || v->invalid ? 1 : v->max_elem < INT64_MAX - 16 ? v->max_elem + 1 : INT64_MAX - 16;
    if (need < 1) need = 1;
    switch (t->storage_mode) {
    case FUZZ_STORAGE_VIEW_DIMS:
        if (v->contiguous && !v->invalid && t->offset == 0 && t->rank > 0 && !v->empty) {
            t->storage_rank = t->rank;
            memcpy(t->storage_dims, t->dims, sizeof(int64_t) * (t->rank > 10 ? 10 : t->rank));
            break;
        }
        t->storage_rank = 1;
        t->storage_dims[0] = need;
        break;
    case FUZZ_STORAGE_SHORT:
        t->storage_rank = 1;
        t->storage_dims[0] = need - 1;
        break;
    case FUZZ_STORAGE_LONGER:
        t->storage_rank = 2;
        t->storage_dims[0] = need + t->storage_extra;
        t->storage_dims[1] = 1;
        break;
    case FUZZ_STORAGE_SCALAR:
        t->storage_rank = 0;
        break;
    case FUZZ_STORAGE_ZERO_DIM:
        t->storage_rank = 2;
        t->storage_dims[0] = need;
        t->storage_dims[1] = 0;
        break;
    case FUZZ_STORAGE_NEGATIVE:
        t->storage_rank = 2;
        t->storage_dims[0] = -need;
        t->storage_dims[1] = -1;
        break;
    case FUZZ_STORAGE_HUGE:
        t->storage_rank = 3;
        t->storage_dims[0] = (int64_t)1 << 40;
        t->storage_dims[1] = (int64_t)1 << 40;
        t->storage_dims[2] = need;
        break;
    default:
        t->storage_rank = 1;
        t->storage_dims[0] = need;
        break;
    }
}

/* The view part: rank, dims, strides, offset (no memory yet). */
static void judge_view(tensor_desc *t, verdict *v) {
    memset(v, 0, sizeof *v);
    if (t->strides_null) {
        /* row-major strides; computed with a guard because huge dims overflow them */
        int64_t running = 1;
        for (uint64_t d = t->rank; d-- > 0;) {
            t->strides[d] = running;
            int64_t next;
            if (t->dims[d] > 0 && !mul_overflows(running, t->dims[d], &next)) running = next;
        }
    }
    if (t->rank > VALID_MAX_RANK) v->invalid = 1;
    int has_zero = 0, overflow = 0;
    int64_t numel = 1;
    for (uint64_t d = 0; d < t->rank; d++) {
        if (t->dims[d] < 0) v->invalid = 1;
        if (t->strides[d] < 0) v->invalid = 1;
        if (t->dims[d] == 0) has_zero = 1;
        if (t->dims[d] > 0 && mul_overflows(numel, t->dims[d], &numel)) overflow = 1;
    }
    if (t->offset < 0) v->invalid = 1;
    v->empty = has_zero;
    if (has_zero) {
        /* Whether the library multiplies the other dims first is its business. */
        if (overflow) v->unsure = 1;
        v->numel = 0;
    } else {
        if (overflow) v->invalid = 1;
        v->numel = numel;
    }
    /* Contiguous: row-major strides, size-1 dims ignored. */
    v->contiguous = 1;
    int64_t expected = 1;
    for (uint64_t d = t->rank; d-- > 0;) {
        if (t->dims[d] != 1 && t->strides[d] != expected) v->contiguous = 0;
        if (t->dims[d] > 0 && mul_overflows(expected, t->dims[d], &expected)) expected = -1;
    }
    if (!v->invalid && !v->empty) {
        int64_t max_elem = t->offset;
        for (uint64_t d = 0; d < t->rank; d++) {
            int64_t step;
            if (mul_overflows(t->dims[d] - 1, t->strides[d], &step) ||
                add_overflows(max_elem, step, &max_elem)) {
                v->invalid = 1;
                break;
            }
        }
        v->max_elem = max_elem;
    }
}

/* The storage and memory part, once buffers exist. */
static void judge_storage(const fuzz_case *c, const tensor_desc *t, verdict *v) {
    int bad = 0;
    int64_t storage = 1;
    for (uint64_t d = 0; d < t->storage_rank; d++) {
        if (t->storage_dims[d] < 0) bad = 1;
        else if (mul_overflows(storage, t->storage_dims[d], &storage)) bad = 1;
    }
    v->storage_elems = bad ? -1 : storage;
    int64_t storage_bytes = 0;
    if (!bad && mul_overflows(storage, (int64_t)t->es, &storage_bytes)) bad = 1;
    if (!bad && !v->empty && !v->invalid && v->max_elem >= storage) bad = 1;
    if (t->buffer < 0) {
        if (!v->empty) bad = 1;
    } else if (!bad) {
        const buffer *b = &c->buf[t->buffer];
        if (b->kind != BUF_DEVICE) {
            bad = 1;
        } else {
            intptr_t start = (intptr_t)((uintptr_t)t->data - (uintptr_t)b->base);
            if (start < 0 || start > b->bytes || storage_bytes > b->bytes - start) bad = 1;
        }
    }
    if (bad) {
        /* An empty view's storage is checked or not, at the library's choice. */
        if (v->empty) v->unsure = 1;
        else v->invalid = 1;
    }
}

/* 1 when sorting the moving dims by stride shows each stride stepping past all the smaller
   dims reach: the usual proof that a view never maps two indexes to one element. Views that
   fail it may still be free of overlap (interleaved strides, e.g. dims [4,5] strides
   [2,5]); the contract does not say whether such an output must be accepted. */
static int strides_provably_apart(const tensor_desc *t) {
    int64_t strides[MAX_RANK_DECODED + 1], dims[MAX_RANK_DECODED + 1];
    int count = 0;
    for (uint64_t d = 0; d < t->rank; d++) {
        if (t->dims[d] <= 1) continue;
        int k = count++;
        while (k > 0 && strides[k - 1] > t->strides[d]) {
            strides[k] = strides[k - 1];
            dims[k] = dims[k - 1];
            k--;
        }
        strides[k] = t->strides[d];
        dims[k] = t->dims[d];
    }
    int64_t reach = 0;
    for (int k = 0; k < count; k++) {
        if (strides[k] <= reach) return 0;
        int64_t step;
        if (mul_overflows(dims[k] - 1, strides[k], &step) || add_overflows(reach, step, &reach)) return 0;
    }
    return 1;
}

/* Spans of more elements than this the library need not enumerate: an output whose
   strides it cannot prove apart and that spans more may be refused as "cannot prove". */
#define LIBRARY_ENUMERATED_SPAN (INT64_C(1) << 26)

static int64_t view_span(const tensor_desc *t) {
    int64_t span = 1;
    for (uint64_t d = 0; d < t->rank; d++) {
        int64_t step;
        if (t->dims[d] <= 1) continue;
        if (mul_overflows(t->dims[d] - 1, t->strides[d], &step) || add_overflows(span, step, &span)) return INT64_MAX;
    }
    return span;
}

static int compare_int64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}
/* ---- buffers ----------------------------------------------------------------------------- */

static int64_t storage_bytes_for_layout(const tensor_desc *t) {
    int64_t storage = 1;
    for (uint64_t d = 0; d < t->storage_rank; d++) {
        if (t->storage_dims[d] < 0 || mul_overflows(storage, t->storage_dims[d], &storage)) return GRANULE;
    }
    int64_t bytes;
    if (mul_overflows(storage, (int64_t)t->es, &bytes) || bytes > MAX_BUFFER_BYTES / 4) return GRANULE;
    return bytes;
}

/* Lays out each buffer: the tensors in it keep their element shifts, the furthest storage
   end sits at the end of the block (so one byte more leaves the block), and the slack
   byte can shorten the block by one element or add room in front. */
static void make_buffers(fuzz_case *c) {
    for (int b = 0; b < TENSORS; b++) {
        buffer *buf = &c->buf[b];
        uint8_t slack = (uint8_t)buf->bytes;
        int64_t lo = 0, hi = 0, es_max = 1;
        int first = 1;
        for (int i = 0; i < TENSORS; i++) {
            tensor_desc *t = &c->t[i];
            if (t->buffer != b || t->shares_object_of >= 0 || t->unused) continue;
            int64_t start = t->rel * (int64_t)t->es;
            int64_t end = start + storage_bytes_for_layout(t);
            if (first || start < lo) lo = start;
            if (first || end > hi) hi = end;
            if ((int64_t)t->es > es_max) es_max = (int64_t)t->es;
            first = 0;
        }
        if (first) continue;
        buf->used = 1;
        int64_t front = (int64_t)((slack >> 2) & 3) * es_max;
        int64_t span = hi - lo + front;
        int64_t short_by = (slack & 3) == 1 ? es_max : 0;
        int64_t bytes = (span + GRANULE - 1) / GRANULE * GRANULE;
        if (bytes == 0) bytes = GRANULE;
        /* anchor: where rel 0 lies, so that `hi` is the block's end (or one element past) */
        int64_t anchor = bytes - hi + short_by;
        buf->bytes = bytes;
        if (buf->kind == BUF_HOST) {
            buf->base = aligned_alloc(GRANULE, (size_t)bytes);
        } else {
            void *p = NULL;
            FUZZ_ASSERT(aclrtMalloc(&p, (size_t)bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
                        "aclrtMalloc(%lld)", (long long)bytes);
            buf->base = p;
        }
        for (int64_t k = 0; k < bytes; k++) buf->base[k] = (unsigned char)mg_rng_next(&c->rng);
        for (int i = 0; i < TENSORS; i++) {
            tensor_desc *t = &c->t[i];
            if (t->buffer != b || t->unused) continue;
            t->data = (void *)((uintptr_t)buf->base + (uintptr_t)(anchor + t->rel * (int64_t)t->es));
        }
    }
}

/* Writes a valid value of the tensor's dtype at each element of its view that lies inside
   its buffer (hostile descriptors point elsewhere too; those are skipped). */
static void fill_values(fuzz_case *c, int i, const verdict *v) {
    tensor_desc *t = &c->t[i];
    if (t->unused || t->buffer < 0 || v->empty || v->invalid || v->numel > MAX_RUN_ELEMS) return;
    if (!mish_ref_dtype_is_float(t->dtype)) return;
    buffer *b = &c->buf[t->buffer];
    if (b->kind == BUF_FREED) return;
    int64_t idx[MAX_RANK_DECODED] = {0};
    for (int64_t n = 0; n < v->numel; n++) {
        int64_t elem = t->offset;
        for (uint64_t d = 0; d < t->rank; d++) elem += idx[d] * t->strides[d];
        intptr_t at = (intptr_t)((uintptr_t)t->data - (uintptr_t)b->base) + (intptr_t)(elem * (int64_t)t->es);
        if (at >= 0 && at + (intptr_t)t->es <= b->bytes) {
            double value = i == T_SELF ? mish_ref_random_x(&c->rng, t->dtype, 1)
                                       : mish_ref_random_g(&c->rng, 1);
            mish_ref_store(t->dtype, b->base + at, 0, value);
        }
        for (uint64_t d = t->rank; d-- > 0;) {
            if (++idx[d] < t->dims[d]) break;
            idx[d] = 0;
        }
    }
}

static void take_snapshots(fuzz_case *c) {
    for (int b = 0; b < TENSORS; b++) {
        buffer *buf = &c->buf[b];
        if (!buf->used || buf->kind == BUF_FREED) continue;
        if (buf->snapshot == NULL) buf->snapshot = malloc((size_t)buf->bytes);
        memcpy(buf->snapshot, buf->base, (size_t)buf->bytes);
    }
}

static void check_untouched(const fuzz_case *c, const char *when) {
    for (int b = 0; b < TENSORS; b++) {
        const buffer *buf = &c->buf[b];
        if (!buf->used || buf->kind == BUF_FREED) continue;
        for (int64_t k = 0; k < buf->bytes; k++)
            FUZZ_ASSERT(buf->base[k] == buf->snapshot[k], "%s: buffer %d byte %lld changed (%u -> %u)", when,
                        b, (long long)k, buf->snapshot[k], buf->base[k]);
    }
}

/* Byte offset, inside the output's buffer, of each output element; with the matching input
   offsets for the aliasing analysis. */
static int64_t *element_offsets(const fuzz_case *c, int i, int64_t numel) {
    const tensor_desc *t = &c->t[i];
    int64_t *at = malloc(sizeof(int64_t) * (size_t)(numel ? numel : 1));
    int64_t idx[MAX_RANK_DECODED] = {0};
    intptr_t data_off = (intptr_t)((uintptr_t)t->data - (uintptr_t)c->buf[t->buffer].base);
    for (int64_t n = 0; n < numel; n++) {
        int64_t elem = t->offset;
        for (uint64_t d = 0; d < t->rank; d++) elem += idx[d] * t->strides[d];
        at[n] = (int64_t)data_off + elem * (int64_t)t->es;
        for (uint64_t d = t->rank; d-- > 0;) {
            if (++idx[d] < t->dims[d]) break;
            idx[d] = 0;
        }
    }
    return at;
}

typedef struct located {
    int64_t at;
    int64_t index;
} located;

static int compare_located(const void *a, const void *b) {
    const located *x = a, *y = b;
    if (x->at != y->at) return x->at < y->at ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Exact, and on its own (not through aliasing_hazard): 1 when two indexes of the output
   view reach one memory location (a zero stride on a dim > 1, or strides that collide).
   Such an output must be refused: the result at that location would depend on the order
   of the writes. */
static int output_hits_a_location_twice(const fuzz_case *c, int64_t numel) {
    int64_t *o = element_offsets(c, T_GRAD_INPUT, numel);
    qsort(o, (size_t)numel, sizeof *o, compare_int64);
    int twice = 0;
    for (int64_t n = 1; n < numel && !twice; n++) twice = o[n] == o[n - 1];
    free(o);
    return twice;
}

/* 1 when writing the output element by element could disturb what is read: the output hits
   one memory location twice, or an input element other than its own. In-place (each output
   element exactly on its own input element) is not a hazard. */
static int aliasing_hazard(const fuzz_case *c, int64_t numel) {
    const tensor_desc *out = &c->t[T_GRAD_INPUT];
    int64_t *o = element_offsets(c, T_GRAD_INPUT, numel);
    located *sorted = malloc(sizeof(located) * (size_t)numel * 2);
    int hazard = 0;
    for (int64_t n = 0; n < numel; n++) sorted[n] = (located){o[n], n};
    qsort(sorted, (size_t)numel, sizeof(located), compare_located);
    for (int64_t n = 1; n < numel && !hazard; n++) hazard = sorted[n].at == sorted[n - 1].at;
    for (int i = T_GRAD_OUTPUT; i <= T_SELF && !hazard; i++) {
        const tensor_desc *in = &c->t[i];
        if (in->buffer != out->buffer || in->unused) continue;
        int64_t *a = element_offsets(c, i, numel);
        for (int64_t n = 0; n < numel; n++) sorted[n] = (located){a[n], n};
        qsort(sorted, (size_t)numel, sizeof(located), compare_located);
        for (int64_t n = 0; n < numel && !hazard; n++) {
            /* every input element at o[n] must be element n itself */
            located key = {o[n], -1};
            size_t lo = 0, hi = (size_t)numel;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (compare_located(&sorted[mid], &key) < 0) lo = mid + 1;
                else hi = mid;
            }
            for (size_t k = lo; k < (size_t)numel && sorted[k].at == o[n]; k++)
                if (sorted[k].index != n) hazard = 1;
            /* a partial byte overlap is impossible: same dtype, element-aligned data */
        }
        free(a);
    }
    free(sorted);
    free(o);
    return hazard;
}

/* 1 when `got` (decoded from `dtype`) is an acceptable mish(x), against the project's one
   reference (reference/mish_reference.h) in double. As loose as mish_ref_close for the
   same reason (wrong memory shows as whole units): float32 within 2^-20 relative, the 16-bit
   types within two of their ulps, each with a floor for the subnormal tail. */
static int forward_close(aclDataType dtype, double got, double x) {
    double want = mish_ref_fwd_d(x);
    if (isnan(want)) return isnan(got);
    if (isnan(got)) return 0;
    if (isinf(want) || isinf(got)) return want == got;
    double tol = dtype == ACL_FLOAT     ? ldexp(fabs(want), -20) + ldexp(1.0, -140)
                 : dtype == ACL_FLOAT16 ? ldexp(fabs(want), -9) + ldexp(1.0, -23)
                                        : ldexp(fabs(want), -6) + ldexp(1.0, -130);
    return fabs(got - want) <= tol;
}

/* After a successful run: the output elements against the reference from the snapshot, and
   every other byte against the snapshot. */
static void check_results(fuzz_case *c, int64_t numel, const char *when) {
    mish_fuzz_runs_checked++;
    mish_fuzz_op_runs_checked[c->op]++;
    mish_fuzz_elements_checked += numel;
    if (numel == 0) {
        check_untouched(c, when);
        return;
    }
    const tensor_desc *out = &c->t[T_GRAD_INPUT];
    buffer *ob = &c->buf[out->buffer];
    int64_t *o = element_offsets(c, T_GRAD_INPUT, numel);
    int forward = c->op != FUZZ_OP_BACKWARD;
    int64_t *g = element_offsets(c, forward ? T_SELF : T_GRAD_OUTPUT, numel);
    int64_t *x = element_offsets(c, T_SELF, numel);
    const unsigned char *gs = c->buf[c->t[forward ? T_SELF : T_GRAD_OUTPUT].buffer].snapshot;
    const unsigned char *xs = c->buf[c->t[T_SELF].buffer].snapshot;
    located *sorted = malloc(sizeof(located) * (size_t)numel);
    for (int64_t n = 0; n < numel; n++) sorted[n] = (located){o[n], n};
    qsort(sorted, (size_t)numel, sizeof(located), compare_located);
    free(ob->written);
    ob->written = calloc((size_t)ob->bytes, 1);
    for (int64_t n = 0; n < numel;) {
        /* the elements that share one location: any of their results may be there */
        int64_t end = n + 1;
        while (end < numel && sorted[end].at == sorted[n].at) end++;
        double got = mish_ref_load(out->dtype, ob->base + sorted[n].at, 0);
        int ok = 0;
        for (int64_t k = n; k < end && !ok; k++) {
            int64_t e = sorted[k].index;
            ok = forward ? forward_close(out->dtype, got, mish_ref_load(out->dtype, xs + x[e], 0))
                         : mish_ref_close(out->dtype, got, mish_ref_load(out->dtype, gs + g[e], 0),
                                          mish_ref_load(out->dtype, xs + x[e], 0));
        }
        int64_t e = sorted[n].index;
        FUZZ_ASSERT(ok || !forward, "%s: %s element %lld (byte %lld) is %.9g; x = %.9g, want %.9g (dtype %d)", when,
                    c->op == FUZZ_OP_INPLACE ? "selfRef" : "out", (long long)e, (long long)sorted[n].at, got,
                    mish_ref_load(out->dtype, xs + x[e], 0), mish_ref_fwd_d(mish_ref_load(out->dtype, xs + x[e], 0)),
                    (int)out->dtype);
        FUZZ_ASSERT(ok, "%s: gradInput element %lld (byte %lld) is %.9g; g = %.9g, x = %.9g, want %.9g (dtype %d)",
                    when, (long long)e, (long long)sorted[n].at, got,
                    mish_ref_load(out->dtype, gs + g[e], 0), mish_ref_load(out->dtype, xs + x[e], 0),
                    mish_ref_grad(mish_ref_load(out->dtype, gs + g[e], 0),
                                  mish_ref_load(out->dtype, xs + x[e], 0), NULL),
                    (int)out->dtype);
        memset(ob->written + sorted[n].at, 1, out->es);
        n = end;
    }
    for (int b = 0; b < TENSORS; b++) {
        const buffer *buf = &c->buf[b];
        if (!buf->used || buf->kind == BUF_FREED) continue;
        for (int64_t k = 0; k < buf->bytes; k++) {
            if (b == out->buffer && ob->written[k]) continue;
            FUZZ_ASSERT(buf->base[k] == buf->snapshot[k], "%s: buffer %d byte %lld outside the output view changed",
                        when, b, (long long)k);
        }
    }
    free(sorted);
    free(o);
    free(g);
    free(x);
}

static char last_message[1024];

/* The message is read once (aclGetRecentErrMsg gets and clears) and kept in last_message. */
static void require_failure_message(aclnnStatus status, const char *call) {
    const char *message = aclGetRecentErrMsg();
    FUZZ_ASSERT(message != NULL && message[0] != '\0', "%s returned %d without a message", call, (int)status);
    snprintf(last_message, sizeof last_message, "%s", message);
}

/* ---- phase 2 ------------------------------------------------------------------------------- */

/* A fresh live copy of buffer `b` at a new address, for aclSet*TensorAddr. */
static void move_buffer(fuzz_case *c, int b) {
    buffer *buf = &c->buf[b];
    void *fresh = NULL;
    FUZZ_ASSERT(aclrtMalloc(&fresh, (size_t)buf->bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    memcpy(fresh, buf->base, (size_t)buf->bytes);
    for (int i = 0; i < TENSORS; i++) {
        tensor_desc *t = &c->t[i];
        if (t->buffer == b)
            t->data = (void *)((uintptr_t)fresh + ((uintptr_t)t->data - (uintptr_t)buf->base));
    }
    FUZZ_ASSERT(aclrtFree(buf->base) == ACL_SUCCESS, "aclrtFree");
    buf->base = fresh;
}

static aclnnStatus set_addr(aclOpExecutor *executor, fuzz_case *c, int i, void *addr) {
    tensor_desc *t = &c->t[i];
    /* the backward's inputs are slots 0 (gradOutput) and 1 (self); the forward's self is
       input 0; every output is output 0 */
    if (i == T_GRAD_INPUT) return aclSetOutputTensorAddr(executor, 0, t->object, addr);
    return aclSetInputTensorAddr(executor, c->op == FUZZ_OP_BACKWARD ? (size_t)i : 0, t->object, addr);
}

static const char *const op_name[FUZZ_OPS] = {"aclnnMishBackward", "aclnnMish", "aclnnInplaceMish"};

static aclnnStatus launch_op(const fuzz_case *c, void *workspace, uint64_t size, aclOpExecutor *executor,
                             aclrtStream stream) {
    switch (c->op) {
    case FUZZ_OP_FORWARD: return aclnnMish(workspace, size, executor, stream);
    case FUZZ_OP_INPLACE: return aclnnInplaceMish(workspace, size, executor, stream);
    default: return aclnnMishBackward(workspace, size, executor, stream);
    }
}

static void run_phase2(fuzz_case *c, aclOpExecutor *executor, uint64_t ws_size, int64_t numel, int hazard) {
    aclrtStream stream = c->stream_index ? streams[c->stream_index] : NULL;
    if (c->repeatable) {
        aclnnStatus status = aclSetAclOpExecutorRepeatable(executor);
        FUZZ_ASSERT(status == ACLNN_SUCCESS, "aclSetAclOpExecutorRepeatable: %d", (int)status);
    }
    /* Only separate buffers are moved: with aliasing, moving one view moves the others. */
    int separate = c->alias_mode == FUZZ_ALIAS_SEPARATE;
    int alive = 1;
    for (int run = 0; run < c->runs && alive; run++) {
        int expect_refresh_failure = 0;
        int victim = -1;
        /* The workspace first: allocated after the refresh, it could take the block a
           refresh freed on purpose, and that address would be live again. */
        void *workspace = NULL;
        uint64_t passed_size = ws_size;
        aclnnStatus expected = ACLNN_SUCCESS;
        int mode = run == 0 ? c->ws_mode : FUZZ_WS_RIGHT;
        int null_executor_first = mode == FUZZ_WS_NULL_EXECUTOR;
        if (null_executor_first) mode = FUZZ_WS_RIGHT;
        if (ws_size == 0) mode = mode == FUZZ_WS_BIGGER ? FUZZ_WS_BIGGER : FUZZ_WS_RIGHT;
        switch (mode) {
        case FUZZ_WS_NULL:
            passed_size = ws_size;
            expected = ACLNN_ERR_PARAM_NULLPTR;
            break;
        case FUZZ_WS_SHORT_BYTE:
        case FUZZ_WS_SHORT_HALF:
            passed_size = mode == FUZZ_WS_SHORT_BYTE ? ws_size - 1 : ws_size / 2;
            expected = ACLNN_ERR_PARAM_INVALID;
            break;
        case FUZZ_WS_BIGGER:
            passed_size = ws_size + GRANULE;
            break;
        default:
            break;
        }
        if (mode != FUZZ_WS_NULL && passed_size > 0)
            FUZZ_ASSERT(aclrtMalloc(&workspace, (size_t)passed_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
                        "aclrtMalloc(workspace %llu)", (unsigned long long)passed_size);
        void *restore = NULL, *small_block = NULL;
        if (c->repeatable && run > 0 && separate && c->refresh_mode != 0) {
            if (c->refresh_mode == 1) {
                for (int i = 0; i < TENSORS; i++) {
                    if (c->t[i].unused) continue;
                    move_buffer(c, c->t[i].buffer);
                    aclnnStatus status = set_addr(executor, c, i, c->t[i].data);
                    FUZZ_ASSERT(status == ACLNN_SUCCESS, "aclSet*TensorAddr(%s): %d", tensor_name[i], (int)status);
                }
            } else {
                /* 2: an input moved to memory that was freed; 3: the output moved to a live
                   block too small for its storage. Phase 2 must refuse both (or the
                   setter already does). */
                victim = c->refresh_mode == 2 ? T_SELF : T_GRAD_INPUT;
                void *elsewhere = NULL;
                size_t bytes = c->refresh_mode == 2 ? (size_t)c->buf[c->t[victim].buffer].bytes : 1;
                FUZZ_ASSERT(aclrtMalloc(&elsewhere, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
                if (c->refresh_mode == 2) FUZZ_ASSERT(aclrtFree(elsewhere) == ACL_SUCCESS, "aclrtFree");
                else small_block = elsewhere;
                restore = c->t[victim].data;
                aclnnStatus status = set_addr(executor, c, victim, elsewhere);
                FUZZ_ASSERT(status == ACLNN_SUCCESS || status == ACLNN_ERR_PARAM_INVALID,
                            "aclSet*TensorAddr to a bad block: %d", (int)status);
                if (status == ACLNN_SUCCESS) expect_refresh_failure = 1;
                else require_failure_message(status, "aclSet*TensorAddr");
            }
        }
        take_snapshots(c);

        if (null_executor_first) {
            aclnnStatus status = launch_op(c, NULL, ws_size, NULL, stream);
            FUZZ_ASSERT(status == ACLNN_ERR_PARAM_NULLPTR, "phase 2 with a NULL executor: %d", (int)status);
            require_failure_message(status, op_name[c->op]);
            check_untouched(c, "phase 2 with a NULL executor");
        }
        if (expected == ACLNN_SUCCESS && expect_refresh_failure) expected = ACLNN_ERR_PARAM_INVALID;
        /* an empty view touches no memory: a bad address behind it may pass or be refused */
        int either = expected == ACLNN_ERR_PARAM_INVALID && expect_refresh_failure && numel == 0;

        aclnnStatus status = launch_op(c, workspace, passed_size, executor, stream);
        aclError synced = aclrtSynchronizeStream(stream);
        FUZZ_ASSERT(synced == ACL_SUCCESS, "aclrtSynchronizeStream after a launch that returned %d: %d", (int)status,
                    (int)synced);
        if (either) {
            FUZZ_ASSERT(status == ACLNN_SUCCESS || status == ACLNN_ERR_PARAM_INVALID,
                        "phase 2 of an empty view at a bad address: %d", (int)status);
        } else if (expected == ACLNN_ERR_PARAM_INVALID && workspace == NULL && !expect_refresh_failure) {
            /* a short workspace of 0 bytes is a NULL one */
            FUZZ_ASSERT(status == ACLNN_ERR_PARAM_INVALID || status == ACLNN_ERR_PARAM_NULLPTR,
                        "phase 2 with no workspace: %d", (int)status);
        } else {
            FUZZ_ASSERT(status == expected,
                        "phase 2 (workspace mode %d, %llu of %llu bytes, run %d, refresh mode %d, alias mode %d): %d, "
                        "expected %d",
                        mode, (unsigned long long)passed_size, (unsigned long long)ws_size, run, c->refresh_mode,
                        c->alias_mode, (int)status, (int)expected);
        }
        if (status == ACLNN_SUCCESS) {
            check_results(c, numel, hazard ? "phase 2 (aliased views)" : "phase 2");
        } else {
            require_failure_message(status, op_name[c->op]);
            check_untouched(c, "failed phase 2");
        }
        if (workspace) FUZZ_ASSERT(aclrtFree(workspace) == ACL_SUCCESS, "aclrtFree(workspace)");
        if (small_block) FUZZ_ASSERT(aclrtFree(small_block) == ACL_SUCCESS, "aclrtFree(small block)");
        if (victim >= 0) {
            aclnnStatus back = set_addr(executor, c, victim, restore);
            FUZZ_ASSERT(back == ACLNN_SUCCESS, "restoring %s's address: %d", tensor_name[victim], (int)back);
        }
        if (!c->repeatable) {
            alive = 0;
            if (c->run_single_twice) {
                /* misuse: the executor was released by the call above */
                take_snapshots(c);
                aclnnStatus again = launch_op(c, NULL, 0, executor, stream);
                FUZZ_ASSERT(again == ACLNN_ERR_PARAM_NULLPTR || again == ACLNN_ERR_PARAM_INVALID,
                            "a single-use executor run twice: %d", (int)again);
                require_failure_message(again, op_name[c->op]);
                FUZZ_ASSERT(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "sync");
                check_untouched(c, "second run of a single-use executor");
            }
        }
    }
    if (c->repeatable) {
        aclnnStatus status = aclDestroyAclOpExecutor(executor);
        FUZZ_ASSERT(status == ACLNN_SUCCESS, "aclDestroyAclOpExecutor: %d", (int)status);
    }
}

/* MISHGRAD_FUZZ_VERBOSE=1: what an input decodes to, for reading a crash reproducer. */
static void dump_case(const fuzz_case *c, const verdict *v) {
    fprintf(stderr, "case: op %s, ", op_name[c->op]);
    fprintf(stderr, "null %d, alias %d, ws mode %d, stream %d, repeatable %d, runs %d, refresh %d, twice %d\n",
            c->null_case, c->alias_mode, c->ws_mode, c->stream_index, c->repeatable, c->runs, c->refresh_mode,
            c->run_single_twice);
    for (int i = 0; i < TENSORS; i++) {
        const tensor_desc *t = &c->t[i];
        fprintf(stderr, "  %s: dtype %d format %d rank %llu dims", tensor_name[i], (int)t->dtype, (int)t->format,
                (unsigned long long)t->rank);
        for (uint64_t d = 0; d < t->rank; d++) fprintf(stderr, " %lld", (long long)t->dims[d]);
        fprintf(stderr, " strides%s", t->strides_null ? "(NULL)" : "");
        for (uint64_t d = 0; d < t->rank; d++) fprintf(stderr, " %lld", (long long)t->strides[d]);
        fprintf(stderr, " offset %lld storage", (long long)t->offset);
        for (uint64_t d = 0; d < t->storage_rank; d++) fprintf(stderr, " %lld", (long long)t->storage_dims[d]);
        fprintf(stderr, " buffer %d rel %lld | invalid %d unsure %d empty %d numel %lld\n", t->buffer,
                (long long)t->rel, v[i].invalid, v[i].unsure, v[i].empty, (long long)v[i].numel);
    }
}

/* ---- one input ------------------------------------------------------------------------------ */

static void harness_init(void) {
    if (harness_ready) return;
    /* Every rejected descriptor logs an error line; at fuzzing speed that is all the fuzzer
       would do. Keep the messages (aclGetRecentErrMsg), drop the log. */
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 0);
    aclError status = aclInit(NULL);
    FUZZ_ASSERT(status == ACL_SUCCESS || status == ACL_ERROR_REPEAT_INITIALIZE, "aclInit: %d", status);
    FUZZ_ASSERT(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
    for (int s = 1; s < 3; s++) FUZZ_ASSERT(aclrtCreateStream(&streams[s]) == ACL_SUCCESS, "aclrtCreateStream");
    /* The operator's own table (op_host/): BFLOAT16 on the CPU profile and 910B-class on. */
    bf16_supported = mgrt_soc()->generation == MGRT_SOC_CPU || mgrt_soc()->generation >= MGRT_SOC_ASCEND910B;
    harness_ready = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    harness_init();
    fuzz_reader in = {data, size, 0};
    fuzz_case c;
    decode(&in, &c);

    verdict v[TENSORS];
    for (int i = 0; i < TENSORS; i++) {
        tensor_desc *t = &c.t[i];
        t->es = mish_ref_elem_size(t->dtype);
        judge_view(t, &v[i]);
        storage_dims_for(t, &v[i]);
    }
    if (getenv("MISHGRAD_FUZZ_VERBOSE")) dump_case(&c, v);
    make_buffers(&c);
    for (int i = 0; i < TENSORS; i++) judge_storage(&c, &c.t[i], &v[i]);
    for (int i = T_GRAD_INPUT; i >= 0; i--) fill_values(&c, i, &v[i]);
    for (int b = 0; b < TENSORS; b++)
        if (c.buf[b].kind == BUF_FREED && c.buf[b].used) FUZZ_ASSERT(aclrtFree(c.buf[b].base) == ACL_SUCCESS, "free");

    /* The expected status, from the contract's rules. */
    int any_null = c.null_case == FUZZ_NULL_WORKSPACE_SIZE || c.null_case == FUZZ_NULL_EXECUTOR;
    int creation_refused[TENSORS] = {0};
    for (int i = 0; i < TENSORS; i++) {
        tensor_desc *t = &c.t[i];
        if (t->shares_object_of >= 0 || t->unused) continue;
        int passed_null = c.null_case == FUZZ_NULL_GRAD_OUTPUT + i;
        if (passed_null) {
            any_null = 1;
            continue;
        }
        int64_t *strides = t->strides_null ? NULL : t->strides;
        t->object = aclCreateTensor(t->dims_null && t->rank > 0 ? NULL : t->dims, t->rank, t->dtype, strides,
                                    t->offset, t->format, t->storage_dims, t->storage_rank, t->data);
        if (t->dims_null && t->rank > 0) {
            FUZZ_ASSERT(t->object == NULL, "aclCreateTensor accepted viewDims NULL with %llu dims",
                        (unsigned long long)t->rank);
            require_failure_message(0, "aclCreateTensor");
            creation_refused[i] = 1;
            any_null = 1;
        } else {
            FUZZ_ASSERT(t->object != NULL, "aclCreateTensor refused a descriptor it must store");
        }
    }
    for (int i = 0; i < TENSORS; i++)
        if (c.t[i].shares_object_of >= 0) c.t[i].object = c.t[c.t[i].shares_object_of].object;
    (void)creation_refused;

    int invalid = 0, unsure = 0;
    /* the tensor the others must match: gradOutput for the backward, self for the forward */
    const int first = c.op == FUZZ_OP_BACKWARD ? T_GRAD_OUTPUT : T_SELF;
    for (int i = first; i < TENSORS; i++) {
        const tensor_desc *t = &c.t[i];
        if (!mish_ref_dtype_is_float(t->dtype) || (t->dtype == ACL_BF16 && !bf16_supported)) invalid = 1;
        if (t->dtype != c.t[first].dtype) invalid = 1;
        if (t->rank != c.t[first].rank || memcmp(t->dims, c.t[first].dims, sizeof(int64_t) * t->rank) != 0)
            invalid = 1;
        invalid |= v[i].invalid;
        unsure |= v[i].unsure;
    }
    int64_t numel = v[first].numel;
    int empty = v[first].empty;
    int hazard = 0;
    if (!any_null && !invalid && !empty) {
        if (numel > MAX_RUN_ELEMS) {
            unsure = 1;
        } else if (output_hits_a_location_twice(&c, numel)) {
            /* an output that overlaps itself is refused, whatever else is true */
            invalid = 1;
        } else {
            hazard = aliasing_hazard(&c, numel);
            /* Interleaved strides that never collide: the library decides exactly for
               views of a small span, and must accept; a larger one it may refuse. */
            if (!strides_provably_apart(&c.t[T_GRAD_INPUT]) &&
                view_span(&c.t[T_GRAD_INPUT]) > LIBRARY_ENUMERATED_SPAN)
                unsure = 1;
        }
    }

    take_snapshots(&c);
    uint64_t ws_size = 12345;
    aclOpExecutor *executor = NULL;
    uint64_t *ws_arg = c.null_case == FUZZ_NULL_WORKSPACE_SIZE ? NULL : &ws_size;
    aclOpExecutor **executor_arg = c.null_case == FUZZ_NULL_EXECUTOR ? NULL : &executor;
    aclnnStatus status;
    switch (c.op) {
    case FUZZ_OP_FORWARD:
        status = aclnnMishGetWorkspaceSize(c.t[T_SELF].object, c.t[T_GRAD_INPUT].object, ws_arg, executor_arg);
        break;
    case FUZZ_OP_INPLACE:
        status = aclnnInplaceMishGetWorkspaceSize(c.t[T_SELF].object, ws_arg, executor_arg);
        break;
    default:
        status = aclnnMishBackwardGetWorkspaceSize(c.t[0].object, c.t[1].object, c.t[2].object, ws_arg,
                                                   executor_arg);
        break;
    }
    check_untouched(&c, "phase 1");
    if (any_null) {
        FUZZ_ASSERT(status == ACLNN_ERR_PARAM_NULLPTR, "phase 1 with a NULL argument (case %d): %d", c.null_case,
                    (int)status);
    } else if (invalid) {
        FUZZ_ASSERT(status == ACLNN_ERR_PARAM_INVALID, "phase 1 with an invalid descriptor: %d", (int)status);
    } else if (unsure || hazard) {
        FUZZ_ASSERT(status == ACLNN_SUCCESS || status == ACLNN_ERR_PARAM_INVALID, "phase 1: %d", (int)status);
    } else {
        FUZZ_ASSERT(status == ACLNN_SUCCESS, "phase 1 with a valid descriptor: %d", (int)status);
    }
    if (status != ACLNN_SUCCESS) {
        require_failure_message(status, op_name[c.op]);
        /* a tensor refused is named as the operator names it */
        if (status == ACLNN_ERR_PARAM_INVALID && c.op == FUZZ_OP_INPLACE)
            FUZZ_ASSERT(strstr(last_message, "selfRef") != NULL, "aclnnInplaceMish's message: %s", last_message);
        if (status == ACLNN_ERR_PARAM_INVALID && c.op != FUZZ_OP_BACKWARD)
            FUZZ_ASSERT(strstr(last_message, "grad") == NULL, "%s's message names a backward argument: %s",
                        op_name[c.op], last_message);
        if (status == ACLNN_ERR_PARAM_INVALID && c.op == FUZZ_OP_FORWARD)
            FUZZ_ASSERT(strstr(last_message, "self") != NULL || strstr(last_message, "out") != NULL,
                        "aclnnMish's message names neither self nor out: %s", last_message);
    } else {
        FUZZ_ASSERT(executor != NULL, "phase 1 succeeded without an executor");
        mish_fuzz_phase1_ok++;
        int all_contiguous = (v[0].contiguous || c.t[0].unused) && v[1].contiguous && v[2].contiguous;
        if (empty) FUZZ_ASSERT(ws_size == 0, "empty tensors need workspace %llu", (unsigned long long)ws_size);
        /* The library may gather any input whose bytes it cannot prove apart from the
           output's; workspace 0 is owed only where the output is apart or exactly in place. */
        int output_apart = ((c.t[2].buffer != c.t[0].buffer || c.t[0].unused) && c.t[2].buffer != c.t[1].buffer) ||
                           c.alias_mode == FUZZ_ALIAS_INPLACE_GRAD || c.alias_mode == FUZZ_ALIAS_INPLACE_SELF ||
                           c.alias_mode == FUZZ_ALIAS_SAME_OBJECT;
        if (all_contiguous && output_apart)
            FUZZ_ASSERT(ws_size == 0, "contiguous tensors need workspace %llu", (unsigned long long)ws_size);
        if (!empty && numel <= MAX_RUN_ELEMS)
            FUZZ_ASSERT(ws_size <= (uint64_t)numel * 3 * 8 + 4096, "workspace %llu for %lld elements",
                        (unsigned long long)ws_size, (long long)numel);
        if (empty || (numel <= MAX_RUN_ELEMS && ws_size <= MAX_WORKSPACE_BYTES)) {
            run_phase2(&c, executor, ws_size, empty ? 0 : numel, hazard);
        } else {
            /* too large to run here: release the executor unused */
            FUZZ_ASSERT(aclSetAclOpExecutorRepeatable(executor) == ACLNN_SUCCESS, "repeatable");
            FUZZ_ASSERT(aclDestroyAclOpExecutor(executor) == ACLNN_SUCCESS, "destroy");
        }
    }

    for (int i = 0; i < TENSORS; i++)
        if (c.t[i].object && c.t[i].shares_object_of < 0) FUZZ_ASSERT(aclDestroyTensor(c.t[i].object) == ACLNN_SUCCESS, "destroy tensor");
    for (int b = 0; b < TENSORS; b++) {
        buffer *buf = &c.buf[b];
        if (!buf->used) continue;
        if (buf->kind == BUF_DEVICE) FUZZ_ASSERT(aclrtFree(buf->base) == ACL_SUCCESS, "aclrtFree");
        if (buf->kind == BUF_HOST) free(buf->base);
        free(buf->snapshot);
        free(buf->written);
    }
    return 0;
}

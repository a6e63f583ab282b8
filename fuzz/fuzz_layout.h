/*
 * fuzz/fuzz_layout.h: how the fuzz harness reads its input bytes, shared with the seed
 * corpus generator (gen_corpus.c) so that a seed file means what its name says.
 *
 * The input is read one byte per decision, in this order (missing bytes read as 0, so
 * every input, even an empty one, is a case):
 *
 *   null      FUZZ_NULL_*: which pointer argument is NULL (most values: none)
 *   dtype     bits 0-1: FLOAT, FLOAT16, BF16, or a bad dtype (bits 4-7 pick which);
 *             bits 2-3: 0, or 1 + the tensor that gets a different valid dtype
 *   rank      0..5 (below 0xF0), 6..10 above: ranks 9 and 10 must be refused
 *   dims      one byte per dim (fuzz_dim): 1..5, 0, or hostile (-1, 2^31, 2^40, 2^62, ...)
 *   shape     low 3 bits == 7: one tensor's shape differs (bit 7: an extra dim of 1)
 *   3 x tensor (gradOutput, self, gradInput):
 *     stride mode  FUZZ_STRIDE_*, then one byte per dim for the modes that read them
 *     offset       fuzz_offset: -2..21, or hostile
 *     format       fuzz_format: the CANN formats and two values no enum has
 *     storage      bits 0-2: FUZZ_STORAGE_*; bits 3-5: extra elements for LONGER
 *   alias     FUZZ_ALIAS_*: which tensors share memory (or have none, or foreign memory)
 *   alias arg which tensor the NULL / foreign / NULL-dims case picks
 *   shift a, shift b  signed element shifts of aliased views inside a shared buffer
 *   3 x slack bits 0-1 == 1: the block is one element short; bits 2-3: room in front
 *   phase 2   bits 0-2: FUZZ_WS_*; bits 3-4: stream (NULL, first, second created)
 *   repeat    bit 0: repeatable; bits 1-2: runs - 1; bits 3-4: refresh mode (1 move all
 *             buffers, 2 an input to freed memory, 3 the output to a 1-byte block);
 *             bit 5: run a single-use executor a second time (misuse)
 *   seed      4 bytes for the values
 *   operator  fuzz_op: 0 aclnnMishBackward, 1 aclnnMish(self, out), 2 aclnnInplaceMish(selfRef)
 *             (value % 3). Last, so that a seed written before it existed (no byte: 0) keeps
 *             meaning the backward. For the forward, tensor 1 is self and tensor 2 out, and
 *             tensor 0's decisions are read and ignored: alias modes naming gradOutput name
 *             self instead (INPLACE_GRAD -> INPLACE_SELF, SHIFTED_GRAD -> SHIFTED_SELF,
 *             SAME_OBJECT: out is self's aclTensor, INPUTS_SHARE -> SEPARATE, ALL_ONE_BUFFER:
 *             out in self's block at shift b - shift a), the alias arg / NULL-dims choice
 *             picks self or out (1 + arg % 2), and FUZZ_NULL_GRAD_OUTPUT is no NULL. For the
 *             in-place form selfRef is tensor 1 and tensor 2 is the same aclTensor (input 0
 *             and output 0 of the executor); every alias mode but NULL_DATA and
 *             FOREIGN_MEMORY (which then apply to selfRef) reads as SAME_OBJECT, and
 *             FUZZ_NULL_GRAD_INPUT is no NULL.
 */
#ifndef FUZZ_LAYOUT_H_
#define FUZZ_LAYOUT_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

typedef struct fuzz_reader {
    const uint8_t *data;
    size_t size, at;
} fuzz_reader;

static inline uint8_t fuzz_byte(fuzz_reader *in) { return in->at < in->size ? in->data[in->at++] : 0; }

enum {
    FUZZ_OP_BACKWARD = 0, /* aclnnMishBackward(gradOutput, self, gradInput) */
    FUZZ_OP_FORWARD = 1,  /* aclnnMish(self, out) */
    FUZZ_OP_INPLACE = 2,  /* aclnnInplaceMish(selfRef) */
    FUZZ_OPS = 3
};

static inline int fuzz_op(uint8_t b) { return b % FUZZ_OPS; }

enum {
    FUZZ_NULL_NONE = 0,
    FUZZ_NULL_WORKSPACE_SIZE = 1,
    FUZZ_NULL_EXECUTOR = 2,
    FUZZ_NULL_GRAD_OUTPUT = 3,
    FUZZ_NULL_SELF = 4,
    FUZZ_NULL_GRAD_INPUT = 5,
    FUZZ_NULL_DIMS = 6 /* aclCreateTensor with viewDims NULL: it returns NULL */
};

/* NULLs are rare (the top 6 values of the byte) so mutations mostly explore the rest. */
static inline int fuzz_null_case(uint8_t b) { return b >= 0xFA ? b - 0xFA + 1 : FUZZ_NULL_NONE; }
#define FUZZ_NULL_BYTE(which) ((uint8_t)(0xFA + (which) - 1))

static inline aclDataType fuzz_dtype(uint8_t b) {
    static const aclDataType bad[16] = {
        ACL_DOUBLE, ACL_INT32, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT64, ACL_BOOL, ACL_COMPLEX64,
        ACL_COMPLEX128, ACL_STRING, ACL_DT_UNDEFINED, (aclDataType)5, (aclDataType)99, ACL_UINT16,
        ACL_UINT32, (aclDataType)-7};
    switch (b & 3) {
    case 0: return ACL_FLOAT;
    case 1: return ACL_FLOAT16;
    case 2: return ACL_BF16;
    default: return bad[b >> 4];
    }
}

static inline uint64_t fuzz_rank(uint8_t b) { return b < 0xF0 ? b % 6 : 6 + (uint64_t)(b & 0xF) % 5; }

static inline int64_t fuzz_dim(uint8_t b) {
    if (b < 0xE0) return 1 + b % 5;
    if (b < 0xF0) return 0;
    switch (b) {
    case 0xF0: return -1;
    case 0xF1: return (int64_t)1 << 40;
    case 0xF2: return (int64_t)1 << 62;
    case 0xF3: return INT64_MAX;
    case 0xF4: return (int64_t)1 << 31;
    case 0xF5: return 65537;
    case 0xF6: return INT64_MIN;
    case 0xF7: return 1000;
    default: return 1 + b % 7;
    }
}

static inline int64_t fuzz_stride(uint8_t b) {
    if (b < 0xF0) return (int64_t)(b % 9) - 2; /* -2..6: negative, zero, gaps */
    switch (b) {
    case 0xF0: return INT64_MAX;
    case 0xF1: return INT64_MIN;
    case 0xF2: return (int64_t)1 << 40;
    case 0xF3: return -((int64_t)1 << 40);
    case 0xF4: return (int64_t)1 << 62;
    case 0xF5: return 100;
    default: return 1;
    }
}

static inline int64_t fuzz_offset(uint8_t b) {
    if (b < 0xF0) return b < 0xC0 ? (int64_t)(b % 6) : (int64_t)(b % 24) - 2;
    switch (b) {
    case 0xF0: return INT64_MAX;
    case 0xF1: return INT64_MIN;
    case 0xF2: return (int64_t)1 << 62;
    case 0xF3: return -((int64_t)1 << 62);
    case 0xF4: return -1;
    case 0xF5: return 1000000;
    default: return 0;
    }
}

static inline aclFormat fuzz_format(uint8_t b) {
    static const aclFormat formats[12] = {
        ACL_FORMAT_ND, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC, ACL_FORMAT_NC1HWC0,
        ACL_FORMAT_FRACTAL_Z, ACL_FORMAT_HWCN, ACL_FORMAT_NDHWC, ACL_FORMAT_FRACTAL_NZ,
        ACL_FORMAT_NCDHW, ACL_FORMAT_UNDEFINED, (aclFormat)99, (aclFormat)-7};
    return formats[b % 12];
}

enum {
    FUZZ_STRIDE_NULL = 0,        /* strides pointer NULL: row-major */
    FUZZ_STRIDE_ROW_MAJOR = 1,   /* explicit row-major */
    FUZZ_STRIDE_TRANSPOSED = 2,  /* column-major */
    FUZZ_STRIDE_GAPS = 3,        /* row-major times 2: every other element */
    FUZZ_STRIDE_BYTES = 4,       /* one byte per dim: fuzz_stride */
    FUZZ_STRIDE_ONE_NEGATIVE = 5,/* row-major with the first stride negated */
    FUZZ_STRIDE_BROADCAST = 6,   /* row-major with the first stride 0 */
    FUZZ_STRIDE_REVERSED_GAPS = 7, /* column-major times 3 */
    FUZZ_STRIDE_MODES = 8
};

/* Fills strides[0..rank) for `mode` (reading bytes for FUZZ_STRIDE_BYTES). */
static inline void fuzz_strides(int mode, fuzz_reader *in, uint64_t rank, const int64_t *dims,
                                int64_t *strides, int *strides_null) {
    *strides_null = mode == FUZZ_STRIDE_NULL;
    /* products of dims are taken on clamped values: hostile dims are judged elsewhere and
       need not give meaningful strides, only defined arithmetic */
    int64_t row = 1, col = 1;
    int64_t row_major[16], col_major[16];
    for (uint64_t d = rank; d-- > 0;) {
        row_major[d] = row;
        int64_t dim = dims[d] > 0 && dims[d] < 4096 ? dims[d] : 1;
        if (row < ((int64_t)1 << 40)) row *= dim;
    }
    for (uint64_t d = 0; d < rank; d++) {
        col_major[d] = col;
        int64_t dim = dims[d] > 0 && dims[d] < 4096 ? dims[d] : 1;
        if (col < ((int64_t)1 << 40)) col *= dim;
    }
    for (uint64_t d = 0; d < rank; d++) {
        switch (mode) {
        case FUZZ_STRIDE_TRANSPOSED: strides[d] = col_major[d]; break;
        case FUZZ_STRIDE_GAPS: strides[d] = row_major[d] * 2; break;
        case FUZZ_STRIDE_BYTES: strides[d] = fuzz_stride(fuzz_byte(in)); break;
        case FUZZ_STRIDE_ONE_NEGATIVE: strides[d] = d == 0 ? -row_major[d] : row_major[d]; break;
        case FUZZ_STRIDE_BROADCAST: strides[d] = d == 0 ? 0 : row_major[d]; break;
        case FUZZ_STRIDE_REVERSED_GAPS: strides[d] = col_major[d] * 3; break;
        default: strides[d] = row_major[d]; break;
        }
    }
}

enum {
    FUZZ_STORAGE_EXACT = 0,     /* [max element + 1] */
    FUZZ_STORAGE_VIEW_DIMS = 1, /* the view dims (contiguous, offset 0), else as EXACT */
    FUZZ_STORAGE_SHORT = 2,     /* one element short: the view reaches outside */
    FUZZ_STORAGE_LONGER = 3,    /* [need + extra, 1] */
    FUZZ_STORAGE_SCALAR = 4,    /* no dims: one element */
    FUZZ_STORAGE_ZERO_DIM = 5,  /* [need, 0]: empty storage */
    FUZZ_STORAGE_NEGATIVE = 6,  /* [-need, -1]: product positive, dims negative */
    FUZZ_STORAGE_HUGE = 7,      /* [2^40, 2^40, need]: product overflows */
    FUZZ_STORAGE_MODES = 8
};

enum {
    FUZZ_ALIAS_SEPARATE = 0,
    FUZZ_ALIAS_INPLACE_GRAD = 1,   /* gradInput: gradOutput's descriptor and memory */
    FUZZ_ALIAS_INPLACE_SELF = 2,   /* gradInput: self's descriptor and memory */
    FUZZ_ALIAS_SAME_OBJECT = 3,    /* gradInput is the gradOutput aclTensor itself */
    FUZZ_ALIAS_INPUTS_SHARE = 4,   /* self: gradOutput's descriptor and memory */
    FUZZ_ALIAS_SHIFTED_GRAD = 5,   /* gradInput in gradOutput's block, shifted by shift a */
    FUZZ_ALIAS_SHIFTED_SELF = 6,   /* gradInput in self's block, shifted by shift a */
    FUZZ_ALIAS_ALL_ONE_BUFFER = 7, /* all three in one block, shifts a and b */
    FUZZ_ALIAS_NULL_DATA = 8,      /* one tensor's data NULL */
    FUZZ_ALIAS_FOREIGN_MEMORY = 9, /* one tensor in malloc memory (arg bit 2: a freed block) */
    FUZZ_ALIAS_MODES = 10
};

enum {
    FUZZ_WS_RIGHT = 0,
    FUZZ_WS_NULL = 1,
    FUZZ_WS_SHORT_BYTE = 2,
    FUZZ_WS_SHORT_HALF = 3,
    FUZZ_WS_BIGGER = 4,
    FUZZ_WS_NULL_EXECUTOR = 5, /* first a launch with a NULL executor, then the right one */
    FUZZ_WS_MODES = 6
};

#endif /* FUZZ_LAYOUT_H_ */

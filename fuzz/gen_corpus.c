/*
 * fuzz/gen_corpus.c: writes the seed corpus (fuzz/corpus/) from named cases, in the byte
 * layout of fuzz_layout.h. Each file is one case the contract talks about, so the fuzzer
 * starts from every branch and CTest replays them all.
 *
 *   cc -std=c11 -Iinclude -Ifuzz fuzz/gen_corpus.c -o gen_corpus && ./gen_corpus fuzz/corpus
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_layout.h"

typedef struct tensor_spec {
    uint8_t stride_mode;
    uint8_t stride_bytes[11];
    uint8_t offset;  /* byte, see fuzz_offset */
    uint8_t format;  /* byte, see fuzz_format */
    uint8_t storage; /* byte, see FUZZ_STORAGE_* */
} tensor_spec;

typedef struct case_spec {
    const char *name;
    uint8_t null_byte;
    uint8_t dtype;    /* 0 f32, 1 f16, 2 bf16, (k << 4) | 3 bad dtype k; | (m << 2) mismatch */
    uint8_t rank;     /* byte, see fuzz_rank */
    uint8_t dims[11]; /* bytes, see fuzz_dim */
    uint8_t shape;
    tensor_spec t[3];
    uint8_t alias, alias_arg, shift_a, shift_b;
    uint8_t slack[3];
    uint8_t phase2;
    uint8_t repeat;
    uint32_t seed;
    uint8_t op; /* FUZZ_OP_*: written only when not 0, so the backward's seeds keep their bytes */
} case_spec;

/* dims bytes for 1..5 and 0 */
#define D(n) ((uint8_t)((n) == 0 ? 0xE0 : (n) - 1))
#define NEG_OFFSET(k) ((uint8_t)(0xC0 + 2 - (k))) /* offset -k for k in 1..2 */
#define T_(mode, off, fmt, storage) {mode, {0}, off, fmt, storage}
#define CONTIG T_(FUZZ_STRIDE_NULL, 0, 0, FUZZ_STORAGE_EXACT)

static int write_case(const char *dir, const case_spec *c) {
    uint8_t bytes[128];
    size_t n = 0;
    uint64_t rank = fuzz_rank(c->rank);
    bytes[n++] = c->null_byte;
    bytes[n++] = c->dtype;
    bytes[n++] = c->rank;
    for (uint64_t d = 0; d < rank; d++) bytes[n++] = c->dims[d];
    bytes[n++] = c->shape;
    for (int i = 0; i < 3; i++) {
        bytes[n++] = c->t[i].stride_mode;
        if (c->t[i].stride_mode == FUZZ_STRIDE_BYTES)
            for (uint64_t d = 0; d < rank; d++) bytes[n++] = c->t[i].stride_bytes[d];
        bytes[n++] = c->t[i].offset;
        bytes[n++] = c->t[i].format;
        bytes[n++] = c->t[i].storage;
    }
    bytes[n++] = c->alias;
    bytes[n++] = c->alias_arg;
    bytes[n++] = c->shift_a;
    bytes[n++] = c->shift_b;
    for (int b = 0; b < 3; b++) bytes[n++] = c->slack[b];
    bytes[n++] = c->phase2;
    bytes[n++] = c->repeat;
    for (int k = 3; k >= 0; k--) bytes[n++] = (uint8_t)(c->seed >> (8 * k));
    if (c->op != FUZZ_OP_BACKWARD) bytes[n++] = c->op;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, c->name);
    FILE *f = fopen(path, "wb");
    if (f == NULL) return 1;
    fwrite(bytes, 1, n, f);
    fclose(f);
    return 0;
}

static const case_spec cases[] = {
    {.name = "f32_contiguous_1d", .dtype = 0, .rank = 1, .dims = {D(5)}, .t = {CONTIG, CONTIG, CONTIG}, .seed = 1},
    {.name = "f16_contiguous_3d", .dtype = 1, .rank = 3, .dims = {D(2), D(3), D(4)}, .t = {CONTIG, CONTIG, CONTIG}, .seed = 2},
    {.name = "bf16_contiguous_2d", .dtype = 2, .rank = 2, .dims = {D(4), D(5)}, .t = {CONTIG, CONTIG, CONTIG}, .seed = 3},
    {.name = "f32_scalar", .dtype = 0, .rank = 0, .t = {CONTIG, CONTIG, CONTIG}, .seed = 4},
    {.name = "f16_scalar_offset", .dtype = 1, .rank = 0, .t = {T_(0, 3, 0, 0), T_(0, 1, 0, 0), T_(0, 2, 0, 0)}, .seed = 5},
    {.name = "f32_transposed_inputs", .dtype = 0, .rank = 2, .dims = {D(3), D(5)},
     .t = {T_(FUZZ_STRIDE_TRANSPOSED, 0, 1, 0), T_(FUZZ_STRIDE_TRANSPOSED, 2, 5, 0), CONTIG}, .seed = 6},
    {.name = "bf16_strided_output_gaps", .dtype = 2, .rank = 3, .dims = {D(2), D(2), D(3)},
     .t = {CONTIG, CONTIG, T_(FUZZ_STRIDE_GAPS, 1, 2, FUZZ_STORAGE_LONGER)}, .seed = 7},
    {.name = "f16_all_strided", .dtype = 1, .rank = 2, .dims = {D(4), D(3)},
     .t = {T_(FUZZ_STRIDE_REVERSED_GAPS, 0, 0, 0), T_(FUZZ_STRIDE_GAPS, 4, 0, 0), T_(FUZZ_STRIDE_TRANSPOSED, 3, 0, 0)},
     .seed = 8},
    {.name = "f32_rank8", .dtype = 0, .rank = 0xF2, .dims = {D(2), D(1), D(2), D(1), D(2), D(1), D(2), D(1)},
     .t = {CONTIG, T_(FUZZ_STRIDE_TRANSPOSED, 0, 0, 0), CONTIG}, .seed = 9},
    {.name = "f32_rank9_invalid", .dtype = 0, .rank = 0xF3, .dims = {D(1), D(1), D(1), D(1), D(1), D(1), D(1), D(1), D(2)},
     .t = {CONTIG, CONTIG, CONTIG}, .seed = 10},
    {.name = "f32_rank10_invalid", .dtype = 0, .rank = 0xF4, .dims = {0}, .t = {CONTIG, CONTIG, CONTIG}, .seed = 11},
    {.name = "empty_null_data", .dtype = 0, .rank = 2, .dims = {D(3), D(0)}, .t = {CONTIG, CONTIG, CONTIG},
     .alias = FUZZ_ALIAS_NULL_DATA, .alias_arg = 2, .seed = 12},
    {.name = "empty_strided", .dtype = 1, .rank = 3, .dims = {D(0), D(2), D(2)},
     .t = {T_(FUZZ_STRIDE_GAPS, 0, 0, 0), CONTIG, CONTIG}, .phase2 = FUZZ_WS_NULL, .seed = 13},
    {.name = "inplace_grad_output", .dtype = 0, .rank = 2, .dims = {D(3), D(4)}, .t = {CONTIG, CONTIG, CONTIG},
     .alias = FUZZ_ALIAS_INPLACE_GRAD, .seed = 14},
    {.name = "inplace_self_strided", .dtype = 1, .rank = 2, .dims = {D(3), D(4)},
     .t = {CONTIG, T_(FUZZ_STRIDE_TRANSPOSED, 1, 0, 0), CONTIG}, .alias = FUZZ_ALIAS_INPLACE_SELF, .seed = 15},
    {.name = "inplace_same_object", .dtype = 2, .rank = 1, .dims = {D(5)}, .t = {CONTIG, CONTIG, CONTIG},
     .alias = FUZZ_ALIAS_SAME_OBJECT, .seed = 16},
    {.name = "inputs_share_memory", .dtype = 0, .rank = 1, .dims = {D(5)}, .t = {CONTIG, CONTIG, CONTIG},
     .alias = FUZZ_ALIAS_INPUTS_SHARE, .seed = 17},
    {.name = "overlap_output_ahead", .dtype = 0, .rank = 1, .dims = {D(5)}, .t = {CONTIG, CONTIG, CONTIG},
     .alias = FUZZ_ALIAS_SHIFTED_GRAD, .shift_a = 1, .seed = 18},
    {.name = "overlap_output_behind", .dtype = 0, .rank = 2, .dims = {D(5), D(5)}, .t = {CONTIG, CONTIG, CONTIG},
     .alias = FUZZ_ALIAS_SHIFTED_SELF, .shift_a = 0xFF, .slack = {0, 4, 0}, .seed = 19},
    {.name = "all_in_one_buffer", .dtype = 1, .rank = 1, .dims = {D(4)}, .t = {CONTIG, CONTIG, CONTIG},
     .alias = FUZZ_ALIAS_ALL_ONE_BUFFER, .shift_a = 8, .shift_b = 16, .seed = 20},
    {.name = "null_data_nonempty", .dtype = 0, .rank = 1, .dims = {D(3)}, .t = {CONTIG, CONTIG, CONTIG},
     .alias = FUZZ_ALIAS_NULL_DATA, .alias_arg = 1, .seed = 21},
    {.name = "host_memory", .dtype = 0, .rank = 1, .dims = {D(3)}, .t = {CONTIG, CONTIG, CONTIG},
     .alias = FUZZ_ALIAS_FOREIGN_MEMORY, .alias_arg = 0, .seed = 22},
    {.name = "freed_memory", .dtype = 0, .rank = 1, .dims = {D(3)}, .t = {CONTIG, CONTIG, CONTIG},
     .alias = FUZZ_ALIAS_FOREIGN_MEMORY, .alias_arg = 6, .seed = 23},
    {.name = "negative_stride", .dtype = 0, .rank = 2, .dims = {D(3), D(2)},
     .t = {T_(FUZZ_STRIDE_ONE_NEGATIVE, 4, 0, 0), CONTIG, CONTIG}, .seed = 24},
    {.name = "negative_offset", .dtype = 0, .rank = 1, .dims = {D(3)}, .t = {CONTIG, T_(0, NEG_OFFSET(1), 0, 0), CONTIG},
     .seed = 25},
    {.name = "huge_offset", .dtype = 1, .rank = 1, .dims = {D(3)}, .t = {CONTIG, CONTIG, T_(0, 0xF2, 0, 0)}, .seed = 26},
    {.name = "storage_one_short", .dtype = 0, .rank = 2, .dims = {D(2), D(3)},
     .t = {CONTIG, T_(0, 0, 0, FUZZ_STORAGE_SHORT), CONTIG}, .seed = 27},
    {.name = "storage_scalar", .dtype = 0, .rank = 1, .dims = {D(2)}, .t = {T_(0, 0, 0, FUZZ_STORAGE_SCALAR), CONTIG, CONTIG},
     .seed = 28},
    {.name = "storage_zero_dim", .dtype = 0, .rank = 1, .dims = {D(2)}, .t = {CONTIG, CONTIG, T_(0, 0, 0, FUZZ_STORAGE_ZERO_DIM)},
     .seed = 29},
    {.name = "storage_negative", .dtype = 2, .rank = 1, .dims = {D(2)}, .t = {CONTIG, T_(0, 0, 0, FUZZ_STORAGE_NEGATIVE), CONTIG},
     .seed = 30},
    {.name = "storage_overflow", .dtype = 1, .rank = 1, .dims = {D(2)}, .t = {T_(0, 0, 0, FUZZ_STORAGE_HUGE), CONTIG, CONTIG},
     .seed = 31},
    {.name = "block_one_element_short", .dtype = 0, .rank = 2, .dims = {D(4), D(4)}, .t = {CONTIG, CONTIG, CONTIG},
     .slack = {0, 0, 1}, .seed = 32},
    {.name = "elements_2pow80", .dtype = 0, .rank = 3, .dims = {0xF1, 0xF1, D(1)},
     .t = {T_(FUZZ_STRIDE_BYTES, 0, 0, 0), T_(FUZZ_STRIDE_BROADCAST, 0, 0, 0), CONTIG}, .seed = 33},
    {.name = "dim_negative", .dtype = 0, .rank = 2, .dims = {D(2), 0xF0}, .t = {CONTIG, CONTIG, CONTIG}, .seed = 34},
    {.name = "dim_int64_max_stride_bytes", .dtype = 0, .rank = 1, .dims = {0xF3},
     .t = {{FUZZ_STRIDE_BYTES, {2}, 0, 0, 0}, CONTIG, CONTIG}, .seed = 35},
    {.name = "stride_int64_max", .dtype = 0, .rank = 2, .dims = {D(2), D(2)},
     .t = {CONTIG, {FUZZ_STRIDE_BYTES, {0xF0, 3}, 0, 0, 0}, CONTIG}, .seed = 36},
    {.name = "dtype_double", .dtype = 0x03, .rank = 1, .dims = {D(3)}, .t = {CONTIG, CONTIG, CONTIG}, .seed = 37},
    {.name = "dtype_int32", .dtype = 0x13, .rank = 1, .dims = {D(3)}, .t = {CONTIG, CONTIG, CONTIG}, .seed = 38},
    {.name = "dtype_undefined", .dtype = 0xA3, .rank = 1, .dims = {D(3)}, .t = {CONTIG, CONTIG, CONTIG}, .seed = 39},
    {.name = "dtype_mismatch_self", .dtype = 0x08, .rank = 1, .dims = {D(3)}, .t = {CONTIG, CONTIG, CONTIG}, .seed = 40},
    {.name = "dtype_mismatch_output", .dtype = 0x0D, .rank = 1, .dims = {D(3)}, .t = {CONTIG, CONTIG, CONTIG}, .seed = 41},
    {.name = "shape_mismatch", .dtype = 0, .rank = 2, .dims = {D(2), D(3)}, .shape = 0x0F,
     .t = {CONTIG, CONTIG, CONTIG}, .seed = 42},
    {.name = "shape_broadcastable", .dtype = 0, .rank = 1, .dims = {D(3)}, .shape = 0x87, .t = {CONTIG, CONTIG, CONTIG},
     .seed = 43},
    {.name = "null_workspace_size", .null_byte = FUZZ_NULL_BYTE(FUZZ_NULL_WORKSPACE_SIZE), .rank = 1, .dims = {D(3)},
     .t = {CONTIG, CONTIG, CONTIG}, .seed = 44},
    {.name = "null_executor", .null_byte = FUZZ_NULL_BYTE(FUZZ_NULL_EXECUTOR), .rank = 1, .dims = {D(3)},
     .t = {CONTIG, CONTIG, CONTIG}, .seed = 45},
    {.name = "null_grad_output", .null_byte = FUZZ_NULL_BYTE(FUZZ_NULL_GRAD_OUTPUT), .rank = 1, .dims = {D(3)},
     .t = {CONTIG, CONTIG, CONTIG}, .seed = 46},
    {.name = "null_self", .null_byte = FUZZ_NULL_BYTE(FUZZ_NULL_SELF), .rank = 1, .dims = {D(3)},
     .t = {CONTIG, CONTIG, CONTIG}, .seed = 47},
    {.name = "null_grad_input", .null_byte = FUZZ_NULL_BYTE(FUZZ_NULL_GRAD_INPUT), .rank = 1, .dims = {D(3)},
     .t = {CONTIG, CONTIG, CONTIG}, .seed = 48},
    {.name = "null_view_dims", .null_byte = FUZZ_NULL_BYTE(FUZZ_NULL_DIMS), .rank = 1, .dims = {D(3)},
     .t = {CONTIG, CONTIG, CONTIG}, .alias_arg = 1, .seed = 49},
    {.name = "workspace_null", .dtype = 0, .rank = 2, .dims = {D(3), D(4)}, .t = {T_(FUZZ_STRIDE_TRANSPOSED, 0, 0, 0), CONTIG, CONTIG},
     .phase2 = FUZZ_WS_NULL, .seed = 50},
    {.name = "workspace_short_byte", .dtype = 1, .rank = 2, .dims = {D(3), D(4)},
     .t = {CONTIG, CONTIG, T_(FUZZ_STRIDE_GAPS, 0, 0, 0)}, .phase2 = FUZZ_WS_SHORT_BYTE, .seed = 51},
    {.name = "workspace_short_half", .dtype = 2, .rank = 2, .dims = {D(3), D(4)},
     .t = {CONTIG, T_(FUZZ_STRIDE_TRANSPOSED, 0, 0, 0), CONTIG}, .phase2 = FUZZ_WS_SHORT_HALF, .seed = 52},
    {.name = "workspace_bigger", .dtype = 0, .rank = 2, .dims = {D(3), D(4)},
     .t = {CONTIG, T_(FUZZ_STRIDE_TRANSPOSED, 0, 0, 0), CONTIG}, .phase2 = FUZZ_WS_BIGGER | (1 << 3), .seed = 53},
    {.name = "executor_null_then_run", .dtype = 0, .rank = 1, .dims = {D(4)}, .t = {CONTIG, CONTIG, CONTIG},
     .phase2 = FUZZ_WS_NULL_EXECUTOR | (2 << 3), .seed = 54},
    {.name = "repeatable_three_runs", .dtype = 0, .rank = 2, .dims = {D(2), D(3)},
     .t = {CONTIG, T_(FUZZ_STRIDE_TRANSPOSED, 0, 0, 0), CONTIG}, .repeat = 1 | (2 << 1), .seed = 55},
    {.name = "repeatable_moved_buffers", .dtype = 1, .rank = 2, .dims = {D(2), D(3)},
     .t = {CONTIG, CONTIG, T_(FUZZ_STRIDE_GAPS, 1, 0, 0)}, .repeat = 1 | (2 << 1) | (1 << 3), .phase2 = 1 << 3, .seed = 56},
    {.name = "repeatable_refresh_to_freed", .dtype = 0, .rank = 1, .dims = {D(5)}, .t = {CONTIG, CONTIG, CONTIG},
     .repeat = 1 | (2 << 1) | (2 << 3), .seed = 57},
    {.name = "repeatable_output_too_small", .dtype = 2, .rank = 1, .dims = {D(5)}, .t = {CONTIG, CONTIG, CONTIG},
     .repeat = 1 | (1 << 1) | (3 << 3), .seed = 58},
    {.name = "single_use_run_twice", .dtype = 0, .rank = 1, .dims = {D(5)}, .t = {CONTIG, CONTIG, CONTIG},
     .repeat = 1 << 5, .seed = 59},
    {.name = "broadcast_output", .dtype = 0, .rank = 2, .dims = {D(3), D(2)},
     .t = {CONTIG, CONTIG, T_(FUZZ_STRIDE_BROADCAST, 0, 0, 0)}, .seed = 60},
    {.name = "broadcast_inputs", .dtype = 1, .rank = 2, .dims = {D(3), D(2)},
     .t = {T_(FUZZ_STRIDE_BROADCAST, 0, 0, 0), T_(FUZZ_STRIDE_BROADCAST, 1, 0, 0), CONTIG}, .seed = 61},
    {.name = "odd_formats", .dtype = 0, .rank = 4, .dims = {D(1), D(2), D(3), D(2)},
     .t = {T_(0, 0, 9, 0), T_(0, 0, 10, 1), T_(0, 0, 11, 0)}, .seed = 62},
    {.name = "storage_view_dims", .dtype = 2, .rank = 3, .dims = {D(2), D(3), D(2)},
     .t = {T_(0, 0, 0, FUZZ_STORAGE_VIEW_DIMS), T_(1, 0, 0, FUZZ_STORAGE_VIEW_DIMS), CONTIG}, .seed = 63},
    {.name = "random_strides", .dtype = 0, .rank = 3, .dims = {D(2), D(3), D(2)},
     .t = {{FUZZ_STRIDE_BYTES, {7, 4, 3}, 0, 0, 0}, {FUZZ_STRIDE_BYTES, {2, 8, 2}, 2, 0, 0}, {FUZZ_STRIDE_BYTES, {8, 2, 3}, 1, 0, 0}},
     .seed = 64},
    {.name = "default_stream_specials", .dtype = 0, .rank = 1, .dims = {D(5), 0}, .t = {CONTIG, CONTIG, CONTIG},
     .seed = 0xDEADBEEF},
    {.name = "large_1000", .dtype = 0, .rank = 2, .dims = {0xF7, D(3)},
     .t = {CONTIG, T_(FUZZ_STRIDE_TRANSPOSED, 0, 0, 0), T_(FUZZ_STRIDE_GAPS, 0, 0, 0)}, .seed = 66},
    /* issue 10: outputs that overlap themselves are refused (161002); an interleaved output
       that never collides runs; an output one element short is refused */
    {.name = "overlap_output_strides_1_1", .dtype = 0, .rank = 2, .dims = {D(2), D(2)},
     .t = {CONTIG, CONTIG, {FUZZ_STRIDE_BYTES, {3, 3}, 0, 0, FUZZ_STORAGE_EXACT}}, .seed = 80},
    {.name = "overlap_output_zero_inner_stride", .dtype = 1, .rank = 2, .dims = {D(3), D(2)},
     .t = {CONTIG, CONTIG, {FUZZ_STRIDE_BYTES, {4, 2}, 0, 0, FUZZ_STORAGE_EXACT}}, .seed = 81},
    {.name = "overlap_output_collide_late", .dtype = 0, .rank = 3, .dims = {D(3), D(2), D(2)},
     .t = {CONTIG, CONTIG, {FUZZ_STRIDE_BYTES, {5, 4, 3}, 0, 0, FUZZ_STORAGE_EXACT}}, .seed = 82},
    {.name = "interleaved_output_valid", .dtype = 2, .rank = 2, .dims = {D(4), D(5)},
     .t = {CONTIG, CONTIG, {FUZZ_STRIDE_BYTES, {4, 7}, 0, 0, FUZZ_STORAGE_EXACT}}, .seed = 83},
    {.name = "output_storage_one_short", .dtype = 0, .rank = 2, .dims = {D(3), D(4)},
     .t = {CONTIG, CONTIG, T_(FUZZ_STRIDE_TRANSPOSED, 0, 0, FUZZ_STORAGE_SHORT)}, .seed = 84},
    /* issue 12: aclnnMish (self = tensor 1, out = tensor 2; tensor 0 ignored) and
       aclnnInplaceMish (selfRef = tensor 1), see fuzz_layout.h */
    {.name = "mish_f32_contiguous", .op = FUZZ_OP_FORWARD, .dtype = 0, .rank = 2, .dims = {D(3), D(5)},
     .t = {CONTIG, CONTIG, CONTIG}, .seed = 100},
    {.name = "mish_f16_transposed_self", .op = FUZZ_OP_FORWARD, .dtype = 1, .rank = 2, .dims = {D(4), D(3)},
     .t = {CONTIG, T_(FUZZ_STRIDE_TRANSPOSED, 2, 0, 0), CONTIG}, .seed = 101},
    {.name = "mish_bf16_strided_out", .op = FUZZ_OP_FORWARD, .dtype = 2, .rank = 3, .dims = {D(2), D(2), D(3)},
     .t = {CONTIG, CONTIG, T_(FUZZ_STRIDE_GAPS, 1, 0, FUZZ_STORAGE_LONGER)}, .seed = 102},
    {.name = "mish_out_in_self_memory", .op = FUZZ_OP_FORWARD, .dtype = 0, .rank = 1, .dims = {D(5)},
     .t = {CONTIG, CONTIG, CONTIG}, .alias = FUZZ_ALIAS_INPLACE_SELF, .seed = 103},
    {.name = "mish_out_overlaps_self", .op = FUZZ_OP_FORWARD, .dtype = 0, .rank = 1, .dims = {D(5)},
     .t = {CONTIG, CONTIG, CONTIG}, .alias = FUZZ_ALIAS_SHIFTED_SELF, .shift_a = 1, .seed = 104},
    {.name = "mish_out_overlaps_itself", .op = FUZZ_OP_FORWARD, .dtype = 0, .rank = 2, .dims = {D(3), D(2)},
     .t = {CONTIG, CONTIG, {FUZZ_STRIDE_BYTES, {4, 2}, 0, 0, FUZZ_STORAGE_EXACT}}, .seed = 105},
    {.name = "mish_out_dtype_differs", .op = FUZZ_OP_FORWARD, .dtype = 0 | (3 << 2), .rank = 1, .dims = {D(4)},
     .t = {CONTIG, CONTIG, CONTIG}, .seed = 106},
    {.name = "mish_out_shape_differs", .op = FUZZ_OP_FORWARD, .dtype = 1, .rank = 2, .dims = {D(2), D(3)},
     .shape = 7 | (2 << 3), .t = {CONTIG, CONTIG, CONTIG}, .seed = 107},
    {.name = "mish_null_out", .op = FUZZ_OP_FORWARD, .null_byte = FUZZ_NULL_BYTE(FUZZ_NULL_GRAD_INPUT), .dtype = 0,
     .rank = 1, .dims = {D(3)}, .t = {CONTIG, CONTIG, CONTIG}, .seed = 108},
    {.name = "mish_repeatable_moved", .op = FUZZ_OP_FORWARD, .dtype = 0, .rank = 2, .dims = {D(3), D(4)},
     .t = {CONTIG, T_(FUZZ_STRIDE_GAPS, 0, 0, 0), CONTIG}, .repeat = 1 | (1 << 1) | (1 << 3), .seed = 109}, /* 3 runs, buffers moved */
    {.name = "inplace_mish_f32_contiguous", .op = FUZZ_OP_INPLACE, .dtype = 0, .rank = 2, .dims = {D(4), D(5)},
     .t = {CONTIG, CONTIG, CONTIG}, .seed = 110},
    {.name = "inplace_mish_f16_transposed", .op = FUZZ_OP_INPLACE, .dtype = 1, .rank = 3, .dims = {D(2), D(3), D(4)},
     .t = {CONTIG, T_(FUZZ_STRIDE_TRANSPOSED, 3, 0, 0), CONTIG}, .seed = 111},
    {.name = "inplace_mish_bf16_repeatable", .op = FUZZ_OP_INPLACE, .dtype = 2, .rank = 1, .dims = {D(5)},
     .t = {CONTIG, T_(FUZZ_STRIDE_GAPS, 0, 0, 0), CONTIG}, .repeat = 1 | (2 << 1), .seed = 112},
    {.name = "inplace_mish_overlaps_itself", .op = FUZZ_OP_INPLACE, .dtype = 0, .rank = 2, .dims = {D(2), D(2)},
     .t = {CONTIG, {FUZZ_STRIDE_BYTES, {3, 3}, 0, 0, FUZZ_STORAGE_EXACT}, CONTIG}, .seed = 113},
    {.name = "inplace_mish_dtype_double", .op = FUZZ_OP_INPLACE, .dtype = (0 << 4) | 3, .rank = 1, .dims = {D(3)},
     .t = {CONTIG, CONTIG, CONTIG}, .seed = 114},
    {.name = "inplace_mish_empty_null_data", .op = FUZZ_OP_INPLACE, .dtype = 0, .rank = 2, .dims = {D(3), D(0)},
     .t = {CONTIG, CONTIG, CONTIG}, .alias = FUZZ_ALIAS_NULL_DATA, .seed = 115},
};

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "fuzz/corpus";
    int failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) failures += write_case(dir, &cases[i]);
    printf("wrote %zu seeds into %s (%d failed)\n", sizeof cases / sizeof cases[0], dir, failures);
    return failures != 0;
}

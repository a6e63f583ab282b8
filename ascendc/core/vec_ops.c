/*
 * ascendc/core/vec_ops.c: the count-based compute instructions of asc_twin/vec.h (unary,
 * binary, tensor-scalar, Duplicate, Compare, CompareScalar, Select). Each one checks its
 * operands (vec_rules.c), records which destination bytes hold written data, then runs its
 * loop: float types through the float32 kernels of vec_math.c in tiles, integer types lane
 * by lane.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mgrt.h"
#include "twin_block.h"
#include "vec_internal.h"

/* Floats per tile when a half or bfloat16 instruction widens to float. */
#define TILE 1024

/* A source as the loop reads it: its bytes and its written-bytes record, either the UB's or
   a snapshot taken when it overlaps the destination where the API forbids it (the
   instruction then reads what the source held before it began). */
typedef struct src_view {
    const uint8_t *bytes;
    twin_sv shadow;
    uint8_t *owned;
    uint32_t *owned_shadow;
} src_view;

static void view_free(src_view *v) {
    mgrt_free(v->owned);
    mgrt_free(v->owned_shadow);
}

static int view_source(const char *api, const twin_operand *dst, const twin_operand *src, int inplace_ok,
                       const char *why, src_view *v) {
    v->bytes = src->ref.addr;
    v->shadow = twin_shadow(src->ref.addr);
    v->owned = NULL;
    v->owned_shadow = NULL;
    int r = twin_check_overlap(api, dst, src, inplace_ok, why);
    if (r <= 0) return r;
    size_t n = (size_t)src->bytes;
    v->owned = mgrt_malloc(n + 1);
    if (v->owned == NULL || twin_sv_snapshot(v->shadow, n, &v->owned_shadow, &v->shadow) != 0) {
        view_free(v);
        asc_twin_report(api, "no memory to snapshot %zu overlapping bytes", n);
        return -1;
    }
    memcpy(v->owned, src->ref.addr, n);
    v->bytes = v->owned;
    return 0;
}

static int dtype_error(const char *api, const char *what, asc_twin_dtype d) {
    asc_twin_report(api, "%s %s is not a type this instruction takes", what, twin_dtype_name(d));
    return -1;
}

static int same_dtype(const char *api, asc_twin_dtype dst, asc_twin_dtype src) {
    if (dst == src) return 0;
    asc_twin_report(api, "destination %s and source %s differ (the instruction takes one type)", twin_dtype_name(dst),
                    twin_dtype_name(src));
    return -1;
}

static int is_int(asc_twin_dtype d) { return d >= ASC_TWIN_I8 && d <= ASC_TWIN_U64; }
static int is_arith_int(asc_twin_dtype d) { return d == ASC_TWIN_I16 || d == ASC_TWIN_I32; }
static int is_signed(asc_twin_dtype d) {
    return d == ASC_TWIN_I8 || d == ASC_TWIN_I16 || d == ASC_TWIN_I32 || d == ASC_TWIN_I64;
}

/* Runs a float kernel over n elements of dtype `dt`: in place on the UB for float32, through
   float tiles for half and bfloat16 (one rounding per instruction). kind 0 unary, 1 binary,
   2 tensor-scalar. */
static void float_loop(int kind, int op, asc_twin_dtype dt, uint8_t *d, const uint8_t *a, const uint8_t *b,
                       float s, size_t n) {
    if (dt == ASC_TWIN_F32) {
        float *fd = (float *)(void *)d;
        const float *fa = (const float *)(const void *)a, *fb = (const float *)(const void *)b;
        if (kind == 0) twin_f32_unary((asc_twin_unary_op)op, fd, fa, n);
        else if (kind == 1) twin_f32_binary((asc_twin_binary_op)op, fd, fa, fb, n);
        else twin_f32_scalar((asc_twin_scalar_op)op, fd, fa, s, n);
        return;
    }
    float ta[TILE], tb[TILE], td[TILE];
    for (size_t at = 0; at < n; at += TILE) {
        size_t m = n - at < TILE ? n - at : TILE;
        twin_load_f32(ta, a + 2 * at, dt, m);
        if (kind == 1) twin_load_f32(tb, b + 2 * at, dt, m);
        if (kind == 0) twin_f32_unary((asc_twin_unary_op)op, td, ta, m);
        else if (kind == 1) twin_f32_binary((asc_twin_binary_op)op, td, ta, tb, m);
        else twin_f32_scalar((asc_twin_scalar_op)op, td, ta, s, m);
        twin_store_f32(d + 2 * at, dt, td, m);
    }
}

/* The in-place restriction of the advanced APIs (Tanh, Sigmoid: "source and destination
   may not overlap" in their docs); the basic ones allow dst == src. */
static int advanced_api(asc_twin_unary_op op) { return op == ASC_TWIN_TANH || op == ASC_TWIN_SIGMOID; }

int asc_twin_unary(const char *api, asc_twin_unary_op op, asc_twin_ub_ref dst, asc_twin_ub_ref src, uint64_t count) {
    uint32_t des = asc_twin_dtype_size(dst.dtype), ses = asc_twin_dtype_size(src.dtype);
    twin_operand ops[2] = {{dst, "destination", count * des, 1}, {src, "source", count * ses, 1}};
    if (twin_check_ub(api, count, ops, 2) != 0) return -1;
    if (same_dtype(api, dst.dtype, src.dtype) != 0) return -1;
    int float_op = op != ASC_TWIN_NOT && !(op == ASC_TWIN_RELU && dst.dtype == ASC_TWIN_I32);
    if (float_op ? !twin_is_float(dst.dtype) : !is_int(dst.dtype)) return dtype_error(api, "type", dst.dtype);
    if ((unsigned)op >= ASC_TWIN_UNARY_COUNT) {
        asc_twin_report(api, "unknown unary instruction %d", (int)op);
        return -1;
    }
    src_view a;
    if (view_source(api, &ops[0], &ops[1], !advanced_api(op), "the API forbids in-place operands", &a) != 0)
        return -1;
    size_t n = (size_t)count;
    twin_propagate(twin_shadow(dst.addr), des, &a.shadow, ses, NULL, 0, n);
    if (float_op) {
        float_loop(0, op, dst.dtype, dst.addr, a.bytes, NULL, 0.0f, n);
    } else {
        for (size_t i = 0; i < n; i++) {
            int64_t v = twin_load_int(a.bytes, src.dtype, i);
            twin_store_int(dst.addr, dst.dtype, i, op == ASC_TWIN_NOT ? ~v : v > 0 ? v : 0);
        }
    }
    view_free(&a);
    return 0;
}

int asc_twin_binary(const char *api, asc_twin_binary_op op, asc_twin_ub_ref dst, asc_twin_ub_ref src0,
                    asc_twin_ub_ref src1, uint64_t count) {
    uint32_t es = asc_twin_dtype_size(dst.dtype);
    twin_operand ops[3] = {{dst, "destination", count * es, 1},
                           {src0, "source 0", count * asc_twin_dtype_size(src0.dtype), 1},
                           {src1, "source 1", count * asc_twin_dtype_size(src1.dtype), 1}};
    if (twin_check_ub(api, count, ops, 3) != 0) return -1;
    if (same_dtype(api, dst.dtype, src0.dtype) != 0 || same_dtype(api, dst.dtype, src1.dtype) != 0) return -1;
    if ((unsigned)op >= ASC_TWIN_BINARY_COUNT) {
        asc_twin_report(api, "unknown binary instruction %d", (int)op);
        return -1;
    }
    int bitwise = op == ASC_TWIN_AND || op == ASC_TWIN_OR;
    int ok = bitwise ? is_int(dst.dtype)
                     : twin_is_float(dst.dtype) ||
                           (op != ASC_TWIN_DIV && op != ASC_TWIN_POWER && is_arith_int(dst.dtype));
    if (!ok) return dtype_error(api, "type", dst.dtype);
    src_view a, b;
    if (view_source(api, &ops[0], &ops[1], 1, "", &a) != 0) return -1;
    if (view_source(api, &ops[0], &ops[2], 1, "", &b) != 0) {
        view_free(&a);
        return -1;
    }
    size_t n = (size_t)count;
    twin_propagate(twin_shadow(dst.addr), es, &a.shadow, es, &b.shadow, es, n);
    if (twin_is_float(dst.dtype)) {
        float_loop(1, op, dst.dtype, dst.addr, a.bytes, b.bytes, 0.0f, n);
    } else {
        for (size_t i = 0; i < n; i++) {
            int64_t x = twin_load_int(a.bytes, dst.dtype, i), y = twin_load_int(b.bytes, dst.dtype, i), r;
            switch (op) {
            case ASC_TWIN_ADD: r = (int64_t)((uint64_t)x + (uint64_t)y); break;
            case ASC_TWIN_SUB: r = (int64_t)((uint64_t)x - (uint64_t)y); break;
            case ASC_TWIN_MUL: r = (int64_t)((uint64_t)x * (uint64_t)y); break;
            case ASC_TWIN_MAX: r = x > y ? x : y; break;
            case ASC_TWIN_MIN: r = x < y ? x : y; break;
            case ASC_TWIN_AND: r = x & y; break;
            default: r = x | y; break;
            }
            twin_store_int(dst.addr, dst.dtype, i, r);
        }
    }
    view_free(&a);
    view_free(&b);
    return 0;
}

int asc_twin_scalar(const char *api, asc_twin_scalar_op op, asc_twin_ub_ref dst, asc_twin_ub_ref src, double scalar,
                    uint64_t count) {
    uint32_t es = asc_twin_dtype_size(dst.dtype);
    twin_operand ops[2] = {{dst, "destination", count * es, 1},
                           {src, "source", count * asc_twin_dtype_size(src.dtype), 1}};
    if (twin_check_ub(api, count, ops, 2) != 0) return -1;
    if (same_dtype(api, dst.dtype, src.dtype) != 0) return -1;
    if ((unsigned)op >= ASC_TWIN_SCALAR_COUNT) {
        asc_twin_report(api, "unknown tensor-scalar instruction %d", (int)op);
        return -1;
    }
    int shift = op == ASC_TWIN_SHIFT_LEFT || op == ASC_TWIN_SHIFT_RIGHT;
    int float_only = op == ASC_TWIN_LEAKY_RELU || op == ASC_TWIN_DIVS || op == ASC_TWIN_POWER_TS ||
                     op == ASC_TWIN_POWER_ST;
    int ok = shift ? is_int(dst.dtype) : twin_is_float(dst.dtype) || (!float_only && is_arith_int(dst.dtype));
    if (!ok) return dtype_error(api, "type", dst.dtype);
    if (shift && !(scalar >= 0 && scalar < 8.0 * es)) {
        asc_twin_report(api, "shift by %g bits, outside [0, %u) for %s", scalar, 8 * es, twin_dtype_name(dst.dtype));
        return -1;
    }
    src_view a;
    if (view_source(api, &ops[0], &ops[1], 1, "", &a) != 0) return -1;
    size_t n = (size_t)count;
    twin_propagate(twin_shadow(dst.addr), es, &a.shadow, es, NULL, 0, n);
    if (twin_is_float(dst.dtype)) {
        /* the scalar has the tensor's type: a half or bfloat16 scalar is exact in float */
        float_loop(2, op, dst.dtype, dst.addr, a.bytes, NULL, twin_scalar_f32(scalar), n);
    } else {
        int64_t s = twin_scalar_i64(scalar);
        uint64_t width_mask = es == 8 ? UINT64_MAX : (((uint64_t)1 << (8 * es)) - 1);
        for (size_t i = 0; i < n; i++) {
            int64_t x = twin_load_int(a.bytes, dst.dtype, i), r;
            switch (op) {
            case ASC_TWIN_ADDS: r = (int64_t)((uint64_t)x + (uint64_t)s); break;
            case ASC_TWIN_MULS: r = (int64_t)((uint64_t)x * (uint64_t)s); break;
            case ASC_TWIN_MAXS: r = x > s ? x : s; break;
            case ASC_TWIN_MINS: r = x < s ? x : s; break;
            case ASC_TWIN_SHIFT_LEFT: r = (int64_t)(((uint64_t)x << s) & width_mask); break;
            default: /* arithmetic for signed lanes, logical for unsigned ones */
                r = is_signed(dst.dtype) ? (x < 0 ? ~(~x >> s) : x >> s) : (int64_t)(((uint64_t)x & width_mask) >> s);
                break;
            }
            twin_store_int(dst.addr, dst.dtype, i, r);
        }
    }
    view_free(&a);
    return 0;
}

int asc_twin_mul_add_dst(asc_twin_ub_ref dst, asc_twin_ub_ref src0, asc_twin_ub_ref src1, uint64_t count) {
    const char *api = "MulAddDst";
    uint32_t es = asc_twin_dtype_size(dst.dtype);
    twin_operand ops[3] = {{dst, "destination", count * es, 1},
                           {src0, "source 0", count * asc_twin_dtype_size(src0.dtype), 1},
                           {src1, "source 1", count * asc_twin_dtype_size(src1.dtype), 1}};
    if (twin_check_ub(api, count, ops, 3) != 0) return -1;
    if (same_dtype(api, dst.dtype, src0.dtype) != 0 || same_dtype(api, dst.dtype, src1.dtype) != 0) return -1;
    if (!twin_is_float(dst.dtype) && !is_arith_int(dst.dtype)) return dtype_error(api, "type", dst.dtype);
    src_view a, b;
    if (view_source(api, &ops[0], &ops[1], 1, "", &a) != 0) return -1;
    if (view_source(api, &ops[0], &ops[2], 1, "", &b) != 0) {
        view_free(&a);
        return -1;
    }
    size_t n = (size_t)count;
    /* dst is a source too: an element is written when dst's, src0's and src1's were */
    twin_sv d = twin_shadow(dst.addr);
    twin_propagate(d, es, &d, es, &a.shadow, es, n);
    twin_propagate(d, es, &d, es, &b.shadow, es, n);
    for (size_t i = 0; i < n; i++) {
        if (twin_is_float(dst.dtype)) {
            float x, y, z;
            twin_load_f32(&x, a.bytes + i * es, dst.dtype, 1);
            twin_load_f32(&y, b.bytes + i * es, dst.dtype, 1);
            twin_load_f32(&z, dst.addr + i * es, dst.dtype, 1);
            /* the product rounded to the type first, then the sum (two instructions' roundings) */
            float p = x * y, r;
            if (dst.dtype != ASC_TWIN_F32) { /* the product of two halves (bfloat16s) is exact in float */
                uint8_t t[2];
                twin_store_f32(t, dst.dtype, &p, 1);
                twin_load_f32(&p, t, dst.dtype, 1);
            }
            r = p + z;
            twin_store_f32(dst.addr + i * es, dst.dtype, &r, 1);
        } else {
            int64_t x = twin_load_int(a.bytes, dst.dtype, i), y = twin_load_int(b.bytes, dst.dtype, i);
            int64_t z = twin_load_int(dst.addr, dst.dtype, i);
            twin_store_int(dst.addr, dst.dtype, i, (int64_t)((uint64_t)x * (uint64_t)y + (uint64_t)z));
        }
    }
    view_free(&a);
    view_free(&b);
    return 0;
}

int asc_twin_duplicate(asc_twin_ub_ref dst, double scalar, uint64_t count) {
    uint32_t es = asc_twin_dtype_size(dst.dtype);
    twin_operand op = {dst, "destination", count * es, 1};
    if (twin_check_ub("Duplicate", count, &op, 1) != 0) return -1;
    if (es == 0) return dtype_error("Duplicate", "type", dst.dtype);
    uint8_t v[8];
    twin_scalar_bytes(dst.dtype, scalar, v);
    size_t n = (size_t)count;
    if (es == 4) {
        uint32_t w;
        memcpy(&w, v, 4);
        uint32_t *d = (uint32_t *)(void *)dst.addr;
        for (size_t i = 0; i < n; i++) d[i] = w;
    } else {
        for (size_t i = 0; i < n; i++) memcpy(dst.addr + i * es, v, es);
    }
    twin_sv_set(twin_shadow(dst.addr), (uint64_t)n * es, 1);
    return 0;
}

static int compare_one(asc_twin_cmp_mode mode, double x, double y) {
    switch (mode) {
    case ASC_TWIN_CMP_LT: return x < y;
    case ASC_TWIN_CMP_GT: return x > y;
    case ASC_TWIN_CMP_EQ: return x == y;
    case ASC_TWIN_CMP_LE: return x <= y;
    case ASC_TWIN_CMP_GE: return x >= y;
    default: return x != y;
    }
}

static double element_value(const uint8_t *p, asc_twin_dtype dt, size_t i) {
    float f;
    if (dt == ASC_TWIN_F32 || dt == ASC_TWIN_F16 || dt == ASC_TWIN_BF16) {
        twin_load_f32(&f, p + i * asc_twin_dtype_size(dt), dt, 1);
        return f;
    }
    return (double)twin_load_int(p, dt, i);
}

/* Compare and CompareScalar: one bit per element, LSB first; the bits past `count` in the
   last byte are 0. A mask byte counts as written when any of its elements' sources were
   (the record has one bit per byte, not per mask bit): kernels compare a count rounded up
   past their data (ops-nn's hard_shrink: 256 bytes' worth) and Select the same count, then
   copy out only their data; with "all" the byte holding the last data elements and the
   first padding ones would make those data elements unwritten. Elements whose sources
   were never written then pass unnoticed when a neighbour's were: the rule errs toward
   silence within one mask byte. */
static int compare_common(const char *api, asc_twin_ub_ref dst, asc_twin_ub_ref src0, const asc_twin_ub_ref *src1,
                          double scalar, asc_twin_cmp_mode mode, uint64_t count) {
    uint32_t es = asc_twin_dtype_size(src0.dtype);
    twin_operand ops[3] = {{dst, "destination mask", (count + 7) / 8, 1},
                           {src0, "source 0", count * es, 1},
                           {src1 ? *src1 : src0, "source 1", count * es, 1}};
    if (twin_check_ub(api, count, ops, src1 ? 3 : 2) != 0) return -1;
    if (src1 && same_dtype(api, src0.dtype, src1->dtype) != 0) return -1;
    if (!twin_is_float(src0.dtype) && !is_arith_int(src0.dtype)) return dtype_error(api, "source type", src0.dtype);
    if ((unsigned)mode > ASC_TWIN_CMP_NE) {
        asc_twin_report(api, "unknown compare mode %d", (int)mode);
        return -1;
    }
    src_view a, b = {NULL, {NULL, 0}, NULL, NULL};
    if (view_source(api, &ops[0], &ops[1], 0, "", &a) != 0) return -1;
    if (src1 && view_source(api, &ops[0], &ops[2], 0, "", &b) != 0) {
        view_free(&a);
        return -1;
    }
    size_t n = (size_t)count, bytes = (n + 7) / 8;
    twin_sv dsh = twin_shadow(dst.addr);
    for (size_t j = 0; j < bytes; j++) {
        size_t from = 8 * j, to = from + 8 < n ? from + 8 : n;
        uint8_t bits = 0;
        int written = 0;
        for (size_t i = from; i < to && !written; i++)
            written = twin_sv_all(twin_sv_at(a.shadow, i * es), es) &&
                      (!src1 || twin_sv_all(twin_sv_at(b.shadow, i * es), es));
        for (size_t i = from; i < to; i++) {
            double y = src1 ? element_value(b.bytes, src0.dtype, i) : scalar;
            bits |= (uint8_t)(compare_one(mode, element_value(a.bytes, src0.dtype, i), y) << (i - from));
        }
        dst.addr[j] = bits;
        twin_sv_set(twin_sv_at(dsh, j), 1, written);
    }
    view_free(&a);
    view_free(&b);
    return 0;
}

int asc_twin_compare(asc_twin_ub_ref dst_mask, asc_twin_ub_ref src0, asc_twin_ub_ref src1, asc_twin_cmp_mode mode,
                     uint64_t count) {
    return compare_common("Compare", dst_mask, src0, &src1, 0.0, mode, count);
}

int asc_twin_compare_scalar(asc_twin_ub_ref dst_mask, asc_twin_ub_ref src0, double scalar, asc_twin_cmp_mode mode,
                            uint64_t count) {
    return compare_common("CompareScalar", dst_mask, src0, NULL, scalar, mode, count);
}

int asc_twin_select(asc_twin_ub_ref dst, asc_twin_ub_ref mask, asc_twin_ub_ref src0, asc_twin_ub_ref src1,
                    double scalar, asc_twin_sel_mode mode, uint64_t count) {
    const char *api = "Select";
    uint32_t es = asc_twin_dtype_size(dst.dtype);
    int tensor1 = src1.addr != NULL;
    twin_operand ops[4] = {{dst, "destination", count * es, 1},
                           {mask, "selection mask", (count + 7) / 8, 1},
                           {src0, "source 0", count * asc_twin_dtype_size(src0.dtype), 1},
                           {src1, "source 1", count * asc_twin_dtype_size(src1.dtype), 1}};
    if (twin_check_ub(api, count, ops, tensor1 ? 4 : 3) != 0) return -1;
    if (same_dtype(api, dst.dtype, src0.dtype) != 0 || (tensor1 && same_dtype(api, dst.dtype, src1.dtype) != 0))
        return -1;
    if (!twin_is_float(dst.dtype) && !is_arith_int(dst.dtype)) return dtype_error(api, "type", dst.dtype);
    if ((unsigned)mode > ASC_TWIN_SEL_TENSOR_TENSOR_MODE) {
        asc_twin_report(api, "unknown selection mode %d", (int)mode);
        return -1;
    }
    src_view m, a, b = {NULL, {NULL, 0}, NULL, NULL};
    if (view_source(api, &ops[0], &ops[1], 0, "", &m) != 0) return -1;
    if (view_source(api, &ops[0], &ops[2], 1, "", &a) != 0) {
        view_free(&m);
        return -1;
    }
    if (tensor1 && view_source(api, &ops[0], &ops[3], 1, "", &b) != 0) {
        view_free(&m);
        view_free(&a);
        return -1;
    }
    uint8_t sv[8];
    twin_scalar_bytes(dst.dtype, scalar, sv);
    twin_sv dsh = twin_shadow(dst.addr);
    for (size_t i = 0; i < (size_t)count; i++) {
        int pick0 = (m.bytes[i / 8] >> (i % 8)) & 1;
        const uint8_t *from = pick0 ? a.bytes + i * es : tensor1 ? b.bytes + i * es : sv;
        /* written when the mask byte was and the element picked was (a scalar always is) */
        int written = twin_sv_all(twin_sv_at(m.shadow, i / 8), 1) &&
                      (pick0 ? twin_sv_all(twin_sv_at(a.shadow, i * es), es)
                             : !tensor1 || twin_sv_all(twin_sv_at(b.shadow, i * es), es));
        memmove(dst.addr + i * es, from, es);
        twin_sv_set(twin_sv_at(dsh, i * es), es, written);
    }
    view_free(&m);
    view_free(&a);
    view_free(&b);
    return 0;
}

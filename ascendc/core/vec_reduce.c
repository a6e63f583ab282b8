/*
 * ascendc/core/vec_reduce.c: the reductions of asc_twin/vec.h: ReduceSum / ReduceMax /
 * ReduceMin over a count, and the level-0 WholeReduce* / BlockReduce*, whose lanes come from
 * the block's vector mask (normal mode: a lane bitmask per repeat; counter mode: a number of
 * elements over as many repeats as it takes) or from the call, laid out by repeat and block
 * strides. Sums are taken in double and rounded once to the element type; max and min are
 * exact. Every source lane is read before anything is written, so dst may overlap src.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mgrt.h"
#include "twin_block.h"
#include "vec_internal.h"

static unsigned long long ull(uint64_t v) { return (unsigned long long)v; }

static int float_type(const char *api, asc_twin_dtype dst, asc_twin_dtype src) {
    if (dst != src) {
        asc_twin_report(api, "destination %s and source %s differ (the instruction takes one type)",
                        twin_dtype_name(dst), twin_dtype_name(src));
        return -1;
    }
    if (src != ASC_TWIN_F32 && src != ASC_TWIN_F16) {
        asc_twin_report(api, "type %s is not one this instruction takes (half, float)", twin_dtype_name(src));
        return -1;
    }
    return 0;
}

static double load_one(const uint8_t *p, asc_twin_dtype dt) {
    float f;
    twin_load_f32(&f, p, dt, 1);
    return f;
}

/* v rounded once to the element type, nearest, ties to even (overflow to infinity). */
static void store_once(uint8_t *dst, asc_twin_dtype dt, double v) {
    float f = (float)v;
    if (dt == ASC_TWIN_F32) {
        memcpy(dst, &f, 4);
        return;
    }
    uint8_t b[2];
    twin_store_f32(b, dt, &f, 1);
    uint16_t h;
    memcpy(&h, b, 2);
    /* float's own rounding may have moved v onto a tie of the narrower type: pick the
       nearest of h and its two neighbours against v itself */
    if (isfinite(v) && isfinite(load_one(b, dt))) {
        uint16_t best = h;
        double bd = fabs(load_one(b, dt) - v);
        for (int step = -1; step <= 1; step += 2) {
            uint16_t c = (uint16_t)(h + step);
            if (((c ^ h) & 0x8000u) != 0) continue;
            uint8_t cb[2];
            memcpy(cb, &c, 2);
            double cv = load_one(cb, dt);
            if (!isfinite(cv)) continue;
            double d = fabs(cv - v);
            if (d < bd || (d == bd && (c & 1u) == 0)) best = c, bd = d;
        }
        h = best;
    }
    memcpy(dst, &h, 2);
}

/* An index stored as the integer bits of the element width (CANN: read it through an
   integer view). */
static void store_index(uint8_t *dst, uint32_t es, uint64_t index) {
    if (es == 2) {
        uint16_t v = (uint16_t)index;
        memcpy(dst, &v, 2);
    } else {
        uint32_t v = (uint32_t)index;
        memcpy(dst, &v, 4);
    }
}

/* Folds one element into a running reduction: sum, or max/min keeping the first index
   of the result; a NaN wins and stays. */
typedef struct acc {
    double v;
    uint64_t index;
    uint64_t n;
    int written;
} acc;
static void acc_add(acc *a, asc_twin_reduce_op op, double x, uint64_t index, int written) {
    a->written = a->written && written;
    if (a->n++ == 0) {
        a->v = x;
        a->index = index;
        return;
    }
    if (op == ASC_TWIN_REDUCE_SUM) {
        a->v += x;
    } else if (a->v == a->v) {
        if (x != x || (op == ASC_TWIN_REDUCE_MAX ? x > a->v : x < a->v)) {
            a->v = x;
            a->index = index;
        }
    }
}

int asc_twin_reduce(const char *api, asc_twin_reduce_op op, asc_twin_ub_ref dst, asc_twin_ub_ref src, uint64_t count,
                    int cal_index) {
    uint32_t es = asc_twin_dtype_size(src.dtype);
    int with_index = cal_index && op != ASC_TWIN_REDUCE_SUM;
    /* dst: the value (and the index) only; CANN asks 4 (half) or 8 (float) byte alignment,
       which every element-aligned start of one or two elements meets in the twin's check */
    twin_operand ops[2] = {{dst, "destination", (uint64_t)(with_index ? 2 : 1) * es, 0},
                           {src, "source", count * es, 1}};
    if (twin_check_ub(api, count, ops, 2) != 0) return -1;
    if (float_type(api, dst.dtype, src.dtype) != 0) return -1;
    if ((unsigned)op > ASC_TWIN_REDUCE_MIN) {
        asc_twin_report(api, "unknown reduction %d", (int)op);
        return -1;
    }
    if (count == 0) {
        asc_twin_report(api, "count 0: nothing to reduce");
        return -1;
    }
    acc a = {0.0, 0, 0, 1};
    twin_sv ssh = twin_shadow(src.addr);
    a.written = twin_sv_all(ssh, count * es);
    for (uint64_t i = 0; i < count; i++) acc_add(&a, op, load_one(src.addr + i * es, src.dtype), i, 1);
    store_once(dst.addr, dst.dtype, a.v);
    if (with_index) store_index(dst.addr + es, es, a.index);
    twin_sv_set(twin_shadow(dst.addr), (uint64_t)(with_index ? 2 : 1) * es, a.written);
    return 0;
}

/* ---- level 0 ---------------------------------------------------------------------- */

/* The lanes of one call: per repeat, which of its lanes are on. */
typedef struct lanes {
    int counter;
    uint64_t total;   /* counter mode: elements over all repeats */
    uint64_t hi, lo;  /* normal mode: the lane bitmask */
    uint64_t repeats;
    uint32_t per_rep; /* lanes per repeat: 256 bytes' worth */
} lanes;

static int lane_on(const lanes *l, uint64_t r, uint32_t j) {
    if (l->counter) return r * l->per_rep + j < l->total;
    return j < 64 ? (int)((l->lo >> j) & 1u) : (int)((l->hi >> (j - 64)) & 1u);
}

static int lanes_of(const char *api, const asc_twin_repeat *rp, uint32_t es, lanes *l) {
    l->per_rep = 256 / es;
    l->counter = asc_twin_mask_counter();
    uint64_t shi, slo;
    asc_twin_vector_mask(&shi, &slo);
    if (rp->mask_kind < 0 || rp->mask_kind > 2) {
        asc_twin_report(api, "unknown mask kind %d", rp->mask_kind);
        return -1;
    }
    if (rp->dst_rep_stride < 0 || rp->src_blk_stride < 0 || rp->src_rep_stride < 0) {
        asc_twin_report(api, "negative stride (dstRepStride %d, srcBlkStride %d, srcRepStride %d)", rp->dst_rep_stride,
                        rp->src_blk_stride, rp->src_rep_stride);
        return -1;
    }
    if (l->counter) {
        /* counter mode: the mask is a count of elements; the repeat count follows from it */
        l->total = rp->mask_kind == 0 ? slo : rp->mask_kind == 1 ? rp->mask_count : rp->mask_lo;
        l->repeats = (l->total + l->per_rep - 1) / l->per_rep;
        l->hi = l->lo = 0;
        return 0;
    }
    if (rp->repeat_times < 0 || rp->repeat_times > 255) {
        asc_twin_report(api, "repeatTime %d outside [0, 255]", rp->repeat_times);
        return -1;
    }
    l->repeats = (uint64_t)rp->repeat_times;
    l->total = 0;
    if (rp->mask_kind == 1) {
        if (rp->mask_count < 1 || rp->mask_count > l->per_rep) {
            asc_twin_report(api, "mask %llu outside [1, %u] for %u-byte elements", ull(rp->mask_count), l->per_rep, es);
            return -1;
        }
        l->lo = rp->mask_count >= 64 ? UINT64_MAX : (((uint64_t)1 << rp->mask_count) - 1);
        /* the high word's lanes 64 .. count - 1, as the word's top bits cleared (a shift below 64) */
        l->hi = rp->mask_count <= 64    ? 0
                : rp->mask_count >= 128 ? UINT64_MAX
                                        : UINT64_MAX >> (128 - rp->mask_count);
    } else {
        l->hi = rp->mask_kind == 0 ? shi : rp->mask_hi;
        l->lo = rp->mask_kind == 0 ? slo : rp->mask_lo;
    }
    if (es == 4) l->hi = 0; /* 64 lanes: the high word is not used */
    return 0;
}

/* Byte offset of lane j of repeat r from the source's start. */
static uint64_t lane_offset(const asc_twin_repeat *rp, uint32_t es, uint64_t r, uint32_t j) {
    uint32_t per_blk = 32 / es;
    return r * (uint64_t)rp->src_rep_stride * 32 + (uint64_t)(j / per_blk) * (uint64_t)rp->src_blk_stride * 32 +
           (uint64_t)(j % per_blk) * es;
}

/* One result: element `at` of dst gets v (or an index). */
typedef struct result {
    uint64_t at;
    double v;
    uint64_t index;
    int is_index, written;
} result;

/* Runs a level-0 reduction: `groups` lanes per result group (8 blocks: per_blk lanes each;
   whole: all lanes of a repeat in one group); places each group's result through `place`. */
static int level0(const char *api, asc_twin_reduce_op op, asc_twin_ub_ref dst, asc_twin_ub_ref src,
                  const asc_twin_repeat *rp, int whole, asc_twin_reduce_order order) {
    if (asc_twin_ub_base() == NULL || asc_twin_block_aborted()) return -1;
    uint32_t es = asc_twin_dtype_size(src.dtype);
    if (float_type(api, dst.dtype, src.dtype) != 0) return -1;
    if ((unsigned)op > ASC_TWIN_REDUCE_MIN || (unsigned)order > ASC_TWIN_ORDER_ONLY_INDEX) {
        asc_twin_report(api, "unknown reduction %d or order %d", (int)op, (int)order);
        return -1;
    }
    lanes l;
    if (lanes_of(api, rp, es, &l) != 0) return -1;
    uint32_t per_blk = 32 / es, groups = whole ? 1 : 8, per_group = whole ? l.per_rep : per_blk;
    int with_value = op == ASC_TWIN_REDUCE_SUM || order != ASC_TWIN_ORDER_ONLY_INDEX;
    int with_index = op != ASC_TWIN_REDUCE_SUM && order != ASC_TWIN_ORDER_ONLY_VALUE;
    uint64_t res_len = (uint64_t)with_value + (uint64_t)with_index;
    /* the source's extent (the last active lane's end) */
    uint64_t src_end = 0, n_results = 0;
    for (uint64_t r = 0; r < l.repeats; r++) {
        for (uint32_t g = 0; g < groups; g++) {
            int any = 0;
            for (uint32_t j = g * per_group; j < (g + 1) * per_group; j++) {
                if (!lane_on(&l, r, j)) continue;
                uint64_t end = lane_offset(rp, es, r, j) + es;
                if (end > src_end) src_end = end;
                any = 1;
            }
            n_results += any ? res_len : 0;
        }
    }
    if (n_results == 0) return 0;
    result *out = mgrt_malloc(n_results * sizeof *out);
    if (out == NULL) {
        asc_twin_report(api, "no memory for %llu results", ull(n_results));
        return -1;
    }
    /* the source's lanes lie within [src, src + src_end): checked before any is read */
    twin_operand sop = {src, "source", src_end, 1};
    if (twin_check_ub(api, src_end / es, &sop, 1) != 0) {
        mgrt_free(out);
        return -1;
    }
    twin_sv ssh = twin_shadow(src.addr);
    uint64_t k = 0, dst_end = 0;
    for (uint64_t r = 0; r < l.repeats; r++) {
        for (uint32_t g = 0; g < groups; g++) {
            acc a = {0.0, 0, 0, 1};
            for (uint32_t j = g * per_group; j < (g + 1) * per_group; j++) {
                if (!lane_on(&l, r, j)) continue;
                uint64_t off = lane_offset(rp, es, r, j);
                acc_add(&a, op, load_one(src.addr + off, src.dtype), j, twin_sv_all(twin_sv_at(ssh, off), es));
            }
            if (a.n == 0) continue;
            /* WholeReduce: dstRepStride in results; BlockReduce: in 32-byte blocks, 8 results each */
            uint64_t at = whole ? r * (uint64_t)rp->dst_rep_stride * res_len
                                : r * (uint64_t)rp->dst_rep_stride * per_blk + g;
            int index_first = order == ASC_TWIN_ORDER_INDEX_VALUE;
            if (with_value) out[k++] = (result){at + (uint64_t)(with_index && index_first), a.v, 0, 0, a.written};
            if (with_index) out[k++] = (result){at + (uint64_t)(with_value && !index_first), 0.0, a.index, 1, a.written};
            if (at + res_len > dst_end) dst_end = at + res_len;
        }
    }
    twin_operand dop = {dst, "destination", dst_end * es, 0};
    if (twin_check_ub(api, dst_end, &dop, 1) != 0) {
        mgrt_free(out);
        return -1;
    }
    twin_sv dsh = twin_shadow(dst.addr);
    for (uint64_t i = 0; i < k; i++) {
        uint8_t *p = dst.addr + out[i].at * es;
        if (out[i].is_index) store_index(p, es, out[i].index);
        else store_once(p, dst.dtype, out[i].v);
        twin_sv_set(twin_sv_at(dsh, out[i].at * es), es, out[i].written);
    }
    mgrt_free(out);
    return 0;
}

int asc_twin_whole_reduce(const char *api, asc_twin_reduce_op op, asc_twin_ub_ref dst, asc_twin_ub_ref src,
                          const asc_twin_repeat *rp, asc_twin_reduce_order order) {
    return level0(api, op, dst, src, rp, 1, op == ASC_TWIN_REDUCE_SUM ? ASC_TWIN_ORDER_ONLY_VALUE : order);
}

int asc_twin_block_reduce(const char *api, asc_twin_reduce_op op, asc_twin_ub_ref dst, asc_twin_ub_ref src,
                          const asc_twin_repeat *rp) {
    return level0(api, op, dst, src, rp, 0, ASC_TWIN_ORDER_ONLY_VALUE);
}

/* ---- level-0 elementwise forms -------------------------------------------------------- */

static uint64_t l0_offset(const asc_twin_l0_strides *st, int o, uint32_t es, uint64_t r, uint32_t j) {
    uint32_t per_blk = 32 / es;
    return r * (uint64_t)st->rep[o] * 32 + (uint64_t)(j / per_blk) * (uint64_t)st->blk[o] * 32 +
           (uint64_t)(j % per_blk) * es;
}

int asc_twin_level0(const char *api, int kind, int op, asc_twin_ub_ref dst, asc_twin_ub_ref src0, asc_twin_ub_ref src1,
                    double scalar, const asc_twin_repeat *rp, const asc_twin_l0_strides *st) {
    if (asc_twin_ub_base() == NULL || asc_twin_block_aborted()) return -1;
    int nops = kind == 1 ? 3 : 2;
    if (float_type(api, dst.dtype, src0.dtype) != 0 || (kind == 1 && float_type(api, dst.dtype, src1.dtype) != 0))
        return -1;
    int known = kind == 0 ? (unsigned)op < ASC_TWIN_UNARY_COUNT && op != ASC_TWIN_NOT
              : kind == 1 ? (unsigned)op < ASC_TWIN_BINARY_COUNT && op != ASC_TWIN_AND && op != ASC_TWIN_OR
              : kind == 2 ? (unsigned)op < ASC_TWIN_SCALAR_COUNT && op != ASC_TWIN_SHIFT_LEFT &&
                                op != ASC_TWIN_SHIFT_RIGHT
                          : 0;
    if (!known) {
        asc_twin_report(api, "instruction %d of kind %d has no level-0 float form in the twin", op, kind);
        return -1;
    }
    for (int o = 0; o < nops; o++) {
        if (st->blk[o] < 0 || st->rep[o] < 0) {
            asc_twin_report(api, "negative stride (operand %d: block %d, repeat %d)", o, st->blk[o], st->rep[o]);
            return -1;
        }
    }
    uint32_t es = asc_twin_dtype_size(dst.dtype);
    lanes l;
    asc_twin_repeat only_mask = *rp;
    only_mask.dst_rep_stride = only_mask.src_blk_stride = only_mask.src_rep_stride = 0;
    if (lanes_of(api, &only_mask, es, &l) != 0) return -1;
    /* each operand's extent: the last active lane's end over all repeats */
    uint64_t end[3] = {0, 0, 0};
    int any = 0;
    for (uint64_t r = 0; r < l.repeats; r++) {
        for (uint32_t j = 0; j < l.per_rep; j++) {
            if (!lane_on(&l, r, j)) continue;
            any = 1;
            for (int o = 0; o < nops; o++) {
                uint64_t e = l0_offset(st, o, es, r, j) + es;
                if (e > end[o]) end[o] = e;
            }
        }
    }
    if (!any) return 0;
    static const char *roles[3] = {"destination", "source 0", "source 1"};
    asc_twin_ub_ref refs[3] = {dst, src0, src1};
    twin_operand ops[3];
    for (int o = 0; o < nops; o++) ops[o] = (twin_operand){refs[o], roles[o], end[o], 1};
    if (twin_check_ub(api, end[0] / es, ops, nops) != 0) return -1;
    twin_sv sh[3];
    for (int o = 0; o < nops; o++) sh[o] = twin_shadow(refs[o].addr);
    float a[128], b[128], d[128];
    int w[128];
    uint32_t lane[128];
    float s = twin_scalar_f32(scalar);
    for (uint64_t r = 0; r < l.repeats; r++) {
        uint32_t m = 0;
        for (uint32_t j = 0; j < l.per_rep; j++) {
            if (!lane_on(&l, r, j)) continue;
            uint64_t o1 = l0_offset(st, 1, es, r, j);
            twin_load_f32(&a[m], src0.addr + o1, src0.dtype, 1);
            w[m] = twin_sv_all(twin_sv_at(sh[1], o1), es);
            if (kind == 1) {
                uint64_t o2 = l0_offset(st, 2, es, r, j);
                twin_load_f32(&b[m], src1.addr + o2, src1.dtype, 1);
                w[m] = w[m] && twin_sv_all(twin_sv_at(sh[2], o2), es);
            }
            lane[m++] = j;
        }
        if (kind == 0) twin_f32_unary((asc_twin_unary_op)op, d, a, m);
        else if (kind == 1) twin_f32_binary((asc_twin_binary_op)op, d, a, b, m);
        else twin_f32_scalar((asc_twin_scalar_op)op, d, a, s, m);
        for (uint32_t k = 0; k < m; k++) {
            uint64_t o0 = l0_offset(st, 0, es, r, lane[k]);
            twin_store_f32(dst.addr + o0, dst.dtype, &d[k], 1);
            twin_sv_set(twin_sv_at(sh[0], o0), es, w[k]);
        }
    }
    return 0;
}

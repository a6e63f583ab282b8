/*
 * ascendc/core/vec_copy.c: the data moves of asc_twin/vec.h (DataCopy GM<->UB and UB<->UB,
 * its DataCopyParams form, DataCopyPad) and the scalar accesses (GetValue / SetValue on UB and
 * GM). GM ranges are checked against SetGlobalBuffer's size and the real allocation; bytes
 * leaving the UB for GM or a scalar must have been written.
 *
 * DataCopyPad's UB layout (CANN's DataCopyPad docs): each of block_count blocks occupies
 * left padding + block_len bytes + right padding, rounded up to 32 bytes, then dst_stride
 * 32-byte blocks of gap. Padding elements hold pad_value when is_pad; otherwise they, and the
 * rounding bytes, are left unwritten (the device leaves them undefined).
 *
 * Under SetAtomicAdd/Max/Min a UB->GM move combines each element with GM's (gm_store): one
 * process-wide lock serialises those moves, so concurrent blocks accumulating into the same
 * GM lose no update; plain moves stay lock-free memcpy.
 */
#define _GNU_SOURCE /* PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP (rt_lock.h) */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rt_lock.h"
#include "twin_block.h"
#include "vec_internal.h"

static unsigned long long ull(uint64_t v) { return (unsigned long long)v; }

static int same_type(const char *api, asc_twin_dtype a, asc_twin_dtype b) {
    if (a == b) return 0;
    asc_twin_report(api, "destination %s and source %s differ (a copy moves one type)", twin_dtype_name(a),
                    twin_dtype_name(b));
    return -1;
}

/* DataCopy's count form: a whole number of 32-byte blocks. */
static int count_form(uint64_t count, asc_twin_dtype dt, uint64_t *bytes) {
    *bytes = count * asc_twin_dtype_size(dt);
    if (*bytes % 32 == 0) return 0;
    asc_twin_report("DataCopy", "count %llu elements (%llu bytes) is not a multiple of 32 bytes", ull(count),
                    ull(*bytes));
    return -1;
}

/* The count form's UB side: the block is running, one type on both sides, whole 32-byte
   blocks, and the UB tensor (`role`) holds them in the UB, aligned. The type message names
   the move's destination first, whichever side the UB tensor is. */
static int count_ub_side(const char *role, asc_twin_ub_ref t, asc_twin_dtype other, uint64_t count, uint64_t *bytes) {
    int ub_is_dst = strcmp(role, "destination") == 0;
    if (!twin_block_runs() || same_type("DataCopy", ub_is_dst ? t.dtype : other, ub_is_dst ? other : t.dtype) != 0 ||
        count_form(count, t.dtype, bytes) != 0)
        return -1;
    const twin_operand op = {t, role, *bytes, 1};
    return twin_check_ub("DataCopy", count, &op, 1);
}

static pthread_mutex_t atomic_lock = RT_MUTEX_INITIALIZER;

/* The atomic mode's rule, checked before a UB->GM move writes anything: the move's element
   type is the one SetAtomic* named (the device would combine the bytes as that type). */
static int atomic_check(const char *api, asc_twin_dtype moved) {
    asc_twin_dtype at;
    asc_twin_atomic_op op = asc_twin_atomic(&at);
    if (op == ASC_TWIN_ATOMIC_NONE || at == moved) return 0;
    asc_twin_report(api, "moves %s to GM while %s<%s> is set (the atomic type must be the moved one)",
                    twin_dtype_name(moved), twin_atomic_name(op), twin_dtype_name(at));
    return -1;
}

static void combine_int(asc_twin_atomic_op op, uint8_t *g, const uint8_t *u, asc_twin_dtype dt, size_t n) {
    for (size_t i = 0; i < n; i++) {
        int64_t a = twin_load_int(g, dt, i), b = twin_load_int(u, dt, i);
        /* the sum wraps to the element width, as the device's integer lanes do */
        int64_t r = op == ASC_TWIN_ATOMIC_ADD   ? (int64_t)((uint64_t)a + (uint64_t)b)
                    : op == ASC_TWIN_ATOMIC_MAX ? (a > b ? a : b)
                                                : (a < b ? a : b);
        twin_store_int(g, dt, i, r);
    }
}

/* n bytes from the UB to GM at g: a copy, or under an atomic mode element by element
   g[i] = g[i] (+, max, min) u[i] in the mode's type. A float sum is computed in float and
   rounded once to half/bfloat16 (exactly the correctly rounded half/bf16 sum: float's
   precision is at least twice theirs plus two); max/min give NaN when either side is NaN. */
static void gm_store(uint8_t *g, const uint8_t *u, uint64_t n) {
    asc_twin_dtype dt;
    asc_twin_atomic_op op = asc_twin_atomic(&dt);
    if (op == ASC_TWIN_ATOMIC_NONE) {
        memcpy(g, u, (size_t)n);
        return;
    }
    uint32_t es = asc_twin_dtype_size(dt);
    size_t count = (size_t)(n / es);
    RT_LOCK(&atomic_lock);
    if (!twin_is_float(dt)) {
        combine_int(op, g, u, dt, count);
    } else {
        float a[256], b[256];
        for (size_t at = 0; at < count; at += 256) {
            size_t k = count - at < 256 ? count - at : 256;
            twin_load_f32(a, g + at * es, dt, k);
            twin_load_f32(b, u + at * es, dt, k);
            for (size_t i = 0; i < k; i++) {
                if (op == ASC_TWIN_ATOMIC_ADD) a[i] += b[i];
                else if (a[i] != a[i] || b[i] != b[i]) a[i] = a[i] != a[i] ? a[i] : b[i]; /* the NaN */
                else if (op == ASC_TWIN_ATOMIC_MAX) a[i] = a[i] > b[i] ? a[i] : b[i];
                else a[i] = a[i] < b[i] ? a[i] : b[i];
            }
            twin_store_f32(g + at * es, dt, a, k);
        }
    }
    RT_UNLOCK(&atomic_lock);
}

int asc_twin_copy_gm_to_ub(asc_twin_ub_ref dst, asc_twin_gm_ref src, uint64_t count) {
    uint64_t bytes, real;
    if (count_ub_side("destination", dst, src.dtype, count, &bytes) != 0 ||
        twin_check_gm_copy("DataCopy", "source", src, 0, bytes, &real) != 0)
        return -1;
    memcpy(dst.addr, src.addr, (size_t)real);
    memset(dst.addr + real, 0, (size_t)(bytes - real)); /* aclrtMalloc's padding, read as zeros */
    twin_sv_set(twin_shadow(dst.addr), bytes, 1);
    return 0;
}

int asc_twin_copy_ub_to_gm(asc_twin_gm_ref dst, asc_twin_ub_ref src, uint64_t count) {
    uint64_t bytes, real;
    if (count_ub_side("source", src, dst.dtype, count, &bytes) != 0 ||
        twin_check_gm_copy("DataCopy", "destination", dst, 0, bytes, &real) != 0 ||
        twin_check_written("DataCopy", "the source tensor", src.addr, bytes, "to GM") != 0 ||
        atomic_check("DataCopy", src.dtype) != 0)
        return -1;
    gm_store(dst.addr, src.addr, real); /* bytes past real fall in aclrtMalloc's padding */
    return 0;
}

int asc_twin_copy_ub_to_ub(asc_twin_ub_ref dst, asc_twin_ub_ref src, uint64_t count) {
    uint64_t bytes;
    if (!twin_block_runs() || same_type("DataCopy", dst.dtype, src.dtype) != 0 ||
        count_form(count, dst.dtype, &bytes) != 0)
        return -1;
    const twin_operand ops[2] = {{dst, "destination", bytes, 1}, {src, "source", bytes, 1}};
    if (twin_check_ub("DataCopy", count, ops, 2) != 0 || twin_check_overlap("DataCopy", &ops[0], &ops[1], 1, "") < 0)
        return -1;
    memmove(dst.addr, src.addr, (size_t)bytes);
    twin_sv_copy(twin_shadow(dst.addr), twin_shadow(src.addr), bytes);
    return 0;
}

/* The block geometry of a params copy, checked: lengths and gaps in bytes. */
typedef struct geometry {
    uint64_t count, len, gm_gap, ub_gap, ub_block, ub_span, gm_span;
} geometry;

static int geometry_of(const char *api, const asc_twin_copy_params *p, uint32_t es, uint32_t pad_bytes,
                       int gm_is_src, geometry *g) {
    if (p == NULL || (p->unit_bytes != 1 && p->unit_bytes != 32)) {
        asc_twin_report(api, "copy parameters missing or with a unit of %u bytes (1 or 32)", p ? p->unit_bytes : 0);
        return -1;
    }
    int64_t gm_stride = gm_is_src ? p->src_stride : p->dst_stride, ub_stride = gm_is_src ? p->dst_stride : p->src_stride;
    if (gm_stride < 0 || ub_stride < 0) {
        asc_twin_report(api, "negative stride (srcStride %lld, dstStride %lld)", (long long)p->src_stride,
                        (long long)p->dst_stride);
        return -1;
    }
    g->count = p->block_count;
    g->len = (uint64_t)p->block_len * p->unit_bytes;
    g->gm_gap = (uint64_t)gm_stride * p->unit_bytes;
    g->ub_gap = (uint64_t)ub_stride * 32;
    g->ub_block = (g->len + pad_bytes + 31) / 32 * 32;
    if (g->count == 0 || g->len == 0) {
        g->ub_span = g->gm_span = 0;
        return 0;
    }
    g->ub_span = (g->count - 1) * (g->ub_block + g->ub_gap) + g->ub_block;
    g->gm_span = (g->count - 1) * (g->len + g->gm_gap) + g->len;
    if (g->len % es != 0) {
        asc_twin_report(api, "blockLen %llu bytes is not a whole number of %u-byte elements", ull(g->len), es);
        return -1;
    }
    return 0;
}

static int params_capacity(const char *api, const char *role, asc_twin_ub_ref t, const geometry *g) {
    if (g->ub_span <= t.capacity_bytes) return 0;
    asc_twin_report(api, "%llu blocks of %llu bytes span %llu bytes of UB, beyond the %s tensor's %llu bytes",
                    ull(g->count), ull(g->len), ull(g->ub_span), role, ull(t.capacity_bytes));
    return -1;
}

/* Of `len` GM bytes at offset m of a data move whose first `real` bytes lie in the block
   (twin_check_gm_copy), how many do; the rest fall in aclrtMalloc's padding. */
static uint64_t in_block_of(uint64_t m, uint64_t len, uint64_t real) {
    return m >= real ? 0 : real - m < len ? real - m : len;
}

int asc_twin_copy_gm_to_ub_params(const char *api, asc_twin_ub_ref dst, asc_twin_gm_ref src,
                                  const asc_twin_copy_params *p, const asc_twin_pad_params *pad) {
    uint32_t es = asc_twin_dtype_size(dst.dtype);
    if (!twin_block_runs() || same_type(api, dst.dtype, src.dtype) != 0) return -1;
    uint32_t left = pad ? pad->left_padding : 0, right = pad ? pad->right_padding : 0;
    if ((uint64_t)left * es > 32 || (uint64_t)right * es > 32) {
        asc_twin_report(api, "padding of %u and %u elements exceeds 32 bytes a side", left, right);
        return -1;
    }
    geometry g;
    if (geometry_of(api, p, es, (left + right) * es, 1, &g) != 0 || params_capacity(api, "destination", dst, &g) != 0)
        return -1;
    const twin_operand op = {dst, "destination", g.ub_span, 1};
    uint64_t real;
    if (twin_check_ub(api, g.ub_span / es, &op, 1) != 0 ||
        twin_check_gm_copy(api, "source", src, 0, g.gm_span, &real) != 0)
        return -1;
    twin_sv sh = twin_shadow(dst.addr);
    uint8_t pv[8];
    if (pad && pad->is_pad) twin_scalar_bytes(dst.dtype, pad->pad_value, pv);
    for (uint64_t b = 0; b < g.count && g.len > 0; b++) {
        uint64_t u = b * (g.ub_block + g.ub_gap), m = b * (g.len + g.gm_gap);
        uint64_t n = in_block_of(m, g.len, real);
        memcpy(dst.addr + u + (uint64_t)left * es, src.addr + m, (size_t)n);
        memset(dst.addr + u + (uint64_t)left * es + n, 0, (size_t)(g.len - n));
        twin_sv_set(twin_sv_at(sh, u + (uint64_t)left * es), g.len, 1);
        if (pad && pad->is_pad) {
            for (uint32_t k = 0; k < left; k++) memcpy(dst.addr + u + (uint64_t)k * es, pv, es);
            for (uint32_t k = 0; k < right; k++) memcpy(dst.addr + u + (uint64_t)left * es + g.len + (uint64_t)k * es, pv, es);
            twin_sv_set(twin_sv_at(sh, u), (uint64_t)left * es, 1);
            twin_sv_set(twin_sv_at(sh, u + (uint64_t)left * es + g.len), (uint64_t)right * es, 1);
        }
    }
    return 0;
}

int asc_twin_copy_ub_to_gm_params(const char *api, asc_twin_gm_ref dst, asc_twin_ub_ref src,
                                  const asc_twin_copy_params *p) {
    uint32_t es = asc_twin_dtype_size(src.dtype);
    if (!twin_block_runs() || same_type(api, dst.dtype, src.dtype) != 0) return -1;
    geometry g;
    if (geometry_of(api, p, es, 0, 0, &g) != 0 || params_capacity(api, "source", src, &g) != 0) return -1;
    const twin_operand op = {src, "source", g.ub_span, 1};
    uint64_t real;
    if (twin_check_ub(api, g.ub_span / es, &op, 1) != 0 ||
        twin_check_gm_copy(api, "destination", dst, 0, g.gm_span, &real) != 0)
        return -1;
    for (uint64_t b = 0; b < g.count && g.len > 0; b++)
        if (twin_check_written(api, "the source tensor", src.addr + b * (g.ub_block + g.ub_gap), g.len, "to GM") != 0) return -1;
    if (atomic_check(api, src.dtype) != 0) return -1;
    for (uint64_t b = 0; b < g.count && g.len > 0; b++) {
        uint64_t m = b * (g.len + g.gm_gap);
        uint64_t n = in_block_of(m, g.len, real);
        gm_store(dst.addr + m, src.addr + b * (g.ub_block + g.ub_gap), n);
    }
    return 0;
}

/* ---- scalar access ------------------------------------------------------------------- */

static double load_value(const uint8_t *p, asc_twin_dtype dt) {
    if (twin_is_float(dt)) {
        float f;
        twin_load_f32(&f, p, dt, 1);
        return f;
    }
    return (double)twin_load_int(p, dt, 0);
}

static int scalar_operand(const char *api, asc_twin_ub_ref t, uint64_t index) {
    uint32_t es = asc_twin_dtype_size(t.dtype);
    if (es == 0) {
        asc_twin_report(api, "unknown element type %d", (int)t.dtype);
        return -1;
    }
    if (index >= t.capacity_bytes / es) {
        asc_twin_report(api, "index %llu is past the tensor's %llu elements", ull(index), ull(t.capacity_bytes / es));
        return -1;
    }
    twin_operand op = {t, "tensor", es, 0};
    op.ref.addr = t.addr + index * es;
    op.ref.capacity_bytes = es;
    return twin_check_ub(api, 1, &op, 1);
}

int asc_twin_get_value(asc_twin_ub_ref t, uint64_t index, double *value) {
    if (scalar_operand("GetValue", t, index) != 0) return -1;
    uint32_t es = asc_twin_dtype_size(t.dtype);
    const uint8_t *p = t.addr + index * es;
    char role[48];
    snprintf(role, sizeof role, "element %llu", ull(index));
    if (twin_check_written("GetValue", role, p, es, "to a scalar") != 0) return -1;
    *value = load_value(p, t.dtype);
    return 0;
}

int asc_twin_set_value(asc_twin_ub_ref t, uint64_t index, double value) {
    if (scalar_operand("SetValue", t, index) != 0) return -1;
    uint32_t es = asc_twin_dtype_size(t.dtype);
    uint8_t v[8];
    twin_scalar_bytes(t.dtype, value, v);
    memcpy(t.addr + index * es, v, es);
    twin_sv_set(twin_shadow(t.addr + index * es), es, 1);
    return 0;
}

int asc_twin_gm_get_value(asc_twin_gm_ref t, uint64_t index, double *value) {
    uint32_t es = asc_twin_dtype_size(t.dtype);
    if (asc_twin_ub_base() == NULL || asc_twin_block_aborted() || es == 0 || index > UINT64_MAX / es ||
        twin_check_gm("GetValue", "tensor", t, index * es, es) != 0)
        return -1;
    *value = load_value(t.addr + index * es, t.dtype);
    return 0;
}

int asc_twin_gm_set_value(asc_twin_gm_ref t, uint64_t index, double value) {
    uint32_t es = asc_twin_dtype_size(t.dtype);
    if (asc_twin_ub_base() == NULL || asc_twin_block_aborted() || es == 0 || index > UINT64_MAX / es ||
        twin_check_gm("SetValue", "tensor", t, index * es, es) != 0)
        return -1;
    uint8_t v[8];
    twin_scalar_bytes(t.dtype, value, v);
    memcpy(t.addr + index * es, v, es);
    return 0;
}

int asc_twin_gm_fill(asc_twin_gm_ref t, uint64_t count, double value) {
    uint32_t es = asc_twin_dtype_size(t.dtype);
    if (asc_twin_ub_base() == NULL || asc_twin_block_aborted() || es == 0) return -1;
    if (count > UINT64_MAX / es) {
        asc_twin_report("InitGlobalMemory", "%llu elements overflow a byte count", ull(count));
        return -1;
    }
    if (twin_check_gm("InitGlobalMemory", "tensor", t, 0, count * es) != 0) return -1;
    uint8_t v[8];
    twin_scalar_bytes(t.dtype, value, v);
    for (uint64_t i = 0; i < count; i++) memcpy(t.addr + i * es, v, es);
    return 0;
}

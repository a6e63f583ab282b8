/*
 * geometry/mg_strided.c: strided accesses and whether two overlap (mg_strided.h). The exact
 * policy works on byte runs: each access as `run` bytes repeated over its moving dims, the
 * dims inside the run folded into it; two runs-shapes are apart by a residue proof, or by
 * walking the runs of one that meet the other's range.
 */
#include "mg_strided.h"

#include <stddef.h>

void mg_strided_of_view(mg_strided *out, const void *data, int64_t elem_size, int rank, const int64_t *dims,
                        const int64_t *strides, int64_t min_elem, int64_t max_elem, int64_t numel, int dense) {
    out->base = (uintptr_t)data;
    out->bytes = 0;
    out->elem_bytes = (uint64_t)elem_size;
    out->rank = 0;
    if (numel == 0) return;
    out->base += (uintptr_t)(min_elem * elem_size);
    out->bytes = (uint64_t)(max_elem - min_elem + 1) * (uint64_t)elem_size;
    if (dense) return;
    for (int d = 0; d < rank && out->rank < MG_STRIDED_MAX_RANK; d++)
        if (dims[d] > 1) {
            out->dims[out->rank] = dims[d];
            out->strides[out->rank++] = strides[d] * elem_size;
        }
}

int mg_strided_is_sound(const mg_strided *x) {
    if (x->rank < 1 || x->rank > MG_STRIDED_MAX_RANK || x->elem_bytes == 0 || x->elem_bytes > x->bytes) return 0;
    uint64_t reach = x->elem_bytes;
    for (int d = 0; d < x->rank; d++) {
        if (x->dims[d] < 1 || x->strides[d] < 0) return 0;
        uint64_t steps = (uint64_t)x->dims[d] - 1, stride = (uint64_t)x->strides[d];
        if (stride != 0 && steps > (x->bytes - reach) / stride) return 0;
        reach += steps * stride;
    }
    return 1;
}

int mg_ranges_meet(const mg_strided *a, const mg_strided *b) {
    if (a->bytes == 0 || b->bytes == 0) return 0;
    return a->base < b->base + b->bytes && b->base < a->base + a->bytes;
}

int mg_overlap_conservative(const mg_strided *a, const mg_strided *b) {
    if (!mg_ranges_meet(a, b)) return 0;
    const int in_place = a->rank == 0 && b->rank == 0 && a->base == b->base && a->bytes == b->bytes &&
                         a->elem_bytes == b->elem_bytes;
    return !in_place;
}

/* ---- the exact policy -------------------------------------------------------------------- */

/* An access as the byte runs it touches: `run` bytes at base + sum(i[k] * strides[k]) for
   each i[k] < dims[k]. Dims whose stride is 0 (a broadcast input reading one element many
   times) or that step within the run so far (a dense inner dim: x[:, :h]'s columns) are
   folded into the run, so x[:, :h] is one run per row and a contiguous view one run. */
typedef struct run_shape {
    uintptr_t base;
    uint64_t run;
    int rank;
    uint64_t dims[MG_STRIDED_MAX_RANK], strides[MG_STRIDED_MAX_RANK]; /* ascending strides, > 0 */
} run_shape;

static void shape_of(const mg_strided *x, run_shape *s) {
    s->base = x->base;
    s->rank = 0;
    if (x->rank == 0) {
        s->run = x->bytes;
        return;
    }
    /* The moving dims, by ascending stride (insertion sort: at most 8). */
    for (int d = 0; d < x->rank; d++) {
        if (x->dims[d] <= 1 || x->strides[d] == 0) continue;
        int k = s->rank++;
        for (; k > 0 && s->strides[k - 1] > (uint64_t)x->strides[d]; k--) {
            s->dims[k] = s->dims[k - 1];
            s->strides[k] = s->strides[k - 1];
        }
        s->dims[k] = (uint64_t)x->dims[d];
        s->strides[k] = (uint64_t)x->strides[d];
    }
    /* Fold the smallest dim while its steps stay within the run: the copies of the run it
       makes then cover one interval. No overflow: every element lies inside the access's
       range (checked when it was queued), and the folded run ends at its last byte. */
    s->run = x->elem_bytes;
    int folded = 0;
    while (folded < s->rank && s->strides[folded] <= s->run) {
        s->run += (s->dims[folded] - 1) * s->strides[folded];
        folded++;
    }
    for (int k = folded; k < s->rank; k++) {
        s->dims[k - folded] = s->dims[k];
        s->strides[k - folded] = s->strides[k];
    }
    s->rank -= folded;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b) {
    while (b != 0) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* 1 when a proof by residues shows that `a` and `b` share no byte: every stride of both is
   a multiple of p (their gcd), so each byte of `a` lies at base_a + r (mod p) with r < run_a,
   each of `b` likewise, and if those two arcs of the circle of p are apart, no byte is
   shared whatever the dims. The proof is exact when it succeeds, costs O(rank), and covers
   the layouts programs split work by: x[:, :h] and x[:, h:] (p is the row pitch), x[0::2] and x[1::2] (p is two
   elements), every other row, slices of 3-D and 4-D tensors, a transposed view, and a copy or
   set of bytes in another view's gaps. 0: no proof (the bytes may or may not be shared). */
static int residues_apart(const run_shape *a, const run_shape *b) {
    uint64_t p = 0;
    for (int k = 0; k < a->rank; k++) p = gcd_u64(p, a->strides[k]);
    for (int k = 0; k < b->rank; k++) p = gcd_u64(p, b->strides[k]);
    if (p == 0 || a->run >= p || b->run >= p) return 0; /* single runs, or an arc covers it all */
    uint64_t ra = (uint64_t)(a->base % p), rb = (uint64_t)(b->base % p);
    uint64_t delta = rb >= ra ? rb - ra : p - (ra - rb); /* where b's arc starts, from a's */
    return delta >= a->run && b->run <= p - delta;
}

/* Walks the runs of `s` that meet [lo, hi), calling fn(ctx, from, to) with each one's part
   inside it; stops at fn's first nonzero value and returns it, or -1 when the visits ran out. */
typedef int (*run_fn)(void *ctx, uintptr_t from, uintptr_t to);

typedef struct run_walk {
    const run_shape *s;
    uintptr_t lo, hi;
    run_fn fn;
    void *ctx;
    uint64_t *visits_left;                /* shared by the nested walks of one comparison */
    uint64_t reach[MG_STRIDED_MAX_RANK]; /* reach[k]: the bytes one index of dim k spans */
} run_walk;

/* The runs under dims 0..top, the outer indices giving `start`: only the indices whose
   block [start + i * stride, + reach) meets the window are visited, so a small window in
   a large view costs a visit or two per dim. No overflow: the blocks lie inside the
   access's range (checked at queueing), and the window inside it too. */
static int walk_runs(const run_walk *w, int top, uintptr_t start) {
    if (*w->visits_left == 0) return -1;
    --*w->visits_left;
    if (top < 0) {
        uintptr_t end = start + w->s->run;
        uintptr_t from = start > w->lo ? start : w->lo, to = end < w->hi ? end : w->hi;
        return from < to ? w->fn(w->ctx, from, to) : 0;
    }
    if (start >= w->hi) return 0;
    uint64_t stride = w->s->strides[top], reach = w->reach[top];
    uint64_t first = w->lo > start && w->lo - start >= reach ? (w->lo - start - reach) / stride + 1 : 0;
    uint64_t last = (w->hi - start - 1) / stride;
    if (last > w->s->dims[top] - 1) last = w->s->dims[top] - 1;
    for (uint64_t i = first; i <= last; i++) {
        int stop = walk_runs(w, top - 1, start + i * stride);
        if (stop) return stop;
    }
    return 0;
}

static int for_each_run(const run_shape *s, uintptr_t lo, uintptr_t hi, run_fn fn, void *ctx,
                        uint64_t *visits_left) {
    run_walk w = {.s = s, .lo = lo, .hi = hi, .fn = fn, .ctx = ctx, .visits_left = visits_left};
    uint64_t below = s->run; /* what the run and the dims below k span */
    for (int k = 0; k < s->rank; k++) {
        w.reach[k] = below;
        below += (s->dims[k] - 1) * s->strides[k];
    }
    return walk_runs(&w, s->rank - 1, s->base);
}

static int found_a_run(void *ctx, uintptr_t from, uintptr_t to) {
    (void)ctx;
    return from < to;
}

/* For each run of the outer access: does the other have a byte in it? */
typedef struct run_query {
    const run_shape *other;
    uint64_t *visits_left;
} run_query;

static int other_meets_run(void *ctx, uintptr_t from, uintptr_t to) {
    const run_query *q = ctx;
    return for_each_run(q->other, from, to, found_a_run, NULL, q->visits_left);
}

/* About how many runs of `s` meet a window of `bytes` bytes (saturating): the walk over
   the access with fewer goes outside, each of its runs a query into the other. */
static uint64_t runs_in_window(const run_shape *s, uint64_t bytes) {
    uint64_t n = 1;
    for (int d = 0; d < s->rank; d++) {
        uint64_t each = bytes / s->strides[d] + 1;
        if (each > s->dims[d]) each = s->dims[d];
        n = n > UINT64_MAX / each ? UINT64_MAX : n * each;
    }
    return n;
}

int mg_overlap_exact(const mg_strided *a, const mg_strided *b, uint64_t *visits_left) {
    if (!mg_ranges_meet(a, b)) return 0;
    const uintptr_t a0 = a->base, b0 = b->base;
    if (a->rank == 0 && b->rank == 0) return 1;
    /* The ranges meet: unless one is a strided view, they share a byte. Then a residue proof
       (above) separates the common interleaved layouts at any size, in O(rank). Failing
       that, the runs of one in the window where the ranges meet are walked, and for each,
       whether the other has a byte in it (a walk that visits only the runs near it): exact,
       no memory needed, and stopping at the first shared byte. */
    run_shape sa, sb;
    shape_of(a, &sa);
    shape_of(b, &sb);
    if (residues_apart(&sa, &sb)) return 0;
    uintptr_t lo = a0 > b0 ? a0 : b0, hi = a0 + a->bytes < b0 + b->bytes ? a0 + a->bytes : b0 + b->bytes;
    int a_outside = runs_in_window(&sa, hi - lo) <= runs_in_window(&sb, hi - lo);
    run_query q = {a_outside ? &sb : &sa, visits_left};
    return for_each_run(a_outside ? &sa : &sb, lo, hi, other_meets_run, &q, visits_left) != 0;
}

/*
 * runtime/stream_race.c: queueing a node, with the cross-stream race check: a task whose declared
 * ranges meet (one side writing) those of unfinished work on another stream that no event
 * wait orders before it is refused. The blocking copies' wait for just the overlapping
 * queued work uses the same comparison.
 */
#include "stream_internal.h"

/* ---- queueing, with the race check ----------------------------------------------------------------- */

/* An access as the byte runs it touches: `run` bytes at base + sum(i[k] * strides[k]) for
   each i[k] < dims[k]. Dims whose stride is 0 (a broadcast input reading one element many
   times) or that step within the run so far (a dense inner dim: x[:, :h]'s columns) are
   folded into the run, so x[:, :h] is one run per row and a contiguous view one run. */
typedef struct run_shape {
    uintptr_t base;
    uint64_t run;
    int rank;
    uint64_t dims[MGRT_ACCESS_MAX_RANK], strides[MGRT_ACCESS_MAX_RANK]; /* ascending strides, > 0 */
} run_shape;

static void shape_of(const mgrt_access *x, run_shape *s) {
    s->base = (uintptr_t)x->ptr;
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

/* Runs and blocks the comparisons below visit, at most, for one task being queued (all its
   accesses against all unfinished work): past that (interleavings no residue proof
   separates, over millions of runs) the accesses compared are taken to conflict. A shared
   byte usually turns up within a few visits, and a visit costs nanoseconds: this bounds the
   time a launch spends on the check, under the lock, to about 10 ms. */
#define MAX_VISITS (UINT64_C(1) << 22)

/* Walks the runs of `s` that meet [lo, hi), calling fn(ctx, from, to) with each one's part
   inside it; stops at fn's first nonzero value and returns it, or -1 when the visits ran out. */
typedef int (*run_fn)(void *ctx, uintptr_t from, uintptr_t to);

typedef struct run_walk {
    const run_shape *s;
    uintptr_t lo, hi;
    run_fn fn;
    void *ctx;
    uint64_t *visits_left;                /* shared by the nested walks of one comparison */
    uint64_t reach[MGRT_ACCESS_MAX_RANK]; /* reach[k]: the bytes one index of dim k spans */
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
    for (int k = 0; k < s->rank; k++) {
        uint64_t each = bytes / s->strides[k] + 1;
        if (each > s->dims[k]) each = s->dims[k];
        n = n > UINT64_MAX / each ? UINT64_MAX : n * each;
    }
    return n;
}

/* 1 when `a` and `b` share a byte. The ranges decide unless one is a strided view and the
   ranges meet. Then a residue proof (above) separates the common interleaved layouts at any
   size, in O(rank). Failing that, the runs of one in the window where the ranges meet are
   walked, and for each, whether the other has a byte in it (a walk that visits only the
   runs near it): exact, no memory needed, and stopping at the first shared byte. More than
   `*visits_left` visits: taken to conflict. */
static int ranges_overlap(const mgrt_access *a, const mgrt_access *b, uint64_t *visits_left) {
    if (a->bytes == 0 || b->bytes == 0) return 0;
    uintptr_t a0 = (uintptr_t)a->ptr, b0 = (uintptr_t)b->ptr;
    if (!(a0 < b0 + b->bytes && b0 < a0 + a->bytes)) return 0;
    if (a->rank == 0 && b->rank == 0) return 1;
    run_shape sa, sb;
    shape_of(a, &sa);
    shape_of(b, &sb);
    if (residues_apart(&sa, &sb)) return 0;
    uintptr_t lo = a0 > b0 ? a0 : b0, hi = a0 + a->bytes < b0 + b->bytes ? a0 + a->bytes : b0 + b->bytes;
    int a_outside = runs_in_window(&sa, hi - lo) <= runs_in_window(&sb, hi - lo);
    run_query q = {a_outside ? &sb : &sa, visits_left};
    return for_each_run(a_outside ? &sa : &sb, lo, hi, other_meets_run, &q, visits_left) != 0;
}

/* The first task of `s` after sequence `ordered` (those up to it are ordered before `node`
   by event waits) that conflicts with `node`'s accesses. The ordered ones are skipped here,
   not after: the first conflicting task may be ordered while a later one is not (A writes,
   records an event, writes again; B waits for the event and writes), and that later one is
   the race. */
static const task_node *conflicting_task(const stream *s, const task_node *node, uint64_t ordered,
                                         uint64_t *visits_left, const mgrt_access **mine,
                                         const mgrt_access **theirs) {
    const task_node *candidates[1] = {s->current};
    for (int pass = 0; pass < 2; pass++) {
        const task_node *t = pass == 0 ? candidates[0] : s->head;
        for (; t != NULL; t = pass == 0 ? NULL : t->next) {
            if (t->kind != NODE_TASK || t->access_count == 0 || t->sequence <= ordered) continue;
            for (size_t i = 0; i < node->access_count; i++)
                for (size_t j = 0; j < t->access_count; j++)
                    if ((node->accesses[i].write || t->accesses[j].write) &&
                        ranges_overlap(&node->accesses[i], &t->accesses[j], visits_left)) {
                        *mine = &node->accesses[i];
                        *theirs = &t->accesses[j];
                        return t;
                    }
        }
    }
    return NULL;
}

/* Appends `node` to `s` (stream_lock held). Returns 0, or a race status with the message set. */
aclError stream_append_locked(const char *api, stream *s, aclrtStream handle, task_node *node, int wake_now) {
    if (node->access_count > 0) {
        uint64_t visits_left = MAX_VISITS;
        for (stream *other = stream_live_list; other != NULL; other = other->next_live) {
            if (other == s || other->finished == other->queued) continue;
            const mgrt_access *mine = NULL, *theirs = NULL;
            const task_node *t = conflicting_task(other, node, vclock_get(&s->known, other->id), &visits_left, &mine,
                                                  &theirs);
            if (t == NULL) continue;
            char here[64], there[64];
            stream_name(handle, here, sizeof here);
            if (other->token != NULL)
                snprintf(there, sizeof there, "stream %p", other->token);
            else
                snprintf(there, sizeof there, "a default stream");
            return mgrt_fail_at(api, ACL_ERROR_RT_PARAM_INVALID,
                                "%s: cross-stream race: work queued on %s %s [%p, +%llu bytes), which unfinished "
                                "work on %s %s [%p, +%llu bytes), and no event orders the two; record an event "
                                "on %s and call aclrtStreamWaitEvent on %s first (or synchronize %s)%s",
                                api, here, mine->write ? "writes" : "reads", mine->ptr,
                                (unsigned long long)mine->bytes, there, theirs->write ? "writes" : "reads",
                                theirs->ptr, (unsigned long long)theirs->bytes, there, here, there,
                                visits_left == 0 ? "; the two strided layouts interleave over more runs than "
                                                   "are compared (2^22), so they are taken to share bytes"
                                                 : "");
        }
    }
    node->sequence = ++s->queued;
    node->next = NULL;
    if (s->tail != NULL) s->tail->next = node; else s->head = node;
    s->tail = node;
    if (wake_now || s->queued - s->finished >= WAKE_WORKER_QUEUE_LENGTH) stream_wake_worker_locked(s);
    return ACL_SUCCESS;
}

void rt_streams_wait_overlapping(const mgrt_access *accesses, size_t access_count) {
    task_node probe;
    memset(&probe, 0, sizeof probe);
    probe.kind = NODE_TASK;
    probe.accesses = (mgrt_access *)accesses;
    probe.access_count = access_count;
    pthread_mutex_lock(&stream_lock);
    for (;;) {
        stream *found = NULL;
        uint64_t target = 0, visits_left = MAX_VISITS; /* out of visits: wait for that work */
        for (stream *other = stream_live_list; other != NULL && found == NULL; other = other->next_live) {
            /* A stream held at a blocking callback this thread runs: the work behind it
               waits for this very call (issue 25: a copy in the callback deadlocked). */
            if (other->retiring || other->finished == other->queued || stream_blocked_by_my_callback_locked(other)) continue;
            const mgrt_access *mine = NULL, *theirs = NULL;
            const task_node *t = conflicting_task(other, &probe, 0, &visits_left, &mine, &theirs);
            if (t != NULL) {
                found = other;
                target = t->sequence;
            }
        }
        if (found == NULL) break;
        /* Tasks finish in order: one step towards that one (run here when its stream is
           idle), or a wait for progress, then look again: the stream may meanwhile have
           stopped at a blocking callback of this thread's. Errors stay for the stream's next
           synchronize. */
        stream_pin_locked(found);
        if (found->running || found->head == NULL || found->head->sequence > target || !stream_step_locked(found))
            pthread_cond_wait(&stream_progress, &stream_lock);
        pthread_mutex_unlock(&stream_lock);
        stream_unpin(found);
        pthread_mutex_lock(&stream_lock);
    }
    pthread_mutex_unlock(&stream_lock);
}

/* 1 when a strided access keeps mgrt_access's promise: dims >= 1, strides >= 0, and every
   element inside [ptr, ptr + bytes). The race check's walks rely on it (no overflow, no
   index past MGRT_ACCESS_MAX_RANK); one that does not is checked as its whole range. */
int stream_access_is_sound(const mgrt_access *x) {
    if (x->rank < 1 || x->rank > MGRT_ACCESS_MAX_RANK || x->elem_bytes == 0 || x->elem_bytes > x->bytes) return 0;
    uint64_t reach = x->elem_bytes;
    for (int d = 0; d < x->rank; d++) {
        if (x->dims[d] < 1 || x->strides[d] < 0) return 0;
        uint64_t steps = (uint64_t)x->dims[d] - 1, stride = (uint64_t)x->strides[d];
        if (stride != 0 && steps > (x->bytes - reach) / stride) return 0;
        reach += steps * stride;
    }
    return 1;
}

/*
 * runtime/stream_race.c: queueing a node, with the cross-stream race check: a task whose declared
 * ranges meet (one side writing) those of unfinished work on another stream that no event
 * wait orders before it is refused. The blocking copies' wait for just the overlapping
 * queued work uses the same comparison.
 */
#include "stream_internal.h"

/* ---- queueing, with the race check ----------------------------------------------------------------- */

/* Runs and blocks the comparisons below visit, at most, for one task being queued (all its
   accesses against all unfinished work): past that (interleavings no residue proof
   separates, over millions of runs) the accesses compared are taken to conflict. A shared
   byte usually turns up within a few visits, and a visit costs nanoseconds: this bounds the
   time a launch spends on the check, under the lock, to about 10 ms. */
#define MAX_VISITS (UINT64_C(1) << 22)

/* The first task of `s` after sequence `ordered` (those up to it are ordered before `node`
   by event waits) that conflicts with `node`'s accesses. The ordered ones are skipped here,
   not after: the first conflicting task may be ordered while a later one is not (A writes,
   records an event, writes again; B waits for the event and writes), and that later one is
   the race. */
static const task_node *conflicting_task(const stream *s, const task_node *node, uint64_t ordered,
                                         uint64_t *visits_left, const stream_access **mine,
                                         const stream_access **theirs) {
    const task_node *candidates[1] = {s->current};
    for (int pass = 0; pass < 2; pass++) {
        const task_node *t = pass == 0 ? candidates[0] : s->head;
        for (; t != NULL; t = pass == 0 ? NULL : t->next) {
            if (t->kind != NODE_TASK || t->access_count == 0 || t->sequence <= ordered) continue;
            for (size_t i = 0; i < node->access_count; i++)
                for (size_t j = 0; j < t->access_count; j++)
                    if ((node->accesses[i].write || t->accesses[j].write) &&
                        mg_overlap_exact(&node->accesses[i].where, &t->accesses[j].where, visits_left)) {
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
            const stream_access *mine = NULL, *theirs = NULL;
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
                                api, here, mine->write ? "writes" : "reads", (void *)mine->where.base,
                                (unsigned long long)mine->where.bytes, there, theirs->write ? "writes" : "reads",
                                (void *)theirs->where.base, (unsigned long long)theirs->where.bytes, there, here, there,
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

/* rt_streams_wait_overlapping for at most PROBE_ACCESSES accesses. */
#define PROBE_ACCESSES 4
static void wait_overlapping(const mgrt_access *accesses, size_t access_count) {
    stream_access shapes[PROBE_ACCESSES];
    for (size_t i = 0; i < access_count; i++) stream_access_of(&accesses[i], &shapes[i]);
    task_node probe;
    memset(&probe, 0, sizeof probe);
    probe.kind = NODE_TASK;
    probe.accesses = shapes;
    probe.access_count = access_count;
    RT_LOCK(&stream_lock);
    for (;;) {
        stream *found = NULL;
        uint64_t target = 0, visits_left = MAX_VISITS; /* out of visits: wait for that work */
        for (stream *other = stream_live_list; other != NULL && found == NULL; other = other->next_live) {
            /* A stream held at a blocking callback this thread runs: the work behind it
               waits for this very call (issue 25: a copy in the callback deadlocked). */
            if (other->retiring || other->finished == other->queued || stream_blocked_by_my_callback_locked(other)) continue;
            const stream_access *mine = NULL, *theirs = NULL;
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
            RT_WAIT(&stream_progress, &stream_lock);
        RT_UNLOCK(&stream_lock);
        stream_unpin(found);
        RT_LOCK(&stream_lock);
    }
    RT_UNLOCK(&stream_lock);
}

/* A few accesses at a time (the copies and sets pass one or two): waiting until none of
   the first few meets queued work, then for the next few, waits for no less. */
void rt_streams_wait_overlapping(const mgrt_access *accesses, size_t access_count) {
    for (size_t at = 0; at < access_count; at += PROBE_ACCESSES)
        wait_overlapping(&accesses[at], access_count - at < PROBE_ACCESSES ? access_count - at : PROBE_ACCESSES);
}

/* An access as the race check keeps it: its geometry (a strided access that breaks
   mgrt_access's promise, see mg_strided_is_sound, is compared as its whole range) and
   whether it writes. */
void stream_access_of(const mgrt_access *x, stream_access *out) {
    mg_strided *g = &out->where;
    g->base = (uintptr_t)x->ptr;
    g->bytes = x->bytes;
    g->elem_bytes = x->elem_bytes;
    g->rank = x->rank > 0 && x->rank <= MG_STRIDED_MAX_RANK ? x->rank : 0;
    for (int d = 0; d < g->rank; d++) {
        g->dims[d] = x->dims[d];
        g->strides[d] = x->strides[d];
    }
    if (g->rank != 0 && !mg_strided_is_sound(g)) g->rank = 0;
    out->write = x->write;
}

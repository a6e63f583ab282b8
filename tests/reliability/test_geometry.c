/*
 * tests/reliability/test_geometry.c: geometry/mg_strided.h, the one answer to "do these
 * strided accesses overlap" that libascendcl (the cross-stream race check, the blocking
 * copies' wait) and libnnopbase (phase 1's plan) share, checked on its own against answers
 * computed here from the header's definitions, by brute force over a small arena:
 *
 *   - mg_strided_of_view: the access a tensor view makes (its range from the lowest to the
 *     highest element, its moving dims in bytes; empty, dense and size-1 dims as described);
 *   - mg_strided_is_sound: the promise, judged element by element;
 *   - mg_ranges_meet / mg_overlap_conservative: the byte ranges, the in-place exception;
 *   - mg_overlap_exact: 1 exactly when a byte is shared (each access's bytes marked in a
 *     bitmap), at any budget of visits large enough, and never 0 for a shared byte when the
 *     budget runs out (then 1 with the budget at 0).
 *
 * Random accesses from a fixed seed (deterministic), plus the layouts the header names
 * (x[:, :h] and x[:, h:], x[0::2] and x[1::2], a broadcast, a transposed view).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mg_rng.h"
#include "mg_strided.h"
#include "mg_test.h"

enum { ARENA = 2048 };

static uint64_t below(mg_rng *r, uint64_t n) { return n ? mg_rng_next(r) % n : 0; }

/* A sound strided access inside the arena (offsets from 0): elem in {1,2,4,8}, rank 1..4
   (some dims of size 1, some strides 0 or smaller than the element), its range exactly its
   first element to the end of its last. */
static mg_strided random_strided(mg_rng *r) {
    static const uint64_t elems[4] = {1, 2, 4, 8};
    mg_strided x;
    memset(&x, 0, sizeof x);
    for (;;) {
        x.elem_bytes = elems[below(r, 4)];
        x.rank = 1 + (int)below(r, 4);
        uint64_t reach = 0;
        for (int d = 0; d < x.rank; d++) {
            x.dims[d] = 1 + (int64_t)below(r, 6);
            uint64_t pick = below(r, 8);
            x.strides[d] = pick == 0 ? 0 : pick == 1 ? (int64_t)below(r, x.elem_bytes + 1) : (int64_t)below(r, 96);
            reach += (uint64_t)(x.dims[d] - 1) * (uint64_t)x.strides[d];
        }
        x.bytes = reach + x.elem_bytes;
        if (x.bytes >= ARENA / 2) continue;
        x.base = (uintptr_t)below(r, ARENA - x.bytes);
        return x;
    }
}

/* A plain byte range (rank 0), sometimes empty. */
static mg_strided random_range(mg_rng *r) {
    mg_strided x;
    memset(&x, 0, sizeof x);
    x.bytes = below(r, 5) == 0 ? 0 : 1 + below(r, 300);
    x.elem_bytes = 1u << below(r, 4);
    x.base = (uintptr_t)below(r, ARENA - 300);
    return x;
}

/* A tensor-like access: row-major strides with random gaps between the dims, in a random
   order (a transposed or sliced view), elements of 2 or 4 bytes. Pairs of these placed a few
   elements apart are the layouts programs split work by, and reach the walk's skipping of
   whole blocks (the outer dims' reach). */
static mg_strided random_tensor_like(mg_rng *r) {
    mg_strided x;
    memset(&x, 0, sizeof x);
    for (;;) {
        x.elem_bytes = below(r, 2) ? 4 : 2;
        x.rank = 2 + (int)below(r, 3);
        int64_t pitch = (int64_t)x.elem_bytes * (1 + (int64_t)below(r, 2));
        int64_t dims[4], strides[4];
        for (int d = 0; d < x.rank; d++) {
            dims[d] = 2 + (int64_t)below(r, 4);
            strides[d] = pitch;
            pitch = pitch * dims[d] + (int64_t)x.elem_bytes * (int64_t)below(r, 3);
        }
        for (int d = 0; d < x.rank; d++) { /* a random order of the dims */
            int k = d + (int)below(r, (uint64_t)(x.rank - d));
            x.dims[d] = dims[k], x.strides[d] = strides[k];
            dims[k] = dims[d], strides[k] = strides[d];
        }
        uint64_t reach = 0;
        for (int d = 0; d < x.rank; d++) reach += (uint64_t)(x.dims[d] - 1) * (uint64_t)x.strides[d];
        x.bytes = reach + x.elem_bytes;
        if (x.bytes >= ARENA / 2) continue;
        x.base = (uintptr_t)below(r, ARENA - x.bytes);
        return x;
    }
}

/* Every byte the access touches, as the header defines it. */
static void mark(const mg_strided *x, uint8_t *bytes) {
    memset(bytes, 0, ARENA);
    if (x->bytes == 0) return;
    if (x->rank == 0) {
        memset(bytes + x->base, 1, x->bytes);
        return;
    }
    int64_t idx[MG_STRIDED_MAX_RANK] = {0};
    for (;;) {
        uint64_t at = x->base;
        for (int d = 0; d < x->rank; d++) at += (uint64_t)(idx[d] * x->strides[d]);
        memset(bytes + at, 1, x->elem_bytes);
        int d = 0;
        while (d < x->rank && ++idx[d] == x->dims[d]) idx[d++] = 0;
        if (d == x->rank) return;
    }
}

static int share_a_byte(const mg_strided *a, const mg_strided *b) {
    static uint8_t ma[ARENA], mb[ARENA];
    mark(a, ma);
    mark(b, mb);
    for (int i = 0; i < ARENA; i++)
        if (ma[i] && mb[i]) return 1;
    return 0;
}

static int ranges_meet_ref(const mg_strided *a, const mg_strided *b) {
    if (a->bytes == 0 || b->bytes == 0) return 0;
    uint64_t alo = a->base, ahi = a->base + a->bytes, blo = b->base, bhi = b->base + b->bytes;
    return alo < bhi && blo < ahi;
}

static void describe(const char *what, const mg_strided *x) {
    fprintf(stderr, "    %s: base %llu bytes %llu elem %llu rank %d:", what, (unsigned long long)x->base,
            (unsigned long long)x->bytes, (unsigned long long)x->elem_bytes, x->rank);
    for (int d = 0; d < x->rank; d++) fprintf(stderr, " %lldx%lld", (long long)x->dims[d], (long long)x->strides[d]);
    fprintf(stderr, "\n");
}

/* one pair against every policy; returns the number of wrong answers */
static int judge_pair(const mg_strided *a, const mg_strided *b) {
    int wrong = 0;
    const int shared = share_a_byte(a, b), meet = ranges_meet_ref(a, b);
    const int in_place = a->rank == 0 && b->rank == 0 && a->base == b->base && a->bytes == b->bytes &&
                         a->elem_bytes == b->elem_bytes;
    if (mg_ranges_meet(a, b) != meet) wrong++;
    if (mg_overlap_conservative(a, b) != (meet && !in_place)) wrong++;
    uint64_t budget = UINT64_MAX / 2;
    if (mg_overlap_exact(a, b, &budget) != shared) wrong++;
    /* a small budget: an answer of 0 must still be right; a 1 for bytes not shared only
       when the visits ran out (the budget at 0) */
    uint64_t small = 3;
    int answer = mg_overlap_exact(a, b, &small);
    if ((answer == 0 && shared) || (answer != 0 && answer != 1) || (answer == 1 && small > 0 && !shared)) wrong++;
    /* every visit counts down the budget (it never grows): with one visit fewer than the walk
       took it runs out and answers 1 with the budget at 0; with exactly as many it answers as
       with any larger budget */
    uint64_t before = UINT64_MAX / 2, took;
    budget = before;
    answer = mg_overlap_exact(a, b, &budget);
    if (budget > before) {
        wrong++;
    } else if ((took = before - budget) > 0) {
        uint64_t exact = took;
        if (mg_overlap_exact(a, b, &exact) != answer || exact != 0) wrong++;
        uint64_t short_by_one = took - 1;
        if (mg_overlap_exact(a, b, &short_by_one) != 1 || short_by_one != 0) wrong++;
    }
    if (wrong) {
        fprintf(stderr, "  shared %d, ranges meet %d, in place %d\n", shared, meet, in_place);
        describe("a", a);
        describe("b", b);
    }
    return wrong;
}

MG_TEST(exact_and_conservative_answers_against_the_bytes) {
    mg_rng r = {20261206};
    int wrong = 0, pairs = 0, shared = 0;
    for (int i = 0; i < 20000 && wrong < 5; i++) {
        uint64_t kind_a = below(&r, 4), kind_b = below(&r, 4);
        mg_strided a = kind_a == 0 ? random_range(&r) : kind_a == 1 ? random_tensor_like(&r) : random_strided(&r);
        mg_strided b = kind_b == 0 ? random_range(&r) : kind_b == 1 ? random_tensor_like(&r) : random_strided(&r);
        if (below(&r, 3) == 0) b.base = a.base + below(&r, 64); /* near each other: the hard cases */
        if (b.base + b.bytes > ARENA) continue;
        shared += share_a_byte(&a, &b);
        wrong += judge_pair(&a, &b);
        wrong += judge_pair(&b, &a);
        pairs++;
    }
    MG_CHECK_EQ_INT(wrong, 0);
    /* the sample reaches both answers often */
    MG_CHECK(shared > pairs / 10 && shared < pairs * 9 / 10);
}

MG_TEST(the_conservative_policy_s_in_place_exception) {
    /* the same dense bytes element for element: no conflict; any difference, a conflict */
    const mg_strided same = {256, 64, 4, 0, {0}, {0}};
    mg_strided other = same;
    MG_CHECK_EQ_INT(mg_overlap_conservative(&same, &other), 0);
    other.elem_bytes = 2; /* the same bytes read as halves: not element for element */
    MG_CHECK_EQ_INT(mg_overlap_conservative(&same, &other), 1);
    other = same, other.bytes = 60;
    MG_CHECK_EQ_INT(mg_overlap_conservative(&same, &other), 1);
    other = same, other.base = 260, other.bytes = 60;
    MG_CHECK_EQ_INT(mg_overlap_conservative(&same, &other), 1);
    const mg_strided strided = {256, 64, 4, 1, {16}, {4}}; /* the same elements, described as strided */
    MG_CHECK_EQ_INT(mg_overlap_conservative(&same, &strided), 1);
    MG_CHECK_EQ_INT(mg_overlap_conservative(&strided, &same), 1);
    MG_CHECK_EQ_INT(mg_overlap_conservative(&strided, &strided), 1);
    other = same, other.base = 320; /* adjacent: apart */
    MG_CHECK_EQ_INT(mg_overlap_conservative(&same, &other), 0);
    other.base = 319;
    MG_CHECK_EQ_INT(mg_overlap_conservative(&same, &other), 1);
    const mg_strided empty = {256, 0, 4, 0, {0}, {0}};
    MG_CHECK_EQ_INT(mg_overlap_conservative(&empty, &empty), 0);
    MG_CHECK_EQ_INT(mg_overlap_conservative(&empty, &same), 0);
    /* the exact policy: both plain ranges meeting share bytes, in place or not */
    uint64_t budget = 10;
    MG_CHECK_EQ_INT(mg_overlap_exact(&same, &same, &budget), 1);
}

/* Both orders of a pair that shares no byte answer 0 within `most` visits of a budget of
   2 * most: the walk went over the access with fewer runs in the window. */
static void apart_within(const mg_strided *a, const mg_strided *b, uint64_t most) {
    for (int order = 0; order < 2; order++) {
        uint64_t budget = 2 * most;
        MG_CHECK_EQ_INT(mg_overlap_exact(order ? b : a, order ? a : b, &budget), 0);
        if (budget < most) MG_FAIL("order %d took %llu visits, more than %llu", order,
                                   (unsigned long long)(2 * most - budget), (unsigned long long)most);
        else MG_CHECK(1);
    }
}

MG_TEST(the_header_s_layouts) {
    /* a 6 x 16 float matrix at 64: columns [0, 7) and [7, 16) of every row; even and odd
       elements of a row; a column read 6 times (stride 0) against the next column */
    mg_strided left = {64, (5 * 64) + 28, 4, 2, {7, 6}, {4, 64}};
    mg_strided right = {64 + 28, (5 * 64) + 36, 4, 2, {9, 6}, {4, 64}};
    mg_strided even = {64, 60, 4, 1, {8}, {8}}, odd = {68, 60, 4, 1, {8}, {8}};
    mg_strided col0 = {64, 5 * 64 + 4, 4, 2, {6, 4}, {64, 0}}, col1 = {68, 5 * 64 + 4, 4, 1, {6}, {64}};
    mg_strided transposed = {64, 5 * 64 + 64, 4, 2, {16, 6}, {4, 64}}, whole = {64, 6 * 64, 4, 0, {0}, {0}};
    struct {
        const mg_strided *a, *b;
        int shared;
    } cases[] = {
        {&left, &right, 0}, {&even, &odd, 0}, {&col0, &col1, 0}, {&transposed, &whole, 1},
        {&left, &whole, 1}, {&odd, &right, 1}, {&even, &left, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        MG_CHECK_EQ_INT(share_a_byte(cases[i].a, cases[i].b), cases[i].shared); /* the case itself */
        uint64_t budget = 1000;
        MG_CHECK_EQ_INT(mg_overlap_exact(cases[i].a, cases[i].b, &budget), cases[i].shared);
        budget = 1000;
        MG_CHECK_EQ_INT(mg_overlap_exact(cases[i].b, cases[i].a, &budget), cases[i].shared);
        MG_CHECK_EQ_INT(judge_pair(cases[i].a, cases[i].b), 0);
    }
    /* rank 8, every dim moving, against its own odd-offset twin and a plain range: the
       walk's arrays at their full size */
    mg_strided r8 = {0, 0, 2, 8, {2, 2, 2, 2, 2, 2, 2, 2}, {4, 8, 16, 32, 64, 128, 256, 512}};
    r8.bytes = 4 + 8 + 16 + 32 + 64 + 128 + 256 + 512 + 2;
    mg_strided r8b = r8, plain = {600, 8, 2, 0, {0}, {0}};
    r8b.base = 2;
    MG_CHECK_EQ_INT(judge_pair(&r8, &r8b), 0);
    MG_CHECK_EQ_INT(judge_pair(&r8, &plain), 0);
    MG_CHECK_EQ_INT(judge_pair(&r8, &r8), 0);
    uint64_t budget;
    /* The walk goes over the access with fewer runs where the ranges meet: 1000 four-byte
       runs (two blocks of 500) against two two-byte runs in their gaps (gcd 2: no residue
       proof). Walking the two costs a few visits; walking the thousand would run out of a
       budget of 64 and answer 1 (seed 39, mg_strided.c:194: the estimate of a dim stepped
       once in the window counted none, and the many-run side was walked). */
    mg_strided blocks = {0, 4000 + 499 * 8 + 4, 4, 2, {500, 2}, {8, 4000}};
    mg_strided gaps = {4, 7986 + 2, 2, 1, {2}, {7986}};
    apart_within(&blocks, &gaps, 32);
    /* A dim whose stride is longer than the window is stepped at most once there: it
       counts one index, not none (seed 53, mg_strided.c:194: counting none made the
       estimate of a many-run access 0, and that access was walked). Bytes 1 and 1502
       against a block of 1000 bytes 3 apart (and a far second block): no byte shared
       (neither is a multiple of 3), no residue proof (the strides' gcd is 1); walking the
       two bytes costs a few visits, walking the 501 runs in the window would run out of 64. */
    mg_strided two_bytes = {1, 1502, 1, 1, {2}, {1501}};
    mg_strided thirds = {0, 100000 + 2997 + 1, 1, 2, {1000, 2}, {3, 100000}};
    apart_within(&two_bytes, &thirds, 32);
    /* An inner dim counts at most its size, however wide the window: ten four-byte runs
       (pairs 8 apart, five pairs 10000 apart) against 1000 one-byte runs 41 apart, none
       shared, no residue proof. The pair's dim spans 12 bytes of a 40000-byte window;
       counted uncapped (5001 steps) it would make the ten runs look like 25005 and the
       thousand be walked, out of a budget of 200. */
    mg_strided pairs = {0, 40000 + 8 + 4, 4, 2, {2, 5}, {8, 10000}};
    mg_strided ones = {12, 999 * 41 + 1, 1, 1, {1000}, {41}};
    apart_within(&pairs, &ones, 100);
    /* two interleaved halves of 1e6 rows: the residue proof answers with a visit or none */
    mg_strided big_left = {0, 999999ull * 4096 + 2048, 4, 2, {512, 1000000}, {4, 4096}};
    mg_strided big_right = {2048, 999999ull * 4096 + 2048, 4, 2, {512, 1000000}, {4, 4096}};
    budget = 4;
    MG_CHECK_EQ_INT(mg_overlap_exact(&big_left, &big_right, &budget), 0);
    MG_CHECK_EQ_INT(budget, 4);
    /* ... and the same rows shifted by one float do share bytes: found within a few visits */
    big_right.base = 2044;
    budget = 64;
    MG_CHECK_EQ_INT(mg_overlap_exact(&big_left, &big_right, &budget), 1);
    MG_CHECK(budget > 0);
}

MG_TEST(soundness_element_by_element) {
    mg_rng r = {7};
    int wrong = 0;
    for (int i = 0; i < 4000; i++) {
        mg_strided x = random_strided(&r);
        /* break the promise in one of several ways, or keep it */
        int sound = 1;
        switch (below(&r, 9)) {
        case 0: x.rank = 0; sound = 0; break;
        case 1: x.rank = MG_STRIDED_MAX_RANK + 1; sound = 0; break;
        case 2: x.elem_bytes = 0; sound = 0; break;
        case 3: x.bytes = x.elem_bytes - 1; sound = 0; break; /* the element past the range */
        case 4: x.dims[below(&r, (uint64_t)x.rank)] = 0; sound = 0; break;
        case 5: {
            int d = (int)below(&r, (uint64_t)x.rank);
            if (x.strides[d] > 0) x.strides[d] = -x.strides[d], sound = 0;
            break;
        }
        case 6: { /* the last element one byte past the range, when some dim moves */
            uint64_t reach = 0;
            for (int d = 0; d < x.rank; d++) reach += (uint64_t)(x.dims[d] - 1) * (uint64_t)x.strides[d];
            if (reach > 0) x.bytes = reach + x.elem_bytes - 1, sound = 0;
            break;
        }
        case 7: x.bytes += below(&r, 40); break; /* a range larger than needed is still sound */
        default: break;
        }
        if (mg_strided_is_sound(&x) != sound) {
            if (wrong++ < 3) describe(sound ? "sound, judged unsound" : "unsound, judged sound", &x);
        }
    }
    MG_CHECK_EQ_INT(wrong, 0);
    /* steps whose product overflows 64 bits must not wrap into "inside" */
    mg_strided huge = {0, 1000, 4, 2, {3, (int64_t)1 << 62}, {4, 8}};
    MG_CHECK_EQ_INT(mg_strided_is_sound(&huge), 0);
    mg_strided exact = {0, 4 + 2 * 8 + 4 * 100, 4, 2, {3, 5}, {8, 100}};
    MG_CHECK_EQ_INT(mg_strided_is_sound(&exact), 1);
    exact.bytes--;
    MG_CHECK_EQ_INT(mg_strided_is_sound(&exact), 0);
    mg_strided one = {0, 4, 4, 1, {1}, {0}}, eight = {0, 4, 4, 8, {1, 1, 1, 1, 1, 1, 1, 1}, {0}};
    MG_CHECK_EQ_INT(mg_strided_is_sound(&one), 1);
    MG_CHECK_EQ_INT(mg_strided_is_sound(&eight), 1);
}

MG_TEST(a_view_as_an_access) {
    mg_rng r = {99};
    static uint8_t storage[ARENA];
    int wrong = 0;
    for (int i = 0; i < 3000; i++) {
        int64_t es = (int64_t)1 << below(&r, 4);
        int rank = (int)below(&r, 5);
        int64_t dims[4], strides[4], numel = 1, reach = 0;
        for (int d = 0; d < rank; d++) {
            dims[d] = (int64_t)below(&r, 5);
            /* a size-1 dim may carry any stride, even one whose byte count overflows */
            strides[d] = dims[d] == 1 && below(&r, 2) ? INT64_MAX / 2 : (int64_t)below(&r, 20);
            numel *= dims[d];
        }
        for (int d = 0; d < rank; d++)
            if (dims[d] > 1) reach += (dims[d] - 1) * strides[d];
        int64_t min_elem = (int64_t)below(&r, 16), max_elem = min_elem + reach;
        int dense = (int)below(&r, 4) == 0;
        mg_strided x;
        memset(&x, 0xA5, sizeof x);
        mg_strided_of_view(&x, storage, es, rank, dims, strides, min_elem, max_elem, numel, dense);
        /* what the header says the access is */
        int ok = x.elem_bytes == (uint64_t)es;
        if (numel == 0) {
            ok = ok && x.bytes == 0 && x.rank == 0;
        } else {
            ok = ok && x.base == (uintptr_t)storage + (uintptr_t)(min_elem * es) &&
                 x.bytes == (uint64_t)((reach + 1) * es);
            int k = 0;
            if (!dense)
                for (int d = 0; d < rank; d++)
                    if (dims[d] > 1) {
                        ok = ok && k < x.rank && x.dims[k] == dims[d] && x.strides[k] == strides[d] * es;
                        k++;
                    }
            ok = ok && x.rank == k;
        }
        if (!ok && wrong++ < 3) {
            fprintf(stderr, "  view es %lld rank %d numel %lld dense %d min %lld:", (long long)es, rank,
                    (long long)numel, dense, (long long)min_elem);
            for (int d = 0; d < rank; d++) fprintf(stderr, " %lldx%lld", (long long)dims[d], (long long)strides[d]);
            fprintf(stderr, "\n");
            describe("got", &x);
        }
    }
    MG_CHECK_EQ_INT(wrong, 0);
}

MG_TEST_MAIN()

/*
 * geometry/mg_strided.h: THE answer to "do these strided accesses overlap", for every layer.
 *
 * One description of an access (mg_strided: a byte range and, when strided, the elements in
 * it) and two policies over it, named for who needs which:
 *   mg_overlap_conservative  phase 1's plan and phase 2's re-check of refreshed addresses
 *                            (nnopbase): whatever might meet conflicts, except exact in-place
 *   mg_overlap_exact         the runtime's cross-stream race check and the blocking copies'
 *                            wait: only a shared byte conflicts
 * A leaf: libc types only, compiled into libascendcl and libnnopbase alike (hidden there), so
 * the two layers cannot drift apart again.
 */
#ifndef MG_STRIDED_H_
#define MG_STRIDED_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MG_STRIDED_MAX_RANK 8

/* Every byte of [base, base + bytes) when rank is 0. With rank > 0 only the elements are
   touched, elem_bytes each, element idx at base + sum(idx[d] * strides[d]) (strides in
   bytes), every one inside the range. */
typedef struct mg_strided {
    uintptr_t base;
    uint64_t bytes;
    uint64_t elem_bytes;
    int rank;
    int64_t dims[MG_STRIDED_MAX_RANK];
    int64_t strides[MG_STRIDED_MAX_RANK];
} mg_strided;

/* A tensor view as an access: elements of elem_size bytes at data + offset * elem_size,
   element offsets min_elem..max_elem (strides >= 0, in elements), `dense` when they fill
   that range row-major (then rank 0). numel 0 gives an empty range. Dims of size 1 are left
   out before any multiplication: their stride is never used and may be huge (stride *
   elem_size overflowed: the revert on main). The view must have been validated (every
   element inside its storage), so nothing else overflows. */
void mg_strided_of_view(mg_strided *out, const void *data, int64_t elem_size, int rank, const int64_t *dims,
                        const int64_t *strides, int64_t min_elem, int64_t max_elem, int64_t numel, int dense);

/* 1 when a strided access (rank > 0) keeps the promise above: rank <= MG_STRIDED_MAX_RANK,
   elem_bytes in 1..bytes, dims >= 1, strides >= 0, every element inside the range. The
   exact policy relies on it (no overflow); an access that breaks it is to be compared as its
   whole range (rank 0). */
int mg_strided_is_sound(const mg_strided *x);

/* 1 when the byte ranges of a and b meet (an empty range meets nothing). */
int mg_ranges_meet(const mg_strided *a, const mg_strided *b);

/* The conservative policy: 1 unless the ranges are apart, or a and b are the same dense
   bytes element for element (both rank 0 over one range, one element size: in-place).
   Strided views whose ranges meet conflict even when they interleave without sharing a
   byte: a plan that copies them is always right. Reads base, bytes, elem_bytes and rank
   only (a caller may leave dims and strides unset). */
int mg_overlap_conservative(const mg_strided *a, const mg_strided *b);

/* The exact policy: 1 when a and b share a byte (both sound, or rank 0). A residue proof
   separates the common interleaved layouts in O(rank); failing that, the runs of one that
   meet the other's range are walked, each asked whether the other has a byte in it, and
   every visit counts down *visits_left: when it runs out the answer is 1 (taken to
   conflict) and *visits_left is 0. */
int mg_overlap_exact(const mg_strided *a, const mg_strided *b, uint64_t *visits_left);

#ifdef __cplusplus
}
#endif

#endif /* MG_STRIDED_H_ */

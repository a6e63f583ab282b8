/*
 * op_kernel/simd/mg_simd_partial.h: partial vectors (n < MG_LANES elements) through a
 * zeroed MG_LANES buffer, for ISAs without a masked load/store of that element size.
 * Included by a vocabulary header after it has defined mg_vf, MG_LANES and the full-vector
 * load/store; only the n elements of the caller's memory are read or written.
 */
#ifndef MG_SIMD_PARTIAL_H_
#define MG_SIMD_PARTIAL_H_

#include <stddef.h>
#include <string.h>

#define MG_DEFINE_PARTIAL_VIA_BUFFER(elem_t, name, LOAD, STORE)           \
    static inline mg_vf mg_load_##name##_n(const elem_t *p, size_t n) {   \
        elem_t lanes[MG_LANES] = {0};                                      \
        memcpy(lanes, p, n * sizeof *p);                                   \
        return LOAD(lanes);                                                \
    }                                                                      \
    static inline void mg_store_##name##_n(elem_t *p, mg_vf v, size_t n) { \
        elem_t lanes[MG_LANES];                                            \
        STORE(lanes, v);                                                   \
        memcpy(p, lanes, n * sizeof *p);                                   \
    }

#endif /* MG_SIMD_PARTIAL_H_ */

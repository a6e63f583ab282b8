/*
 * op_kernel/simd/mg_simd_pair.h: two consecutive vectors (2 * MG_LANES elements) loaded or
 * stored at once, for the tiles' main loops. An ISA where a pair is cheaper than two single
 * vectors (AVX-512's bfloat16: one widening permute per vector, one vcvtne2ps2bf16 per pair)
 * writes its own; every other pair is two single vectors, through this macro. A pair gives
 * the same bits as its two single vectors, lane for lane, in the same order.
 * Included by a vocabulary header after its single-vector loads and stores.
 */
#ifndef MG_SIMD_PAIR_H_
#define MG_SIMD_PAIR_H_

/* The stores alone, for an ISA that writes its own pair load */
#define MG_DEFINE_PAIR_STORES_VIA_SINGLE(elem_t, name, STORE, STREAM)                           \
    static inline void mg_store_##name##_x2(elem_t *p, mg_vf first, mg_vf second) {           \
        STORE(p, first);                                                                       \
        STORE(p + MG_LANES, second);                                                           \
    }                                                                                          \
    static inline void mg_stream_##name##_x2(elem_t *p, mg_vf first, mg_vf second) {          \
        STREAM(p, first);                                                                      \
        STREAM(p + MG_LANES, second);                                                          \
    }

#define MG_DEFINE_PAIR_VIA_SINGLE(elem_t, name, LOAD, STORE, STREAM)                            \
    static inline void mg_load_##name##_x2(const elem_t *p, mg_vf *first, mg_vf *second) {    \
        *first = LOAD(p);                                                                      \
        *second = LOAD(p + MG_LANES);                                                          \
    }                                                                                          \
    MG_DEFINE_PAIR_STORES_VIA_SINGLE(elem_t, name, STORE, STREAM)

#endif /* MG_SIMD_PAIR_H_ */

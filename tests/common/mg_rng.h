/*
 * tests/common/mg_rng.h: the seedable generator the tests share (splitmix64), so every
 * random case is reproducible from its seed.
 */
#ifndef MG_RNG_H_
#define MG_RNG_H_

#include <stdint.h>

typedef struct mg_rng {
    uint64_t state;
} mg_rng;

static inline uint64_t mg_rng_next(mg_rng *rng) {
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi). */
static inline double mg_rng_uniform(mg_rng *rng, double lo, double hi) {
    return lo + (hi - lo) * ((double)(mg_rng_next(rng) >> 11) * 0x1.0p-53);
}

#endif /* MG_RNG_H_ */

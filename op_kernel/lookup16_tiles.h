/*
 * op_kernel/lookup16_tiles.h: 16-bit tiles that look their results up instead of computing
 * them, for a unary operator's body (op_kernel/<op>_body.h); ggml does the same for its
 * float16 activations. Include after a vocabulary header.
 *
 *   MG_DEFINE_LOOKUP16_TILES(FN, dtype)
 *
 * after the body has defined FN(dtype##_evaluated) (void (const void *, void *, size_t); FN is
 * the body's function-name macro, e.g. MISH_FN_), defines FN(dtype) (cached stores) and
 * FN(dtype##_streamed) (streaming stores; `out` MG_STREAM_ALIGN-aligned). Invariants: the
 * 65536-entry table (128 KiB per format and ISA) is filled by the evaluated tile for every bit
 * pattern on this ISA's first call (pthread_once), so the bits are the evaluation's; the tile
 * contract is the evaluated one's (out may be x; nothing outside x[0, n) read or out[0, n)
 * written, prefetch hints aside). Gathers where the ISA has them (mg_lookup_words).
 */
#ifndef LOOKUP16_TILES_H_
#define LOOKUP16_TILES_H_

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define MG_DEFINE_LOOKUP16_TILES(FN, dtype)                                                \
    static uint16_t FN(dtype##_table)[MG_LOOKUP_TABLE_WORDS];                              \
    static pthread_once_t FN(dtype##_table_once) = PTHREAD_ONCE_INIT;                      \
    static void FN(dtype##_table_fill)(void) {                                            \
        uint16_t inputs[1024];                                                            \
        for (uint32_t base = 0; base < 65536u; base += 1024u) {                           \
            for (uint32_t k = 0; k < 1024u; k++) inputs[k] = (uint16_t)(base + k);        \
            FN(dtype##_evaluated)(inputs, FN(dtype##_table) + base, 1024);                \
        }                                                                                 \
    }                                                                                     \
    static const uint16_t *FN(dtype##_results)(void) {                                    \
        pthread_once(&FN(dtype##_table_once), FN(dtype##_table_fill));                    \
        return FN(dtype##_table);                                                         \
    }                                                                                     \
    MG_DEFINE_LOOKUP16_TILE_(FN, dtype, dtype, mg_lookup_words)                            \
    MG_DEFINE_LOOKUP16_TILE_(FN, dtype##_streamed, dtype, mg_lookup_words_stream)

/* Every full group of MG_LOOKUP_WORDS inputs, then one word at a time; each group's
   indices are read before its results are stored, so in place is safe */
#define MG_DEFINE_LOOKUP16_TILE_(FN, name, dtype, LOOKUP)                                  \
    static void FN(name)(const void *x_v, void *out_v, size_t n) {                        \
        const uint16_t *table = FN(dtype##_results)();                                    \
        const uint16_t *x = (const uint16_t *)x_v;                                        \
        uint16_t *out = (uint16_t *)out_v;                                                \
        size_t i = 0;                                                                     \
        for (; i + MG_LOOKUP_WORDS <= n; i += MG_LOOKUP_WORDS) {                          \
            mg_prefetch_ahead(x + i, MG_LOOKUP_WORDS * sizeof *x);                        \
            LOOKUP(table, x + i, out + i);                                                \
        }                                                                                 \
        for (; i < n; i++) out[i] = table[x[i]];                                          \
    }

#endif /* LOOKUP16_TILES_H_ */

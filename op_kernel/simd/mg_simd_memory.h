/*
 * op_kernel/simd/mg_simd_memory.h: what the tiles ask of memory beyond loads and stores,
 * the same on every ISA: a software prefetch a fixed distance ahead of a stream, and a
 * 16-bit table lookup written with plain loads (for ISAs without gathers).
 *
 * Why prefetch: a tile reads its input as one forward stream, and on some machines the
 * hardware prefetchers do not run far enough ahead of it (measured: docs/performance.md,
 * "A software prefetch 2 KiB ahead"). A prefetch is a hint: it never faults and reads
 * nothing into the program, so naming lines past the end of the input is harmless
 * (XNNPACK's kernels do the same).
 * Included by each vocabulary header; the gathering ISAs define mg_lookup_words themselves.
 */
#ifndef MG_SIMD_MEMORY_H_
#define MG_SIMD_MEMORY_H_

#include <stddef.h>
#include <stdint.h>

/* 2 KiB: 2 and 4 KiB measured alike at 3e7, 1 KiB lower, 8 KiB slightly slower
   (docs/performance.md) */
#define MG_PREFETCH_AHEAD_BYTES 2048
#define MG_CACHE_LINE_BYTES 64

/* Prefetch the lines MG_PREFETCH_AHEAD_BYTES ahead of a step that reads step_bytes from p
   (at least one line per step; a compile-time step_bytes makes the loop disappear). */
static inline void mg_prefetch_ahead(const void *p, size_t step_bytes) {
    const char *ahead = (const char *)p + MG_PREFETCH_AHEAD_BYTES;
    size_t offset = 0;
    do {
        __builtin_prefetch(ahead + offset, 0, 3);
        offset += MG_CACHE_LINE_BYTES;
    } while (offset < step_bytes);
}

/* mg_lookup_words and mg_lookup_words_stream for an ISA without gathers (and without
   streaming stores): out[k] = table[index[k]] for k < MG_LOOKUP_WORDS (which the vocabulary
   header defines first), by plain loads. out may be index itself (each word is read before
   its own slot is written; the tiles allow no other overlap). */
#define MG_DEFINE_LOOKUP_WORDS_BY_LOADS()                                                            \
    static inline void mg_lookup_words(const uint16_t *table, const uint16_t *index, uint16_t *out) {  \
        for (size_t k = 0; k < MG_LOOKUP_WORDS; k++) out[k] = table[index[k]];                         \
    }                                                                                                  \
    static inline void mg_lookup_words_stream(const uint16_t *table, const uint16_t *index, uint16_t *out) { \
        mg_lookup_words(table, index, out);                                                            \
    }

/* The contract every ISA's mg_lookup_words(table, index, out) and mg_lookup_words_stream
   keep: MG_LOOKUP_WORDS words, out[k] = table[index[k]], every index read before any out
   is written; table has MG_LOOKUP_TABLE_WORDS entries (the last one only pads the 32-bit
   gathers, which read the word after the one they want); the stream form needs out
   MG_STREAM_ALIGN-aligned, like mg_stream. */
#define MG_LOOKUP_TABLE_WORDS (65536 + 1)

#endif /* MG_SIMD_MEMORY_H_ */

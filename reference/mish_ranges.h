/*
 * reference/mish_ranges.h: the x ranges accuracy is reported in (issue 4), and an
 * order-preserving key for float32 bit patterns so that sweeps can walk value ranges.
 *
 * The edges are where the float32 arithmetic changes character: exp(x) underflows to 0
 * below -103.97 and goes subnormal below -87.34; the root of mish' is at -1.19243; the
 * result reaches 1 to float32 precision near x = 9 and is exactly 1 from x ~ 20.
 */
#ifndef MISH_RANGES_H_
#define MISH_RANGES_H_

#include <stdint.h>

enum { MISH_RANGE_COUNT = 9, MISH_RANGE_ROOT = 4 };

static const char *const mish_range_names[MISH_RANGE_COUNT] = {
    "x < -103",       "[-103, -87.3)", "[-87.3, -20)", "[-20, -1.3)", "[-1.3, -1.1) root",
    "[-1.1, 0)",      "[0, 9)",        "[9, 20)",      "x >= 20"};

/* The range of a finite or infinite x (NaN: -1). -0 belongs with +0. */
static inline int mish_range_of(float x) {
    if (x != x) return -1;
    if (x < -103.0f) return 0;
    if (x < -87.3f) return 1;
    if (x < -20.0f) return 2;
    if (x < -1.3f) return 3;
    if (x < -1.1f) return 4;
    if (x < 0.0f) return 5;
    if (x < 9.0f) return 6;
    if (x < 20.0f) return 7;
    return 8;
}

/* Where the float32 forward (op_kernel/mish_body.h) changes formula besides the points the
   tests list themselves: the edges k + 0.5 of its table form's intervals (x < -8.5 takes
   the anchored form) and 9.5, above which x is clamped. The windows of the accuracy and
   bit-identity tests are centred on each. */
enum { MISH_FWD_TABLE_EDGE_COUNT = 17 };
static const float mish_fwd_table_edges[MISH_FWD_TABLE_EDGE_COUNT] = {
    -8.5f, -7.5f, -6.5f, -5.5f, -4.5f, -3.5f, -2.5f, -1.5f, -0.5f,
    0.5f,  1.5f,  2.5f,  3.5f,  4.5f,  5.5f,  6.5f,  9.5f};

/* A bijection between the 2^32 float32 patterns and integers that is monotone in value on
   the non-NaN ones: +0 -> 0, -0 -> -1, the most negative finite -> -0x7F800000, the most
   positive finite -> 0x7F7FFFFF. */
#define MISH_KEY_MIN_FINITE (-(int64_t)0x7F800000)
#define MISH_KEY_MAX_FINITE ((int64_t)0x7F7FFFFF)

static inline int64_t mish_key_of_bits(uint32_t bits) {
    return (bits & 0x80000000u) ? -(int64_t)(bits & 0x7FFFFFFFu) - 1 : (int64_t)bits;
}

static inline uint32_t mish_bits_of_key(int64_t key) {
    return key >= 0 ? (uint32_t)key : (0x80000000u | (uint32_t)(-(key + 1)));
}

#endif /* MISH_RANGES_H_ */

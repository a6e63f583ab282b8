/* opdev/src/l0_kernels.h: the CPU kernels of opdev's helper l0 ops, as executor steps. */
#ifndef MG_OPDEV_L0_KERNELS_H_
#define MG_OPDEV_L0_KERNELS_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* IEEE binary16 to and from double, rounded once to nearest even (NaN stays NaN, beyond
   65504 + half a step is infinity): op::fp16_t's conversions (aclnn/opdev/fp16_t.h), given to
   the C kernels by fp16_bridge.cpp. */
uint16_t mg_half_from_double(double value);
double mg_half_to_double(uint16_t bits);

typedef struct mg_cast_params {
    int64_t n;
    int src, dst; /* ge/acl dtypes */
} mg_cast_params;
/* buffers: [0] n dense source elements, [1] n dense destination elements. */
int32_t mg_cast_step(const void *params, void *const *buffers);
/* Whether mg_cast_step converts between these types. */
int mg_cast_supported(int dtype);

typedef struct mg_muls_params {
    int64_t n;
    int dtype; /* float32, float16 or bfloat16 (mg_muls_supported) */
    float alpha;
} mg_muls_params;
/* buffers: [0] n dense source elements, [1] n dense destination elements. */
int32_t mg_muls_step(const void *params, void *const *buffers);
int mg_muls_supported(int dtype);

#define MG_BROADCAST_MAX_RANK 8
typedef struct mg_broadcast_params {
    int rank;
    int64_t elem_size, numel;
    int64_t dims[MG_BROADCAST_MAX_RANK];        /* the output's */
    int64_t in_strides[MG_BROADCAST_MAX_RANK];  /* elements; 0 along a repeated dim */
} mg_broadcast_params;
/* buffers: [0] the dense source, [1] numel dense destination elements. */
int32_t mg_broadcast_step(const void *params, void *const *buffers);

/* Fill: every one of n elements of elem_size bytes is the value; the value is `value`
   (a host tensor's bytes, known at phase 1) unless from_buffer, when it is the first element
   of buffers[0] (a tensor of the plan). */
#define MG_FILL_MAX_ELEM 16
typedef struct mg_fill_params {
    int64_t n;
    int64_t elem_size;
    int from_buffer;
    unsigned char value[MG_FILL_MAX_ELEM];
} mg_fill_params;
/* buffers: [0] the value's tensor (from_buffer) then the destination; else [0] the destination. */
int32_t mg_fill_step(const void *params, void *const *buffers);

/* A host tensor's bytes written into its place in the workspace, for the steps that read
   it there (a kernel launch taking a host tensor as a GM input). */
#define MG_CONST_MAX_BYTES 1000
typedef struct mg_const_params {
    uint32_t nbytes;
    unsigned char bytes[MG_CONST_MAX_BYTES];
} mg_const_params;
/* buffers: [0] the destination (nbytes). */
int32_t mg_const_step(const void *params, void *const *buffers);

/* n values of dtype `src` at `from` converted to dtype `dst` at `to` (mg_cast_step's rules;
   the same dtype is copied bit for bit). 0 when both dtypes are supported, -1 otherwise. */
int mg_convert_values(int src, const void *from, int dst, void *to, int64_t n);
/* The bytes of one element of a dtype, 0 when mg_cast_supported does not know it. */
int mg_cast_elem_size(int dtype);

#ifdef __cplusplus
}
#endif

#endif

/* opdev/src/l0_kernels.h: the CPU kernels of opdev's helper l0 ops, as executor steps. */
#ifndef MG_OPDEV_L0_KERNELS_H_
#define MG_OPDEV_L0_KERNELS_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif

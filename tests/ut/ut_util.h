/*
 * tests/ut/ut_util.h: what the foundation's unit tests share.
 *
 * - mish' from the project's one reference (reference/mish_reference.h, independent
 *   of the kernels).
 * - Our own IEEE binary16 / bfloat16 rounding and decoding, so the tests never judge the
 *   library with the library's converters.
 * - ut_tensor: an aclrtMalloc block, a host mirror of the whole block and the aclTensor
 *   describing a view into it, so a test can pre-fill every byte with a sentinel and later
 *   see exactly which bytes the operator wrote.
 */
#ifndef UT_UTIL_H_
#define UT_UTIL_H_

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "mg_rng.h"

/* 1 under ASan or TSan: their allocators abort on an impossible size instead of failing,
   and keep no glibc malloc statistics. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UT_SANITIZER_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UT_SANITIZER_ALLOCATOR 1
#endif
#endif
#ifndef UT_SANITIZER_ALLOCATOR
#define UT_SANITIZER_ALLOCATOR 0
#endif
#include "mish_reference.h"
#include "mg_test.h"

#define UT_MAX_RANK 9
/* Byte written over every storage byte a test expects to stay untouched. */
#define UT_SENTINEL_BYTE 0xA5

/* ---- the reference -------------------------------------------------------------------- */

/* mish'(x) from the project's one reference (reference/mish_reference.h: long double,
   from one exponential in a form without cancellation inside its terms; it shares no code
   with op_kernel/ and has its own tests), rounded to double. */
static inline double ut_mish_grad_ref(double x) { return (double)mish_ref_grad_ld((long double)x); }

/* ---- 16-bit formats, written here independently of the library ---------------------- */

typedef struct ut_format {
    int mant_bits;  /* stored fraction bits */
    int exp_bits;
    int bias;
} ut_format;

static const ut_format UT_FP16 = {10, 5, 15};
static const ut_format UT_BF16 = {7, 8, 127};

/* Rounds v to the nearest value of `f` (ties to even), overflow to infinity. v / q below is
   exact because q is a power of two well inside double's range, and nearbyint rounds to
   nearest-even in the default rounding mode. */
static inline double ut_round_to_format(double v, ut_format f) {
    if (isnan(v) || isinf(v) || v == 0.0) return v;
    int emin = 1 - f.bias, emax = f.bias;
    int e;
    (void)frexp(fabs(v), &e);
    int lead = e - 1;
    if (lead < emin) lead = emin;
    double quantum = ldexp(1.0, lead - f.mant_bits);
    double r = nearbyint(v / quantum) * quantum;
    double max_finite = ldexp(2.0 - ldexp(1.0, -f.mant_bits), emax);
    if (fabs(r) > max_finite) return copysign(INFINITY, v);
    return r;
}

/* Bits of a value already representable in `f` (NaN becomes the canonical quiet NaN). */
static inline uint16_t ut_encode(double r, ut_format f) {
    uint16_t sign = (uint16_t)(signbit(r) ? 1u << 15 : 0u);
    uint16_t exp_all_ones = (uint16_t)(((1u << f.exp_bits) - 1u) << f.mant_bits);
    if (isnan(r)) return (uint16_t)(exp_all_ones | (1u << (f.mant_bits - 1)));
    double a = fabs(r);
    if (isinf(a)) return (uint16_t)(sign | exp_all_ones);
    if (a == 0.0) return sign;
    int emin = 1 - f.bias;
    if (a < ldexp(1.0, emin)) {
        return (uint16_t)(sign | (uint16_t)(a / ldexp(1.0, emin - f.mant_bits)));
    }
    int e;
    (void)frexp(a, &e);
    int lead = e - 1;
    uint32_t mant = (uint32_t)((a / ldexp(1.0, lead) - 1.0) * ldexp(1.0, f.mant_bits));
    return (uint16_t)(sign | ((uint32_t)(lead + f.bias) << f.mant_bits) | mant);
}

static inline double ut_decode(uint16_t bits, ut_format f) {
    int sign = bits >> 15;
    uint32_t exp_field = (uint32_t)(bits >> f.mant_bits) & ((1u << f.exp_bits) - 1u);
    uint32_t mant = bits & ((1u << f.mant_bits) - 1u);
    double v;
    if (exp_field == (1u << f.exp_bits) - 1u) {
        v = mant ? NAN : INFINITY;
    } else if (exp_field == 0) {
        v = ldexp((double)mant, 1 - f.bias - f.mant_bits);
    } else {
        v = ldexp(1.0 + ldexp((double)mant, -f.mant_bits), (int)exp_field - f.bias);
    }
    return sign ? -v : v;
}

/* Distance in units in the last place between two finite encodings of one format. */
static inline long ut_ulp_distance(uint16_t a, uint16_t b) {
    long oa = (a & 0x8000) ? -(long)(a & 0x7FFF) : (long)a;
    long ob = (b & 0x8000) ? -(long)(b & 0x7FFF) : (long)b;
    return oa > ob ? oa - ob : ob - oa;
}

/* ---- element access by dtype --------------------------------------------------------- */

static inline size_t ut_elem_size(aclDataType dtype) {
    switch (dtype) {
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_DOUBLE: case ACL_INT64: case ACL_UINT64: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    default: return 1;
    }
}

static inline void ut_store(aclDataType dtype, void *base, int64_t index, double v) {
    unsigned char *p = (unsigned char *)base + (size_t)index * ut_elem_size(dtype);
    if (dtype == ACL_FLOAT) {
        float f = (float)v;
        memcpy(p, &f, 4);
    } else if (dtype == ACL_FLOAT16 || dtype == ACL_BF16) {
        ut_format f = dtype == ACL_FLOAT16 ? UT_FP16 : UT_BF16;
        uint16_t h = ut_encode(ut_round_to_format(v, f), f);
        memcpy(p, &h, 2);
    } else if (dtype == ACL_DOUBLE) {
        memcpy(p, &v, 8);
    } else if (dtype == ACL_INT32) {
        int32_t i = (int32_t)v;
        memcpy(p, &i, 4);
    } else {
        *p = (unsigned char)v;
    }
}

static inline double ut_load(aclDataType dtype, const void *base, int64_t index) {
    const unsigned char *p = (const unsigned char *)base + (size_t)index * ut_elem_size(dtype);
    if (dtype == ACL_FLOAT) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    if (dtype == ACL_FLOAT16 || dtype == ACL_BF16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return ut_decode(h, dtype == ACL_FLOAT16 ? UT_FP16 : UT_BF16);
    }
    if (dtype == ACL_DOUBLE) {
        double d;
        memcpy(&d, p, 8);
        return d;
    }
    if (dtype == ACL_INT32) {
        int32_t i;
        memcpy(&i, p, 4);
        return i;
    }
    return *p;
}

static inline uint16_t ut_load_bits16(const void *base, int64_t index) {
    uint16_t h;
    memcpy(&h, (const unsigned char *)base + (size_t)index * 2, 2);
    return h;
}

/* ---- runtime set-up, once per process -------------------------------------------------- */

static int ut_acl_ready;
static aclrtStream ut_stream;

/* aclInit, device 0 and one stream; every test that touches the runtime calls this. */
static inline void ut_init(void) {
    if (ut_acl_ready) return;
    aclError rc = aclInit(NULL);
    if (rc != ACL_SUCCESS) {
        fprintf(stderr, "aclInit failed: %d (%s)\n", rc, aclGetRecentErrMsg());
        exit(1);
    }
    if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&ut_stream) != ACL_SUCCESS) {
        fprintf(stderr, "device 0 / stream set-up failed: %s\n", aclGetRecentErrMsg());
        exit(1);
    }
    ut_acl_ready = 1;
}

/* Runs the tests, then releases what ut_init took; a failing teardown fails the run. */
static inline int ut_main(int argc, char **argv) {
    int rc = mg_test_run_filtered(argc > 1 ? argv[1] : NULL);
    if (ut_acl_ready) {
        aclError d = aclrtDestroyStream(ut_stream);
        aclError r = aclrtResetDevice(0);
        aclError f = aclFinalize();
        if (d != ACL_SUCCESS || r != ACL_SUCCESS || f != ACL_SUCCESS) {
            fprintf(stderr, "teardown failed: destroy %d, reset %d, finalize %d\n", d, r, f);
            rc = 1;
        }
    }
    return rc;
}

/* ---- tensors with a host mirror ------------------------------------------------------ */

typedef struct ut_tensor {
    aclTensor *tensor;
    void *block;             /* aclrtMalloc storage, NULL when the storage is empty */
    unsigned char *host;     /* mirror of the whole storage */
    size_t bytes;            /* storage bytes */
    aclDataType dtype;
    int rank;
    int64_t dims[UT_MAX_RANK];
    int64_t strides[UT_MAX_RANK];
    int64_t offset;
    int64_t storage_elems;
} ut_tensor;

static inline int64_t ut_numel(const ut_tensor *u) {
    int64_t n = 1;
    for (int i = 0; i < u->rank; i++) n *= u->dims[i];
    return n;
}

/* Storage element of the view's row-major element `linear`. */
static inline int64_t ut_storage_index(const ut_tensor *u, int64_t linear) {
    int64_t at = u->offset;
    for (int i = u->rank - 1; i >= 0; i--) {
        at += (linear % u->dims[i]) * u->strides[i];
        linear /= u->dims[i];
    }
    return at;
}

/* A view `dims`/`strides` (NULL: row-major) at `offset` into a fresh aclrtMalloc block of
   `storage_elems` elements (< 0: just enough for the view). The storage is pre-filled with
   the sentinel, host and device alike. */
static inline void ut_tensor_make(ut_tensor *u, aclDataType dtype, int rank, const int64_t *dims,
                                  const int64_t *strides, int64_t offset, int64_t storage_elems,
                                  aclFormat format) {
    memset(u, 0, sizeof *u);
    u->dtype = dtype;
    u->rank = rank;
    u->offset = offset;
    int64_t row_major = 1;
    for (int i = rank - 1; i >= 0; i--) {
        u->dims[i] = dims[i];
        u->strides[i] = strides ? strides[i] : row_major;
        row_major *= dims[i];
    }
    if (storage_elems < 0) {
        int64_t reach = offset;
        int empty = 0;
        for (int i = 0; i < rank; i++) {
            if (dims[i] == 0) empty = 1;
            else reach += (dims[i] - 1) * u->strides[i];
        }
        storage_elems = empty ? 0 : reach + 1;
    }
    u->storage_elems = storage_elems;
    u->bytes = (size_t)storage_elems * ut_elem_size(dtype);
    u->host = (unsigned char *)malloc(u->bytes ? u->bytes : 1);
    memset(u->host, UT_SENTINEL_BYTE, u->bytes);
    if (u->bytes) {
        if (aclrtMalloc(&u->block, u->bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
            fprintf(stderr, "aclrtMalloc(%zu) failed: %s\n", u->bytes, aclGetRecentErrMsg());
            exit(1);
        }
        aclrtMemcpy(u->block, u->bytes, u->host, u->bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    }
    int64_t storage_dims[1] = {storage_elems};
    u->tensor = aclCreateTensor(rank ? u->dims : NULL, (uint64_t)rank, dtype,
                                rank ? u->strides : NULL, offset, format, storage_dims, 1,
                                u->block);
    if (!u->tensor) {
        fprintf(stderr, "aclCreateTensor failed: %s\n", aclGetRecentErrMsg());
        exit(1);
    }
}

/* A dense row-major tensor, format ND. */
static inline void ut_tensor_dense(ut_tensor *u, aclDataType dtype, int rank, const int64_t *dims) {
    ut_tensor_make(u, dtype, rank, dims, NULL, 0, -1, ACL_FORMAT_ND);
}

static inline void ut_tensor_free(ut_tensor *u) {
    if (u->tensor) aclDestroyTensor(u->tensor);
    if (u->block) aclrtFree(u->block);
    free(u->host);
    memset(u, 0, sizeof *u);
}

static inline void ut_set(ut_tensor *u, int64_t linear, double v) {
    ut_store(u->dtype, u->host, ut_storage_index(u, linear), v);
}

static inline double ut_get(const ut_tensor *u, int64_t linear) {
    return ut_load(u->dtype, u->host, ut_storage_index(u, linear));
}

static inline void ut_upload(ut_tensor *u) {
    if (u->bytes) aclrtMemcpy(u->block, u->bytes, u->host, u->bytes, ACL_MEMCPY_HOST_TO_DEVICE);
}

static inline void ut_download(ut_tensor *u) {
    if (u->bytes) aclrtMemcpy(u->host, u->bytes, u->block, u->bytes, ACL_MEMCPY_DEVICE_TO_HOST);
}

/* Fills the view with random values of the tensor's type in [lo, hi) and uploads. */
static inline void ut_fill_random(ut_tensor *u, mg_rng *rng, double lo, double hi) {
    int64_t n = ut_numel(u);
    for (int64_t i = 0; i < n; i++) ut_set(u, i, mg_rng_uniform(rng, lo, hi));
    ut_upload(u);
}

/* Resets host and device storage to the sentinel. */
static inline void ut_fill_sentinel(ut_tensor *u) {
    memset(u->host, UT_SENTINEL_BYTE, u->bytes);
    ut_upload(u);
}

/* Number of storage bytes that no longer hold the sentinel (downloads first). */
static inline size_t ut_changed_bytes(ut_tensor *u) {
    ut_download(u);
    size_t changed = 0;
    for (size_t i = 0; i < u->bytes; i++) changed += u->host[i] != UT_SENTINEL_BYTE;
    return changed;
}

/* ---- running the operators (tests/ut/ut_ops.h: the one runner) ------------------------ */

#include "ut_ops.h"

/* aclnnMishBackward on (gradOutput, self, gradInput): ut_op_run's shorthand. */
static inline aclnnStatus ut_run(ut_tensor *grad_output, ut_tensor *self, ut_tensor *grad_input,
                                 aclrtStream stream, uint64_t *workspace_size) {
    ut_tensor t[3] = {*grad_output, *self, *grad_input};
    return ut_op_run(&UT_MISH_BACKWARD, t, stream, workspace_size);
}

/* Whether `got` is an acceptable gradient for gradOutput `g` and self `x` (ut_result_ok). */
static inline int ut_value_ok(aclDataType dtype, double g, double x, double got, uint16_t bits) {
    double in[2] = {g, x}, scale = 0;
    double ref = ut_backward_reference(in, &scale);
    return ut_result_ok(dtype, ref, scale, got, bits);
}

/* Downloads grad_input and counts the elements of its view that are not gradOutput *
   mish'(self) (inputs from their host mirrors). With `what` set, the first few mismatches
   are reported as test failures; with `what` NULL it is silent (safe off the main
   thread). */
static inline int64_t ut_count_wrong(const ut_tensor *grad_output, const ut_tensor *self,
                                     ut_tensor *grad_input, const char *what) {
    ut_download(grad_input);
    int64_t n = ut_numel(grad_input), bad = 0;
    for (int64_t i = 0; i < n; i++) {
        double g = ut_get(grad_output, i), x = ut_get(self, i);
        int64_t at = ut_storage_index(grad_input, i);
        double got = ut_load(grad_input->dtype, grad_input->host, at);
        uint16_t bits = grad_input->dtype == ACL_FLOAT ? 0 : ut_load_bits16(grad_input->host, at);
        if (ut_value_ok(grad_input->dtype, g, x, got, bits)) continue;
        if (what && bad < 5) {
            MG_FAIL("%s: element %" PRId64 ": gradOutput %.9g self %.9g -> %.9g, expected %.9g",
                    what, i, g, x, got, g * ut_mish_grad_ref(x));
        }
        bad++;
    }
    if (what && bad > 5) MG_FAIL("%s: %" PRId64 " of %" PRId64 " elements wrong", what, bad, n);
    return bad;
}

static inline int64_t ut_check_values(const ut_tensor *grad_output, const ut_tensor *self,
                                      ut_tensor *grad_input, const char *what) {
    mg_checks_done++;
    return ut_count_wrong(grad_output, self, grad_input, what);
}

#endif /* UT_UTIL_H_ */

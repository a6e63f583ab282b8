/*
 * tests/reliability/test_mutation_l0.c: the elementwise L0 kernel step (ew_add_kernel, the
 * layer's internal header op_host/elementwise/elementwise.h, compiled into this test) with
 * operators of one, two and three inputs made up here, whose tile functions record every
 * call. What is checked, against written expectations and not against the code's own
 * arithmetic:
 *
 *   - every element of the output is computed exactly once, from the same element of every
 *     input (each call's pointers sit at the same element offset in every buffer), in calls
 *     of at most 8192 elements that never cross a block of the tiling;
 *   - the values: out = a (unary, times 3), a - 2b (binary), a + 2b + 4c (ternary);
 *   - the streaming tile function is used exactly when the tiling says stream_out (1 MiB of
 *     output per thread), the cached one otherwise;
 *   - input counts outside 1..3 are refused with 561000 and the exact message; a missing
 *     tile function with 561003 naming the kind and the dtype; a tiling refusal (negative
 *     element count) passes its 561002 on.
 *
 * The three-input path exists for operators to come (none has three inputs yet), so only a
 * test of its own reaches it.
 */
#include <pthread.h>

#include "elementwise.h"
#include "mg_test.h"

#define MAX_CALLS 4096
typedef struct call_record {
    int64_t at[4];   /* element offset of each pointer in its buffer: inputs, then out */
    int64_t count;
    int streaming;
} call_record;

static call_record calls[MAX_CALLS];
static int call_count;
static pthread_mutex_t calls_lock = PTHREAD_MUTEX_INITIALIZER;
static const unsigned char *bases[4];
static int inputs_now;
static size_t elem_now;

static void record(const void *const *ptrs, int n_ptrs, size_t count, int streaming) {
    pthread_mutex_lock(&calls_lock);
    if (call_count < MAX_CALLS) {
        call_record *c = &calls[call_count];
        for (int i = 0; i < 4; i++) c->at[i] = -1;
        for (int i = 0; i < n_ptrs; i++)
            c->at[i] = ((const unsigned char *)ptrs[i] - bases[i]) / (int64_t)elem_now;
        c->count = (int64_t)count;
        c->streaming = streaming;
    }
    call_count++;
    pthread_mutex_unlock(&calls_lock);
}

/* float32 kernels: the values show which inputs were read, the record where. */
static void unary_f(const void *x, void *out, size_t n, int streaming) {
    const void *p[4] = {x, out};
    record(p, 2, n, streaming);
    for (size_t i = 0; i < n; i++) ((float *)out)[i] = 3.0f * ((const float *)x)[i];
}
static void unary_cached(const void *x, void *out, size_t n) { unary_f(x, out, n, 0); }
static void unary_stream(const void *x, void *out, size_t n) { unary_f(x, out, n, 1); }

static void binary_f(const void *a, const void *b, void *out, size_t n, int streaming) {
    const void *p[4] = {a, b, out};
    record(p, 3, n, streaming);
    for (size_t i = 0; i < n; i++) ((float *)out)[i] = ((const float *)a)[i] - 2.0f * ((const float *)b)[i];
}
static void binary_cached(const void *a, const void *b, void *out, size_t n) { binary_f(a, b, out, n, 0); }
static void binary_stream(const void *a, const void *b, void *out, size_t n) { binary_f(a, b, out, n, 1); }

static void ternary_f(const void *a, const void *b, const void *c, void *out, size_t n, int streaming) {
    const void *p[4] = {a, b, c, out};
    record(p, 4, n, streaming);
    for (size_t i = 0; i < n; i++)
        ((float *)out)[i] = ((const float *)a)[i] + 2.0f * ((const float *)b)[i] + 4.0f * ((const float *)c)[i];
}
static void ternary_cached(const void *a, const void *b, const void *c, void *out, size_t n) {
    ternary_f(a, b, c, out, n, 0);
}
static void ternary_stream(const void *a, const void *b, const void *c, void *out, size_t n) {
    ternary_f(a, b, c, out, n, 1);
}

/* 16-bit kernel (float16 as raw uint16): out = x + 1, to see byte offsets of 2-byte data. */
static void half_f(const void *x, void *out, size_t n, int streaming) {
    const void *p[4] = {x, out};
    record(p, 2, n, streaming);
    for (size_t i = 0; i < n; i++) ((uint16_t *)out)[i] = (uint16_t)(((const uint16_t *)x)[i] + 1u);
}
static void half_cached(const void *x, void *out, size_t n) { half_f(x, out, n, 0); }
static void half_stream(const void *x, void *out, size_t n) { half_f(x, out, n, 1); }

static void up(void) {
    static int done;
    if (!done) {
        MG_CHECK_EQ_INT(aclInit(NULL), 0);
        done = 1;
    }
    MG_CHECK_EQ_INT(aclrtSetDevice(0), 0);
}

static aclTensor *tensor_1d(void *data, int64_t n, aclDataType dtype) {
    int64_t dims[1] = {n}, strides[1] = {1};
    return aclCreateTensor(dims, 1, dtype, strides, 0, ACL_FORMAT_ND, dims, 1, data);
}

static const char *const names[] = {"a", "b", "c", "out"};

/* Runs an operator of `inputs` inputs over n float32 (or float16 when half) elements
   through ew_add_kernel and nnopbase's launch; checks everything listed at the top. */
static void run_case(int inputs, int64_t n, int half) {
    const size_t es = half ? 2 : 4;
    const aclDataType dtype = half ? ACL_FLOAT16 : ACL_FLOAT;
    void *data[4] = {NULL, NULL, NULL, NULL};
    aclTensor *tensors[4] = {NULL, NULL, NULL, NULL};
    for (int i = 0; i <= inputs; i++) {
        MG_CHECK_EQ_INT(aclrtMalloc(&data[i], (size_t)n * es, ACL_MEM_MALLOC_HUGE_FIRST), 0);
        tensors[i] = tensor_1d(data[i], n, dtype);
        bases[i] = data[i];
    }
    bases[inputs] = data[inputs];
    for (int64_t k = 0; k < n; k++) {
        if (half) {
            ((uint16_t *)data[0])[k] = (uint16_t)(k * 7u);
        } else {
            for (int i = 0; i < inputs; i++) ((float *)data[i])[k] = (float)((k % 1000) + 1000 * (i + 1));
        }
    }
    memset(data[inputs], 0xEE, (size_t)n * es);
    inputs_now = inputs;
    elem_now = es;
    call_count = 0;

    aclOpExecutor *e = nnop_executor_create("MutationL0", (const aclTensor *const *)tensors, (uint32_t)inputs,
                                            &tensors[inputs], 1, names);
    MG_CHECK(e != NULL);
    if (e == NULL) return;
    ew_kernel kernel;
    memset(&kernel, 0, sizeof kernel);
    kernel.isa = "test";
    if (half) {
        kernel.cached.unary = half_cached;
        kernel.streaming.unary = half_stream;
    } else if (inputs == 1) {
        kernel.cached.unary = unary_cached;
        kernel.streaming.unary = unary_stream;
    } else if (inputs == 2) {
        kernel.cached.binary = binary_cached;
        kernel.streaming.binary = binary_stream;
    } else {
        kernel.cached.ternary = ternary_cached;
        kernel.streaming.ternary = ternary_stream;
    }
    nnop_buffer in_buffers[3], out_buffer = {NNOP_BUFFER_OUTPUT, 0, 0};
    for (int i = 0; i < inputs; i++) in_buffers[i] = (nnop_buffer){NNOP_BUFFER_INPUT, (uint32_t)i, 0};
    MG_CHECK_EQ_INT(ew_add_kernel(e, "MutationL0", &kernel, inputs, in_buffers, out_buffer, n, dtype), 0);
    MG_CHECK_EQ_INT(nnop_executor_launch("MutationL0", NULL, 0, e, NULL), 0);
    MG_CHECK_EQ_INT(aclrtSynchronizeStream(NULL), 0);

    /* the tiling the step must have followed (ew_tile is checked by hand-worked numbers in
       reliability_strength_tiling) */
    ew_tiling t;
    MG_CHECK_EQ_INT(ew_tile(n, (int64_t)es, mgrt_num_threads(), &t), 0);
    int64_t expected_calls = 0;
    for (int64_t b = 0; b < t.block_count; b++) {
        int64_t len = n - b * t.block_elems < t.block_elems ? n - b * t.block_elems : t.block_elems;
        expected_calls += (len + 8191) / 8192;
    }
    MG_CHECK_EQ_INT(call_count, expected_calls);
    unsigned char *seen = calloc((size_t)n + 1, 1);
    int bad_calls = 0;
    for (int c = 0; c < call_count && c < MAX_CALLS; c++) {
        const call_record *r = &calls[c];
        int ok = r->count >= 1 && r->count <= 8192 && r->at[0] >= 0 && r->at[0] + r->count <= n &&
                 r->streaming == t.stream_out &&
                 r->at[0] / t.block_elems == (r->at[0] + r->count - 1) / t.block_elems;
        for (int i = 1; i <= inputs; i++) ok = ok && r->at[i] == r->at[0];
        for (int i = inputs + 1; i < 4; i++) ok = ok && r->at[i] == -1;
        if (!ok) {
            if (bad_calls++ < 5)
                MG_FAIL("%d inputs, n %lld: call %d at %lld/%lld/%lld/%lld count %lld streaming %d (tiling: %lld x %lld, "
                        "stream %d)", inputs, (long long)n, c, (long long)r->at[0], (long long)r->at[1],
                        (long long)r->at[2], (long long)r->at[3], (long long)r->count, r->streaming,
                        (long long)t.block_count, (long long)t.block_elems, t.stream_out);
            continue;
        }
        for (int64_t k = r->at[0]; k < r->at[0] + r->count; k++) seen[k]++;
    }
    MG_CHECK_EQ_INT(bad_calls, 0);
    int64_t not_once = 0, wrong = 0;
    for (int64_t k = 0; k < n; k++) {
        not_once += seen[k] != 1;
        if (half) {
            wrong += ((uint16_t *)data[inputs])[k] != (uint16_t)(k * 7u + 1u);
        } else {
            float a = (float)((k % 1000) + 1000), b = a + 1000, c = a + 2000;
            float want = inputs == 1 ? 3.0f * a : inputs == 2 ? a - 2.0f * b : a + 2.0f * b + 4.0f * c;
            wrong += ((float *)data[inputs])[k] != want;
        }
    }
    if (not_once || wrong)
        MG_FAIL("%d inputs, n %lld%s: %lld elements not computed exactly once, %lld wrong", inputs, (long long)n,
                half ? " (16-bit)" : "", (long long)not_once, (long long)wrong);
    else
        MG_CHECK(1);
    free(seen);
    for (int i = 0; i <= inputs; i++) {
        aclDestroyTensor(tensors[i]);
        aclrtFree(data[i]);
    }
}

static const int64_t sizes[] = {1, 7, 8191, 8192, 8193, 65536, 65536 + 129, 300001, 600000};

MG_TEST(unary_step_covers_every_element_once) {
    up();
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) run_case(1, sizes[i], 0);
}

MG_TEST(binary_step_covers_every_element_once) {
    up();
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) run_case(2, sizes[i], 0);
}

MG_TEST(ternary_step_covers_every_element_once) {
    up();
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) run_case(3, sizes[i], 0);
}

/* 2-byte elements: byte offsets are element offsets times 2 (and streaming starts at twice
   the element count). */
MG_TEST(half_step_offsets_in_bytes) {
    up();
    static const int64_t half_sizes[] = {3, 8193, 65536 + 1, 1200000};
    for (size_t i = 0; i < sizeof half_sizes / sizeof half_sizes[0]; i++) run_case(1, half_sizes[i], 1);
}

/* The refusals: exact status and message, and the executor still abandonable. */
MG_TEST(step_refusals) {
    up();
    void *data = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&data, 64, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    aclTensor *x = tensor_1d(data, 16, ACL_FLOAT);
    aclTensor *ts[4] = {x, x, x, x};
    ew_kernel kernel;
    memset(&kernel, 0, sizeof kernel);
    kernel.isa = "test";
    kernel.cached.unary = unary_cached;
    kernel.streaming.unary = unary_stream;
    nnop_buffer in[4] = {{NNOP_BUFFER_INPUT, 0, 0}, {NNOP_BUFFER_INPUT, 1, 0}, {NNOP_BUFFER_INPUT, 2, 0},
                         {NNOP_BUFFER_INPUT, 2, 0}};
    nnop_buffer out = {NNOP_BUFFER_OUTPUT, 0, 0};
    static const int counts[] = {0, 4, -1, 100};
    static const char *const want[] = {"Bad: 0 inputs; an elementwise kernel takes 1 to 3",
                                       "Bad: 4 inputs; an elementwise kernel takes 1 to 3",
                                       "Bad: -1 inputs; an elementwise kernel takes 1 to 3",
                                       "Bad: 100 inputs; an elementwise kernel takes 1 to 3"};
    for (int i = 0; i < 4; i++) {
        aclOpExecutor *e = nnop_executor_create("Bad", (const aclTensor *const *)ts, 1, &ts[3], 1, names);
        (void)aclGetRecentErrMsg();
        MG_CHECK_EQ_INT(ew_add_kernel(e, "Bad", &kernel, counts[i], in, out, 16, ACL_FLOAT), ACLNN_ERR_INNER);
        const char *m = aclGetRecentErrMsg();
        MG_CHECK(m != NULL && strcmp(m, want[i]) == 0);
        if (m != NULL && strcmp(m, want[i]) != 0) MG_FAIL("message \"%s\", expected \"%s\"", m, want[i]);
        nnop_executor_abandon(e);
    }
    /* no cached kernel (a small output), no streaming kernel (a large one) */
    struct {
        int drop_streaming;
        int64_t n;
        aclDataType dtype;
        const char *want;
    } missing[] = {{0, 16, ACL_FLOAT, "Miss: no cached kernel for dtype FLOAT"},
                   {0, 16, ACL_BF16, "Miss: no cached kernel for dtype BFLOAT16"},
                   {1, (int64_t)1 << 22, ACL_FLOAT16, "Miss: no streaming kernel for dtype FLOAT16"}};
    for (int i = 0; i < 3; i++) {
        ew_kernel k = kernel;
        if (missing[i].drop_streaming)
            k.streaming.unary = NULL;
        else
            k.cached.unary = NULL;
        aclOpExecutor *e = nnop_executor_create("Miss", (const aclTensor *const *)ts, 1, &ts[3], 1, names);
        (void)aclGetRecentErrMsg();
        MG_CHECK_EQ_INT(ew_add_kernel(e, "Miss", &k, 1, in, out, missing[i].n, missing[i].dtype),
                        ACLNN_ERR_INNER_FIND_KERNEL_ERROR);
        const char *m = aclGetRecentErrMsg();
        if (m == NULL || strcmp(m, missing[i].want) != 0)
            MG_FAIL("message \"%s\", expected \"%s\"", m ? m : "(null)", missing[i].want);
        else
            MG_CHECK(1);
        nnop_executor_abandon(e);
    }
    /* the tiling's refusal is passed on */
    aclOpExecutor *e = nnop_executor_create("Neg", (const aclTensor *const *)ts, 1, &ts[3], 1, names);
    MG_CHECK_EQ_INT(ew_add_kernel(e, "Neg", &kernel, 1, in, out, -5, ACL_FLOAT), ACLNN_ERR_INNER_TILING_ERROR);
    MG_CHECK_STR_CONTAINS(aclGetRecentErrMsg(), "elementwise tiling: -5 elements of 4 bytes");
    nnop_executor_abandon(e);
    aclDestroyTensor(x);
    aclrtFree(data);
}

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>

/* The block runner's floating-point settings (elementwise_l0.c, fp_defaults_enter/leave): a
   block runs under the IEEE defaults whatever the caller's MXCSR (FTZ, DAZ, rounding), the
   caller's control bits are back afterwards, and "the sticky flags (bits 0-5) are the
   thread's and are left as they are": a flag the block raised stays raised in the thread that
   ran it, as if the thread had computed it itself. The tile raises the invalid-operation flag
   (0/0); the caller sets FTZ and DAZ with every flag clear, and runs a lone 64-element step,
   which its synchronize runs on this very thread (a round whose step the stream's worker ran
   instead is tried again). */
static unsigned mxcsr_in_tile;
static pthread_t tile_thread;

static void raising_tile(const void *x, void *out, size_t n) {
    mxcsr_in_tile = _mm_getcsr();
    tile_thread = pthread_self();
    volatile float zero = 0.0f;
    volatile float invalid = zero / zero; /* raises the invalid-operation flag (bit 0) */
    (void)invalid;
    memcpy(out, x, n * sizeof(float));
}

MG_TEST(block_keeps_the_caller_s_control_bits_and_its_own_flags) {
    up();
    enum { N = 64 };
    void *data[2] = {NULL, NULL};
    aclTensor *ts[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        MG_CHECK_EQ_INT(aclrtMalloc(&data[i], N * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), 0);
        memset(data[i], 0, N * sizeof(float));
        ts[i] = tensor_1d(data[i], N, ACL_FLOAT);
    }
    ew_kernel kernel;
    memset(&kernel, 0, sizeof kernel);
    kernel.isa = "test";
    kernel.cached.unary = raising_tile;
    kernel.streaming.unary = raising_tile;
    nnop_buffer in = {NNOP_BUFFER_INPUT, 0, 0}, out = {NNOP_BUFFER_OUTPUT, 0, 0};
    const unsigned caller = 0x1F80u | 0x8000u | 0x0040u; /* every exception masked, FTZ, DAZ */
    int ran_here = 0;
    for (int attempt = 0; attempt < 50 && !ran_here; attempt++) {
        aclOpExecutor *e = nnop_executor_create("FpFlags", (const aclTensor *const *)ts, 1, &ts[1], 1, names);
        MG_CHECK(e != NULL);
        if (e == NULL) break;
        MG_CHECK_EQ_INT(ew_add_kernel(e, "FpFlags", &kernel, 1, &in, out, N, ACL_FLOAT), 0);
        tile_thread = (pthread_t)0;
        _mm_setcsr(caller);
        const aclnnStatus launched = nnop_executor_launch("FpFlags", NULL, 0, e, NULL);
        const aclError synced = aclrtSynchronizeStream(NULL);
        const unsigned after = _mm_getcsr();
        _mm_setcsr(0x1F80u);
        MG_CHECK_EQ_INT(launched, 0);
        MG_CHECK_EQ_INT(synced, 0);
        if (!pthread_equal(tile_thread, pthread_self())) continue; /* the worker ran it */
        ran_here = 1;
        if ((mxcsr_in_tile & 0xFFC0u) != 0x1F80u)
            MG_FAIL("inside the block MXCSR %#x, want the defaults 0x1f80 (control bits)", mxcsr_in_tile);
        else if ((after & 0xFFC0u) != (caller & 0xFFC0u))
            MG_FAIL("after the step MXCSR %#x: the caller's control bits %#x are not back", after, caller & 0xFFC0u);
        else if ((after & 0x1u) == 0)
            MG_FAIL("after the step MXCSR %#x: the invalid-operation flag the block raised is gone", after);
        else
            MG_CHECK(1);
    }
    for (int i = 0; i < 2; i++) {
        aclDestroyTensor(ts[i]);
        aclrtFree(data[i]);
    }
    if (!ran_here) MG_SKIP("the stream's worker ran every step (50 tries)");
}
#endif

MG_TEST_MAIN()

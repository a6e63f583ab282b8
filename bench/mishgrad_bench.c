/*
 * bench/mishgrad_bench.c: how fast are aclnnMishBackward and (--op mish) aclnnMish, and
 * against what?
 *
 * --op mish times the forward the same way: ours = aclnnMishGetWorkspaceSize + aclnnMish +
 * aclrtSynchronizeStream; roof = y = x * x (read 1 array, write 1); oneDNN's eltwise_mish
 * forward_inference; kernel = the forward kernel table's tile.
 *
 * For each dtype and element count it times, in one process and with the same threads:
 *   ours     the full two-phase call a CANN program makes:
 *            aclnnMishBackwardGetWorkspaceSize + aclnnMishBackward + aclrtSynchronizeStream
 *   roof     y = g * x over the same three arrays, on a small pthread pool of its own: the
 *            most a memory-bound elementwise op can reach here (read 2 arrays, write 1);
 *            outputs of 1 MiB or more per thread are written with streaming stores, as the
 *            library writes them
 *   onednn   oneDNN's eltwise_mish backward_data on src (only when built with oneDNN)
 *   kernel   the library's kernel called directly on one thread (only when built inside the
 *            project tree): the floor that host overhead and threading are judged against
 * The contenders take turns (the order rotates every repetition) and each reports the
 * median over the repetitions, because this machine is shared and noisy; ratios are taken
 * per repetition, side by side, and their median is reported.
 *
 * The library reads MISHGRAD_NUM_THREADS and MISHGRAD_ISA once per process, and libgomp
 * (oneDNN's threading) reads OMP_NUM_THREADS when it loads. So --threads and --isa set those
 * variables and re-execute the program once, before anything has read them.
 *
 * Output: a table on stdout; with --csv FILE one row per case appended to FILE (the header
 * is written when the file is empty), so a driver can gather many processes in one file.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "bench_util.h"
#include "mish_reference.h"

#ifdef MISHGRAD_BENCH_ONEDNN
#include <dnnl.h>
#endif
#ifdef MISHGRAD_BENCH_KERNEL
#include "mish_grad_v2_kernel.h"
#include "mish_kernel.h"
#endif

static const char *const dtype_names[DT_COUNT] = {"f32", "f16", "bf16"};
static const aclDataType dtype_acl[DT_COUNT] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
static const size_t dtype_bytes[DT_COUNT] = {4, 2, 2};

/* 1 for --op mish (the forward), 0 for aclnnMishBackward */
int op_forward;
static const char *op_name(void) { return op_forward ? "mish" : "mish_backward"; }

#define MAX_SIZES 32

typedef struct options {
    int dtypes[DT_COUNT];
    int dtype_count;
    int64_t sizes[MAX_SIZES];
    int size_count;
    int reps;                /* repetitions per contender; the median is reported */
    double batch_seconds;    /* each repetition times calls until about this long */
    const char *csv_path;
    const char *threads_env; /* --threads: wanted MISHGRAD_NUM_THREADS / OMP_NUM_THREADS */
    const char *isa_env;     /* --isa: wanted MISHGRAD_ISA */
    int use_onednn;
    int use_kernel;
    int check;               /* compare sampled outputs with a double-precision reference */
    unsigned only;           /* bit mask of the contenders to run (--only) */
    int trace;               /* print every repetition's times to stderr (--trace) */
    double quiet_wait;       /* seconds to wait for idle neighbours before each case */
} options;

/* ---- contenders --------------------------------------------------------------------- */

enum { C_OURS = 0, C_ROOF = 1, C_ONEDNN = 2, C_KERNEL = 3, C_COUNT = 4 };
static const char *const contender_names[C_COUNT] = {"ours", "roof", "onednn", "kernel"};

/* Where one call of ours spends its time (seconds, summed over a batch). */
typedef struct phase_times {
    double prepare;  /* aclnnMishBackwardGetWorkspaceSize */
    double launch;   /* aclnnMishBackward: queue the plan on the stream */
    double sync;     /* aclrtSynchronizeStream: hand-off, pool wake-up, kernel */
} phase_times;

typedef struct bench_case {
    int dt;
    int64_t n;
    void *g, *x, *y;
    aclrtStream stream;
    aclTensor *tg, *tx, *ty;
    void *workspace;
    uint64_t workspace_capacity;
    roof_pool *roof;
    phase_times phases;
#ifdef MISHGRAD_BENCH_ONEDNN
    int onednn_ready;
    dnnl_primitive_t onednn_primitive;
    dnnl_stream_t onednn_stream;
    dnnl_memory_t onednn_memory[3];
    char onednn_impl[64];
#endif
#ifdef MISHGRAD_BENCH_KERNEL
    mish_grad_v2_tile_fn kernel;
    mish_tile_fn kernel_forward;
#endif
} bench_case;

static void run_ours(bench_case *c)
{
    uint64_t workspace_size = 0;
    aclOpExecutor *executor = NULL;
    double t0 = now_seconds();
    aclnnStatus st = op_forward ? aclnnMishGetWorkspaceSize(c->tx, c->ty, &workspace_size, &executor)
                                : aclnnMishBackwardGetWorkspaceSize(c->tg, c->tx, c->ty, &workspace_size, &executor);
    if (st != ACLNN_SUCCESS) die("aclnn*GetWorkspaceSize", st);
    if (workspace_size > c->workspace_capacity) {
        /* Contiguous tensors need none; grow once if the library ever asks for some. */
        if (c->workspace) aclrtFree(c->workspace);
        aclError e = aclrtMalloc(&c->workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
        if (e != ACL_SUCCESS) die("aclrtMalloc(workspace)", e);
        c->workspace_capacity = workspace_size;
    }
    double t1 = now_seconds();
    st = op_forward ? aclnnMish(workspace_size ? c->workspace : NULL, workspace_size, executor, c->stream)
                    : aclnnMishBackward(workspace_size ? c->workspace : NULL, workspace_size, executor, c->stream);
    if (st != ACLNN_SUCCESS) die("aclnnMish / aclnnMishBackward", st);
    double t2 = now_seconds();
    aclError e = aclrtSynchronizeStream(c->stream);
    if (e != ACL_SUCCESS) die("aclrtSynchronizeStream", e);
    double t3 = now_seconds();
    c->phases.prepare += t1 - t0;
    c->phases.launch += t2 - t1;
    c->phases.sync += t3 - t2;
}

#ifdef MISHGRAD_BENCH_ONEDNN
static void onednn_setup(bench_case *c, dnnl_engine_t engine, dnnl_stream_t stream)
{
    static const dnnl_data_type_t types[DT_COUNT] = {dnnl_f32, dnnl_f16, dnnl_bf16};
    dnnl_memory_desc_t md;
    dnnl_dims_t dims = {c->n};
    dnnl_eltwise_desc_t fwd_desc, bwd_desc;
    dnnl_primitive_desc_t fwd_pd = NULL, bwd_pd = NULL;
    c->onednn_ready = 0;
    snprintf(c->onednn_impl, sizeof c->onednn_impl, "n/a");
    if (dnnl_memory_desc_init_by_tag(&md, 1, dims, types[c->dt], dnnl_a) != dnnl_success) return;
    /* Backward needs the forward primitive descriptor as a hint. */
    if (dnnl_eltwise_forward_desc_init(&fwd_desc, op_forward ? dnnl_forward_inference : dnnl_forward_training,
                                       dnnl_eltwise_mish, &md,
                                       0.f, 0.f) != dnnl_success ||
        dnnl_primitive_desc_create(&fwd_pd, &fwd_desc, NULL, engine, NULL) != dnnl_success)
        return;
    if (op_forward) {
        const char *fimpl = NULL;
        if (dnnl_primitive_desc_query(fwd_pd, dnnl_query_impl_info_str, 0, &fimpl) == dnnl_success && fimpl)
            snprintf(c->onednn_impl, sizeof c->onednn_impl, "%s", fimpl);
        int fok = dnnl_primitive_create(&c->onednn_primitive, fwd_pd) == dnnl_success &&
                  dnnl_memory_create(&c->onednn_memory[0], &md, engine, c->x) == dnnl_success &&
                  dnnl_memory_create(&c->onednn_memory[1], &md, engine, c->g) == dnnl_success &&
                  dnnl_memory_create(&c->onednn_memory[2], &md, engine, c->y) == dnnl_success;
        dnnl_primitive_desc_destroy(fwd_pd);
        c->onednn_stream = stream;
        c->onednn_ready = fok;
        return;
    }
    if (dnnl_eltwise_backward_desc_init(&bwd_desc, dnnl_eltwise_mish, &md, &md, 0.f, 0.f) != dnnl_success ||
        dnnl_primitive_desc_create(&bwd_pd, &bwd_desc, NULL, engine, fwd_pd) != dnnl_success) {
        dnnl_primitive_desc_destroy(fwd_pd);
        return;
    }
    const char *impl = NULL;
    if (dnnl_primitive_desc_query(bwd_pd, dnnl_query_impl_info_str, 0, &impl) == dnnl_success && impl)
        snprintf(c->onednn_impl, sizeof c->onednn_impl, "%s", impl);
    int ok = dnnl_primitive_create(&c->onednn_primitive, bwd_pd) == dnnl_success &&
             dnnl_memory_create(&c->onednn_memory[0], &md, engine, c->x) == dnnl_success &&
             dnnl_memory_create(&c->onednn_memory[1], &md, engine, c->g) == dnnl_success &&
             dnnl_memory_create(&c->onednn_memory[2], &md, engine, c->y) == dnnl_success;
    dnnl_primitive_desc_destroy(bwd_pd);
    dnnl_primitive_desc_destroy(fwd_pd);
    if (!ok) die("oneDNN primitive setup", 0);
    c->onednn_stream = stream;
    c->onednn_ready = 1;
}

static void onednn_teardown(bench_case *c)
{
    if (!c->onednn_ready) return;
    for (int i = 0; i < 3; ++i) dnnl_memory_destroy(c->onednn_memory[i]);
    dnnl_primitive_destroy(c->onednn_primitive);
    c->onednn_ready = 0;
}

static void run_onednn(bench_case *c)
{
    dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC, c->onednn_memory[0]},
                               {DNNL_ARG_DIFF_DST, c->onednn_memory[1]},
                               {DNNL_ARG_DIFF_SRC, c->onednn_memory[2]}};
    dnnl_exec_arg_t fwd_args[2] = {{DNNL_ARG_SRC, c->onednn_memory[0]}, {DNNL_ARG_DST, c->onednn_memory[2]}};
    if (dnnl_primitive_execute(c->onednn_primitive, c->onednn_stream, op_forward ? 2 : 3,
                               op_forward ? fwd_args : args) != dnnl_success)
        die("dnnl_primitive_execute", 0);
    if (dnnl_stream_wait(c->onednn_stream) != dnnl_success) die("dnnl_stream_wait", 0);
}
#endif

static int contender_available(const bench_case *c, int who)
{
    switch (who) {
    case C_OURS:
    case C_ROOF: return 1;
#ifdef MISHGRAD_BENCH_ONEDNN
    case C_ONEDNN: return c->onednn_ready;
#endif
#ifdef MISHGRAD_BENCH_KERNEL
    case C_KERNEL: return op_forward ? c->kernel_forward != NULL : c->kernel != NULL;
#endif
    default: (void)c; return 0;
    }
}

static void run_contender(bench_case *c, int who)
{
    switch (who) {
    case C_OURS: run_ours(c); break;
    /* the forward's roof reads one array: y = x * x */
    case C_ROOF: roof_run(c->roof, op_forward ? c->x : c->g, c->x, c->y, c->n, dtype_bytes[c->dt]); break;
#ifdef MISHGRAD_BENCH_ONEDNN
    case C_ONEDNN: run_onednn(c); break;
#endif
#ifdef MISHGRAD_BENCH_KERNEL
    case C_KERNEL:
        if (op_forward) c->kernel_forward(c->x, c->y, (size_t)c->n);
        else c->kernel(c->g, c->x, c->y, (size_t)c->n);
        break;
#endif
    default: break;
    }
}

/* Seconds per call over `calls` calls. */
static double time_batch(bench_case *c, int who, long calls)
{
    double t0 = now_seconds();
    for (long i = 0; i < calls; ++i) run_contender(c, who);
    return (now_seconds() - t0) / (double)calls;
}

/* ---- one case: a dtype and an element count ----------------------------------------------- */

typedef struct case_result {
    int available[C_COUNT];
    double seconds[C_COUNT];     /* median seconds per call */
    double spread[C_COUNT];      /* (max - min) / median over the repetitions */
    double best[C_COUNT];        /* fastest repetition: what the code can do when undisturbed */
    int quiet_reps;              /* repetitions during which other processes were (nearly) idle */
    double ratio_onednn;         /* median over repetitions of onednn time / ours time */
    double ratio_roof;           /* median over repetitions of roof time / ours time */
    double error_units[C_COUNT]; /* sampled output error (see sampled_error_units) */
    phase_times phases;          /* mean per call of ours, over all timed batches */
    char onednn_impl[64];
} case_result;

static void fill_inputs(int dt, void *g, void *x, int64_t n)
{
    uint64_t state = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
    for (int64_t i = 0; i < n; ++i) {
        /* x over [-8, 8] covers both tails of mish' and its root; g over [-2, 2]. */
        float gi = rng_uniform(&state, -2.f, 2.f), xi = rng_uniform(&state, -8.f, 8.f);
        switch (dt) {
        case DT_F32:
            ((float *)g)[i] = gi;
            ((float *)x)[i] = xi;
            break;
        case DT_F16:
            ((uint16_t *)g)[i] = aclFloatToFloat16(gi);
            ((uint16_t *)x)[i] = aclFloatToFloat16(xi);
            break;
        default:
            ((uint16_t *)g)[i] = bf16_from_f32(gi);
            ((uint16_t *)x)[i] = bf16_from_f32(xi);
            break;
        }
    }
}

static void run_case(const options *opt, int dt, int64_t n, aclrtStream stream, roof_pool *roof,
                     void *onednn_engine, void *onednn_stream, case_result *out)
{
    bench_case c;
    memset(&c, 0, sizeof c);
    memset(out, 0, sizeof *out);
    c.dt = dt;
    c.n = n;
    c.stream = stream;
    c.roof = roof;
    size_t bytes = (size_t)n * dtype_bytes[dt];
    aclError e;
    if ((e = aclrtMalloc(&c.g, bytes, ACL_MEM_MALLOC_HUGE_FIRST)) != ACL_SUCCESS ||
        (e = aclrtMalloc(&c.x, bytes, ACL_MEM_MALLOC_HUGE_FIRST)) != ACL_SUCCESS ||
        (e = aclrtMalloc(&c.y, bytes, ACL_MEM_MALLOC_HUGE_FIRST)) != ACL_SUCCESS)
        die("aclrtMalloc", e);
    fill_inputs(dt, c.g, c.x, n);
    memset(c.y, 0, bytes);

    int64_t shape[1] = {n}, strides[1] = {1};
    c.tg = aclCreateTensor(shape, 1, dtype_acl[dt], strides, 0, ACL_FORMAT_ND, shape, 1, c.g);
    c.tx = aclCreateTensor(shape, 1, dtype_acl[dt], strides, 0, ACL_FORMAT_ND, shape, 1, c.x);
    c.ty = aclCreateTensor(shape, 1, dtype_acl[dt], strides, 0, ACL_FORMAT_ND, shape, 1, c.y);
    if (!c.tg || !c.tx || !c.ty) die("aclCreateTensor", 0);

#ifdef MISHGRAD_BENCH_ONEDNN
    if (opt->use_onednn) onednn_setup(&c, (dnnl_engine_t)onednn_engine, (dnnl_stream_t)onednn_stream);
    snprintf(out->onednn_impl, sizeof out->onednn_impl, "%s", opt->use_onednn ? c.onednn_impl : "off");
#else
    (void)onednn_engine;
    (void)onednn_stream;
    snprintf(out->onednn_impl, sizeof out->onednn_impl, "not built");
#endif
#ifdef MISHGRAD_BENCH_KERNEL
    if (opt->use_kernel) {
        const mish_grad_v2_kernels *k = mish_grad_v2_kernels_get();
        c.kernel = dt == DT_F32 ? k->f32 : dt == DT_F16 ? k->f16 : k->bf16;
        const mish_kernels *kf = mish_kernels_get();
        c.kernel_forward = dt == DT_F32 ? kf->f32 : dt == DT_F16 ? kf->f16 : kf->bf16;
    }
#endif

    if (opt->quiet_wait > 0 && !wait_for_quiet(opt->quiet_wait))
        fprintf(stderr, "mishgrad_bench: %s n=%" PRId64 ": other processes kept the CPUs busy; measuring anyway\n",
                dtype_names[dt], n);

    /* Warm up every contender (first touch, lazy set-up, caches), check its output, and
       size its batches so one repetition lasts about batch_seconds. */
    long calls[C_COUNT];
    int order[C_COUNT], active = 0;
    for (int who = 0; who < C_COUNT; ++who) {
        out->available[who] = contender_available(&c, who) && (opt->only & (1u << who));
        if (!out->available[who]) continue;
        order[active++] = who;
        run_contender(&c, who);
        /* The fastest of a few calls: one slow call (a thread woken from sleep, a neighbour
           on the CPU) must not shrink the batches to a single cold call each. */
        double one = time_batch(&c, who, 1);
        for (int i = 0; i < 4 && one < 0.05; ++i) {
            double again = time_batch(&c, who, 1);
            if (again < one) one = again;
        }
        double guess = opt->batch_seconds / (one > 1e-9 ? one : 1e-9);
        /* At least 3 calls, so that the first (cold after the settling pause) is not all. */
        calls[who] = guess < 3 ? 3 : guess > 1e7 ? 10000000L : (long)guess;
        if (opt->check && who != C_ROOF) {
            out->error_units[who] = sampled_error_units(dt, c.g, c.x, c.y, n);
            memset(c.y, 0, bytes);
        }
    }

    double samples[C_COUNT][256], ratio_onednn[256], ratio_roof[256];
    int quiet[256];
    int reps = opt->reps > 256 ? 256 : opt->reps;
    memset(&c.phases, 0, sizeof c.phases);
    long ours_calls = 0;
    for (int r = 0; r < reps; ++r) {
        double others_before = other_processes_cpu_seconds(), rep_start = now_seconds();
        for (int k = 0; k < active; ++k) {
            int who = order[(k + r) % active];
            /* Let the other contender's threads stop spinning before this one takes the
               cores: after a parallel region libgomp spins GOMP_SPINCOUNT (300000 by
               default) pause loops, about 5 ms on this Zen 5, and a 2 ms pause let those
               spinners take a core from the next contender (measured: ours at 1e6 lost a
               third when it ran right after oneDNN). */
            sleep_seconds(0.010);
            /* then an untimed tenth of the batch: its threads wake up (a sleeping vCPU
               takes tens of microseconds) and settle on their cores before the clock runs */
            time_batch(&c, who, calls[who] / 10 + 1);
            samples[who][r] = time_batch(&c, who, calls[who]);
            if (who == C_OURS) ours_calls += calls[who];
        }
        double others = other_processes_cpu_seconds() - others_before;
        quiet[r] = !(others > QUIET_OTHERS_SECONDS + QUIET_OTHERS_FRACTION * (now_seconds() - rep_start));
        if (opt->trace) {
            fprintf(stderr, "trace %s n=%" PRId64 " rep %d: others %.3f s%s;", dtype_names[dt], n, r, others,
                    quiet[r] ? "" : " (set aside)");
            for (int who = 0; who < C_COUNT; ++who)
                if (out->available[who])
                    fprintf(stderr, " %s %.2f us x%ld", contender_names[who], samples[who][r] * 1e6, calls[who]);
            fputc('\n', stderr);
        }
        int ours = out->available[C_OURS];
        ratio_roof[r] = ours && out->available[C_ROOF] ? samples[C_ROOF][r] / samples[C_OURS][r] : NAN;
        ratio_onednn[r] = ours && out->available[C_ONEDNN] ? samples[C_ONEDNN][r] / samples[C_OURS][r] : NAN;
    }
    /* Judge by the repetitions no other process disturbed when there are enough of them. */
    int kept[256], kept_count = 0;
    for (int r = 0; r < reps; ++r) out->quiet_reps += quiet[r];
    for (int r = 0; r < reps; ++r)
        if (quiet[r] || out->quiet_reps < 3 || out->quiet_reps * 3 < reps) kept[kept_count++] = r;
    double kept_values[256];
    for (int who = 0; who < C_COUNT; ++who) {
        if (!out->available[who]) continue;
        double lo = samples[who][kept[0]], hi = lo, best = samples[who][0];
        for (int i = 0; i < kept_count; ++i) {
            kept_values[i] = samples[who][kept[i]];
            if (kept_values[i] < lo) lo = kept_values[i];
            if (kept_values[i] > hi) hi = kept_values[i];
        }
        for (int r = 0; r < reps; ++r)
            if (samples[who][r] < best) best = samples[who][r];
        out->seconds[who] = median(kept_values, kept_count);
        out->best[who] = best;
        out->spread[who] = (hi - lo) / out->seconds[who];
    }
    for (int i = 0; i < kept_count; ++i) kept_values[i] = ratio_roof[kept[i]];
    out->ratio_roof = median(kept_values, kept_count);
    for (int i = 0; i < kept_count; ++i) kept_values[i] = ratio_onednn[kept[i]];
    out->ratio_onednn = median(kept_values, kept_count);
    double per_call = ours_calls ? 1.0 / (double)ours_calls : NAN;
    out->phases.prepare = c.phases.prepare * per_call;
    out->phases.launch = c.phases.launch * per_call;
    out->phases.sync = c.phases.sync * per_call;

#ifdef MISHGRAD_BENCH_ONEDNN
    onednn_teardown(&c);
#endif
    aclDestroyTensor(c.tg);
    aclDestroyTensor(c.tx);
    aclDestroyTensor(c.ty);
    if (c.workspace) aclrtFree(c.workspace);
    aclrtFree(c.g);
    aclrtFree(c.x);
    aclrtFree(c.y);
}

/* ---- command line, environment, output ------------------------------------------------ */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mishgrad_bench [options]\n"
            "  --op mish_backward|mish  the operator (default mish_backward)\n"
            "  --dtypes LIST    f32,f16,bf16 (default all)\n"
            "  --sizes LIST     element counts, e.g. 1e3,1e6,3e7 (default 1e3,1e4,1e5,1e6,1e7,3e7,1e8)\n"
            "  --reps N         repetitions per contender, median reported (default 11)\n"
            "  --batch-ms MS    each repetition times calls for about MS ms (default 40)\n"
            "  --threads N      run with MISHGRAD_NUM_THREADS=N and OMP_NUM_THREADS=N\n"
            "  --isa NAME       run with MISHGRAD_ISA=NAME (an ISA of runtime/mgrt_isa_list.inc, or auto)\n"
            "  --csv FILE       append one row per case to FILE\n"
            "  --no-onednn      skip oneDNN even when built with it\n"
            "  --no-kernel      skip the direct single-thread kernel column\n"
            "  --no-check       skip the sampled accuracy check of the outputs\n"
            "  --quiet-wait S   before each case wait up to S s (default 20) for other processes to\n"
            "                   go idle; repetitions they disturb anyway are set aside\n"
            "  --trace          print every repetition's times (and the others' CPU use) to stderr\n"
            "  --only LIST      run only these of ours,roof,onednn,kernel (--only ours leaves\n"
            "                   the library alone, e.g. under perf record)\n");
}

static int parse_list(const char *arg, options *opt, int sizes)
{
    char buffer[512];
    snprintf(buffer, sizeof buffer, "%s", arg);
    char *save = NULL;
    for (char *tok = strtok_r(buffer, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (sizes) {
            char *end = NULL;
            double v = strtod(tok, &end);
            if (*end || v < 1 || v > 4e9 || opt->size_count == MAX_SIZES) return 0;
            opt->sizes[opt->size_count++] = (int64_t)llround(v);
        } else {
            int found = -1;
            for (int d = 0; d < DT_COUNT; ++d)
                if (strcmp(tok, dtype_names[d]) == 0) found = d;
            if (found < 0 || opt->dtype_count == DT_COUNT) return 0;
            opt->dtypes[opt->dtype_count++] = found;
        }
    }
    return 1;
}

static unsigned parse_contenders(const char *arg)
{
    char buffer[128];
    unsigned mask = 0;
    snprintf(buffer, sizeof buffer, "%s", arg);
    char *save = NULL;
    for (char *tok = strtok_r(buffer, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int found = -1;
        for (int who = 0; who < C_COUNT; ++who)
            if (strcmp(tok, contender_names[who]) == 0) found = who;
        if (found < 0) return 0;
        mask |= 1u << found;
    }
    return mask;
}

static void parse_options(int argc, char **argv, options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->reps = 11;
    /* 40 ms: with 10 ms batches, how a contender's threads happened to wake and land on
       the two vCPUs after the settling pause swung single results by up to 2x */
    opt->batch_seconds = 0.040;
    opt->use_onednn = 1;
    opt->use_kernel = 1;
    opt->check = 1;
    opt->only = ~0u;
    opt->quiet_wait = 20;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes_value = 1;
        if (strcmp(a, "--dtypes") == 0 && v) {
            if (!parse_list(v, opt, 0)) goto bad;
        } else if (strcmp(a, "--sizes") == 0 && v) {
            if (!parse_list(v, opt, 1)) goto bad;
        } else if (strcmp(a, "--reps") == 0 && v) {
            opt->reps = atoi(v);
            if (opt->reps < 1 || opt->reps > 256) goto bad;
        } else if (strcmp(a, "--batch-ms") == 0 && v) {
            opt->batch_seconds = atof(v) * 1e-3;
            if (!(opt->batch_seconds > 0)) goto bad;
        } else if (strcmp(a, "--threads") == 0 && v) {
            if (atoi(v) < 1 || atoi(v) > MAX_THREADS) goto bad;
            opt->threads_env = v;
        } else if (strcmp(a, "--isa") == 0 && v) {
            opt->isa_env = v;
        } else if (strcmp(a, "--quiet-wait") == 0 && v) {
            opt->quiet_wait = atof(v);
        } else if (strcmp(a, "--only") == 0 && v) {
            opt->only = parse_contenders(v);
            if (!opt->only) goto bad;
        } else if (strcmp(a, "--csv") == 0 && v) {
            opt->csv_path = v;
        } else if (strcmp(a, "--op") == 0 && v) {
            if (strcmp(v, "mish") == 0) op_forward = 1;
            else if (strcmp(v, "mish_backward") == 0) op_forward = 0;
            else goto bad;
        } else {
            takes_value = 0;
            if (strcmp(a, "--no-onednn") == 0) opt->use_onednn = 0;
            else if (strcmp(a, "--no-kernel") == 0) opt->use_kernel = 0;
            else if (strcmp(a, "--no-check") == 0) opt->check = 0;
            else if (strcmp(a, "--trace") == 0) opt->trace = 1;
            else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
                usage(stdout);
                exit(0);
            } else goto bad;
        }
        i += takes_value;
        continue;
    bad:
        fprintf(stderr, "mishgrad_bench: bad option '%s%s%s'\n", a, v ? " " : "", v ? v : "");
        usage(stderr);
        exit(2);
    }
    if (opt->dtype_count == 0) {
        for (int d = 0; d < DT_COUNT; ++d) opt->dtypes[d] = d;
        opt->dtype_count = DT_COUNT;
    }
    if (opt->size_count == 0) {
        static const int64_t defaults[] = {1000, 10000, 100000, 1000000, 10000000, 30000000, 100000000};
        opt->size_count = (int)(sizeof defaults / sizeof defaults[0]);
        memcpy(opt->sizes, defaults, sizeof defaults);
    }
}

/* The thread count the library and the roof use: MISHGRAD_NUM_THREADS, else online CPUs
   (the library's documented default). */
static int effective_threads(void)
{
    const char *env = getenv("MISHGRAD_NUM_THREADS");
    int t = env ? atoi(env) : 0;
    if (t < 1) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        t = cpus > 0 ? (int)cpus : 1;
    }
    return t > MAX_THREADS ? MAX_THREADS : t;
}

static int env_differs(const char *name, const char *want)
{
    const char *have = getenv(name);
    return want && (!have || strcmp(have, want) != 0);
}

/* Sets the variables the libraries read at load or first use and starts this program
   again, so that they are in force from the first instruction. */
static void apply_environment(const options *opt, char **argv)
{
    char threads[16];
    const char *want_threads = opt->threads_env;
    if (!want_threads) {
        snprintf(threads, sizeof threads, "%d", effective_threads());
        want_threads = threads;
    }
    int again = env_differs("MISHGRAD_NUM_THREADS", opt->threads_env) ||
                env_differs("MISHGRAD_ISA", opt->isa_env);
#ifdef MISHGRAD_BENCH_ONEDNN
    again = again || (opt->use_onednn && env_differs("OMP_NUM_THREADS", want_threads));
#endif
    if (!again) return;
    if (getenv("MISHGRAD_BENCH_REEXECUTED")) {
        fprintf(stderr, "mishgrad_bench: environment did not take; running as is\n");
        return;
    }
    if (opt->threads_env) setenv("MISHGRAD_NUM_THREADS", opt->threads_env, 1);
    if (opt->isa_env) setenv("MISHGRAD_ISA", opt->isa_env, 1);
    setenv("OMP_NUM_THREADS", want_threads, 1);
    setenv("MISHGRAD_BENCH_REEXECUTED", "1", 1);
    fflush(NULL);
    /* The resolved path, not /proc/self/exe itself, so that the process keeps its name
       (in ps, perf, top). */
    char self[4096];
    ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length > 0) {
        self[length] = '\0';
        execv(self, argv);
    }
    /* No /proc (not Linux): the variables must come from the caller instead. */
    fprintf(stderr, "mishgrad_bench: cannot re-execute (%s); set MISHGRAD_NUM_THREADS, MISHGRAD_ISA "
                    "and OMP_NUM_THREADS yourself\n", strerror(errno));
}

static const char *isa_label(void)
{
#ifdef MISHGRAD_BENCH_KERNEL
    /* The same selection logic the library runs, on the same environment. */
    return mish_grad_v2_kernels_get()->isa;
#else
    const char *env = getenv("MISHGRAD_ISA");
    return env && *env ? env : "auto";
#endif
}

static const char csv_header[] =
    "dtype,elements,threads,isa_requested,isa,ours_us,ours_gelem_s,ours_gb_s,roof_gelem_s,roof_gb_s,"
    "ours_pct_roof,onednn_gelem_s,ours_vs_onednn,kernel1t_gelem_s,prepare_us,launch_us,sync_us,"
    "ours_spread_pct,onednn_spread_pct,ours_err_units,onednn_err_units,onednn_impl,reps,"
    "ours_best_gelem_s,roof_best_gelem_s,onednn_best_gelem_s,quiet_reps,op\n";

/* `v` in `fmt`, or `missing` when v is NaN (a contender that did not run). */
static const char *format_number(char *buffer, size_t size, double v, const char *fmt, const char *missing)
{
    if (isnan(v)) snprintf(buffer, size, "%s", missing);
    else snprintf(buffer, size, fmt, v);
    return buffer;
}

/* Per-call seconds of `who`, NaN when it did not run. */
static double seconds_of(const case_result *r, int who)
{
    return r->available[who] ? r->seconds[who] : NAN;
}

static void write_csv_row(FILE *f, int dt, int64_t n, int threads, const char *isa, const case_result *r,
                          int reps)
{
    char b[8][32];
    double bytes = (op_forward ? 2.0 : 3.0) * (double)n * (double)dtype_bytes[dt];
    double ours = seconds_of(r, C_OURS), roof = seconds_of(r, C_ROOF);
    double onednn = seconds_of(r, C_ONEDNN), kernel = seconds_of(r, C_KERNEL);
    const char *requested = getenv("MISHGRAD_ISA");
    fprintf(f, "%s,%" PRId64 ",%d,%s,%s,", dtype_names[dt], n, threads,
            requested && *requested ? requested : "auto", isa);
    fprintf(f, "%.3f,%.4f,%.2f,%s,%s,%s,%s,%s,%s,", ours * 1e6, n / ours * 1e-9, bytes / ours * 1e-9,
            format_number(b[0], 32, n / roof * 1e-9, "%.4f", ""),
            format_number(b[1], 32, bytes / roof * 1e-9, "%.2f", ""),
            format_number(b[2], 32, 100.0 * r->ratio_roof, "%.1f", ""),
            format_number(b[3], 32, n / onednn * 1e-9, "%.4f", ""),
            format_number(b[4], 32, r->ratio_onednn, "%.3f", ""),
            format_number(b[5], 32, n / kernel * 1e-9, "%.4f", ""));
    fprintf(f, "%.3f,%.3f,%.3f,%.1f,%s,%s,%s,%s,%d,", r->phases.prepare * 1e6, r->phases.launch * 1e6,
            r->phases.sync * 1e6, 100.0 * r->spread[C_OURS],
            format_number(b[6], 32, r->available[C_ONEDNN] ? 100.0 * r->spread[C_ONEDNN] : NAN, "%.1f", ""),
            format_number(b[7], 32, r->error_units[C_OURS], "%.2f", "nan"),
            format_number(b[0], 32, r->available[C_ONEDNN] ? r->error_units[C_ONEDNN] : NAN, "%.2f", ""),
            r->onednn_impl, reps);
    fprintf(f, "%s,%s,%s,%d,%s\n",
            format_number(b[0], 32, r->available[C_OURS] ? n / r->best[C_OURS] * 1e-9 : NAN, "%.4f", ""),
            format_number(b[1], 32, r->available[C_ROOF] ? n / r->best[C_ROOF] * 1e-9 : NAN, "%.4f", ""),
            format_number(b[2], 32, r->available[C_ONEDNN] ? n / r->best[C_ONEDNN] * 1e-9 : NAN, "%.4f", ""),
            r->quiet_reps, op_name());
}

static void print_table_header(int threads, const char *isa)
{
    printf("MishGradV2 %s, full two-phase call; %d thread(s), ISA %s\n", op_forward ? "aclnnMish" : "aclnnMishBackward",
           threads, isa);
    printf("%-5s %10s %9s %8s %7s %8s %6s %8s %7s %8s %8s %8s %8s %6s\n", "dtype", "elements", "us/call",
           "Gelem/s", "GB/s", "roof", "%roof", "oneDNN", "ours/", "kernel", "phase1", "phase2",
           "sync", "err");
    printf("%-5s %10s %9s %8s %7s %8s %6s %8s %7s %8s %8s %8s %8s %6s\n", "", "", "", "", "", "GB/s", "",
           "Gelem/s", "oneDNN", "1 thread", "us", "us", "us", "units");
}

static void print_table_row(int dt, int64_t n, const case_result *r)
{
    char b[5][32];
    double bytes = (op_forward ? 2.0 : 3.0) * (double)n * (double)dtype_bytes[dt];
    double ours = seconds_of(r, C_OURS);
    printf("%-5s %10" PRId64 " %9.2f %8.3f %7.1f %8s %6s %8s %7s %8s %8.2f %8.2f %8.2f %6.1f\n",
           dtype_names[dt], n, ours * 1e6, n / ours * 1e-9, bytes / ours * 1e-9,
           format_number(b[0], 32, bytes / seconds_of(r, C_ROOF) * 1e-9, "%.1f", "-"),
           format_number(b[1], 32, 100.0 * r->ratio_roof, "%.0f%%", "-"),
           format_number(b[2], 32, n / seconds_of(r, C_ONEDNN) * 1e-9, "%.3f", "-"),
           format_number(b[3], 32, r->ratio_onednn, "%.2fx", "-"),
           format_number(b[4], 32, n / seconds_of(r, C_KERNEL) * 1e-9, "%.3f", "-"),
           r->phases.prepare * 1e6, r->phases.launch * 1e6, r->phases.sync * 1e6, r->error_units[C_OURS]);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    options opt;
    parse_options(argc, argv, &opt);
    apply_environment(&opt, argv);
    int threads = effective_threads();

    aclError e = aclInit(NULL);
    if (e != ACL_SUCCESS && e != ACL_ERROR_REPEAT_INITIALIZE) die("aclInit", e);
    if ((e = aclrtSetDevice(0)) != ACL_SUCCESS) die("aclrtSetDevice", e);
    aclrtStream stream = NULL;
    if ((e = aclrtCreateStream(&stream)) != ACL_SUCCESS) die("aclrtCreateStream", e);

    void *onednn_engine = NULL, *onednn_stream = NULL;
#ifdef MISHGRAD_BENCH_ONEDNN
    dnnl_engine_t engine = NULL;
    dnnl_stream_t dstream = NULL;
    if (opt.use_onednn) {
        if (dnnl_engine_create(&engine, dnnl_cpu, 0) != dnnl_success ||
            dnnl_stream_create(&dstream, engine, dnnl_stream_default_flags) != dnnl_success)
            die("oneDNN engine/stream", 0);
        onednn_engine = engine;
        onednn_stream = dstream;
    }
#endif

    roof_pool roof;
    roof_pool_start(&roof, threads);

    FILE *csv = NULL;
    if (opt.csv_path) {
        csv = fopen(opt.csv_path, "a");
        if (!csv) {
            fprintf(stderr, "mishgrad_bench: cannot open %s: %s\n", opt.csv_path, strerror(errno));
            return 1;
        }
        if (ftell(csv) == 0) fputs(csv_header, csv);
    }

    const char *isa = isa_label();
    print_table_header(threads, isa);
    int suspicious = 0;
    for (int d = 0; d < opt.dtype_count; ++d) {
        int dt = opt.dtypes[d];
        for (int s = 0; s < opt.size_count; ++s) {
            case_result r;
            run_case(&opt, dt, opt.sizes[s], stream, &roof, onednn_engine, onednn_stream, &r);
            print_table_row(dt, opt.sizes[s], &r);
            if (csv) {
                write_csv_row(csv, dt, opt.sizes[s], threads, isa, &r, opt.reps);
                fflush(csv);
            }
            /* A few units is rounding; far more means a wrong result is being timed. */
            if (opt.check && (!(r.error_units[C_OURS] <= 64))) {
                fprintf(stderr, "mishgrad_bench: %s n=%" PRId64 ": ours is off by %.3g units\n",
                        dtype_names[dt], opt.sizes[s], r.error_units[C_OURS]);
                suspicious = 1;
            }
        }
    }
    printf("err units: sampled |ours - double reference| / (max(|ref|, |g|) * 2^-23 f32, 2^-10 f16, "
           "2^-7 bf16)\n");

    if (csv) fclose(csv);
    roof_pool_stop(&roof);
#ifdef MISHGRAD_BENCH_ONEDNN
    if (dstream) dnnl_stream_destroy(dstream);
    if (engine) dnnl_engine_destroy(engine);
#endif
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return suspicious ? 3 : 0;
}

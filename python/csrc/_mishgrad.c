/*
 * _mishgrad.c: the CPython extension behind the mishgrad package.
 *
 * One Python -> C call per operation. It reads the array's (or tensor's) buffer, shape,
 * strides and offset, makes the caller's memory device-reachable (mg_hostmem.c), describes
 * it with aclCreateTensor (storage = the whole underlying buffer, as torch_npu's op-plugin
 * does), and runs the operator the way op-plugin's EXEC_NPU_CMD does: phase 1
 * (...GetWorkspaceSize), a workspace when one is asked for, phase 2 on the thread's stream,
 * then aclrtSynchronizeStream. The GIL is released from the memory registration to the end.
 *
 * Everything goes through CANN's public API (acl/acl.h, aclnn/acl_meta.h, aclnnop/...);
 * the extension knows nothing of the library's internals.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_mish_backward.h"
#if defined(MISHGRAD_HAVE_FORWARD)
#include "aclnnop/aclnn_mish.h"
#endif
#include "mg_hostmem.h"
#include "mg_lock.h"
#include "mg_operand.h"

/* A thread keeps its workspace for the next call up to this size. */
#define MG_WORKSPACE_KEEP ((uint64_t)64 << 20)

/* ---- objects bound from Python (mishgrad/__init__.py calls _bind) ----------------------- */

PyObject *AclnnError;
PyObject *np_ndarray, *np_generic, *np_empty_like;
PyObject *torch_tensor, *torch_empty_like, *torch_dtypes;
/* mishgrad.torch's mish, mish_ and mish_backward (set by _set_torch_hooks): a call with a
   torch tensor among its arguments goes to them, for what torch's own in-place and out=
   ops do (autograd, version counters, negative-bit views); they come back through the
   _mish, _mish_ and _mish_backward entry points, which skip the hooks. */
PyObject *torch_hooks[3];
/* What the fast path asks of torch (also set by _set_torch_hooks): the grad mode (a
   callable returning False, True, or 2 when every torch call must take the hook: under
   torch.jit.trace, which records no memory write, and with a forward-mode AD level open),
   torch.strided, and how to count a write on a tensor's version counter (NULL: t.copy_(t),
   which moves no data but counts as an in-place op). */
PyObject *torch_is_grad_enabled, *torch_strided, *torch_bump;
PyObject *str_base, *str_is_cpu, *str_dtype, *str_shape, *str_stride, *str_data_ptr,
    *str_storage, *str_nbytes, *str_element_size, *str_device, *str_requires_grad, *str_layout,
    *str_is_neg, *str_is_inference, *str_copy_;

/* ---- the runtime session: aclInit once, a context and a stream per thread ----------------- */

static pthread_mutex_t session_lock = MG_MUTEX_INITIALIZER;
static atomic_int session_state; /* 0 not yet, 1 running, 2 finalized */
static pid_t session_pid;
static aclrtContext session_context;
static pthread_key_t thread_key;

typedef struct thread_state {
    int context_set, ready;
    aclrtStream stream;
    mg_workspace workspace;
    struct thread_state *next; /* in live_threads while ready */
} thread_state;
static _Thread_local thread_state tls;
/* Every thread whose stream and workspace exist (session_lock held to read or change):
   py_shutdown releases them all before aclFinalize, because a thread Python has joined
   may not have run its exit handler yet. */
static thread_state *live_threads;

/* The outcome of a call made with the GIL released; turned into an exception afterwards. */
typedef struct outcome {
    int status;
    const char *api;
    char message[1024];
} outcome;

static int fail_with(outcome *o, int status, const char *api, const char *text) {
    o->status = status;
    o->api = api;
    snprintf(o->message, sizeof o->message, "%s", text);
    return status;
}

/* The library's message for the failure just seen (read once: CANN's aclGetRecentErrMsg
   gets and clears). */
static int fail_recent(outcome *o, int status, const char *api) {
    const char *m = aclGetRecentErrMsg();
    if (m != NULL && m[0] != '\0') return fail_with(o, status, api, m);
    o->status = status;
    o->api = api;
    snprintf(o->message, sizeof o->message, "%s returned %d", api, status);
    return status;
}

/* session_lock held. */
static void release_thread_resources(thread_state *t) {
    if (!t->ready) return;
    mg_workspace_free(&t->workspace);
    if (t->stream != NULL) (void)aclrtDestroyStream(t->stream);
    t->stream = NULL;
    t->ready = 0;
    for (thread_state **link = &live_threads; *link != NULL; link = &(*link)->next)
        if (*link == t) {
            *link = t->next;
            break;
        }
}

/* Runs when a thread that used the package exits: its stream and workspace go with it,
   unless py_shutdown released them already (the lock orders the two). */
static void thread_exit(void *p) {
    MG_LOCK(session_lock);
    if (atomic_load(&session_state) == 1 && session_pid == getpid())
        release_thread_resources((thread_state *)p);
    MG_UNLOCK(session_lock);
}

/* session_lock held, session running. The calling thread's current context, for a thread
   that has made no call (the runtime needs one for every call: unregistering, freeing). */
static void adopt_session_context(void) {
    if (!tls.context_set && aclrtSetCurrentContext(session_context) == ACL_SUCCESS) tls.context_set = 1;
}

/* GIL released. Makes the runtime ready for the calling thread. */
static int session_enter(outcome *o) {
    if (atomic_load(&session_state) != 1) {
        MG_LOCK(session_lock);
        int state = atomic_load(&session_state);
        if (state == 0) {
            aclError e = aclInit(NULL);
            if (e != ACL_SUCCESS && e != ACL_ERROR_REPEAT_INITIALIZE) {
                MG_UNLOCK(session_lock);
                return fail_recent(o, e, "aclInit");
            }
            e = aclrtSetDevice(0);
            if (e == ACL_SUCCESS) e = aclrtGetCurrentContext(&session_context);
            if (e != ACL_SUCCESS) {
                MG_UNLOCK(session_lock);
                return fail_recent(o, e, "aclrtSetDevice");
            }
            (void)mg_mem_probe();
            if (pthread_key_create(&thread_key, thread_exit) != 0) {
                MG_UNLOCK(session_lock);
                return fail_with(o, ACL_ERROR_INTERNAL_ERROR, "pthread_key_create",
                                 "mishgrad: no thread-local key left for the runtime session");
            }
            session_pid = getpid();
            tls.context_set = 1;
            atomic_store(&session_state, 1);
        }
        MG_UNLOCK(session_lock);
        if (state == 2)
            return fail_with(o, ACL_ERROR_UNINITIALIZE, "mishgrad",
                             "mishgrad: the runtime was finalized at interpreter exit");
    }
    if (session_pid != getpid())
        return fail_with(o, ACL_ERROR_UNINITIALIZE, "mishgrad",
                         "mishgrad: the runtime was started in the parent process; a forked "
                         "child cannot use it (start children with the 'spawn' method)");
    if (!tls.ready) {
        aclError e;
        if (!tls.context_set) {
            /* Contexts are per thread: each thread that calls the runtime sets one first. */
            e = aclrtSetCurrentContext(session_context);
            if (e != ACL_SUCCESS) return fail_recent(o, e, "aclrtSetCurrentContext");
            tls.context_set = 1;
        }
        e = aclrtCreateStream(&tls.stream);
        if (e != ACL_SUCCESS) return fail_recent(o, e, "aclrtCreateStream");
        (void)pthread_setspecific(thread_key, &tls);
        MG_LOCK(session_lock);
        tls.ready = 1;
        tls.next = live_threads;
        live_threads = &tls;
        MG_UNLOCK(session_lock);
    }
    return 0;
}

static PyObject *py_shutdown(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    Py_BEGIN_ALLOW_THREADS
    MG_LOCK(session_lock);
    if (atomic_load(&session_state) == 1 && session_pid == getpid()) {
        adopt_session_context();
        while (live_threads != NULL) release_thread_resources(live_threads);
        mg_mem_flush();
        (void)aclrtResetDevice(0);
        (void)aclFinalize();
        atomic_store(&session_state, 2);
    }
    MG_UNLOCK(session_lock);
    Py_END_ALLOW_THREADS
    Py_RETURN_NONE;
}

/* ---- running an operator ----------------------------------------------------------------- */

enum { OP_MISH, OP_INPLACE_MISH, OP_MISH_BACKWARD };

typedef struct call {
    int op;
    int count;          /* operands: inputs, then the output (in-place: one) */
    operand *ops;
    aclTensor *tensors[3];
    mg_span spans[3];
    outcome out;
} call;

static aclFormat format_of(int ndim) {
    /* op-plugin's choice for base-format tensors. */
    return ndim == 4 ? ACL_FORMAT_NCHW : ndim == 5 ? ACL_FORMAT_NCDHW : ACL_FORMAT_ND;
}

/* GIL released: memory, tensors. */
static int call_prepare(call *c) {
    for (int i = 0; i < c->count; i++) {
        operand *op = &c->ops[i];
        c->spans[i].lo = op->storage;
        c->spans[i].hi = op->storage + (uintptr_t)(op->storage_elems * op->itemsize);
        /* The view's own bytes, inside the storage (describe() keeps them inside; clamped
           to it all the same, never narrowed further, since mg_mem_acquire orders calls
           and copies by them). */
        uintptr_t vlo = op->view_lo, vhi = op->view_hi;
        if (vlo < c->spans[i].lo) vlo = c->spans[i].lo;
        if (vhi > c->spans[i].hi) vhi = c->spans[i].hi;
        if (op->numel == 0 || vlo >= vhi) vlo = vhi = c->spans[i].lo;
        c->spans[i].view_lo = vlo;
        c->spans[i].view_hi = vhi;
        c->spans[i].written = i == c->count - 1;
        c->tensors[i] = NULL;
    }
    int status = mg_mem_acquire(c->spans, c->count, c->out.message, sizeof c->out.message);
    if (status != 0) {
        c->out.status = status;
        c->out.api = mg_mem_zero_copy() ? "aclrtHostRegister" : "aclrtMalloc"; /* the route's API */
        return status;
    }
    for (int i = 0; i < c->count; i++) {
        operand *op = &c->ops[i];
        int64_t storage_dims[1] = {op->storage_elems};
        c->tensors[i] = aclCreateTensor(op->shape, (uint64_t)op->ndim, (aclDataType)op->acl_dtype,
                                        op->stride, op->offset, format_of(op->ndim), storage_dims,
                                        1, c->spans[i].dev);
        if (c->tensors[i] == NULL) return fail_recent(&c->out, ACLNN_ERR_INNER, "aclCreateTensor");
    }
    return 0;
}

static void call_finish(call *c, int ok) {
    for (int i = 0; i < c->count; i++)
        if (c->tensors[i] != NULL) (void)aclDestroyTensor(c->tensors[i]);
    mg_mem_release(c->spans, c->count, ok);
}

/* GIL released: the two phases and the wait. */
static int call_run(call *c) {
    uint64_t workspace_size = 0;
    aclOpExecutor *executor = NULL;
    aclnnStatus st;
    const char *phase1, *phase2;
    switch (c->op) {
    case OP_MISH_BACKWARD:
        phase1 = "aclnnMishBackwardGetWorkspaceSize";
        phase2 = "aclnnMishBackward";
        st = aclnnMishBackwardGetWorkspaceSize(c->tensors[0], c->tensors[1], c->tensors[2],
                                               &workspace_size, &executor);
        break;
#if defined(MISHGRAD_HAVE_FORWARD)
    case OP_MISH:
        phase1 = "aclnnMishGetWorkspaceSize";
        phase2 = "aclnnMish";
        st = aclnnMishGetWorkspaceSize(c->tensors[0], c->tensors[1], &workspace_size, &executor);
        break;
    case OP_INPLACE_MISH:
        phase1 = "aclnnInplaceMishGetWorkspaceSize";
        phase2 = "aclnnInplaceMish";
        st = aclnnInplaceMishGetWorkspaceSize(c->tensors[0], &workspace_size, &executor);
        break;
#endif
    default:
        return fail_with(&c->out, ACLNN_ERR_INNER_FIND_KERNEL_ERROR, "mishgrad",
                         "mishgrad: this build's library has no aclnnMish / aclnnInplaceMish");
    }
    if (st != ACLNN_SUCCESS) return fail_recent(&c->out, st, phase1);
    void *workspace = NULL;
    if (workspace_size > 0) {
        if (workspace_size > tls.workspace.bytes) {
            mg_workspace_free(&tls.workspace);
            int e = mg_workspace_alloc(&tls.workspace, workspace_size, c->out.message,
                                       sizeof c->out.message);
            if (e != 0) {
                c->out.status = e;
                c->out.api = mg_mem_zero_copy() ? "aclrtHostRegister" : "aclrtMalloc";
                (void)aclDestroyAclOpExecutor(executor);
                return e;
            }
        }
        workspace = tls.workspace.dev;
    }
    switch (c->op) {
    case OP_MISH_BACKWARD:
        st = aclnnMishBackward(workspace, workspace_size, executor, tls.stream);
        break;
#if defined(MISHGRAD_HAVE_FORWARD)
    case OP_MISH:
        st = aclnnMish(workspace, workspace_size, executor, tls.stream);
        break;
    case OP_INPLACE_MISH:
        st = aclnnInplaceMish(workspace, workspace_size, executor, tls.stream);
        break;
#endif
    default:
        st = ACLNN_ERR_INNER;
    }
    int status = 0;
    if (st != ACLNN_SUCCESS) {
        status = fail_recent(&c->out, st, phase2);
    } else {
        aclError e = aclrtSynchronizeStream(tls.stream);
        if (e != ACL_SUCCESS) status = fail_recent(&c->out, e, "aclrtSynchronizeStream");
    }
    if (tls.workspace.bytes > MG_WORKSPACE_KEEP) mg_workspace_free(&tls.workspace);
    return status;
}

/* The library refuses float64 in CANN's words (161002, dtype DOUBLE); a NumPy or torch user
   is told what to do instead (gradcheck runs in float64: torch's own mish does it). */
static void add_float64_hint(outcome *o, const operand *ops, int count) {
    int float64 = 0;
    for (int i = 0; i < count; i++) float64 |= ops[i].acl_dtype == ACL_DOUBLE;
    if (!float64) return;
    size_t used = strlen(o->message);
    snprintf(o->message + used, sizeof o->message - used,
             " (mishgrad takes float32, float16 and, for torch, bfloat16: convert float64 data to "
             "float32; for float64 itself, torch.autograd.gradcheck say, use "
             "torch.nn.functional.mish)");
}

static PyObject *raise_outcome(const outcome *o) {
    PyObject *text = PyUnicode_DecodeUTF8(o->message, (Py_ssize_t)strlen(o->message), "replace");
    if (text == NULL) return NULL;
    PyObject *exc = PyObject_CallOneArg(AclnnError, text);
    Py_DECREF(text);
    if (exc == NULL) return NULL;
    PyObject *status = PyLong_FromLong(o->status);
    PyObject *api = PyUnicode_FromString(o->api != NULL ? o->api : "");
    const int attributes_set = status != NULL && api != NULL && PyObject_SetAttrString(exc, "status", status) == 0 &&
                               PyObject_SetAttrString(exc, "api", api) == 0;
    /* one release for both outcomes: the path every raised error takes is the one its
       leak test (test_issue25.py) measures */
    Py_XDECREF(status);
    Py_XDECREF(api);
    if (!attributes_set) {
        Py_DECREF(exc);
        return NULL;
    }
    PyErr_SetObject(AclnnError, exc);
    Py_DECREF(exc);
    return NULL;
}

/* Runs the call on prepared operands. Returns 0, or -1 with a Python exception set. */
static int execute(int op, operand *ops, int count) {
    call c;
    memset(&c, 0, sizeof c);
    c.op = op;
    c.count = count;
    c.ops = ops;
    for (int i = 0; i < count; i++) describe(&ops[i]);
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = session_enter(&c.out);
    if (status == 0) {
        status = call_prepare(&c);
        if (status == 0) status = call_run(&c);
        call_finish(&c, status == 0);
    }
    Py_END_ALLOW_THREADS
    if (status != 0) {
        if (c.out.status == ACLNN_ERR_PARAM_INVALID) add_float64_hint(&c.out, ops, count);
        raise_outcome(&c.out);
        return -1;
    }
    return 0;
}

/* A new array or tensor laid out like `like` (its strides order kept). For a NumPy array
   that runs backwards along some axes, the new one is viewed backwards along the same axes,
   so the two pair up without a negative stride reaching the library. */
static PyObject *new_like(PyObject *like, const operand *op) {
    if (is_torch(like)) return PyObject_CallOneArg(torch_empty_like, like);
    PyObject *fresh = PyObject_CallOneArg(np_empty_like, like);
    if (fresh == NULL) return NULL;
    int reversed = 0;
    for (int d = 0; d < op->ndim; d++) reversed |= op->stride[d] < 0 && op->shape[d] > 1;
    if (!reversed) return fresh;
    PyObject *index = PyTuple_New(op->ndim);
    if (index == NULL) {
        Py_DECREF(fresh);
        return NULL;
    }
    for (int d = 0; d < op->ndim; d++) {
        PyObject *step = PyLong_FromLong(op->stride[d] < 0 && op->shape[d] > 1 ? -1 : 1);
        PyObject *slice = step != NULL ? PySlice_New(Py_None, Py_None, step) : NULL;
        Py_XDECREF(step);
        if (slice == NULL) {
            Py_DECREF(index);
            Py_DECREF(fresh);
            return NULL;
        }
        PyTuple_SET_ITEM(index, d, slice);
    }
    PyObject *view = PyObject_GetItem(fresh, index);
    Py_DECREF(index);
    Py_DECREF(fresh);
    return view;
}

/* ---- argument parsing (METH_FASTCALL | METH_KEYWORDS) -------------------------------------- */

/* 0, or -1 with a TypeError set. Callers test `!= 0`, so a stray other value fails loudly
   (SystemError) instead of passing for success. */
static int parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      const char *const *names, int nnames, int nrequired, PyObject **out) {
    for (int i = 0; i < nnames; i++) out[i] = NULL;
    if (nargs > nnames) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments (%zd given)", fname, nnames,
                     nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) out[i] = args[i];
    Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int found = -1;
        for (int i = 0; i < nnames; i++)
            if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) found = i;
        if (found < 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, key);
            return -1;
        }
        if (out[found] != NULL) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname,
                         names[found]);
            return -1;
        }
        out[found] = args[nargs + k];
    }
    for (int i = 0; i < nrequired; i++)
        if (out[i] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", fname, names[i]);
            return -1;
        }
    for (int i = nrequired; i < nnames; i++)
        if (out[i] == Py_None) out[i] = NULL;
    return 0;
}

/* 1 when a torch tensor needs nothing of torch's rules beyond its memory and, if written,
   a version count: strided, no negative bit, no autograd to record (grad mode off or no
   requires_grad), and, if written, not an inference tensor; 0 when mishgrad.torch's hook
   must take the call; -1 with an exception set. */
static int torch_plain(PyObject *t, int written, int grad_mode) {
    if (grad_mode) {
        PyObject *rg = PyObject_GetAttr(t, str_requires_grad);
        if (rg == NULL) return -1;
        int wants_grad = PyObject_IsTrue(rg);
        Py_DECREF(rg);
        if (wants_grad != 0) return wants_grad < 0 ? -1 : 0;
    }
    PyObject *layout = PyObject_GetAttr(t, str_layout);
    if (layout == NULL) return -1;
    int strided = layout == torch_strided;
    Py_DECREF(layout);
    if (!strided) return 0;
    PyObject *const checks[2] = {str_is_neg, str_is_inference};
    for (int k = 0; k < (written ? 2 : 1); k++) {
        PyObject *flag = PyObject_CallMethodNoArgs(t, checks[k]);
        if (flag == NULL) return -1;
        int set = PyObject_IsTrue(flag);
        Py_DECREF(flag);
        if (set != 0) return set < 0 ? -1 : 0;
    }
    return 1;
}

/* Whether this call goes to mishgrad.torch's hook for `op`: 1 when a torch tensor among the
   arguments needs torch's rules (torch_plain), 0 to run it here, -1 with an exception set.
   `written` is the index of the argument written (the last one for mish_; out=, by
   keyword or position, for the others). */
static int torch_needs_hook(int op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                            Py_ssize_t written_position, const char *written_keyword) {
    if (torch_hooks[op] == NULL) return 0;
    Py_ssize_t n = nargs + (kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0);
    int grad_mode = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!is_torch(args[i])) continue;
        if (grad_mode < 0) {
            PyObject *enabled = PyObject_CallNoArgs(torch_is_grad_enabled);
            if (enabled == NULL) return -1;
            const int record_all = PyLong_CheckExact(enabled) && PyLong_AsLong(enabled) == 2;
            grad_mode = PyObject_IsTrue(enabled);
            Py_DECREF(enabled);
            if (grad_mode < 0) return -1;
            if (record_all) return 1;
        }
        int written = i < nargs ? i == written_position
                                : PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i - nargs),
                                                                   written_keyword) == 0;
        int plain = torch_plain(args[i], written, grad_mode);
        if (plain <= 0) return plain < 0 ? -1 : 1;
    }
    return 0;
}

/* Counts a write into torch tensor t on its version counter, as torch's in-place ops do:
   autograd then refuses a backward pass that would read t's old values as unchanged. */
static int torch_count_write(PyObject *t) {
    if (!is_torch(t)) return 0;
    PyObject *r = torch_bump != NULL ? PyObject_CallOneArg(torch_bump, t)
                                     : PyObject_CallMethodOneArg(t, str_copy_, t);
    Py_XDECREF(r);
    return r == NULL ? -1 : 0;
}

#define MG_TORCH_HOOK(op, written_position, written_keyword)                                   \
    if (hooked) {                                                                              \
        int needs = torch_needs_hook(op, args, nargs, kwnames, written_position, written_keyword); \
        if (needs < 0) return NULL;                                                            \
        if (needs) return PyObject_Vectorcall(torch_hooks[op], args, (size_t)nargs, kwnames);   \
    }

/* mish(x, out=None) and mish_backward(grad_output, x, out=None): inputs, then out. */

static PyObject *binary_or_unary(int op, int n_inputs, const char *fname, const char *const *names,
                                 int hooked, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kwnames) {
    MG_TORCH_HOOK(op, n_inputs, "out")
    PyObject *a[3];
    if (parse_args(fname, args, nargs, kwnames, names, n_inputs + 1, n_inputs, a) != 0) return NULL;
    operand ops[3];
    memset(ops, 0, sizeof ops);
    PyObject *result = NULL;
    for (int i = 0; i < n_inputs; i++)
        if (operand_from(&ops[i], a[i], 0, names[i]) != 0) goto done;
    const operand *like = &ops[n_inputs - 1];
    if (a[n_inputs] != NULL) {
        result = a[n_inputs];
        Py_INCREF(result);
    } else {
        result = new_like(a[n_inputs - 1], like);
        if (result == NULL) goto done;
    }
    if (operand_from(&ops[n_inputs], result, 1, "out") != 0) goto fail;
    rebase_negative_strides(ops, n_inputs + 1);
    if (execute(op, ops, n_inputs + 1) != 0) goto fail;
    if (hooked && a[n_inputs] != NULL && torch_count_write(result) < 0) goto fail;
    goto done;
fail:
    Py_CLEAR(result);
done:
    for (int i = 0; i <= n_inputs; i++) operand_release(&ops[i]);
    return result;
}

static PyObject *mish_entry(int hooked, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames) {
    static const char *const names[] = {"x", "out"};
    return binary_or_unary(OP_MISH, 1, "mish", names, hooked, args, nargs, kwnames);
}

static PyObject *mish_backward_entry(int hooked, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kwnames) {
    static const char *const names[] = {"grad_output", "x", "out"};
    return binary_or_unary(OP_MISH_BACKWARD, 2, "mish_backward", names, hooked, args, nargs,
                           kwnames);
}

static PyObject *inplace_mish_entry(int hooked, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kwnames) {
    MG_TORCH_HOOK(OP_INPLACE_MISH, 0, "x")
    static const char *const names[] = {"x"};
    PyObject *a[1];
    if (parse_args("mish_", args, nargs, kwnames, names, 1, 1, a) != 0) return NULL;
    operand op;
    if (operand_from(&op, a[0], 1, "x") != 0) {
        operand_release(&op);
        return NULL;
    }
    rebase_negative_strides(&op, 1);
    int rc = execute(OP_INPLACE_MISH, &op, 1);
    operand_release(&op);
    if (rc != 0 || (hooked && torch_count_write(a[0]) < 0)) return NULL;
    Py_INCREF(a[0]);
    return a[0];
}

#define MG_ENTRY(name, entry, hooked)                                                         \
    static PyObject *name(PyObject *self, PyObject *const *args, Py_ssize_t nargs,             \
                          PyObject *kwnames) {                                                 \
        (void)self;                                                                            \
        return entry(hooked, args, nargs, kwnames);                                            \
    }
MG_ENTRY(py_mish, mish_entry, 1)
MG_ENTRY(py_mish_, inplace_mish_entry, 1)
MG_ENTRY(py_mish_backward, mish_backward_entry, 1)
MG_ENTRY(py_mish_raw, mish_entry, 0)
MG_ENTRY(py_mish_raw_, inplace_mish_entry, 0)
MG_ENTRY(py_mish_backward_raw, mish_backward_entry, 0)
#undef MG_ENTRY

/* _set_torch_hooks(mish, mish_, mish_backward, is_grad_enabled, strided, bump): see
   torch_hooks and torch_is_grad_enabled; bump None for t.copy_(t). */
static PyObject *py_set_torch_hooks(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *h[3], *grad_enabled, *strided, *bump;
    if (!PyArg_ParseTuple(args, "OOOOOO", &h[OP_MISH], &h[OP_INPLACE_MISH], &h[OP_MISH_BACKWARD],
                          &grad_enabled, &strided, &bump))
        return NULL;
    for (int i = 0; i < 3; i++)
        if (!PyCallable_Check(h[i])) {
            PyErr_SetString(PyExc_TypeError, "_set_torch_hooks: the hooks must be callable");
            return NULL;
        }
    if (!PyCallable_Check(grad_enabled) || (bump != Py_None && !PyCallable_Check(bump))) {
        PyErr_SetString(PyExc_TypeError, "_set_torch_hooks: is_grad_enabled and bump must be callable");
        return NULL;
    }
    for (int i = 0; i < 3; i++) {
        Py_INCREF(h[i]);
        Py_XSETREF(torch_hooks[i], h[i]);
    }
    Py_INCREF(grad_enabled);
    Py_XSETREF(torch_is_grad_enabled, grad_enabled);
    Py_INCREF(strided);
    Py_XSETREF(torch_strided, strided);
    PyObject *b = bump == Py_None ? NULL : bump;
    Py_XINCREF(b);
    Py_XSETREF(torch_bump, b);
    Py_RETURN_NONE;
}

/* _c_loop(op, reps, *arrays): the C call alone, for the benchmark. The memory is made
   device-reachable and the tensors created once, outside the clock; the clock covers `reps`
   times phase 1 + phase 2 + aclrtSynchronizeStream, as a C program calling the operator on
   tensors it keeps would run it. Returns the seconds of the whole loop. */
static PyObject *py_c_loop(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs < 3) {
        PyErr_SetString(PyExc_TypeError, "_c_loop(op, reps, *arrays)");
        return NULL;
    }
    const char *opname = PyUnicode_AsUTF8(args[0]);
    long reps = PyLong_AsLong(args[1]);
    if (opname == NULL || (reps == -1 && PyErr_Occurred())) return NULL;
    int op = strcmp(opname, "mish") == 0 ? OP_MISH
           : strcmp(opname, "mish_") == 0 ? OP_INPLACE_MISH
           : strcmp(opname, "mish_backward") == 0 ? OP_MISH_BACKWARD : -1;
    int count = (int)(nargs - 2);
    int want = op == OP_MISH ? 2 : op == OP_INPLACE_MISH ? 1 : 3;
    if (op < 0 || count != want) {
        PyErr_SetString(PyExc_ValueError, "_c_loop: op is mish (x, out), mish_ (x) or "
                                          "mish_backward (grad_output, x, out)");
        return NULL;
    }
    operand ops[3];
    memset(ops, 0, sizeof ops);
    for (int i = 0; i < count; i++)
        if (operand_from(&ops[i], args[2 + i], i == count - 1, "array") != 0) {
            for (int j = 0; j <= i; j++) operand_release(&ops[j]);
            return NULL;
        }
    rebase_negative_strides(ops, count);
    for (int i = 0; i < count; i++) describe(&ops[i]);
    call c;
    memset(&c, 0, sizeof c);
    c.op = op;
    c.count = count;
    c.ops = ops;
    int status;
    double seconds = 0;
    Py_BEGIN_ALLOW_THREADS
    status = session_enter(&c.out);
    if (status == 0) {
        status = call_prepare(&c);
        if (status == 0) {
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            for (long r = 0; r < reps && status == 0; r++) status = call_run(&c);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        }
        call_finish(&c, status == 0);
    }
    Py_END_ALLOW_THREADS
    for (int i = 0; i < count; i++) operand_release(&ops[i]);
    if (status != 0) return raise_outcome(&c.out);
    return PyFloat_FromDouble(seconds);
}

/* _bind(AclnnError, ndarray, generic, np_empty_like, Tensor, torch_empty_like, torch_dtypes,
         storage_method): the optional libraries, as found by the package at import. */
static PyObject *py_bind(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *err, *nd, *ng, *nel, *tt, *tel, *tdt;
    const char *storage_method;
    if (!PyArg_ParseTuple(args, "OOOOOOOs", &err, &nd, &ng, &nel, &tt, &tel, &tdt, &storage_method))
        return NULL;
    PyObject *storage_name = PyUnicode_InternFromString(storage_method);
    if (storage_name == NULL) return NULL;
    Py_XSETREF(str_storage, storage_name);
#define BIND(var, value) do { PyObject *v_ = (value) == Py_None ? NULL : (value); Py_XINCREF(v_); Py_XSETREF(var, v_); } while (0)
    BIND(AclnnError, err);
    BIND(np_ndarray, nd);
    BIND(np_generic, ng);
    BIND(np_empty_like, nel);
    BIND(torch_tensor, tt);
    BIND(torch_empty_like, tel);
    BIND(torch_dtypes, tdt);
#undef BIND
    if (AclnnError == NULL) {
        PyErr_SetString(PyExc_TypeError, "_bind: AclnnError is required");
        return NULL;
    }
    if (torch_tensor != NULL && (torch_dtypes == NULL || !PyDict_Check(torch_dtypes))) {
        PyErr_SetString(PyExc_TypeError, "_bind: torch dtypes must be a dict");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *py_zero_copy(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    outcome o;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = session_enter(&o);
    Py_END_ALLOW_THREADS
    if (status != 0) return raise_outcome(&o);
    return PyBool_FromLong(mg_mem_zero_copy());
}

static PyObject *py_release_registrations(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    Py_BEGIN_ALLOW_THREADS
    MG_LOCK(session_lock);
    if (atomic_load(&session_state) == 1 && session_pid == getpid()) {
        adopt_session_context();
        mg_mem_flush();
    }
    MG_UNLOCK(session_lock);
    Py_END_ALLOW_THREADS
    Py_RETURN_NONE;
}

static PyObject *py_live_registrations(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return PyLong_FromLong(mg_mem_live());
}

static PyMethodDef methods[] = {
    {"mish", (PyCFunction)(void (*)(void))py_mish, METH_FASTCALL | METH_KEYWORDS,
     "mish($module, x, out=None)\n--\n\ny = x * tanh(softplus(x)) through aclnnMish."},
    {"mish_", (PyCFunction)(void (*)(void))py_mish_, METH_FASTCALL | METH_KEYWORDS,
     "mish_($module, x)\n--\n\nx = mish(x) in place through aclnnInplaceMish; returns x."},
    {"mish_backward", (PyCFunction)(void (*)(void))py_mish_backward, METH_FASTCALL | METH_KEYWORDS,
     "mish_backward($module, grad_output, x, out=None)\n--\n\nThe gradient of mish through aclnnMishBackward."},
    {"_mish", (PyCFunction)(void (*)(void))py_mish_raw, METH_FASTCALL | METH_KEYWORDS,
     "internal: mish without the torch hook (memory only: no autograd, no version counter)."},
    {"_mish_", (PyCFunction)(void (*)(void))py_mish_raw_, METH_FASTCALL | METH_KEYWORDS,
     "internal: mish_ without the torch hook."},
    {"_mish_backward", (PyCFunction)(void (*)(void))py_mish_backward_raw,
     METH_FASTCALL | METH_KEYWORDS, "internal: mish_backward without the torch hook."},
    {"_set_torch_hooks", py_set_torch_hooks, METH_VARARGS,
     "internal: _set_torch_hooks(mish, mish_, mish_backward, is_grad_enabled, strided, bump): "
     "the calls on torch tensors that need torch's rules, and what the others ask of torch."},
    {"_c_loop", (PyCFunction)(void (*)(void))py_c_loop, METH_FASTCALL,
     "_c_loop(op, reps, *arrays) -> seconds: the C call alone, repeated (benchmark)."},
    {"_bind", py_bind, METH_VARARGS, "internal: the optional libraries found at import."},
    {"_shutdown", py_shutdown, METH_NOARGS, "internal: aclFinalize at interpreter exit."},
    {"zero_copy", py_zero_copy, METH_NOARGS,
     "zero_copy($module, /)\n--\n\nzero_copy() -> bool: True when the caller's memory reaches the operator through "
     "aclrtHostRegister (no copy); False when this runtime stages it through aclrtMalloc."},
    {"release_registrations", py_release_registrations, METH_NOARGS,
     "release_registrations($module, /)\n--\n\nUnregister the host registrations kept between calls (idle "
     "ones; at most 64 are kept, and all are released at exit)."},
    {"_live_registrations", py_live_registrations, METH_NOARGS,
     "internal: host registrations held right now (0 between calls)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "mishgrad._mishgrad",
                                    "MishGradV2's operators on NumPy arrays and torch tensors.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__mishgrad(void) {
#define INTERN(var, text) do { if ((var = PyUnicode_InternFromString(text)) == NULL) return NULL; } while (0)
    INTERN(str_base, "base");
    INTERN(str_is_cpu, "is_cpu");
    INTERN(str_dtype, "dtype");
    INTERN(str_shape, "shape");
    INTERN(str_stride, "stride");
    INTERN(str_data_ptr, "data_ptr");
    INTERN(str_storage, "_storage");
    INTERN(str_nbytes, "nbytes");
    INTERN(str_element_size, "element_size");
    INTERN(str_device, "device");
    INTERN(str_requires_grad, "requires_grad");
    INTERN(str_layout, "layout");
    INTERN(str_is_neg, "is_neg");
    INTERN(str_is_inference, "is_inference");
    INTERN(str_copy_, "copy_");
#undef INTERN
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (
#if defined(MISHGRAD_HAVE_FORWARD)
        PyModule_AddIntConstant(m, "HAVE_FORWARD", 1) < 0
#else
        PyModule_AddIntConstant(m, "HAVE_FORWARD", 0) < 0
#endif
    ) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

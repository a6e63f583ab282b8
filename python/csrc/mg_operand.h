/*
 * mg_operand.h: what the extension's files share: the objects bound from Python
 * (mishgrad/__init__.py calls _bind) and the interned attribute names, defined in
 * _mishgrad.c, and an operand (a NumPy array or a torch tensor described for
 * aclCreateTensor), made in mg_operand.c.
 */
#ifndef MG_OPERAND_H_
#define MG_OPERAND_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#if defined(__GNUC__)
#define MG_HIDDEN __attribute__((visibility("hidden")))
#else
#define MG_HIDDEN
#endif

#define MG_MAX_RANK 64

/* ---- _mishgrad.c ---- */
MG_HIDDEN extern PyObject *AclnnError;
MG_HIDDEN extern PyObject *np_ndarray, *np_generic, *np_empty_like;
MG_HIDDEN extern PyObject *torch_tensor, *torch_empty_like, *torch_dtypes;
/* mishgrad.torch's mish, mish_ and mish_backward (set by _set_torch_hooks): a call with a
   torch tensor among its arguments goes to them, for what torch's own in-place and out=
   ops do (autograd, version counters, negative-bit views); they come back through the
   _mish, _mish_ and _mish_backward entry points, which skip the hooks. */
MG_HIDDEN extern PyObject *torch_hooks[3];
/* What the fast path asks of torch (also set by _set_torch_hooks): the grad mode (a
   callable returning False, True, or 2 when every torch call must take the hook: under
   torch.jit.trace, which records no memory write, and with a forward-mode AD level open),
   torch.strided, and how to count a write on a tensor's version counter (NULL: t.copy_(t),
   which moves no data but counts as an in-place op). */
MG_HIDDEN extern PyObject *torch_is_grad_enabled, *torch_strided, *torch_bump;
MG_HIDDEN extern PyObject *str_base, *str_is_cpu, *str_dtype, *str_shape, *str_stride, *str_data_ptr,
    *str_storage, *str_nbytes, *str_element_size, *str_device, *str_requires_grad, *str_layout,
    *str_is_neg, *str_is_inference, *str_copy_;

/* ---- mg_operand.c ---- */
typedef struct operand {
    PyObject *obj;
    Py_buffer view;
    int has_view;
    int ndim;
    int acl_dtype;
    int64_t itemsize;
    int64_t numel;
    int64_t shape[MG_MAX_RANK];
    int64_t stride[MG_MAX_RANK]; /* elements */
    uintptr_t first;             /* address of element [0, ..., 0] */
    uintptr_t store_lo, store_hi; /* the underlying buffer */
    /* The bytes the view's elements occupy, first to last (empty for no element): what
       the call reads or writes, while store_lo..store_hi is what its tensor describes.
       Re-basing negative strides moves `first` but keeps this set of bytes. */
    uintptr_t view_lo, view_hi;
    /* filled by describe(): */
    uintptr_t storage;
    int64_t offset, storage_elems;
} operand;

MG_HIDDEN void operand_release(operand *op);
MG_HIDDEN int is_torch(PyObject *obj);
/* 0, or -1 with a Python exception set (callers test != 0: any other value is a bug that
   must not pass as success). */
MG_HIDDEN int operand_from(operand *op, PyObject *obj, int writable, const char *name);
MG_HIDDEN void rebase_negative_strides(operand *ops, int count);
MG_HIDDEN void describe(operand *op);

#endif /* MG_OPERAND_H_ */

/*
 * mg_operand.c: a NumPy array or torch tensor as the extension's operand: its buffer,
 * dtype, shape, strides (negative ones re-based) and the storage aclCreateTensor is to
 * describe (the whole underlying buffer, as torch_npu's op-plugin does).
 */
#include "mg_operand.h"

#include <string.h>

#include "acl/acl.h"

/* ---- operands: an array or tensor described for aclCreateTensor -------------------------- */



void operand_release(operand *op) {
    if (op->has_view) PyBuffer_Release(&op->view);
    op->has_view = 0;
}

/* A PEP 3118 format's ACL dtype; ACL_DT_UNDEFINED for one CANN has no name for (the
   operator then refuses it). */
static int acl_dtype_of_format(const char *format, Py_ssize_t itemsize, int *native) {
    const char *f = format != NULL ? format : "B";
    const int little = 1;
    *native = 1;
    if (*f == '@' || *f == '=') f++;
    else if (*f == '<') { *native = *(const char *)&little == 1; f++; }
    else if (*f == '>' || *f == '!') { *native = *(const char *)&little != 1; f++; }
    if (f[0] == 'Z') {
        if (f[1] == 'f' && f[2] == '\0') return ACL_COMPLEX64;
        if (f[1] == 'd' && f[2] == '\0') return ACL_COMPLEX128;
        return ACL_DT_UNDEFINED;
    }
    if (f[0] == '\0' || f[1] != '\0') return ACL_DT_UNDEFINED;
    switch (f[0]) {
    case 'f': return itemsize == 4 ? ACL_FLOAT : ACL_DT_UNDEFINED;
    case 'e': return itemsize == 2 ? ACL_FLOAT16 : ACL_DT_UNDEFINED;
    case 'd': return itemsize == 8 ? ACL_DOUBLE : ACL_DT_UNDEFINED;
    case '?': return ACL_BOOL;
    case 'b': return ACL_INT8;
    case 'B': return ACL_UINT8;
    case 'h': return ACL_INT16;
    case 'H': return ACL_UINT16;
    case 'i': case 'l': case 'q': case 'n':
        return itemsize == 4 ? ACL_INT32 : itemsize == 8 ? ACL_INT64 : ACL_DT_UNDEFINED;
    case 'I': case 'L': case 'Q': case 'N':
        return itemsize == 4 ? ACL_UINT32 : itemsize == 8 ? ACL_UINT64 : ACL_DT_UNDEFINED;
    default: return ACL_DT_UNDEFINED;
    }
}

/* [lo, hi) of the bytes a strided layout touches; lo == hi when it has no element. */
static void byte_bounds(uintptr_t first, int ndim, const int64_t *shape, const int64_t *stride_bytes,
                        int64_t itemsize, uintptr_t *lo, uintptr_t *hi) {
    intptr_t low = 0, high = 0;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] == 0) {
            *lo = *hi = first;
            return;
        }
        intptr_t span = (intptr_t)(shape[d] - 1) * (intptr_t)stride_bytes[d];
        if (span < 0) low += span;
        else high += span;
    }
    *lo = first + (uintptr_t)low;
    *hi = first + (uintptr_t)high + (uintptr_t)itemsize;
}

static int from_numpy(operand *op, PyObject *obj, int writable, const char *name) {
    int flags = writable ? PyBUF_RECORDS : PyBUF_RECORDS_RO;
    if (PyObject_GetBuffer(obj, &op->view, flags) < 0) return -1;
    op->has_view = 1;
    const Py_buffer *v = &op->view;
    if (v->ndim > MG_MAX_RANK) {
        PyErr_Format(PyExc_ValueError, "mishgrad: %s has %d dimensions (at most %d)", name, v->ndim,
                     MG_MAX_RANK);
        return -1;
    }
    int native;
    op->acl_dtype = acl_dtype_of_format(v->format, v->itemsize, &native);
    if (!native) {
        PyErr_Format(PyExc_TypeError,
                     "mishgrad: %s is byte-swapped (format '%s'); use a native-order array",
                     name, v->format);
        return -1;
    }
    op->itemsize = v->itemsize;
    op->ndim = v->ndim;
    op->first = (uintptr_t)v->buf;
    op->numel = 1;
    int64_t stride_bytes[MG_MAX_RANK];
    for (int d = 0; d < v->ndim; d++) {
        op->shape[d] = v->shape[d];
        stride_bytes[d] = v->strides[d];
        op->numel *= v->shape[d];
        if (v->strides[d] % v->itemsize != 0) {
            PyErr_Format(PyExc_ValueError,
                         "mishgrad: %s's stride %zd bytes along dimension %d is not a multiple of "
                         "its item size %zd (CANN's strides count elements)",
                         name, v->strides[d], d, v->itemsize);
            return -1;
        }
        op->stride[d] = v->strides[d] / v->itemsize;
    }
    if (op->numel > 0 && op->first % (uintptr_t)op->itemsize != 0) {
        PyErr_Format(PyExc_ValueError, "mishgrad: %s's data is not aligned to its item size %zd",
                     name, v->itemsize);
        return -1;
    }
    byte_bounds(op->first, op->ndim, op->shape, stride_bytes, op->itemsize, &op->store_lo,
                &op->store_hi);
    op->view_lo = op->store_lo;
    op->view_hi = op->store_hi;
    /* The whole underlying buffer: the array that owns the memory (NumPy points a view's
       base straight at it). */
    PyObject *root = obj;
    Py_INCREF(root);
    for (;;) {
        PyObject *base = PyObject_GetAttr(root, str_base);
        if (base == NULL) {
            PyErr_Clear();
            break;
        }
        if (base == Py_None || !PyObject_TypeCheck(base, (PyTypeObject *)np_ndarray)) {
            Py_DECREF(base);
            break;
        }
        Py_DECREF(root);
        root = base;
    }
    if (root != obj) {
        Py_buffer rv;
        if (PyObject_GetBuffer(root, &rv, PyBUF_STRIDES) == 0) {
            int64_t rshape[MG_MAX_RANK], rstride[MG_MAX_RANK];
            int rdim = rv.ndim <= MG_MAX_RANK ? rv.ndim : 0;
            for (int d = 0; d < rdim; d++) {
                rshape[d] = rv.shape[d];
                rstride[d] = rv.strides[d];
            }
            uintptr_t lo, hi;
            byte_bounds((uintptr_t)rv.buf, rdim, rshape, rstride, rv.itemsize, &lo, &hi);
            PyBuffer_Release(&rv);
            if (lo < hi && op->numel > 0) {
                if (lo < op->store_lo) op->store_lo = lo;
                if (hi > op->store_hi) op->store_hi = hi;
            }
        } else {
            PyErr_Clear();
        }
    }
    Py_DECREF(root);
    return 0;
}

static int64_t as_i64(PyObject *o, int *bad) {
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred()) *bad = 1;
    return (int64_t)v;
}

static PyObject *call0(PyObject *obj, PyObject *name) { return PyObject_CallMethodNoArgs(obj, name); }

static int from_torch(operand *op, PyObject *obj, const char *name) {
    int bad = 0;
    PyObject *is_cpu = PyObject_GetAttr(obj, str_is_cpu);
    if (is_cpu == NULL) return -1;
    int cpu = PyObject_IsTrue(is_cpu);
    Py_DECREF(is_cpu);
    if (cpu != 1) {
        if (cpu == 0) {
            PyObject *device = PyObject_GetAttr(obj, str_device);
            PyErr_Format(PyExc_TypeError, "mishgrad: %s is on device %R; only CPU tensors are taken",
                         name, device != NULL ? device : Py_None);
            Py_XDECREF(device);
        }
        return -1;
    }
    PyObject *dtype = PyObject_GetAttr(obj, str_dtype);
    if (dtype == NULL) return -1;
    PyObject *entry = PyDict_GetItemWithError(torch_dtypes, dtype); /* borrowed */
    Py_DECREF(dtype);
    if (entry != NULL) {
        op->acl_dtype = (int)PyLong_AsLong(PyTuple_GET_ITEM(entry, 0));
        op->itemsize = PyLong_AsLongLong(PyTuple_GET_ITEM(entry, 1));
    } else {
        if (PyErr_Occurred()) return -1;
        PyObject *size = call0(obj, str_element_size);
        if (size == NULL) return -1;
        op->acl_dtype = ACL_DT_UNDEFINED;
        op->itemsize = as_i64(size, &bad);
        Py_DECREF(size);
        if (bad) return -1;
    }
    PyObject *shape = PyObject_GetAttr(obj, str_shape);
    if (shape == NULL) return -1;
    PyObject *stride = call0(obj, str_stride);
    if (stride == NULL) {
        Py_DECREF(shape);
        return -1;
    }
    Py_ssize_t ndim = PyTuple_GET_SIZE(shape);
    if (ndim > MG_MAX_RANK || PyTuple_GET_SIZE(stride) != ndim) {
        PyErr_Format(PyExc_ValueError, "mishgrad: %s has %zd dimensions (at most %d)", name, ndim,
                     MG_MAX_RANK);
        Py_DECREF(shape);
        Py_DECREF(stride);
        return -1;
    }
    op->ndim = (int)ndim;
    op->numel = 1;
    int64_t stride_bytes[MG_MAX_RANK];
    for (Py_ssize_t d = 0; d < ndim; d++) {
        op->shape[d] = as_i64(PyTuple_GET_ITEM(shape, d), &bad);
        op->stride[d] = as_i64(PyTuple_GET_ITEM(stride, d), &bad);
        stride_bytes[d] = op->stride[d] * op->itemsize;
        op->numel *= op->shape[d];
    }
    Py_DECREF(shape);
    Py_DECREF(stride);
    if (bad) return -1;
    PyObject *ptr = call0(obj, str_data_ptr);
    if (ptr == NULL) {
        /* A tensor with no memory of its own: torch.vmap's batched tensors (torch 1.x has no
           other test for them), functorch's wrappers, some subclasses. Said in the package's
           words; torch's own is chained as the cause. */
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_NormalizeException(&type, &value, &tb);
        PyErr_Format(PyExc_TypeError,
                     "mishgrad: %s has no memory of its own (a torch.vmap / torch.func batched or "
                     "wrapped tensor?): the library runs on a tensor's memory, so torch.vmap and "
                     "torch.func transforms are not supported; call mishgrad outside the transform, "
                     "or use torch.nn.functional.mish inside it",
                     name);
        PyObject *t2, *v2, *tb2;
        PyErr_Fetch(&t2, &v2, &tb2);
        PyErr_NormalizeException(&t2, &v2, &tb2);
        if (value != NULL) PyException_SetCause(v2, value); /* steals value */
        Py_XDECREF(type);
        Py_XDECREF(tb);
        PyErr_Restore(t2, v2, tb2);
        return -1;
    }
    op->first = (uintptr_t)PyLong_AsUnsignedLongLong(ptr);
    Py_DECREF(ptr);
    if (PyErr_Occurred()) return -1;
    byte_bounds(op->first, op->ndim, op->shape, stride_bytes, op->itemsize, &op->store_lo,
                &op->store_hi);
    op->view_lo = op->store_lo;
    op->view_hi = op->store_hi;
    /* The whole storage, as op-plugin gives it (storageDims = nbytes / itemsize). */
    PyObject *storage = call0(obj, str_storage);
    if (storage == NULL) return -1;
    PyObject *sptr = call0(storage, str_data_ptr);
    PyObject *snb = sptr != NULL ? call0(storage, str_nbytes) : NULL;
    Py_DECREF(storage);
    if (snb == NULL) {
        Py_XDECREF(sptr);
        return -1;
    }
    uintptr_t lo = (uintptr_t)PyLong_AsUnsignedLongLong(sptr);
    uintptr_t hi = lo + (uintptr_t)PyLong_AsUnsignedLongLong(snb);
    Py_DECREF(sptr);
    Py_DECREF(snb);
    if (PyErr_Occurred()) return -1;
    if (op->numel > 0 && lo < hi) {
        if (lo < op->store_lo) op->store_lo = lo;
        if (hi > op->store_hi) op->store_hi = hi;
    }
    return 0;
}

static int is_numpy(PyObject *obj) {
    return np_ndarray != NULL && PyObject_TypeCheck(obj, (PyTypeObject *)np_ndarray);
}
/* A NumPy scalar (np.float32(2.0)): read through its buffer as a rank-0 array. */
static int is_numpy_scalar(PyObject *obj) {
    return np_generic != NULL && PyObject_TypeCheck(obj, (PyTypeObject *)np_generic);
}
int is_torch(PyObject *obj) {
    return torch_tensor != NULL && PyObject_TypeCheck(obj, (PyTypeObject *)torch_tensor);
}

int operand_from(operand *op, PyObject *obj, int writable, const char *name) {
    memset(op, 0, sizeof *op);
    op->obj = obj;
    if (is_numpy(obj) || (!writable && is_numpy_scalar(obj))) return from_numpy(op, obj, writable, name);
    if (is_torch(obj)) return from_torch(op, obj, name);
    if (strcmp(Py_TYPE(obj)->tp_name, "Proxy") == 0 || strcmp(Py_TYPE(obj)->tp_name, "Attribute") == 0) {
        /* torch.fx's symbolic tracing hands a Proxy (tp_name is the bare class name) */
        PyErr_Format(PyExc_TypeError,
                     "mishgrad: %s is a %.200s: torch.fx symbolic tracing is not supported (the library "
                     "runs on a tensor's memory); trace with torch.nn.functional.mish, or make the "
                     "module calling mishgrad a leaf of the fx.Tracer",
                     name, Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyErr_Format(PyExc_TypeError,
                 "mishgrad: %s must be a numpy.ndarray or a torch.Tensor on the CPU, not %.200s",
                 name, Py_TYPE(obj)->tp_name);
    return -1;
}

/* CANN's tensors cannot run backwards. Along an axis where every operand has a negative
   stride, the operands are re-based: the offset moves to the lowest element and the stride
   turns positive -- the same elements in the same pairing, reversed together. Where the
   operands disagree, the negative stride goes to the library as it is (161002). */
void rebase_negative_strides(operand *ops, int count) {
    int ndim = ops[0].ndim;
    for (int i = 1; i < count; i++)
        if (ops[i].ndim != ndim) return;
    for (int d = 0; d < ndim; d++) {
        int negative = 0, positive = 0, same = 1;
        for (int i = 0; i < count; i++) {
            if (ops[i].shape[d] != ops[0].shape[d]) same = 0;
            negative += ops[i].stride[d] < 0;
            positive += ops[i].stride[d] > 0;
        }
        if (!same || negative == 0) continue;
        if (ops[0].shape[d] <= 1) {
            for (int i = 0; i < count; i++)
                if (ops[i].stride[d] < 0) ops[i].stride[d] = -ops[i].stride[d];
            continue;
        }
        if (positive != 0) continue;
        for (int i = 0; i < count; i++) {
            ops[i].first += (uintptr_t)((intptr_t)(ops[i].shape[d] - 1) * ops[i].stride[d] *
                                        ops[i].itemsize);
            ops[i].stride[d] = -ops[i].stride[d];
        }
    }
}

/* The storage the library is told about: the whole buffer from its first element that is in
   step with the view (the view's offset counts elements). */
void describe(operand *op) {
    if (op->numel == 0) {
        op->storage = 0;
        op->offset = 0;
        op->storage_elems = 0;
        return;
    }
    uintptr_t misalign = (op->first - op->store_lo) % (uintptr_t)op->itemsize;
    op->storage = op->store_lo + misalign;
    op->offset = (int64_t)((op->first - op->storage) / (uintptr_t)op->itemsize);
    op->storage_elems = (int64_t)((op->store_hi - op->storage) / (uintptr_t)op->itemsize);
}

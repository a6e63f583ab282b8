"""Tests written for survivors of tools/mutate.py's python layer (docs/reliability.md,
"Mutation"): each states a rule of the package and checks it against values computed here
in float64 (conftest's references), not by the package."""
import numpy as np
import pytest

import mishgrad
from mishgrad import _mishgrad
from conftest import check_backward, check_forward, needs_forward


# ---- a size-1 axis's stride is never a direction -----------------------------------------

def test_a_negative_stride_on_a_size_one_axis_is_no_direction():
    """Along an axis of size 1 no two elements meet, so its stride's sign cannot pair
    anything the wrong way: a negative stride there is taken as it is (made positive) even
    where another operand runs forwards on that axis -- unlike a longer axis, where opposite
    directions go to the library and are refused (test_errors.py). x is not contiguous (every
    other element), so NumPy hands over its strides as they are: a contiguous array's buffer
    gets canonical strides from NumPy, a size-1 axis's sign lost on the way."""
    x = np.linspace(-3, 3, 10, dtype=np.float32).reshape(1, 10)[::-1, ::2]  # strides (-40, 8)
    g = np.linspace(0.5, 2.5, 5, dtype=np.float32).reshape(1, 5)            # strides (20, 4)
    assert memoryview(x).strides == (-40, 8)
    assert x.strides[0] < 0 < g.strides[0]
    y = mishgrad.mish_backward(g, x)
    check_backward(y, g, x, "float32")
    out = np.full((1, 5), 1234.5, np.float32)
    mishgrad.mish_backward(g[::-1], x, out=out)  # grad_output backwards too, out forwards
    check_backward(out, g, x, "float32")


@needs_forward
def test_forward_with_a_negative_stride_on_a_size_one_axis():
    x = np.linspace(-3, 3, 10, dtype=np.float32).reshape(1, 10)[::-1, ::2]
    out = np.full((1, 5), 1234.5, np.float32)
    mishgrad.mish(x, out=out)
    check_forward(out, x, "float32")


# ---- the benchmark's C loop computes what the package computes ---------------------------

def test_the_c_loop_writes_the_operator_s_results():
    """_c_loop (bench/python_bench.py's "C" column) must run the real call on every array
    it is given: its timings mean nothing otherwise."""
    n = 1000
    x = np.linspace(-6, 6, n, dtype=np.float32)
    g = np.linspace(-2, 2, n, dtype=np.float32)
    out = np.full(n, 1234.5, np.float32)
    seconds = _mishgrad._c_loop("mish_backward", 3, g, x, out)
    assert isinstance(seconds, float) and seconds >= 0
    check_backward(out, g, x, "float32")
    if _mishgrad.HAVE_FORWARD:
        out[:] = 1234.5
        _mishgrad._c_loop("mish", 1, x, out)
        check_forward(out, x, "float32")
        y = x.copy()
        _mishgrad._c_loop("mish_", 1, y)
        check_forward(y, x, "float32")


def test_the_c_loop_refuses_a_wrong_call():
    x = np.ones(4, np.float32)
    with pytest.raises(ValueError):
        _mishgrad._c_loop("mish_backward", 1, x, x)  # three arrays needed
    with pytest.raises(ValueError):
        _mishgrad._c_loop("tanh", 1, x, x)
    with pytest.raises(TypeError):
        _mishgrad._c_loop("mish")


# ---- a tensor's rank: the package's own limit, then the library's ------------------------

RANK_CHILD = r"""
import numpy as np
import mishgrad
from mishgrad import _mishgrad

class Storage:
    def __init__(self, buf): self.buf = buf
    def data_ptr(self): return self.buf.ctypes.data
    def nbytes(self): return self.buf.nbytes

class FakeTensor:
    # what the package reads of a torch.Tensor: torch itself takes 65 dims and more on the CPU
    is_cpu = True
    dtype = "f32"
    def __init__(self, ndim):
        self.buf = np.ones(1, np.float32)
        self.shape = (1,) * ndim
    def stride(self): return (1,) * len(self.shape)
    def data_ptr(self): return self.buf.ctypes.data
    def untyped_storage(self): return Storage(self.buf)

_mishgrad._bind(mishgrad.AclnnError, np.ndarray, np.generic, np.empty_like, FakeTensor, None,
                {"f32": (0, 4)}, "untyped_storage")
for ndim, want in ((9, "AclnnError"), (64, "AclnnError"), (65, "ValueError"), (70, "ValueError")):
    t = [FakeTensor(ndim) for _ in range(3)]
    try:
        _mishgrad._mish_backward(t[0], t[1], out=t[2])
        got = "no error"
    except mishgrad.AclnnError as e:
        got = "AclnnError" if e.status == 161002 else "AclnnError %d" % e.status
    except ValueError as e:
        got = "ValueError" if "has %d dimensions (at most 64)" % ndim in str(e) else "ValueError: %s" % e
    assert got == want, (ndim, got, want)
print("ok")
"""


def test_ranks_past_64_are_the_package_s_value_error():
    """The package takes up to 64 dims (what NumPy and Python's buffers can have) and passes
    them to the library, which refuses ranks past 8 (161002); a tensor of more (torch allows
    them) is refused by the package itself, a ValueError naming the limit. Torch's tensors are
    stood in for by a class bound as torch's (as test_bind.py does), in a child process."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", RANK_CHILD], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), (done.stdout[-2000:], done.stderr[-3000:])


# ---- a one-element view on both memory routes --------------------------------------------

ROUTE_CHILD = r"""
import json
import numpy as np
import mishgrad
out = {}
for n in (1, 2, 3):
    x = np.linspace(-2.5, 1.5, n, dtype=np.float32)
    g = np.linspace(0.5, 1.5, n, dtype=np.float32)
    y = np.full(n, 1234.5, np.float32)
    mishgrad.mish_backward(g, x, out=y)
    fresh = mishgrad.mish_backward(g, x)
    single = mishgrad.mish_backward(np.float32(0.75), x[:1].reshape(()))  # rank 0: one element
    out[n] = [y.tolist(), fresh.tolist(), float(single)]
print(json.dumps({"zero_copy": bool(mishgrad.zero_copy()), "out": out}))
"""


@pytest.mark.parametrize("route", ["default", "staging"])
def test_one_element_views_on_both_routes(route):
    """A view of one element is a view of itemsize bytes: on the staging route (the Atlas
    products', MISHGRAD_PY_ROUTE=staging) those bytes are copied in and the result out like
    any other view's; only an empty view has no bytes (seed 31: one element taken as none)."""
    import json
    import os
    import subprocess
    import sys
    env = dict(os.environ)
    if route == "staging":
        env["MISHGRAD_PY_ROUTE"] = "staging"
    else:
        env.pop("MISHGRAD_PY_ROUTE", None)
    done = subprocess.run([sys.executable, "-c", ROUTE_CHILD], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-3000:])
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if route == "staging":
        assert report["zero_copy"] is False
    for n, (y, fresh, single) in report["out"].items():
        n = int(n)
        x = np.linspace(-2.5, 1.5, n, dtype=np.float32)
        g = np.linspace(0.5, 1.5, n, dtype=np.float32)
        check_backward(np.array(y, np.float32), g, x, "float32")
        check_backward(np.array(fresh, np.float32), g, x, "float32")
        check_backward(np.array([single], np.float32), np.float32(0.75), x[:1], "float32")


# ---- a result laid out backwards holds no extra reference to its buffer -------------------

def test_a_backwards_result_s_buffer_is_freed_with_it():
    """For inputs that run backwards the package allocates a fresh array and hands back a
    reversed view of it (new_like). The view must own the only reference to that array once
    the call returns: after the view is dropped the array must be gone (a weak reference to
    it dies). A reference kept by the package would leak every such result's buffer."""
    import gc
    import weakref
    x = np.linspace(-3, 3, 64, dtype=np.float32)[::-1]
    g = np.linspace(0.5, 2.5, 64, dtype=np.float32)[::-1]
    assert x.strides[0] < 0 and g.strides[0] < 0
    y = mishgrad.mish_backward(g, x)
    check_backward(y, g, x, "float32")
    assert y.base is not None  # a view of the fresh array, as the package documents
    buffer = weakref.ref(y.base)
    del y
    gc.collect()
    assert buffer() is None, "the fresh array behind a backwards result outlived it"


def test_backwards_results_leave_no_python_objects_behind():
    """Each backwards result is built with a temporary index (a tuple of slices); none of it
    may outlive the call. 3000 calls on 4-D inputs running backwards: the Python heap
    (tracemalloc, which sees every object the interpreter allocates) must not grow by the
    ~300 bytes a call that a kept index tuple and its four slices would add (about 0.9 MB)."""
    import gc
    import tracemalloc
    x = np.linspace(-3, 3, 16, dtype=np.float32).reshape(2, 2, 2, 2)[::-1, ::-1, ::-1, ::-1]
    g = np.linspace(0.5, 2.5, 16, dtype=np.float32).reshape(2, 2, 2, 2)[::-1, ::-1, ::-1, ::-1]
    check_backward(mishgrad.mish_backward(g, x), g, x, "float32")
    for _ in range(200):  # warm-up: caches, interned objects
        mishgrad.mish_backward(g, x)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(3000):
            mishgrad.mish_backward(g, x)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 100_000, "the Python heap grew by %d bytes over 3000 calls" % grown

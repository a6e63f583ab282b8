"""The extension's refusal and error paths, and the memory routes' rarer branches, each
against a written expectation: the exact exception type and text, CANN's status and API, no
reference kept or lost on any path (a Py_buffer holds a reference to its array, so a buffer
not released shows as a reference count one too high), nothing written on a refusal, and
results against conftest's float64 references.

Where a path needs a process of its own (a runtime that cannot start, one finalized, a
forked child, the staging route), a child runs it and prints what it saw."""
import ctypes
import functools
import gc
import json
import mmap
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import mishgrad
from mishgrad import _mishgrad
from conftest import acl_library, check_backward, check_forward, needs_forward

HERE = os.path.dirname(os.path.abspath(__file__))


# A child runs NumPy only: torch, where installed, is kept out (mishgrad imports it when it
# can, which costs seconds per child and plays no part in these paths).
NO_TORCH = "import sys\nsys.modules['torch'] = None\n"


def run_child(code, env_extra=None, timeout=120):
    env = dict(os.environ)
    env.pop("MISHGRAD_PY_ROUTE", None)
    env.update(env_extra or {})
    done = subprocess.run([sys.executable, "-c", NO_TORCH + textwrap.dedent(code)], env=env, cwd=HERE,
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def refs(*objs):
    return [sys.getrefcount(o) for o in objs]


def raised(kind, call):
    """The text of the `kind` exception call() raises, nothing of it kept (a traceback kept
    would hold the frames' references)."""
    try:
        call()
    except kind as e:
        return str(e)
    raise AssertionError("no %r raised" % (kind,))


def f32(n, lo=-4.0, hi=4.0):
    return np.linspace(lo, hi, n, dtype=np.float32)


# ---- argument parsing ------------------------------------------------------------------------

@pytest.mark.parametrize("call, text", [
    (lambda g, x: mishgrad.mish_backward(g, x, None, None),
     "mish_backward() takes at most 3 arguments (4 given)"),
    (lambda g, x: mishgrad.mish_backward(g, x, grad_output=g),
     "mish_backward() got multiple values for argument 'grad_output'"),
    (lambda g, x: mishgrad.mish_backward(g, x, g, out=g),
     "mish_backward() got multiple values for argument 'out'"),
    (lambda g, x: mishgrad.mish_backward(g),
     "mish_backward() missing required argument 'x'"),
    (lambda g, x: mishgrad.mish_backward(x=x),
     "mish_backward() missing required argument 'grad_output'"),
    (lambda g, x: mishgrad.mish_backward(g, x, y=x),
     "mish_backward() got an unexpected keyword argument 'y'"),
    (lambda g, x: mishgrad.mish(x, x, x), "mish() takes at most 2 arguments (3 given)"),
    (lambda g, x: mishgrad.mish(x, x=x), "mish() got multiple values for argument 'x'"),
    (lambda g, x: mishgrad.mish(), "mish() missing required argument 'x'"),
    (lambda g, x: mishgrad.mish_(x, x), "mish_() takes at most 1 arguments (2 given)"),
    (lambda g, x: mishgrad.mish_(out=x), "mish_() got an unexpected keyword argument 'out'"),
    (lambda g, x: mishgrad.mish_(), "mish_() missing required argument 'x'"),
    (lambda g, x: _mishgrad._mish_backward(g, x, None, None),
     "mish_backward() takes at most 3 arguments (4 given)"),
])
def test_argument_errors_name_the_function_and_the_argument(call, text):
    g, x = f32(4), f32(4)
    before = refs(g, x)
    assert raised(TypeError, lambda: call(g, x)) == text
    assert refs(g, x) == before


def test_keywords_in_any_order_and_out_none():
    g, x = f32(8, 0.5, 2.0), f32(8)
    y1 = mishgrad.mish_backward(x=x, grad_output=g)
    y2 = mishgrad.mish_backward(g, x=x, out=None)
    y3 = mishgrad.mish_backward(g, x, None)
    for y in (y1, y2, y3):
        check_backward(y, g, x, "float32")
    out = np.full(8, 3.0, np.float32)
    assert mishgrad.mish_backward(out=out, x=x, grad_output=g) is out
    check_backward(out, g, x, "float32")
    if _mishgrad.HAVE_FORWARD:
        check_forward(mishgrad.mish(x=x, out=None), x, "float32")
        z = x.copy()
        assert mishgrad.mish_(x=z) is z
        check_forward(z, x, "float32")


# ---- operands the package refuses itself -----------------------------------------------------

def test_not_an_array():
    g = f32(4)
    with pytest.raises(TypeError) as e:
        mishgrad.mish_backward(g, [1.0, 2.0, 3.0, 4.0])
    assert str(e.value) == "mishgrad: x must be a numpy.ndarray or a torch.Tensor on the CPU, not list"
    with pytest.raises(TypeError) as e:
        mishgrad.mish_backward(g, g, out=np.float32(1.0))
    assert str(e.value) == "mishgrad: out must be a numpy.ndarray or a torch.Tensor on the CPU, not numpy.float32"
    if _mishgrad.HAVE_FORWARD:
        with pytest.raises(TypeError) as e:
            mishgrad.mish_(np.float32(1.0))
        assert str(e.value) == "mishgrad: x must be a numpy.ndarray or a torch.Tensor on the CPU, not numpy.float32"


@pytest.mark.parametrize("tp_name", ["Proxy", "Attribute"])
def test_an_fx_proxy_is_refused_in_the_package_s_words(tp_name):
    proxy = type(tp_name, (), {})()
    with pytest.raises(TypeError) as e:
        mishgrad.mish_backward(f32(4), proxy)
    assert str(e.value) == (
        "mishgrad: x is a %s: torch.fx symbolic tracing is not supported (the library runs on a tensor's "
        "memory); trace with torch.nn.functional.mish, or make the module calling mishgrad a leaf of the "
        "fx.Tracer" % tp_name)
    other = type("Proxyish", (), {})()
    with pytest.raises(TypeError, match="must be a numpy.ndarray or a torch.Tensor"):
        mishgrad.mish_backward(f32(4), other)


def test_a_numpy_scalar_is_an_input():
    y = mishgrad.mish_backward(np.float32(0.75), np.float32(-1.5))
    check_backward(np.asarray(y), np.float32(0.75), np.float32(-1.5), "float32")
    if _mishgrad.HAVE_FORWARD:
        check_forward(np.asarray(mishgrad.mish(np.float16(2.5))), np.float16(2.5), "float16")


def test_a_byte_swapped_array():
    x = np.ones(4, ">f4")
    with pytest.raises(TypeError) as e:
        mishgrad.mish_backward(f32(4), x)
    assert str(e.value) == "mishgrad: x is byte-swapped (format '>f'); use a native-order array"
    with pytest.raises(TypeError) as e:
        mishgrad.mish_backward(np.ones(4, ">f2"), f32(4))
    assert str(e.value) == "mishgrad: grad_output is byte-swapped (format '>e'); use a native-order array"
    # native order said explicitly is native
    x = np.linspace(-2, 2, 4).astype("<f4")
    check_backward(mishgrad.mish_backward(f32(4), x), f32(4), x, "float32")
    # ... also where NumPy spells it out in the buffer's format ('<f', '<e': a dtype made
    # little-endian with newbyteorder), on a little-endian machine
    if sys.byteorder == "little":
        for dt, name in ((np.float32, "float32"), (np.float16, "float16")):
            little = np.dtype(dt).newbyteorder("<")
            x = np.linspace(-2, 2, 5).astype(little)
            g = np.full(5, 0.5, little)
            assert memoryview(x).format == "<" + np.dtype(dt).char
            check_backward(mishgrad.mish_backward(g, x), g, x, name)


def test_a_stride_that_is_not_a_whole_item():
    raw = np.zeros(64, np.uint8)
    x = np.ndarray((3,), np.float32, buffer=raw, offset=0, strides=(6,))
    y = np.ndarray((2, 2), np.float32, buffer=raw, offset=0, strides=(16, 10))
    before = refs(raw, x, y)
    assert raised(ValueError, lambda: mishgrad.mish_backward(f32(3), x)) == (
        "mishgrad: x's stride 6 bytes along dimension 0 is not a multiple of its item size 4 "
        "(CANN's strides count elements)")
    text = raised(ValueError, lambda: mishgrad.mish_backward(f32(4).reshape(2, 2), f32(4).reshape(2, 2), out=y))
    assert text.startswith("mishgrad: out's stride 10 bytes along dimension 1 is not a multiple"), text
    assert refs(raw, x, y) == before
    assert (raw == 0).all()


def test_a_read_only_array_is_read_but_never_written():
    g, x = f32(6, 0.5, 1.5), f32(6)
    g.flags.writeable = False
    x.flags.writeable = False
    check_backward(mishgrad.mish_backward(g, x), g, x, "float32")
    before = refs(g, x)
    with pytest.raises(ValueError, match="read-only"):
        mishgrad.mish_backward(g, x, out=x)
    if _mishgrad.HAVE_FORWARD:
        with pytest.raises(ValueError, match="read-only"):
            mishgrad.mish_(x)
        with pytest.raises(ValueError, match="read-only"):
            mishgrad.mish(g, out=x)
    assert refs(g, x) == before
    assert (x == f32(6)).all()


@pytest.mark.parametrize("dtype, name", [
    ("i2", "INT16"), ("u2", "UINT16"), ("u4", "UINT32"), ("u8", "UINT64"), ("i8", "INT64"), ("i4", "INT32"),
    ("i1", "INT8"), ("u1", "UINT8"), ("?", "BOOL"), ("c8", "COMPLEX64"), ("c16", "COMPLEX128"),
    ("f8", "DOUBLE"), ("longlong", "INT64"), ("ulonglong", "UINT64"), ("intc", "INT32"), ("uintc", "UINT32"),
    ("longdouble", "not a known aclDataType")])
def test_each_numpy_dtype_reaches_the_library_by_its_cann_name(dtype, name):
    a = np.zeros(3, np.dtype(dtype))
    out = np.ones(3, np.dtype(dtype))
    with pytest.raises(mishgrad.AclnnError) as e:
        mishgrad.mish_backward(a, a, out=out)
    assert e.value.status == 161002 and e.value.api == "aclnnMishBackwardGetWorkspaceSize"
    assert "gradOutput has dtype %s " % name in str(e.value), str(e.value)
    assert (out == 1).all()


def test_float16_and_float32_run_as_themselves():
    for dt, name in ((np.float16, "float16"), (np.float32, "float32")):
        x = np.linspace(-5, 5, 33).astype(dt)
        g = np.linspace(2, -2, 33).astype(dt)
        y = mishgrad.mish_backward(g, x)
        assert y.dtype == dt
        check_backward(y, g, x, name)


class BaseRaises(np.ndarray):
    """An ndarray whose .base cannot be read: the package falls back to the array itself."""

    @property
    def base(self):
        raise RuntimeError("no base here")


def test_an_array_whose_base_cannot_be_read():
    x = f32(16).view(BaseRaises)
    g = f32(16, 1, 2).view(BaseRaises)
    y = mishgrad.mish_backward(g, x)
    check_backward(y, np.asarray(g), np.asarray(x), "float32")
    out = np.zeros(16, np.float32).view(BaseRaises)
    before = refs(x, g, out)
    mishgrad.mish_backward(g, x, out=out)
    check_backward(np.asarray(out), np.asarray(g), np.asarray(x), "float32")
    assert refs(x, g, out) == before


def test_a_base_that_is_not_an_array_ends_the_walk():
    """np.frombuffer's base is the bytes-like object: the array is its own storage."""
    raw = bytearray(np.linspace(-3, 3, 16, dtype=np.float32).tobytes())
    x = np.frombuffer(raw, np.float32)
    out_raw = bytearray(64)
    out = np.frombuffer(out_raw, np.float32)
    mishgrad.mish_backward(f32(16), x, out=out)
    check_backward(out, f32(16), x, "float32")
    sub = np.frombuffer(raw, np.float32, count=5, offset=20)  # elements 5..9 of the bytes
    y = mishgrad.mish_backward(f32(5), sub)
    check_backward(y, f32(5), np.linspace(-3, 3, 16, dtype=np.float32)[5:10], "float32")


def test_views_deep_in_a_chain_of_bases():
    base = np.linspace(-6, 6, 400, dtype=np.float32).reshape(20, 20)
    v = base[3:17][:, 2:18][::2][:, ::3].T  # a view of a view of ...
    assert v.base is not None
    g = np.ones_like(v)
    out_base = np.full((20, 20), 5.0, np.float32)
    out = out_base[2:8, 1:8]
    assert out.shape == v.shape
    before = refs(base, out_base)
    mishgrad.mish_backward(g, v, out=out)
    check_backward(out, g, v, "float32")
    mask = np.ones((20, 20), bool)
    mask[2:8, 1:8] = False
    assert (out_base[mask] == 5.0).all()
    assert refs(base, out_base) == before


# ---- no reference kept or lost, on success and on every refusal ------------------------------

def _refusals(g, x, out):
    bad64 = np.ones(4, np.float64)
    cases = [
        lambda: mishgrad.mish_backward(g, x, out=bad64),                # library refusal, out written
        lambda: mishgrad.mish_backward(bad64, x, out=out),              # library refusal, inputs
        lambda: mishgrad.mish_backward(g, [1, 2], out=out),             # package refusal: second input
        lambda: mishgrad.mish_backward(g, x, out=[0.0]),                # package refusal: out
        lambda: mishgrad.mish_backward(g, x, out=np.ones(4, ">f4")),    # byte-swapped out
        lambda: mishgrad.mish_backward(g, x[::-1], out=out),            # directions disagree: library
        lambda: mishgrad.mish_backward(g, x, out=out[:3]),              # shapes differ: library
        lambda: _mishgrad._c_loop("mish_backward", 1, g, x, [0.0]),      # _c_loop's third operand
        lambda: _mishgrad._c_loop("mish_backward", 1, g, [0.0], out),    # _c_loop's second operand
        lambda: _mishgrad._c_loop("mish_backward", 1, g, x, bad64),      # _c_loop: library refusal
    ]
    if _mishgrad.HAVE_FORWARD:
        cases += [
            lambda: mishgrad.mish(x, out=bad64),
            lambda: mishgrad.mish(x, out=[0.0]),
            lambda: mishgrad.mish_(bad64),
            lambda: mishgrad.mish_(np.ones(4, ">f4")),
            lambda: _mishgrad._c_loop("mish_", 1, bad64),
        ]
    return cases


def test_refusals_keep_no_reference_and_write_nothing():
    g, x = f32(4, 0.5, 1.5), f32(4)
    out = np.full(4, 9.0, np.float32)
    cases = _refusals(g, x, out)
    for case in cases:  # warm-up
        with pytest.raises((TypeError, ValueError, mishgrad.AclnnError)):
            case()
    gc.collect()
    before = refs(g, x, out)
    for _ in range(30):
        for case in cases:
            raised((TypeError, ValueError, mishgrad.AclnnError), case)
    gc.collect()
    assert refs(g, x, out) == before
    assert (out == 9.0).all() and (x == f32(4)).all()


def test_refusals_leave_nothing_allocated():
    import tracemalloc
    g, x = f32(4, 0.5, 1.5), f32(4)
    out = np.full(4, 9.0, np.float32)
    cases = _refusals(g, x, out)

    def many(n):
        for _ in range(n):
            for case in cases:
                try:
                    case()
                except (TypeError, ValueError, mishgrad.AclnnError):
                    pass
    many(20)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        many(200)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # 200 * len(cases) refusals: one object kept per refusal would be 100 KB or more
    assert grown < 40_000, "%d bytes kept over %d refusals" % (grown, 200 * len(cases))


def test_successes_keep_no_reference():
    g, x = f32(64, 0.5, 1.5), f32(64)
    out = np.zeros(64, np.float32)
    base = np.linspace(-2, 2, 256, dtype=np.float32)
    view = base[10:200:3]
    back = f32(64)[::-1]
    calls = [
        lambda: mishgrad.mish_backward(g, x, out=out),
        lambda: mishgrad.mish_backward(g, x),
        lambda: mishgrad.mish_backward(np.ones_like(view), view),
        lambda: mishgrad.mish_backward(back, back),
        lambda: mishgrad.mish_backward(np.float32(1.0), np.float32(2.0)),
        lambda: _mishgrad._c_loop("mish_backward", 2, g, x, out),
    ]
    if _mishgrad.HAVE_FORWARD:
        calls += [lambda: mishgrad.mish(x, out=out), lambda: mishgrad.mish_(out), lambda: mishgrad.mish(view),
                  lambda: _mishgrad._c_loop("mish", 1, x, out), lambda: _mishgrad._c_loop("mish_", 1, out)]
    for c in calls:
        c()
    gc.collect()
    objs = (g, x, out, base, view, back)
    before = refs(*objs)
    for _ in range(20):
        for c in calls:
            c()
    gc.collect()
    assert refs(*objs) == before
    # a result is its caller's only: nothing else holds it
    y = mishgrad.mish_backward(g, x)
    assert sys.getrefcount(y) == 2
    z = mishgrad.mish_backward(g, x, out=out)
    assert z is out


def test_the_c_loop_refuses_with_the_usual_words():
    g, x, out = f32(4), f32(4), np.zeros(4, np.float32)
    with pytest.raises(TypeError) as e:
        _mishgrad._c_loop("mish_backward", 1)
    assert str(e.value) == "_c_loop(op, reps, *arrays)"
    with pytest.raises(TypeError) as e:
        _mishgrad._c_loop("mish_backward", 1, g, x, [0.0])
    assert str(e.value) == "mishgrad: array must be a numpy.ndarray or a torch.Tensor on the CPU, not list"
    with pytest.raises(ValueError, match="read-only"):
        ro = f32(4)
        ro.flags.writeable = False
        _mishgrad._c_loop("mish_backward", 1, g, x, ro)
    with pytest.raises(TypeError):
        _mishgrad._c_loop(3, 1, g, x, out)
    with pytest.raises(TypeError):
        _mishgrad._c_loop("mish_backward", "one", g, x, out)
    with pytest.raises(mishgrad.AclnnError) as e:
        _mishgrad._c_loop("mish_backward", 1, g, x, np.zeros(4, np.float64))
    # the benchmark's loop gives the library's words alone (no float64 hint)
    assert e.value.status == 161002 and str(e.value) == (
        "aclnnMishBackwardGetWorkspaceSize: gradInput has dtype DOUBLE (value 11); supported: FLOAT, FLOAT16, "
        "BFLOAT16 [CANN status 161002 from aclnnMishBackwardGetWorkspaceSize]")
    # zero repetitions: nothing run, nothing written, no time
    out[:] = 5.0
    assert _mishgrad._c_loop("mish_backward", 0, g, x, out) < 1.0
    assert (out == 5.0).all()


# ---- the error object --------------------------------------------------------------------

class NoAttributes(Exception):
    """An error class whose instances take no new attributes (the package's takes .status)."""
    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError("read-only error: " + name)


class StatusOnly(Exception):
    def __setattr__(self, name, value):
        if name == "api":
            raise AttributeError("no api here")
        super().__setattr__(name, value)


class Unbuildable(Exception):
    def __init__(self, *args):
        raise LookupError("cannot build the error")


@pytest.fixture
def rebind():
    """Binds another error class; the package's own bindings are restored after."""
    def bind(error):
        _mishgrad._bind(error, np.ndarray, np.generic, np.empty_like, None, None, {}, "untyped_storage")
    try:
        yield bind
    finally:
        mishgrad._bind()
        torch_mod = sys.modules.get("mishgrad.torch")
        if torch_mod is not None:
            _mishgrad._set_torch_hooks(torch_mod._mish_call, torch_mod._inplace_mish_call,
                                       torch_mod._mish_backward_call, torch_mod._grad_mode_for_the_extension,
                                       torch_mod._torch.strided, torch_mod._increment_version)


def test_the_error_carries_status_api_and_the_library_s_text(rebind):
    class Plain(Exception):
        pass
    rebind(Plain)
    bad = np.ones(3, np.float64)
    with pytest.raises(Plain) as e:
        mishgrad.mish_backward(bad, bad)
    assert e.value.status == 161002 and e.value.api == "aclnnMishBackwardGetWorkspaceSize"
    assert e.value.args[0].startswith("aclnnMishBackwardGetWorkspaceSize: gradOutput has dtype DOUBLE (value 11)")
    assert e.value.args[0].endswith(
        " (mishgrad takes float32, float16 and, for torch, bfloat16: convert float64 data to float32; for "
        "float64 itself, torch.autograd.gradcheck say, use torch.nn.functional.mish)")
    assert type(e.value.status) is int and len(e.value.args) == 1


HINT = (" (mishgrad takes float32, float16 and, for torch, bfloat16: convert float64 data to float32; for "
        "float64 itself, torch.autograd.gradcheck say, use torch.nn.functional.mish)")


@pytest.mark.parametrize("which", [0, 1, 2])
def test_the_float64_hint_for_any_one_operand(which):
    """Whichever operand is float64 (the first, the second, out=), the refusal says what to
    do; with no float64 operand it does not."""
    arrays = [f32(4, 0.5, 1.5), f32(4), np.zeros(4, np.float32)]
    arrays[which] = arrays[which].astype(np.float64)
    text = raised(mishgrad.AclnnError, lambda: mishgrad.mish_backward(arrays[0], arrays[1], out=arrays[2]))
    assert text.endswith(HINT + " [CANN status 161002 from aclnnMishBackwardGetWorkspaceSize]"), text
    text = raised(mishgrad.AclnnError, lambda: mishgrad.mish_backward(f32(4), np.zeros(4, np.int32)))
    assert "float64" not in text, text
    if _mishgrad.HAVE_FORWARD:
        x = [f32(4), np.zeros(4, np.float32)]
        x[which % 2] = x[which % 2].astype(np.float64)
        text = raised(mishgrad.AclnnError, lambda: mishgrad.mish(x[0], out=x[1]))
        assert text.endswith(HINT + " [CANN status 161002 from aclnnMishGetWorkspaceSize]"), text


@pytest.mark.parametrize("error, raised, text", [
    (NoAttributes, AttributeError, "read-only error: status"),
    (StatusOnly, AttributeError, "no api here"),
    (Unbuildable, LookupError, "cannot build the error"),
])
def test_an_error_class_that_cannot_be_filled_in_propagates_its_own_error(rebind, error, raised, text):
    rebind(error)
    bad = np.ones(3, np.float64)
    before = refs(bad)
    for _ in range(20):
        with pytest.raises(raised) as e:
            mishgrad.mish_backward(bad, bad)
        assert str(e.value).strip("'") == text
        del e
    assert refs(bad) == before


def test_a_failing_empty_like_propagates(rebind):
    def empty_like(a):
        raise MemoryError("no room for the result")
    _mishgrad._bind(mishgrad.AclnnError, np.ndarray, np.generic, empty_like, None, None, {}, "untyped_storage")
    g, x = f32(4), f32(4)
    before = refs(g, x)
    with pytest.raises(MemoryError, match="no room for the result"):
        mishgrad.mish_backward(g, x)
    with pytest.raises(MemoryError, match="no room for the result"):
        mishgrad.mish_backward(g[::-1], x[::-1])
    assert refs(g, x) == before


def test_an_empty_like_that_returns_no_array(rebind):
    _mishgrad._bind(mishgrad.AclnnError, np.ndarray, np.generic, lambda a: "not an array", None, None, {},
                    "untyped_storage")
    g, x = f32(4), f32(4)
    with pytest.raises(TypeError) as e:
        mishgrad.mish_backward(g, x)
    assert str(e.value) == "mishgrad: out must be a numpy.ndarray or a torch.Tensor on the CPU, not str"


# ---- backwards inputs: the new result runs backwards with them ------------------------------

def test_a_new_result_runs_backwards_where_its_input_does():
    base = np.linspace(-4, 4, 60, dtype=np.float32).reshape(3, 4, 5)
    x = base[::-1, :, ::-1]
    g = np.ones_like(base)[::-1, :, ::-1]
    y = mishgrad.mish_backward(g, x)
    assert y.strides[0] < 0 and y.strides[1] > 0 and y.strides[2] < 0
    check_backward(y, g, x, "float32")
    # an axis of size one is no direction: not reversed
    x1 = base[:1][::-1]
    y1 = mishgrad.mish_backward(np.ones_like(x1), x1)
    assert all(s >= 0 for s in y1.strides)
    check_backward(y1, np.ones_like(x1), x1, "float32")
    assert y.base is not None and y.base.flags.c_contiguous
    # a size-one axis running "backwards" next to a reversed one: only the reversed one is
    # reversed in the new result
    x2 = base[:1, ::-1][::-1]
    assert x2.strides[0] < 0 and x2.strides[1] < 0
    g2 = np.full_like(base, 0.5)[:1, ::-1][::-1]
    y2 = mishgrad.mish_backward(g2, x2)
    assert y2.strides[0] > 0 and y2.strides[1] < 0 and y2.strides[2] > 0
    check_backward(y2, g2, x2, "float32")


def test_new_backwards_results_keep_no_step_references():
    """A backwards result is indexed with slices whose steps are the ints -1 and 1: none of
    those references may stay (400 calls on four reversed axes would add 1600 to -1's count;
    on a Python whose small ints are immortal the count does not move at all)."""
    base = np.linspace(-4, 4, 16, dtype=np.float32).reshape(2, 2, 2, 2)
    x = base[::-1, ::-1, ::-1, ::-1]
    g = np.ones_like(base)[::-1, ::-1, ::-1, ::-1]
    mishgrad.mish_backward(g, x)
    gc.collect()
    before = sys.getrefcount(-1)
    for _ in range(400):
        mishgrad.mish_backward(g, x)
    gc.collect()
    assert abs(sys.getrefcount(-1) - before) < 200


# ---- session: start, refusal to start, finalize, fork ----------------------------------------

def test_a_runtime_that_cannot_start_says_why_each_time():
    report = run_child("""
        import json
        import numpy as np
        import mishgrad
        seen = []
        for call in (lambda: mishgrad.mish_backward(np.ones(2, np.float32), np.ones(2, np.float32)),
                     mishgrad.zero_copy, mishgrad.zero_copy):
            try:
                call()
                seen.append("no error")
            except mishgrad.AclnnError as e:
                seen.append([e.status, e.api, e.args[0]])
        mishgrad.release_registrations()
        print(json.dumps({"seen": seen, "live": mishgrad._mishgrad._live_registrations()}))
    """, {"MISHGRAD_SOC_VERSION": "NoSuchChip"})
    text = ('MISHGRAD_SOC_VERSION="NoSuchChip" names no known SoC; use cpu, Ascend910, Ascend910B1..Ascend910B4, '
            'Ascend910_93, Ascend950PR, Ascend310P3 or Ascend310B1')
    assert report["seen"] == [[100000, "aclInit", text]] * 3
    assert report["live"] == 0


def test_a_runtime_the_caller_initialized_first_is_used():
    """aclInit already called by the program (its own CANN code): the repeat is not an error."""
    report = run_child("""
        import ctypes, json, os
        import numpy as np
        import mishgrad
        lib = ctypes.CDLL(os.path.join(os.path.dirname(mishgrad.__file__), "libascendcl.so.1"))
        first = lib.aclInit(None)
        x = np.linspace(-3, 3, 9, dtype=np.float32)
        y = mishgrad.mish_backward(np.ones(9, np.float32), x)
        print(json.dumps({"first": first, "y": y.tolist(), "zero_copy": mishgrad.zero_copy()}))
    """)
    assert report["first"] == 0
    x = np.linspace(-3, 3, 9, dtype=np.float32)
    check_backward(np.array(report["y"], np.float32), np.ones(9, np.float32), x, "float32")


def test_zero_copy_as_a_program_s_first_call_knows_the_route():
    """zero_copy() before any operator call starts the runtime and decides the route: it
    answers what it answers after a call (and False when the staging route is forced)."""
    first = run_child("""
        import json
        import numpy as np
        import mishgrad
        first = mishgrad.zero_copy()
        mishgrad.mish_backward(np.ones(4, np.float32), np.ones(4, np.float32))
        print(json.dumps({"first": first, "after_a_call": mishgrad.zero_copy()}))
    """)
    assert first["first"] == first["after_a_call"]
    # The bundled runtime (device 0 is the CPU) takes host registrations of any product
    # profile, so the probe must find the zero-copy route; a probe that forgot its answer
    # would stage every buffer and silently skip the zero-copy tests above.
    assert first == {"first": True, "after_a_call": True}
    forced = run_child("""
        import json
        import mishgrad
        print(json.dumps({"first": mishgrad.zero_copy()}))
    """, {"MISHGRAD_PY_ROUTE": "staging"})
    assert forced == {"first": False}


def test_this_tree_s_build_binds_the_forward_operators():
    """This tree's library declares aclnnMish (include/aclnnop/aclnn_mish.h), so the extension
    is built with the forward operators and must say so: HAVE_FORWARD decides the forward
    branches of many tests (`if _mishgrad.HAVE_FORWARD:`), and a 0 here would quietly drop
    them (conftest's needs_forward runs the forward tests regardless in this tree)."""
    from conftest import TREE_HAS_FORWARD
    assert TREE_HAS_FORWARD
    assert _mishgrad.HAVE_FORWARD == 1
    assert hasattr(mishgrad, "mish") and hasattr(mishgrad, "mish_")


def test_after_shutdown_every_call_says_the_runtime_was_finalized():
    report = run_child("""
        import json
        import numpy as np
        import mishgrad
        from mishgrad import _mishgrad
        x = np.linspace(-3, 3, 8, dtype=np.float32)
        mishgrad.mish_backward(x, x)
        _mishgrad._shutdown()
        _mishgrad._shutdown()  # twice: nothing more
        mishgrad.release_registrations()  # nothing to release: no error
        seen = []
        out = np.full(8, 4.0, np.float32)
        for call in (lambda: mishgrad.mish_backward(x, x, out=out), mishgrad.zero_copy,
                     lambda: _mishgrad._c_loop("mish_backward", 1, x, x, out)):
            try:
                call()
                seen.append("no error")
            except mishgrad.AclnnError as e:
                seen.append([e.status, e.api, e.args[0]])
        print(json.dumps({"seen": seen, "out": out.tolist(), "live": _mishgrad._live_registrations()}))
    """)
    assert report["seen"] == [[100001, "mishgrad", "mishgrad: the runtime was finalized at interpreter exit"]] * 3
    assert report["out"] == [4.0] * 8 and report["live"] == 0


def test_a_forked_child_is_told_to_use_spawn():
    report = run_child("""
        import json, os
        import numpy as np
        import mishgrad
        x = np.linspace(-3, 3, 8, dtype=np.float32)
        mishgrad.mish_backward(x, x)  # the runtime runs in the parent
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            seen = []
            out = np.full(8, 4.0, np.float32)
            for call in (lambda: mishgrad.mish_backward(x, x, out=out), mishgrad.zero_copy):
                try:
                    call()
                    seen.append("no error")
                except mishgrad.AclnnError as e:
                    seen.append([e.status, e.api, e.args[0]])
            mishgrad.release_registrations()  # the parent's: not touched, no error
            mishgrad._mishgrad._shutdown()    # nor finalized from the child
            os.write(w, json.dumps({"seen": seen, "out": out.tolist()}).encode())
            os._exit(0)
        os.close(w)
        child = json.loads(os.read(r, 65536).decode())
        os.waitpid(pid, 0)
        y = mishgrad.mish_backward(x, x)  # the parent still works
        child["parent"] = y.tolist()
        print(json.dumps(child))
    """)
    text = ("mishgrad: the runtime was started in the parent process; a forked child cannot use it (start "
            "children with the 'spawn' method)")
    assert report["seen"] == [[100001, "mishgrad", text]] * 2
    assert report["out"] == [4.0] * 8
    x = np.linspace(-3, 3, 8, dtype=np.float32)
    check_backward(np.array(report["parent"], np.float32), x, x, "float32")


# ---- the zero-copy route's registrations ------------------------------------------------------

def zero_copy_only(test):
    """The tests below need the zero-copy route. They assert it instead of skipping without
    it: the bundled runtime takes every host registration, so the route is zero-copy here,
    and a skip hid a probe that forgot its answer (seed 40's mg_hostmem.c:426)."""
    @functools.wraps(test)
    def run(*args, **kwargs):
        assert mishgrad.zero_copy(), "the bundled runtime's default route must be zero-copy"
        return test(*args, **kwargs)
    return run


def _pages(n):
    """n pages of our own, page aligned, with an array over them (its own storage)."""
    m = mmap.mmap(-1, n * mmap.PAGESIZE)
    return m, np.frombuffer(m, np.float32)


@zero_copy_only
def test_a_registration_the_runtime_refuses_fails_the_call_and_holds_nothing():
    """Pages the program registered itself (its own CANN code): the package's registration
    of an array on them is refused by the runtime; the call raises that, and the other
    operand's registration, made first, is let go (the next call takes it again)."""
    lib = acl_library()
    m, whole = _pages(2)
    page = ctypes.addressof(ctypes.c_char.from_buffer(m))
    dev = ctypes.c_void_p()
    assert lib.aclrtHostRegister(page, mmap.PAGESIZE, 0, ctypes.byref(dev)) == 0
    try:
        x = whole[:16]
        x[:] = np.linspace(-2, 2, 16, dtype=np.float32)
        g = np.linspace(0.5, 1.5, 16, dtype=np.float32)
        out = np.full(16, 6.0, np.float32)
        for k in range(4):
            if k % 2:
                # the refused one first, with every registration slot free: the runtime's
                # words, whichever slot the registration was to take
                mishgrad.release_registrations()
            with pytest.raises(mishgrad.AclnnError) as e:
                if k % 2:
                    mishgrad.mish_backward(x, g, out=out)
                else:
                    mishgrad.mish_backward(g, x, out=out)
            assert e.value.status == 507910 and e.value.api == "aclrtHostRegister"
            text = e.value.args[0]
            assert text.startswith("aclrtHostRegister of %d bytes at " % (2 * mmap.PAGESIZE)), text
            assert "failed: aclrtHostRegister: [" in text and "overlaps the registered range" in text, text
            assert _mishgrad._live_registrations() == 0
            assert (out == 6.0).all()
        # the runtime's message was the call's: nothing of it is left for the next one
        assert lib.aclGetRecentErrMsg() in (None, b"")
        y = mishgrad.mish_backward(g, g)
        check_backward(y, g, g, "float32")
    finally:
        assert lib.aclrtHostUnregister(page) == 0
        del x, whole
    y = mishgrad.mish_backward(g, whole_copy := np.linspace(-2, 2, 16, dtype=np.float32))
    check_backward(y, g, whole_copy, "float32")


@zero_copy_only
def test_an_idle_registration_is_kept_until_released():
    """After a call its registration stays (idle, for the next call on the same pages):
    the runtime refuses the program's own registration of those pages (507910) until
    release_registrations() unregisters it; then the program's own succeeds."""
    lib = acl_library()
    m, whole = _pages(2)
    whole[:] = np.linspace(-3, 3, whole.size, dtype=np.float32)
    page = ctypes.addressof(ctypes.c_char.from_buffer(m))
    y = mishgrad.mish_backward(np.ones_like(whole), whole)
    check_backward(y, np.ones_like(whole), whole, "float32")
    assert _mishgrad._live_registrations() == 0  # idle: no call in flight
    dev = ctypes.c_void_p()
    assert lib.aclrtHostRegister(page, mmap.PAGESIZE, 0, ctypes.byref(dev)) == 507910
    lib.aclGetRecentErrMsg()
    mishgrad.release_registrations()
    assert lib.aclrtHostRegister(page, mmap.PAGESIZE, 0, ctypes.byref(dev)) == 0
    assert lib.aclrtHostUnregister(page) == 0
    del whole


@zero_copy_only
def test_release_from_a_thread_with_no_context_unregisters():
    """release_registrations() from a thread that made no call (no CANN context of its own):
    the package sets the session's context first, so the idle registrations really go --
    the worker that made the call can then register those pages itself."""
    report = run_child("""
        import ctypes, json, mmap, os, threading
        import numpy as np
        import mishgrad
        lib = ctypes.CDLL(os.path.join(os.path.dirname(mishgrad.__file__), "libascendcl.so.1"))
        lib.aclrtHostRegister.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_int,
                                          ctypes.POINTER(ctypes.c_void_p)]
        lib.aclrtHostUnregister.argtypes = [ctypes.c_void_p]
        m = mmap.mmap(-1, 2 * mmap.PAGESIZE)
        a = np.frombuffer(m, np.float32)
        a[:] = np.linspace(-2, 2, a.size, dtype=np.float32)
        page = ctypes.addressof(ctypes.c_char.from_buffer(m))
        called, released, res = threading.Event(), threading.Event(), {}
        def worker():
            y = mishgrad.mish_backward(np.ones_like(a), a)  # registers a's pages, idle after
            res["y_ok"] = bool(np.isfinite(y).all())
            dev = ctypes.c_void_p()
            res["before"] = lib.aclrtHostRegister(page, mmap.PAGESIZE, 0, ctypes.byref(dev))
            called.set()
            released.wait()
            res["after"] = lib.aclrtHostRegister(page, mmap.PAGESIZE, 0, ctypes.byref(dev))
            if res["after"] == 0:
                lib.aclrtHostUnregister(page)
        t = threading.Thread(target=worker)
        t.start()
        called.wait()
        mishgrad.release_registrations()  # the main thread: no call made, no context
        released.set()
        t.join()
        print(json.dumps(res))
    """)
    assert report == {"y_ok": True, "before": 507910, "after": 0}


@zero_copy_only
def test_ranges_that_meet_once_grown_are_one_registration():
    """Three operands on one mapping: grad_output's page and x's page apart, out's pages
    between and over both. The three ranges merge into one registration (the runtime takes
    no overlapping ones), and the call computes what it should."""
    _mishgrad.release_registrations()
    page = mmap.PAGESIZE // 4  # floats per page
    m, whole = _pages(4)
    whole[:] = np.linspace(-5, 5, whole.size, dtype=np.float32)
    g = np.frombuffer(m, np.float32, count=page // 2, offset=0)                     # page 0, first half
    x = np.frombuffer(m, np.float32, count=page // 2, offset=(3 * page + page // 2) * 4)  # page 3, second half
    out = np.frombuffer(m, np.float32, count=page // 2, offset=(page + page // 4) * 4)    # page 1
    out_wide = np.ndarray((2,), np.float32, buffer=m, offset=(page // 2) * 4, strides=((3 * page - 1) * 4,))
    # out_wide: one element in page 0's second half, one in page 3's first half: spans pages 0..3
    gs, xs = g.copy(), x.copy()
    mishgrad.mish_backward(g, x, out=out)
    check_backward(out, gs, xs, "float32")
    g2, x2 = gs[:2].copy(), xs[:2].copy()
    gv = np.frombuffer(m, np.float32, count=2, offset=0)
    xv = np.frombuffer(m, np.float32, count=2, offset=(3 * page + page // 2) * 4)
    _mishgrad.release_registrations()
    mishgrad.mish_backward(gv, xv, out=out_wide)
    check_backward(out_wide, g2, x2, "float32")
    assert (gv == g2).all() and (xv == x2).all()
    del g, x, out, out_wide, gv, xv, whole


@zero_copy_only
def test_an_idle_registration_partly_over_a_new_range_is_replaced():
    """An idle registration that holds one of a call's ranges but overlaps another of its
    ranges is dropped and both are registered anew (else the second registration would be
    refused as overlapping)."""
    _mishgrad.release_registrations()
    page = mmap.PAGESIZE // 4
    m, whole = _pages(3)
    whole[:] = np.linspace(-5, 5, whole.size, dtype=np.float32)
    first_two = np.frombuffer(m, np.float32, count=2 * page, offset=0)  # pages 0-1
    y = mishgrad.mish_backward(np.ones_like(first_two), first_two)      # registered, then idle
    check_backward(y, np.ones_like(first_two), first_two, "float32")
    g = np.frombuffer(m, np.float32, count=page, offset=0)               # page 0: inside the idle one
    x = np.frombuffer(m, np.float32, count=2 * page, offset=page * 4)    # pages 1-2: overlaps it
    gs = g.copy()
    xs = x[:page].copy()
    out = np.zeros(page, np.float32)
    mishgrad.mish_backward(g, x[:page], out=out)
    # x[:page] is a view of x: its storage is x's (pages 1-2)
    check_backward(out, gs, xs, "float32")
    del first_two, g, x, whole, y


# ---- the staging route (the Atlas products'), in a child ------------------------------------

STAGING_CHILD = """
import json
import numpy as np
import mishgrad
from mishgrad import _mishgrad
res = {"zero_copy": mishgrad.zero_copy()}
x = np.linspace(-4, 4, 40, dtype=np.float32)
g = np.linspace(0.5, 1.5, 40, dtype=np.float32)
# one span for two operands: mish_backward(x, x) and out=x
a = x.copy()
res["same_inputs"] = mishgrad.mish_backward(a, a).tolist()
b = x.copy()
mishgrad.mish_backward(g, b, out=b)
res["out_is_input"] = b.tolist()
# two views of one buffer with disjoint extents: one block, each extent copied in
buf = np.empty(80, np.float32)
buf[0::2] = g
buf[1::2] = x
res["interleaved"] = mishgrad.mish_backward(buf[0::2], buf[1::2]).tolist()
# out a third view of that buffer, over the inputs' bytes' holes
big = np.zeros(120, np.float32)
big[0::3] = g
big[1::3] = x
big[2::3] = 99.0
mishgrad.mish_backward(big[0::3], big[1::3], out=big[2::3])
res["interleaved_out"] = big.tolist()
if _mishgrad.HAVE_FORWARD:
    c = x.copy()
    mishgrad.mish(c, out=c)
    res["mish_out_is_input"] = c.tolist()
    d = x.copy()[::-1]
    mishgrad.mish_(d)
    res["mish_backwards_in_place"] = d[::-1].tolist()
    e = np.full(90, 7.0, np.float32)
    e[10:50] = x
    mishgrad.mish_(e[10:50])
    res["mish_in_place_window"] = e.tolist()
# two arrays over the same bytes from the same first byte, one longer: two blocks (the
# shorter one's block cannot hold the longer one's extent)
raw = bytearray(np.linspace(-4, 4, 16, dtype=np.float32).tobytes())
short = np.frombuffer(raw, np.float32, count=8)
long_tail = np.frombuffer(raw, np.float32, count=16)[8:]
res["same_start"] = mishgrad.mish_backward(short, long_tail).tolist()
# one element, and none
one = np.full(9, 3.0, np.float32)
mishgrad.mish_backward(np.float32(1.0), np.float32(-1.25), out=one[4:5].reshape(()))
res["one"] = one.tolist()
res["none"] = mishgrad.mish_backward(np.zeros(0, np.float32), np.zeros(0, np.float32)).tolist()
# a block the runtime cannot allocate: refused with the runtime's words, nothing staged after,
# the first operand's block freed, nothing written
from numpy.lib.stride_tricks import as_strided
huge = as_strided(np.zeros(2, np.float32), shape=(2,), strides=(1 << 45,))
small = np.full(2, 5.0, np.float32)
out2 = np.full(2, 8.0, np.float32)
try:
    mishgrad.mish_backward(small, huge, out=out2)
    res["huge"] = "no error"
except mishgrad.AclnnError as err:
    res["huge"] = [err.status, err.api, err.args[0]]
res["huge_out"] = out2.tolist()
res["live"] = _mishgrad._live_registrations()
# and the next call runs
res["after"] = mishgrad.mish_backward(g, x).tolist()
res["live_after"] = _mishgrad._live_registrations()
print(json.dumps(res))
"""


def test_the_staging_route_s_shared_blocks_one_element_and_a_failed_allocation():
    r = run_child(STAGING_CHILD, {"MISHGRAD_PY_ROUTE": "staging"})
    assert r["zero_copy"] is False
    x = np.linspace(-4, 4, 40, dtype=np.float32)
    g = np.linspace(0.5, 1.5, 40, dtype=np.float32)
    check_backward(np.array(r["same_inputs"], np.float32), x, x, "float32")
    check_backward(np.array(r["out_is_input"], np.float32), g, x, "float32")
    check_backward(np.array(r["interleaved"], np.float32), g, x, "float32")
    big = np.array(r["interleaved_out"], np.float32)
    assert (big[0::3] == g).all() and (big[1::3] == x).all()
    check_backward(big[2::3], g, x, "float32")
    if _mishgrad.HAVE_FORWARD:
        check_forward(np.array(r["mish_out_is_input"], np.float32), x, "float32")
        check_forward(np.array(r["mish_backwards_in_place"], np.float32), x, "float32")
        e = np.array(r["mish_in_place_window"], np.float32)
        assert (e[:10] == 7.0).all() and (e[50:] == 7.0).all()
        check_forward(e[10:50], x, "float32")
    v = np.linspace(-4, 4, 16, dtype=np.float32)
    check_backward(np.array(r["same_start"], np.float32), v[:8], v[8:], "float32")
    one = np.array(r["one"], np.float32)
    assert (np.delete(one, 4) == 3.0).all()
    check_backward(one[4:5], np.float32(1.0), np.float32(-1.25), "float32")
    assert r["none"] == []
    status, api, text = r["huge"]
    assert status == 207001 and api == "aclrtMalloc", r["huge"]
    assert text.startswith("staging %d bytes in device memory failed: aclrtMalloc: cannot allocate %d bytes"
                           % ((1 << 45) + 4, (1 << 45) + 4)), text
    assert r["huge_out"] == [8.0, 8.0]
    assert r["live"] == 0 and r["live_after"] == 0
    check_backward(np.array(r["after"], np.float32), g, x, "float32")


def test_c_loop_takes_arrays_that_run_backwards():
    """_c_loop (the benchmark's C call) rebases negative strides as every entry does: all
    three operands reversed, the output holds the gradient (seed 41, _mishgrad.c:680: the
    rebase deleted, CANN's refusal of negative strides came back instead)."""
    x = np.linspace(-3, 3, 17).astype(np.float32)
    g = np.linspace(0.5, 2, 17).astype(np.float32)
    out = np.zeros(17, np.float32)
    seconds = _mishgrad._c_loop("mish_backward", 1, g[::-1], x[::-1], out[::-1])
    assert seconds >= 0
    check_backward(out, g, x, "float32")


@pytest.mark.parametrize("route", ["zero_copy", "staging"])
def test_c_loop_writes_its_output_on_both_routes(route):
    """_c_loop's results reach the caller's array on both memory routes: on the staging route
    only the copy back after a successful run puts them there (seed 142, _mishgrad.c: _c_loop
    finishing its call as failed, so nothing was copied back and `out` kept its old values).
    A child per route (MISHGRAD_PY_ROUTE is read once, at the first call)."""
    report = run_child("""
        import json
        import numpy as np
        import mishgrad
        from mishgrad import _mishgrad
        x = np.linspace(-5, 5, 1000).astype(np.float32)
        g = np.linspace(0.25, 3, 1000).astype(np.float32)
        out = np.full(1000, 7.0, np.float32)
        seconds = _mishgrad._c_loop("mish_backward", 3, g, x, out)
        print(json.dumps({"zero_copy": bool(mishgrad.zero_copy()), "seconds": seconds,
                          "out": out.tolist()}), flush=True)
    """, {"MISHGRAD_PY_ROUTE": "staging"} if route == "staging" else None)
    assert report["zero_copy"] is (route == "zero_copy")
    assert report["seconds"] >= 0
    x = np.linspace(-5, 5, 1000).astype(np.float32)
    g = np.linspace(0.25, 3, 1000).astype(np.float32)
    check_backward(np.array(report["out"], np.float32), g, x, "float32")

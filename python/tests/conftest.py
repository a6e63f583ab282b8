"""Shared references and helpers for the mishgrad tests.

References are computed in float64 from the inputs as the operator sees them (16-bit
inputs widened exactly). Tolerances follow docs/accuracy.md's measure: for the gradient,
err = |y - exact| / (eps * |g| * (|T1| + |T2|)) stays meaningful at mish's root near
x = -1.19, where a plain relative error does not."""
import ctypes
import os
import threading

import numpy as np
import pytest

import mishgrad

# eps of each dtype: 2^-(mantissa bits)
EPS = {"float32": 2.0 ** -23, "float16": 2.0 ** -10, "bfloat16": 2.0 ** -7}
TINY = {"float32": 2.0 ** -149, "float16": 2.0 ** -24, "bfloat16": 2.0 ** -133}

# The package binds aclnnMish / aclnnInplaceMish when the library declares them
# (python/CMakeLists.txt: include/aclnnop/aclnn_mish.h exists). This tree's library does, so
# here the forward tests run whatever HAVE_FORWARD says: an extension that wrongly reported
# no forward operators must fail them, not skip them (test_csrc_paths.py asserts the flag).
# Only a build against a library without the header skips them.
TREE_HAS_FORWARD = os.path.exists(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "include", "aclnnop", "aclnn_mish.h"))
needs_forward = pytest.mark.skipif(
    not TREE_HAS_FORWARD and not mishgrad._mishgrad.HAVE_FORWARD,
    reason="this build's library has no aclnnMish / aclnnInplaceMish")


def softplus64(x):
    return np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))


def mish64(x):
    x = np.asarray(x, np.float64)
    return x * np.tanh(softplus64(x))


def mish_grad_terms64(g, x):
    """The two terms of mish'(x) * g: T1 = g*t, T2 = g*x*(1-t^2)*sigmoid(x)."""
    g = np.asarray(g, np.float64)
    x = np.asarray(x, np.float64)
    t = np.tanh(softplus64(x))
    sig = 0.5 * (1.0 + np.tanh(0.5 * x))
    return g * t, g * x * (1.0 - t * t) * sig


def mish_backward64(g, x):
    t1, t2 = mish_grad_terms64(g, x)
    return t1 + t2


def check_backward(y, g, x, dtype_name, ulps=3.0):
    """y (any float dtype) against the float64 gradient of (g, x)."""
    y = np.asarray(y, np.float64)
    t1, t2 = mish_grad_terms64(g, x)
    exact = t1 + t2
    eps = EPS[dtype_name]
    # 16-bit results are rounded once to their own precision: half an ulp of the result
    # plus the float32 evaluation's error.
    bound = ulps * eps * (np.abs(t1) + np.abs(t2)) + 2 * eps * np.abs(exact) + TINY[dtype_name]
    bad = np.abs(y - exact) > bound
    assert not bad.any(), (
        f"{bad.sum()} of {bad.size} {dtype_name} gradients off; first at x={np.asarray(x, np.float64)[bad][0]}, "
        f"g={np.asarray(g, np.float64)[bad][0]}: got {y[bad][0]!r}, exact {exact[bad][0]!r}")


def check_forward(y, x, dtype_name, ulps=4.0):
    y = np.asarray(y, np.float64)
    exact = mish64(x)
    eps = EPS[dtype_name]
    bound = ulps * eps * np.abs(exact) + TINY[dtype_name]
    if dtype_name != "float32":
        bound = bound + 0.5 * eps * np.abs(exact)
    bad = np.abs(y - exact) > bound
    assert not bad.any(), (
        f"{bad.sum()} of {bad.size} {dtype_name} mish values off; first at x={np.asarray(x, np.float64)[bad][0]}: "
        f"got {y[bad][0]!r}, exact {exact[bad][0]!r}")


def sample(rng, shape, scale=4.0):
    """Values spread over mish's interesting range, with its special points mixed in."""
    v = np.asarray(rng.standard_normal(shape) * scale)
    special = np.array([0.0, -0.0, 1.0, -1.0, -1.19243, 5.0, -5.0, 20.0, -20.0, 0.5, -0.5])
    flat = v.reshape(-1)
    n = min(flat.size, special.size)
    flat[:n] = special[:n]
    return v


@pytest.fixture
def rng():
    return np.random.default_rng(20261201)


@pytest.fixture(autouse=True)
def no_registration_left():
    """Every test ends with no host registration held (each call releases its own)."""
    yield
    assert mishgrad._mishgrad._live_registrations() == 0


def run_in_threads(work, count):
    """work(0) ... work(count - 1), each in a thread of its own, all started before any is
    joined (so that they run at once)."""
    threads = [threading.Thread(target=work, args=(t,)) for t in range(count)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()


def acl_library():
    """The runtime the extension is linked to (the package's own libascendcl, the same library
    object, so the same registration table), with the host-registration calls typed."""
    lib = ctypes.CDLL(os.path.join(os.path.dirname(mishgrad.__file__), "libascendcl.so.1"))
    lib.aclrtHostRegister.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]
    lib.aclrtHostUnregister.argtypes = [ctypes.c_void_p]
    lib.aclGetRecentErrMsg.restype = ctypes.c_char_p
    return lib


def build_c(tmp_path_factory, source, what, flags):
    """Compiles C `source` with `flags` (which say what to make: a program, a shared
    library); the output's path. A C compiler is part of this project's toolchain (the
    extension is C): a missing one fails, it is not a skip."""
    import shutil
    import subprocess
    cc = shutil.which("cc") or shutil.which("gcc")
    assert cc is not None, "no C compiler to build the %s" % what
    d = tmp_path_factory.mktemp("c")
    src, out = d / "source.c", d / "output"
    src.write_text(source)
    done = subprocess.run([cc, "-o", str(out), str(src)] + list(flags), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return str(out)


def build_preload_shim(tmp_path_factory, source, what):
    """Compiles C `source` into a shared library for a child's LD_PRELOAD; its path."""
    return build_c(tmp_path_factory, source, what + " shim", ["-shared", "-fPIC", "-O1", "-ldl"])

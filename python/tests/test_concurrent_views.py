"""Eight threads writing element-disjoint views of ONE buffer at once, on both memory routes.

Each call describes its operands over the whole underlying buffer (as op-plugin does), so
the package must keep calls apart by the bytes each view occupies: on the zero-copy route
the runtime's race detector sees byte ranges (interleaved views used to fail with 161002),
and on the staging route a call used to copy the whole buffer in and back, overwriting the
other threads' results with stale copies.

The zero-copy route runs in this process; the staging route runs the same checks in a
subprocess started with MISHGRAD_PY_ROUTE=staging (the route is decided once per process).
Run as a script (`python test_concurrent_views.py WORKLOAD...`) it prints one JSON line:
{"zero_copy": bool, "failures": {workload: [messages]}}.
"""
import json
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import mishgrad
from conftest import run_in_threads

THREADS = 8
CALLS = 8  # each thread: 8 rounds of mish_ and mish(out=) (20 made it the suite's slowest by far)


def mish64(x):
    """Independent float64 reference: x * tanh(softplus(x)), softplus as logaddexp(0, x)."""
    x = np.asarray(x, np.float64)
    return x * np.tanh(np.logaddexp(0.0, x))


def close(got, x):
    want = mish64(x)
    return np.allclose(np.asarray(got, np.float64), want, rtol=2e-6, atol=2e-6)


def _numpy_columns():
    # Interleaved column blocks of a C-order (2000, 800) array: every block's bytes span
    # nearly the whole buffer. Four columns of each block stay outside every view.
    m = np.random.default_rng(1).uniform(-6, 6, (2000, 800)).astype(np.float32)
    views = [m[:, i * 100:i * 100 + 96] for i in range(THREADS)]
    return m, views


def _numpy_every_eighth():
    # x[i::8]-style views, inside a margin of untouched elements at both ends.
    x = np.random.default_rng(2).uniform(-6, 6, 1_600_000).astype(np.float32)
    views = [x[8 + i:-8:8] for i in range(THREADS)]
    return x, views


def _numpy_rows():
    # Contiguous disjoint rows; the last row belongs to no view.
    r = np.random.default_rng(3).uniform(-6, 6, (THREADS + 1, 100_000)).astype(np.float32)
    return r, [r[i] for i in range(THREADS)]


def _torch_rows():
    torch = pytest.importorskip("torch") if __name__ != "__main__" else __import__("torch")
    g = torch.Generator().manual_seed(4)
    t = (torch.rand((THREADS + 1, 100_000), generator=g) * 12 - 6).float()
    return t, [t[i] for i in range(THREADS)]


WORKLOADS = {
    "numpy_columns": _numpy_columns,
    "numpy_every_eighth": _numpy_every_eighth,
    "numpy_rows": _numpy_rows,
    "torch_rows": _torch_rows,
}


def _np(a):
    return a.numpy() if hasattr(a, "numpy") and not isinstance(a, np.ndarray) else a


def run_workload(name):
    """Runs one workload; returns a list of failure messages (empty: it passed)."""
    base, views = WORKLOADS[name]()
    is_torch = not isinstance(base, np.ndarray)
    original = _np(base).copy()
    inside = np.zeros(original.shape, bool)
    marker = _np(base)
    for v in views:
        # Mark every element a view covers (views share memory with base).
        vn = _np(v)
        saved = vn.copy()
        vn[...] = np.nan
        inside |= np.isnan(marker)
        vn[...] = saved
    last = [None] * THREADS
    failures = []
    start = threading.Barrier(THREADS)

    def work(t):
        view = views[t]
        vn = _np(view)
        if is_torch:
            import torch
            private = torch.empty_like(view)
        else:
            private = np.empty_like(view)
        try:
            start.wait()
            seen = vn.copy()
            for k in range(CALLS):
                # Nothing but this thread writes these elements: they must still hold what
                # this thread's last call left.
                if not np.array_equal(vn, seen, equal_nan=True):
                    failures.append(f"thread {t} call {k}: its view changed between its calls")
                    return
                before = vn.copy()
                if k % 2 == 0:
                    assert mishgrad.mish_(view) is view
                    seen = vn.copy()
                    if not close(seen, before):
                        failures.append(f"thread {t} call {k}: mish_ result wrong")
                        return
                    # A reader of the view while other threads write theirs.
                    assert mishgrad.mish(view, out=private) is private
                    if not close(_np(private), seen):
                        failures.append(f"thread {t} call {k}: mish(out=) result wrong")
                        return
                else:
                    assert mishgrad.mish(view, out=private) is private
                    if not close(_np(private), before):
                        failures.append(f"thread {t} call {k}: mish(out=) result wrong")
                        return
                    assert mishgrad.mish_(view) is view
                    seen = vn.copy()
                    if not np.array_equal(seen, _np(private)):
                        failures.append(f"thread {t} call {k}: mish_ differs from mish(out=)")
                        return
            last[t] = seen
        except Exception as e:  # noqa: BLE001 - reported below
            failures.append(f"thread {t}: {type(e).__name__}: {e}")

    run_in_threads(work, THREADS)
    if failures:
        return failures
    final = _np(base)
    for t in range(THREADS):
        if not np.array_equal(_np(views[t]), last[t]):
            failures.append(f"thread {t}: its final result was overwritten after its last call")
    if not np.array_equal(final[~inside].view(np.uint32), original[~inside].view(np.uint32)):
        failures.append("elements outside every view changed")
    return failures


def _check(failures):
    assert not failures, failures[:8]


@pytest.mark.parametrize("name", ["numpy_columns", "numpy_every_eighth", "numpy_rows"])
def test_zero_copy_route(name):
    # Not a skip: the bundled runtime takes every host registration, so zero-copy is the
    # default route here; a skip would hide a probe that lost its answer (seed 40).
    assert mishgrad.zero_copy(), "the bundled runtime's default route must be zero-copy"
    _check(run_workload(name))


def test_zero_copy_route_torch_rows():
    pytest.importorskip("torch")
    assert mishgrad.zero_copy(), "the bundled runtime's default route must be zero-copy"  # as above
    _check(run_workload("torch_rows"))


def _have_torch():
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(scope="module")
def staging_report():
    names = ["numpy_columns", "numpy_every_eighth", "numpy_rows"]
    if _have_torch():
        names.append("torch_rows")
    env = dict(os.environ, MISHGRAD_PY_ROUTE="staging")
    done = subprocess.run([sys.executable, os.path.abspath(__file__), *names], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode in (0, 1), (done.returncode, done.stdout[-2000:], done.stderr[-4000:])
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["zero_copy"] is False, "MISHGRAD_PY_ROUTE=staging did not force staging"
    return report


@pytest.mark.parametrize("name", ["numpy_columns", "numpy_every_eighth", "numpy_rows"])
def test_staging_route(staging_report, name):
    _check(staging_report["failures"][name])


def test_staging_route_torch_rows(staging_report):
    pytest.importorskip("torch")
    _check(staging_report["failures"]["torch_rows"])


if __name__ == "__main__":
    results = {name: run_workload(name) for name in sys.argv[1:]}
    print(json.dumps({"zero_copy": bool(mishgrad.zero_copy()), "failures": results}))
    sys.exit(1 if any(results.values()) else 0)

"""Eight Python threads at once: each thread's CANN context is set by the package, the GIL
is released during the run, and results equal the single-threaded ones bit for bit."""
import threading

import numpy as np

import mishgrad
from conftest import sample, run_in_threads

THREADS = 8


def test_eight_threads_at_once():
    rng = np.random.default_rng(5)
    shared_x = sample(rng, 40000).astype(np.float32)  # read by every thread at once
    jobs = []
    for t in range(THREADS):
        # Small arrays share pages with each other (and with other threads' arrays).
        n = [3, 17, 1000, 40000, 2 ** 17, 5, 64, 9999][t]
        g = sample(rng, n, 2.0).astype(np.float32 if t % 2 == 0 else np.float16)
        x = sample(rng, n).astype(g.dtype)
        jobs.append((g, x, mishgrad.mish_backward(g, x)))
    shared_g = np.full(40000, 0.5, np.float32)
    shared_expected = mishgrad.mish_backward(shared_g, shared_x)
    start = threading.Barrier(THREADS)
    failures = []

    def work(t):
        g, x, expected = jobs[t]
        out = np.empty_like(x)
        mine = np.empty_like(shared_x)
        try:
            start.wait()
            for _ in range(30):
                assert mishgrad.mish_backward(g, x, out=out) is out
                if not np.array_equal(out, expected):
                    failures.append(f"thread {t}: wrong result")
                    return
                mishgrad.mish_backward(shared_g, shared_x, out=mine)
                if not np.array_equal(mine, shared_expected):
                    failures.append(f"thread {t}: wrong shared result")
                    return
                # Strided views into a buffer of this thread's own.
                y = mishgrad.mish_backward(g[::2], x[::2])
                if not np.array_equal(y, expected[::2]):
                    failures.append(f"thread {t}: wrong strided result")
                    return
        except Exception as e:  # noqa: BLE001 - reported below
            failures.append(f"thread {t}: {type(e).__name__}: {e}")

    run_in_threads(work, THREADS)
    assert not failures, failures


def test_errors_stay_in_their_thread():
    """A failing call in one thread gives that thread its own status and message, while the
    others succeed."""
    start = threading.Barrier(THREADS)
    results = [None] * THREADS

    def work(t):
        start.wait()
        try:
            for _ in range(20):
                if t % 2:
                    try:
                        mishgrad.mish_backward(np.ones(4), np.ones(4))
                        results[t] = "no error"
                        return
                    except mishgrad.AclnnError as e:
                        if e.status != 161002 or "DOUBLE" not in str(e):
                            results[t] = f"wrong error {e.status}: {e}"
                            return
                else:
                    y = mishgrad.mish_backward(np.full(4, 2.0, np.float32), np.zeros(4, np.float32))
                    if not np.allclose(y, 1.2):
                        results[t] = "wrong value"
                        return
            results[t] = "ok"
        except Exception as e:  # noqa: BLE001
            results[t] = f"{type(e).__name__}: {e}"

    run_in_threads(work, THREADS)
    assert results == ["ok"] * THREADS


def test_many_short_lived_threads():
    """Threads that come and go: each sets its context and leaves its stream behind."""
    g = np.full(100, 2.0, np.float32)
    x = np.zeros(100, np.float32)
    got = []
    for _ in range(4):
        batch = [threading.Thread(target=lambda: got.append(mishgrad.mish_backward(g, x)))
                 for _ in range(THREADS)]
        for th in batch:
            th.start()
        for th in batch:
            th.join()
    assert len(got) == 4 * THREADS
    for y in got:
        np.testing.assert_allclose(y, 1.2, rtol=1e-6)


def test_gil_is_released_during_the_run():
    """Another Python thread runs while a long call is in the library: some of its time
    stamps fall well inside the call (holding the GIL, none could: other threads run only
    between bytecodes, at most a switch interval after the call starts or before it ends)."""
    import sys
    import time

    import pytest

    x = np.zeros(2 ** 24, np.float32)
    x[::2] = -3.0
    g = np.ones_like(x)
    out = np.empty_like(x)
    stamps = []
    done = threading.Event()

    def spin():
        while not done.is_set():
            stamps.append(time.perf_counter())

    old = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    spinner = threading.Thread(target=spin)
    spinner.start()
    try:
        t0 = time.perf_counter()
        mishgrad.mish_backward(g[::2], x[::2], out=out[::2])  # strided: copies, so it is long
        t1 = time.perf_counter()
    finally:
        done.set()
        spinner.join()
        sys.setswitchinterval(old)
    margin = 0.002
    if t1 - t0 < 3 * margin:
        pytest.skip(f"the call took {1e3 * (t1 - t0):.1f} ms, too short to tell")
    inside = [s for s in stamps if t0 + margin < s < t1 - margin]
    assert inside, f"no Python ran during a {1e3 * (t1 - t0):.1f} ms call"


_OVERLAP_CHILD = r"""
import sys, threading
import numpy as np
import mishgrad
x = np.random.default_rng(9).uniform(-6, 6, 3_000_000).astype(np.float32)
views = [x[:2_000_000], x[1_000_000:]]  # each reaches into the other, neither holds the other
want = [v.astype(np.float64) * np.tanh(np.logaddexp(0.0, v.astype(np.float64))) for v in views]
start = threading.Barrier(2)
bad = []
def work(i):
    out = np.empty_like(views[i])
    start.wait()
    for _ in range(25):
        mishgrad.mish(views[i], out=out)
        if not np.allclose(out, want[i], rtol=2e-6, atol=2e-6):
            bad.append(i)
            return
threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
for t in threads: t.start()
for t in threads: t.join()
print("zero-copy" if mishgrad.zero_copy() else "staging", "bad:", bad)
sys.exit(1 if bad else 0)
"""


def test_threads_whose_inputs_overlap_without_nesting():
    """Two threads read overlapping stretches of one array, neither inside the other, 25 calls
    each at once. On the zero-copy route a call's pages are registered for its length; a call
    whose range reaches into a registration another thread has in use waits for it to be
    released, then registers its own: both finish, with the right values. In a child with a
    time limit, so that a wait that never ends fails the test instead of hanging the suite."""
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-c", _OVERLAP_CHILD], capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "bad: []" in r.stdout

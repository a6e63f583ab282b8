"""Repeated calls hold no more memory than the first: a view that is not contiguous makes
the operator ask for a workspace (kept per thread for the next call), and forty more calls
on it must not grow the process's resident memory (a workspace not kept, not freed, or
not unmapped would add its 2 MB or more per call), nor do calls that outgrow the workspace
each time (each old one is let go). On both memory routes (the staging one in
a child). Run as a script it prints the growth in bytes."""
import json
import os
import subprocess
import sys

import numpy as np

import mishgrad


def rss():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def growth():
    n = 1 << 19
    xb = np.linspace(-5, 5, 2 * n, dtype=np.float32)
    x = xb[::2]  # every other element: not contiguous
    g = np.ones(n, np.float32)
    out = np.empty(n, np.float32)
    want = mishgrad.mish_backward(g, np.ascontiguousarray(x))
    for _ in range(5):  # warm-up: the workspace, the registrations or staging blocks
        mishgrad.mish_backward(g, x, out=out)
    before = rss()
    for _ in range(40):
        mishgrad.mish_backward(g, x, out=out)
    grown = rss() - before
    assert np.array_equal(out, want)
    if not mishgrad.zero_copy():
        # staging: the workspaces are aclrtMalloc blocks, from the C heap, which need not
        # hand freed memory back; only the steady state above is measured there
        return grown
    # then a workspace (its own mapped pages) outgrown at every call: each old one must go
    sizes = [int(n * 1.04 ** k) for k in range(1, 21)]
    before = rss()
    for m in sizes:
        xm = np.linspace(-5, 5, 2 * m, dtype=np.float32)[::2]
        mishgrad.mish_backward(np.ones(m, np.float32), xm)
    del xm
    return max(grown, rss() - before - 4 * 2 * 4 * sizes[-1])  # less what the last call may still hold


def test_repeated_calls_hold_no_more_memory():
    assert growth() < 16 << 20


def test_repeated_calls_hold_no_more_memory_on_the_staging_route():
    env = dict(os.environ, MISHGRAD_PY_ROUTE="staging")
    code = ("import runpy, sys\nsys.modules['torch'] = None\nrunpy.run_path(%r, run_name='__main__')"
            % os.path.abspath(__file__))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-3000:])
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["zero_copy"] is False
    assert report["grown"] < 16 << 20, report


if __name__ == "__main__":
    print(json.dumps({"grown": growth(), "zero_copy": bool(mishgrad.zero_copy())}))

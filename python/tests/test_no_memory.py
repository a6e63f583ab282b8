"""Every Python allocation the extension makes can fail (MemoryError): CPython's _testcapi
fails the n-th allocation after set_nomemory(n, n + 1), and a sweep over n walks a call
through each of its allocations in turn -- the operand's attributes, the new result and its
backwards view (a tuple of 25 slices: no free list), the error object and its .status and
.api. Each try ends in the call's own outcome or a MemoryError (never SystemError, never a
wrong result), and after the sweep no reference is kept and no result array is left behind
(tracemalloc sees NumPy's data allocations: a leaked 800 KB result shows). In a child: a
failed allocation may also land in the interpreter's own machinery."""
import json
import os
import subprocess
import sys

import pytest

_testcapi = pytest.importorskip("_testcapi")
if not hasattr(_testcapi, "set_nomemory"):
    pytest.skip("this Python's _testcapi has no set_nomemory", allow_module_level=True)

CHILD = r"""
import gc, json, sys, tracemalloc
sys.modules["torch"] = None  # NumPy only: torch, where installed, costs seconds to import here
import numpy as np
import _testcapi
import mishgrad
from mishgrad import _mishgrad

def sweep(call, check, n_max=90):
    seen = {}
    for n in range(n_max):
        r = None
        _testcapi.set_nomemory(n, n + 1)
        try:
            r = call()
            _testcapi.remove_mem_hooks()
            k = "ok" if check(r) else "wrong result"
        except BaseException as e:  # noqa: BLE001 -- counted by type
            _testcapi.remove_mem_hooks()
            k = type(e).__name__
        r = None  # the result goes before the next try (a kept one would be a leak)
        seen[k] = seen.get(k, 0) + 1
    return seen

r = None
# 25 dimensions, reversed along the first: the new result is a reversed view of a fresh
# 800 KB array, indexed by a 25-tuple (the library then refuses rank 25: 161002)
x = np.linspace(-3, 3, 200000, dtype=np.float32).reshape((2,) + (1,) * 23 + (100000,))[::-1]
g = np.ones_like(x)[::-1]
bad = np.ones(5, np.float64)
gs = np.ones(7, np.float32)
xs = np.linspace(-1, 1, 7, dtype=np.float32)
want = mishgrad.mish_backward(gs, xs).copy()
out = np.zeros(7, np.float32)
objs = (x, g, bad, gs, xs, out, mishgrad.AclnnError)  # each error object refers to its class
before = [sys.getrefcount(o) for o in objs]
gc.collect()
tracemalloc.start()
m0 = tracemalloc.get_traced_memory()[0]
res = {
    "reversed": sweep(lambda: mishgrad.mish_backward(g, x), lambda r: False),
    "refusal": sweep(lambda: mishgrad.mish_backward(bad, bad), lambda r: False),
    "new": sweep(lambda: mishgrad.mish_backward(gs, xs), lambda r: np.array_equal(r, want)),
    "out": sweep(lambda: mishgrad.mish_backward(gs, xs, out=out), lambda r: r is out and np.array_equal(out, want)),
}
gc.collect()
gc.collect()
res["grown"] = tracemalloc.get_traced_memory()[0] - m0
tracemalloc.stop()
res["refs"] = [before, [sys.getrefcount(o) for o in objs]]
res["live"] = _mishgrad._live_registrations()
print(json.dumps(res))
"""


def test_each_allocation_failing_in_turn():
    done = subprocess.run([sys.executable, "-c", CHILD], cwd=os.path.dirname(os.path.abspath(__file__)),
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-3000:])
    r = json.loads(done.stdout.strip().splitlines()[-1])
    # each sweep reached failures, and went past the call's last allocation
    assert set(r["reversed"]) == {"MemoryError", "AclnnError"}, r["reversed"]
    assert set(r["refusal"]) == {"MemoryError", "AclnnError"}, r["refusal"]
    assert set(r["new"]) == {"MemoryError", "ok"}, r["new"]
    assert set(r["out"]) <= {"MemoryError", "ok"} and r["out"].get("ok", 0) > 0, r["out"]
    assert r["refs"][0] == r["refs"][1], "a reference was kept or lost on a failed allocation's path: %r" % r["refs"]
    assert r["live"] == 0
    # one leaked result of the reversed sweep would be 800 KB
    assert r["grown"] < 300_000, "%d bytes left behind by the sweep" % r["grown"]

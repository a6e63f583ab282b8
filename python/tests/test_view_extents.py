"""A call touches its views' elements and nothing else, on both memory routes.

Every view here lies in a region of its own whose neighbouring pages are PROT_NONE (mapped
with no access), placed so that the view's lowest or highest byte is the region's first or
last: a read or write one element past the view's extent (an extent computed one element
short of the truth is refused or miscomputed; one computed too long touches the guard page)
kills the process with SIGSEGV. The rest of each region holds a sentinel bit pattern (a
NaN with a payload), checked bit for bit after every call: inputs are not written at all,
an output or an in-place target only at its view's elements. Values are checked against
float64.

The checks run in a child process per route (a crash is then a failure that names the
route, not the end of the test session): the zero-copy route (aclrtHostRegister of the
caller's memory) where this runtime takes registrations, and the staging route
(MISHGRAD_PY_ROUTE=staging, the Atlas products' route: the view's bytes copied in and out).
Run as a script (`python test_view_extents.py numpy|torch`) it prints one JSON line:
{"zero_copy": bool, "cases": n, "failures": [messages]}.
"""
import ctypes
import json
import mmap
import os
import subprocess
import sys

import numpy as np
import pytest

PAGE = mmap.PAGESIZE
REGION_PAGES = 2
# NaN bit patterns with payloads, as the outside of every view: any write shows.
SENTINEL_BITS = {1: None, 2: 0x7D5A, 4: 0x7FA5A5A5}

_keep = []  # the regions' mappings live as long as the process


def guarded_region():
    """A writable uint8 array of REGION_PAGES pages with a PROT_NONE page on each side."""
    mm = mmap.mmap(-1, (REGION_PAGES + 2) * PAGE)
    anchor = ctypes.c_char.from_buffer(mm)
    base = ctypes.addressof(anchor)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    for page in (base, base + (REGION_PAGES + 1) * PAGE):
        if libc.mprotect(page, PAGE, 0) != 0:
            raise OSError(ctypes.get_errno(), "mprotect")
    _keep.append((mm, anchor))
    return np.frombuffer(mm, np.uint8)[PAGE:(REGION_PAGES + 1) * PAGE]


# Views by (label, offset, shape, strides) in elements of a 1-D array of L elements: the
# extent of each touches the region's first or last element.
def view_specs(L, negative_ok):
    n, R, C, S = 100, 10, 20, 37
    specs = [
        ("start", 0, (n,), (1,)),
        ("end", L - n, (n,), (1,)),
        ("stepped from the start", 0, (n,), (3,)),
        ("stepped to the end", L - 1 - (n - 1) * 3, (n,), (3,)),
        ("rows with gaps at the end", L - (R - 1) * S - C, (R, C), (S, 1)),
        ("transposed at the start", 0, (C, R), (1, S)),
        ("one column to the end", L - 1 - (R - 1) * S, (R,), (S,)),
        ("size-1 dims with odd strides", L - n, (1, n, 1), (7 * L, 1, 5 * L)),
    ]
    if negative_ok:
        specs += [
            ("reversed from the end", L - 1, (n,), (-1,)),
            ("reversed stepped to the start", (n - 1) * 2, (n,), (-2,)),
            ("reversed rows, at the end", L - C, (R, C), (-S, 1)),
        ]
    return specs


def covered(L, offset, shape, strides):
    """The element indexes a view covers."""
    idx = np.full(shape, offset, np.int64)
    for d, (size, stride) in enumerate(zip(shape, strides)):
        step = np.arange(size, dtype=np.int64) * stride
        idx = idx + step.reshape([-1 if k == d else 1 for k in range(len(shape))])
    mask = np.zeros(L, bool)
    mask[idx.reshape(-1)] = True
    assert idx.min() >= 0 and idx.max() < L
    return mask


def mish64(x):
    x = np.asarray(x, np.float64)
    return x * np.tanh(np.logaddexp(0.0, x))


def mish_backward64(g, x):
    g = np.asarray(g, np.float64)
    x = np.asarray(x, np.float64)
    sp = np.logaddexp(0.0, x)
    t = np.tanh(sp)
    sig = 0.5 * (1.0 + np.tanh(0.5 * x))
    return g * (t + x * (1.0 - t * t) * sig)


TOL = {"float32": 2e-6, "float16": 2e-3, "bfloat16": 1.6e-2}


class Lib:
    """The array library under test: NumPy or torch, over a guarded region."""

    def __init__(self, kind):
        self.kind = kind
        if kind == "torch":
            import torch
            self.torch = torch
            self.dtypes = [torch.float32, torch.float16, torch.bfloat16]
        else:
            self.dtypes = [np.float32, np.float16]

    def name(self, dtype):
        return str(dtype).replace("torch.", "") if self.kind == "torch" else np.dtype(dtype).name

    def itemsize(self, dtype):
        return self.torch.tensor([], dtype=dtype).element_size() if self.kind == "torch" else np.dtype(dtype).itemsize

    def region(self, dtype, rng):
        """(flat array of dtype over a fresh guarded region, its bits as an integer array)."""
        raw = guarded_region()
        size = self.itemsize(dtype)
        bits = raw.view({2: np.uint16, 4: np.uint32}[size])
        bits[...] = SENTINEL_BITS[size]
        if self.kind == "torch":
            flat = self.torch.frombuffer(raw, dtype=self.torch.uint8).view(dtype)
        else:
            flat = raw.view(dtype)
        return flat, bits

    def view(self, flat, offset, shape, strides):
        if self.kind == "torch":
            return flat.as_strided(shape, strides, offset)
        size = flat.dtype.itemsize
        return np.lib.stride_tricks.as_strided(flat[offset:], shape, [s * size for s in strides])

    def values(self, a):
        if self.kind == "torch":
            return a.detach().to(self.torch.float64).numpy()
        return np.asarray(a, np.float64)

    def fill(self, v, data):
        if self.kind == "torch":
            v.copy_(self.torch.from_numpy(data))
        else:
            v[...] = data

    def fresh(self, data, dtype):
        if self.kind == "torch":
            return self.torch.from_numpy(data).to(dtype)
        return data.astype(dtype)


def run_checks(kind):
    import mishgrad
    lib = Lib(kind)
    rng = np.random.default_rng(25)
    failures = []
    cases = 0
    have_forward = mishgrad._mishgrad.HAVE_FORWARD

    def judge(label, got, want, dtype_name):
        got = lib.values(got)
        scale = np.maximum(np.abs(want), 1.0)
        bad = np.abs(got - want) > TOL[dtype_name] * scale
        if bad.any():
            failures.append(f"{label}: {bad.sum()} of {bad.size} values wrong (first got {got[bad][0]!r}, "
                            f"want {want[bad][0]!r})")

    def untouched(label, bits, before, mask=None):
        keep = np.ones(len(bits), bool) if mask is None else ~mask
        if not np.array_equal(bits[keep], before[keep]):
            changed = np.flatnonzero(bits[keep] != before[keep])
            failures.append(f"{label}: {changed.size} element(s) outside the view changed "
                            f"(first at region index {np.flatnonzero(keep)[changed[0]]})")

    for dtype in lib.dtypes:
        dname = lib.name(dtype)
        L = REGION_PAGES * PAGE // lib.itemsize(dtype)
        for spec in view_specs(L, negative_ok=kind == "numpy"):
            label, offset, shape, strides = spec
            mask = covered(L, offset, shape, strides)
            case = f"{kind} {dname} {label}"
            try:
                # the view as an input: nothing of its region is written
                x_flat, x_bits = lib.region(dtype, rng)
                x = lib.view(x_flat, offset, shape, strides)
                lib.fill(x, rng.uniform(-6, 6, shape))
                xs = lib.values(x)
                x_before = x_bits.copy()
                g_flat, g_bits = lib.region(dtype, rng)
                g = lib.view(g_flat, offset, shape, strides)
                lib.fill(g, rng.uniform(-2, 2, shape))
                gs = lib.values(g)
                g_before = g_bits.copy()
                grad = mishgrad.mish_backward(g, x)
                cases += 1
                judge(f"{case}: mish_backward(g, x) of views", grad, mish_backward64(gs, xs), dname)
                untouched(f"{case}: mish_backward's input x", x_bits, x_before)
                untouched(f"{case}: mish_backward's input grad_output", g_bits, g_before)
                # the view as out=: only its elements are written
                o_flat, o_bits = lib.region(dtype, rng)
                out = lib.view(o_flat, offset, shape, strides)
                o_before = o_bits.copy()
                r = mishgrad.mish_backward(g, x, out=out)
                cases += 1
                if r is not out:
                    failures.append(f"{case}: mish_backward(out=) did not return out")
                judge(f"{case}: mish_backward(out=view)", out, mish_backward64(gs, xs), dname)
                untouched(f"{case}: mish_backward's out region", o_bits, o_before, mask)
                untouched(f"{case}: mish_backward(out=)'s input x", x_bits, x_before)
                if have_forward:
                    y = mishgrad.mish(x)
                    cases += 1
                    judge(f"{case}: mish(view)", y, mish64(xs), dname)
                    untouched(f"{case}: mish's input", x_bits, x_before)
                    o_bits[...] = o_before
                    mishgrad.mish(x, out=out)
                    cases += 1
                    judge(f"{case}: mish(view, out=view)", out, mish64(xs), dname)
                    untouched(f"{case}: mish's out region", o_bits, o_before, mask)
                    untouched(f"{case}: mish(out=)'s input", x_bits, x_before)
                    o_bits[...] = o_before
                    fresh = lib.fresh(xs, dtype)
                    if min(strides) < 0 and max(shape) > 1:
                        # a dense input against a reversed output: CANN's tensors cannot run
                        # backwards and the operands disagree, so it is refused (161002), and
                        # refused with nothing written
                        try:
                            mishgrad.mish(fresh, out=out)
                            failures.append(f"{case}: mish(dense, out=reversed view) was not refused")
                        except mishgrad.AclnnError as e:
                            if "negative" not in str(e):
                                failures.append(f"{case}: the refusal does not say why: {e}")
                        cases += 1
                        untouched(f"{case}: refused mish's out region", o_bits, o_before)
                    else:
                        mishgrad.mish(fresh, out=out)
                        cases += 1
                        judge(f"{case}: mish(dense, out=view)", out, mish64(lib.values(fresh)), dname)
                        untouched(f"{case}: mish(dense)'s out region", o_bits, o_before, mask)
                    # in place on the view
                    r = mishgrad.mish_(x)
                    cases += 1
                    if r is not x:
                        failures.append(f"{case}: mish_ did not return its argument")
                    judge(f"{case}: mish_(view)", x, mish64(xs), dname)
                    untouched(f"{case}: mish_'s region", x_bits, x_before, mask)
            except Exception as e:  # noqa: BLE001 - every case reports, the run goes on
                failures.append(f"{case}: {type(e).__name__}: {e}")
        # an input read through a zero stride (broadcast), its one row flush with the end
        x_flat, x_bits = lib.region(dtype, rng)
        row = lib.view(x_flat, L - 50, (50,), (1,))
        lib.fill(row, rng.uniform(-6, 6, (50,)))
        x = lib.view(x_flat, L - 50, (4, 50), (0, 1))
        before = x_bits.copy()
        try:
            grad = mishgrad.mish_backward(lib.fresh(np.full((4, 50), 0.75), dtype), x)
            cases += 1
            judge(f"{kind} {dname} broadcast input", grad, mish_backward64(0.75, lib.values(x)), dname)
            untouched(f"{kind} {dname} broadcast input", x_bits, before)
        except Exception as e:  # noqa: BLE001
            failures.append(f"{kind} {dname} broadcast input: {type(e).__name__}: {e}")
        if kind == "numpy":
            # NumPy's own slices (as_strided's views above are their own root): the array
            # under these is the whole mapping, guard pages included, so each call's storage
            # spans them; only the views' bytes may be read or written (seed 40's survivor,
            # mg_operand.c: a view's extent left at its storage's start, which the staging
            # route then copied in and out).
            case = f"{kind} {dname} slices of an array with guard pages"
            try:
                x_flat, x_bits = lib.region(dtype, rng)
                g_flat, g_bits = lib.region(dtype, rng)
                o_flat, o_bits = lib.region(dtype, rng)
                n = 100
                x, g, out = x_flat[L - n:], g_flat[1:1 + 3 * n:3], o_flat[L // 2:L // 2 + n]
                mask = np.zeros(L, bool)
                mask[L // 2:L // 2 + n] = True
                lib.fill(x, rng.uniform(-6, 6, (n,)))
                lib.fill(g, rng.uniform(-2, 2, (n,)))
                xs, gs = lib.values(x), lib.values(g)
                x_before, g_before, o_before = x_bits.copy(), g_bits.copy(), o_bits.copy()
                mishgrad.mish_backward(g, x, out=out)
                cases += 1
                judge(f"{case}: mish_backward(out=slice)", out, mish_backward64(gs, xs), dname)
                untouched(f"{case}: mish_backward's input x", x_bits, x_before)
                untouched(f"{case}: mish_backward's input grad_output", g_bits, g_before)
                untouched(f"{case}: mish_backward's out region", o_bits, o_before, mask)
            except Exception as e:  # noqa: BLE001
                failures.append(f"{case}: {type(e).__name__}: {e}")
    return {"zero_copy": bool(mishgrad.zero_copy()), "cases": cases, "failures": failures}


def _child(kind, route):
    env = dict(os.environ)
    if route == "staging":
        env["MISHGRAD_PY_ROUTE"] = "staging"
    else:
        env.pop("MISHGRAD_PY_ROUTE", None)
    done = subprocess.run([sys.executable, os.path.abspath(__file__), kind], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, (
        f"the {route} route's child ended with {done.returncode} (a negative number is the signal: "
        f"-11 is a touch of a guard page)", done.stdout[-2000:], done.stderr[-4000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def _have_torch():
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.parametrize("kind", ["numpy", "torch"])
@pytest.mark.parametrize("route", ["zero_copy", "staging"])
def test_views_touch_nothing_outside(kind, route):
    if kind == "torch" and not _have_torch():
        pytest.skip("torch is not installed")
    report = _child(kind, route)
    if route == "zero_copy":
        # Not a skip: the bundled runtime takes every host registration, so the child's
        # default route is zero-copy; a skip would hide a probe that lost its answer.
        assert report["zero_copy"] is True, "the bundled runtime's default route must be zero-copy"
    if route == "staging":
        assert report["zero_copy"] is False, "MISHGRAD_PY_ROUTE=staging did not force staging"
    assert report["cases"] > 0
    assert not report["failures"], report["failures"][:10]


def test_a_foreign_buffer_under_an_array_is_not_kept():
    """An array over memory NumPy does not own (a bytearray, an mmap: its base is no ndarray)
    is described from the array itself; the call keeps no reference to that base (seed 29's
    survivor, a Py_DECREF of it deleted, kept one per call: the buffer could never be freed)."""
    import mishgrad
    buf = bytearray(np.linspace(-3, 3, 64, dtype=np.float32).tobytes())
    x = np.frombuffer(buf, np.float32)
    out = np.empty_like(x)
    mm = mmap.mmap(-1, PAGE)
    y = np.frombuffer(mm, np.float32, count=64)  # its base: the mmap object
    y[...] = 0.5
    holders = [x.base, y.base]  # what each array keeps: its buffer (or a view of it)
    for _ in range(3):  # warm-up: whatever the first calls cache
        mishgrad.mish_backward(x, x, out=out)
        mishgrad.mish_backward(y, y)
    before = [sys.getrefcount(h) for h in holders]
    for _ in range(200):
        mishgrad.mish_backward(x, x, out=out)
        mishgrad.mish_backward(y, y)
    after = [sys.getrefcount(h) for h in holders]
    assert after == before, f"references to the buffers under the arrays went {before} -> {after}"


def test_a_guard_page_touch_kills_the_child():
    """The harness itself: a read one element past a region's end dies of SIGSEGV."""
    code = ("import numpy as np, test_view_extents as t\n"
            "r = t.guarded_region()\n"
            "ptr = r.__array_interface__['data'][0] + len(r)\n"
            "import ctypes; ctypes.c_uint8.from_address(ptr).value\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=os.path.dirname(os.path.abspath(__file__)),
                          capture_output=True, timeout=60)
    assert done.returncode == -11, done.returncode


if __name__ == "__main__":
    print(json.dumps(run_checks(sys.argv[1] if len(sys.argv) > 1 else "numpy")))

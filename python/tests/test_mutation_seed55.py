"""Tests for the survivors of tools/mutate.py's seed 55 in the python layer, each against a
written expectation.

- mg_hostmem.c:191 (`r->lo < hi[k]` -> `<=`): an idle registration that only touches another
  range of the call (it begins where that range ends) was taken for one overlapping it, so
  it was evicted and its pages registered again. A registration is kept while it overlaps
  no other range of the call: a preloaded aclrtHostRegister counts the package's
  registrations.
- mg_hostmem.c:419 (`e == ACL_SUCCESS` -> `!=`): the route probe's page, registered to ask
  the runtime whether it takes host registrations, was never unregistered. Every
  registration the package makes it gives back: after release_registrations() a preloaded
  pair counts as many unregistrations as registrations.
"""
import textwrap

from conftest import build_preload_shim
from test_csrc_paths import run_child
import pytest

REGISTER_SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

/* aclrtHostRegister and aclrtHostUnregister calls the runtime accepted. */
int mg_registrations, mg_unregistrations;

static void *runtime_symbol(const char *name) {
    void *runtime = dlopen("libascendcl.so.1", RTLD_NOLOAD | RTLD_LAZY);
    return runtime != NULL ? dlsym(runtime, name) : NULL;
}

int aclrtHostRegister(void *ptr, uint64_t size, int type, void **dev) {
    static int (*real)(void *, uint64_t, int, void **);
    if (real == NULL) *(void **)&real = runtime_symbol("aclrtHostRegister");
    int status = real != NULL ? real(ptr, size, type, dev) : 507899;
    if (status == 0) mg_registrations++;
    return status;
}

int aclrtHostUnregister(void *ptr) {
    static int (*real)(void *);
    if (real == NULL) *(void **)&real = runtime_symbol("aclrtHostUnregister");
    int status = real != NULL ? real(ptr) : 507899;
    if (status == 0) mg_unregistrations++;
    return status;
}
"""


def run_counting(shim_path, body):
    """Runs `body` in a child with the registration-counting shim preloaded, after a preamble
    that imports the package, skips where there is no zero-copy route, and binds `shim`,
    `made` and `given` (the counters); its report, the test skipped on "skip"."""
    report = run_child(textwrap.dedent("""
        import ctypes, json
        import numpy as np
        import mishgrad
        from mishgrad import _mishgrad
        if not mishgrad.zero_copy():
            print(json.dumps({"skip": "no zero-copy route here"}), flush=True)
            raise SystemExit(0)
        shim = ctypes.CDLL(%r)
        made = ctypes.c_int.in_dll(shim, "mg_registrations")
        given = ctypes.c_int.in_dll(shim, "mg_unregistrations")
    """ % shim_path) + textwrap.dedent(body), {"LD_PRELOAD": shim_path}, timeout=120)
    if "skip" in report:
        pytest.skip(report["skip"])
    return report


@pytest.fixture(scope="module")
def register_shim(tmp_path_factory):
    return build_preload_shim(tmp_path_factory, REGISTER_SHIM, "registration")


def test_an_idle_registration_touching_another_range_is_kept(register_shim):
    """Four pages of one mapping. The first call works in place on pages 2-3 (one
    registration, idle after). The second reads grad from pages 0-1 and x from pages 2-3
    (out = x): two ranges that touch at page 2 but do not overlap; pages 2-3 are still
    registered, so only pages 0-1 are registered anew."""
    report = run_counting(register_shim, """
        import mmap
        _mishgrad.release_registrations()
        per_page = mmap.PAGESIZE // 4
        m = mmap.mmap(-1, 4 * mmap.PAGESIZE)
        whole = np.frombuffer(m, np.float32)
        whole[:] = np.linspace(-3, 3, whole.size, dtype=np.float32)
        # two arrays of their own over the mapping's halves: each is its own storage
        low = np.frombuffer(m, np.float32, count=2 * per_page, offset=0)
        high = np.frombuffer(m, np.float32, count=2 * per_page, offset=2 * mmap.PAGESIZE)
        counts = [made.value]
        mishgrad.mish_backward(high, high, out=high)     # pages 2-3: one registration, idle after
        counts.append(made.value)
        low[:] = 1.0
        x2 = high.copy()
        mishgrad.mish_backward(low, high, out=high)      # pages 0-1 and 2-3
        counts.append(made.value)
        # mish'(v) at each v, by float64 on the side
        v = x2.astype(np.float64)
        sp = np.log1p(np.exp(v))
        t = np.tanh(sp)
        want = t + v * (1 - t * t) / (1 + np.exp(-v))
        err = float(np.max(np.abs(high.astype(np.float64) - want)))
        print(json.dumps({"counts": counts, "err": err}), flush=True)
    """)
    first, after_one, after_two = report["counts"]
    assert after_one - first == 1, report
    assert after_two - after_one == 1, "pages 2-3 were registered again: %r" % report
    assert report["err"] < 1e-5, report


def test_every_registration_is_given_back(register_shim):
    """The route probe's page and the calls' registrations: after release_registrations()
    (nothing in flight) the runtime has unregistered as many as it registered."""
    report = run_counting(register_shim, """
        for n in (16, 5000, 70000):
            x = np.linspace(-3, 3, n, dtype=np.float32)
            mishgrad.mish_backward(np.ones_like(x), x)
        mishgrad.release_registrations()
        print(json.dumps({"made": made.value, "given": given.value}), flush=True)
    """)
    assert report["made"] >= 2, report  # the probe's page and at least one call's
    assert report["given"] == report["made"], report

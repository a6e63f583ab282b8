"""Tests for the survivors of tools/mutate.py's seed 51 in the python layer, each against a
written expectation.

- mg_hostmem.c:504 (mg_workspace_free not forgetting the memory it gave back): a workspace
  over 64 MiB is given back after its call; the thread's next call that needs a workspace
  then gave it back a second time (an aclrtHostUnregister of pages no longer registered,
  which could as well have been another registration's by then). The package never asks
  the runtime to unregister what is not registered: a preloaded aclrtHostUnregister counts
  the calls the runtime refuses.
"""
import textwrap

from conftest import build_preload_shim
from test_csrc_paths import run_child
import pytest

UNREGISTER_SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

/* aclrtHostUnregister calls the runtime refused. */
int mg_refused_unregisters;

int aclrtHostUnregister(void *ptr) {
    static int (*real)(void *);
    if (real == NULL) {
        void *runtime = dlopen("libascendcl.so.1", RTLD_NOLOAD | RTLD_LAZY);
        if (runtime != NULL) *(void **)&real = dlsym(runtime, "aclrtHostUnregister");
    }
    int status = real != NULL ? real(ptr) : 507899;
    if (status != 0) mg_refused_unregisters++;
    return status;
}
"""


@pytest.fixture(scope="module")
def unregister_shim(tmp_path_factory):
    return build_preload_shim(tmp_path_factory, UNREGISTER_SHIM, "unregistration")


def test_a_workspace_given_back_is_given_back_once(unregister_shim):
    """A strided x is copied dense into the workspace (4 bytes an element): 2^24 + 1024
    elements ask for more than the 64 MiB a thread keeps, so that workspace goes after its
    call; the next call asks for a small one, then the package shuts down."""
    report = run_child(textwrap.dedent("""
        import ctypes, json
        import numpy as np
        import mishgrad
        from mishgrad import _mishgrad
        assert mishgrad.zero_copy()
        shim = ctypes.CDLL(%r)
        refused = ctypes.c_int.in_dll(shim, "mg_refused_unregisters")
        seen, ok = [], []
        for n in ((1 << 24) + 1024, 4096):
            x = np.zeros(2 * n, np.float32)[::2]
            g = np.ones(n, np.float32)
            y = mishgrad.mish_backward(g, x)
            ok.append(bool(np.abs(y - 0.6).max() < 1e-6))  # mish'(0) = 0.6
            seen.append(refused.value)
            del x, g, y
        _mishgrad._shutdown()
        seen.append(refused.value)
        print(json.dumps({"seen": seen, "ok": ok}), flush=True)
    """ % unregister_shim), {"LD_PRELOAD": unregister_shim}, timeout=300)
    assert report["ok"] == [True, True], report
    assert report["seen"] == [0, 0, 0], "the runtime refused the package's unregistrations: %r" % report

"""Tests for the survivors of tools/mutate.py's seed-141 sample of the python layer.

mg_hostmem.c:377 (`pthread_mutex_unlock(&lock);` deleted on the path where the table of calls
in flight cannot grow): the call kept the extension's lock, so its own release (or the next
call) hung for ever. No allocator of Python's reaches that realloc (it is
libc's), so a child runs with a preloaded realloc that fails once, on request, for a caller
inside the extension; the next call must then run as usual."""
import textwrap

import numpy as np
import pytest

from conftest import check_backward, build_preload_shim
from test_csrc_paths import run_child

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

extern void *__libc_realloc(void *ptr, size_t size);

/* Set through ctypes: the next realloc called from the extension fails (once). */
int mg_fail_extension_realloc;

void *realloc(void *ptr, size_t size) {
    if (__atomic_load_n(&mg_fail_extension_realloc, __ATOMIC_SEQ_CST)) {
        Dl_info info;
        if (dladdr(__builtin_return_address(0), &info) != 0 && info.dli_fname != NULL &&
            strstr(info.dli_fname, "_mishgrad") != NULL) {
            __atomic_store_n(&mg_fail_extension_realloc, 0, __ATOMIC_SEQ_CST);
            return NULL;
        }
    }
    return __libc_realloc(ptr, size);
}
"""


@pytest.fixture(scope="module")
def failing_realloc(tmp_path_factory):
    return build_preload_shim(tmp_path_factory, SHIM, "realloc")


@pytest.mark.parametrize("route", ["zero_copy", "staging"])
def test_a_call_whose_table_of_calls_cannot_grow_fails_and_lets_the_next_call_run(failing_realloc, route):
    """The first call grows the table of calls in flight (extents_acquire runs before any
    registration or staging, so the extension's first realloc is that table's): it fails with
    CANN's ACL_ERROR_BAD_ALLOC and the package's message, writes nothing, and gives the lock
    back -- the next call (realloc working again) computes the right result instead of
    waiting for ever on a lock nobody holds. Both routes share the table."""
    env = {"LD_PRELOAD": failing_realloc}
    if route == "staging":
        env["MISHGRAD_PY_ROUTE"] = "staging"
    report = run_child(textwrap.dedent("""
        import ctypes, json, os, threading
        import numpy as np
        import mishgrad
        shim = ctypes.CDLL(%r)
        flag = ctypes.c_int.in_dll(shim, "mg_fail_extension_realloc")
        x = np.linspace(-3, 3, 64, dtype=np.float32)
        out = np.full(64, 7.0, np.float32)
        flag.value = 1
        try:
            mishgrad.mish_backward(np.ones(64, np.float32), x, out=out)
            first = None
        except mishgrad.AclnnError as e:
            first = [e.status, str(e)]
        armed = flag.value
        untouched = bool((out == 7.0).all())  # a failed call writes nothing
        # The next call in a thread of its own: a lock left held would hang it; the
        # child reports that instead of hanging itself.
        result = []
        t = threading.Thread(target=lambda: result.append(
            mishgrad.mish_backward(np.ones(64, np.float32), x, out=out).tolist()), daemon=True)
        t.start()
        t.join(60)
        print(json.dumps({"first": first, "armed": armed, "untouched": untouched,
                          "second": result[0] if result else None, "hung": t.is_alive()}), flush=True)
        os._exit(0)  # not the interpreter's exit: its atexit hooks would wait on a kept lock too
    """ % failing_realloc), env, timeout=60)  # a kept lock hangs the child: a timeout here
    assert report["armed"] == 0, "the shim's realloc was never called from the extension"
    assert report["first"] is not None, "the call whose table could not grow succeeded"
    status, text = report["first"]
    assert status == 200000  # ACL_ERROR_BAD_ALLOC
    assert "out of memory for the table of calls in flight" in text
    assert report["untouched"] is True
    assert report["hung"] is False, "the call after a failed growth waited for ever: the lock was kept"
    x = np.linspace(-3, 3, 64, dtype=np.float32)
    check_backward(np.array(report["second"], np.float32), np.ones(64, np.float32), x, "float32")

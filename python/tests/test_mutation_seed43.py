"""Tests for the survivors of tools/mutate.py's seed-43 sample of the python layer.

_mishgrad.c:96 (`o->api = api;` deleted in fail_recent's branch for a failure the library gave
no message for): the exception then named no API. Every failure of this runtime comes with a
message, so a child runs with a preloaded aclGetRecentErrMsg that, once armed, reads the
runtime's message (clearing it, as CANN's does) and hands back an empty one: the package must
still say which call failed, with what status, in both the message and `AclnnError.api`."""
import textwrap

import pytest

from conftest import build_preload_shim
from test_csrc_paths import run_child

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

/* Set through ctypes: the next aclGetRecentErrMsg returns "" (once). */
int mg_hide_next_message;

const char *aclGetRecentErrMsg(void) {
    /* The runtime the extension loaded (privately, as Python loads extensions: not in the
       global scope RTLD_NEXT searches), found by its soname. */
    static const char *(*real)(void);
    if (real == NULL) {
        void *runtime = dlopen("libascendcl.so.1", RTLD_NOLOAD | RTLD_LAZY);
        if (runtime != NULL) *(void **)&real = dlsym(runtime, "aclGetRecentErrMsg");
    }
    const char *m = real != NULL ? real() : "";
    if (__atomic_exchange_n(&mg_hide_next_message, 0, __ATOMIC_SEQ_CST)) return "";
    return m;
}
"""


@pytest.fixture(scope="module")
def hiding_shim(tmp_path_factory):
    return build_preload_shim(tmp_path_factory, SHIM, "message")


def test_a_library_failure_without_a_message_still_names_the_call(hiding_shim):
    """float64 `out` is refused by aclnnMishBackwardGetWorkspaceSize (CANN's 161002); with
    its message hidden the package's own words name the phase and the status."""
    report = run_child(textwrap.dedent("""
        import ctypes, json
        import numpy as np
        import mishgrad
        shim = ctypes.CDLL(%r)
        flag = ctypes.c_int.in_dll(shim, "mg_hide_next_message")
        g = np.ones(4, np.float32)
        x = np.linspace(-1, 1, 4).astype(np.float32)
        mishgrad.mish_backward(g, x)  # the session is up: its setup reads no message below
        flag.value = 1
        try:
            mishgrad.mish_backward(g, x, out=np.zeros(4, np.float64))
            got = None
        except mishgrad.AclnnError as e:
            got = [e.status, e.api, str(e)]
        print(json.dumps({"got": got, "armed": flag.value}), flush=True)
    """ % hiding_shim), {"LD_PRELOAD": hiding_shim})
    assert report["armed"] == 0, "the package never read the runtime's message"
    assert report["got"] is not None, "a float64 out was not refused"
    status, api, text = report["got"]
    assert status == 161002
    assert api == "aclnnMishBackwardGetWorkspaceSize"
    assert text.startswith("aclnnMishBackwardGetWorkspaceSize returned 161002"), text

"""Tests for the survivors of tools/mutate.py's exploration 145 of the python layer, each
against a written expectation.

- mg_operand.c:96 (an array's element count not multiplied out: every NumPy array counted one
  element): an empty NumPy view then took the whole of its base as its storage. An empty view
  reads and writes nothing, so it registers nothing (the base's page is registered by the test
  first: a call that registered it again would be refused as overlapping), and its data
  pointer needs no alignment (no element is there to be misaligned).
- mg_hostmem.c:310 (the byte count in the message of a staging copy that failed): the count is
  the view's extent, the bytes the copy was asked to move, not the block's.
- mg_hostmem.c:80 (a new registration slot starting with a user): a refused registration must
  leave no call counted in flight.
- _mishgrad.c:330 (the workspace kept between calls "up to" 64 MiB): a workspace of exactly
  64 MiB is kept (its registration stays), one a page larger is given back after the call.
"""
import ctypes
import textwrap

import numpy as np
import pytest

import mishgrad
from mishgrad import _mishgrad
from conftest import build_preload_shim, check_backward
from test_csrc_paths import run_child
from test_idle_registrations import PAGE, registered, runtime


def test_an_empty_numpy_view_registers_nothing_of_its_base():
    assert mishgrad.zero_copy(), "the bundled runtime's default route must be zero-copy"
    lib = runtime()
    big = np.ones(4 * PAGE // 4, np.float32)
    # an idle registration the package keeps from an earlier test may cover this memory
    # (freed and handed out again): given back first, so the page below is free to register
    mishgrad.release_registrations()
    start = big.__array_interface__["data"][0]
    page = (start + PAGE - 1) // PAGE * PAGE  # a whole page inside the base
    dev = ctypes.c_void_p()
    assert lib.aclrtHostRegister(page, PAGE, 0, ctypes.byref(dev)) == 0
    try:
        empty = big[10:10]
        assert empty.base is big
        grad = mishgrad.mish_backward(empty, empty)
        assert grad.shape == (0,)
        out = big[20:20]
        assert mishgrad.mish_backward(empty, empty, out=out) is out
    finally:
        assert lib.aclrtHostUnregister(page) == 0
    assert (big == 1.0).all()


def test_an_empty_view_at_an_odd_address_is_empty_not_misaligned():
    raw = np.zeros(64, np.uint8)  # NumPy aligns an allocation to 16 bytes
    assert raw.__array_interface__["data"][0] % 16 == 0
    # no element, its data pointer one byte past the base
    empty = np.ndarray(shape=(0,), dtype=np.float32, buffer=raw, offset=1)
    assert empty.__array_interface__["data"][0] % 4 == 1
    assert mishgrad.mish_backward(empty, empty).shape == (0,)
    # one element at such an address is refused, as before
    one = np.ndarray(shape=(1,), dtype=np.float32, buffer=raw, offset=1)
    with pytest.raises(ValueError, match="not aligned to its item size 4"):
        mishgrad.mish_backward(one, one)


MEMCPY_SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

/* Set through ctypes: the next aclrtMemcpy fails (once), as a refused copy. */
int mg_fail_next_copy;

int aclrtMemcpy(void *dst, size_t dst_max, const void *src, size_t count, int kind) {
    static int (*real)(void *, size_t, const void *, size_t, int);
    if (real == NULL) {
        void *runtime = dlopen("libascendcl.so.1", RTLD_NOLOAD | RTLD_LAZY);
        if (runtime != NULL) *(void **)&real = dlsym(runtime, "aclrtMemcpy");
    }
    if (__atomic_exchange_n(&mg_fail_next_copy, 0, __ATOMIC_SEQ_CST)) return 107000;
    return real != NULL ? real(dst, dst_max, src, count, kind) : 507899;
}
"""


@pytest.fixture(scope="module")
def copy_shim(tmp_path_factory):
    return build_preload_shim(tmp_path_factory, MEMCPY_SHIM, "copy")


def test_a_failed_staging_copy_names_the_bytes_it_was_to_copy(copy_shim):
    """On the staging route the first operand's block is the whole storage (128 bytes), its
    copy the view's extent: a [4, 4] view of a [4, 8] array spans (3 * 8 + 4) * 4 = 112
    bytes. The copy refused (107000), the call says so with that count, writes nothing, and
    keeps nothing staged."""
    report = run_child(textwrap.dedent("""
        import ctypes, json
        import numpy as np
        import mishgrad
        from mishgrad import _mishgrad
        shim = ctypes.CDLL(%r)
        flag = ctypes.c_int.in_dll(shim, "mg_fail_next_copy")
        base = np.linspace(-2, 2, 32, dtype=np.float32).reshape(4, 8)
        g = base[:, :4]
        x = np.linspace(-1, 1, 16, dtype=np.float32).reshape(4, 4)
        out = np.full((4, 4), 9.0, np.float32)
        mishgrad.mish_backward(g, x, out=out)  # the session is up
        out[:] = 9.0
        flag.value = 1
        try:
            mishgrad.mish_backward(g, x, out=out)
            got = None
        except mishgrad.AclnnError as e:
            got = [e.status, e.api, str(e)]
        print(json.dumps({"zero_copy": mishgrad.zero_copy(), "got": got, "armed": flag.value,
                          "out": out.tolist(), "live": _mishgrad._live_registrations()}), flush=True)
    """ % copy_shim), {"LD_PRELOAD": copy_shim, "MISHGRAD_PY_ROUTE": "staging"})
    assert report["zero_copy"] is False
    assert report["armed"] == 0, "the package made no copy"
    assert report["got"] is not None, "a refused staging copy was not reported"
    status, api, text = report["got"]
    assert status == 107000, report["got"]
    assert text.startswith("staging 112 bytes in device memory failed"), text
    assert np.array(report["out"]).tolist() == [[9.0] * 4] * 4
    assert report["live"] == 0


def test_a_refused_registration_leaves_no_call_in_flight():
    """A fresh child, so that the refused registration takes a new slot of the table."""
    report = run_child("""
        import ctypes, json, mmap
        import numpy as np
        import mishgrad
        from mishgrad import _mishgrad
        from test_idle_registrations import runtime, PAGE
        assert mishgrad.zero_copy()
        lib = runtime()
        mm = mmap.mmap(-1, 2 * PAGE)
        anchor = ctypes.c_char.from_buffer(mm)
        base = ctypes.addressof(anchor)
        dev = ctypes.c_void_p()
        assert lib.aclrtHostRegister(base, PAGE, 0, ctypes.byref(dev)) == 0
        x = np.frombuffer(mm, np.float32, count=64)
        try:
            mishgrad.mish_backward(x, x)
            refused = None
        except mishgrad.AclnnError as e:
            refused = str(e)
        live = _mishgrad._live_registrations()
        assert lib.aclrtHostUnregister(base) == 0
        del x, anchor
        print(json.dumps({"refused": refused, "live": live}), flush=True)
    """)
    assert report["refused"] is not None and "aclrtHostRegister" in report["refused"], report
    assert report["live"] == 0, "a refused registration left a call counted in flight"


REGISTER_SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

/* The last registration of 32 MiB or more: the package's workspace. */
uintptr_t mg_big_address;
uint64_t mg_big_bytes;

int aclrtHostRegister(void *ptr, uint64_t size, int type, void **dev) {
    static int (*real)(void *, uint64_t, int, void **);
    if (real == NULL) {
        void *runtime = dlopen("libascendcl.so.1", RTLD_NOLOAD | RTLD_LAZY);
        if (runtime != NULL) *(void **)&real = dlsym(runtime, "aclrtHostRegister");
    }
    int status = real != NULL ? real(ptr, size, type, dev) : 507899;
    if (status == 0 && size >= ((uint64_t)32 << 20)) {
        mg_big_address = (uintptr_t)ptr;
        mg_big_bytes = size;
    }
    return status;
}
"""


@pytest.fixture(scope="module")
def register_shim(tmp_path_factory):
    return build_preload_shim(tmp_path_factory, REGISTER_SHIM, "registration")


def test_a_workspace_of_exactly_64_mib_is_kept_and_a_larger_one_given_back(register_shim):
    """x strided (every other element) is copied dense into the workspace: 4 bytes an element
    and a little alignment, page-rounded on the zero-copy route. 2^24 - 256 elements ask for
    just under 64 MiB (kept: "up to this size"); 2^24 + 1024 for more (given back)."""
    report = run_child(textwrap.dedent("""
        import ctypes, json
        import numpy as np
        import mishgrad
        from test_idle_registrations import runtime, registered
        assert mishgrad.zero_copy()
        shim = ctypes.CDLL(%r)
        address = ctypes.c_size_t.in_dll(shim, "mg_big_address")
        size = ctypes.c_uint64.in_dll(shim, "mg_big_bytes")
        lib = runtime()
        seen = []
        for n in ((1 << 24) - 256, (1 << 24) + 1024):
            x = np.zeros(2 * n, np.float32)[::2]
            g = np.ones(n, np.float32)
            y = mishgrad.mish_backward(g, x)
            ok = bool(np.abs(y - 0.6).max() < 1e-6)  # mish'(0) = 0.6
            seen.append([size.value, registered(lib, address.value), ok])
            del x, g, y
        print(json.dumps({"seen": seen}), flush=True)
    """ % register_shim), {"LD_PRELOAD": register_shim}, timeout=300)
    (kept_bytes, kept, ok1), (freed_bytes, still, ok2) = report["seen"]
    assert ok1 and ok2
    assert kept_bytes == 64 << 20, report
    assert kept, "a 64 MiB workspace was given back after its call"
    assert freed_bytes > 64 << 20, report
    assert not still, "a workspace over 64 MiB was kept after its call"

"""The idle registrations kept between calls (python/csrc/mg_hostmem.h): at most 64, the
oldest unregistered first. Seed 33's survivor (mg_hostmem.c, `oldest < 0 ||` -> `&&` in the
choice of the oldest): past 64 the eviction picked no region and indexed regions[-1], so no
registration was ever given back. Which pages are still registered is read from the runtime
itself, through its public aclrtHostRegister: it refuses a range that overlaps a registered
one, and takes one that is free."""
import ctypes
import glob
import mmap
import os

import numpy as np

import mishgrad
from conftest import check_backward, sample

PAGE = 4096
KEEP = 64          # "at most 64 are kept" (release_registrations' docstring, mg_hostmem.h)
BUFFERS = KEEP + 6  # more than 64 registrations, all kept alive (the arrays live to the end)

_keep = []  # the mapping outlives every view of it


def runtime():
    """The runtime the extension is linked to (the package's own copy: the same library
    object, so the same registration table)."""
    # named by its soname beside the extension (python/CMakeLists.txt: one file per library)
    found = sorted(glob.glob(os.path.join(os.path.dirname(mishgrad.__file__), "libascendcl.so*")))
    assert found, "the package holds no libascendcl"
    lib = ctypes.CDLL(found[0])
    lib.aclrtHostRegister.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_int,
                                      ctypes.POINTER(ctypes.c_void_p)]
    lib.aclrtHostRegister.restype = ctypes.c_int
    lib.aclrtHostUnregister.argtypes = [ctypes.c_void_p]
    lib.aclrtHostUnregister.restype = ctypes.c_int
    lib.aclGetRecentErrMsg.restype = ctypes.c_char_p
    return lib


def registered(lib, address):
    """True when the runtime holds a registration over the page at `address`: registering it
    again is refused as overlapping. A free page is registered here and unregistered at once."""
    dev = ctypes.c_void_p()
    status = lib.aclrtHostRegister(address, PAGE, 0, ctypes.byref(dev))
    message = (lib.aclGetRecentErrMsg() or b"").decode()  # read, so no later call sees it
    if status == 0:
        assert lib.aclrtHostUnregister(address) == 0
        return False
    assert "overlaps the registered range" in message, (status, message)
    return True


def test_more_than_64_idle_registrations_evict_the_oldest():
    # Not a skip: the bundled runtime takes every host registration, so zero-copy is the
    # default route here; a skip would hide a probe that lost its answer.
    assert mishgrad.zero_copy(), "the bundled runtime's default route must be zero-copy"
    mishgrad.release_registrations()  # none left by earlier tests: the count below is exact
    mm = mmap.mmap(-1, 2 * BUFFERS * PAGE)
    anchor = ctypes.c_char.from_buffer(mm)
    _keep.append((mm, anchor))
    base = ctypes.addressof(anchor)
    assert base % PAGE == 0

    def arr(index, offset, count=100):
        # its own storage (np.frombuffer: the base is no ndarray), inside page 2 * index
        return np.frombuffer(mm, np.float32, count=count, offset=2 * index * PAGE + offset)

    rng = np.random.default_rng(33)
    calls = []
    for i in range(BUFFERS):
        # grad, input and output in one page (one registration per call), a free page between
        g, x, out = arr(i, 64), arr(i, 1024), arr(i, 2048)
        g[:] = sample(rng, 100)
        x[:] = sample(rng, 100)
        assert mishgrad.mish_backward(g, x, out=out) is out
        calls.append((g, x, out))
    # every result right, with every buffer alive at once
    for g, x, out in calls:
        check_backward(out, g, x, "float32")

    lib = runtime()
    pages = [base + 2 * i * PAGE for i in range(BUFFERS)]
    kept = [registered(lib, p) for p in pages]
    evicted = BUFFERS - KEEP
    assert kept == [False] * evicted + [True] * KEEP, (
        f"registered pages by age (oldest first): {kept}; expected the {evicted} oldest given back "
        f"and the newest {KEEP} kept")

    # A call on an evicted buffer registers it again and gives back the oldest kept one.
    g, x, out = calls[0]
    assert mishgrad.mish_backward(g, x, out=out) is out
    check_backward(out, g, x, "float32")
    assert registered(lib, pages[0]) and not registered(lib, pages[evicted])
    mishgrad.release_registrations()
    assert not any(registered(lib, p) for p in pages)

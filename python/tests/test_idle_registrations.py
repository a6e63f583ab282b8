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
import pytest

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


def page_array(mm, index, offset, count=100):
    """`count` float32s at `offset` in page 2 * index of the mapping `mm` (a page apart from
    the next buffer's); the array is its own storage (np.frombuffer: the base is no ndarray)."""
    return np.frombuffer(mm, np.float32, count=count, offset=2 * index * PAGE + offset)


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

    def arr(index, offset):
        return page_array(mm, index, offset)

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


def test_a_failed_registration_leaves_no_slot_behind():
    """Seed 41's survivor (mg_hostmem.c, a new slot marked registered before its
    registration succeeded): a registration the runtime refuses left a slot that counted as an
    idle registration and could never be given back, so from then on one fewer real one was
    kept (or, picked as the oldest, none was ever evicted again). A fresh child, so that the
    refused registration takes a new slot (a table with free slots reuses one): its first
    call is refused because the test registered the page itself; then 70 buffers must leave
    exactly the newest 64 registered, as in a process where nothing failed."""
    from test_csrc_paths import run_child
    report = run_child("""
        import ctypes, json, mmap, os
        import numpy as np
        import mishgrad
        from test_idle_registrations import runtime, registered, page_array, PAGE, KEEP, BUFFERS
        assert mishgrad.zero_copy()
        lib = runtime()
        mm = mmap.mmap(-1, 2 * (BUFFERS + 1) * PAGE)
        anchor = ctypes.c_char.from_buffer(mm)
        base = ctypes.addressof(anchor)
        def arr(index, offset):
            return page_array(mm, index, offset)
        # the page of buffer BUFFERS registered by hand: the package's registration is refused
        dev = ctypes.c_void_p()
        taken = base + 2 * BUFFERS * PAGE
        assert lib.aclrtHostRegister(taken, PAGE, 0, ctypes.byref(dev)) == 0
        g, x, out = arr(BUFFERS, 64), arr(BUFFERS, 1024), arr(BUFFERS, 2048)
        g[:] = 1.0
        x[:] = 0.5
        out[:] = 7.0
        try:
            mishgrad.mish_backward(g, x, out=out)
            refused = None
        except mishgrad.AclnnError as e:
            refused = str(e)
        untouched = bool((out == 7.0).all())
        assert lib.aclrtHostUnregister(taken) == 0
        rng = np.random.default_rng(41)
        for i in range(BUFFERS):
            g, x, out = arr(i, 64), arr(i, 1024), arr(i, 2048)
            g[:] = rng.standard_normal(100).astype(np.float32)
            x[:] = rng.standard_normal(100).astype(np.float32)
            mishgrad.mish_backward(g, x, out=out)
        kept = [registered(lib, base + 2 * i * PAGE) for i in range(BUFFERS)]
        mishgrad.release_registrations()
        left = [registered(lib, base + 2 * i * PAGE) for i in range(BUFFERS)]
        print(json.dumps({"refused": refused, "untouched": untouched, "kept": kept,
                          "left": any(left)}), flush=True)
        del anchor
    """)
    assert report["refused"] is not None, "a call on a page registered by someone else succeeded"
    assert "aclrtHostRegister" in report["refused"], report["refused"]
    assert report["untouched"], "a refused call wrote its output"
    evicted = BUFFERS - KEEP
    assert report["kept"] == [False] * evicted + [True] * KEEP, (
        f"registered pages by age after a refused registration: {report['kept']}; expected the "
        f"{evicted} oldest given back and the newest {KEEP} kept")
    assert not report["left"], "release_registrations left a registration behind"


def test_an_empty_torch_slice_registers_nothing_of_its_storage():
    """An empty torch view (t[10:10]) reads and writes nothing, so its storage is not
    registered: the storage's page is registered by the test first, and a call that
    registered it again would be refused as overlapping. (Written for seed 44's
    mg_operand.c:267, which turned out equivalent: describe() gives an empty operand no
    storage whatever its extent.)"""
    torch = pytest.importorskip("torch")
    assert mishgrad.zero_copy(), "the bundled runtime's default route must be zero-copy"
    lib = runtime()
    big = torch.ones(4 * PAGE // 4, dtype=torch.float32)
    mishgrad.release_registrations()  # no idle registration of an earlier test over this memory
    start = big.data_ptr()
    page = (start + PAGE - 1) // PAGE * PAGE  # a whole page inside the storage
    dev = ctypes.c_void_p()
    assert lib.aclrtHostRegister(page, PAGE, 0, ctypes.byref(dev)) == 0
    try:
        empty = big[10:10]
        grad = mishgrad.mish_backward(empty, empty)
        assert tuple(grad.shape) == (0,)
        out = big[20:20]
        assert mishgrad.mish_backward(empty, empty, out=out) is out
    finally:
        assert lib.aclrtHostUnregister(page) == 0

"""The extension's torch route (from_torch, the hook decision, the version count) run on a
stand-in for torch.Tensor, so that it is checked where torch is not installed too (the
mutation run's interpreter, a NumPy-only environment) and on paths real tensors cannot take
(a tensor whose data_ptr fails, a device that is not the CPU, an attribute that raises).

The stand-in is a NumPy array behind torch.Tensor's attribute names: is_cpu, dtype, shape,
stride(), data_ptr(), untyped_storage().data_ptr()/nbytes(), element_size(), requires_grad,
layout, is_neg(), is_inference(), copy_(). The extension is bound to it through _bind and
_set_torch_hooks (what mishgrad/__init__.py and mishgrad/torch.py do with torch's own) and
rebound to the package's own bindings after each test. Every expectation is written here:
values against conftest's float64 references, messages and counts as stated."""
import gc
import sys

import numpy as np
import pytest

import mishgrad
from mishgrad import _mishgrad
from conftest import acl_library, check_backward, check_forward, needs_forward


class FakeDtype:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "fake." + self.name


F32, F16, F64, I32, ODD = (FakeDtype(n) for n in ("float32", "float16", "float64", "int32", "odd"))
# CANN's aclDataType codes and item sizes, as mishgrad/__init__.py builds them from torch.
DTYPES = {F32: (0, 4), F16: (1, 2), F64: (11, 8), I32: (3, 4)}
NP_OF = {F32: np.float32, F16: np.float16, F64: np.float64, I32: np.int32}
STRIDED = object()
SPARSE = object()


class FakeStorage:
    def __init__(self, root, fail=None):
        self.root, self.fail = root, fail

    def data_ptr(self):
        if self.fail == "storage.data_ptr":
            raise RuntimeError("storage data_ptr failed")
        if self.fail == "storage.negative":
            return -4096
        return self.root.__array_interface__["data"][0]

    def nbytes(self):
        if self.fail == "storage.nbytes":
            raise RuntimeError("storage nbytes failed")
        if self.fail == "storage.nbytes_type":
            return "many"
        return self.root.nbytes


class FakeTensor:
    """a: the view (a NumPy array); its storage is the array that owns a's memory."""

    def __init__(self, a, dtype=None, **kw):
        self.a = a
        root = a
        while isinstance(root.base, np.ndarray):
            root = root.base
        self.root = root
        self._dtype = dtype if dtype is not None else {np.dtype(np.float32): F32, np.dtype(np.float16): F16,
                                                       np.dtype(np.float64): F64,
                                                       np.dtype(np.int32): I32}[a.dtype]
        self.requires_grad_value = kw.pop("requires_grad", False)
        self.layout_value = kw.pop("layout", STRIDED)
        self.neg = kw.pop("neg", False)
        self.inference = kw.pop("inference", False)
        self.cpu = kw.pop("cpu", True)
        # built, not a literal: its own object, whose references a test can count
        self.device_value = "".join(["fakedevice", ":3"])
        self.fail = kw.pop("fail", None)
        self.shape_value = kw.pop("shape", None)
        self.stride_value = kw.pop("stride", None)
        self.ptr_value = kw.pop("ptr", None)
        assert not kw, kw
        self.copies = []
        self.asked = []

    def _maybe_fail(self, what):
        self.asked.append(what)
        if self.fail == what:
            raise RuntimeError(what + " failed")

    @property
    def is_cpu(self):
        self._maybe_fail("is_cpu")
        return self.cpu

    @property
    def device(self):
        return self.device_value

    @property
    def dtype(self):
        self._maybe_fail("dtype")
        return self._dtype

    @property
    def shape(self):
        self._maybe_fail("shape")
        return self.shape_value if self.shape_value is not None else tuple(self.a.shape)

    def stride(self):
        self._maybe_fail("stride")
        if self.stride_value is not None:
            return self.stride_value
        return tuple(s // self.a.itemsize for s in self.a.strides)

    def data_ptr(self):
        self._maybe_fail("data_ptr")
        if self.ptr_value is not None:
            return self.ptr_value
        return self.a.__array_interface__["data"][0]

    def untyped_storage(self):
        self._maybe_fail("untyped_storage")
        return FakeStorage(self.root, self.fail)

    def element_size(self):
        self._maybe_fail("element_size")
        if self.fail == "element_size_type":
            return "four"
        return self.a.itemsize

    @property
    def requires_grad(self):
        self._maybe_fail("requires_grad")
        return self.requires_grad_value

    @property
    def layout(self):
        self._maybe_fail("layout")
        return self.layout_value

    def is_neg(self):
        self._maybe_fail("is_neg")
        return self.neg

    def is_inference(self):
        self._maybe_fail("is_inference")
        return self.inference

    def copy_(self, other):
        self.copies.append(other)
        return self


def fake_empty_like(t):
    return FakeTensor(np.empty_like(t.a))


class Hooks:
    def __init__(self):
        self.calls = []
        self.grad = False
        self.grad_calls = 0
        self.bumped = []

    def hook(self, name):
        def h(*args, **kwargs):
            self.calls.append((name, args, kwargs))
            return ("hooked", name)
        return h

    def grad_enabled(self):
        self.grad_calls += 1
        if isinstance(self.grad, Exception):
            raise self.grad
        return self.grad

    def bump(self, t):
        self.bumped.append(t)


def _restore():
    mishgrad._bind()
    torch_mod = sys.modules.get("mishgrad.torch")
    if torch_mod is not None:
        _mishgrad._set_torch_hooks(torch_mod._mish_call, torch_mod._inplace_mish_call, torch_mod._mish_backward_call,
                                   torch_mod._grad_mode_for_the_extension, torch_mod._torch.strided,
                                   torch_mod._increment_version)


@pytest.fixture
def fake():
    """Binds the extension to the stand-in; yields the hooks' recorder."""
    hooks = Hooks()
    _mishgrad._bind(mishgrad.AclnnError, np.ndarray, np.generic, np.empty_like, FakeTensor, fake_empty_like,
                    DTYPES, "untyped_storage")
    _mishgrad._set_torch_hooks(hooks.hook("mish"), hooks.hook("mish_"), hooks.hook("mish_backward"),
                               hooks.grad_enabled, STRIDED, hooks.bump)
    try:
        yield hooks
    finally:
        _restore()


def data(n=12, lo=-6.0, hi=6.0, dtype=np.float32):
    return np.linspace(lo, hi, n).astype(dtype)


# ---- the plain route: the call runs here, on the tensor's memory ---------------------------

def test_backward_new_result_is_an_empty_like_tensor_with_the_values(fake):
    g, x = FakeTensor(data(12, -2, 2)), FakeTensor(data())
    y = mishgrad.mish_backward(g, x)
    assert isinstance(y, FakeTensor) and y.a.shape == (12,)
    check_backward(y.a, g.a, x.a, "float32")
    assert fake.calls == [] and fake.grad_calls == 1 and fake.bumped == []
    # a new result is no write into a caller's tensor: no version count
    assert g.copies == [] and x.copies == []


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_views_inside_a_larger_storage(fake, dtype):
    """Offsets, steps and transposes: the storage is the whole buffer, the view a part."""
    base = data(200, dtype=dtype).reshape(10, 20)
    gbase = data(200, -3, 3, dtype=dtype)[::-1].copy().reshape(10, 20)
    x = FakeTensor(base[2:8:2, 3:17:3].T)
    g = FakeTensor(gbase[1:7:2, 2:16:3].T)
    outbase = np.full((10, 20), 77.0, dtype)
    out = FakeTensor(outbase[4:9, 1:4])
    r = mishgrad.mish_backward(g, x, out=out)
    assert r is out
    check_backward(outbase[4:9, 1:4], g.a, x.a, np.dtype(dtype).name)
    mask = np.ones((10, 20), bool)
    mask[4:9, 1:4] = False
    assert (outbase[mask] == 77.0).all(), "written outside the out view"
    assert fake.bumped == [out] and fake.calls == []


@needs_forward
def test_forward_and_in_place_count_one_write(fake):
    x = FakeTensor(data(30)[::3])
    ref = x.a.copy()
    out = FakeTensor(np.full(10, 5.0, np.float32))
    assert mishgrad.mish(x, out=out) is out
    check_forward(out.a, ref, "float32")
    assert fake.bumped == [out]
    y = mishgrad.mish(x)
    check_forward(y.a, ref, "float32")
    assert fake.bumped == [out]  # a new result counts nothing
    assert mishgrad.mish_(x) is x
    check_forward(x.a, ref, "float32")
    assert fake.bumped == [out, x]
    assert fake.calls == []


@needs_forward
def test_without_a_bump_the_write_is_counted_by_copy_(fake):
    hooks = fake
    _mishgrad._set_torch_hooks(hooks.hook("mish"), hooks.hook("mish_"), hooks.hook("mish_backward"),
                               hooks.grad_enabled, STRIDED, None)
    x = FakeTensor(data(8))
    out = FakeTensor(np.zeros(8, np.float32))
    mishgrad.mish(x, out=out)
    assert out.copies == [out] and x.copies == []
    mishgrad.mish_(x)
    assert x.copies == [x]
    mishgrad.mish_backward(FakeTensor(data(8)), FakeTensor(data(8)), out=out)
    assert out.copies == [out, out]
    assert hooks.bumped == []


def test_the_raw_entry_points_count_no_write_and_take_no_hook(fake):
    fake.grad = 2  # every torch call would take the hook
    g, x = FakeTensor(data(6, -1, 1)), FakeTensor(data(6))
    out = FakeTensor(np.zeros(6, np.float32))
    assert _mishgrad._mish_backward(g, x, out=out) is out
    check_backward(out.a, g.a, x.a, "float32")
    if _mishgrad.HAVE_FORWARD:
        assert _mishgrad._mish(x, out=out) is out
        check_forward(out.a, x.a, "float32")
        xi = FakeTensor(data(6))
        assert _mishgrad._mish_(xi) is xi
        check_forward(xi.a, data(6), "float32")
    assert fake.calls == [] and fake.bumped == [] and fake.grad_calls == 0


def test_numpy_out_with_tensor_inputs_counts_nothing(fake):
    g, x = FakeTensor(data(6, -1, 1)), FakeTensor(data(6))
    out = np.zeros(6, np.float32)
    assert mishgrad.mish_backward(g, x, out=out) is out
    check_backward(out, g.a, x.a, "float32")
    assert fake.bumped == []


def test_a_tensor_with_no_element(fake):
    x = FakeTensor(np.zeros((0, 3), np.float32))
    y = mishgrad.mish_backward(x, x)
    assert y.a.shape == (0, 3)


def test_a_single_element_tensor_deep_in_its_storage(fake):
    base = data(64)
    g = FakeTensor(np.full(1, 1.5, np.float32))
    x = FakeTensor(base[37:38])
    out_base = np.full(64, 9.0, np.float32)
    out = FakeTensor(out_base[50:51])
    mishgrad.mish_backward(g, x, out=out)
    check_backward(out_base[50:51], g.a, base[37:38], "float32")
    assert (np.delete(out_base, 50) == 9.0).all()


@pytest.mark.skipif(not _mishgrad.zero_copy(), reason="this runtime stages memory through aclrtMalloc: "
                    "no registration of the caller's pages to read")
def test_a_view_is_described_with_its_whole_storage(fake):
    """op-plugin describes a torch tensor by its whole storage (storage dims = nbytes / itemsize,
    the view an offset into it); so does the package, and the storage is what it registers: after
    a call on a view in the first of two pages, the runtime refuses the program's own
    registration of the second page (507910, held by the registration kept between calls) until
    release_registrations(). Seed 64's survivor: the storage's end computed before its start left
    the view's bytes alone described."""
    import ctypes
    import mmap

    lib = acl_library()
    mishgrad.release_registrations()  # nothing of earlier tests kept
    m = mmap.mmap(-1, 2 * mmap.PAGESIZE)
    whole = np.frombuffer(m, np.float32)
    whole[:] = np.linspace(-3, 3, whole.size, dtype=np.float32)
    second_page = ctypes.addressof(ctypes.c_char.from_buffer(m)) + mmap.PAGESIZE
    dev = ctypes.c_void_p()
    try:
        x = FakeTensor(whole[:100])
        g = FakeTensor(np.ones(100, np.float32))
        y = mishgrad.mish_backward(g, x)
        check_backward(y.a, g.a, whole[:100], "float32")
        assert lib.aclrtHostRegister(second_page, mmap.PAGESIZE, 0, ctypes.byref(dev)) == 507910
        lib.aclGetRecentErrMsg()
    finally:
        mishgrad.release_registrations()
    assert lib.aclrtHostRegister(second_page, mmap.PAGESIZE, 0, ctypes.byref(dev)) == 0
    assert lib.aclrtHostUnregister(second_page) == 0
    del x, whole


# ---- when the hook takes the call -----------------------------------------------------------

def test_requires_grad_under_grad_mode_goes_to_the_hook(fake):
    fake.grad = True
    g = FakeTensor(data(4))
    x = FakeTensor(data(4), requires_grad=True)
    r = mishgrad.mish_backward(g, x)
    assert r == ("hooked", "mish_backward")
    assert len(fake.calls) == 1
    name, args, kwargs = fake.calls[0]
    assert args == (g, x) and kwargs == {}
    # the keywords reach the hook as keywords
    out = FakeTensor(np.zeros(4, np.float32))
    r = mishgrad.mish_backward(g, x=x, out=out)
    assert fake.calls[-1] == ("mish_backward", (g,), {"x": x, "out": out})
    assert out.a.tolist() == [0.0] * 4 and fake.bumped == []


def test_requires_grad_without_grad_mode_runs_here(fake):
    fake.grad = False
    g = FakeTensor(data(4), requires_grad=True)
    x = FakeTensor(data(4), requires_grad=True)
    y = mishgrad.mish_backward(g, x)
    check_backward(y.a, g.a, x.a, "float32")
    assert fake.calls == [] and fake.grad_calls == 1
    # grad mode off: requires_grad is not even read
    assert "requires_grad" not in g.asked and "requires_grad" not in x.asked


def test_grad_mode_without_requires_grad_runs_here(fake):
    fake.grad = True
    g, x = FakeTensor(data(4)), FakeTensor(data(4))
    y = mishgrad.mish_backward(g, x)
    check_backward(y.a, g.a, x.a, "float32")
    assert fake.calls == [] and fake.grad_calls == 1  # asked once for the whole call
    assert "requires_grad" in g.asked and "requires_grad" in x.asked


def test_grad_mode_two_sends_every_tensor_call_to_the_hook(fake):
    fake.grad = 2
    g, x = FakeTensor(data(4)), FakeTensor(data(4))
    assert mishgrad.mish_backward(g, x) == ("hooked", "mish_backward")
    assert g.asked == []  # decided before reading any tensor
    # an int 1 is grad mode on, not "record all"
    fake.grad = 1
    y = mishgrad.mish_backward(g, x)
    check_backward(y.a, g.a, x.a, "float32")
    assert len(fake.calls) == 1


def test_numpy_only_calls_never_ask_torch(fake):
    fake.grad = 2
    g, x = data(4), data(4)
    y = mishgrad.mish_backward(g, x)
    check_backward(y, g, x, "float32")
    assert fake.grad_calls == 0 and fake.calls == []


def test_a_layout_that_is_not_strided_goes_to_the_hook(fake):
    x = FakeTensor(data(4), layout=SPARSE)
    assert mishgrad.mish_backward(FakeTensor(data(4)), x) == ("hooked", "mish_backward")
    assert "is_neg" not in x.asked


def test_a_negative_bit_goes_to_the_hook(fake):
    x = FakeTensor(data(4), neg=True)
    assert mishgrad.mish_backward(FakeTensor(data(4)), x) == ("hooked", "mish_backward")
    assert "is_inference" not in x.asked  # an input is read only: inference does not matter


def test_inference_matters_only_for_the_tensor_written(fake):
    g = FakeTensor(data(4), inference=True)
    x = FakeTensor(data(4), inference=True)
    y = mishgrad.mish_backward(g, x)  # inputs: is_inference never asked
    check_backward(y.a, g.a, x.a, "float32")
    assert "is_inference" not in g.asked and "is_inference" not in x.asked
    out = FakeTensor(np.zeros(4, np.float32), inference=True)
    # written by position
    assert mishgrad.mish_backward(g, x, out) == ("hooked", "mish_backward")
    # written by keyword
    assert mishgrad.mish_backward(g, x, out=out) == ("hooked", "mish_backward")
    assert out.a.tolist() == [0.0] * 4
    assert len(fake.calls) == 2
    # an inference tensor given as x by keyword is read, not written
    y = mishgrad.mish_backward(g, x=x)
    check_backward(y.a, g.a, x.a, "float32")
    assert len(fake.calls) == 2


@needs_forward
def test_in_place_on_an_inference_tensor_goes_to_the_hook(fake):
    x = FakeTensor(data(4), inference=True)
    assert mishgrad.mish_(x) == ("hooked", "mish_")
    assert mishgrad.mish_(x=x) == ("hooked", "mish_")
    out = FakeTensor(np.zeros(4, np.float32), inference=True)
    assert mishgrad.mish(FakeTensor(data(4)), out) == ("hooked", "mish")
    assert mishgrad.mish(FakeTensor(data(4)), out=out) == ("hooked", "mish")
    # x written nowhere in mish(x): an inference x runs here
    y = mishgrad.mish(x)
    check_forward(y.a, data(4), "float32")
    assert x.a.tolist() == data(4).tolist()
    assert [c[0] for c in fake.calls] == ["mish_", "mish_", "mish", "mish"]


# ---- errors while asking a tensor or torch: raised as they are ----------------------------

@pytest.mark.parametrize("what", ["requires_grad", "layout", "is_neg", "is_inference"])
def test_a_failing_question_in_the_hook_decision_propagates(fake, what):
    fake.grad = True
    x = FakeTensor(data(4), fail=what)
    out = FakeTensor(np.zeros(4, np.float32))
    with pytest.raises(RuntimeError, match=what + " failed"):
        if what == "is_inference":
            mishgrad.mish_backward(FakeTensor(data(4)), FakeTensor(data(4)), out=FakeTensor(np.zeros(4, np.float32),
                                                                                           fail=what))
        else:
            mishgrad.mish_backward(FakeTensor(data(4)), x, out=out)
    assert out.a.tolist() == [0.0] * 4 and fake.calls == [] and fake.bumped == []


class BadBool:
    def __bool__(self):
        raise ZeroDivisionError("no truth here")


def test_a_grad_mode_that_fails_propagates(fake):
    fake.grad = ValueError("grad mode unknown")
    with pytest.raises(ValueError, match="grad mode unknown"):
        mishgrad.mish_backward(FakeTensor(data(4)), FakeTensor(data(4)))
    fake.grad = BadBool()
    with pytest.raises(ZeroDivisionError, match="no truth here"):
        mishgrad.mish_backward(FakeTensor(data(4)), FakeTensor(data(4)))


@pytest.mark.parametrize("field", ["requires_grad", "neg"])
def test_an_answer_with_no_truth_value_propagates(fake, field):
    fake.grad = True
    x = FakeTensor(data(4))
    setattr(x, "requires_grad_value" if field == "requires_grad" else "neg", BadBool())
    with pytest.raises(ZeroDivisionError, match="no truth here"):
        mishgrad.mish_backward(FakeTensor(data(4)), x)
    assert fake.calls == []


def test_a_failing_bump_fails_the_call_after_the_write(fake):
    def bad_bump(t):
        raise RuntimeError("version counter broken")
    hooks = fake
    _mishgrad._set_torch_hooks(hooks.hook("mish"), hooks.hook("mish_"), hooks.hook("mish_backward"),
                               hooks.grad_enabled, STRIDED, bad_bump)
    g, x = FakeTensor(data(4, -1, 1)), FakeTensor(data(4))
    out = FakeTensor(np.zeros(4, np.float32))
    refs = sys.getrefcount(out)
    with pytest.raises(RuntimeError, match="version counter broken"):
        mishgrad.mish_backward(g, x, out=out)
    assert sys.getrefcount(out) == refs
    check_backward(out.a, g.a, x.a, "float32")
    if _mishgrad.HAVE_FORWARD:
        with pytest.raises(RuntimeError, match="version counter broken"):
            mishgrad.mish_(x)
        assert sys.getrefcount(x) == refs


def test_not_on_the_cpu(fake):
    x = FakeTensor(data(4), cpu=False)
    with pytest.raises(TypeError) as e:
        mishgrad.mish_backward(FakeTensor(data(4)), x)
    assert str(e.value) == "mishgrad: x is on device 'fakedevice:3'; only CPU tensors are taken"
    # the device asked for the message is given back (seed 59: mg_operand.c kept it)
    del e
    refs = sys.getrefcount(x.device_value)
    for _ in range(3):
        with pytest.raises(TypeError, match="only CPU tensors are taken"):
            mishgrad.mish_backward(FakeTensor(data(4)), x)
    after = sys.getrefcount(x.device_value)  # outside the assert: its rewriting holds a reference
    assert after == refs
    x = FakeTensor(data(4), cpu=BadBool())
    with pytest.raises(ZeroDivisionError):
        mishgrad.mish_backward(x, FakeTensor(data(4)))


@pytest.mark.parametrize("what", ["is_cpu", "dtype", "shape", "stride", "untyped_storage", "storage.data_ptr",
                                  "storage.nbytes"])
def test_a_failing_attribute_propagates_as_is(fake, what):
    out = FakeTensor(np.zeros(4, np.float32))
    x = FakeTensor(data(4), fail=what)
    refs = [sys.getrefcount(o) for o in (out, x)]
    with pytest.raises(RuntimeError, match=what + " failed"):
        mishgrad.mish_backward(FakeTensor(data(4)), x, out=out)
    assert out.a.tolist() == [0.0] * 4 and fake.bumped == []
    assert [sys.getrefcount(o) for o in (out, x)] == refs


def test_a_tensor_whose_data_ptr_fails_says_it_has_no_memory(fake):
    x = FakeTensor(data(4), fail="data_ptr")
    with pytest.raises(TypeError) as e:
        mishgrad.mish_backward(FakeTensor(data(4)), x)
    assert str(e.value).startswith("mishgrad: x has no memory of its own (a torch.vmap / torch.func batched")
    assert "use torch.nn.functional.mish inside it" in str(e.value)
    cause = e.value.__cause__
    assert isinstance(cause, RuntimeError) and str(cause) == "data_ptr failed"


def test_a_negative_data_ptr_is_an_overflow(fake):
    x = FakeTensor(data(4), ptr=-8)
    with pytest.raises(OverflowError):
        mishgrad.mish_backward(FakeTensor(data(4)), x)


@pytest.mark.parametrize("what, error", [("storage.negative", OverflowError), ("storage.nbytes_type", TypeError)])
def test_a_storage_that_answers_no_address_or_size(fake, what, error):
    x = FakeTensor(data(4), fail=what)
    out = FakeTensor(np.zeros(4, np.float32))
    before = [sys.getrefcount(o) for o in (x, out)]
    with pytest.raises(error):
        mishgrad.mish_backward(FakeTensor(data(4)), x, out=out)
    assert out.a.tolist() == [0.0] * 4 and fake.bumped == []
    assert [sys.getrefcount(o) for o in (x, out)] == before


def test_shapes_and_strides_that_are_not_integers(fake):
    with pytest.raises(TypeError):
        mishgrad.mish_backward(FakeTensor(data(4)), FakeTensor(data(4), shape=(4.0,)))
    with pytest.raises(TypeError):
        mishgrad.mish_backward(FakeTensor(data(4)), FakeTensor(data(4), stride=("1",)))


def test_more_than_64_dimensions_or_a_stride_per_dimension_missing(fake):
    with pytest.raises(ValueError) as e:
        mishgrad.mish_backward(FakeTensor(data(1)), FakeTensor(data(1), shape=(1,) * 65, stride=(1,) * 65))
    assert str(e.value) == "mishgrad: x has 65 dimensions (at most 64)"
    with pytest.raises(ValueError) as e:
        mishgrad.mish_backward(FakeTensor(data(4), stride=(1, 1)), FakeTensor(data(4)))
    assert str(e.value) == "mishgrad: grad_output has 1 dimensions (at most 64)"
    # 64 is taken: the library then judges it (ranks past 8: its 161002)
    a = FakeTensor(data(1), shape=(1,) * 64, stride=(1,) * 64)
    with pytest.raises(mishgrad.AclnnError) as e:
        mishgrad.mish_backward(a, a)
    assert e.value.status == 161002


def test_an_unhashable_dtype_propagates_the_lookup_s_error(fake):
    """The dtype table lookup fails (an unhashable dtype): that TypeError reaches the caller
    as it is, and nothing runs."""
    x = FakeTensor(data(4), dtype=["not", "hashable"])
    out = FakeTensor(np.zeros(4, np.float32))
    before = refs_of(x, out)
    with pytest.raises(TypeError, match="unhashable type: 'list'"):
        mishgrad.mish_backward(FakeTensor(data(4)), x, out=out)
    assert out.a.tolist() == [0.0] * 4 and fake.bumped == []
    assert "element_size" not in x.asked and "shape" not in x.asked
    assert refs_of(x, out) == before


def refs_of(*objs):
    return [sys.getrefcount(o) for o in objs]


def test_a_dtype_not_in_the_table_is_the_library_s_refusal(fake):
    """A dtype the package has no CANN name for goes as DT_UNDEFINED with its element size:
    the library refuses it (161002); the element size must be an integer."""
    x = FakeTensor(data(4).view(np.int32), dtype=ODD)
    with pytest.raises(mishgrad.AclnnError) as e:
        mishgrad.mish_backward(x, x)
    assert e.value.status == 161002
    assert "element_size" in x.asked
    bad = FakeTensor(data(4), dtype=ODD, fail="element_size_type")
    with pytest.raises(TypeError):
        mishgrad.mish_backward(bad, bad)
    bad = FakeTensor(data(4), dtype=ODD, fail="element_size")
    with pytest.raises(RuntimeError, match="element_size failed"):
        mishgrad.mish_backward(bad, bad)


def test_table_dtypes_reach_the_library(fake):
    """float16 from the table runs as float16; float64 and int32 are refused by the
    library in its words (float64 with the package's hint)."""
    x16 = FakeTensor(data(8, dtype=np.float16))
    y = mishgrad.mish_backward(x16, x16)
    assert y.a.dtype == np.float16
    check_backward(y.a, x16.a, x16.a, "float16")
    x64 = FakeTensor(data(4, dtype=np.float64))
    with pytest.raises(mishgrad.AclnnError) as e:
        mishgrad.mish_backward(x64, x64)
    assert e.value.status == 161002 and "DOUBLE" in str(e.value) and "convert float64 data to float32" in str(e.value)
    xi = FakeTensor(np.arange(4, dtype=np.int32))
    with pytest.raises(mishgrad.AclnnError) as e:
        mishgrad.mish_backward(xi, xi)
    assert e.value.status == 161002 and "INT32" in str(e.value)
    assert "element_size" not in xi.asked


def test_mixed_dtypes_in_the_table_are_refused(fake):
    with pytest.raises(mishgrad.AclnnError) as e:
        mishgrad.mish_backward(FakeTensor(data(4, dtype=np.float16)), FakeTensor(data(4)))
    assert e.value.status == 161002


# ---- references: nothing kept, nothing lost --------------------------------------------------

def test_no_reference_kept_or_lost(fake):
    g, x = FakeTensor(data(16, -1, 1)), FakeTensor(data(16))
    out = FakeTensor(np.zeros(16, np.float32))
    objs = [g, x, out, out.a, x.a, F32, STRIDED, fake.hook]
    loose = [None, True, False]  # used everywhere: a leak shows as hundreds, noise as tens
    mishgrad.mish_backward(g, x, out=out)
    fake.bumped.clear()
    gc.collect()  # other tests' stand-ins let go of F32 and STRIDED now, not in the middle
    before = [sys.getrefcount(o) for o in objs]
    loose_before = [sys.getrefcount(o) for o in loose]
    for _ in range(100):
        assert mishgrad.mish_backward(g, x, out=out) is out
        y = mishgrad.mish_backward(g, x)
        del y
        if _mishgrad.HAVE_FORWARD:
            mishgrad.mish_(out)
            mishgrad.mish(x, out=out)
    fake.bumped.clear()  # the recorder's own references
    gc.collect()
    after = [sys.getrefcount(o) for o in objs]
    assert after == before
    for o, b in zip(loose, loose_before):
        # 400 calls: one reference per call kept (or lost) would move it by 400
        assert -250 < sys.getrefcount(o) - b < 200, (o, b, sys.getrefcount(o))


class Size(int):
    """An element size whose references can be counted (small ints are shared)."""


class KeptStorage(FakeStorage):
    """A storage that hands out the same address and size objects each time."""

    def __init__(self, root):
        super().__init__(root)
        self.ptr = Size(root.__array_interface__["data"][0])
        self.size = Size(root.nbytes)

    def data_ptr(self):
        return self.ptr

    def nbytes(self):
        return self.size


def test_the_tensor_s_answers_are_let_go(fake):
    """What the extension asks a tensor for (its shape and strides tuples, its storage, the
    flags) is released after each call: the same objects handed out again and again keep
    their reference counts, and the heap does not grow over many calls."""
    import tracemalloc

    class Keeping(FakeTensor):
        """Hands out the same answer objects each time, so their counts can be read."""

        def __init__(self, a, **kw):
            super().__init__(a, **kw)
            self.kept_shape = tuple(a.shape)
            self.kept_stride = tuple(st // a.itemsize for st in a.strides)
            self.kept_storage = KeptStorage(self.root)
            self.kept_size = Size(a.itemsize)  # asked for a dtype off the table

        def _maybe_fail(self, what):
            pass  # no record of the questions: that list would grow

        def element_size(self):
            return self.kept_size

        @property
        def shape(self):
            return self.kept_shape

        def stride(self):
            return self.kept_stride

        def untyped_storage(self):
            return self.kept_storage

    fake.grad = True
    g, x = Keeping(data(8, -1, 1)), Keeping(data(8))
    out = Keeping(np.zeros(8, np.float32))
    odd = Keeping(data(8), dtype=ODD)
    answers = [g.kept_shape, g.kept_stride, g.kept_storage, x.kept_shape, x.kept_stride, out.kept_shape,
               out.kept_storage, odd.kept_size, g.kept_storage.ptr, g.kept_storage.size, out.kept_storage.ptr,
               out.kept_storage.size]

    def calls(n):
        for _ in range(n):
            mishgrad.mish_backward(g, x, out=out)
            mishgrad.mish_backward(g, x)
            for bad in (lambda: mishgrad.mish_backward(g, x, out=FakeTensor(np.zeros(8, np.float64))),
                        lambda: mishgrad.mish_backward(odd, odd)):
                try:
                    bad()
                except mishgrad.AclnnError:
                    pass
        fake.bumped.clear()
    calls(5)
    gc.collect()
    before = [sys.getrefcount(o) for o in answers]
    tracemalloc.start()
    try:
        heap = tracemalloc.get_traced_memory()[0]
        calls(300)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - heap
    finally:
        tracemalloc.stop()
    assert [sys.getrefcount(o) for o in answers] == before
    # 1200 calls: one small object kept per call would be 40 KB or more
    assert grown < 20_000, "%d bytes kept over 1200 calls" % grown


def test_hooked_calls_keep_no_reference(fake):
    fake.grad = 2
    g, x = FakeTensor(data(4)), FakeTensor(data(4))
    mishgrad.mish_backward(g, x)
    fake.calls.clear()
    before = [sys.getrefcount(o) for o in (g, x)]
    for _ in range(20):
        mishgrad.mish_backward(g, x)
    fake.calls.clear()
    assert [sys.getrefcount(o) for o in (g, x)] == before


# ---- _set_torch_hooks and _bind refuse what they cannot use ------------------------------

def test_set_torch_hooks_refusals(fake):
    ok = fake.hook("m")
    with pytest.raises(TypeError, match="the hooks must be callable"):
        _mishgrad._set_torch_hooks(ok, 3, ok, ok, STRIDED, None)
    with pytest.raises(TypeError, match="the hooks must be callable"):
        _mishgrad._set_torch_hooks(ok, ok, 3, ok, STRIDED, None)
    with pytest.raises(TypeError, match="the hooks must be callable"):
        _mishgrad._set_torch_hooks(3, ok, ok, ok, STRIDED, None)
    with pytest.raises(TypeError, match="is_grad_enabled and bump must be callable"):
        _mishgrad._set_torch_hooks(ok, ok, ok, 3, STRIDED, None)
    with pytest.raises(TypeError, match="is_grad_enabled and bump must be callable"):
        _mishgrad._set_torch_hooks(ok, ok, ok, ok, STRIDED, 3)
    with pytest.raises(TypeError):
        _mishgrad._set_torch_hooks(ok, ok, ok, ok, STRIDED)


def test_set_torch_hooks_holds_its_references(fake):
    hooks = [lambda *a, **k: "a", lambda *a, **k: "b", lambda *a, **k: "c"]
    grad, strided, bump = (lambda: 2), object(), (lambda t: None)
    objs = hooks + [grad, strided, bump]
    before = [sys.getrefcount(o) for o in objs]
    _mishgrad._set_torch_hooks(*hooks, grad, strided, bump)
    assert [sys.getrefcount(o) for o in objs] == [b + 1 for b in before]
    assert mishgrad.mish_backward(FakeTensor(data(2)), FakeTensor(data(2))) == "c"
    if _mishgrad.HAVE_FORWARD:
        assert mishgrad.mish(FakeTensor(data(2))) == "a"
        assert mishgrad.mish_(FakeTensor(data(2))) == "b"
    # replaced: the old ones are let go
    _mishgrad._set_torch_hooks(fake.hook("m"), fake.hook("m_"), fake.hook("mb"), fake.grad_enabled, STRIDED, None)
    assert [sys.getrefcount(o) for o in objs] == before


def test_bind_holds_its_references_and_lets_go(fake):
    class E(mishgrad.AclnnError):
        pass
    dtypes = dict(DTYPES)
    def empty_like(t):
        return FakeTensor(np.empty_like(t.a))
    objs = [E, dtypes, empty_like]
    before = [sys.getrefcount(o) for o in objs]
    _mishgrad._bind(E, np.ndarray, np.generic, np.empty_like, FakeTensor, empty_like, dtypes, "untyped_storage")
    assert [sys.getrefcount(o) for o in objs] == [b + 1 for b in before]
    with pytest.raises(E):
        mishgrad.mish_backward(data(2).astype(np.float64), data(2).astype(np.float64))
    _mishgrad._bind(mishgrad.AclnnError, np.ndarray, np.generic, np.empty_like, FakeTensor, fake_empty_like,
                    DTYPES, "untyped_storage")
    assert [sys.getrefcount(o) for o in objs] == before
    with pytest.raises(TypeError):
        _mishgrad._bind(mishgrad.AclnnError)


def test_the_storage_method_name_is_the_one_bound(fake):
    class OldTensor(FakeTensor):
        def untyped_storage(self):
            raise AssertionError("the bound name is _storage")

        def _storage(self):
            return FakeStorage(self.root)
    _mishgrad._bind(mishgrad.AclnnError, np.ndarray, np.generic, np.empty_like, OldTensor,
                    lambda t: OldTensor(np.empty_like(t.a)), DTYPES, "_storage")
    g, x = OldTensor(data(5)), OldTensor(data(5))
    y = mishgrad.mish_backward(g, x)
    check_backward(y.a, g.a, x.a, "float32")

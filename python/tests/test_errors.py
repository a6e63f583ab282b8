"""Failures: mishgrad.AclnnError carries CANN's status and the library's message, and
nothing is written. Dtypes the library does not take reach it and come back as 161002."""
import numpy as np
import pytest

import mishgrad
from conftest import needs_forward

SENTINEL = 777.0


def sentinel(shape, dtype=np.float32):
    return np.full(shape, SENTINEL, dtype)


def test_error_type():
    assert issubclass(mishgrad.AclnnError, RuntimeError)


@pytest.mark.parametrize("dtype, acl_name", [(np.float64, "DOUBLE"), (np.int32, "INT32"),
                                              (np.int64, "INT64"), (np.int8, "INT8"),
                                              (np.uint8, "UINT8"), (np.bool_, "BOOL")])
def test_unsupported_dtype_is_the_library_161002(dtype, acl_name):
    g = np.ones(8, dtype)
    x = np.ones(8, dtype)
    out = sentinel(8).astype(dtype)
    before = out.copy()
    with pytest.raises(mishgrad.AclnnError) as info:
        mishgrad.mish_backward(g, x, out=out)
    e = info.value
    assert e.status == 161002
    assert e.api == "aclnnMishBackwardGetWorkspaceSize"
    text = str(e)
    assert acl_name in text and "gradOutput" in text, text
    np.testing.assert_array_equal(out, before)


@needs_forward
@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_forward_unsupported_dtype(dtype):
    x = np.ones(8, dtype)
    out = np.full(8, 5, dtype)
    with pytest.raises(mishgrad.AclnnError) as info:
        mishgrad.mish(x, out=out)
    assert info.value.status == 161002
    assert info.value.api == "aclnnMishGetWorkspaceSize"
    assert "dtype" in str(info.value).lower()
    assert (out == 5).all()
    with pytest.raises(mishgrad.AclnnError) as info:
        mishgrad.mish_(x)
    assert info.value.status == 161002
    assert info.value.api == "aclnnInplaceMishGetWorkspaceSize"
    assert (x == 1).all()


def test_dtypes_unequal():
    out = sentinel(4)
    with pytest.raises(mishgrad.AclnnError) as info:
        mishgrad.mish_backward(np.ones(4, np.float16), np.ones(4, np.float32), out=out)
    assert info.value.status == 161002
    assert "dtype" in str(info.value).lower()
    assert (out == SENTINEL).all()


def test_shapes_unequal():
    out = sentinel((2, 3))
    with pytest.raises(mishgrad.AclnnError) as info:
        mishgrad.mish_backward(np.ones((2, 3), np.float32), np.ones((3, 2), np.float32), out=out)
    assert info.value.status == 161002
    assert "shape" in str(info.value).lower()
    assert (out == SENTINEL).all()


def test_rank_nine_is_refused_by_the_library():
    shape = (1,) * 9
    with pytest.raises(mishgrad.AclnnError) as info:
        mishgrad.mish_backward(np.ones(shape, np.float32), np.ones(shape, np.float32))
    assert info.value.status == 161002
    assert "rank" in str(info.value).lower() or "dim" in str(info.value).lower()


def test_negative_strides_that_disagree_reach_the_library():
    """Where operands run in opposite directions along an axis no re-basing can pair them
    without a copy: the negative stride goes to the library, which refuses it."""
    x = np.arange(8, dtype=np.float32)
    g = np.ones(8, np.float32)
    out = sentinel(8)
    with pytest.raises(mishgrad.AclnnError) as info:
        mishgrad.mish_backward(g, x[::-1], out=out)
    assert info.value.status == 161002
    assert "stride" in str(info.value).lower()
    assert (out == SENTINEL).all()


def test_overlapping_output_is_refused():
    buf = np.zeros(16, np.float32)
    x = np.ones(8, np.float32)
    # Two output elements on one address (zero stride).
    out = np.lib.stride_tricks.as_strided(buf, shape=(8,), strides=(0,))
    with pytest.raises(mishgrad.AclnnError) as info:
        mishgrad.mish_backward(x, x, out=out)
    assert info.value.status == 161002
    assert (buf == 0).all()


def test_package_level_argument_errors():
    x = np.ones(4, np.float32)
    with pytest.raises(TypeError):
        mishgrad.mish_backward([1.0, 2.0], x)
    with pytest.raises(TypeError):
        mishgrad.mish_backward(x)
    with pytest.raises(TypeError):
        mishgrad.mish_backward(x, x, bogus=x)
    ro = np.ones(4, np.float32)
    ro.flags.writeable = False
    with pytest.raises((ValueError, BufferError)):
        mishgrad.mish_backward(x, x, out=ro)
    assert (ro == 1).all()
    with pytest.raises(TypeError):
        mishgrad.mish_backward(x, np.ones(4, ">f4"))


def test_keywords():
    g = np.full(3, 2.0, np.float32)
    x = np.zeros(3, np.float32)
    out = np.empty(3, np.float32)
    assert mishgrad.mish_backward(grad_output=g, x=x, out=out) is out
    np.testing.assert_allclose(out, 1.2, rtol=1e-6)
    assert mishgrad.mish_backward(g, x, out=None).shape == (3,)


def test_works_after_an_error():
    with pytest.raises(mishgrad.AclnnError):
        mishgrad.mish_backward(np.ones(3), np.ones(3))
    y = mishgrad.mish_backward(np.full(3, 2.0, np.float32), np.zeros(3, np.float32))
    np.testing.assert_allclose(y, 1.2, rtol=1e-6)


def test_torch_dtype_the_package_does_not_know():
    """A torch dtype outside the package's table (complex32: 4 bytes an element, like float32)
    reaches the library as ACL_DT_UNDEFINED and is refused, never computed as float32."""
    torch = pytest.importorskip("torch")
    dtype = getattr(torch, "complex32", None)
    if dtype is None:
        pytest.skip("this torch has no complex32")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "ComplexHalf support is experimental"
        x = torch.zeros(8, dtype=dtype)
        out = torch.zeros(8, dtype=dtype)
    assert x.element_size() == 4
    before = out.view(torch.int32).clone()
    with pytest.raises(mishgrad.AclnnError) as info:
        mishgrad.mish(x, out=out)
    assert info.value.status == 161002
    assert "UNDEFINED" in str(info.value) or "dtype" in str(info.value).lower()
    assert torch.equal(out.view(torch.int32), before)


@pytest.mark.parametrize("dtype", ["float64", "int32", "int64"])
def test_torch_unsupported_dtype(dtype):
    torch = pytest.importorskip("torch")
    dtype = getattr(torch, dtype)
    g = torch.ones(8, dtype=dtype)
    out = torch.full((8,), 3, dtype=dtype)
    with pytest.raises(mishgrad.AclnnError) as info:
        mishgrad.mish_backward(g, g, out=out)
    assert info.value.status == 161002
    assert (out == 3).all()

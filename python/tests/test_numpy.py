"""NumPy arrays: values against float64 for every dtype and for views; out= and in-place
identity; nothing outside a view changes."""
import numpy as np
import pytest

import mishgrad
from conftest import check_backward, check_forward, needs_forward, sample

DTYPES = [np.float32, np.float16]
SENTINEL = 1234.5  # exact in float16 too


def name(dtype):
    return np.dtype(dtype).name


# ---- contiguous values -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 7, 64, 1000, 70001])
def test_backward_values(rng, dtype, n):
    g = sample(rng, n, 2.0).astype(dtype)
    x = sample(rng, n).astype(dtype)
    y = mishgrad.mish_backward(g, x)
    assert type(y) is np.ndarray and y.dtype == dtype and y.shape == (n,)
    check_backward(y, g, x, name(dtype))


def test_backward_doc_values():
    g = np.array([0, 1, 2, 3, 4, 5, 6, 7], np.float32)
    x = np.array([1, 1, 1, 2, 2, 2, 3, 3], np.float32)
    expected = [0, 1.049036, 2.098072, 3.207954, 4.277272, 5.346590, 6.126641, 7.147748]
    np.testing.assert_allclose(mishgrad.mish_backward(g, x), expected, rtol=2e-6, atol=1e-6)


@needs_forward
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 7, 64, 1000, 70001])
def test_forward_values(rng, dtype, n):
    x = sample(rng, n).astype(dtype)
    y = mishgrad.mish(x)
    assert type(y) is np.ndarray and y.dtype == dtype and y.shape == (n,)
    check_forward(y, x, name(dtype))


@needs_forward
@pytest.mark.parametrize("dtype", DTYPES)
def test_inplace_values(rng, dtype):
    x = sample(rng, (33, 17)).astype(dtype)
    before = x.copy()
    r = mishgrad.mish_(x)
    assert r is x
    check_forward(x, before, name(dtype))


# ---- views: transposed, sliced, stepped, offset -------------------------------------------

def views(base):
    """(label, view) pairs over a 3-D base array; every view is a no-copy view."""
    return [
        ("transposed", base[0].T),
        ("permuted", base.transpose(2, 0, 1)),
        ("sliced", base[1:3, 2:-1, 3:9]),
        ("stepped", base[::2, 1::3, ::4]),
        ("offset", base.reshape(-1)[37:37 + 120].reshape(8, 15)),
        ("sliced transposed", base[1, 1:-2, ::2].T),
        ("column", base[:, :, 5]),
        ("reversed", base[::-1, :, ::-2]),
    ]


def guarded(shape, dtype):
    return np.full(shape, SENTINEL, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_backward_views(rng, dtype):
    shape = (4, 9, 16)
    gbase = sample(rng, shape, 2.0).astype(dtype)
    xbase = sample(rng, shape).astype(dtype)
    for (label, g), (_, x) in zip(views(gbase), views(xbase)):
        assert np.shares_memory(g, gbase), label
        obase = guarded(shape, dtype)
        out = [v for lab, v in views(obase) if lab == label][0]
        mask = np.zeros(shape, bool)
        [v for lab, v in views(mask) if lab == label][0][...] = True
        r = mishgrad.mish_backward(g, x, out=out)
        assert r is out, label
        check_backward(out, g, x, name(dtype))
        assert (obase[~mask] == SENTINEL).all(), f"{label}: written outside the view"
        # And with a new result: the input's type, the same values.
        fresh = mishgrad.mish_backward(g, x)
        assert type(fresh) is np.ndarray and fresh.shape == x.shape and fresh.dtype == dtype
        np.testing.assert_array_equal(fresh, out, err_msg=label)


@needs_forward
@pytest.mark.parametrize("dtype", DTYPES)
def test_forward_views(rng, dtype):
    shape = (4, 9, 16)
    xbase = sample(rng, shape).astype(dtype)
    for label, x in views(xbase):
        obase = guarded(shape, dtype)
        out = [v for lab, v in views(obase) if lab == label][0]
        mask = np.zeros(shape, bool)
        [v for lab, v in views(mask) if lab == label][0][...] = True
        assert mishgrad.mish(x, out=out) is out
        check_forward(out, x, name(dtype))
        assert (obase[~mask] == SENTINEL).all(), f"{label}: written outside the view"
        fresh = mishgrad.mish(x)
        np.testing.assert_array_equal(fresh, out, err_msg=label)


@needs_forward
@pytest.mark.parametrize("dtype", DTYPES)
def test_inplace_touches_only_the_view(rng, dtype):
    shape = (4, 9, 16)
    for index in range(len(views(np.zeros(shape)))):
        base = sample(rng, shape).astype(dtype)
        original = base.copy()
        label, v = views(base)[index]
        mask = np.zeros(shape, bool)
        views(mask)[index][1][...] = True
        expected_input = v.copy()
        assert mishgrad.mish_(v) is v
        check_forward(v, expected_input, name(dtype))
        np.testing.assert_array_equal(base[~mask], original[~mask], err_msg=label)


def test_broadcast_input(rng):
    """An input with zero strides (np.broadcast_to) is read as it is."""
    x = sample(rng, 16).astype(np.float32)
    g = np.broadcast_to(np.float32(0.75), (5, 16))
    xb = np.broadcast_to(x, (5, 16))
    y = mishgrad.mish_backward(g, xb)
    check_backward(y, g, xb, "float32")


@pytest.mark.parametrize("rank", range(0, 9))
def test_ranks(rng, rank):
    shape = tuple([2, 3, 1, 2, 2, 1, 3, 2][:rank])
    g = sample(rng, shape, 2.0).astype(np.float32)
    x = sample(rng, shape).astype(np.float32)
    # A transposed view at every rank >= 2 as well.
    for gg, xx in [(g, x), (g.T, x.T)]:
        y = mishgrad.mish_backward(gg, xx)
        assert y.shape == xx.shape
        check_backward(y, gg, xx, "float32")


def test_rank0_is_a_scalar_array():
    y = mishgrad.mish_backward(np.array(2.0, np.float32), np.array(0.0, np.float32))
    assert y.shape == () and abs(float(y) - 1.2) < 1e-6  # mish'(0) = 0.6


def test_empty():
    g = np.zeros((0, 5), np.float32)
    y = mishgrad.mish_backward(g, g)
    assert y.shape == (0, 5)


# ---- out= and in-place identity --------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_out_identity_and_aliasing(rng, dtype):
    g = sample(rng, (6, 7), 2.0).astype(dtype)
    x = sample(rng, (6, 7)).astype(dtype)
    expected = mishgrad.mish_backward(g, x)
    out = np.empty_like(x)
    addr = out.__array_interface__["data"][0]
    assert mishgrad.mish_backward(g, x, out=out) is out
    assert out.__array_interface__["data"][0] == addr
    np.testing.assert_array_equal(out, expected)
    # The gradient written over grad_output, then over x (in-place use of the output).
    g2, x2 = g.copy(), x.copy()
    assert mishgrad.mish_backward(g2, x2, out=g2) is g2
    np.testing.assert_array_equal(g2, expected)
    g3, x3 = g.copy(), x.copy()
    assert mishgrad.mish_backward(g3, x3, out=x3) is x3
    np.testing.assert_array_equal(x3, expected)


@needs_forward
def test_forward_out_is_input(rng):
    x = sample(rng, 100).astype(np.float32)
    expected = mishgrad.mish(x)
    assert mishgrad.mish(x, out=x) is x
    np.testing.assert_array_equal(x, expected)


def test_no_copy_small_arrays_sharing_pages(rng):
    """Many small arrays live in the same pages; each result lands in its own array."""
    xs = [sample(rng, 3).astype(np.float32) for _ in range(50)]
    gs = [np.full(3, i, np.float32) for i in range(50)]
    outs = [np.empty(3, np.float32) for _ in range(50)]
    for g, x, o in zip(gs, xs, outs):
        assert mishgrad.mish_backward(g, x, out=o) is o
    for g, x, o in zip(gs, xs, outs):
        check_backward(o, g, x, "float32")


def test_registrations_kept_between_calls_and_overlaps(rng):
    """Registrations stay (idle) between calls; a later buffer whose pages overlap an idle
    one partially, or a call with one range inside it and another across its edge, still
    works; release_registrations drops them."""
    raw = bytearray(1 << 16)
    page = 4096

    def arr(offset, count):
        # np.frombuffer over a bytearray: the array is its own storage (its base is no ndarray).
        return np.frombuffer(raw, np.float32, count=count, offset=offset)

    a = arr(2 * page + 64, 100)          # pages [2, 3)
    a[:] = sample(rng, 100)
    g = np.full(100, 0.5, np.float32)
    expected = mishgrad.mish_backward(g, a.copy())
    np.testing.assert_array_equal(mishgrad.mish_backward(g, a), expected)
    b = arr(page + 128, 3000)            # pages [1, 4): overlaps a's registration partially
    b[:] = sample(rng, 3000)
    gb = np.ones(3000, np.float32)
    np.testing.assert_array_equal(mishgrad.mish_backward(gb, b), mishgrad.mish_backward(gb, b.copy()))
    small = arr(2 * page + 1024, 10)     # inside b's pages; its output crosses into page 5
    out = arr(4 * page + 4000, 10)
    mishgrad.mish_backward(np.ones(10, np.float32), small, out=out)
    np.testing.assert_array_equal(out, mishgrad.mish_backward(np.ones(10, np.float32), small.copy()))
    mishgrad.release_registrations()
    np.testing.assert_array_equal(mishgrad.mish_backward(g, a), mishgrad.mish_backward(g, a.copy()))

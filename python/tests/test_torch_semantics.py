"""What torch's own operators do around the memory, held against torch itself: version
counters of the tensors written, torch's in-place and out= rules under autograd,
negative-bit views, non-strided layouts, double backward, autograd on the plain entry
points. References are torch's own behaviour or float64 values computed here."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import mishgrad  # noqa: E402
import mishgrad.torch as mt  # noqa: E402
from conftest import EPS, TINY, check_backward, check_forward, needs_forward  # noqa: E402

F = torch.nn.functional
MODIFIED = "modified by an inplace operation"


def f64(t):
    return t.detach().to(torch.float64).numpy()


def randn(shape, dtype=torch.float32, scale=3.0, seed=0):
    gen = torch.Generator().manual_seed(seed)
    return (torch.randn(shape, generator=gen, dtype=torch.float64) * scale).to(dtype)


def mish_ref64(x):
    x = x.detach().to(torch.float64)
    return x * torch.tanh(F.softplus(x))


def grads_ref64(x):
    """mish'(x) by torch's float64 autograd of x * tanh(softplus(x))."""
    x64 = x.detach().to(torch.float64).requires_grad_()
    (d1,) = torch.autograd.grad((x64 * torch.tanh(F.softplus(x64))).sum(), x64)
    return d1.numpy()


def mish_second64(x):
    """mish''(x) in float64, written with e = exp(x) alone (|x| <= 300): n = e (e + 2),
    tanh(softplus(x)) = n / (n + 2), 1 - tanh^2 = 4 (n + 1) / (n + 2)^2, sigmoid = e / (1 + e);
    mish'' = (1 - t^2) s (2 + x (1 - s - 2 t s)), 1 - s = 1 / (1 + e)."""
    x = np.asarray(x, np.float64)
    e = np.exp(x)
    n = e * (e + 2)
    t = n / (n + 2)
    sech2 = 4 * (n + 1) / (n + 2) ** 2
    s = e / (1 + e)
    return sech2 * s * (2 + x * (1 / (1 + e) - 2 * t * s))


def test_second_derivative_reference():
    """The reference against central differences of mish' (float64)."""
    x = np.linspace(-12, 12, 241)
    h = 1e-5
    def d1(v):
        v = np.asarray(v, np.float64)
        t = np.tanh(np.logaddexp(0, v))
        return t + v * (1 - t * t) / (1 + np.exp(-v))
    fd = (d1(x + h) - d1(x - h)) / (2 * h)
    assert np.allclose(mish_second64(x), fd, rtol=1e-6, atol=1e-9)


def neg_view(values):
    """A float32 view with the negative bit set, reached through public API: conj().imag
    of a complex tensor (its storage holds -values)."""
    c = torch.complex(torch.zeros_like(values), -values.to(torch.float32))
    v = c.conj().imag
    assert v.is_neg() and torch.equal(v, values.to(torch.float32))
    return v


# ---- 1. version counters ------------------------------------------------------------------

@needs_forward
def test_mish_inplace_counts_the_version_like_torch():
    for fn in (lambda t: F.mish(t, inplace=True), mishgrad.mish_, lambda t: mt.mish(t, True)):
        t = randn(5)
        v = t._version
        fn(t)
        assert t._version == v + 1
    # A view shares its base's counter.
    base = randn((4, 6))
    v = base._version
    mishgrad.mish_(base[1:3, ::2])
    assert base._version == v + 1


@needs_forward
def test_out_counts_the_version_like_torch():
    x = randn(6)
    o = torch.zeros(6)
    v = o._version
    torch.exp(x, out=o)
    assert o._version == v + 1  # torch's own out= op
    v = o._version
    mishgrad.mish(x, out=o)
    assert o._version == v + 1
    v = o._version
    mishgrad.mish_backward(torch.ones(6), x, out=o)
    assert o._version == v + 1
    v = x._version
    mishgrad.mish_backward(torch.ones(6), x, out=x)  # in place through out=
    assert x._version == v + 1


@needs_forward
@pytest.mark.parametrize("saver", ["mishgrad", "exp"])
@pytest.mark.parametrize("writer", ["mish_", "out", "backward_out"])
def test_writing_a_tensor_saved_for_backward_is_refused_at_backward(saver, writer):
    """torch refuses the backward pass once a tensor it saved has been overwritten; the
    gradient it would give otherwise is silently wrong."""
    def run(write):
        x = randn(4, seed=1).requires_grad_()
        if saver == "mishgrad":
            a = x * 1.0
            loss = mt.mish(a).sum()   # saves a
        else:
            a = torch.exp(x)          # saves its result a
            loss = a.sum() + 0 * x.sum()
        with torch.no_grad():         # out= with autograd is refused outright (see below)
            write(a)
        loss.backward()

    # torch's own in-place op on the saved tensor: refused.
    with pytest.raises(RuntimeError, match=MODIFIED):
        run(lambda a: F.mish(a, inplace=True))
    write = {"mish_": mishgrad.mish_,
             "out": lambda a: mishgrad.mish(torch.ones(4), out=a),
             "backward_out": lambda a: mishgrad.mish_backward(torch.ones(4), torch.ones(4), out=a)}
    with pytest.raises(RuntimeError, match=MODIFIED):
        run(write[writer])


# ---- 2. negative and conjugate bits ---------------------------------------------------------

@needs_forward
def test_negative_bit_input():
    x = randn(64, seed=2)
    nx = neg_view(x)
    check_forward(f64(mishgrad.mish(nx)), f64(x), "float32")
    g = randn(64, seed=3, scale=1.0)
    ng = neg_view(g)
    check_backward(f64(mishgrad.mish_backward(ng, nx)), f64(g), f64(x), "float32")
    check_backward(f64(mishgrad.mish_backward(g, nx)), f64(g), f64(x), "float32")
    # Through autograd, from a complex leaf: the gradient torch's own mish gives.
    grads = []
    for fn in (F.mish, mt.mish):
        c = torch.complex(torch.zeros(64), -x).requires_grad_()
        fn(c.conj().imag).backward(g)
        grads.append(c.grad)
    assert torch.allclose(grads[1], grads[0], rtol=1e-5, atol=1e-6)


@needs_forward
def test_negative_bit_output_and_in_place():
    x = randn(64, seed=4)
    exact = mish_ref64(x).numpy()
    eps = EPS["float32"]
    for label, call in [("out", lambda o: mishgrad.mish(x, out=o)),
                        ("mish_", lambda o: (o.copy_(x), mishgrad.mish_(o))),
                        ("out is input", lambda o: (o.copy_(x), mishgrad.mish(o, out=o)))]:
        c = torch.zeros(64, dtype=torch.complex64)
        o = c.conj().imag
        assert o.is_neg()
        v = o._version
        call(o)
        assert o._version > v, label
        # Read through torch, o holds mish(x); the storage under it holds -mish(x).
        assert np.all(np.abs(f64(o) - exact) <= 4 * eps * np.abs(exact) + 1e-30), label
        assert torch.equal(c.imag, -o), label
    g = randn(64, seed=5, scale=1.0)
    c = torch.zeros(64, dtype=torch.complex64)
    o = c.conj().imag
    mishgrad.mish_backward(g, x, out=o)
    check_backward(f64(o), f64(g), f64(x), "float32")


# ---- 3. torch's in-place and out= rules ------------------------------------------------------

def torch_message(fn):
    with pytest.raises(RuntimeError) as info:
        fn()
    return str(info.value)


@needs_forward
def test_inplace_on_a_leaf_that_requires_grad_is_refused_like_torch():
    expected = torch_message(lambda: F.mish(torch.randn(3, requires_grad=True), inplace=True))
    for fn in (mishgrad.mish_, lambda t: mt.mish(t, inplace=True), mt.Mish(inplace=True)):
        leaf = randn(3).requires_grad_()
        before = leaf.detach().clone()
        assert torch_message(lambda: fn(leaf)) == expected
        assert torch.equal(leaf.detach(), before)  # nothing written
    expected = torch_message(lambda: F.mish(torch.randn(4, requires_grad=True)[:2], inplace=True))
    leaf = randn(4).requires_grad_()
    assert torch_message(lambda: mishgrad.mish_(leaf[:2])) == expected
    a = randn(4).requires_grad_() * 1.0
    with torch.no_grad():
        v = a[:2]
    expected = torch_message(lambda: F.mish(v, inplace=True))
    assert torch_message(lambda: mishgrad.mish_(v)) == expected
    # With grad mode off, torch lets it through (as optimizers do); so does mishgrad.
    with torch.no_grad():
        leaf = randn(3).requires_grad_()
        x = leaf.detach().clone()
        mishgrad.mish_(leaf)
    check_forward(f64(leaf), f64(x), "float32")


def test_inplace_on_a_multi_output_view_is_refused_like_torch_before_writing():
    # unbind's outputs may not be modified in place when autograd records them: torch says
    # so in its own words; nothing may be written first.
    def view():
        return (randn((2, 3), seed=21).requires_grad_() * 1.0).unbind(0)[0]
    expected = torch_message(lambda: F.mish(view(), inplace=True))
    assert "UnbindBackward" in expected
    for fn in (mishgrad.mish_, lambda t: mt.mish(t, inplace=True)):
        base = randn((2, 3), seed=21).requires_grad_() * 1.0
        before = base.detach().clone()
        assert torch_message(lambda: fn(base.unbind(0)[0])) == expected
        assert torch.equal(base.detach(), before)  # nothing written


@needs_forward
def test_inplace_on_a_non_leaf_is_recorded_like_torch():
    xs = {}
    for label, fn in [("torch", lambda t: F.mish(t, inplace=True)), ("mishgrad", mishgrad.mish_),
                      ("module", mt.Mish(inplace=True))]:
        x = randn(32, seed=6).requires_grad_()
        a = x * 2.0
        r = fn(a)
        assert r is a and a.grad_fn is not None, label
        a.sum().backward()
        xs[label] = x
    # In place on a view of a non-leaf: the rest of the base passes its gradient on.
    grads = []
    for fn in (lambda t: F.mish(t, inplace=True), mishgrad.mish_):
        x = randn(6, seed=14).requires_grad_()
        a = x * 1.0
        fn(a[1:4])
        (a * torch.arange(6.0)).sum().backward()
        grads.append(x.grad)
    assert torch.allclose(grads[1], grads[0], rtol=1e-5, atol=1e-6)
    x = xs["mishgrad"]
    # d/dx mish(2x) = 2 mish'(2x), against float64
    exact = 2 * grads_ref64(2 * x)
    assert np.allclose(f64(x.grad), exact, rtol=1e-5, atol=1e-6)
    assert np.allclose(f64(xs["module"].grad), exact, rtol=1e-5, atol=1e-6)
    assert np.allclose(f64(xs["torch"].grad), exact, rtol=1e-5, atol=1e-6)


@needs_forward
def test_out_with_autograd_is_refused_like_torch():
    expected = torch_message(lambda: torch.exp(torch.ones(3, requires_grad=True), out=torch.zeros(3)))
    assert "functions with out=... arguments don't support automatic differentiation" in expected
    cases = [
        lambda: mishgrad.mish(torch.ones(3, requires_grad=True), out=torch.zeros(3)),
        lambda: mishgrad.mish(torch.ones(3), out=torch.zeros(3, requires_grad=True)),
        lambda: mishgrad.mish_backward(torch.ones(3, requires_grad=True), torch.ones(3),
                                       out=torch.zeros(3)),
        lambda: mishgrad.mish_backward(torch.ones(3), torch.ones(3, requires_grad=True),
                                       out=torch.zeros(3)),
        lambda: mishgrad.mish(np.ones(3, np.float32), out=torch.zeros(3, requires_grad=True)),
    ]
    for case in cases:
        msg = torch_message(case)
        assert msg.split("(): ", 1)[1] == expected.split("(): ", 1)[1], msg
    with torch.no_grad():  # allowed without grad mode, as torch allows it
        o = torch.zeros(3, requires_grad=True)
        mishgrad.mish(torch.ones(3, requires_grad=True), out=o)
    assert torch.allclose(o.detach(), F.mish(torch.ones(3)))


@needs_forward
def test_inference_tensors_like_torch():
    with torch.inference_mode():
        t = randn(5)
    expected = torch_message(lambda: F.mish(t, inplace=True))
    before = t.clone()
    assert torch_message(lambda: mishgrad.mish_(t)) == expected
    assert torch_message(lambda: mishgrad.mish(torch.ones(5), out=t)) == expected
    assert torch_message(lambda: mishgrad.mish_backward(torch.ones(5), torch.ones(5), out=t)) == expected
    assert torch.equal(t, before)
    # An inference tensor as input is fine, and in-place inside inference mode too.
    check_forward(f64(mishgrad.mish(t)), f64(before), "float32")
    with torch.inference_mode():
        mishgrad.mish_(t)
    check_forward(f64(t), f64(before), "float32")


# ---- 4. double backward ---------------------------------------------------------------------

@needs_forward
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_double_backward(dtype):
    x = torch.cat([randn(200, seed=7, scale=4.0),
                   torch.tensor([0.0, -1.19243, 1.0, -3.0, 8.0, -8.0, 15.0, -15.0])]).to(dtype)
    x.requires_grad_()
    (d1,) = torch.autograd.grad(mishgrad.mish(x).sum(), x, create_graph=True)
    assert d1.requires_grad
    (d2,) = torch.autograd.grad(d1.sum(), x)
    exact = mish_second64(f64(x))
    name = str(dtype).split(".")[1]
    # mish'' rounded once to the dtype.
    assert np.all(np.abs(f64(d2) - exact) <= EPS[name] * np.abs(exact) + TINY[name]), dtype
    # Through mishgrad.torch.mish, with a weight on each second derivative: d2 * w, one
    # rounding more.
    w = randn(x.shape, seed=8, scale=1.0).to(dtype)
    (d1,) = torch.autograd.grad(mt.mish(x).sum(), x, create_graph=True)
    (d2w,) = torch.autograd.grad(d1, x, grad_outputs=w)
    exact = exact * f64(w)
    assert np.all(np.abs(f64(d2w) - exact) <= 2 * EPS[name] * np.abs(exact) + TINY[name]), dtype


@needs_forward
def test_mish_backward_is_differentiable_in_grad_output():
    """d/dg of mish_backward(g, x) = mish'(x)."""
    x = randn(50, seed=9)
    g = randn(50, seed=10, scale=1.0).requires_grad_()
    r = mishgrad.mish_backward(g, x)
    assert r.grad_fn is not None
    r.sum().backward()
    assert np.allclose(f64(g.grad), grads_ref64(x), rtol=1e-5, atol=1e-6)


@needs_forward
def test_gradgradcheck_float32_against_torch_mish():
    """Second-order terms through a small network match torch.nn.Mish's."""
    torch.manual_seed(12)
    data = torch.randn(16, 4)
    results = {}
    for label, act in [("torch", torch.nn.Mish), ("mishgrad", mt.Mish)]:
        torch.manual_seed(13)
        net = torch.nn.Sequential(torch.nn.Linear(4, 8), act(), torch.nn.Linear(8, 1))
        x = data.clone().requires_grad_()
        (gx,) = torch.autograd.grad(net(x).sum(), x, create_graph=True)
        penalty = (gx ** 2).sum()  # a gradient penalty, as in WGAN-GP
        penalty.backward()
        results[label] = net[0].weight.grad.clone()
    assert torch.allclose(results["mishgrad"], results["torch"], rtol=1e-4, atol=1e-6)


# ---- 5. layouts CANN cannot describe --------------------------------------------------------

@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support")
def test_sparse_tensors_are_a_type_error():
    s = torch.ones(3).to_sparse()
    d = torch.ones(3)
    for call in (lambda: mishgrad.mish(s), lambda: mishgrad.mish(d, out=s), lambda: mishgrad.mish_(s),
                 lambda: mishgrad.mish_backward(s, d), lambda: mishgrad.mish_backward(d, s),
                 lambda: mishgrad.mish_backward(d, d, out=s), lambda: mt.mish(s)):
        with pytest.raises(TypeError, match="sparse"):
            call()
    if hasattr(torch, "sparse_csr"):
        with pytest.raises(TypeError, match="strided"):
            mishgrad.mish(torch.ones(2, 2).to_sparse_csr())


# ---- 6. autograd on the plain entry points --------------------------------------------------

@needs_forward
def test_plain_entry_points_record_autograd():
    x = randn(40, seed=11).requires_grad_()
    y = mishgrad.mish(x)
    assert y.grad_fn is not None
    y.sum().backward()
    assert np.allclose(f64(x.grad), grads_ref64(x), rtol=1e-5, atol=1e-6)
    with torch.no_grad():
        assert mishgrad.mish(x).grad_fn is None
    g = torch.ones(40, requires_grad=True)
    assert mishgrad.mish_backward(g, x.detach()).grad_fn is not None
    with torch.no_grad():
        assert mishgrad.mish_backward(g, x).grad_fn is None


# ---- torch.jit.trace and forward-mode AD: the call goes through the autograd Function ------

E32, T32 = EPS["float32"], TINY["float32"]

def test_jit_trace_records_the_function_not_an_empty_tensor():
    """Traced without grad (the fast path would write raw memory that the tracer sees as
    empty_like): the traced module gives mish of new inputs, as torch.nn.Mish's trace does."""
    x_trace, x_new = randn((2, 4), seed=11), randn((3, 5), seed=12)
    traced = torch.jit.trace(mt.Mish(), x_trace, check_trace=False)
    assert "empty_like" not in str(traced.graph)
    np.testing.assert_allclose(traced(x_new).numpy(), mish_ref64(x_new).numpy(), rtol=4 * E32, atol=T32)
    with torch.no_grad():
        net = torch.nn.Sequential(torch.nn.Linear(5, 3), mt.Mish())
        traced_net = torch.jit.trace(net, x_new)
        want = mish_ref64(net[0](x_new)).numpy()
        np.testing.assert_allclose(traced_net(randn((3, 5), seed=12)).numpy(), want, rtol=4 * E32, atol=T32)


@pytest.mark.parametrize("requires_grad", [False, True])
def test_forward_ad_tangent_is_mish_prime_times_tangent(requires_grad):
    fwAD = torch.autograd.forward_ad
    x, v = randn((50,), seed=13), randn((50,), seed=14, scale=1.0)
    want = grads_ref64(x) * f64(v)
    with fwAD.dual_level():
        dual = fwAD.make_dual(x.clone().requires_grad_(requires_grad), v)
        tangent = fwAD.unpack_dual(mt.mish(dual)).tangent
        assert tangent is not None
        np.testing.assert_allclose(f64(tangent), want, rtol=8 * E32, atol=8 * E32)
        # in place: x's own tangent becomes the result's (torch's mish_ does the same)
        if not requires_grad:
            y = x.clone()
            dual = fwAD.make_dual(y, v.clone())
            mt.mish(dual, inplace=True)
            primal, tangent = fwAD.unpack_dual(dual)
            np.testing.assert_allclose(f64(primal), mish_ref64(x).numpy(), rtol=4 * E32, atol=T32)
            np.testing.assert_allclose(f64(tangent), want, rtol=8 * E32, atol=8 * E32)


def test_forward_ad_through_mish_backward():
    """d(g mish'(x)) = dg mish'(x) + g mish''(x) dx, against the float64 references."""
    fwAD = torch.autograd.forward_ad
    x, g = randn((40,), seed=15), randn((40,), seed=16, scale=1.0)
    dx, dg = randn((40,), seed=17, scale=1.0), randn((40,), seed=18, scale=1.0)
    want = f64(dg) * grads_ref64(x) + f64(g) * mish_second64(f64(x)) * f64(dx)
    with fwAD.dual_level():
        out = mt.MishBackwardFunction.apply(fwAD.make_dual(g, dg), fwAD.make_dual(x, dx))
        tangent = fwAD.unpack_dual(out).tangent
    np.testing.assert_allclose(f64(tangent), want, rtol=1e-5, atol=1e-5)


def test_plain_entry_points_trace_and_carry_tangents():
    """mishgrad.mish / mish_backward on torch tensors (the extension's fast path otherwise):
    traced, they replay the library's call; with a forward-mode level open, duals keep their
    tangents; out= under tracing is refused, as the trace could not replay the write."""
    fwAD = torch.autograd.forward_ad
    x_trace, x_new, g = randn((6,), seed=21), randn((9,), seed=22), randn((9,), seed=23, scale=1.0)
    traced = torch.jit.trace(lambda t: mishgrad.mish(t), x_trace, check_trace=False)
    np.testing.assert_allclose(traced(x_new).numpy(), mish_ref64(x_new).numpy(), rtol=4 * E32, atol=T32)
    traced_bw = torch.jit.trace(lambda a, b: mishgrad.mish_backward(a, b), (x_trace, x_trace), check_trace=False)
    np.testing.assert_allclose(f64(traced_bw(g, x_new)), f64(g) * grads_ref64(x_new), rtol=8 * E32, atol=8 * E32)
    with pytest.raises(RuntimeError, match="cannot be traced"):
        torch.jit.trace(lambda t: mishgrad.mish(t, out=torch.empty_like(t)), x_trace, check_trace=False)
    v = randn((9,), seed=24, scale=1.0)
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(mishgrad.mish(fwAD.make_dual(x_new, v))).tangent
        assert tangent is not None
        np.testing.assert_allclose(f64(tangent), grads_ref64(x_new) * f64(v), rtol=8 * E32, atol=8 * E32)
        tangent = fwAD.unpack_dual(mishgrad.mish_backward(fwAD.make_dual(g, v), x_new)).tangent
        assert tangent is not None
        np.testing.assert_allclose(f64(tangent), f64(v) * grads_ref64(x_new), rtol=8 * E32, atol=8 * E32)


def test_jit_trace_of_in_place_mish():
    """The JIT takes no in-place autograd Function: mish_ traces to mish of a copy, then
    copy_, and the traced model replays it (with and without grad), as torch.nn.Mish(inplace=True)."""
    net = torch.nn.Sequential(torch.nn.Linear(8, 16), mt.Mish(inplace=True), torch.nn.Linear(16, 4))
    ref = torch.nn.Sequential(net[0], torch.nn.Mish(inplace=True), net[2])
    traced = torch.jit.trace(net, randn((3, 8), seed=31))
    x = randn((5, 8), seed=32)
    np.testing.assert_allclose(traced(x).detach().numpy(), ref(x).detach().numpy(), rtol=1e-5, atol=1e-6)
    with torch.no_grad():
        np.testing.assert_allclose(traced(x).numpy(), ref(x).numpy(), rtol=1e-5, atol=1e-6)
    traced_fn = torch.jit.trace(lambda t: mishgrad.mish_(t.clone()), randn((4,), seed=33), check_trace=False)
    y = randn((7,), seed=34)
    np.testing.assert_allclose(traced_fn(y).numpy(), mish_ref64(y).numpy(), rtol=4 * E32, atol=T32)


def test_forward_ad_with_out_is_refused_like_torch():
    fwAD = torch.autograd.forward_ad
    with fwAD.dual_level():
        dual = fwAD.make_dual(randn((5,), seed=35), randn((5,), seed=36))
        with pytest.raises(NotImplementedError):
            torch.sigmoid(dual, out=torch.empty(5))  # torch's own rule
        out = torch.full((5,), 7.0)
        with pytest.raises(NotImplementedError, match="forward AD"):
            mishgrad.mish(dual, out=out)
        assert torch.equal(out, torch.full((5,), 7.0))  # nothing written
        with pytest.raises(NotImplementedError, match="forward AD"):
            mishgrad.mish_backward(dual, randn((5,), seed=37), out=torch.empty(5))

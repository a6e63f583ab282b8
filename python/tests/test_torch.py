"""torch CPU tensors: values for float32/float16/bfloat16 and views, autograd against
PyTorch's float64 autograd of x * tanh(softplus(x)), a 40-step training run against
torch.nn.Mish, no_grad, modules."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import mishgrad  # noqa: E402
import mishgrad.torch as mt  # noqa: E402
from conftest import EPS, TINY, check_backward, check_forward, mish_grad_terms64, needs_forward  # noqa: E402

DTYPES = [torch.float32, torch.float16, torch.bfloat16]
NAMES = {torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16"}


def f64(t):
    return t.detach().to(torch.float64).numpy()


def randn(shape, dtype, scale=4.0, seed=0):
    gen = torch.Generator().manual_seed(seed)
    return (torch.randn(shape, generator=gen, dtype=torch.float64) * scale).to(dtype)


def torch_views(base):
    return [
        ("contiguous", base),
        ("transposed", base[0].t()),
        ("permuted", base.permute(2, 0, 1)),
        ("sliced", base[1:3, 2:-1, 3:9]),
        ("stepped", base[::2, 1::3, ::4]),
        ("offset", base.reshape(-1)[37:37 + 120].view(8, 15)),
        ("expanded", base[:, :1, :].expand(4, 9, 16)),
    ]


@pytest.mark.parametrize("dtype", DTYPES)
def test_backward_values_and_views(dtype):
    shape = (4, 9, 16)
    gbase = randn(shape, dtype, 2.0, 1)
    xbase = randn(shape, dtype, 4.0, 2)
    for (label, g), (_, x) in zip(torch_views(gbase), torch_views(xbase)):
        y = mishgrad.mish_backward(g, x)
        assert isinstance(y, torch.Tensor) and y.dtype == dtype and y.shape == x.shape, label
        check_backward(f64(y), f64(g), f64(x), NAMES[dtype])
        if label == "expanded":
            continue
        obase = torch.full(shape, 1234.5, dtype=dtype)
        out = [v for lab, v in torch_views(obase) if lab == label][0]
        mask = torch.zeros(shape, dtype=torch.bool)
        [v for lab, v in torch_views(mask) if lab == label][0].fill_(True)
        ptr = out.data_ptr()
        assert mishgrad.mish_backward(g, x, out=out) is out
        assert out.data_ptr() == ptr
        assert torch.equal(out, y), label
        assert (obase[~mask] == 1234.5).all(), f"{label}: written outside the view"


@needs_forward
@pytest.mark.parametrize("dtype", DTYPES)
def test_forward_values_and_views(dtype):
    shape = (4, 9, 16)
    xbase = randn(shape, dtype, 4.0, 3)
    for label, x in torch_views(xbase):
        y = mishgrad.mish(x)
        assert isinstance(y, torch.Tensor) and y.dtype == dtype and y.shape == x.shape
        check_forward(f64(y), f64(x), NAMES[dtype])
    base = randn(shape, dtype, 4.0, 4)
    original = base.clone()
    v = base[::2, 1::3, ::4]
    expected = mishgrad.mish(v)
    assert mishgrad.mish_(v) is v
    assert torch.equal(v, expected)
    mask = torch.zeros(shape, dtype=torch.bool)
    mask[::2, 1::3, ::4] = True
    assert torch.equal(base[~mask], original[~mask])


def test_mixed_numpy_and_torch():
    g = np.full(4, 2.0, np.float32)
    x = torch.zeros(4)
    y = mishgrad.mish_backward(g, x)
    assert isinstance(y, torch.Tensor)
    assert torch.allclose(y, torch.full((4,), 1.2))


# ---- autograd ---------------------------------------------------------------------------

def reference_autograd(x, g):
    x64 = x.detach().to(torch.float64).requires_grad_()
    y64 = x64 * torch.tanh(torch.nn.functional.softplus(x64))
    y64.backward(g.detach().to(torch.float64))
    return y64.detach().numpy(), x64.grad.numpy()


@needs_forward
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (257,), (8, 33), (2, 3, 4, 5)])
def test_autograd_against_float64(dtype, shape):
    x = randn(shape, dtype, 4.0, 5).requires_grad_()
    g = randn(shape, dtype, 1.0, 6)
    y = mt.mish(x)
    assert y.requires_grad and y.dtype == dtype
    y.backward(g)
    y64, grad64 = reference_autograd(x, g)
    name = NAMES[dtype]
    eps = EPS[name]
    # y against PyTorch's float64 forward.
    assert (np.abs(f64(y) - y64) <= 5 * eps * np.abs(y64) + TINY[name]).all()
    # x.grad against PyTorch's float64 gradient, with the gradient's mixed measure.
    t1, t2 = mish_grad_terms64(f64(g), f64(x))
    bound = 3 * eps * (np.abs(t1) + np.abs(t2)) + 2 * eps * np.abs(grad64) + TINY[name]
    assert (np.abs(f64(x.grad) - grad64) <= bound).all()


@needs_forward
def test_autograd_through_sum_and_views():
    """grad_output arrives expanded (y.sum()) and the input is a transposed view."""
    base = randn((6, 5), torch.float32, 3.0, 7).requires_grad_()
    x = base.t()
    mt.mish(x).sum().backward()
    _, grad64 = reference_autograd(base, torch.ones(6, 5))
    np.testing.assert_allclose(base.grad.numpy(), grad64, rtol=1e-5, atol=1e-6)


@needs_forward
def test_no_grad_and_module():
    m = mt.Mish()
    x = randn((3, 4), torch.float32, 3.0, 8).requires_grad_()
    with torch.no_grad():
        y = m(x)
    assert not y.requires_grad
    check_forward(y.numpy(), f64(x), "float32")
    seq = torch.nn.Sequential(torch.nn.Linear(4, 4), mt.Mish(), torch.nn.Linear(4, 1))
    out = seq(x)
    out.sum().backward()
    assert x.grad is not None and seq[0].weight.grad is not None
    assert "Mish" in repr(seq)
    # inplace=True overwrites when no gradient is needed.
    z = randn((5,), torch.float32, 3.0, 9)
    expected = mishgrad.mish(z)
    assert mt.Mish(inplace=True)(z) is z and torch.equal(z, expected)


def mlp(seed, act):
    torch.manual_seed(seed)
    return torch.nn.Sequential(torch.nn.Linear(8, 32), act(), torch.nn.Linear(32, 32), act(),
                               torch.nn.Linear(32, 1))


@needs_forward
def test_training_matches_torch_nn_mish():
    torch.manual_seed(11)
    data = torch.randn(256, 8)
    target = torch.sin(data.sum(1, keepdim=True))
    losses = {}
    for label, act in [("torch", torch.nn.Mish), ("mishgrad", mt.Mish)]:
        model = mlp(3, act)
        opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        run = []
        for step in range(40):
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(model(data), target)
            loss.backward()
            opt.step()
            run.append(loss.item())
        losses[label] = np.array(run)
    np.testing.assert_allclose(losses["mishgrad"], losses["torch"], rtol=1e-3)
    assert losses["mishgrad"][-1] < losses["mishgrad"][0]  # it learned

"""mishgrad for PyTorch: ``Mish`` (an ``nn.Module``) and ``mish`` (an autograd function),
usable wherever ``torch.nn.Mish`` / ``torch.nn.functional.mish`` are. Forward and backward
both run the library (aclnnMish, aclnnMishBackward) on the tensors' own memory.

This module also carries what torch's own operators do around the memory, for every call
of mishgrad.mish / mish_ / mish_backward that has a torch tensor among its arguments (the
extension hands such calls here): autograd when an input requires grad, torch's in-place
and out= rules, the version counter of every tensor written, and tensors whose negative
or conjugate bit is set (their storage holds -x or conj(x), not x)."""
import torch as _torch

from . import _mishgrad

__all__ = ["Mish", "mish", "MishFunction", "MishBackwardFunction"]

_Tensor = _torch.Tensor
_forward_ad = _torch.autograd.forward_ad
_is_tracing = _torch._C._is_tracing  # torch.jit.is_tracing without its Python layer
_is_grad_enabled = _torch.is_grad_enabled
_graph = getattr(_torch.autograd, "graph", None)
_increment_version = getattr(_graph, "increment_version", None)  # torch >= 2.1
try:
    from torch.fx import Proxy as _fx_proxy
except ImportError:  # torch without fx
    _fx_proxy = None
# functorch's batched tensors (torch.vmap, torch >= 2.0); torch 1.x's own vmap has no such
# test: its tensors fail in the extension, which says the same (no memory of their own).
_functorch_c = getattr(_torch._C, "_functorch", None)
_is_batched_tensor = getattr(_functorch_c, "is_batchedtensor", None)
_is_wrapped_tensor = getattr(_functorch_c, "is_functorch_wrapped_tensor", None)


def _is_batched(t):
    return (_is_batched_tensor is not None and _is_batched_tensor(t)) or \
        (_is_wrapped_tensor is not None and _is_wrapped_tensor(t))


def _bump_version(t):
    """Counts a write into t as an in-place op does, so that autograd refuses a backward
    pass that would read t's old values (saved for backward) as if unchanged."""
    if t.is_inference():
        return  # inference tensors keep no version counter
    if _increment_version is not None:
        _increment_version(t)
    else:
        # copy_ of a tensor onto itself returns at once (ATen's copy_ checks is_same first)
        # but goes through autograd's in-place path, which bumps the version. It records
        # nothing here: a write reaches this point only with grad mode off or into a tensor
        # that does not require grad (the others are refused or go through an autograd
        # Function that marks the tensor dirty), as the extension's own count assumes.
        t.copy_(t)


def _check_layout(t, name):
    if t.layout != _torch.strided:
        raise TypeError(f"mishgrad: {name} is a {t.layout} tensor; CANN describes strided "
                        f"tensors only (convert it with .to_dense())")


def _readable(t, name):
    """t as the library can read it: a tensor whose negative or conjugate bit is set is
    materialized (its storage holds -x or conj(x))."""
    if not isinstance(t, _Tensor):
        return t
    _check_layout(t, name)
    if t.is_neg() or t.is_conj():
        t = t.resolve_conj().resolve_neg()
    return t


def _check_target(t, name):
    _check_layout(t, name)
    if t.is_inference() and not _torch.is_inference_mode_enabled():
        # torch's own words for an in-place op on an inference tensor.
        raise RuntimeError("Inplace update to inference tensor outside InferenceMode is not "
                           "allowed.You can make a clone to get a normal tensor before doing "
                           "inplace update.See https://github.com/pytorch/rfcs/pull/17 for more "
                           "details.")


def _write(raw, inputs, names, out, count=True):
    """raw(*inputs, out=out) on the tensors' memory, as a torch out= op does it: out's
    version counted (count=False: the caller's autograd Function marks it dirty); an out with the negative or conjugate bit is computed into a plain
    tensor and copied in (copy_ stores -y / conj(y) and counts the version)."""
    inputs = [_readable(a, n) for a, n in zip(inputs, names)]
    if not isinstance(out, _Tensor):
        return raw(*inputs, out=out)
    _check_target(out, "out")
    if out.is_neg() or out.is_conj():
        plain = out.resolve_conj().resolve_neg()
        raw(*inputs, out=plain)
        with _torch.no_grad():
            out.copy_(plain)
        return out
    # The version is counted before the write: a view torch refuses to modify in place
    # (an output of unbind, say) raises here, with nothing written.
    if count:
        _bump_version(out)
    raw(*inputs, out=out)
    return out


def _mish_memory(x, out=None, count=True):
    if out is None:
        return _mishgrad._mish(_readable(x, "x"))
    return _write(_mishgrad._mish, (x,), ("x",), out, count)


def _mish_backward_memory(grad_output, x, out=None):
    if out is None:
        return _mishgrad._mish_backward(_readable(grad_output, "grad_output"), _readable(x, "x"))
    return _write(_mishgrad._mish_backward, (grad_output, x), ("grad_output", "x"), out)


def _inplace_mish_memory(x):
    _check_target(x, "x")
    if x.is_neg() or x.is_conj():
        _write(_mishgrad._mish, (x,), ("x",), x)
        return x
    _bump_version(x)  # first, as in _write
    _mishgrad._mish_(x)
    return x


def _mish_second_derivative(x):
    """mish''(x) = sech^2(sp) s (2 + x (sigmoid(-x) - 2 t s)), sp = softplus(x),
    t = tanh(sp), s = sigmoid(x): in float64 (mish has no float64 operator in the library,
    and 1 - t^2 written as such cancels for x > 4 in float32), in torch's own operators so
    that it is differentiable in turn. sech^2 and sigmoid(-x) keep the large-x tail exact."""
    xd = x.double()
    sp = _torch.logaddexp(xd, _torch.zeros_like(xd))
    s = _torch.sigmoid(xd)
    t = _torch.tanh(sp)
    sech2 = _torch.cosh(sp).pow(-2)
    return (sech2 * s * (2 + xd * (_torch.sigmoid(-xd) - 2 * t * s))).to(x.dtype)


class MishBackwardFunction(_torch.autograd.Function):
    """grad_x = grad_output * mish'(x) through aclnnMishBackward, differentiable in both
    arguments (mish's second derivative, for double backward)."""

    @staticmethod
    def forward(ctx, grad_output, x):
        ctx.save_for_backward(grad_output, x)
        ctx.save_for_forward(grad_output, x)
        return _mish_backward_memory(grad_output, x)

    @staticmethod
    def jvp(ctx, grad_output_t, x_t):
        # d(grad_output * mish'(x)) = d(grad_output) mish'(x) + grad_output mish''(x) dx
        grad_output, x = ctx.saved_tensors
        tangent = None
        if grad_output_t is not None:
            tangent = MishBackwardFunction.apply(grad_output_t, x)
        if x_t is not None:
            term = x_t * grad_output * _mish_second_derivative(x)
            tangent = term if tangent is None else tangent + term
        return tangent

    @staticmethod
    def backward(ctx, ggx):
        grad_output, x = ctx.saved_tensors
        d_grad_output = d_x = None
        if ctx.needs_input_grad[0]:
            d_grad_output = MishBackwardFunction.apply(ggx, x)
        if ctx.needs_input_grad[1]:
            d_x = ggx * grad_output * _mish_second_derivative(x)
        return d_grad_output, d_x


class MishFunction(_torch.autograd.Function):
    """y = x * tanh(softplus(x)); the gradient is aclnnMishBackward's (differentiable again)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        return _mish_memory(x)

    @staticmethod
    def jvp(ctx, x_t):
        # forward-mode AD: the tangent is mish'(x) x_t, aclnnMishBackward's product
        (x,) = ctx.saved_tensors
        return MishBackwardFunction.apply(x_t, x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return MishBackwardFunction.apply(grad_output, x)


class _InplaceMishFunction(_torch.autograd.Function):
    """x = mish(x) in place with autograd, as torch's mish_ records it: the backward needs
    the old x, so the caller passes a clone of it (x_old, differentiable) and x's new history
    runs through it."""

    @staticmethod
    def forward(ctx, x, x_old):
        ctx.save_for_backward(x_old)
        ctx.save_for_forward(x_old)
        _mish_memory(x_old, out=x, count=False)  # mark_dirty counts the version
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def jvp(ctx, x_t, x_old_t):
        # x is dirty: autograd wants its tangent updated in place and returned. x_old is
        # x's clone, so its tangent is x's old one.
        (x_old,) = ctx.saved_tensors
        tangent = MishBackwardFunction.apply(x_old_t if x_old_t is not None else x_t, x_old)
        if x_t is None:
            return tangent
        x_t.copy_(tangent)
        return x_t

    @staticmethod
    def backward(ctx, grad_output):
        (x_old,) = ctx.saved_tensors
        # x's old values reach the result through x_old only; a defined (zero) gradient for
        # x itself all the same, which autograd's CopySlices needs when x is a view.
        zero = grad_output.new_zeros(()).expand_as(grad_output)
        return zero, MishBackwardFunction.apply(grad_output, x_old)


def _needs_grad(*args):
    if _torch.is_grad_enabled():
        for a in args:
            if isinstance(a, _Tensor) and a.requires_grad:
                return True
    return False


def _records(*args):
    """Whether a call must go through an autograd Function even when no input requires grad:
    under torch.jit.trace (the tracer records the Function, not the raw memory write the
    library does, which it would replay as an uninitialized tensor) and for a dual tensor
    of forward-mode AD (the Function's jvp carries its tangent)."""
    if _is_tracing():
        return True
    if _forward_ad._current_level >= 0:
        for a in args:
            if isinstance(a, _Tensor) and _forward_ad.unpack_dual(a).tangent is not None:
                return True
    return False


def _refuse_out_with_grad(fname, *args):
    if _needs_grad(*args):
        raise RuntimeError(f"mishgrad.{fname}(): functions with out=... arguments don't support "
                           f"automatic differentiation, but one of the arguments requires grad.")


def _as_tensor(a):
    return a if isinstance(a, _Tensor) else _torch.as_tensor(a)


# ---- mishgrad.mish / mish_ / mish_backward with a torch tensor among the arguments --------

def _refuse_out_when_recording(fname, *args):
    """out= where _records holds: the tracer and forward AD could not follow the write."""
    if _is_tracing():
        # the tracer would record no write into out, and replay a stale one
        raise RuntimeError(f"mishgrad.{fname}(): out=... cannot be traced by torch.jit.trace; "
                           f"call it without out=")
    if _records(*args):
        # a dual tensor among the arguments: torch's own out= functions refuse forward AD
        raise NotImplementedError(f"Trying to use forward AD with mishgrad.{fname}(out=...), "
                                  f"which does not support it: call it without out=")


def _mish_call(x, out=None):
    if out is not None:
        _refuse_out_with_grad("mish", x, out)
        _refuse_out_when_recording("mish", x, out)
        return _mish_memory(x, out)
    if _needs_grad(x) or _records(x):
        return MishFunction.apply(x)
    return _mish_memory(x)


def _mish_backward_call(grad_output, x, out=None):
    if out is not None:
        _refuse_out_with_grad("mish_backward", grad_output, x, out)
        _refuse_out_when_recording("mish_backward", grad_output, x, out)
        return _mish_backward_memory(grad_output, x, out)
    if _needs_grad(grad_output, x) or _records(grad_output, x):
        return MishBackwardFunction.apply(_as_tensor(grad_output), _as_tensor(x))
    return _mish_backward_memory(grad_output, x)


def _inplace_recorded(x):
    """x = mish(x) in place, recorded by autograd (and forward AD) or by the tracer."""
    if _is_tracing():
        # The JIT takes no in-place autograd Function: the trace records mish of a copy of
        # x, then copy_ into x, which is what an in-place op comes to.
        return x.copy_(MishFunction.apply(x.clone()))
    return _InplaceMishFunction.apply(x, x.clone())


def _inplace_mish_call(x):
    if not isinstance(x, _Tensor):
        return _mishgrad._mish_(x)
    _check_target(x, "x")
    if _needs_grad(x):
        # torch's checks (and words), before anything is written.
        base = x._base
        if base is not None and x.is_leaf:
            # a view that requires grad and has no grad_fn: made under no_grad
            raise RuntimeError(
                "A view was created in no_grad mode and is being modified inplace with grad "
                "mode enabled. Given that this use case is ambiguous and error-prone, it is "
                "forbidden. You can clarify your code by moving both the view and the inplace "
                "either both inside the no_grad block (if you don't want the inplace to be "
                "tracked) or both outside (if you want the inplace to be tracked).")
        if x.is_leaf:
            raise RuntimeError("a leaf Variable that requires grad is being used in an "
                               "in-place operation.")
        if base is not None and base.is_leaf and base.requires_grad:
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in "
                               "an in-place operation.")
        if base is not None:
            # Some views may not be modified in place at all (the outputs of unbind, split,
            # ...: functions that return several views); torch tells which, and with what
            # words, only when an in-place op is recorded. x.copy_(x) is such an op that
            # moves no data (ATen's copy_ of a tensor onto itself returns at once), so it
            # raises torch's own error before anything is written, or records an identity.
            x.copy_(x)
        return _inplace_recorded(x)
    if _records(x):
        return _inplace_recorded(x)
    return _inplace_mish_memory(x)


# The extension runs a call itself when every torch tensor in it is plain (strided, no
# negative bit, no autograd to record, no inference tensor written) and counts the write on
# the target's version counter (increment_version, or t.copy_(t) where torch has none);
# every other call comes to the functions above.
def _grad_mode_for_the_extension():
    """The grad mode, or 2 when every call with a torch tensor must come to the hooks above
    (tracing, or a forward-mode AD level open: _records decides per call). Asked once per
    call on the fast path: about 0.1 us more than torch.is_grad_enabled alone."""
    if _is_tracing() or _forward_ad._current_level >= 0:
        return 2
    return _is_grad_enabled()


_mishgrad._set_torch_hooks(_mish_call, _inplace_mish_call, _mish_backward_call,
                           _grad_mode_for_the_extension, _torch.strided, _increment_version)


def _refuse_untraceable(input, fname):
    """torch.fx's symbolic tracing hands a Proxy, and torch.vmap / torch.func a batched or
    wrapped tensor with no memory of its own: the library runs on a tensor's memory, so
    neither can go through it. Said here, at the package's boundary, before the extension
    would fail on what it cannot read."""
    if _fx_proxy is not None and isinstance(input, _fx_proxy):
        raise TypeError(f"mishgrad.torch.{fname}: torch.fx symbolic tracing is not supported (the "
                        f"library runs on a tensor's memory, and a Proxy has none); trace a model "
                        f"with torch.nn.Mish / torch.nn.functional.mish, or mark the module calling "
                        f"mishgrad a leaf of your fx.Tracer (is_leaf_module)")
    if isinstance(input, _Tensor) and _is_batched(input):
        raise TypeError(f"mishgrad.torch.{fname}: torch.vmap and torch.func transforms are not "
                        f"supported (a batched or wrapped tensor has no memory of its own to hand "
                        f"the library); call it outside the transform, or use "
                        f"torch.nn.functional.mish inside it")


def _mish_eager(input, inplace):
    _refuse_untraceable(input, "mish")
    return _inplace_mish_call(input) if inplace else _mish_call(input)


def mish(input: _Tensor, inplace: bool = False) -> _Tensor:
    """Mish of a CPU tensor, with autograd, as ``torch.nn.functional.mish`` (same argument
    names): ``inplace=True`` overwrites ``input`` (recorded by autograd when it requires
    grad; refused, as torch does, for a leaf that requires grad).

    Not supported, each refused here with a message that says so: TorchScript's
    ``torch.jit.script`` (``torch.jit.trace`` is: it records the autograd function),
    ``torch.fx`` symbolic tracing, ``torch.vmap`` / ``torch.func`` transforms, and float64
    (use ``torch.nn.functional.mish`` for that)."""
    # TorchScript compiles this function when a scripted one calls it; is_scripting() is a
    # constant to its compiler, so only the raise is compiled (the else branch, Python the
    # compiler cannot read, is left out) and the scripted call fails with this message.
    if _torch.jit.is_scripting():
        raise RuntimeError("mishgrad.torch.mish: TorchScript (torch.jit.script) is not supported: "
                           "the library runs through a Python autograd function. Use torch.jit.trace, "
                           "or torch.nn.functional.mish in scripted code")
    else:
        return _mish_eager(input, inplace)


class Mish(_torch.nn.Module):
    """Drop-in for ``torch.nn.Mish`` on CPU tensors: the library's forward and backward."""

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input: _Tensor) -> _Tensor:
        return mish(input, self.inplace)

    def __prepare_scriptable__(self):
        # torch.jit.script asks every module (submodules included) first: refused here,
        # before compiling anything, rather than a scripted model that fails when it runs.
        raise RuntimeError("mishgrad.torch.Mish: TorchScript (torch.jit.script) is not supported: "
                           "the library runs through a Python autograd function. Use torch.jit.trace, "
                           "or torch.nn.Mish in a model to be scripted")

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""

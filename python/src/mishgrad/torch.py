"""mishgrad for PyTorch: ``Mish`` (an ``nn.Module``) and ``mish`` (an autograd function),
usable wherever ``torch.nn.Mish`` / ``torch.nn.functional.mish`` are. Forward and backward
both run the library (aclnnMish, aclnnMishBackward) on the tensors' own memory."""
import torch as _torch

from . import _mishgrad

__all__ = ["Mish", "mish", "MishFunction"]


class MishFunction(_torch.autograd.Function):
    """y = x * tanh(softplus(x)); the gradient is aclnnMishBackward's."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return _mishgrad.mish(x)

    @staticmethod
    @_torch.autograd.function.once_differentiable
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return _mishgrad.mish_backward(grad_output, x)


def mish(x, inplace=False):
    """Mish of a CPU tensor, with autograd. ``inplace=True`` overwrites ``x`` when no
    gradient is needed; when one is, x is needed for the backward pass, so the result is a
    new tensor (as if ``inplace=False``)."""
    if inplace and not (_torch.is_grad_enabled() and x.requires_grad):
        return _mishgrad.mish_(x)
    if _torch.is_grad_enabled() and x.requires_grad:
        return MishFunction.apply(x)
    return _mishgrad.mish(x)


class Mish(_torch.nn.Module):
    """Drop-in for ``torch.nn.Mish`` on CPU tensors: the library's forward and backward."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x):
        return mish(x, self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""

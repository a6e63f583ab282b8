"""MishGradV2's Mish operators for NumPy arrays and PyTorch CPU tensors.

    mish(x, out=None)                    y = x * tanh(softplus(x))          aclnnMish
    mish_(x)                             x = mish(x), in place              aclnnInplaceMish
    mish_backward(grad_output, x, out=None)  the gradient of mish             aclnnMishBackward

Each call reaches the library through CANN's public API, on the caller's own memory (no
copy): NumPy float32/float16 and torch float32/float16/bfloat16, rank 0-8, any strides,
offsets and transposes. A new result has the input's type and layout. A failure raises
AclnnError, whose .status is CANN's status and whose text is the library's message;
nothing is written then. mishgrad.torch has the autograd function and nn.Module; calls on
torch tensors go through it, and behave as torch's own ops (autograd, version counters,
torch's in-place and out= rules).
"""
import atexit as _atexit
import re as _re

from . import _mishgrad


try:
    from ._version import __version__  # written into the wheel by scikit-build-core
except ImportError:  # a source tree on sys.path: the installed metadata, if any
    try:
        from importlib.metadata import version as _version

        __version__ = _version("mishgrad")
    except Exception:
        __version__ = "0+unknown"

# How str(AclnnError) ends: the status and the API, also in a text re-raised elsewhere.
_STATUS_TAIL = _re.compile(r"\[CANN status (-?\d+) from (\w*)\]")


class AclnnError(RuntimeError):
    """A CANN call failed. ``status`` is its status code (161001, 161002, ...), ``api`` the
    function that returned it, and the text is the library's message (aclGetRecentErrMsg);
    str() ends with ``[CANN status N from API]``.

    ``AclnnError(message=...)`` works as well: torch's DataLoader re-raises a worker's
    exception that way, with the worker's traceback as the text; the status and API are then
    read back from the text's last ``[CANN status ...]``."""

    status = None
    api = None

    def __init__(self, *args, message=None, status=None, api=None):
        if message is not None:
            args = (message,) + args
        super().__init__(*args)
        if status is None and args and isinstance(args[0], str):
            found = _STATUS_TAIL.findall(args[0])
            if found:
                status, api = int(found[-1][0]), found[-1][1] or None
        if status is not None:
            self.status = status
        if api is not None:
            self.api = api

    @property
    def message(self):
        return self.args[0] if self.args else ""

    def __str__(self):
        text = super().__str__()
        if self.status is None or _STATUS_TAIL.search(text):
            return text
        return f"{text} [CANN status {self.status} from {self.api or ''}]"



def _bind():
    try:
        import numpy
    except ImportError:
        numpy = None
    try:
        import torch
    except ImportError:
        torch = None
    torch_dtypes = {}
    if torch is not None:
        # CANN's aclDataType values (acl/acl_base.h) and item sizes.
        for name, code in (("float32", 0), ("float16", 1), ("int8", 2), ("int32", 3),
                           ("uint8", 4), ("int16", 6), ("int64", 9), ("float64", 11),
                           ("bool", 12), ("complex64", 16), ("complex128", 17),
                           ("bfloat16", 27)):
            dtype = getattr(torch, name, None)
            if dtype is not None:
                torch_dtypes[dtype] = (code, torch.empty((), dtype=dtype).element_size())
    storage = "untyped_storage" if torch is not None and hasattr(torch.Tensor, "untyped_storage") \
        else "_storage"
    _mishgrad._bind(AclnnError,
                    numpy.ndarray if numpy is not None else None,
                    numpy.generic if numpy is not None else None,
                    numpy.empty_like if numpy is not None else None,
                    torch.Tensor if torch is not None else None,
                    torch.empty_like if torch is not None else None,
                    torch_dtypes, storage)
    if torch is not None:
        # Calls with a torch tensor go through mishgrad.torch (autograd, version counters,
        # torch's in-place rules): importing it sets the extension's hooks.
        import importlib
        importlib.import_module(".torch", __name__)


_bind()
_atexit.register(_mishgrad._shutdown)

mish = _mishgrad.mish
mish_ = _mishgrad.mish_
mish_backward = _mishgrad.mish_backward

#: zero_copy() -> bool: True when the caller's memory reaches the operator through
#: aclrtHostRegister (no copy); False where the runtime takes no host registrations and each
#: buffer is staged through aclrtMalloc instead. Starts the runtime (aclInit) if needed.
zero_copy = _mishgrad.zero_copy
#: release_registrations(): unregister the host registrations the package keeps between
#: calls (at most 64, all released at exit). Call it before handing freed array memory to
#: your own aclrtMalloc-using CANN code in the same process.
release_registrations = _mishgrad.release_registrations

__all__ = ["AclnnError", "mish", "mish_", "mish_backward", "zero_copy", "release_registrations"]


def __getattr__(name):
    # mishgrad.torch is imported on first use, so importing mishgrad never needs torch.
    if name == "torch":
        import importlib
        return importlib.import_module(".torch", __name__)
    raise AttributeError(f"module 'mishgrad' has no attribute {name!r}")

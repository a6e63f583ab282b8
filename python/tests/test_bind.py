"""The extension's _bind (the package calls it once at import with the optional libraries it
found) refuses what it cannot use with a TypeError that says why, never an error return
without an exception (Python's SystemError). Run in a child: a refused _bind has already
replaced the bindings the package made, so the process is not reused."""
import subprocess
import sys

CHILD = r"""
import mishgrad
from mishgrad import _mishgrad
cases = [
    ((None, None, None, None, None, None, {}, "untyped_storage"), "AclnnError is required"),
    ((mishgrad.AclnnError, None, None, None, object, None, None, "untyped_storage"),
     "torch dtypes must be a dict"),
    ((mishgrad.AclnnError, None, None, None, object, None, [1, 2], "untyped_storage"),
     "torch dtypes must be a dict"),
]
for args, why in cases:
    try:
        _mishgrad._bind(*args)
    except TypeError as e:
        assert why in str(e), (why, str(e))
    else:
        raise AssertionError("_bind took %r" % (args,))
print("ok")
"""


def test_bind_refuses_with_a_type_error():
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), (done.stdout[-2000:], done.stderr[-3000:])

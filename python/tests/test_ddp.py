"""DistributedDataParallel over gloo, two processes on 127.0.0.1: the gradients equal the
single-process ones."""
import os
import socket
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")
import torch.distributed as dist  # noqa: E402

import mishgrad  # noqa: E402

pytestmark = pytest.mark.skipif(not mishgrad._mishgrad.HAVE_FORWARD,
                                reason="this build's library has no aclnnMish")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(not dist.is_available() or not dist.is_gloo_available(),
                    reason="this torch has no gloo backend")
def test_ddp_gloo_two_processes(tmp_path):
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    try:
        import ddp_worker
    finally:
        sys.path.remove(here)
    path = tmp_path / "grads.pt"
    run = subprocess.run([sys.executable, os.path.join(here, "ddp_worker.py"), str(free_port()),
                          str(path)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    ddp = torch.load(path)
    single = ddp_worker.single_process_grads()
    assert len(ddp) == len(single)
    for a, b in zip(ddp, single):
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6)

"""Tests for the survivors of tools/mutate.py's seed 56 in the python layer, each against a
written expectation.

- _mishgrad.c:105 (release_thread_resources' mg_workspace_free deleted): a thread that used
  the package and exits gives back its stream and its workspace. Deleted, the workspace's
  pages stayed mapped and registered with the runtime for the rest of the process, one per
  thread that ever needed a workspace (a DataLoader's or a thread pool's threads). A
  preloaded aclrtHostRegister / aclrtHostUnregister pair counts them: once the thread is gone
  and the idle registrations are released, the runtime has unregistered as many as it
  registered.
"""
from conftest import build_preload_shim
from test_mutation_seed55 import REGISTER_SHIM, run_counting
import pytest


@pytest.fixture(scope="module")
def register_shim(tmp_path_factory):
    return build_preload_shim(tmp_path_factory, REGISTER_SHIM, "registration")


def test_a_thread_that_exits_gives_back_its_workspace(register_shim):
    """A worker thread calls with a strided x (copied dense into a workspace of 4 bytes an
    element, page-rounded on the zero-copy route) and exits. The thread's resources go from
    its exit handler, which runs after join() returns, so the counts are polled."""
    report = run_counting(register_shim, """
        import threading, time
        ok = []
        def work():
            n = 1 << 16
            x = np.zeros(2 * n, np.float32)[::2]
            y = mishgrad.mish_backward(np.ones(n, np.float32), x)
            ok.append(bool(np.abs(y - 0.6).max() < 1e-6))  # mish'(0) = 0.6
        worker = threading.Thread(target=work)
        worker.start()
        worker.join()
        counts = None
        deadline = time.monotonic() + 10.0
        while time.monotonic() < deadline:
            _mishgrad.release_registrations()
            counts = [made.value, given.value]
            if counts[0] == counts[1]:
                break
            time.sleep(0.05)
        print(json.dumps({"ok": ok, "counts": counts}), flush=True)
    """)
    assert report["ok"] == [True], report
    registered, unregistered = report["counts"]
    assert registered >= 2, report  # the route probe's page and at least the workspace
    assert unregistered == registered, "the exited thread's workspace is still registered: %r" % report

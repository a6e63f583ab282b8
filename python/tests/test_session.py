"""The runtime session the package keeps: the threads that use it, registrations released
on request from a thread that has made no call, and the end of the session at exit. Each
case runs in a fresh interpreter, whose stderr must carry no failure line of the library."""
import subprocess
import sys
import textwrap


def run_fresh(code):
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def test_release_registrations_from_a_thread_that_made_no_call():
    """The main thread only releases; the calls are made in worker threads before and after.
    Before the fix the release ran without a context (107002), the registration stayed in the
    runtime while the package forgot it, and every later call on those pages got 507910."""
    rc, out, err = run_fresh("""
        import threading
        import numpy as np
        import mishgrad
        x = np.linspace(-3, 3, 1000, dtype=np.float32)
        want = x * np.tanh(np.logaddexp(0, x.astype(np.float64)))
        def call(results):
            results.append(mishgrad.mish(x))
        for _ in range(2):
            results = []
            t = threading.Thread(target=call, args=(results,))
            t.start()
            t.join()
            assert len(results) == 1, "the worker's call raised"
            assert np.allclose(results[0], want, rtol=1e-6, atol=1e-6)
            mishgrad.release_registrations()
        assert np.allclose(mishgrad.mish(x), want, rtol=1e-6, atol=1e-6)
        print("ok")
    """)
    assert rc == 0 and out.strip() == "ok", (rc, out, err)
    assert "[ERROR]" not in err, err


def test_exit_after_worker_threads_is_clean():
    """8 worker threads, none of them joined long before exit, the main thread making no
    call: the session ends without a failure line or a resource the program left alive (the
    package releases every thread's stream and workspace before aclFinalize)."""
    code = """
        import threading
        import numpy as np
        import mishgrad
        def work(i):
            x = np.full(50000, float(i), np.float32)
            for _ in range(5):
                mishgrad.mish_(x)
        threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print("ok")
    """
    for _ in range(4):
        rc, out, err = run_fresh(code)
        assert rc == 0 and out.strip() == "ok", (rc, out, err)
        assert "[ERROR]" not in err and "left alive" not in err, err

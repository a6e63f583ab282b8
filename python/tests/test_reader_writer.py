"""A call that reads bytes another call in flight writes waits for it, on both memory routes:
the reader sees the buffer before the write or after it, never half of each, and neither
call fails (on the zero-copy route the runtime's race detector refuses two streams on
overlapping bytes with one writing; on the staging route an unordered copy in would read a
half-copied result). The writer flips one buffer between two states whose values are known
here; readers compute from it and must match one of the two expected results whole.

Run as a script it prints one JSON line with the failures (the test runs it so)."""
import json
import os
import subprocess
import sys
import threading
import time

import numpy as np

import mishgrad

N = 1 << 22   # the writer's call: long enough for readers to arrive while it runs
SLICE = 1024  # the readers' calls: short, many of them during each write
ROUNDS = 6


def run():
    x_a = np.linspace(-6, 6, N, dtype=np.float32)
    x_b = np.linspace(5, -5, N, dtype=np.float32)
    ones = np.ones(N, np.float32)
    state_a = mishgrad.mish_backward(ones, x_a)    # what the writer writes, one or the other
    state_b = mishgrad.mish_backward(ones, x_b)
    xs = x_a[:SLICE].copy()
    read_a = mishgrad.mish_backward(state_a[:SLICE].copy(), xs)  # what a reader computes from each
    read_b = mishgrad.mish_backward(state_b[:SLICE].copy(), xs)
    shared = state_a.copy()
    failures = []
    writing = threading.Event()
    done = threading.Event()
    counts = {"during": 0}

    def writer():
        try:
            for r in range(ROUNDS * 10):
                if r >= ROUNDS and counts["during"] >= 5:
                    break  # enough reads met a write (on a fast machine, more rounds)
                writing.set()
                mishgrad.mish_backward(ones, x_b if r % 2 == 0 else x_a, out=shared)
                writing.clear()
                time.sleep(0.002)
        except Exception as e:  # noqa: BLE001 -- reported, not raised in a thread
            failures.append("writer: %r" % (e,))
        finally:
            done.set()

    def reader():
        out = np.empty(SLICE, np.float32)
        try:
            while not done.is_set():
                if not writing.wait(0.01):
                    continue
                mishgrad.mish_backward(shared[:SLICE], xs, out=out)
                counts["during"] += 1
                if not (np.array_equal(out, read_a) or np.array_equal(out, read_b)):
                    failures.append("reader: a result from half of each state")
                    return
        except Exception as e:  # noqa: BLE001
            failures.append("reader: %r" % (e,))

    threads = [threading.Thread(target=writer), threading.Thread(target=reader)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"zero_copy": bool(mishgrad.zero_copy()), "failures": failures, "during": counts["during"]}


def test_readers_wait_for_the_writer():
    """In a child whose heap hands out zeroed blocks (glibc's MALLOC_PERTURB_=255 fills each
    new block with 255 ^ 0xff): a field of the table of calls in flight left unset then reads
    as 0 every time, not as whatever the heap held there, so a writer's extent that lost its
    "written" mark lets readers through, and the runtime's race detector says so."""
    env = dict(os.environ)
    env["MALLOC_PERTURB_"] = "255"
    # NumPy only: torch, where installed, is kept out of the child (seconds to import)
    code = ("import runpy, sys\nsys.modules['torch'] = None\nrunpy.run_path(%r, run_name='__main__')"
            % os.path.abspath(__file__))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-3000:])
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["failures"] == []
    assert report["during"] > 0
    # The bundled runtime takes every host registration: the child ran the zero-copy route
    # (where readers and writers share the caller's memory), not the staging one.
    assert report["zero_copy"] is True


if __name__ == "__main__":
    print(json.dumps(run()))

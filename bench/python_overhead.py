#!/usr/bin/env python3
"""bench/python_overhead.py: what one call of the mishgrad package costs on tiny arrays,
where the binding is all there is (no argument: 100 float32 elements, one thread).

    MISHGRAD_NUM_THREADS=1 python3 bench/python_overhead.py [N]

Prints the best of 25 batches of 2000 calls for torch tensors (mish_backward and mish with
out=, mish_) and NumPy arrays (mish_backward with out=), in microseconds per call. Run it
in two virtual environments, one per package version, alternating, to compare versions on
this noisy machine side by side (python/README.md quotes such a comparison)."""
import sys
import timeit

import numpy as np
import mishgrad

try:
    import torch
except ImportError:  # the NumPy figure alone
    torch = None


def best(stmt, env, number=2000, repeat=25):
    return min(timeit.repeat(stmt, globals=env, number=number, repeat=repeat)) / number * 1e6


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    gn = np.ones(n, np.float32)
    xn = np.linspace(-3, 3, n, dtype=np.float32)
    on = np.empty(n, np.float32)
    env = {"mishgrad": mishgrad, "gn": gn, "xn": xn, "on": on}
    parts = []
    if torch is not None:
        # mish_ runs on 30.0s, which Mish leaves unchanged: applied again and again to
        # anything smaller, it drives each element to its other fixed point, -2^-149, and
        # then times subnormal arithmetic (slow on some CPUs), not the binding.
        env.update(g=torch.from_numpy(gn.copy()), x=torch.from_numpy(xn.copy()), o=torch.empty(n),
                   o_fixed=torch.full((n,), 30.0))
        parts.append("torch mish_backward(out=) %.2f" % best("mishgrad.mish_backward(g, x, out=o)", env))
        parts.append("mish(out=) %.2f" % best("mishgrad.mish(x, out=o)", env))
        parts.append("mish_ %.2f" % best("mishgrad.mish_(o_fixed)", env))
    parts.append("numpy mish_backward(out=) %.2f" % best("mishgrad.mish_backward(gn, xn, out=on)", env))
    print("%d elements, us per call: %s" % (n, ", ".join(parts)))


if __name__ == "__main__":
    main()

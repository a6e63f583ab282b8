#!/usr/bin/env python3
"""The mishgrad package against PyTorch's CPU operators and against the C call, side by side
in one process.

Contenders, per size and dtype (round-robin, one batch of each in turn, so all meet the same
machine state):
  pkg      mishgrad.mish_backward(g, x, out=o) / mishgrad.mish(x, out=o) on torch tensors
  pkg-new  the same with out=None (the package allocates the result, as PyTorch does)
  pkg-np   the same on NumPy arrays, out=o (float32 and float16 only)
  C        the C call alone: _mishgrad._c_loop runs GetWorkspaceSize + aclnnX +
           aclrtSynchronizeStream in a C loop over tensors created once on memory registered
           once (what a C program that keeps its tensors pays per call)
  torch    torch.ops.aten.mish_backward(g, x) / torch.nn.functional.mish(x)
Each batch runs enough calls for ~--batch-ms; a case's figure is the median of --reps batches
(spread = (max - min) / median). The package's overhead is pkg - C per call.

    MISHGRAD_NUM_THREADS=2 python3 bench/python_bench.py --threads 2 --sizes 1e4,1e6,3e7

Run it with the package installed (python3 -m pip install ./python).
"""
import argparse
import os
import platform
import statistics
import sys
import time


def parse_sizes(text):
    return [int(round(float(tok))) for tok in text.split(",") if tok]


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--sizes", default="1e4,1e6,3e7")
    ap.add_argument("--dtypes", default="float32,bfloat16,float16")
    ap.add_argument("--ops", default="backward,forward")
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--batch-ms", type=float, default=40.0)
    ap.add_argument("--markdown", help="write the table (Markdown) to this file as well")
    args = ap.parse_args()

    # The library's pool reads this at aclInit (the first call).
    os.environ.setdefault("MISHGRAD_NUM_THREADS", str(args.threads))
    if os.environ["MISHGRAD_NUM_THREADS"] != str(args.threads):
        sys.exit("MISHGRAD_NUM_THREADS disagrees with --threads")
    import numpy as np
    import torch
    import mishgrad
    from mishgrad import _mishgrad

    torch.set_num_threads(args.threads)
    have_forward = bool(_mishgrad.HAVE_FORWARD)

    rows = []
    for n in parse_sizes(args.sizes):
        for dname in args.dtypes.split(","):
            dtype = getattr(torch, dname)
            gen = torch.Generator().manual_seed(n)
            x = (torch.rand(n, generator=gen, dtype=torch.float32) * 16 - 8).to(dtype)
            g = (torch.rand(n, generator=gen, dtype=torch.float32) * 4 - 2).to(dtype)
            o = torch.empty_like(x)
            npx = npg = npo = None
            if dname in ("float32", "float16"):
                npx, npg, npo = x.numpy(), g.numpy(), np.empty_like(x.numpy())
            for op in args.ops.split(","):
                if op == "forward" and not have_forward:
                    continue
                if op == "backward":
                    cases = {
                        "pkg": lambda: mishgrad.mish_backward(g, x, out=o),
                        "pkg-new": lambda: mishgrad.mish_backward(g, x),
                        "torch": lambda: torch.ops.aten.mish_backward(g, x),
                    }
                    if npx is not None:
                        cases["pkg-np"] = lambda: mishgrad.mish_backward(npg, npx, out=npo)
                    c_args = ("mish_backward", g, x, o)
                else:
                    cases = {
                        "pkg": lambda: mishgrad.mish(x, out=o),
                        "pkg-new": lambda: mishgrad.mish(x),
                        "torch": lambda: torch.nn.functional.mish(x),
                    }
                    if npx is not None:
                        cases["pkg-np"] = lambda: mishgrad.mish(npx, out=npo)
                    c_args = ("mish", x, o)

                # Calls per batch from one untimed warm-up call of each.
                calls = {}
                try:
                    cases["torch"]()
                except RuntimeError:  # e.g. 1.13 has no 16-bit CPU mish_backward
                    del cases["torch"]
                for name, fn in cases.items():
                    fn()
                    t = time.perf_counter()
                    fn()
                    dt = max(time.perf_counter() - t, 1e-7)
                    calls[name] = max(1, int(args.batch_ms / 1e3 / dt))
                _mishgrad._c_loop(c_args[0], 1, *c_args[1:])
                calls["C"] = calls["pkg"]

                samples = {name: [] for name in list(cases) + ["C"]}
                for _ in range(args.reps):
                    for name, fn in cases.items():
                        k = calls[name]
                        t = time.perf_counter()
                        for _ in range(k):
                            fn()
                        samples[name].append((time.perf_counter() - t) / k)
                    k = calls["C"]
                    samples["C"].append(_mishgrad._c_loop(c_args[0], k, *c_args[1:]) / k)
                    time.sleep(0.005)
                med = {k: statistics.median(v) for k, v in samples.items()}
                spread = {k: (max(v) - min(v)) / med[k] for k, v in samples.items()}
                rows.append((n, dname, op, med, spread))
                print(f"{n:>9} {dname:>8} {op:>8}: "
                      + "  ".join(f"{k} {1e6 * v:9.2f} us" for k, v in med.items()), flush=True)

    lines = []
    lines.append(f"CPU: {cpu_name()}; {os.cpu_count()} CPUs online; threads {args.threads}; "
                 f"torch {torch.__version__}; numpy {np.__version__}; Python {platform.python_version()}; "
                 f"zero copy {mishgrad.zero_copy()}")
    lines.append("")
    lines.append("| op | dtype | elements | package, torch, out= (us) | C call (us) | package - C (us) | package / C | package, out=None (us) | package, NumPy (us) | PyTorch (us) | PyTorch / package | package Gelem/s | spread pkg / C / torch |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n, dname, op, med, spread in rows:
        pkg, c, tor = med["pkg"], med["C"], med.get("torch")
        npv = med.get("pkg-np")
        cells = [op, dname, f"{n:.0e}", f"{pkg * 1e6:.2f}", f"{c * 1e6:.2f}",
                 f"{(pkg - c) * 1e6:+.2f}", f"{pkg / c:.3f}", f"{med['pkg-new'] * 1e6:.2f}",
                 f"{npv * 1e6:.2f}" if npv is not None else "-",
                 f"{tor * 1e6:.2f}" if tor else "- (none)", f"{tor / pkg:.1f}x" if tor else "-",
                 f"{n / pkg / 1e9:.2f}",
                 f"{100 * spread['pkg']:.0f}% / {100 * spread['C']:.0f}% / "
                 + (f"{100 * spread['torch']:.0f}%" if tor else "-")]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    # The goals, float32 backward.
    for n, dname, op, med, _ in rows:
        if dname != "float32" or op != "backward":
            continue
        pkg, c, tor = med["pkg"], med["C"], med["torch"]
        lines.append(f"- float32 backward {n:.0e}: package {pkg * 1e6:.2f} us, C {c * 1e6:.2f} us, "
                     f"PyTorch {tor * 1e6:.2f} us")
        if n == 10 ** 6:
            lines.append(f"- goal >= 5x PyTorch at 1e6 float32 backward: {tor / pkg:.1f}x "
                         f"({'holds' if tor / pkg >= 5 else 'misses'})")
            lines.append(f"- goal within 10% of the C call at 1e6: package / C = {pkg / c:.3f} "
                         f"({'holds' if pkg / c <= 1.10 else 'misses'})")
        if n == 10 ** 4:
            lines.append(f"- goal at most 5 us over the C call at 1e4: {(pkg - c) * 1e6:+.2f} us "
                         f"({'holds' if pkg - c <= 5e-6 else 'misses'})")
    text = "\n".join(lines)
    print()
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()

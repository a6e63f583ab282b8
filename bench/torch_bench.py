#!/usr/bin/env python3
"""PyTorch's aten::mish_backward on the CPU, timed the way mishgrad_bench times ours.

Same inputs range (x in [-8, 8], g in [-2, 2]), same sizes, same thread count
(torch.set_num_threads), batches of about --batch-ms, median of --reps. Appends one CSV row
per case: dtype,elements,threads,torch_gelem_s,torch_spread_pct,torch_version. bench/report.py
joins these rows to mishgrad_bench's as the torch column.

PyTorch runs in its own process, not interleaved with the other contenders, so its numbers
are not side by side in time; on a noisy machine compare them with that in mind.

    python3 bench/torch_bench.py --threads 2 --sizes 1e3,1e6 --csv bench/results/torch.csv
"""
import argparse
import csv
import os
import statistics
import sys
import time

DTYPES = ("f32", "bf16", "f16")


def parse_sizes(text):
    return [int(round(float(tok))) for tok in text.split(",") if tok]


def time_batch(fn, calls):
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--sizes", default="1e3,1e4,1e5,1e6,1e7,3e7,1e8")
    parser.add_argument("--dtypes", default="f32", help="comma list of f32,bf16,f16")
    parser.add_argument("--reps", type=int, default=11)
    parser.add_argument("--batch-ms", type=float, default=10.0)
    parser.add_argument("--csv", help="append rows to this file")
    parser.add_argument("--op", choices=["mish_backward", "mish"], default="mish_backward",
                        help="aten::mish_backward (default) or F.mish, the forward")
    args = parser.parse_args()

    try:
        import torch
    except ImportError:
        print("torch_bench: PyTorch is not installed (Debian: python3-torch); skipping", file=sys.stderr)
        return 0
    torch.set_num_threads(args.threads)
    torch_dtypes = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}

    rows = []
    print(f"PyTorch {torch.__version__} aten::{args.op}, {torch.get_num_threads()} thread(s)")
    print(f"{'dtype':5} {'elements':>10} {'us/call':>10} {'Gelem/s':>8} {'spread':>7}")
    generator = torch.Generator().manual_seed(12345)
    for name in [d for d in args.dtypes.split(",") if d]:
        if name not in DTYPES:
            parser.error(f"unknown dtype {name}")
        for n in parse_sizes(args.sizes):
            x = (torch.rand(n, generator=generator) * 16 - 8).to(torch_dtypes[name])
            g = (torch.rand(n, generator=generator) * 4 - 2).to(torch_dtypes[name])
            if args.op == "mish":
                mish = torch.nn.functional.mish
                op = lambda g, x: mish(x)  # noqa: E731 (g unused: same call shape)
            else:
                op = torch.ops.aten.mish_backward
            try:
                op(g, x)
            except RuntimeError as err:  # e.g. a dtype this PyTorch has no CPU kernel for
                print(f"{name:5} {n:>10} not supported: {str(err).splitlines()[0]}")
                continue
            one = time_batch(lambda: op(g, x), 1)
            calls = max(1, min(10_000_000, int(args.batch_ms * 1e-3 / max(one, 1e-9))))
            samples = [time_batch(lambda: op(g, x), calls) for _ in range(args.reps)]
            seconds = statistics.median(samples)
            spread = (max(samples) - min(samples)) / seconds * 100
            gelem = n / seconds * 1e-9
            print(f"{name:5} {n:>10} {seconds * 1e6:>10.2f} {gelem:>8.3f} {spread:>6.1f}%", flush=True)
            rows.append([name, n, torch.get_num_threads(), f"{gelem:.4f}", f"{spread:.1f}", torch.__version__])
            del x, g

    if args.csv:
        new_file = not os.path.exists(args.csv) or os.path.getsize(args.csv) == 0
        with open(args.csv, "a", newline="") as f:
            writer = csv.writer(f)
            if new_file:
                writer.writerow(["dtype", "elements", "threads", "torch_gelem_s", "torch_spread_pct",
                                 "torch_version"])
            writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())

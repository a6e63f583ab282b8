#!/usr/bin/env python3
"""Plots mishgrad_bench CSV: throughput against element count, one panel per dtype.

Cases whose repetitions were mostly disturbed by other processes (quiet_reps below half)
are left out. Each panel has a line per contender (ours with the automatic ISA, ours per forced ISA,
oneDNN, PyTorch when its CSV is given, the kernel alone on one thread) and the memory roof
(y = g * x over the same arrays; y = x * x for the forward, --op mish) as a dashed line. Log x; Gelem/s on a log y axis.

    python3 bench/plot.py bench/results/bench.csv --torch bench/results/torch.csv \\
        --threads 2 -o docs/img/throughput.png
Needs matplotlib (Debian: python3-matplotlib).
"""
import argparse
import os
import re
import sys
from collections import defaultdict

from report import number, read_rows  # the CSV reading, shared with the tables


def trustworthy(row):
    """False when other processes disturbed most repetitions (see quiet_reps)."""
    quiet, reps = number(row.get("quiet_reps")), number(row.get("reps"))
    return quiet is None or not reps or quiet * 2 >= reps


def isa_names():
    """The ISA names of the one ISA list (runtime/mgrt_isa_list.inc), worst first."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runtime", "mgrt_isa_list.inc")
    with open(path, encoding="utf-8") as f:
        return re.findall(r"^MGRT_ISA\(([a-z0-9_]+),", f.read(), re.MULTILINE)


# one colour per ISA, in the list's order (scalar green, avx2 blue, avx512 orange, neon olive)
ISA_PALETTE = ["tab:green", "tab:blue", "tab:orange", "tab:olive", "tab:red", "tab:cyan", "tab:pink", "tab:gray"]
COLORS = {"oneDNN": "tab:purple", "PyTorch": "tab:brown"}
COLORS.update(zip(isa_names(), ISA_PALETTE))


def color_for(label):
    # the longest name first, so that no name is taken for another that contains it
    for key in sorted(COLORS, key=len, reverse=True):
        if key in label:
            return COLORS[key]
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", nargs="+")
    parser.add_argument("--torch", help="torch_bench CSV")
    parser.add_argument("--threads", type=int, help="thread count to plot (default: the largest)")
    parser.add_argument("-o", "--output", default="throughput.png")
    parser.add_argument("--title", default=None)
    args = parser.parse_args()

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot: matplotlib is missing (Debian: python3-matplotlib); no plot", file=sys.stderr)
        return 0

    rows = [r for path in args.csv for r in read_rows(path)]
    if len({r.get("op") or "mish_backward" for r in rows}) > 1:
        print("plot: the CSVs mix operators; plot one operator at a time", file=sys.stderr)
        return 1
    if not rows:
        print("plot: no rows", file=sys.stderr)
        return 1
    # The operator the rows measure (mishgrad_bench --op): names the oneDNN and PyTorch lines
    op = rows[0].get("op") or "mish_backward"
    forward = op == "mish"
    onednn_label = "oneDNN 2.6 eltwise_mish fwd" if forward else "oneDNN 2.6 eltwise_mish bwd"
    torch_name = "F.mish" if forward else "mish_backward"
    roof_label = "memory roof y = x*x" if forward else "memory roof y = g*x"
    threads = args.threads or max(int(r["threads"]) for r in rows)
    rows = [r for r in rows if int(r["threads"]) == threads]
    torch_rows = [r for r in read_rows(args.torch)] if args.torch else []
    torch_rows = [r for r in torch_rows if int(r["threads"]) == threads]

    dtypes = [d for d in ("f32", "bf16", "f16") if any(r["dtype"] == d for r in rows)]
    fig, axes = plt.subplots(1, len(dtypes), figsize=(5.2 * len(dtypes), 4.6), sharey=True, squeeze=False)
    for ax, dtype in zip(axes[0], dtypes):
        series = defaultdict(list)
        for r in rows:
            if r["dtype"] != dtype or not trustworthy(r):
                continue
            n = int(r["elements"])
            auto = r["isa_requested"] == "auto"
            label = f"MishGradV2 ({r['isa']}, auto)" if auto else f"MishGradV2 ({r['isa']})"
            series[label].append((n, number(r["ours_gelem_s"])))
            if auto:
                series[roof_label].append((n, number(r["roof_gelem_s"])))
                series[onednn_label].append((n, number(r["onednn_gelem_s"])))
                series[f"kernel alone, 1 thread ({r['isa']})"].append((n, number(r["kernel1t_gelem_s"])))
        for r in torch_rows:
            if r["dtype"] == dtype:
                series[f"PyTorch {r['torch_version']} {torch_name}"].append(
                    (int(r["elements"]), number(r["torch_gelem_s"])))
        for label, points in sorted(series.items(), key=lambda kv: (
                not kv[0].endswith("auto)"), "roof" in kv[0], kv[0])):
            points = sorted((n, v) for n, v in points if v is not None)
            if not points:
                continue
            xs, ys = zip(*points)
            if "roof" in label:
                style = dict(linestyle="--", color="black", linewidth=1.2)
            elif label.endswith("auto)"):
                style = dict(linewidth=2.4, marker="o", color="tab:red")
            elif label.startswith("MishGradV2"):
                style = dict(linewidth=1.0, marker=".", alpha=0.8, color=color_for(label))
            elif label.startswith("kernel"):
                style = dict(linewidth=1.0, linestyle=":", marker=".", color="tab:gray")
            else:
                style = dict(linewidth=1.6, marker="s", markersize=4, color=color_for(label))
            ax.plot(xs, ys, label=label, **style)
        ax.set_xscale("log")
        # Log y: in-cache roofs and small-size overheads span two decades, and equal
        # distances then mean equal ratios.
        ax.set_yscale("log")
        ax.set_title(f"{dtype}, {threads} thread(s)")
        ax.set_xlabel("elements")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="best")
    axes[0][0].set_ylabel("Gelem/s (full two-phase call; higher is better)")
    fig.suptitle(args.title or ("aclnnMish" if forward else "aclnnMishBackward") + " throughput against size")
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print(f"plot: wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

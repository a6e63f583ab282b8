#!/usr/bin/env python3
"""Turns mishgrad_bench CSV (and torch_bench CSV, if given) into Markdown.

Prints one table per (threads, ISA) with every contender side by side, then issue 3's
targets with the measured value and whether each holds. Only the standard library is used.

    python3 bench/report.py bench/results/bench.csv --torch bench/results/torch.csv
"""
import argparse
import csv
import sys
from collections import defaultdict


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def fmt(value, pattern="{:.3f}", missing="-"):
    return missing if value is None else pattern.format(value)


def size_label(n):
    n = int(n)
    exponent = len(str(n)) - 1
    mantissa = n / 10 ** exponent
    return f"1e{exponent}" if mantissa == 1 else f"{mantissa:g}e{exponent}"


def attach_torch(rows, torch_rows):
    by_key = {(r["dtype"], r["elements"], r["threads"]): r for r in torch_rows}
    for r in rows:
        t = by_key.get((r["dtype"], r["elements"], r["threads"]))
        r["torch_gelem_s"] = t["torch_gelem_s"] if t else ""


def tables(rows):
    groups = defaultdict(list)
    for r in rows:
        groups[(int(r["threads"]), r["isa_requested"], r["isa"])].append(r)
    out = []
    for (threads, requested, isa), group in sorted(groups.items(),
                                                   key=lambda kv: (-kv[0][0], kv[0][1] != "auto", kv[0][1])):
        how = f"ISA {isa}" + (" (auto)" if requested == "auto" else "")
        out.append(f"\n**{threads} thread(s), {how}** (Gelem/s unless noted; ratios are medians "
                   "of per-repetition ratios)\n")
        out.append("| dtype | elements | ours | GB/s | % roof | oneDNN | ours / oneDNN | PyTorch "
                   "| kernel, 1 thread | phase 1 us | phase 2 us | sync us | spread % | quiet reps |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        order = {"f32": 0, "bf16": 1, "f16": 2}
        for r in sorted(group, key=lambda r: (order.get(r["dtype"], 9), int(r["elements"]))):
            ratio = number(r["ours_vs_onednn"])
            out.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {}/{} |".format(
                r["dtype"], size_label(r["elements"]), fmt(number(r["ours_gelem_s"])),
                fmt(number(r["ours_gb_s"]), "{:.1f}"), fmt(number(r["ours_pct_roof"]), "{:.0f}"),
                fmt(number(r["onednn_gelem_s"])), fmt(ratio, "{:.2f}x"),
                fmt(number(r.get("torch_gelem_s"))), fmt(number(r["kernel1t_gelem_s"])),
                fmt(number(r["prepare_us"]), "{:.2f}"), fmt(number(r["launch_us"]), "{:.2f}"),
                fmt(number(r["sync_us"]), "{:.2f}"), fmt(number(r["ours_spread_pct"]), "{:.0f}"),
                r.get("quiet_reps", "?"), r["reps"]))
    return "\n".join(out)


def find(rows, dtype, elements, threads, isa):
    for r in rows:
        if (r["dtype"] == dtype and int(r["elements"]) == elements and int(r["threads"]) == threads
                and r["isa_requested"] == isa):
            return r
    return None


def targets(rows, threads, isa):
    # The rows' operator decides which issue's targets apply: issue 3's for the backward,
    # issue 12's for the forward (aclnnMish: 1.5x oneDNN at 1e6 for float32 and bfloat16,
    # 0.85 of the roof at 3e7).
    forward = (rows[0].get("op") or "mish_backward") == "mish"
    title = "Issue 12 targets (aclnnMish)" if forward else "Issue 3 targets"
    lines = [f"\n**{title}** ({threads} threads, ISA {isa})\n",
             "| case | target | measured | holds |", "|---|---|---|---|"]

    def verdict(value, bound, *cases):
        if value is None:
            return "-"
        answer = "yes" if value >= bound else "**no**"
        # Most repetitions disturbed by other processes: the number is not to be trusted.
        for r in cases:
            quiet, reps = number(r.get("quiet_reps")), number(r.get("reps"))
            if quiet is not None and reps and quiet * 2 < reps:
                answer += f" (unreliable: {quiet:.0f}/{reps:.0f} quiet reps)"
        return answer

    def ratio_row(label, dtype, n, bound):
        r = find(rows, dtype, n, threads, isa)
        value = number(r["ours_vs_onednn"]) if r else None
        lines.append(f"| {label} | >= {bound}x oneDNN | {fmt(value, '{:.2f}x')} | "
                     f"{verdict(value, bound, *([r] if r else []))} |")

    def roof_row(label, dtype):
        r = find(rows, dtype, 30000000, threads, isa)
        value = number(r["ours_pct_roof"]) / 100 if r and number(r["ours_pct_roof"]) is not None else None
        lines.append(f"| {label}, 3e7 | >= 0.85 of the roof | {fmt(value, '{:.2f}')} | "
                     f"{verdict(value, 0.85, *([r] if r else []))} |")

    ratio_row("float32, 1e6", "f32", 1000000, 1.5)
    ratio_row("bfloat16, 1e6", "bf16", 1000000, 1.5)
    if forward:
        roof_row("float32", "f32")
        roof_row("bfloat16", "bf16")
        return "\n".join(lines)
    ratio_row("float32, 1e4", "f32", 10000, 0.7)
    roof_row("float32", "f32")
    f16 = find(rows, "f16", 1000000, threads, isa)
    bf16 = find(rows, "bf16", 1000000, threads, isa)
    value = None
    if f16 and bf16 and number(f16["ours_gelem_s"]) and number(bf16["ours_gelem_s"]):
        value = number(f16["ours_gelem_s"]) / number(bf16["ours_gelem_s"])
    lines.append(f"| float16, 1e6 | >= 0.8x our bfloat16 | {fmt(value, '{:.2f}x')} | "
                 f"{verdict(value, 0.8, *[c for c in (f16, bf16) if c])} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", nargs="+", help="mishgrad_bench CSV files")
    parser.add_argument("--torch", help="torch_bench CSV")
    parser.add_argument("--target-threads", type=int, default=2)
    parser.add_argument("--target-isa", default="auto", help="MISHGRAD_ISA of the rows judged")
    parser.add_argument("--merged", help="write the joined CSV (with torch_gelem_s) here")
    args = parser.parse_args()

    rows = []
    for path in args.csv:
        rows.extend(read_rows(path))
    if not rows:
        print("report: no rows", file=sys.stderr)
        return 1
    attach_torch(rows, read_rows(args.torch) if args.torch else [])
    if args.merged:
        with open(args.merged, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            writer.writeheader()
            writer.writerows(rows)

    print(tables(rows))
    print(targets(rows, args.target_threads, args.target_isa))
    return 0


if __name__ == "__main__":
    sys.exit(main())

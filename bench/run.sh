#!/usr/bin/env bash
# Runs the MishGradV2 benchmark matrix and turns it into a table and a plot.
#
#   bash bench/run.sh              everything: dtypes f32,f16,bf16; sizes 1e3..1e8 with the
#                                  automatic ISA, 1e3..1e6 with each forced one; threads 1, 2
#   bash bench/run.sh --quick      a short pass: threads 2, ISA auto, sizes 1e3,1e4,1e6,3e7
#   options: --threads "1 2"  --isas "auto scalar" (default: auto and tools/isa_names.sh --here)  --sizes 1e3,1e6
#            --isa-sizes 1e3,1e6 (sizes for the forced ISAs)
#            --dtypes f32,bf16  --reps N  --batch-ms MS  --quiet-wait S
#            --torch (install PyTorch if absent)
#            --op mish  (the forward, aclnnMish: CSVs bench_mish.csv, torch_mish.csv, summary_mish.md)
#            --no-install  --installed PREFIX (time an installed package, not this tree)
#            --build-dir DIR  --out DIR (CSV, default bench/results)  --plot FILE  -j N  -h
#
# One process per (threads, ISA): the library reads MISHGRAD_NUM_THREADS and MISHGRAD_ISA
# once per process. Writes OUT/bench.csv, OUT/torch.csv (when PyTorch is there), OUT/merged.csv,
# OUT/summary.md (tables and issue 3's targets) and the PNG plot.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="$root/build-bench"
out_dir="$root/bench/results"
plot_file="$root/docs/img/throughput.png"
threads_list="1 2"
# the ISAs built for this machine, best first (the one list: runtime/mgrt_isa_list.inc)
isas="auto $(bash "$root/tools/isa_names.sh" --here --best-first | tr '\n' ' ')"
isas=${isas% }
sizes=1e3,1e4,1e5,1e6,1e7,3e7,1e8
# Forced ISAs answer "how much does each SIMD path buy", which the in-cache sizes show; the
# scalar path at 1e8 would take minutes per case.
isa_sizes=1e3,1e4,1e5,1e6
dtypes=f32,f16,bf16
reps=11
batch_ms=40
quiet_wait=10
install=1
want_torch=0
installed_prefix=""
jobs=2
op=mish_backward

usage() { sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --quick) threads_list=2; isas=auto; sizes=1e3,1e4,1e6,3e7; reps=7 ;;
    --isa-sizes) isa_sizes=$2; shift ;;
    --threads) threads_list=$2; shift ;;
    --isas) isas=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --dtypes) dtypes=$2; shift ;;
    --reps) reps=$2; shift ;;
    --batch-ms) batch_ms=$2; shift ;;
    --quiet-wait) quiet_wait=$2; shift ;;
    --torch) want_torch=1 ;;
    --op) op=$2; shift ;;
    --no-install) install=0 ;;
    --installed) installed_prefix=$2; shift ;;
    --build-dir) build_dir=$2; shift ;;
    --out) out_dir=$2; shift ;;
    --plot) plot_file=$2; shift ;;
    -j) jobs=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

# A Python that can import module $1: Debian's packages land in /usr/bin/python3, which may
# not be the python3 first on PATH.
python_with() {
  local py
  for py in /usr/bin/python3 python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c "import $1" >/dev/null 2>&1; then
      echo "$py"
      return 0
    fi
  done
  return 1
}

# ---- optional packages: oneDNN for its column, matplotlib for the plot, PyTorch on request
if [ "$install" = 1 ]; then
  missing=()
  dpkg -s libdnnl-dev >/dev/null 2>&1 || missing+=(libdnnl-dev)
  python_with matplotlib >/dev/null || missing+=(python3-matplotlib)
  if [ "$want_torch" = 1 ] && ! python_with torch >/dev/null; then missing+=(python3-torch); fi
  if [ ${#missing[@]} -gt 0 ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
      echo "run.sh: installing ${missing[*]}"
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; } ||
        echo "run.sh: could not install ${missing[*]}; going on without them" >&2
    else
      echo "run.sh: ${missing[*]} missing and cannot be installed here (needs root and apt-get);" \
           "going on without them" >&2
    fi
  fi
fi

# ---- build (its own build directory; only the benchmark and the libraries it needs)
if [ -n "$installed_prefix" ]; then
  cmake -S "$root/bench" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_PREFIX_PATH="$installed_prefix" >/dev/null
else
  cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DMISHGRAD_BUILD_BENCH=ON \
        -DMISHGRAD_BUILD_TESTS=OFF -DMISHGRAD_BUILD_TOOLS=OFF >/dev/null
fi
cmake --build "$build_dir" --target mishgrad_bench -j "$jobs" >/dev/null
bench=$(find "$build_dir" -name mishgrad_bench -type f -perm -u+x | head -n 1)
[ -n "$bench" ] || { echo "run.sh: mishgrad_bench was not built" >&2; exit 1; }

# ---- the matrix
mkdir -p "$out_dir"
suffix=""
[ "$op" = mish ] && suffix=_mish
bench_csv="$out_dir/bench$suffix.csv"
torch_csv="$out_dir/torch$suffix.csv"
rm -f "$bench_csv" "$torch_csv"
{
  echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -sm), $(nproc) CPUs:" \
       "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)"
  echo "# load average before the run: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
  # The CPU as lscpu names it (the machine is not always the same one: figures from two
  # files compare only when these lines agree)
  if command -v lscpu >/dev/null 2>&1; then
    lscpu | grep -E '^(CPU\(s\)|Model name|Thread\(s\) per core|L2 cache|L3 cache):' || true
  fi
} > "$out_dir/machine$suffix.txt"
for threads in $threads_list; do
  for isa in $isas; do
    isa_option=()
    case_sizes=$sizes
    [ "$isa" = auto ] || { isa_option=(--isa "$isa"); case_sizes=$isa_sizes; }
    # The library's own ISA choice must not see a stale override from the caller.
    env -u MISHGRAD_ISA "$bench" --op "$op" --threads "$threads" "${isa_option[@]}" --sizes "$case_sizes" \
        --dtypes "$dtypes" --reps "$reps" --batch-ms "$batch_ms" --quiet-wait "$quiet_wait" \
        --csv "$bench_csv"
    echo
  done
done

torch_args=()
if torch_python=$(python_with torch); then
  for threads in $threads_list; do
    "$torch_python" "$root/bench/torch_bench.py" --op "$op" --threads "$threads" --sizes "$sizes" \
        --reps "$reps" --batch-ms "$batch_ms" --csv "$torch_csv"
  done
  torch_args=(--torch "$torch_csv")
else
  echo "run.sh: no PyTorch (bash bench/run.sh --torch installs python3-torch); no PyTorch column"
fi
echo "# load average after the run: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" >> "$out_dir/machine$suffix.txt"

# ---- report and plot
top_threads=$(printf '%s\n' $threads_list | sort -n | tail -n 1)
report_python=$(command -v python3 || echo /usr/bin/python3)
"$report_python" "$root/bench/report.py" "$bench_csv" "${torch_args[@]}" \
    --target-threads "$top_threads" --merged "$out_dir/merged$suffix.csv" | tee "$out_dir/summary$suffix.md"
if plot_python=$(python_with matplotlib); then
  mkdir -p "$(dirname "$plot_file")"
  [ "$op" = mish ] && plot_file="${plot_file%.png}_mish.png"
  "$plot_python" "$root/bench/plot.py" "$bench_csv" "${torch_args[@]}" \
      --threads "$top_threads" -o "$plot_file"
else
  echo "run.sh: no matplotlib; no plot"
fi

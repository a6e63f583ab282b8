#!/usr/bin/env bash
# Fuzzes the three operators with libFuzzer for a bounded time (aclnnMishBackward, aclnnMish
# and aclnnInplaceMish: fuzz/mish_backward_fuzz.c takes the operator from the input's layout),
# then measures the libraries' line coverage of the corpus (issue 10, defect 10).
#
#   bash .ci/fuzz.sh      FUZZ_SECONDS (default 90) of fuzzing in build-fuzz/, then coverage
#                         in build-fuzz-cov/ (report: build-fuzz-cov/coverage.txt)
#   env: FUZZ_SECONDS, FUZZ_JOBS (parallel fuzzer processes, default 1), FUZZ_ARGS (more
#        libFuzzer flags), FUZZ_COVERAGE (1 default; 0 skips the coverage step), JOBS
#
# Fuzzing build: clang; the three libraries with -fsanitize=fuzzer-no-link,address,undefined
# (so libFuzzer's guidance sees the library code), the harness with
# -fsanitize=fuzzer,address,undefined. The seed corpus (fuzz/corpus) is read, not written:
# new inputs go to build-fuzz/corpus. Any crash, sanitizer report, leak or failed check
# fails the job; the reproducer is left in build-fuzz/artifacts/.
#
# Coverage build: the libraries with clang's source-based coverage
# (-fprofile-instr-generate -fcoverage-mapping), the harness replayed without libFuzzer over
# the seeds alone and over the seeds plus what this run found, once per kernel ISA; llvm-profdata merges, llvm-cov
# reports per library (lines, functions, branches). Debian's llvm package is installed when
# llvm-profdata / llvm-cov are missing.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${FUZZ_SECONDS:-90}
fuzz_jobs=${FUZZ_JOBS:-1}
jobs=${JOBS:-2}
build="$root/build-fuzz"
cov_build="$root/build-fuzz-cov"

apt_install() {
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    return 1
  fi
}

# clang and its libFuzzer runtime (Debian: clang + libclang-rt-*-dev, or with older
# releases the runtime ships inside the versioned llvm package).
have_libfuzzer() {
  command -v clang >/dev/null 2>&1 || return 1
  printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n){(void)d;(void)n;return 0;}\n' \
    > /tmp/mishgrad_fuzz_probe.c
  clang -fsanitize=fuzzer,address,undefined /tmp/mishgrad_fuzz_probe.c -o /tmp/mishgrad_fuzz_probe 2>/dev/null
}
if ! have_libfuzzer; then
  echo "fuzz.sh: installing clang and its sanitizer/libFuzzer runtime"
  apt_install clang cmake make || true
  if ! have_libfuzzer; then
    version=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
    apt_install "libclang-rt-${version}-dev" >/dev/null 2>&1 || true
  fi
  have_libfuzzer || { echo "fuzz.sh: clang with libFuzzer is not available" >&2; exit 1; }
fi
clang_major=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)

cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DMISHGRAD_SANITIZE="address;undefined" -DMISHGRAD_BUILD_FUZZ=ON -DMISHGRAD_FUZZ_COVERAGE=OFF \
      -DMISHGRAD_BUILD_TESTS=OFF -DMISHGRAD_BUILD_BENCH=OFF -DMISHGRAD_BUILD_TOOLS=OFF >/dev/null
cmake --build "$build" -j "$jobs" --target mish_backward_fuzzer

mkdir -p "$build/corpus" "$build/artifacts"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASCEND_GLOBAL_LOG_LEVEL=${ASCEND_GLOBAL_LOG_LEVEL:-4}
echo "fuzz.sh: fuzzing for ${seconds} s"
# -timeout: one input may take at most 10 s (a hang is a failure); -rss_limit_mb: the
# harness's own buffers stay far below it, so growth means a leak.
fuzz_args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=256
           -artifact_prefix="$build/artifacts/" -print_final_stats=1)
if [ "$fuzz_jobs" -gt 1 ]; then fuzz_args+=(-fork="$fuzz_jobs"); fi
# shellcheck disable=SC2086
"$build/fuzz/mish_backward_fuzzer" "${fuzz_args[@]}" ${FUZZ_ARGS:-} "$build/corpus" "$root/fuzz/corpus" \
  2>&1 | tee "$build/fuzz.log" | grep -E '^INFO: Loaded|INITED|DONE|stat::|ERROR|check failed|SUMMARY' || true
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo "fuzz.sh: the fuzzer failed ($status); see $build/fuzz.log and $build/artifacts/" >&2
  tail -40 "$build/fuzz.log" >&2
  exit 1
fi
echo "fuzz.sh: no crash, no sanitizer report in ${seconds} s"

[ "${FUZZ_COVERAGE:-1}" = 1 ] || exit 0

# ---- line coverage of the corpus -------------------------------------------------------
pick_tool() {
  local name=$1
  if command -v "$name-$clang_major" >/dev/null 2>&1; then echo "$name-$clang_major"
  elif command -v "$name" >/dev/null 2>&1; then echo "$name"
  else return 1; fi
}
if ! pick_tool llvm-profdata >/dev/null || ! pick_tool llvm-cov >/dev/null; then
  echo "fuzz.sh: installing llvm (llvm-profdata, llvm-cov)"
  apt_install "llvm-$clang_major" >/dev/null 2>&1 || apt_install llvm || true
fi
profdata=$(pick_tool llvm-profdata) || { echo "fuzz.sh: llvm-profdata is not available" >&2; exit 1; }
llvmcov=$(pick_tool llvm-cov) || { echo "fuzz.sh: llvm-cov is not available" >&2; exit 1; }

cmake -S "$root" -B "$cov_build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DMISHGRAD_SANITIZE= -DMISHGRAD_BUILD_FUZZ=ON -DMISHGRAD_FUZZ_COVERAGE=ON \
      -DMISHGRAD_BUILD_TESTS=OFF -DMISHGRAD_BUILD_BENCH=OFF -DMISHGRAD_BUILD_TOOLS=OFF >/dev/null
cmake --build "$cov_build" -j "$jobs" --target mish_backward_coverage

report="$cov_build/coverage.txt"
: > "$report"
measure() { # name, corpus directories...
  local name=$1; shift
  local dir="$cov_build/profiles/$name"
  rm -rf "$dir" && mkdir -p "$dir"
  # once per kernel path of the ISA list (the harness does not choose one; one this CPU lacks
  # falls back to auto with a warning)
  local isa
  for isa in auto $(bash "$root/tools/isa_names.sh"); do
    MISHGRAD_ISA=$isa LLVM_PROFILE_FILE="$dir/run-%p.profraw" "$cov_build/fuzz/mish_backward_coverage" "$@" \
      | tail -1 | sed "s/^/  MISHGRAD_ISA=$isa: /"
  done
  "$profdata" merge -sparse -o "$dir/merged.profdata" "$dir"/run-*.profraw
  local inputs
  inputs=$(find "$@" -type f | wc -l)
  printf '%s (%s inputs)\n' "$name" "$inputs" >> "$report"
  local lib
  for lib in ascendcl nnopbase cust_opapi; do
    # the TOTAL row: regions, missed, cover, functions, missed, cover, lines, missed, cover, ...
    "$llvmcov" report "$cov_build/lib$lib.so" -instr-profile="$dir/merged.profdata" \
      | awk -v lib="lib$lib" '$1 == "TOTAL" {printf "  %-14s lines %6s of %5d   functions %6s   branches %6s\n", lib, $10, $8, $7, $13}' \
      >> "$report"
  done
  "$llvmcov" report "$cov_build/libascendcl.so" -object "$cov_build/libnnopbase.so" -object "$cov_build/libcust_opapi.so" \
    -instr-profile="$dir/merged.profdata" > "$dir/files.txt"
}
measure seeds "$root/fuzz/corpus"
measure "seeds+found" "$root/fuzz/corpus" "$build/corpus"
echo "fuzz.sh: line coverage of the libraries (per file: $cov_build/profiles/*/files.txt)"
cat "$report"

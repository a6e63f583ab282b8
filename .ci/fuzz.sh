#!/usr/bin/env bash
# Fuzzes aclnnMishBackward with libFuzzer for a bounded time (issue 5).
#
#   bash .ci/fuzz.sh            FUZZ_SECONDS (default 90) of fuzzing in build-fuzz/
#   env: FUZZ_SECONDS, FUZZ_JOBS (parallel fuzzer processes, default 1), FUZZ_ARGS (more
#        libFuzzer flags)
#
# Builds with clang, -fsanitize=fuzzer,address,undefined for the harness and
# address;undefined for the three libraries. The seed corpus (fuzz/corpus) is read, not
# written: new inputs go to build-fuzz/corpus. Any crash, sanitizer report, leak or failed
# check fails the job; the reproducer is left in build-fuzz/artifacts/.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${FUZZ_SECONDS:-90}
fuzz_jobs=${FUZZ_JOBS:-1}
build="$root/build-fuzz"

# clang and its libFuzzer runtime (Debian: clang + libclang-rt-*-dev, or with older
# releases the runtime ships inside the versioned llvm package).
have_libfuzzer() {
  command -v clang >/dev/null 2>&1 || return 1
  printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n){(void)d;(void)n;return 0;}\n' \
    > /tmp/mishgrad_fuzz_probe.c
  clang -fsanitize=fuzzer,address,undefined /tmp/mishgrad_fuzz_probe.c -o /tmp/mishgrad_fuzz_probe 2>/dev/null
}
if ! have_libfuzzer; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "fuzz.sh: installing clang and its sanitizer/libFuzzer runtime"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang cmake make >/dev/null
    if ! have_libfuzzer; then
      version=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "libclang-rt-${version}-dev" >/dev/null 2>&1 || true
    fi
  fi
  have_libfuzzer || { echo "fuzz.sh: clang with libFuzzer is not available" >&2; exit 1; }
fi

cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DMISHGRAD_SANITIZE="address;undefined" -DMISHGRAD_BUILD_FUZZ=ON \
      -DMISHGRAD_BUILD_TESTS=OFF -DMISHGRAD_BUILD_BENCH=OFF -DMISHGRAD_BUILD_TOOLS=OFF >/dev/null
cmake --build "$build" -j "${JOBS:-2}" --target mish_backward_fuzzer

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
"$build/fuzz/mish_backward_fuzzer" "${fuzz_args[@]}" ${FUZZ_ARGS:-} "$build/corpus" "$root/fuzz/corpus"
echo "fuzz.sh: no crash, no sanitizer report in ${seconds} s"

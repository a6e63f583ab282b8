#!/usr/bin/env bash
# Sanitizer jobs (issue 5), each in its own build directory:
#   build-asan/  the whole project and test suite with AddressSanitizer + UndefinedBehavior
#                Sanitizer (leak detection on); runs every CTest test except the exhaustive
#                accuracy sweeps (too slow instrumented; they run in the plain build)
#   build-tsan/  ThreadSanitizer; runs the tests labelled "threads"
#
#   bash .ci/sanitizers.sh [asan|tsan|all]     default all; env CC picks the compiler
#   env: JOBS (default 2), SANITIZER_CTEST_EXCLUDE (default "accuracy")
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
which=${1:-all}
jobs=${JOBS:-2}
exclude=${SANITIZER_CTEST_EXCLUDE:-accuracy}

# A compiler with the sanitizer runtimes: clang if present, else gcc (libasan/libubsan/libtsan
# come with Debian's gcc). Install what is missing on a bare Debian machine.
if [ -z "${CC:-}" ]; then
  if command -v clang >/dev/null 2>&1; then CC=clang; else CC=gcc; fi
fi
# the C++ faces (optiling/opdev/opbuild) with the same compiler family: one sanitizer runtime
if [ -z "${CXX:-}" ]; then
  case "$CC" in clang*) CXX=clang++ ;; *) CXX=g++ ;; esac
fi
export CXX
if ! command -v "$CC" >/dev/null 2>&1 || ! command -v cmake >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cmake make gcc >/dev/null
    command -v "$CC" >/dev/null 2>&1 || CC=gcc
  else
    echo "sanitizers.sh: need $CC and cmake" >&2
    exit 1
  fi
fi
export CC

# TSan maps memory at fixed addresses; kernels with a large mmap randomisation make it abort
# with "unexpected memory mapping". Running without address randomisation avoids that.
tsan_prefix=()
tsan_probe() {
  local dir=$1
  printf 'int main(void){return 0;}\n' > "$dir/probe.c"
  "$CC" -fsanitize=thread "$dir/probe.c" -o "$dir/probe" 2>/dev/null || return 2
  if "$dir/probe" >/dev/null 2>&1; then return 0; fi
  if command -v setarch >/dev/null 2>&1 && setarch "$(uname -m)" -R "$dir/probe" >/dev/null 2>&1; then
    tsan_prefix=(setarch "$(uname -m)" -R)
    return 0
  fi
  return 1
}

configure_and_build() {
  local dir=$1 sanitize=$2
  cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMISHGRAD_SANITIZE="$sanitize" \
        -DMISHGRAD_BUILD_BENCH=OFF -DMISHGRAD_BUILD_TOOLS=OFF >/dev/null
  cmake --build "$dir" -j "$jobs"
}

status=0

if [ "$which" = all ] || [ "$which" = asan ]; then
  echo "== sanitizers.sh: ASan + UBSan ($CC) in build-asan/"
  configure_and_build "$root/build-asan" "address;undefined"
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  export LSAN_OPTIONS=${LSAN_OPTIONS:-}
  # The package tests build programs against an install tree: give them this build's.
  cmake --install "$root/build-asan" --prefix "$root/build-asan/install" >/dev/null
  export MISHGRAD_INSTALL_PREFIX="$root/build-asan/install"
  ctest --test-dir "$root/build-asan" --output-on-failure -j "$jobs" -E "$exclude" || status=1
fi

if [ "$which" = all ] || [ "$which" = tsan ]; then
  echo "== sanitizers.sh: TSan ($CC) in build-tsan/"
  mkdir -p "$root/build-tsan"
  if tsan_probe "$root/build-tsan"; then
    configure_and_build "$root/build-tsan" "thread"
    export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
    if [ ${#tsan_prefix[@]} -gt 0 ]; then
      echo "sanitizers.sh: TSan runs under '${tsan_prefix[*]}' (no address randomisation)"
      # setarch's personality is inherited by ctest's children.
      "${tsan_prefix[@]}" ctest --test-dir "$root/build-tsan" --output-on-failure -j "$jobs" -L threads || status=1
    else
      ctest --test-dir "$root/build-tsan" --output-on-failure -j "$jobs" -L threads || status=1
    fi
  else
    echo "sanitizers.sh: a ThreadSanitizer program cannot run here (even without ASLR)" >&2
    status=1
  fi
fi

exit $status

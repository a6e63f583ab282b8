#!/usr/bin/env bash
# Cross-builds MishGradV2 for aarch64 (so the NEON kernel compiles with -Werror on every
# change) and runs the kernel and unit tests under qemu-user: NEON against the portable
# path bit for bit, and the contract tests through the public API.
#   bash .ci/cross_aarch64.sh            build dir: build-aarch64/
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

need=()
command -v clang >/dev/null 2>&1 || need+=(clang)
command -v qemu-aarch64 >/dev/null 2>&1 || need+=(qemu-user)
[ -e /usr/aarch64-linux-gnu/include/stdio.h ] || need+=(libc6-dev-arm64-cross)
ls /usr/lib/gcc-cross/aarch64-linux-gnu/*/libgcc.a >/dev/null 2>&1 || need+=(libgcc-12-dev-arm64-cross binutils-aarch64-linux-gnu)
if [ ${#need[@]} -gt 0 ]; then
  echo "cross_aarch64.sh: installing ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

build=build-aarch64
CC=clang cmake -S . -B "$build" -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 \
  -DCMAKE_C_COMPILER_TARGET=aarch64-linux-gnu \
  -DCMAKE_CROSSCOMPILING_EMULATOR="qemu-aarch64;-L;/usr/aarch64-linux-gnu" \
  -DMISHGRAD_BUILD_BENCH=OFF -DMISHGRAD_BUILD_TOOLS=ON -DMISHGRAD_BUILD_OPS_FRAMEWORK=OFF >/dev/null
# (the C++ ops-nn framework, optiling/opdev/opbuild, is left out: the cross toolchain here
# is C only, and CMake would otherwise pick the host's C++ compiler)
cmake --build "$build" -j 2
# Package tests build consumers with the host compiler; the API accuracy tests are slow
# under emulation (long double is software quad precision on AArch64) and cover the same
# kernel bits the bit-exact tests compare. The kernel tests run here: both operators' NEON
# tables against scalar bit for bit (kernel.mish_grad_v2.bitexact.neon, kernel.mish.bitexact.neon),
# their loops and streaming tiles, the dispatch (NEON expected from the CPU), and the
# forward's accuracy on the NEON table; kernel.exp (60 million expl) is left to the host.
# The elementwise contract tests (ut_elementwise_contract*) check host logic that does not
# depend on the architecture, with 2^20-element and 300k-element cases that take over 300 s
# under emulation; they run natively in build.sh -u and under the sanitizers.
ctest --test-dir "$build" --output-on-failure -j 2 -R "kernel|ut_" -E "kernel\.exp|ut_elementwise_contract"

#!/usr/bin/env bash
# The seed, unchanged, from an ops-nn checkout: MISHGRAD_OPS_NN names the checkout (a skip,
# exit 77, when unset). Builds experimental/activation/mish_grad_v2 with the operator
# developer's command (build.sh --ops-nn) into a package in CANN's layout, then compiles
# seed_mish_backward_values.cpp with CANN's flags against it and runs it: aclnnMishBackward
# from that package (the seed's op_api, tiling and AscendC kernel on the twin) for float32,
# float16 and bfloat16 against the project's reference.
# usage: test_ops_nn_seed.sh <source root> <work dir>
set -uo pipefail
root=$1
work=$2
if [ -z "${MISHGRAD_OPS_NN:-}" ]; then
  echo "SKIPPED: MISHGRAD_OPS_NN is not set (an ops-nn checkout, e.g. a clone of jbgztxdy/ops-nn)"
  exit 77
fi
if [ ! -d "$MISHGRAD_OPS_NN/experimental/activation/mish_grad_v2/op_host" ]; then
  echo "SKIPPED: $MISHGRAD_OPS_NN has no experimental/activation/mish_grad_v2"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work" || exit 1
pkg=$work/package
MISHGRAD_BUILD_DIR="$work/build" bash "$root/build.sh" --ops-nn="$MISHGRAD_OPS_NN" --experimental --ops=mish_grad_v2 \
  --opapi -j"${JOBS:-2}" -O2 --prefix "$pkg" || { echo "FAILED: build.sh --ops-nn"; exit 1; }
op_api=$pkg/opp/vendors/customize_nn/op_api
# the reference as C, the program with CANN's flags (an ops-nn example's run.sh: g++ -std=c++17 -O2)
cc -std=c11 -O2 -c "$root/reference/mish_reference.c" -o "$work/mish_reference.o" || exit 1
( source "$pkg/set_env.sh" &&
  g++ -std=c++17 -O2 "$root/tests/opapi/seed/seed_mish_backward_values.cpp" "$work/mish_reference.o" \
    -I"$root/reference" -I"$pkg/$(uname -m)-linux/include" -I"$op_api/include" -L"$pkg/lib64" -L"$op_api/lib" \
    -Wl,-rpath,"$pkg/lib64:$op_api/lib" -lcust_opapi -lnnopbase -lascendcl -lm -o "$work/seed_values" &&
  "$work/seed_values" )

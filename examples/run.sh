#!/usr/bin/env bash
# Builds the three MishGradV2 libraries (only them: no tests, tools or benchmarks) and
# installs them with the headers into ./install, then builds the operators' examples
# against the INSTALLED headers and libraries, linked the way a CANN program is
# (-lcust_opapi -lnnopbase -lascendcl), and runs it. Incremental: what is up to date is
# not rebuilt. The C example always runs; the C++ one (CANN's own sample style) too when
# a C++ compiler is present. Exit status 0 only when every example printed "passed".
#
#   bash examples/run.sh
#   environment: MISHGRAD_INSTALL_PREFIX (default ./install), MISHGRAD_BUILD_DIR
#                (default ./build), MISHGRAD_JOBS (parallel build jobs), CC, CXX
#
# As the seed runs it, against a CANN toolkit layout (bash build.sh --prefix P --cann-layout):
#   source P/set_env.sh
#   export LD_LIBRARY_PATH=P/opp/vendors/customize_nn/op_api/lib:${LD_LIBRARY_PATH}
#   bash examples/run.sh
# With ASCEND_HOME_PATH set and the operator package in it, nothing is built: the examples
# are compiled with CANN's example flags against that layout and run with its library path.
set -euo pipefail

examples_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$examples_dir")
prefix=${MISHGRAD_INSTALL_PREFIX:-$root/install}
build_dir=${MISHGRAD_BUILD_DIR:-$root/build}
jobs=${MISHGRAD_JOBS:-$(nproc 2>/dev/null || echo 2)}

arch_include=""
op_api=""
if [ -n "${ASCEND_HOME_PATH:-}" ]; then
  arch_include="$ASCEND_HOME_PATH/$(uname -m)-linux/include"
  op_api="$ASCEND_HOME_PATH/opp/vendors/customize_nn/op_api"
fi
if [ -n "$op_api" ] && [ -e "$op_api/lib/libcust_opapi.so" ] && [ -d "$arch_include/acl" ]; then
  echo "run.sh: using the CANN layout in ASCEND_HOME_PATH=$ASCEND_HOME_PATH"
  include_flags=(-I"$arch_include" -I"$op_api/include")
  # CANN's example flags: the loader finds the libraries through set_env.sh's LD_LIBRARY_PATH.
  link_flags=(-L"$ASCEND_HOME_PATH/lib64" -L"$op_api/lib" -lcust_opapi -lnnopbase -lascendcl)
  out_dir=$(mktemp -d)
  trap 'rm -rf "$out_dir"' EXIT
else
echo "run.sh: building the libraries and installing them into $prefix"
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
fi
# libcust_opapi brings libnnopbase and libascendcl with it.
cmake --build "$build_dir" --target cust_opapi -j "$jobs"
for component in runtime development; do
  cmake --install "$build_dir" --prefix "$prefix" --component "$component" >/dev/null
done

# GNUInstallDirs puts the libraries in lib or lib64 depending on the system.
libdir=""
for candidate in "$prefix/lib" "$prefix/lib64"; do
  if [ -e "$candidate/libcust_opapi.so" ]; then libdir=$candidate; break; fi
done
if [ -z "$libdir" ]; then
  echo "run.sh: libcust_opapi.so not found under $prefix/lib or $prefix/lib64" >&2
  exit 1
fi

out_dir="$build_dir/examples"
mkdir -p "$out_dir"
include_flags=(-I"$prefix/include")
# shellcheck disable=SC2054  # -Wl,-rpath,DIR is one word: the commas belong to it
link_flags=(-L"$libdir" -Wl,-rpath,"$libdir" -lcust_opapi -lnnopbase -lascendcl)
fi
status=0

cc=${CC:-cc}
echo "run.sh: C example ($cc)"
# every C example here (test_aclnn_<op>.c), so a new operator's example needs no line
for source in "$examples_dir"/test_aclnn_*.c; do
  example=$(basename "$source" .c)
  "$cc" -std=c11 -O2 -Wall -Wextra "${include_flags[@]}" \
    "$examples_dir/$example.c" -o "$out_dir/${example}_c" "${link_flags[@]}" -lm
  "$out_dir/${example}_c" || status=1
done

cxx=${CXX:-g++}
if command -v "$cxx" >/dev/null 2>&1; then
  echo "run.sh: C++ example ($cxx)"
  for source in "$examples_dir"/test_aclnn_*.cpp; do
    example=$(basename "$source" .cpp)
    "$cxx" -O2 -Wall -Wextra "${include_flags[@]}" "$examples_dir/$example.cpp" -o "$out_dir/${example}_cpp" \
      "${link_flags[@]}"
    "$out_dir/${example}_cpp" || status=1
  done
else
  echo "run.sh: no C++ compiler ($cxx); the C++ example is skipped"
fi

if [ "$status" = 0 ]; then
  echo "run.sh: examples passed"
else
  echo "run.sh: an example FAILED" >&2
fi
exit "$status"

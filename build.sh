#!/usr/bin/env bash
# Builds, installs and (with -u) tests MishGradV2. CMake underneath.
#
#   bash build.sh                 configure, build, install into ./install
#   bash build.sh -u              the same, then run every test through CTest
#   bash build.sh --pkg           the same, then pack the install tree into a tarball
#   options: --prefix DIR  -j N  --build-dir DIR  --type Release|Debug|RelWithDebInfo
#            --sanitize address,undefined|thread   --no-bench  --clean  -h
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prefix="$root/install"
build_dir="$root/build"
jobs=$(nproc 2>/dev/null || echo 2)
build_type=Release
run_tests=0
make_package=0
sanitize=""
bench=ON
clean=0

usage() { sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    -u|--test) run_tests=1 ;;
    --pkg) make_package=1 ;;
    --prefix) prefix=$2; shift ;;
    --prefix=*) prefix=${1#*=} ;;
    -j) jobs=$2; shift ;;
    -j*) jobs=${1#-j} ;;
    --build-dir) build_dir=$2; shift ;;
    --build-dir=*) build_dir=${1#*=} ;;
    --type) build_type=$2; shift ;;
    --sanitize) sanitize=$2; shift ;;
    --sanitize=*) sanitize=${1#*=} ;;
    --no-bench) bench=OFF ;;
    --clean) clean=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "build.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

# The build needs a C compiler, CMake and make; install them on a bare Debian machine.
need=()
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v cc >/dev/null 2>&1 || need+=(gcc)
command -v make >/dev/null 2>&1 || need+=(make)
if [ ${#need[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "build.sh: installing ${need[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "build.sh: missing ${need[*]}; install them and run again" >&2
    exit 1
  fi
fi

case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
[ "$clean" = 1 ] && rm -rf "$build_dir"

cmake_args=(-S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type"
            -DCMAKE_INSTALL_PREFIX="$prefix" -DMISHGRAD_BUILD_BENCH="$bench")
[ -n "$sanitize" ] && cmake_args+=(-DMISHGRAD_SANITIZE="${sanitize//,/;}")

cmake "${cmake_args[@]}" >/dev/null
cmake --build "$build_dir" -j "$jobs"
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
echo "build.sh: installed into $prefix"

if [ "$run_tests" = 1 ]; then
  # The package tests build programs against the install tree just written.
  export MISHGRAD_INSTALL_PREFIX="$prefix"
  ctest --test-dir "$build_dir" --output-on-failure -j "$jobs"
fi

if [ "$make_package" = 1 ]; then
  version=$(sed -n 's/^project(MishGradV2 VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
  tarball="$root/MishGradV2-$version-$(uname -s | tr A-Z a-z)-$(uname -m).tar.gz"
  tar -C "$(dirname "$prefix")" -czf "$tarball" \
      --transform "s,^$(basename "$prefix"),MishGradV2-$version," "$(basename "$prefix")"
  echo "build.sh: packed $tarball"
fi

#!/usr/bin/env bash
# Builds and runs test_fp16_t.cpp (op::fp16_t of aclnn/opdev/fp16_t.h, header-only C++) with
# the host's C++ compiler, as C++11 with -Wall -Wextra -pedantic -Werror.
# Usage: check_fp16_t.sh INCLUDE_DIR CXX    Exit 77 (CTest skip) when there is no C++ compiler.
set -u
include_dir=$1 cxx=${2:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -z "$cxx" ] || ! command -v "$cxx" >/dev/null 2>&1; then
  echo "SKIP: no C++ compiler"; exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cxx" -std=c++11 -Wall -Wextra -pedantic -Werror -I"$include_dir" "$here/test_fp16_t.cpp" -o "$work/test_fp16_t" ||
  { echo "FAIL: test_fp16_t.cpp does not compile"; exit 1; }
"$work/test_fp16_t"

#!/usr/bin/env bash
# A tiny CMake project that finds the installed package with find_package(MishGradV2) and
# links the CANN C++ sample with target_link_libraries(app PRIVATE MishGradV2::cust_opapi)
# only (the target must bring nnopbase, ascendcl and the include path with it).
# shellcheck source=package_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/package_common.sh"

cxx=$(pkg_cxx) || skip "no C++ compiler (g++) is installed"
dir=$(work_dir cmake_package)
san="${pkg_san_flags[*]}"

if check "consumer project configures with find_package(MishGradV2)" \
     cmake -S "$MISHGRAD_PKG_SOURCE_DIR/tests/package/cmake_consumer" -B "$dir/build" \
       -DCMAKE_PREFIX_PATH="$MISHGRAD_PKG_PREFIX" -DCMAKE_C_COMPILER="$pkg_cc" -DCMAKE_CXX_COMPILER="$cxx" \
       -DCMAKE_C_FLAGS="$san" -DCMAKE_CXX_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san" \
       -DMISHGRAD_SAMPLE_SOURCE="$MISHGRAD_PKG_SOURCE_DIR/examples/test_aclnn_mish_grad_v2.cpp" \
       -DMISHGRAD_C_SAMPLE_SOURCE="$MISHGRAD_PKG_SOURCE_DIR/examples/test_aclnn_mish_grad_v2.c"; then
  if check "consumer project builds" cmake --build "$dir/build" -j 2; then
    for app in app c_app; do
      "$dir/build/$app" >"$dir/$app.out" 2>&1
      rc=$?
      cat "$dir/$app.out"
      check "$app exits 0" test "$rc" = 0
      check "$app says passed" contains "$dir/$app.out" "passed"
      check "$app prints the doc's 7.147748" contains "$dir/$app.out" "7.147748"
    done
  fi
fi

finish

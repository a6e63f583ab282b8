#!/usr/bin/env bash
# One version everywhere: aclrtGetVersion (the runtime), mishgrad/version.h, pkg-config
# --modversion, the CMake package's version (find_package) and project(VERSION) in the
# source, which all of them come from. And the libraries' file names carry it.
# shellcheck source=package_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/package_common.sh"

dir=$(work_dir version)
libdir=$(pkg_libdir) || { fail "installed tree"; finish; }
project_version=$(sed -n 's/^project(MishGradV2 VERSION \([0-9.]*\).*/\1/p' "$MISHGRAD_PKG_SOURCE_DIR/CMakeLists.txt")
check "CMakeLists.txt declares a version ($project_version)" test -n "$project_version"

if check "the version probe builds against the installed tree" \
     build_c_plain "$dir/version_probe" "$MISHGRAD_PKG_SOURCE_DIR/tests/package/version_probe.c"; then
  "$dir/version_probe" >"$dir/probe.out" 2>&1
  cat "$dir/probe.out"
  check "aclrtGetVersion returns $project_version" grep -qx "runtime=$project_version" "$dir/probe.out"
  check "mishgrad/version.h says $project_version" grep -qx "header=$project_version" "$dir/probe.out"
  check "MISHGRAD_VERSION_STRING is $project_version" grep -qx "header_string=$project_version" "$dir/probe.out"
  IFS=. read -r major minor patch <<<"$project_version"
  check "MISHGRAD_VERSION is major*10000 + minor*100 + patch" \
    grep -qx "header_number=$((major * 10000 + minor * 100 + patch))" "$dir/probe.out"
  check "aclrtGetVersion(NULL, ...) is ACL_ERROR_INVALID_PARAM (100000)" grep -qx "null_status=100000" "$dir/probe.out"
fi

if command -v pkg-config >/dev/null 2>&1; then
  pc_version=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --modversion mish_grad_v2)
  check "pkg-config --modversion is $project_version (got $pc_version)" test "$pc_version" = "$project_version"
fi

cmake -S "$MISHGRAD_PKG_SOURCE_DIR/tests/package/version_consumer" -B "$dir/cmake" \
  -DCMAKE_PREFIX_PATH="$MISHGRAD_PKG_PREFIX" >"$dir/cmake.out" 2>&1
check "find_package(MishGradV2) reports $project_version" grep -q -- "-- cmake_package=$project_version\$" "$dir/cmake.out"
check "libcust_opapi.so.$project_version is installed" test -f "$libdir/libcust_opapi.so.$project_version"

finish

#!/usr/bin/env bash
# `bash build.sh --pkg`: the tarball holds exactly what the install wrote (its install
# manifest), below one MishGradV2-<version>/ folder, and nothing else that lay in the
# prefix; the .deb (CPack) installs into /usr with Debian's multiarch library folder, and
# extracted with `dpkg-deb -x` its pkg-config file, CMake package, libraries and program
# work from there. Then the uninstall target removes what was installed, and only that.
# Reuses the seed command's build folder.
# shellcheck source=package_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/package_common.sh"

[ -z "$pkg_sanitize" ] || skip "uses the seed command's unsanitized tree; the plain build runs it"
command -v dpkg-deb >/dev/null 2>&1 || skip "dpkg-deb is not installed"
command -v cpack >/dev/null 2>&1 || skip "cpack is not installed"
seed_build="$MISHGRAD_PKG_WORK_DIR/seed/build"
[ -f "$seed_build/CMakeCache.txt" ] || { fail "the seed command's build folder ($seed_build)"; finish; }
dir=$(work_dir package_files)
src=$MISHGRAD_PKG_SOURCE_DIR
prefix="$dir/prefix"
out="$dir/out"
version=$(sed -n 's/^#define MISHGRAD_VERSION_STRING "\(.*\)"$/\1/p' "$seed_build/include/mishgrad/version.h")
arch=$(uname -m)

# Something of someone else's already lies in the prefix: it must not be packed.
mkdir -p "$prefix/share/other" && echo "not ours" >"$prefix/share/other/foreign.txt"

MISHGRAD_BUILD_DIR="$seed_build" nice bash "$src/build.sh" -j2 -O2 --prefix "$prefix" --pkg --pkg-dir "$out" \
  >"$dir/pkg.out" 2>&1
rc=$?
tail -n 5 "$dir/pkg.out"
check "build.sh --pkg exits 0 (rc $rc)" test "$rc" = 0

# ---- the tarball ------------------------------------------------------------------------
tarball="$out/MishGradV2-$version-linux-$arch.tar.gz"
check "tarball MishGradV2-$version-linux-$arch.tar.gz" test -f "$tarball"
manifest="$seed_build/install_manifest.txt"
sed "s,^$prefix/,," "$manifest" | LC_ALL=C sort >"$dir/manifest.list"
tar -tzf "$tarball" | grep -v '/$' | LC_ALL=C sort >"$dir/tarball.raw"
sed "s,^MishGradV2-$version/,," "$dir/tarball.raw" >"$dir/tarball.list"
check "every tarball entry lies below MishGradV2-$version/" \
  test -z "$(grep -v "^MishGradV2-$version/" "$dir/tarball.raw")"
check "the manifest lists files ($(wc -l <"$dir/manifest.list"))" test -s "$dir/manifest.list"
if ! diff -u "$dir/manifest.list" "$dir/tarball.list" >"$dir/diff.out"; then cat "$dir/diff.out"; fi
check "tarball contents equal the install manifest" cmp -s "$dir/manifest.list" "$dir/tarball.list"
check "the foreign file in the prefix is not packed" lacks "$dir/tarball.list" "foreign.txt"
mkdir -p "$dir/untar" && tar -xzf "$tarball" -C "$dir/untar"
check "the tarball keeps the library links" \
  test "$(readlink "$dir/untar/MishGradV2-$version/$(grep 'libcust_opapi.so$' "$dir/manifest.list")")" = "libcust_opapi.so.1"

# No test hooks in what ships (CMakeLists.txt: MISHGRAD_TEST_HOOKS): the internal names only
# the tests call are not exported, and the MISHGRAD_FAULT_* switches only say they do nothing.
test_only='mgrt_handle_live_count|mgrt_handle_reclaim_all|mgrt_set_recent_error|mgrt_stream_submit$|nnop_view_byte_range|nnop_view_overlaps_itself'
no_test_hooks() { # $1: a folder holding libascendcl.so.1 and libnnopbase.so.1; $2: what it is
  local lib
  for lib in ascendcl nnopbase; do
    check "$2: lib$lib.so.1 exports none of the test-only names" \
      test -z "$(objdump -T "$1/lib$lib.so.1" 2>/dev/null | awk '{ print $NF }' | grep -E "^($test_only)")"
  done
  check "$2: libascendcl.so.1 still exports the internal names the libraries share (mgrt_stream_submit_access)" \
    grep -q mgrt_stream_submit_access <(objdump -T "$1/libascendcl.so.1")
  printf '#include "acl/acl.h"\nint main(void) { int r = aclInit(NULL); aclFinalize(); return r; }\n' >"$dir/hooks.c"
  "$pkg_cc" -std=c11 "$dir/hooks.c" -I"$src/include" -L"$1" -Wl,-rpath,"$1" -lascendcl -o "$dir/hooks" &&
    ASCEND_LOG_PRINT_TO_STDOUT=1 MISHGRAD_FAULT_ALLOC=1 "$dir/hooks" >"$dir/hooks.out" 2>&1
  check "$2: MISHGRAD_FAULT_ALLOC is ignored, with a warning" contains "$dir/hooks.out" "this build has no test hooks"
}
if command -v objdump >/dev/null 2>&1; then
  no_test_hooks "$(dirname "$dir/untar/MishGradV2-$version/$(grep 'libascendcl.so.1$' "$dir/manifest.list")")" "the tarball"
fi

# ---- the .deb ---------------------------------------------------------------------------
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || "$pkg_cc" -print-multiarch)
deb=$(ls "$out"/mishgradv2_*.deb 2>/dev/null | head -n 1)
check "a .deb was made ($(basename "${deb:-none}"))" test -n "$deb"
if [ -n "$deb" ]; then
  check "the .deb is package mishgradv2" test "$(dpkg-deb -f "$deb" Package)" = mishgradv2
  check "the .deb has version $version" test "$(dpkg-deb -f "$deb" Version)" = "$version"
  check "the .deb is for this machine's architecture" \
    test "$(dpkg-deb -f "$deb" Architecture)" = "$(dpkg --print-architecture 2>/dev/null || echo "$arch")"
  check "the .deb's metadata names the licence" grep -q "Apache License 2.0" <(dpkg-deb -f "$deb" Description)
  dpkg-deb -c "$deb" | awk '{ print $6 }' >"$dir/deb.list"
  check "every .deb entry lies below /usr" test -z "$(grep -v '^\./usr/\{0,1\}' "$dir/deb.list" | grep -v '^\./$')"
  for file in "usr/lib/$multiarch/libcust_opapi.so.$version" "usr/lib/$multiarch/libascendcl.so.1" \
              "usr/lib/$multiarch/pkgconfig/mish_grad_v2.pc" "usr/lib/$multiarch/cmake/MishGradV2/MishGradV2Config.cmake" \
              usr/include/acl/acl.h usr/include/aclnnop/aclnn_mish_backward.h usr/bin/mishgrad_sweep \
              usr/share/doc/mishgradv2/copyright; do
    check "the .deb holds /$file" grep -qx "\./$file" "$dir/deb.list"
  done

  root="$dir/deb_root"
  check "dpkg-deb -x extracts it" dpkg-deb -x "$deb" "$root"
  usr="$root/usr"
  libdir="$usr/lib/$multiarch"
  pcdir="$libdir/pkgconfig"
  if command -v pkg-config >/dev/null 2>&1; then
    cflags=() libs=()
    pc_words cflags "$pcdir" --cflags mish_grad_v2
    pc_words libs "$pcdir" --libs mish_grad_v2
    # The .pc computes its prefix from its own folder: compare the folders it names.
    inc_dir=$(sed -n 's/^-I//p' <<<"${cflags[0]:-}")
    lib_dir=$(sed -n 's/^-L//p' <<<"${libs[0]:-}")
    check "the .deb's .pc gives -I<its usr/include> (got '${cflags[*]}')" \
      test -n "$inc_dir" -a "$(realpath -m "${inc_dir:-x}")" = "$(realpath "$usr/include")"
    check "the .deb's .pc gives -L<its usr/lib/$multiarch> (got '${libs[*]}')" \
      test -n "$lib_dir" -a "$(realpath -m "${lib_dir:-x}")" = "$(realpath "$libdir")"
    check "the .deb's .pc has no rpath" lacks <(echo "${libs[*]}") rpath
    check "the .deb's .pc says version $version" test "$(PKG_CONFIG_PATH="$pcdir" pkg-config --modversion mish_grad_v2)" = "$version"
    if check "a C consumer builds from the .deb's .pc" \
         "$pkg_cc" -std=c11 -Wall -Wextra -Werror "${cflags[@]}" "$src/tests/package/package_probe.c" \
           -o "$dir/deb_probe" "${libs[@]}" -lm; then
      LD_LIBRARY_PATH="$libdir" "$dir/deb_probe" run float >"$dir/deb_probe.out" 2>&1
      check "it runs against the .deb's libraries" contains "$dir/deb_probe.out" "values=right"
      check "it loads them from the .deb's tree" \
        grep -q "$libdir/libcust_opapi.so.1" <(LD_LIBRARY_PATH="$libdir" ldd "$dir/deb_probe")
    fi
  fi
  cxx=$(pkg_cxx)
  if [ -n "$cxx" ] && check "a CMake consumer configures with find_package from the .deb's /usr" \
       cmake -S "$src/tests/package/cmake_consumer" -B "$dir/deb_consumer" -DCMAKE_PREFIX_PATH="$usr" \
         -DCMAKE_C_COMPILER="$pkg_cc" -DCMAKE_CXX_COMPILER="$cxx" \
         -DMISHGRAD_SAMPLE_SOURCE="$src/examples/test_aclnn_mish_grad_v2.cpp" \
         -DMISHGRAD_C_SAMPLE_SOURCE="$src/examples/test_aclnn_mish_grad_v2.c"; then
    check "the CMake package found is the .deb's" \
      grep -q "MishGradV2_DIR:PATH=$libdir/cmake/MishGradV2" "$dir/deb_consumer/CMakeCache.txt"
    if check "the CMake consumer builds" cmake --build "$dir/deb_consumer" -j 2 >/dev/null; then
      "$dir/deb_consumer/app" >"$dir/deb_app.out" 2>&1
      check "the CMake consumer runs against the .deb's libraries" contains "$dir/deb_app.out" "passed"
    fi
  fi
  if command -v objdump >/dev/null 2>&1; then no_test_hooks "$libdir" "the .deb"; fi
  env -u LD_LIBRARY_PATH "$usr/bin/mishgrad_sweep" --from 1 --to 1.001 --threads 1 >"$dir/deb_tool.out" 2>&1
  check "the .deb's mishgrad_sweep starts from the extracted tree" contains "$dir/deb_tool.out" "bound err"
fi

# ---- the uninstall target -----------------------------------------------------------------
check "cmake --build --target uninstall succeeds" cmake --build "$seed_build" --target uninstall >"$dir/uninstall.out" 2>&1
left=0
while IFS= read -r file || [ -n "$file" ]; do
  if [ -e "$file" ] || [ -L "$file" ]; then left=$((left + 1)); echo "still there: $file"; fi
done <"$manifest"
check "uninstall removed every installed file" test "$left" = 0
check "uninstall left the foreign file alone" test -f "$prefix/share/other/foreign.txt"
check "uninstall removed the folders it emptied (include/)" test ! -e "$prefix/include"
check "uninstall kept the prefix" test -d "$prefix"

finish

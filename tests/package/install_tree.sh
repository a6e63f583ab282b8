#!/usr/bin/env bash
# Installs the build tree into a scratch prefix (the fixture the other package tests use)
# and checks that the tree holds what a CANN program and a packager expect: the public
# headers, the version header, three versioned shared libraries with SONAMEs, the
# pkg-config file and the CMake package.
# shellcheck source=package_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/package_common.sh"

rm -rf "$MISHGRAD_PKG_PREFIX"
# cmake --install rewrites the build tree's install_manifest.txt; keep the user's own
# install's list (what `--target uninstall` and build.sh --pkg go by) as it was.
manifest="$MISHGRAD_PKG_BUILD_DIR/install_manifest.txt"
saved="$MISHGRAD_PKG_WORK_DIR/user_install_manifest.txt"
mkdir -p "$MISHGRAD_PKG_WORK_DIR"
rm -f "$saved"
[ -f "$manifest" ] && cp -p "$manifest" "$saved"
cmake --install "$MISHGRAD_PKG_BUILD_DIR" --prefix "$MISHGRAD_PKG_PREFIX" >/dev/null
rc=$?
cp "$manifest" "$MISHGRAD_PKG_WORK_DIR/scratch_install_manifest.txt" 2>/dev/null
if [ -f "$saved" ]; then mv "$saved" "$manifest"; else rm -f "$manifest"; fi
if [ "$rc" != 0 ]; then
  fail "cmake --install $MISHGRAD_PKG_BUILD_DIR --prefix $MISHGRAD_PKG_PREFIX"
  finish
fi
pass "cmake --install into a scratch prefix"
check "the build tree's own install_manifest.txt is left as it was" \
  bash -c "[ ! -f '$manifest' ] || ! grep -qF '$MISHGRAD_PKG_PREFIX/' '$manifest'"

for header in acl/acl.h acl/acl_base.h acl/acl_rt.h aclnn/acl_meta.h aclnnop/aclnn_mish_backward.h \
              mishgrad/version.h; do
  check "include/$header installed" test -f "$MISHGRAD_PKG_PREFIX/include/$header"
done
# Internal interfaces stay private.
for private_header in mgrt.h nnop.h mish_grad_v2_kernel.h; do
  check "$private_header not installed" test -z "$(find "$MISHGRAD_PKG_PREFIX" -name "$private_header")"
done

libdir=$(pkg_libdir) || { fail "library folder"; finish; }
version=$(sed -n 's/^#define MISHGRAD_VERSION_STRING "\(.*\)"$/\1/p' "$MISHGRAD_PKG_PREFIX/include/mishgrad/version.h")
major=${version%%.*}
check "version.h carries a version ($version)" test -n "$version"

for lib in ascendcl nnopbase cust_opapi; do
  # libX.so -> libX.so.MAJOR -> libX.so.MAJOR.MINOR.PATCH, the usual chain for a SONAME.
  check "lib$lib.so.$version is a file" test -f "$libdir/lib$lib.so.$version" -a ! -L "$libdir/lib$lib.so.$version"
  check "lib$lib.so.$major links to it" test "$(readlink "$libdir/lib$lib.so.$major")" = "lib$lib.so.$version"
  check "lib$lib.so links to lib$lib.so.$major" test "$(readlink "$libdir/lib$lib.so")" = "lib$lib.so.$major"
  if command -v readelf >/dev/null 2>&1; then
    soname=$(readelf -d "$libdir/lib$lib.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    check "lib$lib SONAME is lib$lib.so.$major (got '$soname')" test "$soname" = "lib$lib.so.$major"
  fi
done

check "lib/pkgconfig/mish_grad_v2.pc installed" test -f "$libdir/pkgconfig/mish_grad_v2.pc"
for file in MishGradV2Config.cmake MishGradV2ConfigVersion.cmake MishGradV2Targets.cmake; do
  check "CMake package file $file" test -f "$libdir/cmake/MishGradV2/$file"
done

finish

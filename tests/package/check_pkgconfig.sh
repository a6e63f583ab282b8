#!/usr/bin/env bash
# A C program built with nothing but `pkg-config --cflags --libs mish_grad_v2` against the
# installed tree: the contract conformance program (every row of the aclnnMishBackward
# contract, checked from outside), plus the version the .pc file and version.h declare.
# shellcheck source=package_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/package_common.sh"

command -v pkg-config >/dev/null 2>&1 || skip "pkg-config is not installed"
dir=$(work_dir pkgconfig)
libdir=$(pkg_libdir) || { fail "installed tree"; finish; }
export PKG_CONFIG_PATH="$libdir/pkgconfig"

check "pkg-config finds mish_grad_v2" pkg-config --exists mish_grad_v2
libs=$(pkg-config --libs mish_grad_v2)
for lib in -lcust_opapi -lnnopbase -lascendcl; do
  check "pkg-config --libs names $lib" contains <(echo "$libs") "$lib"
done
# A .pc for /usr must not force a run path on every program that uses it (Debian policy);
# programs find the libraries through the loader's folders or LD_LIBRARY_PATH.
check "pkg-config --libs carries no rpath ($libs)" lacks <(echo "$libs") "rpath"
# The programs below are linked without an rpath, as a consumer of the .pc is.
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

tests_common="$MISHGRAD_PKG_SOURCE_DIR/tests/common"
if check "probe builds with pkg-config flags" \
     build_c_with_pkgconfig "$dir/package_probe" "$MISHGRAD_PKG_SOURCE_DIR/tests/package/package_probe.c"; then
  "$dir/package_probe" version >"$dir/version.out" 2>&1
  check "version.h agrees with pkg-config --modversion ($(pkg-config --modversion mish_grad_v2))" \
    contains "$dir/version.out" "version=$(pkg-config --modversion mish_grad_v2)"
fi

if check "contract conformance builds with pkg-config flags" \
     build_c_with_pkgconfig "$dir/contract_conformance" \
       "$MISHGRAD_PKG_SOURCE_DIR/tests/package/contract_conformance.c" -I"$tests_common"; then
  # Its own per-case lines and its "N passed, M failed" line show in the log.
  check "contract conformance passes against the installed package" "$dir/contract_conformance"
fi

# The tree moved elsewhere (as a tarball unpacked anywhere): the .pc file must follow it.
moved="$dir/moved_tree"
mkdir -p "$moved" && cp -a "$MISHGRAD_PKG_PREFIX/." "$moved/"
moved_pc_dir="$moved/${libdir#"$MISHGRAD_PKG_PREFIX"/}/pkgconfig"
moved_cflags=() moved_libs=()
pc_words moved_cflags "$moved_pc_dir" --cflags mish_grad_v2
pc_words moved_libs "$moved_pc_dir" --libs mish_grad_v2
check "a moved tree's .pc points into the moved tree" contains <(echo "${moved_cflags[*]} ${moved_libs[*]}") "$moved/"
check "a moved tree's .pc no longer names the old prefix" \
  lacks <(echo "${moved_cflags[*]} ${moved_libs[*]}") "$MISHGRAD_PKG_PREFIX/"
if check "probe builds against the moved tree" \
     "$pkg_cc" -std=c11 -Wall -Wextra -Werror "${pkg_san_flags[@]}" "${moved_cflags[@]}" \
       "$MISHGRAD_PKG_SOURCE_DIR/tests/package/package_probe.c" -o "$dir/moved_probe" "${moved_libs[@]}" -lm; then
  LD_LIBRARY_PATH="$moved/${libdir#"$MISHGRAD_PKG_PREFIX"/}" "$dir/moved_probe" run float >"$dir/moved.out" 2>&1
  check "probe built against the moved tree runs right" contains "$dir/moved.out" "values=right"
fi

finish

#!/usr/bin/env bash
# The installed programs start from the install tree, with no LD_LIBRARY_PATH: their
# RUNPATH is $ORIGIN/../<libdir>, so a copy of the tree elsewhere runs too.
# shellcheck source=package_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/package_common.sh"

tool="$MISHGRAD_PKG_PREFIX/bin/mishgrad_sweep"
[ -e "$tool" ] || skip "bin/mishgrad_sweep not installed (MISHGRAD_BUILD_TOOLS=OFF)"
dir=$(work_dir installed_tool)
libdir=$(pkg_libdir) || { fail "installed tree"; finish; }
rel_libdir=${libdir#"$MISHGRAD_PKG_PREFIX"/}

if command -v readelf >/dev/null 2>&1; then
  runpath=$(readelf -d "$tool" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
  check "bin/mishgrad_sweep RUNPATH is \$ORIGIN/../$rel_libdir (got '$runpath')" \
    test "$runpath" = "\$ORIGIN/../$rel_libdir"
  check "bin/mishgrad_sweep has no old-style RPATH" test -z "$(readelf -d "$tool" | grep '(RPATH)')"
fi

run_tool() {
  local exe=$1 out=$2
  env -u LD_LIBRARY_PATH "$exe" --dtype f32 --from 1 --to 1.001 --threads 1 >"$out" 2>&1
}
run_tool "$tool" "$dir/run.out"
rc=$?
cat "$dir/run.out"
check "installed mishgrad_sweep starts and exits 0 (rc $rc)" test "$rc" = 0
check "installed mishgrad_sweep measures the bound" contains "$dir/run.out" "bound err <= 1: 0 inputs outside"

# The whole tree moved: the program follows it.
cp -a "$MISHGRAD_PKG_PREFIX" "$dir/moved"
run_tool "$dir/moved/bin/mishgrad_sweep" "$dir/moved.out"
rc=$?
check "mishgrad_sweep in a moved copy of the tree starts (rc $rc)" test "$rc" = 0
if command -v ldd >/dev/null 2>&1; then
  check "the moved copy loads its own libcust_opapi" \
    grep -q "libcust_opapi.so.1 => $dir/moved/" <(env -u LD_LIBRARY_PATH ldd "$dir/moved/bin/mishgrad_sweep")
fi

finish

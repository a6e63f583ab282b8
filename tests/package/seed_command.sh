#!/usr/bin/env bash
# The seed's own test command, word for word, from the source folder:
#   bash build.sh --experimental --ops=mish_grad_v2 -u --opapi -j8 -O2
# in a build folder of its own (MISHGRAD_BUILD_DIR; the tree the CANN-layout and package
# tests then reuse). Its CTest run leaves out the package tests (so that it does not start
# itself again) and the long kernel, accuracy and reliability suites, which the enclosing
# run has just run on the same sources; the unit tests of the runtime, the tensor base and
# the operators run. Also: what build.sh says about options it does not know.
# shellcheck source=package_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/package_common.sh"

[ -z "$pkg_sanitize" ] || skip "builds its own unsanitized tree; the plain build runs it"
dir=$(work_dir seed)
src=$MISHGRAD_PKG_SOURCE_DIR

(cd "$src" && MISHGRAD_BUILD_DIR="$dir/build" MISHGRAD_INSTALL_PREFIX="$dir/install" \
   MISHGRAD_TEST_EXCLUDE_LABELS="package kernel accuracy reliability soak fuzz" nice \
   bash build.sh --experimental --ops=mish_grad_v2 -u --opapi -j8 -O2) >"$dir/seed.out" 2>&1
rc=$?
tail -n 30 "$dir/seed.out"
check "the seed's command exits 0 (rc $rc)" test "$rc" = 0
check "it installed into the prefix" test -f "$dir/install/include/aclnnop/aclnn_mish_backward.h"
check "it ran the tests and all passed" grep -q "100% tests passed" "$dir/seed.out"
check "it ran aclnnMishBackward's unit tests" grep -q "ut_aclnn_mish_backward" "$dir/seed.out"
check "-O2 reached the compiler" grep -q -- "-O2" "$dir/build/CMakeFiles/ascendcl.dir/flags.make"
check "-O2 comes after the build type's -O3" \
  awk '/^C_FLAGS/ { o3 = index($0, "-O3"); o2 = index($0, "-O2"); exit !(o2 > o3) }' \
    "$dir/build/CMakeFiles/ascendcl.dir/flags.make"
check "--ops=mish_grad_v2 leaves out the other operators' tests (label op:mish)" \
  grep -q "tests labelled op:mish .*package .* are left out" "$dir/seed.out"
check "--ops=mish_grad_v2 ran ut_aclnn_mish_backward" grep -Eq "Test +#[0-9]+: ut_aclnn_mish_backward " "$dir/seed.out"
check "--ops=mish_grad_v2 did not run aclnnMish's own ut_aclnn_mish" \
  bash -c "! grep -Eq 'Test +#[0-9]+: ut_aclnn_mish ' '$dir/seed.out'"
check "--ops=mish_grad_v2 still ran the operator-independent tests (ut_runtime)" \
  grep -Eq "Test +#[0-9]+: ut_runtime " "$dir/seed.out"

# Options: help is clean, unknown ones are refused with the list.
bash "$src/build.sh" -h >"$dir/help.out" 2>&1
rc=$?
check "build.sh -h exits 0" test "$rc" = 0
check "build.sh -h starts with its usage line" test "$(head -n 1 "$dir/help.out")" = "usage: bash build.sh [options]"
check "build.sh -h prints no shell code" lacks "$dir/help.out" "set -euo"
for option in --ops=LIST -O0 --opapi --experimental --cann-layout --pkg --prefix; do
  check "build.sh -h documents $option" contains "$dir/help.out" "$option"
done
bash "$src/build.sh" --frobnicate >"$dir/unknown.out" 2>&1
rc=$?
check "an unknown option is refused (rc $rc)" test "$rc" = 2
check "the refusal names the option" contains "$dir/unknown.out" "unknown option '--frobnicate'"
check "the refusal lists the options" contains "$dir/unknown.out" "--ops=LIST"
bash "$src/build.sh" --ops=mish,softmax >"$dir/unknown_op.out" 2>&1
rc=$?
check "an unknown operator is refused (rc $rc)" test "$rc" = 2
check "the refusal names the operator and the known ones" \
  contains "$dir/unknown_op.out" "unknown operator 'softmax' in --ops (known: mish_grad_v2 mish"
bash "$src/build.sh" -O9 >"$dir/unknown_o.out" 2>&1
check "-O9 is refused" contains "$dir/unknown_o.out" "unknown option '-O9'"

finish

#!/usr/bin/env bash
# An operator whose op_api calls another directory's l0 op (CANN compiles all of ops-nn's
# op_api into one library): build.sh --ops-nn must find the directory whose op_api l0 source
# defines the undefined l0op symbol and build it, with its tiling and kernel, into the
# package. A test checkout: experimental/activation/mish_via_l0 (this folder's, calling
# l0op::MishAsc) and activation/mish_asc (the project's own directory). Its op_api UTs run
# the other directory's kernel through phase 2 against the float64 mish. Then the same
# checkout without mish_asc's l0 source: the driver must name the missing l0 op and fail.
# usage: test_ops_nn_l0_dep.sh <repo root> <work folder>
set -uo pipefail
root=$1 work=$2
if [ ! -f "$root/ascendc/include/kernel_operator.h" ] || [ ! -f /usr/include/gtest/gtest.h ]; then
  echo "SKIPPED: needs the AscendC twin and gtest"; exit 77
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rm -rf "$work" && mkdir -p "$work/checkout/experimental/activation" "$work/checkout/activation"
cp -rL "$here/mish_via_l0" "$work/checkout/experimental/activation/"
cp -rL "$root/ops/experimental/activation/mish_asc" "$work/checkout/activation/"
fail=0
out=$(bash "$root/build.sh" --ops-nn="$work/checkout" --experimental --ops=mish_via_l0 -u -j2 \
        --build-dir "$work/build" --prefix "$work/package" 2>&1 | grep -v '^\[')
rc=$?
echo "$out"
grep -q "^mish_via_l0: l0op::MishAsc from activation/mish_asc (op_host/op_api/mish_asc.cpp), with its tiling and kernel, built into the package" <<<"$out" ||
  { echo "FAIL: the dependency was not resolved"; fail=1; }
grep -q "^mish_via_l0: 3 passed, 0 failed" <<<"$out" || { echo "FAIL: expected 'mish_via_l0: 3 passed, 0 failed' (2 op_api UTs, 1 kernel UT on the force-included tiling_def.h)"; fail=1; }
# the package's library defines the l0 op the operator calls (nothing left undefined)
# (grep -c reads all of nm's output: grep -q would stop early and fail the pipe)
[ "$(nm -C --defined-only "$work/package/opp/vendors/customize_nn/op_api/lib/libcust_opapi.so" | grep -c " T l0op::MishAsc(")" = 1 ] ||
  { echo "FAIL: libcust_opapi.so does not define l0op::MishAsc"; fail=1; }
# a kernel-UT folder whose CMakeLists.txt calls no AddOpTestCase (commented out, as mish's):
# CANN's build does not compile its UTs, nor does this one (a UT that cannot compile proves it)
kut="$work/checkout/experimental/activation/mish_via_l0/tests/ut/op_kernel"
printf '# AddOpTestCase(mish_via_l0 "ascend910b" "" "")\n' >"$kut/CMakeLists.txt"
printf 'this UT is not compiled by CANN either\n' >"$kut/test_not_built.cpp"
out=$(bash "$root/build.sh" --ops-nn="$work/checkout" --experimental --ops=mish_via_l0 -u -j2 \
        --build-dir "$work/build" --prefix "$work/package" 2>&1 | grep -v '^\[')
echo "$out"
grep -q "^  mish_via_l0: kernel UTs not built: tests/ut/op_kernel/CMakeLists.txt calls no AddOpTestCase" <<<"$out" ||
  { echo "FAIL: kernel UTs without AddOpTestCase not reported"; fail=1; }
grep -q "^mish_via_l0: 2 passed, 0 failed" <<<"$out" || { echo "FAIL: expected 'mish_via_l0: 2 passed, 0 failed' (op_api UTs only)"; fail=1; }
# without the l0 source that defines it (its header stays: the operator compiles, its link
# does not): named, and a failure
rm -f "$work/checkout/activation/mish_asc/op_host/op_api/mish_asc.cpp"
out=$(bash "$root/build.sh" --ops-nn="$work/checkout" --experimental --ops=mish_via_l0 -j2 \
        --build-dir "$work/build2" --prefix "$work/package2" 2>&1 | grep -v '^\[')
rc=$?
echo "$out"
grep -q "^mish_via_l0: needs l0op::MishAsc, which no op_api l0 source of .* defines (OP_TYPE_REGISTER(MishAsc))" <<<"$out" ||
  { echo "FAIL: a missing l0 op is not named"; fail=1; }
grep -q "^mish_via_l0: cannot be built: .*undefined reference to .l0op::MishAsc" <<<"$out" ||
  { echo "FAIL: the operator was not reported as not built"; fail=1; }
[ $rc -ne 0 ] || { echo "FAIL: exit status 0 with an unresolved l0 op"; fail=1; }
[ $fail = 0 ] && echo "PASS"
exit $fail

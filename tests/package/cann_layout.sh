#!/usr/bin/env bash
# `bash build.sh --prefix P --cann-layout` installs CANN's toolkit layout, and the C++
# example builds with the upstream example script's flags and runs after
# `source P/set_env.sh` plus the operator package's library folder on LD_LIBRARY_PATH,
# exactly as the seed's README runs it. Reuses the seed command's build folder.
# shellcheck source=package_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/package_common.sh"

[ -z "$pkg_sanitize" ] || skip "uses the seed command's unsanitized tree; the plain build runs it"
cxx=$(pkg_cxx) || skip "no C++ compiler (g++) is installed"
seed_build="$MISHGRAD_PKG_WORK_DIR/seed/build"
[ -f "$seed_build/CMakeCache.txt" ] || { fail "the seed command's build folder ($seed_build)"; finish; }
dir=$(work_dir cann_layout)
P="$dir/Ascend/cann"
src=$MISHGRAD_PKG_SOURCE_DIR

# The same options as the seed's build (-O2), so nothing is rebuilt.
MISHGRAD_BUILD_DIR="$seed_build" bash "$src/build.sh" -j2 -O2 --prefix "$P" --cann-layout >"$dir/install.out" 2>&1
rc=$?
tail -n 3 "$dir/install.out"
check "build.sh --prefix P --cann-layout exits 0 (rc $rc)" test "$rc" = 0

arch=$(uname -m)
op_api="$P/opp/vendors/customize_nn/op_api"
for file in set_env.sh "$arch-linux/include/acl/acl.h" "$arch-linux/include/acl/acl_rt.h" \
            "$arch-linux/include/aclnn/acl_meta.h" "$arch-linux/include/aclnn/aclnn_base.h" \
            lib64/libascendcl.so lib64/libnnopbase.so \
            opp/vendors/customize_nn/op_api/include/aclnnop/aclnn_mish_backward.h \
            opp/vendors/customize_nn/op_api/include/aclnnop/aclnn_mish.h \
            opp/vendors/customize_nn/op_api/include/aclnn_mish.h \
            opp/vendors/customize_nn/op_api/include/aclnn_mish_backward.h \
            opp/vendors/customize_nn/op_api/include/aclnn_util.h \
            opp/vendors/customize_nn/op_api/lib/libcust_opapi.so; do
  check "P/$file" test -e "$P/$file"
done
check "the operator library is not in lib64" test ! -e "$P/lib64/libcust_opapi.so"
check "no GNU layout mixed in (P/lib)" test ! -e "$P/lib"

env_out=$(env -i HOME="$HOME" PATH="$PATH" bash -c "source '$P/set_env.sh' && echo \"home=\$ASCEND_HOME_PATH\" && echo \"ld=\$LD_LIBRARY_PATH\"")
check "set_env.sh exports ASCEND_HOME_PATH=P" grep -qx "home=$P" <<<"$env_out"
check "set_env.sh puts P/lib64 on LD_LIBRARY_PATH" grep -q "^ld=.*$P/lib64" <<<"$env_out"
check "set_env.sh keeps what LD_LIBRARY_PATH held" \
  grep -q ":/keep/me$" <(LD_LIBRARY_PATH=/keep/me bash -c "source '$P/set_env.sh' && echo \$LD_LIBRARY_PATH")

# The upstream example script's compile line, nothing added.
flags=(-I"$P/$arch-linux/include" -I"$op_api/include" -L"$P/lib64" -L"$op_api/lib"
       -lcust_opapi -lnnopbase -lascendcl)
exe="$dir/test_aclnn_mish_grad_v2"
if check "the C++ example builds with the upstream flags" \
     "$cxx" "$src/examples/test_aclnn_mish_grad_v2.cpp" -o "$exe" "${flags[@]}"; then
  env -u LD_LIBRARY_PATH bash -c "source '$P/set_env.sh' &&
      export LD_LIBRARY_PATH='$op_api/lib':\${LD_LIBRARY_PATH} && '$exe'" >"$dir/run.out" 2>&1
  rc=$?
  cat "$dir/run.out"
  check "the example runs after source P/set_env.sh (rc $rc)" test "$rc" = 0
  check "the example says passed" contains "$dir/run.out" "passed"
  check "the example prints the doc's 7.14774" contains "$dir/run.out" "result[7] is: 7.14774"
  env -u LD_LIBRARY_PATH bash -c "source '$P/set_env.sh' && '$exe'" >"$dir/run_env_only.out" 2>&1
  check "set_env.sh alone is enough to run it" contains "$dir/run_env_only.out" "passed"
fi
# The seed's "Example 运行" steps word for word: set_env.sh, the operator package on
# LD_LIBRARY_PATH, then examples/run.sh, which uses the layout ASCEND_HOME_PATH names.
env -u LD_LIBRARY_PATH -u ASCEND_HOME_PATH bash -c "source '$P/set_env.sh' &&
    export LD_LIBRARY_PATH='$op_api/lib':\${LD_LIBRARY_PATH} && cd '$src/examples' && bash run.sh" \
  >"$dir/run_sh.out" 2>&1
rc=$?
tail -n 3 "$dir/run_sh.out"
check "examples/run.sh after source P/set_env.sh passes (rc $rc)" test "$rc" = 0
check "examples/run.sh used the CANN layout" contains "$dir/run_sh.out" "using the CANN layout in ASCEND_HOME_PATH=$P"
check "examples/run.sh ran the backward example" contains "$dir/run_sh.out" "aclnnMishBackward example passed"
cc_exe="$dir/test_aclnn_mish_grad_v2_c"
if check "the C example builds with the same flags" \
     "$pkg_cc" -std=c11 "$src/examples/test_aclnn_mish_grad_v2.c" -o "$cc_exe" "${flags[@]}" -lm; then
  env -u LD_LIBRARY_PATH bash -c "source '$P/set_env.sh' && '$cc_exe'" >"$dir/run_c.out" 2>&1
  check "the C example passes" contains "$dir/run_c.out" "passed"
fi

finish

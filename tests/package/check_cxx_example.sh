#!/usr/bin/env bash
# The C++ example, written as CANN's own samples are, compiled UNCHANGED with plain g++
# against the installed headers and linked with -lcust_opapi -lnnopbase -lascendcl, as
# CANN's sample build does. It must print the doc's values and "passed".
# shellcheck source=package_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/package_common.sh"

cxx=$(pkg_cxx) || skip "no C++ compiler (g++) is installed"
dir=$(work_dir cxx_example)
libdir=$(pkg_libdir) || { fail "installed tree"; finish; }
source_file="$MISHGRAD_PKG_SOURCE_DIR/examples/test_aclnn_mish_grad_v2.cpp"

# Once per C++ standard a CANN user may compile with: the headers must suit them all.
for std in c++11 c++17; do
  exe="$dir/example_$std"
  if check "example compiles with $(basename "$cxx") -std=$std" \
       "$cxx" -std="$std" -Wall -Wextra -Werror "${pkg_san_flags[@]}" -I"$MISHGRAD_PKG_PREFIX/include" \
       "$source_file" -o "$exe" -L"$libdir" -Wl,-rpath,"$libdir" -lcust_opapi -lnnopbase -lascendcl; then
    "$exe" >"$dir/$std.out" 2>&1
    rc=$?
    cat "$dir/$std.out"
    check "example ($std) exits 0" test "$rc" = 0
    check "example ($std) says passed" contains "$dir/$std.out" "passed"
    # The doc's values, as CANN's sample prints them (%f). The page rounds a double-precision
    # result to six decimals and %f rounds the float32 one, so the two may differ by one in
    # the sixth decimal: compare numbers, not strings.
    doc_values=(0 1.049036 2.098072 3.207954 4.277272 5.346590 6.126641 7.147748)
    for i in "${!doc_values[@]}"; do
      # shellcheck disable=SC2016  # $0 is awk's, inside awk's program
      check "example ($std) result[$i] is ${doc_values[$i]} to 6 decimals" \
        awk -v want="${doc_values[$i]}" -v tag="result[$i] is:" '
          index($0, tag) == 1 { found = 1; got = substr($0, length(tag) + 2) + 0;
                                d = got - want; if (d < 0) d = -d; ok = d <= 1.5e-6 }
          END { exit !(found && ok) }' "$dir/$std.out"
    done
  fi
done

# CANN's log switches on the unchanged sample: its stdout shows the operator's tiling decision.
if [ -x "$dir/example_c++11" ]; then
  ASCEND_SLOG_PRINT_TO_STDOUT=1 ASCEND_GLOBAL_LOG_LEVEL=0 "$dir/example_c++11" >"$dir/logged.out" 2>&1
  check "sample with ASCEND_SLOG_PRINT_TO_STDOUT=1 ASCEND_GLOBAL_LOG_LEVEL=0 shows the tiling decision" \
    grep -Eq '^\[(INFO|DEBUG)\] .*tiling' "$dir/logged.out"
  check "sample still passes with logging on" contains "$dir/logged.out" "passed"
fi

finish

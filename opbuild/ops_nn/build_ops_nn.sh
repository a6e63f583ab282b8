#!/usr/bin/env bash
# build.sh --ops-nn=DIR --ops=NAME[,...] [--experimental] [-u] [-jN] [-O<n>] [--prefix P]
# (build.sh passes the options in OPS_NN_* variables). Builds each named operator
# directory of an ops-nn checkout into one operator package in CANN's layout at P, each
# operator alone so that one that does not build (its first compiler error names the
# missing API and file:line) leaves the others building; with -u builds and runs each
# one's op_api UTs (the project's harness, TestPrecision runs the kernel) and examples,
# printing "<name>: N passed, M failed". Exit status 1 if anything failed.
set -uo pipefail

root=$OPS_NN_ROOT
dir=$OPS_NN_DIR
bdir=$OPS_NN_BUILD_DIR
prefix=$OPS_NN_PREFIX
jobs=$OPS_NN_JOBS
failed=0
say() { echo "build.sh --ops-nn: $*"; }
case "$dir" in /*) ;; *) dir="$PWD/$dir" ;; esac
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
[ -d "$dir" ] || { say "no ops-nn checkout at $dir"; exit 1; }

# gtest (Debian's libgtest-dev) for the UTs
if [ "$OPS_NN_TEST" = 1 ] && [ ! -f /usr/include/gtest/gtest.h ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    say "installing libgtest-dev"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libgtest-dev g++ >/dev/null
  else
    say "gtest is missing (apt-get install libgtest-dev); the UTs cannot be built"
  fi
fi

# the operator directories
entries=()
names=()
IFS=',' read -r -a wanted <<<"$OPS_NN_OPS"
for name in "${wanted[@]}"; do
  if [ "$OPS_NN_EXPERIMENTAL" = 1 ]; then
    found=$(ls -d "$dir"/experimental/*/"$name" 2>/dev/null | head -n 1)
  else
    found=$(ls -d "$dir"/*/"$name" 2>/dev/null | grep -v "/experimental/" | head -n 1)
  fi
  if [ -z "$found" ] || [ ! -d "$found/op_host" ]; then
    echo "$name: no operator directory $name with op_host/ under $dir$([ "$OPS_NN_EXPERIMENTAL" = 1 ] && echo /experimental)/*/"
    failed=1
    continue
  fi
  entries+=("$name=$found")
  names+=("$name")
done

# ops-nn's own common headers (common/inc of the checkout), behind the project's
common_inc=""
[ -d "$dir/common/inc" ] && common_inc="$dir/common/inc"

# Dependencies: an operator whose op_api calls another directory's l0 op (CANN compiles all
# of ops-nn's op_api into one library) gets that directory's l0 source, and its tiling and
# kernel where they build here, in the package (OpsNn.cmake: MISHGRAD_OPS_NN_DEPS/NEEDS)
declare -A dep_dir=() dep_mode=() needs=()
configure() { # $1: the entries to build, ;-separated (the dependencies are added)
  local ops=$1 deps="" need="" d n
  for d in "${!dep_dir[@]}"; do
    ops="$ops${ops:+;}$d=${dep_dir[$d]}"
    deps="$deps${deps:+;}$d=${dep_mode[$d]}"
  done
  for n in "${!needs[@]}"; do need="$need${need:+;}$n=${needs[$n]}"; done
  cmake -S "$root" -B "$bdir" -DCMAKE_BUILD_TYPE="$OPS_NN_TYPE" -DCMAKE_INSTALL_PREFIX="$prefix" \
        -DMISHGRAD_BUILD_TESTS=OFF -DMISHGRAD_BUILD_BENCH=OFF -DMISHGRAD_BUILD_TOOLS=OFF \
        -DMISHGRAD_OPTIMIZE="$OPS_NN_OPTIMIZE" -DMISHGRAD_SANITIZE="${OPS_NN_SANITIZE//,/;}" \
        -DMISHGRAD_OPS_NN_OPS="$ops" -DMISHGRAD_OPS_NN_DEPS="$deps" -DMISHGRAD_OPS_NN_NEEDS="$need" \
        -DMISHGRAD_OPS_NN_COMMON="$common_inc" >"$bdir/configure.log" 2>&1
}
# The operator directory of the checkout whose op_api l0 source defines l0op::$1: a file in
# an op_api folder, not an aclnn_*.cpp, with OP_TYPE_REGISTER($1) and a definition of $1(
l0_source() {
  # (the filters see the path inside the checkout: the checkout itself may lie under a tests/)
  local f rel
  grep -rlE --include='*.cpp' "OP_TYPE_REGISTER\(\s*$1\s*\)" "$dir" 2>/dev/null | sort |
    while read -r f; do
      rel=${f#"$dir"/}
      [[ "$rel" =~ /op_api/[^/]+\.cpp$ ]] && [[ ! "$rel" =~ /aclnn_[^/]*\.cpp$ ]] && [[ ! "$rel" =~ (^|/)tests/ ]] &&
        grep -qE "(^|[^A-Za-z0-9_:])$1[[:space:]]*\(" "$f" && echo "$f"
    done | head -n 1
}
# After a failed alone-link: resolve each undefined l0op symbol of $1's log by adding the
# directory that defines it; 0 when at least one was added (rebuild), 1 otherwise
resolve_l0() {
  local name=$1 log=$2 sym src ddir dname added=1 blog
  for sym in $(grep -oE "undefined reference to \`l0op::[A-Za-z0-9_]+\(" "$log" | sed -E 's/.*l0op::([A-Za-z0-9_]+)\(/\1/' | sort -u); do
    src=$(l0_source "$sym")
    if [ -z "$src" ]; then
      echo "$name: needs l0op::$sym, which no op_api l0 source of $dir defines (OP_TYPE_REGISTER($sym))"
      continue
    fi
    ddir=${src%/op_api/*}; ddir=${ddir%/op_host}
    dname=$(basename "$ddir")
    case ",${needs[$name]:-}," in *",$dname,"*) continue ;; esac
    needs[$name]="${needs[$name]:+${needs[$name]},}$dname"
    added=0
    [ -n "${dep_dir[$dname]:-}" ] && continue
    dep_dir[$dname]=$ddir dep_mode[$dname]=full
    blog="$bdir/opsnn_dep_$dname.build.log"
    configure "$list" && cmake --build "$bdir" --target "opsnn_op_$dname" -j "$jobs" >"$blog" 2>&1 && {
      echo "$name: l0op::$sym from ${ddir#"$dir"/} (${src#"$ddir"/}), with its tiling and kernel, built into the package"
      continue; }
    # its tiling or kernel does not build here: its l0 source alone (a launch of $sym then
    # finds no tiling registered and fails at phase 1)
    echo "$name: l0op::$sym from ${ddir#"$dir"/}: its tiling/kernel cannot be built: $(first_error "$blog"); only ${src#"$ddir"/} is built into the package, so a launch of $sym fails"
    dep_mode[$dname]=l0
    configure "$list" && cmake --build "$bdir" --target "opsnn_op_$dname" -j "$jobs" >"$blog" 2>&1 || {
      echo "$name: l0op::$sym's source ${src#"$dir"/} cannot be built: $(first_error "$blog")"
      unset "dep_dir[$dname]" "dep_mode[$dname]"; added=1; }
  done
  return $added
}
mkdir -p "$bdir"
list=$(IFS=';'; echo "${entries[*]}")
configure "$list" || { say "configuring failed:"; tail -n 30 "$bdir/configure.log"; exit 1; }

# the first compiler error of a log: file:line and what is missing
first_error() {
  grep -m1 -E "error:|undefined reference" "$1" | sed -E 's/^([^:]+:[0-9]+):[0-9]+: (fatal )?error: /\1: /'
}

good=()
for entry in ${entries[@]+"${entries[@]}"}; do
  name=${entry%%=*}
  log="$bdir/opsnn_$name.build.log"
  ok=1
  for round in 1 2 3; do
    cmake --build "$bdir" --target "opsnn_op_$name" -j "$jobs" >"$log" 2>&1 && { ok=0; break; }
    grep -q "undefined reference to \`l0op::" "$log" && resolve_l0 "$name" "$log" || break
  done
  if [ $ok = 0 ]; then
    good+=("$entry")
  else
    echo "$name: cannot be built: $(first_error "$log") (log: $log)"
    failed=1
  fi
done
[ ${#good[@]} -gt 0 ] || { say "nothing could be built"; exit 1; }

# One package holds each aclnn function once: a directory that defines one an earlier
# directory already defines (ops-nn has versions of an operator that keep its API, e.g.
# relu_grad and relu_grad_v2 both give aclnnThresholdBackward) is left out, with a message.
declare -A owner=()
kept=()
for entry in "${good[@]}"; do
  name=${entry%%=*}
  symbols=$(find "$bdir/CMakeFiles/opsnn_obj_$name.dir" -name '*.o' -exec nm --defined-only -g {} + 2>/dev/null |
            awk '$2 == "T" && $3 ~ /^aclnn/ { print $3 }' | sort -u)
  clash=""
  for sym in $symbols; do
    if [ -n "${owner[$sym]:-}" ]; then clash="$sym (also in ${owner[$sym]})"; break; fi
  done
  if [ -n "$clash" ]; then
    echo "$name: left out of the package: it defines $clash; build it alone (--ops=$name)"
    failed=1
    continue
  fi
  for sym in $symbols; do owner[$sym]=$name; done
  kept+=("$entry")
done
good=("${kept[@]}")

list=$(IFS=';'; echo "${good[*]}")
configure "$list" || { say "configuring failed:"; tail -n 30 "$bdir/configure.log"; exit 1; }
if ! cmake --build "$bdir" --target opsnn_cust_opapi ascendcl nnopbase cust_opapi -j "$jobs" >"$bdir/package.build.log" 2>&1; then
  echo "package: libcust_opapi.so cannot be linked: $(first_error "$bdir/package.build.log")"
  exit 1
fi
# CANN's layout (the project's runtime and tensor base), then the named operators in place
# of the project's own (the package's libcust_opapi holds exactly those)
op_api="$prefix/opp/vendors/customize_nn/op_api"
cmake --install "$bdir" --component cann >/dev/null || exit 1
rm -rf "$op_api/lib" "$op_api/include"
cmake --install "$bdir" --component opsnn >/dev/null || exit 1
# ops-nn's build also writes one master header including every aclnn header of the package:
# aclnn_ops_nn.h, or aclnn_ops_nn_<vendor>.h for a custom package (its --vendor_name; ops-nn's
# examples use "custom")
for master in aclnn_ops_nn aclnn_ops_nn_custom; do
  for dest in "$op_api/include/aclnnop" "$op_api/include"; do
    {
      echo "/* $master.h: every aclnn header of this operator package (written by build.sh --ops-nn) */"
      echo "#ifndef ${master^^}_H_"
      echo "#define ${master^^}_H_"
      for h in "$op_api/include/aclnnop"/aclnn_*.h; do
        h=$(basename "$h")
        case $h in aclnn_util.h|aclnn_ops_nn.h|aclnn_ops_nn_*.h) continue ;; esac
        echo "#include \"$h\""
      done
      echo "#endif"
    } >"$dest/$master.h"
  done
done
say "installed ${#good[@]} operator(s) into $prefix (source $prefix/set_env.sh)"

[ "$OPS_NN_TEST" = 1 ] || exit $failed

arch_inc="$prefix/$(uname -m)-linux/include"
targets=$(cmake --build "$bdir" --target help 2>/dev/null)
for entry in "${good[@]}"; do
  name=${entry%%=*}
  opdir=${entry#*=}
  passed=0 fails=0
  if grep -q "opsnn_ut_$name\$" <<<"$targets"; then
    log="$bdir/opsnn_ut_$name.build.log"
    if cmake --build "$bdir" --target "opsnn_ut_$name" -j "$jobs" >"$log" 2>&1; then
      out="$bdir/opsnn_ut_$name.log"
      "$bdir/opsnn_ut_$name" >"$out" 2>&1
      passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -n 1)
      fails=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -n 1)
      passed=${passed:-0} fails=${fails:-0}
      [ "$fails" = 0 ] && grep -q "^\[  PASSED  \]" "$out" || { [ "$fails" = 0 ] && fails=1; }
      [ "$fails" = 0 ] || grep -E "^\[  FAILED  \] [a-z_0-9]+\." "$out" | sed "s/^/  $name: /" | sort -u
    else
      echo "$name: the UTs cannot be built: $(first_error "$log")"
      fails=1
    fi
  else
    echo "$name: no op_api UT (tests/ut/op_api/*.cpp, tests/ut/op_host/test_aclnn_*.cpp)"
  fi
  # the kernel UTs, on the twin (those CANN's build compiles: AddOpTestCase in their
  # CMakeLists.txt)
  kcm="$opdir/tests/ut/op_kernel/CMakeLists.txt"
  if ls "$opdir"/tests/ut/op_kernel/*.cpp >/dev/null 2>&1 && [ -f "$kcm" ] &&
     ! grep -qE '^[[:space:]]*AddOpTestCase[[:space:]]*\(' "$kcm"; then
    echo "  $name: kernel UTs not built: tests/ut/op_kernel/CMakeLists.txt calls no AddOpTestCase (CANN's build does not build them either)"
  fi
  if grep -q "opsnn_kut_$name\$" <<<"$targets"; then
    log="$bdir/opsnn_kut_$name.build.log"
    if cmake --build "$bdir" --target "opsnn_kut_$name" -j "$jobs" >"$log" 2>&1; then
      out="$bdir/opsnn_kut_$name.log"
      (cd "$bdir" && "./opsnn_kut_$name") >"$out" 2>&1
      kp=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -n 1)
      kf=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -n 1)
      [ -n "$kp$kf" ] || kf=1
      passed=$((passed + ${kp:-0})) fails=$((fails + ${kf:-0}))
    else
      echo "  $name: the kernel UTs cannot be built: $(first_error "$log")"
      fails=$((fails + 1))
    fi
  fi
  # the examples, compiled with CANN's flags against the package: g++ -std=c++17 -O2, what an
  # ops-nn directory's examples/run.sh uses (ops-nn's build.sh --run_example gives plain g++).
  # Only the aclnn (eager) examples, test_aclnn_*.cpp: test_geir_*.cpp are graph-mode (GE)
  # programs, which this project does not model. A directory may keep them per architecture
  # (examples/arch35/: fast_gelu_v2, threshold_v2, celu, ...)
  for ex in "$opdir"/examples/test_aclnn_*.cpp "$opdir"/examples/*/test_aclnn_*.cpp; do
    [ -f "$ex" ] || continue
    exe="$bdir/example_$(basename "${ex%.cpp}")"
    exlog="$exe.log"
    link=(-I"$arch_inc" -I"$op_api/include" -L"$prefix/lib64" -L"$op_api/lib" -Wl,-rpath,"$prefix/lib64:$op_api/lib"
          -lcust_opapi -lnnopbase -lascendcl)
    if ! ( source "$prefix/set_env.sh" && g++ -std=c++17 -O2 "$ex" "${link[@]}" -o "$exe" ) >"$exlog" 2>&1; then
      fails=$((fails + 1))
      echo "  $name: example $(basename "$ex") does not compile with CANN's flags (g++ -std=c++17 -O2): $(first_error "$exlog")"
      # A C++ program that jumps over initialisations (goto past a declaration with an
      # initialiser) is ill-formed, and g++ rejects it even under -fpermissive; clang accepts
      # it only as a Microsoft extension (a recent MSVC version: the older ones lack char16_t,
      # which libstdc++ needs). To show what the program would print, it is compiled
      # that way and run, but it still counts as failed: it is the example's bug.
      if grep -q "crosses initialization" "$exlog" && command -v clang++ >/dev/null 2>&1 &&
         ( source "$prefix/set_env.sh" && clang++ -std=c++17 -O2 -fms-compatibility -fms-compatibility-version=19.40 -Wno-microsoft-goto -Wno-#warnings "$ex" \
             "${link[@]}" -o "$exe" && "$exe" ) >"$exlog.ms" 2>&1; then
        echo "  $name: example $(basename "$ex") compiled with clang++ -fms-compatibility instead ran: $(tail -n 1 "$exlog.ms")"
      fi
      continue
    fi
    # the runtime's log of the run in a folder of its own: an example prints only the status
    # of what failed (aclrtSynchronizeStream's 507015), the log says why
    plog="$exe.plog"
    rm -rf "$plog"
    # an example kept under examples/arch35/ is written for that architecture's SoC (Ascend
    # 950): run it on that product profile unless the caller chose one
    soc=${MISHGRAD_SOC_VERSION:-}
    case $ex in */examples/arch35/*) soc=${soc:-Ascend950PR} ;; esac
    # (bash reports an example killed by a signal on its own stderr: kept to say so, since an
    # exit status above 128 may also be the example's own return value, 507015 & 255 = 135)
    if { ( source "$prefix/set_env.sh" && export ASCEND_PROCESS_LOG_PATH="$plog" MISHGRAD_SOC_VERSION="$soc" && exec "$exe" ) >>"$exlog" 2>&1; } 2>"$exe.signal"; then
      passed=$((passed + 1))
      echo "  $name: example $(basename "$ex"): $(tail -n 1 "$exlog")"
    else
      fails=$((fails + 1))
      why=$(cat "$plog"/debug/plog/*.log 2>/dev/null | grep -m1 -F "[ERROR]" | sed -E 's/^[^]]*\] *//; s/^[A-Z]+\([0-9]+,[^)]*\):[^ ]* *//' | cut -c1-300)
      crash=$(sed -nE 's/^.*[0-9]+ (Segmentation fault|Bus error|Aborted|Floating point exception|Illegal instruction|Killed).*$/\1/p' "$exe.signal" | head -n 1)
      echo "  $name: example $(basename "$ex") failed: $(tail -n 3 "$exlog" | tr '\n' ' ')${crash:+[$crash] }${why:+[runtime log: $why]}"
    fi
  done
  echo "$name: $passed passed, $fails failed"
  [ "$fails" = 0 ] || failed=1
done
exit $failed

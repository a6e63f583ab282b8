#!/usr/bin/env bash
# Builds, installs, tests and packs MishGradV2 (CMake underneath). `bash build.sh -h` lists
# the options; the seed's own command works as written:
#   bash build.sh --experimental --ops=mish_grad_v2 -u --opapi -j8 -O2
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prefix=${MISHGRAD_INSTALL_PREFIX:-$root/install}
build_dir=${MISHGRAD_BUILD_DIR:-$root/build}
pkg_dir=$root
jobs=$(nproc 2>/dev/null || echo 2)
build_type=Release
optimize=""
ops=""
run_tests=0
make_package=0
cann_layout=0
sanitize=""
bench=ON
clean=0
ops_nn=""
raw_ops=()
experimental=0

# The operators this project builds, one line each: ops-nn's directory name (the CTest
# label op:<name> of the operator's own tests), then the other names people use.
operator_table="
mish_grad_v2 mish_grad MishGradV2 aclnnMishBackward
mish Mish aclnnMish inplace_mish aclnnInplaceMish
"
known_ops=$(awk 'NF { printf "%s%s", sep, $1; sep = " " }' <<<"$operator_table")
op_name() {
  awk -v name="$1" 'NF { for (i = 1; i <= NF; i++) if ($i == name) { print $1; found = 1; exit } }
                    END { exit !found }' <<<"$operator_table"
}
# For the help text: "mish_grad_v2 (also mish_grad, ...)", one operator per line
operator_help=$(awk 'NF { line = $1; if (NF > 1) { line = line " (also"; for (i = 2; i <= NF; i++) line = line (i > 2 ? ", " : " ") $i; line = line ")" }
                          printf "%s                          %s", sep, line; sep = "\n" }' <<<"$operator_table")

usage() {
  cat <<EOF
usage: bash build.sh [options]

Configures, builds and installs MishGradV2 (default prefix ./install, build folder ./build).

  -u, --test            then run the tests (CTest; with --ops, those of the named operators
                        and every operator-independent test)
  --pkg                 then pack what the install wrote (its install manifest) into
                        MishGradV2-<version>-linux-<arch>.tar.gz, and build a Debian package
                        (CPack DEB) installing into /usr with the multiarch library folder
  --pkg-dir DIR         where --pkg writes the tarball and the .deb (default: the source folder)
  --cann-layout         install CANN's toolkit layout into the prefix instead: set_env.sh,
                        <arch>-linux/include, lib64, opp/vendors/customize_nn/op_api/{include,lib}
  --prefix DIR          install prefix (default ./install; environment MISHGRAD_INSTALL_PREFIX)
  --build-dir DIR       build folder (default ./build; environment MISHGRAD_BUILD_DIR)
  -j N, -jN, --jobs N   parallel build jobs (default: the online CPUs); tests run on at
                        most as many jobs as there are CPUs
  -O0 .. -O3, -Os       optimisation level of every C file (default: the build type's, -O3)
  --ops=LIST            comma-separated operators to test (default all; all operators are
                        built: libcust_opapi is one library):
$operator_help
  --type T, --build-type=T
                        Release (default), Debug or RelWithDebInfo
  --sanitize LIST       sanitizers for the whole build: address,undefined or thread
  --asan                the same as --sanitize address,undefined
  --no-bench            leave out the benchmark programs
  --clean               delete the build folder first
  --ops-nn=DIR          build the operator directories --ops names from the ops-nn checkout
                        DIR (DIR/experimental/*/NAME with --experimental, else DIR/*/NAME)
                        into an operator package in CANN's layout at --prefix; with -u run
                        their UTs and examples (docs/ops_nn_directories.md)
  --opapi, --experimental
                        accepted for ops-nn's command line; without --ops-nn no effect
                        (there is only the operator API to build, and nothing is experimental)
  -h, --help            this text
EOF
}

refuse() {
  echo "build.sh: $1" >&2
  echo >&2
  usage >&2
  exit 2
}

add_ops() {
  local name canonical
  IFS=',' read -r -a names <<<"$1"
  [ ${#names[@]} -gt 0 ] || refuse "--ops needs a list of operators ($known_ops)"
  for name in "${names[@]}"; do
    canonical=$(op_name "$name") || refuse "unknown operator '$name' in --ops (known: $known_ops)"
    case " $ops " in *" $canonical "*) ;; *) ops="${ops:+$ops }$canonical" ;; esac
  done
}

# An option's value may not be empty or look like another option: `-j --build-dir x` is a
# missing -j value, not a build directory named by -j.
need_value() {
  [ $# -ge 2 ] && [ -n "$2" ] || refuse "option '$1' needs a value"
  case "$2" in -*) refuse "option '$1' needs a value, not the option '$2'" ;; esac
}

while [ $# -gt 0 ]; do
  case "$1" in
    -u|--test) run_tests=1 ;;
    --pkg) make_package=1 ;;
    --pkg-dir) need_value "$@"; pkg_dir=$2; shift ;;
    --pkg-dir=*) pkg_dir=${1#*=} ;;
    --cann-layout) cann_layout=1 ;;
    --prefix) need_value "$@"; prefix=$2; shift ;;
    --prefix=*) prefix=${1#*=} ;;
    -j|--jobs) need_value "$@"; jobs=$2; shift ;;
    -j*) jobs=${1#-j} ;;
    --jobs=*) jobs=${1#*=} ;;
    -O0|-O1|-O2|-O3|-Os) optimize=${1#-} ;;
    --ops) need_value "$@"; raw_ops+=("$2"); shift ;;
    --ops=*) raw_ops+=("${1#*=}") ;;
    --ops-nn) need_value "$@"; ops_nn=$2; shift ;;
    --ops-nn=*) ops_nn=${1#*=} ;;
    --build-dir) need_value "$@"; build_dir=$2; shift ;;
    --build-dir=*) build_dir=${1#*=} ;;
    --type) need_value "$@"; build_type=$2; shift ;;
    --type=*|--build-type=*) build_type=${1#*=} ;;
    --sanitize) need_value "$@"; sanitize=$2; shift ;;
    --sanitize=*) sanitize=${1#*=} ;;
    --asan) sanitize=address,undefined ;;
    --no-bench) bench=OFF ;;
    --clean) clean=1 ;;
    --opapi) ;;
    --experimental) experimental=1 ;;
    -h|--help) usage; exit 0 ;;
    *) refuse "unknown option '$1'" ;;
  esac
  shift
done

case "$jobs" in ''|*[!0-9]*|0) refuse "-j needs a positive number of jobs, not '$jobs'" ;; esac
# --ops-nn=DIR: the named operator directories of an ops-nn checkout, not this project's
# operators (opbuild/ops_nn/build_ops_nn.sh; docs/ops_nn_directories.md).
if [ -n "$ops_nn" ]; then
  [ ${#raw_ops[@]} -gt 0 ] || refuse "--ops-nn needs --ops=NAME[,NAME...] (operator directories of $ops_nn)"
  export OPS_NN_DIR=$ops_nn OPS_NN_OPS=$(IFS=,; echo "${raw_ops[*]}") OPS_NN_EXPERIMENTAL=$experimental \
         OPS_NN_TEST=$run_tests OPS_NN_JOBS=$jobs OPS_NN_OPTIMIZE=$optimize OPS_NN_ROOT=$root \
         OPS_NN_PREFIX=$prefix OPS_NN_BUILD_DIR=$([ "$build_dir" = "$root/build" ] && echo "$root/build-opsnn" || echo "$build_dir") OPS_NN_TYPE=$build_type \
         OPS_NN_SANITIZE=$sanitize
  exec bash "$root/opbuild/ops_nn/build_ops_nn.sh"
fi
for list in ${raw_ops[@]+"${raw_ops[@]}"}; do add_ops "$list"; done
# A package is for other machines: its libraries may not need a sanitizer's runtime, which
# its dependencies do not name (and which must be loaded first).
if [ "$make_package" = 1 ] && [ -n "$sanitize" ]; then
  refuse "--pkg makes a package for other machines; build it without --sanitize/--asan"
fi
case "$build_type" in Release|Debug|RelWithDebInfo|MinSizeRel) ;;
  *) refuse "unknown build type '$build_type' (Release, Debug, RelWithDebInfo, MinSizeRel)" ;; esac

# The build needs a C compiler, CMake and make; install them on a bare Debian machine.
need=()
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v cc >/dev/null 2>&1 || need+=(gcc)
command -v make >/dev/null 2>&1 || need+=(make)
if [ ${#need[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "build.sh: installing ${need[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "build.sh: missing ${need[*]}; install them and run again" >&2
    exit 1
  fi
fi

# The op_api UT harness and its test need gtest (Debian's libgtest-dev) and a C++ compiler.
if [ "$run_tests" = 1 ] && { [ ! -f /usr/include/gtest/gtest.h ] || ! command -v c++ >/dev/null 2>&1; }; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "build.sh: installing libgtest-dev g++ (the op_api UT harness)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libgtest-dev g++ >/dev/null
  else
    echo "build.sh: gtest or g++ is missing; the op_api UT harness test is left out" >&2
  fi
fi

absolute() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
prefix=$(absolute "$prefix")
build_dir=$(absolute "$build_dir")
pkg_dir=$(absolute "$pkg_dir")
[ "$clean" = 1 ] && rm -rf "$build_dir"

cmake_args=(-S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type"
            -DCMAKE_INSTALL_PREFIX="$prefix" -DMISHGRAD_BUILD_BENCH="$bench"
            -DMISHGRAD_OPTIMIZE="$optimize"
            -DMISHGRAD_SANITIZE="${sanitize//,/;}")

cmake "${cmake_args[@]}" >/dev/null
cmake --build "$build_dir" -j "$jobs"
if [ "$cann_layout" = 1 ]; then
  cmake --install "$build_dir" --prefix "$prefix" --component cann >/dev/null
  echo "build.sh: installed CANN's toolkit layout into $prefix (source $prefix/set_env.sh)"
else
  cmake --install "$build_dir" --prefix "$prefix" >/dev/null
  # The package tests install into scratch prefixes and rewrite install_manifest.txt;
  # --pkg packs this install's list.
  cp "$build_dir/install_manifest.txt" "$build_dir/build_sh_manifest.txt"
  echo "build.sh: installed into $prefix"
fi

if [ "$run_tests" = 1 ]; then
  # The package tests build programs against the install tree just written.
  export MISHGRAD_INSTALL_PREFIX="$prefix"
  # -j is ops-nn's compile-thread count; tests run at most one per CPU, since some of them
  # time their own work (streams, timeouts) and an oversubscribed machine distorts that.
  cpus=$(nproc 2>/dev/null || echo 2)
  test_jobs=$(( jobs < cpus ? jobs : cpus ))
  ctest_args=(--test-dir "$build_dir" --output-on-failure -j "$test_jobs")
  # Operators not named by --ops: their tests (CTest label op:<name>) are left out.
  # MISHGRAD_TEST_EXCLUDE_LABELS adds labels to leave out (the package tests use it when
  # they run this script, so that it does not run them again).
  exclude=()
  if [ -n "$ops" ]; then
    for op in $known_ops; do
      case " $ops " in *" $op "*) ;; *) exclude+=("op:$op") ;; esac
    done
  fi
  for label in ${MISHGRAD_TEST_EXCLUDE_LABELS:-}; do exclude+=("$label"); done
  if [ ${#exclude[@]} -gt 0 ]; then
    regex=$(IFS='|'; echo "^(${exclude[*]})\$")
    ctest_args+=(-LE "$regex")
    echo "build.sh: tests labelled ${exclude[*]} are left out"
  fi
  ctest "${ctest_args[@]}"
fi

if [ "$make_package" = 1 ]; then
  [ "$cann_layout" = 0 ] || refuse "--pkg packs the standard install; run it without --cann-layout"
  version=$(sed -n 's/^#define MISHGRAD_VERSION_STRING "\(.*\)"$/\1/p' "$build_dir/include/mishgrad/version.h")
  mkdir -p "$pkg_dir"
  # 1. The tarball: exactly the files the project installs, below one MishGradV2-<version>/.
  # Packages ship no test hooks, so they come from a build of the same project without
  # tests (CMakeLists.txt: MISHGRAD_TEST_HOOKS), installed under the same prefix into a
  # staging folder; its install manifest names what is packed.
  tarball="$pkg_dir/MishGradV2-$version-linux-$(uname -m).tar.gz"
  rel_build="$build_dir-pkg"
  stage="$rel_build/stage"
  cmake -S "$root" -B "$rel_build" -DCMAKE_BUILD_TYPE="$build_type" -DCMAKE_INSTALL_PREFIX="$prefix" \
        -DMISHGRAD_OPTIMIZE="$optimize" -DMISHGRAD_BUILD_TESTS=OFF -DMISHGRAD_BUILD_BENCH=OFF >/dev/null
  cmake --build "$rel_build" -j "$jobs" >/dev/null
  rm -rf "$stage"
  DESTDIR="$stage" cmake --install "$rel_build" >/dev/null
  list="$rel_build/package_manifest.relative"
  # (the manifest names the installed paths without DESTDIR)
  while IFS= read -r file || [ -n "$file" ]; do
    file=${file#"$stage"}
    case "$file" in
      "$prefix"/*) echo "${file#"$prefix"/}" ;;
      *) echo "build.sh: $file lies outside $prefix; not packed" >&2; exit 1 ;;
    esac
  done <"$rel_build/install_manifest.txt" | LC_ALL=C sort >"$list"
  tar -C "$stage$prefix" -czf "$tarball" --owner=0 --group=0 --numeric-owner \
      --transform "s,^,MishGradV2-$version/,S" --no-recursion -T "$list"
  echo "build.sh: packed $tarball ($(wc -l <"$list") files, built without tests: no test hooks)"
  # 2. The .deb: the same project configured for /usr and Debian's multiarch library
  # folder (lib/<triplet>), built without tests, packed by CPack.
  multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || ${CC:-cc} -print-multiarch 2>/dev/null || true)
  [ -n "$multiarch" ] || { echo "build.sh: no multiarch triplet (dpkg-architecture, cc -print-multiarch)" >&2; exit 1; }
  deb_build="$build_dir-deb"
  cmake -S "$root" -B "$deb_build" -DCMAKE_BUILD_TYPE="$build_type" \
        -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_INSTALL_LIBDIR="lib/$multiarch" \
        -DMISHGRAD_OPTIMIZE="$optimize" -DMISHGRAD_BUILD_TESTS=OFF -DMISHGRAD_BUILD_BENCH=OFF \
        -DMISHGRAD_SANITIZE="${sanitize//,/;}" >/dev/null
  cmake --build "$deb_build" -j "$jobs" >/dev/null
  rm -rf "$deb_build/packages"
  (cd "$deb_build" && cpack -G DEB >/dev/null)
  for deb in "$deb_build"/packages/*.deb; do
    cp "$deb" "$pkg_dir/"
    echo "build.sh: packed $pkg_dir/$(basename "$deb")"
  done
fi

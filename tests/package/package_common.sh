# tests/package/package_common.sh: sourced by every package test script.
#
# CTest passes (see CMakeLists.txt):
#   MISHGRAD_PKG_BUILD_DIR   the build tree to install
#   MISHGRAD_PKG_SOURCE_DIR  the source tree (examples, test sources)
#   MISHGRAD_PKG_PREFIX      the scratch prefix the install fixture fills
#   MISHGRAD_PKG_WORK_DIR    scratch space; each script works in its own subfolder
#   MISHGRAD_PKG_CC          the C compiler the libraries were built with
#   MISHGRAD_PKG_SANITIZE    sanitizers of the library build ("address,undefined", ...)
#
# Each script counts its checks and ends with "N passed, M failed"; exit 77 is CTest's
# SKIP for a tool that is truly absent.

set -u

: "${MISHGRAD_PKG_BUILD_DIR:?set by CTest}"
: "${MISHGRAD_PKG_SOURCE_DIR:?set by CTest}"
: "${MISHGRAD_PKG_PREFIX:?set by CTest}"
: "${MISHGRAD_PKG_WORK_DIR:?set by CTest}"
pkg_cc=${MISHGRAD_PKG_CC:-cc}
pkg_sanitize=${MISHGRAD_PKG_SANITIZE:-}

pkg_passed=0
pkg_failed=0

# The user's own settings must not decide what the tests see: every run below states the
# environment it needs.
unset MISHGRAD_SOC_VERSION ASCEND_GLOBAL_LOG_LEVEL ASCEND_SLOG_PRINT_TO_STDOUT ASCEND_LOG_PRINT_TO_STDOUT \
      MISHGRAD_FAULT_ALLOC MISHGRAD_FAULT_STEP MISHGRAD_ISA || true
# Programs built against sanitized libraries must carry the same sanitizer runtime.
pkg_san_flags=()
if [ -n "$pkg_sanitize" ]; then
  pkg_san_flags=(-fsanitize="$pkg_sanitize" -fno-omit-frame-pointer)
fi

pass() { pkg_passed=$((pkg_passed + 1)); echo "[ OK ] $*"; }
fail() { pkg_failed=$((pkg_failed + 1)); echo "[FAIL] $*" >&2; }

# check "description" command...: runs the command, counts the outcome.
check() {
  local what=$1; shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}

finish() {
  echo "$pkg_passed passed, $pkg_failed failed"
  if [ "$pkg_failed" -gt 0 ]; then exit 1; fi
  if [ "$pkg_passed" -eq 0 ]; then echo "no check ran" >&2; exit 1; fi
  exit 0
}

skip() {
  echo "SKIPPED: $*"
  exit 77
}

# A fresh folder for this script's files.
work_dir() {
  local dir="$MISHGRAD_PKG_WORK_DIR/$1"
  rm -rf "$dir" && mkdir -p "$dir" && echo "$dir"
}

# The installed library folder (GNUInstallDirs: lib, lib64, or lib/<triplet> under /usr).
pkg_libdir() {
  local candidate
  for candidate in "$MISHGRAD_PKG_PREFIX/lib" "$MISHGRAD_PKG_PREFIX/lib64" "$MISHGRAD_PKG_PREFIX"/lib/*-linux-*; do
    if [ -e "$candidate/libcust_opapi.so" ]; then echo "$candidate"; return 0; fi
  done
  echo "no libcust_opapi.so under $MISHGRAD_PKG_PREFIX" >&2
  return 1
}

# The C++ compiler for consumer programs: g++, as a CANN user has it (else clang++ or c++),
# except that libraries sanitized by clang need clang++, whose sanitizer runtime they share.
pkg_cxx() {
  if [ -n "$pkg_sanitize" ] && "$pkg_cc" --version 2>/dev/null | grep -qi clang; then
    command -v clang++
    return
  fi
  command -v g++ || command -v clang++ || command -v c++
}

# pkg-config's answer as the words a shell reads from it, into the array named ARRAY:
# pkg-config escapes a space in a path with a backslash (-I/a\ b/include), so splitting its
# output on blanks would cut such a path in two; the shell's own parsing (eval) does not.
# Usage: pc_words ARRAY PC_DIR pkg-config-arguments...
pc_words() {
  local pc_words_out
  pc_words_out=$(PKG_CONFIG_PATH="$2" pkg-config "${@:3}") || return 1
  eval "$1=($pc_words_out)"
}

# Builds a C source against the installed tree with the flags the installed
# mish_grad_v2.pc gives (no rpath: run the program with LD_LIBRARY_PATH=$(pkg_libdir)).
# Usage: build_c_with_pkgconfig OUT SOURCE [extra flags...]
build_c_with_pkgconfig() {
  local out=$1 src=$2; shift 2
  local -a cflags libs
  pc_words cflags "$(pkg_libdir)/pkgconfig" --cflags mish_grad_v2 || return 1
  pc_words libs "$(pkg_libdir)/pkgconfig" --libs mish_grad_v2 || return 1
  "$pkg_cc" -std=c11 -Wall -Wextra -Werror "${pkg_san_flags[@]}" "${cflags[@]}" "$@" "$src" -o "$out" \
    "${libs[@]}" -lm
}

# Builds a C source against the installed tree by hand (-I, -L, rpath, CANN's -l list),
# for the scripts that must work without pkg-config.
build_c_plain() {
  local out=$1 src=$2; shift 2
  local libdir
  libdir=$(pkg_libdir) || return 1
  "$pkg_cc" -std=c11 -Wall -Wextra -Werror "${pkg_san_flags[@]}" -I"$MISHGRAD_PKG_PREFIX/include" "$@" "$src" \
    -o "$out" -L"$libdir" -Wl,-rpath,"$libdir" -lcust_opapi -lnnopbase -lascendcl -lm
}

# contains FILE TEXT: the file holds TEXT literally.
contains() { grep -qF -- "$2" "$1"; }
lacks() { ! grep -qF -- "$2" "$1"; }

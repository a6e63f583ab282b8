#!/usr/bin/env bash
# CANN's log switches, as a user sets them:
#   ASCEND_GLOBAL_LOG_LEVEL      0 debug, 1 info, 2 warning, 3 error (default), 4 off
#   ASCEND_SLOG_PRINT_TO_STDOUT  1: log lines go to stdout, otherwise to stderr
# Lines look like CANN's: [LEVEL] MISHGRAD(pid,prog):YYYY-MM-DD-hh:mm:ss.mmm.uuu [module] text
# shellcheck source=package_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/package_common.sh"

dir=$(work_dir logs)
probe="$dir/package_probe"
example="$dir/example"
if ! check "probe builds against the installed tree" \
     build_c_plain "$probe" "$MISHGRAD_PKG_SOURCE_DIR/tests/package/package_probe.c"; then
  finish
fi
check "C example builds against the installed tree" \
  build_c_plain "$example" "$MISHGRAD_PKG_SOURCE_DIR/examples/test_aclnn_mish_grad_v2.c"

info_or_debug='^\[(INFO|DEBUG)\] '
line_format='^\[[A-Z]+\] MISHGRAD\([0-9]+,[^)]*\):[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}\.[0-9]{3} \['
matches() { grep -Eq -- "$2" "$1"; }
no_match() { ! grep -Eq -- "$2" "$1"; }

# 1. Debug level, printed to stdout: the sample's own output shows the tiling decision.
ASCEND_SLOG_PRINT_TO_STDOUT=1 ASCEND_GLOBAL_LOG_LEVEL=0 "$example" >"$dir/debug.out" 2>"$dir/debug.err"
rc=$?
check "debug run of the example exits 0" test "$rc" = 0
check "debug run: stdout shows the tiling decision" grep -qi "tiling" "$dir/debug.out"
check "debug run: stdout has info/debug lines" matches "$dir/debug.out" "$info_or_debug"
check "debug run: the tiling line is a log line in CANN's format" \
  bash -c "grep -i tiling '$dir/debug.out' | grep -Eq -- '$line_format'"
check "debug run: the phase 1 line names the dtype and workspace" \
  bash -c "grep -Ei 'workspace' '$dir/debug.out' | grep -Eqi 'float|dtype'"
check "debug run: nothing logged to stderr" no_match "$dir/debug.err" "$info_or_debug"
check "debug run: the example still passed" contains "$dir/debug.out" "passed"

# 2. Info level without the stdout switch: the lines go to stderr.
ASCEND_GLOBAL_LOG_LEVEL=1 "$probe" run float >"$dir/info.out" 2>"$dir/info.err"
check "info run: stderr shows the tiling decision" grep -qi "tiling" "$dir/info.err"
check "info run: stdout has no log lines" no_match "$dir/info.out" "$info_or_debug"
check "info run: no debug lines at info level" no_match "$dir/info.err" '^\[DEBUG\] '
check "info run: values right" contains "$dir/info.out" "values=right"

# 3. The default (level 3, errors only): a successful run logs no info or debug line.
"$probe" run float >"$dir/default.out" 2>"$dir/default.err"
check "default run: values right" contains "$dir/default.out" "values=right"
check "default run: no info/debug lines on stdout" no_match "$dir/default.out" "$info_or_debug"
check "default run: no info/debug lines on stderr" no_match "$dir/default.err" "$info_or_debug"
check "default run: no tiling line" bash -c "! grep -qi tiling '$dir/default.out' '$dir/default.err'"
ASCEND_GLOBAL_LOG_LEVEL=2 "$probe" run float >"$dir/warning.out" 2>&1
check "warning level: no info/debug lines" no_match "$dir/warning.out" "$info_or_debug"

# 4. An error at the default level goes to stderr and carries the status code.
"$probe" null-argument >"$dir/error.out" 2>"$dir/error.err"
check "error run: status 161001" contains "$dir/error.out" "phase1=161001"
check "error run: stderr has an [ERROR] line" matches "$dir/error.err" '^\[ERROR\] '
check "error run: the [ERROR] line carries 161001" bash -c "grep '^\[ERROR\] ' '$dir/error.err' | grep -q 161001"
check "error run: the [ERROR] line names gradOutput" bash -c "grep '^\[ERROR\] ' '$dir/error.err' | grep -q gradOutput"
check "error run: the [ERROR] line is in CANN's format" matches "$dir/error.err" "$line_format"
check "error run: stdout has no [ERROR] line" no_match "$dir/error.out" '^\[ERROR\] '

# 5. With the stdout switch the error goes to stdout instead.
ASCEND_SLOG_PRINT_TO_STDOUT=1 "$probe" null-argument >"$dir/error_stdout.out" 2>"$dir/error_stdout.err"
check "error to stdout: stdout has the [ERROR] line with 161001" \
  bash -c "grep '^\[ERROR\] ' '$dir/error_stdout.out' | grep -q 161001"
check "error to stdout: stderr has no [ERROR] line" no_match "$dir/error_stdout.err" '^\[ERROR\] '

# 6. Level 4 turns logging off; the status and the recent message remain.
ASCEND_GLOBAL_LOG_LEVEL=4 "$probe" null-argument >"$dir/off.out" 2>&1
check "logging off: status still 161001" contains "$dir/off.out" "phase1=161001"
check "logging off: the recent error message is still set" grep -q "^message=..*gradOutput" "$dir/off.out"
check "logging off: no log line at all" no_match "$dir/off.out" '^\[(ERROR|WARNING|INFO|DEBUG)\] '

# 7. Warnings the documentation promises are printed at the default level (3): a setting
# that is ignored, and what aclFinalize reclaims.
for value in 257 100000000000000000000 0 -3 two 4x; do
  MISHGRAD_NUM_THREADS=$value "$probe" run float >"$dir/threads.out" 2>"$dir/threads.err"
  check "MISHGRAD_NUM_THREADS=$value: the run still succeeds" contains "$dir/threads.out" "values=right"
  check "MISHGRAD_NUM_THREADS=$value: a [WARNING] at the default level names it" \
    bash -c "grep '^\[WARNING\] ' '$dir/threads.err' | grep -qF 'MISHGRAD_NUM_THREADS=\"$value\"'"
done
MISHGRAD_NUM_THREADS=2 "$probe" run float >"$dir/threads_ok.out" 2>&1
check "MISHGRAD_NUM_THREADS=2: no warning" no_match "$dir/threads_ok.out" '^\[WARNING\] '
MISHGRAD_NUM_THREADS=257 ASCEND_GLOBAL_LOG_LEVEL=4 "$probe" run float >"$dir/threads_off.out" 2>&1
check "MISHGRAD_NUM_THREADS=257 with logging off: silent" no_match "$dir/threads_off.out" '^\[WARNING\] '
case "$(uname -m)" in aarch64|arm64) missing_isa=avx2 ;; *) missing_isa=neon ;; esac
for value in bogus "$missing_isa"; do
  MISHGRAD_ISA=$value "$probe" run float >"$dir/isa.out" 2>"$dir/isa.err"
  check "MISHGRAD_ISA=$value: the run still succeeds" contains "$dir/isa.out" "values=right"
  check "MISHGRAD_ISA=$value: a [WARNING] at the default level names it" \
    bash -c "grep '^\[WARNING\] ' '$dir/isa.err' | grep -qF 'MISHGRAD_ISA=$value'"
done
MISHGRAD_ISA=scalar "$probe" run float >"$dir/isa_ok.out" 2>&1
check "MISHGRAD_ISA=scalar: no warning" no_match "$dir/isa_ok.out" '^\[WARNING\] '
"$probe" leak >"$dir/leak.out" 2>"$dir/leak.err"
check "leak: aclFinalize succeeds" contains "$dir/leak.out" "finalize=0"
check "leak: a [WARNING] at the default level says what aclFinalize released" \
  bash -c "grep '^\[WARNING\] ' '$dir/leak.err' | grep -q 'aclFinalize: released .*1 memory block'"
check "leak: the warning is in CANN's format" matches "$dir/leak.err" "$line_format"

finish

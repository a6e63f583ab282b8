#!/usr/bin/env bash
# CANN's log switches, as a user sets them:
#   ASCEND_GLOBAL_LOG_LEVEL      0 debug, 1 info, 2 warning, 3 error (default), 4 off
#   ASCEND_SLOG_PRINT_TO_STDOUT  1: log lines go to stdout, otherwise to the process's log file
#   ASCEND_PROCESS_LOG_PATH      the log root (else $ASCEND_WORK_PATH/log, else $HOME/ascend/log);
#                                the file is <root>/debug/plog/plog-<pid>_<YYYYmmddHHMMSSmmm>.log
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
any_line='^\[(ERROR|WARNING|INFO|DEBUG)\] '
# logged NAME COMMAND...: runs COMMAND with the log root $dir/logs/NAME; the lines its log
# files gained land in $dir/NAME.log (empty when it wrote none).
logged() {
  local name=$1
  shift
  rm -rf "$dir/logs/$name"
  ASCEND_PROCESS_LOG_PATH="$dir/logs/$name" "$@"
  local rc=$?
  cat "$dir/logs/$name"/debug/plog/*.log >"$dir/$name.log" 2>/dev/null || : >"$dir/$name.log"
  return $rc
}

# 1. Debug level, printed to stdout: the sample's own output shows the tiling decision.
logged debug env ASCEND_SLOG_PRINT_TO_STDOUT=1 ASCEND_GLOBAL_LOG_LEVEL=0 "$example" >"$dir/debug.out" 2>"$dir/debug.err"
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
check "debug run: no log file written (stdout instead)" test ! -s "$dir/debug.log"

# 2. Info level without the stdout switch: the lines go to the process's log file, as CANN's.
logged info env ASCEND_GLOBAL_LOG_LEVEL=1 "$probe" run float >"$dir/info.out" 2>"$dir/info.err"
check "info run: the log file shows the tiling decision" grep -qi "tiling" "$dir/info.log"
check "info run: the file is debug/plog/plog-<pid>_<timestamp>.log" \
  bash -c "ls '$dir/logs/info/debug/plog' | grep -Eq '^plog-[0-9]+_[0-9]{17}\\.log\$'"
check "info run: stdout has no log lines" no_match "$dir/info.out" "$info_or_debug"
check "info run: stderr has no log lines" no_match "$dir/info.err" "$any_line"
check "info run: no debug lines at info level" no_match "$dir/info.log" '^\[DEBUG\] '
check "info run: values right" contains "$dir/info.out" "values=right"

# 2b. Where the file goes without ASCEND_PROCESS_LOG_PATH: $ASCEND_WORK_PATH/log, else
# $HOME/ascend/log.
rm -rf "$dir/work" "$dir/home"
env -u ASCEND_PROCESS_LOG_PATH ASCEND_WORK_PATH="$dir/work" HOME="$dir/home" ASCEND_GLOBAL_LOG_LEVEL=1 \
  "$probe" run float >/dev/null 2>&1
check "ASCEND_WORK_PATH: the log file is under \$ASCEND_WORK_PATH/log/debug/plog" \
  bash -c "grep -qi tiling '$dir/work/log/debug/plog/'plog-*.log"
env -u ASCEND_PROCESS_LOG_PATH -u ASCEND_WORK_PATH HOME="$dir/home" ASCEND_GLOBAL_LOG_LEVEL=1 \
  "$probe" run float >/dev/null 2>&1
check "default: the log file is under \$HOME/ascend/log/debug/plog" \
  bash -c "grep -qi tiling '$dir/home/ascend/log/debug/plog/'plog-*.log"

# 3. The default (level 3, errors only): a successful run logs no info or debug line.
logged default "$probe" run float >"$dir/default.out" 2>"$dir/default.err"
check "default run: values right" contains "$dir/default.out" "values=right"
check "default run: no info/debug lines on stdout" no_match "$dir/default.out" "$info_or_debug"
check "default run: no log lines on stderr" no_match "$dir/default.err" "$any_line"
check "default run: no info/debug lines in the log file" no_match "$dir/default.log" "$info_or_debug"
check "default run: no tiling line" bash -c "! grep -qi tiling '$dir/default.out' '$dir/default.err' '$dir/default.log'"
logged warning env ASCEND_GLOBAL_LOG_LEVEL=2 "$probe" run float >"$dir/warning.out" 2>&1
check "warning level: no info/debug lines" no_match "$dir/warning.log" "$info_or_debug"

# 4. An error at the default level goes to the log file (not the terminal) with the status code.
logged error "$probe" null-argument >"$dir/error.out" 2>"$dir/error.err"
check "error run: status 161001" contains "$dir/error.out" "phase1=161001"
check "error run: the log file has an [ERROR] line" matches "$dir/error.log" '^\[ERROR\] '
check "error run: the [ERROR] line carries 161001" bash -c "grep '^\[ERROR\] ' '$dir/error.log' | grep -q 161001"
check "error run: the [ERROR] line names gradOutput" bash -c "grep '^\[ERROR\] ' '$dir/error.log' | grep -q gradOutput"
check "error run: the [ERROR] line is in CANN's format" matches "$dir/error.log" "$line_format"
check "error run: stdout has no [ERROR] line" no_match "$dir/error.out" '^\[ERROR\] '
check "error run: stderr has no [ERROR] line" no_match "$dir/error.err" '^\[ERROR\] '

# 5. With the stdout switch the error goes to stdout instead.
logged error_stdout env ASCEND_SLOG_PRINT_TO_STDOUT=1 "$probe" null-argument >"$dir/error_stdout.out" 2>"$dir/error_stdout.err"
check "error to stdout: stdout has the [ERROR] line with 161001" \
  bash -c "grep '^\[ERROR\] ' '$dir/error_stdout.out' | grep -q 161001"
check "error to stdout: stderr has no [ERROR] line" no_match "$dir/error_stdout.err" '^\[ERROR\] '
check "error to stdout: no log file line" test ! -s "$dir/error_stdout.log"

# 6. Level 4 turns logging off; the status and the recent message remain.
logged off env ASCEND_GLOBAL_LOG_LEVEL=4 "$probe" null-argument >"$dir/off.out" 2>&1
check "logging off: status still 161001" contains "$dir/off.out" "phase1=161001"
check "logging off: the recent error message is still set" grep -q "^message=..*gradOutput" "$dir/off.out"
check "logging off: no log line at all" no_match "$dir/off.out" "$any_line"
check "logging off: nothing in a log file" test ! -s "$dir/off.log"

# 7. Warnings the documentation promises are printed at the default level (3): a setting
# that is ignored, and what aclFinalize reclaims.
for value in 257 100000000000000000000 0 -3 two 4x; do
  logged threads env MISHGRAD_NUM_THREADS="$value" "$probe" run float >"$dir/threads.out" 2>"$dir/threads.err"
  check "MISHGRAD_NUM_THREADS=$value: the run still succeeds" contains "$dir/threads.out" "values=right"
  check "MISHGRAD_NUM_THREADS=$value: a [WARNING] at the default level names it" \
    bash -c "grep '^\[WARNING\] ' '$dir/threads.log' | grep -qF 'MISHGRAD_NUM_THREADS=\"$value\"'"
done
logged threads_ok env MISHGRAD_NUM_THREADS=2 "$probe" run float >"$dir/threads_ok.out" 2>&1
check "MISHGRAD_NUM_THREADS=2: no warning" no_match "$dir/threads_ok.log" '^\[WARNING\] '
logged threads_off env MISHGRAD_NUM_THREADS=257 ASCEND_GLOBAL_LOG_LEVEL=4 "$probe" run float >"$dir/threads_off.out" 2>&1
check "MISHGRAD_NUM_THREADS=257 with logging off: silent" no_match "$dir/threads_off.log" '^\[WARNING\] '
# an ISA of the list that is never built for this architecture
missing_isa=$(bash "$MISHGRAD_PKG_SOURCE_DIR/tools/isa_names.sh" --not-here | head -1)
for value in bogus "$missing_isa"; do
  logged isa env MISHGRAD_ISA="$value" "$probe" run float >"$dir/isa.out" 2>"$dir/isa.err"
  check "MISHGRAD_ISA=$value: the run still succeeds" contains "$dir/isa.out" "values=right"
  check "MISHGRAD_ISA=$value: a [WARNING] at the default level names it" \
    bash -c "grep '^\[WARNING\] ' '$dir/isa.log' | grep -qF 'MISHGRAD_ISA=$value'"
done
logged isa_ok env MISHGRAD_ISA=scalar "$probe" run float >"$dir/isa_ok.out" 2>&1
check "MISHGRAD_ISA=scalar: no warning" no_match "$dir/isa_ok.log" '^\[WARNING\] '
logged leak "$probe" leak >"$dir/leak.out" 2>"$dir/leak.err"
check "leak: aclFinalize succeeds" contains "$dir/leak.out" "finalize=0"
check "leak: a [WARNING] at the default level says what aclFinalize released" \
  bash -c "grep '^\[WARNING\] ' '$dir/leak.log' | grep -q 'aclFinalize: released .*1 memory block'"
check "leak: the warning is in CANN's format" matches "$dir/leak.log" "$line_format"

finish

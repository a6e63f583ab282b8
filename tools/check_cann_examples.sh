#!/usr/bin/env bash
# Compiles and links every example host program of a hicann/ops-nn checkout against the
# installed MishGradV2 headers and libraries (issue 11's re-measurement).
#
#   bash tools/check_cann_examples.sh OPS_NN [PREFIX] [REPORT_DIR]
#
#   OPS_NN      an ops-nn checkout, or a bare git directory (its HEAD is extracted with
#               git archive into a temporary directory; nothing is written into the repo)
#   PREFIX      the MishGradV2 install prefix (default: ./install, what build.sh makes)
#   REPORT_DIR  where the per-program logs and lists go (default: a temporary directory)
#   JOBS=N      parallel compiles (default 2)   CXX=...  the C++ compiler (default c++)
#
# A program is an example source under */examples/ that defines main(), together with the
# other sources in its directory. Programs written against the GE graph API (ge_api.h /
# graph.h: graph construction, not the runtime or the tensor base) are left out, and so
# are those of which a source includes an aclnnop/ operator header the checkout does not
# contain (CANN generates those at build time). Every other program is compiled with the operator
# headers of the checkout staged into aclnnop/ and aclnnop/level2/ next to ours, as CANN's
# built-in package installs them (include/aclnnop is on the include path too, as CANN's
# sample builds have it), and linked with -lcust_opapi -lnnopbase -lascendcl. "Links except for operator
# functions": every undefined symbol is an aclnn* function our libraries do not define.
set -uo pipefail

if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
  sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ops=$1
prefix=${2:-$root/install}
jobs=${JOBS:-2}
cxx=${CXX:-c++}
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
[ -d "$prefix/include/acl" ] || { echo "check_cann_examples: no headers under $prefix/include (run build.sh)" >&2; exit 1; }
libdir=$(ls -d "$prefix"/lib*/ 2>/dev/null | while read -r d; do [ -e "$d/libascendcl.so" ] && echo "$d"; done | head -1)
[ -n "$libdir" ] || { echo "check_cann_examples: no libascendcl.so under $prefix/lib*" >&2; exit 1; }

work=$(mktemp -d /tmp/check_cann_examples.XXXXXX)
trap 'rm -rf "$work"' EXIT
report=${3:-$work/report}
mkdir -p "$report"

# ---- the sources: a checkout as it is, or a bare repository's HEAD extracted ----------
if [ -d "$ops/examples" ] || [ -d "$ops/activation" ]; then
  src=$(cd "$ops" && pwd)
elif git --git-dir="$ops" rev-parse --verify -q HEAD >/dev/null; then
  src=$work/src
  mkdir -p "$src"
  git --git-dir="$ops" archive HEAD | tar -x -C "$src"
  echo "ops-nn: $(git --git-dir="$ops" rev-parse --short=8 HEAD) (extracted from $ops)"
else
  echo "check_cann_examples: $ops is neither an ops-nn checkout nor a git directory" >&2
  exit 1
fi

# ---- headers: ours, plus the checkout's operator headers in aclnnop/ -------------------
inc=$work/include
cp -r "$prefix/include" "$inc"
# Main tree first, experimental/ after: the first header of a name wins; ours are kept.
# (Each program also gets its own operator's headers ahead of these: see check_one.)
(cd "$src" && find . -path ./experimental -prune -o -name 'aclnn_*.h' -path '*op_api*' -print | sort;
 cd "$src" && find ./experimental -name 'aclnn_*.h' -path '*op_api*' -print 2>/dev/null | sort) |
while read -r h; do
  [ -e "$inc/aclnnop/$(basename "$h")" ] || cp "$src/$h" "$inc/aclnnop/"
done
# CANN's built-in package installs every operator header twice: aclnnop/ and aclnnop/level2/
# (ops-nn cmake/variables.cmake, ACLNN_INC_INSTALL_DIR and ACLNN_OP_INC_INSTALL_DIR).
mkdir -p "$inc/aclnnop/level2"
for h in "$inc"/aclnnop/aclnn_*.h; do
  [ -e "$h" ] && cp "$h" "$inc/aclnnop/level2/"
done

# Our libraries' aclnn* definitions (not operator functions to be excused).
nm -D --defined-only "$libdir"/libcust_opapi.so "$libdir"/libnnopbase.so "$libdir"/libascendcl.so 2>/dev/null |
  awk '{print $NF}' | sort -u > "$work/ours.txt"

# ---- the programs -------------------------------------------------------------------
: > "$work/programs.txt"; : > "$report/excluded_ge.txt"; : > "$report/excluded_generated_header.txt"
while IFS= read -r f; do
  grep -qE '^[^/]*\bmain[[:space:]]*\(' "$src/$f" || continue
  if grep -qE '#include[[:space:]]*[<"](ge_api\.h|graph\.h|graph/)' "$src/$f"; then
    echo "$f" >> "$report/excluded_ge.txt"; continue
  fi
  missing=""
  # The program's sources: this one and its siblings without a main() (as check_one builds it).
  program_sources="$src/$f"
  for s in "$src/$(dirname "$f")"/*.cpp "$src/$(dirname "$f")"/*.cc; do
    [ -e "$s" ] && [ "$s" != "$src/$f" ] && ! grep -qE '^[^/]*\bmain[[:space:]]*\(' "$s" && program_sources="$program_sources $s"
  done
  # "aclnnop/aclnn_x.h", or plain "aclnn_x.h" (CANN's sample builds put include/aclnnop on
  # the include path too, as this script does), in any of the program's sources
  # shellcheck disable=SC2086  # program_sources: a list of paths without spaces
  for h in $(grep -ohE '#include[[:space:]]*"(aclnnop/)?aclnn_[^"]+"' $program_sources | sed -E 's|^[^"]*"(aclnnop/)?||;s|"$||' | sort -u); do
    [ -e "$inc/aclnnop/$h" ] || [ -e "$src/$(dirname "$f")/$h" ] ||
      [ -n "$(find "$src/${f%%/examples/*}" -path '*op_api*' -name "$(basename "$h")" -print -quit)" ] ||
      missing="$missing $h"
  done
  if [ -n "$missing" ]; then echo "$f:$missing" >> "$report/excluded_generated_header.txt"; continue; fi
  echo "$f" >> "$work/programs.txt"
done < <(cd "$src" && find . -path '*/examples/*' \( -name '*.cpp' -o -name '*.cc' \) | sed 's|^\./||' | sort)

check_one() { # $1: the source with main(), relative to $src
  local f=$1 dir key objs="" ok=1 log
  dir=$(dirname "$f")
  key=$(echo "$f" | tr '/' '_')
  log="$report/logs/$key.log"
  local sources="$f"
  # Sibling sources without a main() of their own belong to the program.
  for s in "$src/$dir"/*.cpp "$src/$dir"/*.cc; do
    [ -e "$s" ] || continue
    [ "$s" = "$src/$f" ] && continue
    grep -qE '^[^/]*\bmain[[:space:]]*\(' "$s" || sources="$sources ${s#"$src"/}"
  done
  : > "$log"
  # The program's own operator's headers first (an experimental/ operator's example wants
  # its own header, not the main tree's of the same name).
  local overlay="$work/overlay/$key"
  mkdir -p "$overlay/aclnnop/level2"
  find "$src/${f%%/examples/*}" -path '*op_api*' -name 'aclnn_*.h' -exec cp {} "$overlay/aclnnop/" \; \
    -exec cp {} "$overlay/aclnnop/level2/" \;
  local n=0
  for s in $sources; do
    n=$((n + 1))
    if ! $cxx -std=c++17 -w -c "$src/$s" -I "$overlay" -I "$overlay/aclnnop" -I "$inc" -I "$inc/aclnnop" -I "$src/$dir" -I "$src/$dir/../inc" -o "$work/obj/$key.$n.o" >> "$log" 2>&1; then
      ok=0
    fi
    objs="$objs $work/obj/$key.$n.o"
  done
  if [ $ok = 0 ]; then echo "compile_fail $f"; return; fi
  if $cxx $objs -o "$work/obj/$key.exe" -L "$libdir" -lcust_opapi -lnnopbase -lascendcl -lpthread -lm >> "$log" 2>&1; then
    echo "link_ok $f"; return
  fi
  local undefined others
  undefined=$(grep -oE "undefined reference to \`[^'(]+" "$log" | sed "s/.*\`//" | sort -u)
  others=$(echo "$undefined" | grep -v '^aclnn' | grep -v '^$')
  local ours_hit
  ours_hit=$(echo "$undefined" | grep '^aclnn' | grep -xF -f "$work/ours.txt")
  if [ -n "$undefined" ] && [ -z "$others" ] && [ -z "$ours_hit" ]; then echo "link_ops_only $f"; else echo "link_fail $f"; fi
}
export -f check_one
export src inc work report libdir cxx
mkdir -p "$work/obj" "$report/logs"
xargs -P "$jobs" -I{} bash -c 'check_one "$@"' _ {} < "$work/programs.txt" > "$report/results.txt"

total=$(wc -l < "$work/programs.txt")
compiled=$(grep -cv '^compile_fail' "$report/results.txt")
linked_ops=$(grep -cE '^(link_ok|link_ops_only)' "$report/results.txt")
linked_all=$(grep -c '^link_ok' "$report/results.txt")

# What the failures miss: the compiler's first complaint per failing program, counted.
grep '^compile_fail' "$report/results.txt" | cut -d' ' -f2 | while read -r f; do
  grep -m1 -E 'error:' "$report/logs/$(echo "$f" | tr '/' '_').log" |
    sed -E "s/^[^:]*:[0-9]+:[0-9]+: //; s/‘|’/'/g"
done | sort | uniq -c | sort -rn > "$report/compile_errors.txt"
grep '^link_fail' "$report/results.txt" | cut -d' ' -f2 | while read -r f; do
  grep -oE "undefined reference to \`[^'(]+" "$report/logs/$(echo "$f" | tr '/' '_').log" | sed "s/.*\`//" | sort -u |
    grep -v '^aclnn' || true
done | sort | uniq -c | sort -rn > "$report/link_missing.txt"

echo "example programs (main() under */examples/):  $((total + $(wc -l < "$report/excluded_ge.txt") + $(wc -l < "$report/excluded_generated_header.txt")))"
echo "  left out, GE graph API:                      $(wc -l < "$report/excluded_ge.txt")"
echo "  left out, operator header not in the tree:   $(wc -l < "$report/excluded_generated_header.txt")"
echo "measured:                                      $total"
echo "  compile:                                     $compiled"
echo "  link except for operator functions:          $linked_ops"
echo "  link with nothing undefined:                 $linked_all"
if [ -s "$report/compile_errors.txt" ]; then echo "first compile error, by count:"; head -15 "$report/compile_errors.txt"; fi
if [ -s "$report/link_missing.txt" ]; then echo "undefined non-operator symbols, by count:"; head -15 "$report/link_missing.txt"; fi
[ -n "${3:-}" ] && echo "details: $report"
exit 0

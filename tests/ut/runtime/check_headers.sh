#!/usr/bin/env bash
# The public headers as CANN lays them out (issue 11):
#   1. every installed header (include/acl/**, include/aclnn/*, include/aclnnop/*) compiles
#      alone, and twice, as C11 and as C++11 with -Wall -Wextra -pedantic -Werror;
#   2. each line of acl_header_expect.txt holds with ONLY its header included: a name's value
#      (a constant expression, checked by _Static_assert / static_assert), a function declared
#      with CANN's type (assigned to a pointer of that type), a type declared; deprecated
#      functions warn when used and otherwise match;
#   3. every function of the table links against libascendcl.
# Usage: check_headers.sh INCLUDE_DIR GENERATED_INCLUDE_DIR LIB_DIR CC [CXX]
# Exit 0: all pass; 1: a check failed; 77 (CTest skip): the C checks passed but no C++
# compiler was found, so the C++ half did not run.
set -u
include_dir=$1 generated_dir=$2 lib_dir=$3 cc=$4 cxx=${5:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
expect=$here/acl_header_expect.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
checks=0
flags=(-Wall -Wextra -pedantic -Werror -I"$include_dir" -I"$generated_dir")

if [ -z "$cxx" ] || ! command -v "$cxx" >/dev/null 2>&1; then cxx=""; fi

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# compile LANG FILE [extra flags...]: 0 when it compiles cleanly; the log is in $work/log.
compile() {
  local lang=$1 file=$2; shift 2
  if [ "$lang" = c ]; then
    "$cc" -std=c11 -x c "${flags[@]}" "$@" -c "$file" -o "$work/out.o" >"$work/log" 2>&1
  else
    "$cxx" -std=c++11 -x c++ "${flags[@]}" "$@" -c "$file" -o "$work/out.o" >"$work/log" 2>&1
  fi
}

langs=(c)
[ -n "$cxx" ] && langs+=(cxx)

# ---- 1. each header alone, and twice -------------------------------------------------------
mapfile -t headers < <(cd "$include_dir" && find acl aclnn aclnnop -name '*.h' 2>/dev/null | LC_ALL=C sort)
if [ ${#headers[@]} -eq 0 ]; then fail "no headers under $include_dir"; fi
for h in "${headers[@]}"; do
  printf '#include "%s"\n#include "%s"\nint main(void) { return 0; }\n' "$h" "$h" >"$work/alone.c"
  for lang in "${langs[@]}"; do
    checks=$((checks + 1))
    compile "$lang" "$work/alone.c" || { fail "$h alone ($lang)"; sed 's/^/    /' "$work/log" | head -20; }
  done
done
echo "headers compiled alone: ${#headers[@]} (${langs[*]})"

# ---- 1b. each header as the whole translation unit (no main: a header of macros only must
# still declare something, since ISO C forbids an empty translation unit) -------------------
mapfile -t generated < <(cd "$generated_dir" && find mishgrad -name '*.h' 2>/dev/null | LC_ALL=C sort)
for h in "${headers[@]}" "${generated[@]}"; do
  printf '#include "%s"\n' "$h" >"$work/unit.c"
  for lang in "${langs[@]}"; do
    checks=$((checks + 1))
    compile "$lang" "$work/unit.c" || { fail "$h as the whole translation unit ($lang)"; sed 's/^/    /' "$work/log" | head -10; }
  done
done
echo "headers compiled as the whole translation unit: $((${#headers[@]} + ${#generated[@]})) (${langs[*]})"

# ---- 1c. CANN's C++ constant OK (aclnn/acl_meta.h); C programs keep the name free ----------
if [ -n "$cxx" ]; then
  printf '#include "aclnn/acl_meta.h"\nstatic_assert(OK == 0, "OK is 0");\naclnnStatus ok_status() { return OK; }\n' >"$work/ok.cc"
  checks=$((checks + 1))
  compile cxx "$work/ok.cc" || { fail "aclnn/acl_meta.h: CANN's constant OK (C++)"; sed 's/^/    /' "$work/log" | head -10; }
fi
printf '#include "aclnn/acl_meta.h"\nenum { OK = 1 };\nint ok_value(void) { return OK; }\n' >"$work/ok.c"
checks=$((checks + 1))
compile c "$work/ok.c" || { fail "aclnn/acl_meta.h declares OK in C"; sed 's/^/    /' "$work/log" | head -10; }

# ---- 2. the table, header by header -----------------------------------------------------------
mapfile -t table_headers < <(grep -v '^#' "$expect" | grep '|' | cut -d'|' -f2 | LC_ALL=C sort -u)
for h in "${table_headers[@]}"; do
  for lang in "${langs[@]}"; do
    assert=_Static_assert
    [ "$lang" = cxx ] && assert=static_assert
    src=$work/table.c
    {
      printf '#include "%s"\n\nint main(void) {\n' "$h"
      grep -v '^#' "$expect" | awk -F'|' -v h="$h" -v a="$assert" '
        $2 != h { next }
        $1 == "val" { printf "    %s((%s) == (%s), \"%s == %s\");\n", a, $3, $4, $3, $4 }
        $1 == "fn" && seen_fn[$3]++ { next }
        $1 == "fn" { t = $4; sub(/\(\*\)/, "(*t_" $3 ")", t); printf "    typedef %s;\n    t_%s p_%s = %s;\n    (void)p_%s;\n", t, $3, $3, $3, $3 }
        $1 == "type" { printf "    %s *q_%s = 0;\n    (void)q_%s;\n", $3, $3, $3 }'
      printf '    return 0;\n}\n'
    } >"$src"
    n=$(grep -v '^#' "$expect" | awk -F'|' -v h="$h" '$2 == h && ($1 == "val" || $1 == "fn" || $1 == "type")' | wc -l)
    checks=$((checks + n))
    compile "$lang" "$src" || { fail "$h: names, values or declarations ($lang)"; grep -E 'error|note' "$work/log" | head -30 | sed 's/^/    /'; }
    # Deprecated functions: used, they warn (an error under -Werror); with the warning off,
    # the declaration matches.
    while IFS='|' read -r kind hh name type; do
      [ "$kind" = dep ] && [ "$hh" = "$h" ] || continue
      t=${type/(\*)/(*t_$name)}
      printf '#include "%s"\nint main(void) {\n    typedef %s;\n    t_%s p = %s;\n    (void)p;\n    return 0;\n}\n' \
        "$h" "$t" "$name" "$name" >"$work/dep.c"
      checks=$((checks + 1))
      if compile "$lang" "$work/dep.c"; then
        fail "$name is not marked deprecated in $h ($lang)"
      elif ! grep -q deprecated "$work/log"; then
        fail "$name in $h: $(head -3 "$work/log")"
      elif ! compile "$lang" "$work/dep.c" -Wno-deprecated-declarations; then
        fail "$name in $h ($lang): declaration differs"; head -10 "$work/log" | sed 's/^/    /'
      fi
    done < <(grep -v '^#' "$expect")
  done
done
echo "table lines checked per language: $(grep -v '^#' "$expect" | grep -c '|')"

# ---- 3. every function of the table links --------------------------------------------------------
{
  # acl/acl.h brings everything but the operator compiler, which CANN's acl.h leaves out too.
  printf '#include "acl/acl.h"\n#include "acl/acl_op_compiler.h"\n#include <stdio.h>\n\nint main(void) {\n    void (*volatile fns[])(void) = {\n'
  grep -v '^#' "$expect" | awk -F'|' '($1 == "fn" || $1 == "dep") && !seen[$3]++ { printf "        (void (*)(void))%s,\n", $3 }'
  printf '    };\n    printf("%%zu\\n", sizeof fns / sizeof fns[0]);\n    return fns[0] == 0;\n}\n'
} >"$work/link.c"
checks=$((checks + 1))
# shellcheck disable=SC2086  # MISHGRAD_HEADER_CHECK_LDFLAGS: extra link flags (sanitizers)
if ! "$cc" -std=c11 ${MISHGRAD_HEADER_CHECK_LDFLAGS:-} -Wno-deprecated-declarations -I"$include_dir" -I"$generated_dir" "$work/link.c" -o "$work/link" \
     -L"$lib_dir" -Wl,-rpath,"$lib_dir" -lascendcl >"$work/log" 2>&1; then
  fail "functions do not link against libascendcl"; grep -E 'undefined' "$work/log" | head -40 | sed 's/^/    /'
# shellcheck disable=SC2086  # MISHGRAD_HEADER_CHECK_EMULATOR: a cross build's emulator command
elif ! ${MISHGRAD_HEADER_CHECK_EMULATOR:-} "$work/link" >/dev/null; then
  fail "the link check program did not run"
fi

echo "checks: $checks, failures: $failures"
[ "$failures" -eq 0 ] || exit 1
if [ -z "$cxx" ]; then echo "SKIP: no C++ compiler found; the C++11 half did not run"; exit 77; fi
exit 0

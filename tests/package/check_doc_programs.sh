#!/usr/bin/env bash
# The C the documentation shows, compiled as written against the installed headers (the
# programs shown in full as example files are docs.examples' and examples/run.sh's).
# Every ```c block of README.md and docs/*.md that calls the API:
#   - a program (it has main): built as the docs build one (-lcust_opapi -lnnopbase
#     -lascendcl, -Wall -Wextra -Werror) and run; it must exit 0;
#   - a fragment of declarations: compiled (-fsyntax-only) after the headers it includes, or
#     after every operator header when it includes none, so a prototype that drifts from
#     the installed header is a conflicting declaration, an error.
# Left out: blocks that name no acl/aclnn function and include no header, and excerpts of
# the library's own sources (a line of just "..." marks what they leave out).
# shellcheck source=package_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/package_common.sh"

src=$MISHGRAD_PKG_SOURCE_DIR
dir=$(work_dir doc_programs)
include="$MISHGRAD_PKG_PREFIX/include"

prelude="$dir/prelude.h"
{
  echo '#include "acl/acl.h"'
  for header in "$include"/aclnnop/*.h; do echo "#include \"aclnnop/$(basename "$header")\""; done
} > "$prelude"

n=0
for doc in "$src/README.md" "$src"/docs/*.md; do
  name=$(basename "$doc" .md)
  # One file per ```c block: <name>_<first line>.c
  rm -f "$dir/$name"_*.c
  awk -v out="$dir/$name" '
    /^```c$/ { inside = 1; file = sprintf("%s_%d.c", out, NR + 1); next }
    inside && /^```/ { inside = 0; close(file); next }
    inside { print > file }' "$doc"
  for block in "$dir/$name"_*.c; do
    [ -e "$block" ] || continue
    grep -qE '#include "acl|(^|[^A-Za-z_])acl(nn|rt)?[A-Z][A-Za-z]*\(' "$block" || continue
    grep -qE '^[[:space:]]*\.\.\.' "$block" && continue
    n=$((n + 1))
    line=${block##*_}; line=${line%.c}
    where="$(basename "$doc"):$line"
    if grep -qE '^int main\(' "$block"; then
      exe="${block%.c}"
      if check "$where: the program compiles and links" build_c_plain "$exe" "$block"; then
        ASCEND_GLOBAL_LOG_LEVEL=3 "$exe" > "$exe.out" 2>&1
        rc=$?
        [ "$rc" = 0 ] || cat "$exe.out" >&2
        check "$where: the program exits 0 (it exits $rc)" test "$rc" = 0
      fi
    elif grep -q '^#include' "$block"; then
      check "$where: the declarations compile against the installed headers" \
        "$pkg_cc" -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$include" "$block"
    else
      check "$where: the declarations compile after the installed headers" \
        "$pkg_cc" -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$include" -include "$prelude" "$block"
    fi
  done
done
check "the docs show C that calls the API ($n blocks)" test "$n" -gt 0

finish

#!/usr/bin/env bash
# tools/isa_names.sh: the kernels' ISA names as the one ISA list (runtime/mgrt_isa_list.inc)
# spells them, one a line, worst first, for scripts that loop over ISAs instead of naming them.
#   tools/isa_names.sh               every ISA (MGRT_ISA lines; variants are builds, not names)
#   tools/isa_names.sh --here        only those built for this machine's architecture
#   tools/isa_names.sh --not-here    only those that are not
#   --arch x86|arm64                 judge "here" for that architecture instead of uname -m
#   --best-first                     the same names, best first
set -euo pipefail
list="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/runtime/mgrt_isa_list.inc"
want=all order=worst
case "$(uname -m)" in
  x86_64|amd64|i[3-6]86) arch=x86 ;;
  aarch64|arm64) arch=arm64 ;;
  *) arch=none ;;
esac
while [ $# -gt 0 ]; do
  case "$1" in
    --here) want=here ;;
    --not-here) want=not-here ;;
    --arch) arch=$2; shift ;;
    --best-first) order=best ;;
    -h|--help) sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "isa_names.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
# MGRT_ISA(name, needs, arch, simd, "flags"): the fields have no commas of their own
names=$(awk -F', *' -v want="$want" -v arch="$arch" '
  /^MGRT_ISA\(/ {
    name = substr($1, length("MGRT_ISA(") + 1)
    here = ($3 == "any" || $3 == arch)
    if (want == "all" || (want == "here" && here) || (want == "not-here" && !here)) print name
  }' "$list")
if [ -z "$names" ] && [ "$want" != "not-here" ]; then
  echo "isa_names.sh: no ISA read from $list" >&2
  exit 1
fi
[ -n "$names" ] || exit 0
if [ "$order" = best ]; then
  printf '%s\n' "$names" | tac
else
  printf '%s\n' "$names"
fi

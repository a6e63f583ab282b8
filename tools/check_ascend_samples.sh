#!/usr/bin/env bash
# Do the Ascend samples' runtime calls resolve against MishGradV2? (issue 11's re-measurement)
#
#   bash tools/check_ascend_samples.sh SAMPLES [PREFIX] [REPORT_DIR]
#
#   SAMPLES     a checkout of github.com/Ascend/samples, or a bare git directory (its HEAD
#               is read with git grep; nothing is extracted or written into it)
#   PREFIX      the MishGradV2 install prefix (default: ./install, what build.sh makes)
#   REPORT_DIR  where the lists go (default: a temporary directory)
#   CANN_HEADER_SOURCES="DIR ..."  checkouts or bare git directories of CANN's header
#               repositories (hicann/runtime: include/external/acl; hicann/ge:
#               inc/external/acl): a called name counts as CANN's API when one of their
#               headers declares it. Without them, a name counts as CANN's unless the
#               samples define it themselves (a member such as aclConfig_, or a function
#               the samples' own sources define).
#   CC=...      the C compiler for the declaration check (default cc)
#
# Every identifier acl<lower>*<Upper>...( called in a .c, .cpp, .cc, .h or .hpp file is
# collected with the number of files calling it, then classified:
#   dvpp         acldvpp*, aclvdec*, aclvenc* (media processing: DVPP)
#   model        aclmdl* (offline models)
#   single-op    aclop*, aclSetCompileopt, aclGetCompileopt*, aclGenGraphAndDumpForOp,
#                aclCreateGraphDumpOpt, aclDestroyGraphDumpOpt (single operators, compiler)
#   other-pkg    aclgrph* (GE graph building and parsers), aclblas* (CANN's cblas
#                operators), aclfv* (feature-vector retrieval): CANN packages that are
#                neither the runtime nor the tensor base
#   not-cann     not declared by CANN's headers (see CANN_HEADER_SOURCES)
#   runtime      everything else: each must be declared by our installed headers (a C11
#                program including acl/acl.h, acl/acl_op_compiler.h and aclnn/aclnn_base.h
#                takes its address) and exported by libascendcl or libnnopbase (nm -D).
# Exit 0 when every runtime call resolves, 1 when some do not, 2 on usage errors.
set -uo pipefail

if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
  sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
samples=$1
prefix=${2:-$root/install}
cc=${CC:-cc}
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
[ -e "$prefix/include/acl/acl.h" ] || { echo "check_ascend_samples: no headers under $prefix/include (run build.sh)" >&2; exit 2; }
libdir=$(ls -d "$prefix"/lib*/ 2>/dev/null | while read -r d; do [ -e "$d/libascendcl.so" ] && echo "$d"; done | head -1)
[ -n "$libdir" ] || { echo "check_ascend_samples: no libascendcl.so under $prefix/lib*" >&2; exit 2; }

work=$(mktemp -d /tmp/check_ascend_samples.XXXXXX)
trap 'rm -rf "$work"' EXIT
report=${3:-$work/report}
mkdir -p "$report"

globs=('*.c' '*.cpp' '*.cc' '*.h' '*.hpp')
pattern='\bacl[a-z]*[A-Z][A-Za-z0-9_]*[[:space:]]*\('
# grep_src ARGS...: git grep over HEAD of a bare directory, or grep -r over a checkout.
grep_src() {
  if [ -d "$samples/.git" ] || ! git --git-dir="$samples" rev-parse --verify -q HEAD >/dev/null 2>&1; then
    (cd "$samples" && grep -rIE "$@" --include='*.c' --include='*.cpp' --include='*.cc' --include='*.h' --include='*.hpp' .)
  else
    git --git-dir="$samples" grep -IE "$@" HEAD -- "${globs[@]}" 2>/dev/null
  fi
}
if [ -d "$samples/.git" ]; then
  echo "samples: $(git -C "$samples" rev-parse --short=8 HEAD 2>/dev/null || echo checkout) ($samples)"
elif git --git-dir="$samples" rev-parse --verify -q HEAD >/dev/null 2>&1; then
  echo "samples: $(git --git-dir="$samples" rev-parse --short=8 HEAD) $(git --git-dir="$samples" log -1 --format=%cs HEAD) ($samples)"
elif [ -d "$samples" ]; then
  echo "samples: $samples (a directory)"
else
  echo "check_ascend_samples: $samples is neither a checkout nor a git directory" >&2; exit 2
fi

# ---- calls: name and the number of files calling it -------------------------------------------
grep_src -o "$pattern" | sed -E 's/^(HEAD:)?//; s/[[:space:]]*\($//' |
  awk -F: '{ key = $NF; file = $1; if (!seen[key SUBSEP file]++) n[key]++ } END { for (k in n) print n[k], k }' |
  sort -k1,1nr -k2 > "$report/calls.txt"

# ---- CANN's declarations ------------------------------------------------------------------------
: > "$work/cann_declared.txt"
for src in ${CANN_HEADER_SOURCES:-}; do
  if git --git-dir="$src" rev-parse --verify -q HEAD >/dev/null 2>&1 && [ ! -d "$src/.git" ]; then
    git --git-dir="$src" grep -hIE '\bacl[A-Za-z0-9_]*[[:space:]]*\(' HEAD -- 'include/external/acl/*.h' \
      'include/external/acl/**/*.h' 'inc/external/acl/*.h' 'inc/external/acl/**/*.h' 2>/dev/null
  else
    for d in "$src/include/external/acl" "$src/inc/external/acl"; do
      [ -d "$d" ] && grep -rhIE '\bacl[A-Za-z0-9_]*[[:space:]]*\(' "$d"
    done
  fi
done | grep -oE '\bacl[A-Za-z0-9_]*[[:space:]]*\(' | sed -E 's/[[:space:]]*\($//' | sort -u > "$work/cann_declared.txt"
have_cann=0
[ -s "$work/cann_declared.txt" ] && have_cann=1

# Without CANN's headers: what the samples define themselves (members, Class::name(...) or a
# definition line "type name(...)" that does not end in ';').
grep_src -ho '::acl[a-z]*[A-Z][A-Za-z0-9_]*[[:space:]]*\(' | sed -E 's/^:://; s/[[:space:]]*\($//' | sort -u > "$work/defined.txt"

classify() {
  local name=$1
  case "$name" in
    acldvpp*|aclvdec*|aclvenc*) echo dvpp; return ;;
    aclmdl*) echo model; return ;;
    aclop*|aclSetCompileopt|aclGetCompileopt*|aclGenGraphAndDumpForOp|aclCreateGraphDumpOpt|aclDestroyGraphDumpOpt)
      echo single-op; return ;;
    aclgrph*|aclblas*|aclfv*) echo other-pkg; return ;;
  esac
  if [ $have_cann = 1 ]; then
    grep -qxF "$name" "$work/cann_declared.txt" || { echo not-cann; return; }
  else
    case "$name" in *_) echo not-cann; return ;; esac
    grep -qxF "$name" "$work/defined.txt" && { echo not-cann; return; }
  fi
  echo runtime
}

nm -D --defined-only "$libdir"/libascendcl.so "$libdir"/libnnopbase.so 2>/dev/null | awk '{print $NF}' | sed 's/@.*//' |
  sort -u > "$work/exported.txt"

: > "$report/runtime.txt"; : > "$report/unresolved.txt"; : > "$report/excluded.txt"
declared_ok=0; exported_ok=0; runtime_names=0; runtime_files=0
while read -r count name; do
  class=$(classify "$name")
  if [ "$class" != runtime ]; then echo "$class $count $name" >> "$report/excluded.txt"; continue; fi
  runtime_names=$((runtime_names + 1))
  runtime_files=$((runtime_files + count))
  printf '#include "acl/acl.h"\n#include "acl/acl_op_compiler.h"\n#include "aclnn/aclnn_base.h"\nint main(void) { void (*volatile p)(void) = (void (*)(void))%s; return p == 0; }\n' "$name" > "$work/decl.c"
  decl=no; expo=no
  "$cc" -std=c11 -Wno-deprecated-declarations -I"$prefix/include" -c "$work/decl.c" -o "$work/decl.o" > /dev/null 2>&1 && decl=yes
  grep -qxF "$name" "$work/exported.txt" && expo=yes
  [ $decl = yes ] && declared_ok=$((declared_ok + 1))
  [ $expo = yes ] && exported_ok=$((exported_ok + 1))
  echo "$name $count declared=$decl exported=$expo" >> "$report/runtime.txt"
  [ $decl = yes ] && [ $expo = yes ] || echo "$name $count declared=$decl exported=$expo" >> "$report/unresolved.txt"
done < "$report/calls.txt"

excluded_count() { awk -v c="$1" '$1 == c' "$report/excluded.txt" | wc -l; }
echo "acl* names called (acl<lower>*<Upper>...():         $(wc -l < "$report/calls.txt")"
echo "  left out, DVPP (acldvpp*, aclvdec*, aclvenc*):     $(excluded_count dvpp)"
echo "  left out, model (aclmdl*):                         $(excluded_count model)"
echo "  left out, single operator and compiler (aclop*..): $(excluded_count single-op)"
echo "  left out, other CANN packages (aclgrph*, aclblas*, aclfv*): $(excluded_count other-pkg)"
echo "  left out, not CANN's ($([ $have_cann = 1 ] && echo "not in CANN's headers" || echo "defined by the samples")): $(excluded_count not-cann)$( [ "$(excluded_count not-cann)" -gt 0 ] && printf ' (%s)' "$(awk '$1 == "not-cann" {print $3}' "$report/excluded.txt" | paste -sd' ')")"
echo "runtime and tensor-base calls:                       $runtime_names names ($runtime_files calling files summed over the names)"
echo "  declared by our headers:                           $declared_ok"
echo "  exported by libascendcl / libnnopbase:             $exported_ok"
if [ -s "$report/unresolved.txt" ]; then
  echo "unresolved:"; sed 's/^/  /' "$report/unresolved.txt"
fi
[ -n "${3:-}" ] && echo "details: $report"
[ -s "$report/unresolved.txt" ] && exit 1
exit 0

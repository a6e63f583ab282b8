#!/usr/bin/env bash
# tools/ops_nn_survey.sh CHECKOUT CATEGORY [NAME...]
# Runs the operator developer's command, one operator directory at a time, over a category
# of an ops-nn checkout:
#   bash build.sh --ops-nn=CHECKOUT [--experimental] --ops=NAME -u --opapi -j2
# for each directory of CHECKOUT/experimental/CATEGORY (with --experimental), or of
# CHECKOUT/CATEGORY when the checkout has no experimental/CATEGORY, or only the NAMEs given.
# Prints a Markdown table: operator | built | tests (passed, failed) | all pass | first
# blocker (the missing API and its file:line, or the first failed UT or example), then the
# totals. One build folder is shared (SURVEY_BUILD_DIR, default build-survey), so the
# project's libraries are built once; each operator's full output is kept there in
# survey_<name>.out (SURVEY_REUSE=1 tabulates those again without building). The exit status
# is 0 when the survey ran, whatever the operators gave.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ $# -lt 2 ]; then
  echo "usage: bash tools/ops_nn_survey.sh CHECKOUT CATEGORY [NAME...]" >&2
  exit 2
fi
checkout=$(cd "$1" && pwd) || exit 2
category=$2
shift 2
if [ -d "$checkout/experimental/$category" ]; then
  catdir="$checkout/experimental/$category" experimental=(--experimental)
elif [ -d "$checkout/$category" ]; then
  catdir="$checkout/$category" experimental=()
else
  echo "ops_nn_survey.sh: no $category (nor experimental/$category) in $checkout" >&2
  exit 2
fi
bdir=${SURVEY_BUILD_DIR:-$root/build-survey}
mkdir -p "$bdir"
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for d in "$catdir"/*/; do
    [ -d "$d/op_host" ] && names+=("$(basename "$d")")
  done
fi

built=0 allpass=0 total=0
rows=()
for name in "${names[@]}"; do
  total=$((total + 1))
  out="$bdir/survey_$name.out"
  if [ "${SURVEY_REUSE:-0}" != 1 ] || [ ! -f "$out" ]; then
    MISHGRAD_BUILD_DIR="$bdir" bash "$root/build.sh" --ops-nn="$checkout" ${experimental[@]+"${experimental[@]}"} \
      --ops="$name" -u --opapi -j"${JOBS:-2}" --prefix "$bdir/package" >"$out" 2>&1
  fi
  # the driver's lines: "<name>: cannot be built: <file:line: error>", "<name>: N passed, M failed"
  blocker=$(sed -n "s/^$name: cannot be built: //p" "$out" | head -n 1)
  summary=$(sed -n "s/^$name: \([0-9]* passed, [0-9]* failed\)$/\1/p" "$out" | tail -n 1)
  if [ -n "$blocker" ] || [ -z "$summary" ]; then
    [ -n "$blocker" ] || blocker=$(grep -v '^build.sh --ops-nn' "$out" | head -n 1)
    blocker=${blocker% (log: *}
    rows+=("| $name | no | — | no | ${blocker//|/\\|} |")
    continue
  fi
  built=$((built + 1))
  passed=${summary%% passed*}
  failed=${summary##*, }
  failed=${failed%% failed}
  ok=no
  if [ "$failed" = 0 ] && [ "$passed" -gt 0 ]; then ok=yes; allpass=$((allpass + 1)); fi
  # the first thing that failed or is missing, as the driver names it
  lines=$(grep -E "^  $name: |^$name: (the UTs|no op_api)" "$out" |
          grep -vE "example [^ ]*: .*passed|example [^ ]*\.cpp: [^f]" | sed -E "s/^ *$name: //")
  note=$( (grep -vE "^no op_api UT" <<<"$lines"; grep -E "^no op_api UT" <<<"$lines") | grep -v '^$' | head -n 1)
  # a failed UT: the reason its log gives first
  reason=$(grep -m1 -hE " phase [12]: | on the stream: |out of tolerance|no float64 reference" \
           "$bdir/opsnn_ut_$name.log" 2>/dev/null | cut -c1-220)
  if [[ "$note" == "[  FAILED  ]"* ]] && [ -n "$reason" ]; then
    note="$reason (${note#\[  FAILED  \] })"
  fi
  [ "$passed" = 0 ] && [ "$failed" = 0 ] && note=${note:-"nothing to run"}
  rows+=("| $name | yes | $passed passed, $failed failed | $ok | ${note//|/\\|} |")
done

echo "| operator | built | tests | all pass | first blocker |"
echo "|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "$category: $total directories, $built built, $allpass all-pass"

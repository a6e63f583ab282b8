#!/usr/bin/env bash
# The seed's product table, made testable by MISHGRAD_SOC_VERSION (read at aclInit): what
# aclrtGetSocName() says, which dtypes the operator takes, where it refuses to run, and
# that an unknown name stops aclInit. Judged from a consumer built against the install.
# shellcheck source=package_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/package_common.sh"

dir=$(work_dir soc_profiles)
probe="$dir/package_probe"
if ! check "probe builds against the installed tree" \
     build_c_plain "$probe" "$MISHGRAD_PKG_SOURCE_DIR/tests/package/package_probe.c"; then
  finish
fi

# probe_as SOC ARGS...: the probe's report under MISHGRAD_SOC_VERSION=SOC ("" = unset).
probe_as() {
  local soc=$1; shift
  local args="$*"
  local out="$dir/${soc:-default}_${args// /_}.out"
  if [ -n "$soc" ]; then
    MISHGRAD_SOC_VERSION=$soc "$probe" "$@" >"$out" 2>&1
  else
    "$probe" "$@" >"$out" 2>&1
  fi
  echo "$out"
}

# Default and "cpu": this CPU, all three dtypes.
for soc in "" cpu; do
  label=${soc:-unset}
  out=$(probe_as "$soc" soc)
  check "profile $label: aclrtGetSocName() is MishGradV2-CPU" contains "$out" "soc=MishGradV2-CPU"
  for dtype in float float16 bfloat16; do
    out=$(probe_as "$soc" run "$dtype")
    check "profile $label: $dtype runs" contains "$out" "sync=0"
    check "profile $label: $dtype values right" contains "$out" "values=right"
  done
done

# Atlas training series (910) and Atlas inference series (310P): FLOAT and FLOAT16 only.
for soc in Ascend910 Ascend910A Ascend910ProB Ascend910PremiumA Ascend310P3; do
  out=$(probe_as "$soc" soc)
  check "profile $soc: aclrtGetSocName() is $soc" contains "$out" "soc=$soc"
  out=$(probe_as "$soc" run bfloat16)
  check "profile $soc: BFLOAT16 is 161002" contains "$out" "phase1=161002"
  check "profile $soc: the refusal has a message" grep -q "^message=..*" "$out"
  for dtype in float float16; do
    out=$(probe_as "$soc" run "$dtype")
    check "profile $soc: $dtype runs right" contains "$out" "values=right"
  done
done

# Atlas A2 (910B), A3 (910_93) and Ascend 950: all three dtypes.
for soc in Ascend910B1 Ascend910B4 Ascend910_9391 Ascend950PR; do
  out=$(probe_as "$soc" soc)
  check "profile $soc: aclrtGetSocName() is $soc" contains "$out" "soc=$soc"
  for dtype in bfloat16 float; do
    out=$(probe_as "$soc" run "$dtype")
    check "profile $soc: $dtype succeeds" contains "$out" "sync=0"
    check "profile $soc: $dtype values right" contains "$out" "values=right"
  done
done

# Atlas 200I/500 A2 (310B): the operator is not supported there; even FLOAT is refused.
for soc in Ascend310B1 Ascend310B4; do
  out=$(probe_as "$soc" run float)
  check "profile $soc: aclInit accepts it" contains "$out" "aclInit=0"
  check "profile $soc: FLOAT call refused with 561003" contains "$out" "phase1=561003"
  check "profile $soc: the message names the product" \
    grep -Eq "^message=.*($soc|Atlas 200I/500 A2)" "$out"
done

# An unknown name is a clear error at aclInit.
for soc in Ascend999 NotASoc; do
  out=$(probe_as "$soc" soc)
  check "profile $soc: aclInit returns ACL_ERROR_INVALID_PARAM" contains "$out" "aclInit=100000"
  check "profile $soc: the message names the value" grep -q "^message=.*$soc" "$out"
done

finish

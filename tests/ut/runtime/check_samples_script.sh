#!/usr/bin/env bash
# tools/check_ascend_samples.sh on a made-up samples tree with a known answer: each class of
# call is left out or checked as documented, a call our libraries lack fails the check
# (exit 1) and names the call, and a tree whose calls all resolve passes (exit 0).
# Usage: check_samples_script.sh SOURCE_DIR BUILD_DIR CC
set -u
src=$1 build=$2 cc=${3:-cc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
# An install prefix made of the source headers, the generated ones and the built libraries.
mkdir -p "$work/prefix/include" "$work/prefix/lib"
for d in acl aclnn aclnnop; do ln -s "$src/include/$d" "$work/prefix/include/$d"; done
[ -d "$build/include/mishgrad" ] && ln -s "$build/include/mishgrad" "$work/prefix/include/mishgrad"
for l in libascendcl.so libnnopbase.so; do
  lib=$(find "$build" -maxdepth 2 -name "$l" | head -1)
  [ -n "$lib" ] || { echo "FAIL: no $l under $build"; exit 1; }
  ln -s "$lib" "$work/prefix/lib/$l"
done

mkdir -p "$work/samples/app/src" "$work/samples/dvpp"
cat > "$work/samples/app/src/main.cpp" <<'CPP'
#include "acl/acl.h"
int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    void *p = nullptr;
    aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    aclmdlLoadFromFile("m.om", nullptr);
    aclopExecuteV2("Add", 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr);
    aclgrphBuildInitialize();
    aclAppResourceInit();
    aclrtFree(p);
    return 0;
}
CPP
cat > "$work/samples/app/src/resource.cpp" <<'CPP'
#include "acl/acl.h"
int Resource::aclAppResourceInit() { return aclrtSetDevice(0); }
CPP
cat > "$work/samples/dvpp/dvpp.c" <<'C'
void f(void) { acldvppCreateChannel(0); aclvdecCreateChannel(0); aclrtFree(0); }
C
out=$(CC=$cc bash "$src/tools/check_ascend_samples.sh" "$work/samples" "$work/prefix" "$work/report" 2>&1)
rc=$?
expect() { # DESCRIPTION PATTERN
  if ! grep -qE "$2" <<<"$out"; then echo "FAIL: $1 (no line matching '$2')"; fail=1; fi
}
[ $rc -eq 0 ] || { echo "FAIL: every runtime call resolves, yet exit $rc"; fail=1; }
expect "10 names called" 'names called.*: +10$'
expect "2 DVPP calls left out" 'DVPP.*: +2$'
expect "1 model call left out" 'model \(aclmdl\*\): +1$'
expect "1 single-operator call left out" 'single operator.*: +1$'
expect "1 other package's call left out" 'other CANN packages.*: +1$'
expect "the samples' own aclAppResourceInit left out" 'not CANN.s.*: 1 \(aclAppResourceInit\)'
expect "4 runtime names" 'runtime and tensor-base calls: +4 names'
expect "4 declared" 'declared by our headers: +4$'
expect "4 exported" 'exported by libascendcl / libnnopbase: +4$'
grep -qx 'aclrtFree 2 declared=yes exported=yes' "$work/report/runtime.txt" ||
  { echo "FAIL: aclrtFree is called by 2 files"; fail=1; }

# A runtime call that does not exist here: exit 1, named.
cat > "$work/samples/app/src/extra.cpp" <<'CPP'
void g() { aclrtGetNoSuchThing(0); }
CPP
out=$(CC=$cc bash "$src/tools/check_ascend_samples.sh" "$work/samples" "$work/prefix" "$work/report2" 2>&1)
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: an unresolved call gives exit 1, got $rc"; fail=1; }
expect "the unresolved call is named" 'aclrtGetNoSuchThing 1 declared=no exported=no'
[ $fail -eq 0 ] && echo "check_samples_script: ok"
exit $fail

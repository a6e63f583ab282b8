#!/usr/bin/env bash
# Only CANN's public names leave the installed libraries: every defined dynamic symbol
# (objdump -T) is a public one (acl*, Acl*, aclnn*) under version MISHGRAD_1.0, or an
# internal interface between the three libraries (mgrt_*, nnop_*) under the private node
# MISHGRAD_PRIVATE. Nothing else, and no test hook.
# shellcheck source=package_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/package_common.sh"

command -v objdump >/dev/null 2>&1 || skip "objdump (binutils) is not installed"
dir=$(work_dir symbols)
libdir=$(pkg_libdir) || { fail "installed tree"; finish; }

for lib in ascendcl nnopbase cust_opapi; do
  so="$libdir/lib$lib.so.1"
  objdump -T "$so" >"$dir/$lib.dynsym" || { fail "objdump -T lib$lib"; continue; }
  # Defined symbols: "<addr> <flags> <section> <size> <version> <name>", section not *UND*.
  awk '$0 ~ /^[0-9a-f]+ / && $0 !~ /\*UND\*/ { print $(NF-1), $NF }' "$dir/$lib.dynsym" >"$dir/$lib.defined"
  # The version definitions themselves appear as *ABS* symbols named after their node.
  grep -vE '^(MISHGRAD_1\.0 MISHGRAD_1\.0|MISHGRAD_PRIVATE MISHGRAD_PRIVATE)$' "$dir/$lib.defined" >"$dir/$lib.names" || true
  grep -vE '^(MISHGRAD_1\.0 (acl|Acl)[A-Za-z0-9_]*|MISHGRAD_PRIVATE (mgrt|nnop)_[A-Za-z0-9_]*)$' \
    "$dir/$lib.names" >"$dir/$lib.other" || true
  if [ -s "$dir/$lib.other" ]; then
    echo "lib$lib exports, outside the public and private nodes:"; sed 's/^/    /' "$dir/$lib.other"
  fi
  check "lib$lib exports only acl*/Acl* (MISHGRAD_1.0) and mgrt_*/nnop_* (MISHGRAD_PRIVATE)" \
    test ! -s "$dir/$lib.other"
  check "lib$lib defines its public version node MISHGRAD_1.0" \
    grep -q '^MISHGRAD_1\.0 MISHGRAD_1\.0$' "$dir/$lib.defined"
  check "lib$lib exports no test hook (fault, hook, test_)" \
    test -z "$(grep -E '(fault|hook|test_)' "$dir/$lib.names")"
done

# What each library is for is there: the names CANN's headers declare.
check "libascendcl exports aclInit" grep -q '^MISHGRAD_1\.0 aclInit$' "$dir/ascendcl.names"
check "libascendcl exports aclrtMalloc" grep -q '^MISHGRAD_1\.0 aclrtMalloc$' "$dir/ascendcl.names"
check "libnnopbase exports aclCreateTensor" grep -q '^MISHGRAD_1\.0 aclCreateTensor$' "$dir/nnopbase.names"
# Every operator entry point the installed operator headers declare (aclnnop/*.h: each
# "aclnnStatus aclnnXxx("), so a new operator's header is checked without a list to extend
entries=$(sed -n 's/.*aclnnStatus \(aclnn[A-Z][A-Za-z0-9_]*\)(.*/\1/p' "$MISHGRAD_PKG_PREFIX"/include/aclnnop/*.h | sort -u)
check "the operator headers declare entry points" test -n "$entries"
for entry in $entries; do
  check "libcust_opapi exports $entry" grep -q "^MISHGRAD_1\\.0 $entry\$" "$dir/cust_opapi.names"
done
# The internal interfaces the other libraries use are there, under the private node only.
check "libascendcl gives mgrt_* under MISHGRAD_PRIVATE" grep -q '^MISHGRAD_PRIVATE mgrt_' "$dir/ascendcl.names"
check "libnnopbase gives nnop_* under MISHGRAD_PRIVATE" grep -q '^MISHGRAD_PRIVATE nnop_' "$dir/nnopbase.names"
# And a program that links against them records the version it needs.
if command -v readelf >/dev/null 2>&1 && [ -x "$MISHGRAD_PKG_BUILD_DIR/tools/mishgrad_sweep" ]; then
  check "a program linked against them needs MISHGRAD_1.0" \
    grep -q "MISHGRAD_1.0" <(readelf -V "$MISHGRAD_PKG_BUILD_DIR/tools/mishgrad_sweep")
fi

finish

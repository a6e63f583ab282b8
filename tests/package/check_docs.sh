#!/usr/bin/env bash
# Numbers and commands the documentation states, checked against the tree: the seed
# corpus's size, the plain g++ line's caveat, build.sh's help.
# shellcheck source=package_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/package_common.sh"

src=$MISHGRAD_PKG_SOURCE_DIR
corpus_files=$(find "$src/fuzz/corpus" -maxdepth 1 -type f | wc -l)
claims=$(grep -rhoE 'seed corpus \(([0-9]+) files' "$src/README.md" "$src/docs" | grep -oE '[0-9]+' | sort -u)
check "the docs state the seed corpus's size" test -n "$claims"
for claim in $claims; do
  check "'seed corpus ($claim files' matches fuzz/corpus ($corpus_files files)" test "$claim" = "$corpus_files"
done
check "README says the plain g++ line needs an rpath or LD_LIBRARY_PATH" \
  bash -c "grep -A8 'g++ app.cpp' '$src/README.md' | grep -q 'LD_LIBRARY_PATH'"
check "README names the seed's command" contains "$src/README.md" "bash build.sh --experimental --ops=mish_grad_v2 -u --opapi -j8 -O2"
check "examples/run.sh builds only the library target" grep -q -- "--target cust_opapi" "$src/examples/run.sh"

finish

#!/usr/bin/env bash
# tests/docs/doc_examples.sh SRC: every program a doc shows in full is the example file it
# names, byte for byte, so the docs cannot drift from what examples/run.sh builds and runs.
# A doc marks such a program with a line `<!-- example: PATH -->` (PATH from the source
# root) right before its fenced code block. Fails on a marker without a block, a missing
# file or any difference; exits 77 (a skip) if no doc has a marker.
set -u
src=${1:?usage: doc_examples.sh SOURCE_DIR}
checked=0 failed=0
for doc in "$src"/docs/*.md; do
  while IFS= read -r path; do
    block=$(awk -v want="<!-- example: $path -->" '
      $0 == want { armed = 1; next }
      armed && /^```/ { if (inside) exit; inside = 1; next }
      inside { print }
      armed && !inside && NF { exit 1 }' "$doc")
    if [ $? -ne 0 ] || [ -z "$block" ]; then
      echo "FAIL $(basename "$doc"): no code block after the marker for $path"; failed=$((failed + 1)); continue
    fi
    if [ ! -f "$src/$path" ]; then
      echo "FAIL $(basename "$doc"): $path does not exist"; failed=$((failed + 1)); continue
    fi
    if ! diff -u "$src/$path" <(printf '%s\n' "$block") > /dev/null; then
      echo "FAIL $(basename "$doc"): the program shown differs from $path:"
      diff -u "$src/$path" <(printf '%s\n' "$block") | head -20
      failed=$((failed + 1)); continue
    fi
    echo "ok   $(basename "$doc") shows $path"
    checked=$((checked + 1))
  done < <(sed -n 's/^<!-- example: \(.*\) -->$/\1/p' "$doc")
done
[ "$checked" -gt 0 ] || [ "$failed" -gt 0 ] || { echo "skip: no doc shows an example"; exit 77; }
echo "$checked shown in full, $failed wrong"
[ "$failed" -eq 0 ]

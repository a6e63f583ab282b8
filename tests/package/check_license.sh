#!/usr/bin/env bash
# The licence: a standard one (Apache License 2.0) at the top of the source tree, named in
# the README and in the package metadata (the installed Debian-format copyright file, the
# CPack configuration), installed with the changelog next to the libraries' documents.
# shellcheck source=package_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/package_common.sh"

src=$MISHGRAD_PKG_SOURCE_DIR
check "LICENSE exists" test -s "$src/LICENSE"
check "LICENSE is the Apache License 2.0" contains "$src/LICENSE" "Apache License"
check "LICENSE carries its version line" contains "$src/LICENSE" "Version 2.0, January 2004"
check "LICENSE carries the terms (section 9 and the appendix)" \
  grep -q "9. Accepting Warranty or Additional Liability" "$src/LICENSE"
check "README names the licence" contains "$src/README.md" "Apache License 2.0"
check "README points at LICENSE" contains "$src/README.md" "(LICENSE)"
check "CHANGELOG.md exists" test -s "$src/CHANGELOG.md"
version=$(sed -n 's/^#define MISHGRAD_VERSION_STRING "\(.*\)"$/\1/p' "$MISHGRAD_PKG_PREFIX/include/mishgrad/version.h")
check "CHANGELOG.md has an entry for $version" grep -q "^## \[$version\]" "$src/CHANGELOG.md"

doc="$MISHGRAD_PKG_PREFIX/share/doc/mishgradv2"
check "LICENSE installed in share/doc/mishgradv2" cmp -s "$src/LICENSE" "$doc/LICENSE"
check "CHANGELOG.md installed in share/doc/mishgradv2" test -s "$doc/CHANGELOG.md"
check "the installed copyright file names Apache-2.0" contains "$doc/copyright" "License: Apache-2.0"
cpack_config="$MISHGRAD_PKG_BUILD_DIR/CPackConfig.cmake"
check "the CPack metadata carries LICENSE" contains "$cpack_config" "CPACK_RESOURCE_FILE_LICENSE \"$src/LICENSE\""
check "the .pc file names the licence" contains "$(pkg_libdir)/pkgconfig/mish_grad_v2.pc" "Apache License 2.0"

finish

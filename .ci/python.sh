#!/usr/bin/env bash
# The Python package (issue 13), as a user installs it, in a fresh virtual environment:
#   /usr/bin/python3 -m venv --system-site-packages   (Debian's numpy, torch, pytest visible)
#   python3 -m pip install ./python                     (scikit-build-core runs the project's CMake)
#   pytest python/tests
# Installs the Debian packages it needs with apt-get when they are missing (as root).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

need=()
for p in python3-venv python3-dev python3-pip python3-numpy python3-torch python3-pytest; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "python.sh: installing ${need[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "python.sh: missing ${need[*]}; install them and run again" >&2
    exit 1
  fi
fi

venv=build-pyci/venv
rm -rf build-pyci
/usr/bin/python3 -m venv --system-site-packages "$venv"
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}
"$venv/bin/python" -m pip install --quiet ./python
# The tests import the installed package (python/src is not on the path).
"$venv/bin/python" -c 'import mishgrad, sys; print("python.sh: mishgrad from", mishgrad.__file__, "zero copy:", mishgrad.zero_copy())'

set +e
"$venv/bin/python" -m pytest -q -rs -p no:cacheprovider python/tests
rc=$?
set -e
if [ "$rc" = 5 ]; then
  # pytest's 5 means it collected no tests: the suite was not found, which is a failure here.
  echo "python.sh: pytest collected no tests (exit 5)" >&2
  exit 1
fi
exit "$rc"

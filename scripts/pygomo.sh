#!/usr/bin/env bash
# Makes sure pygomo-lib (PyPI), a third-party client library for Gomocup engines, is available for
# the test that checks Hoshi's MESSAGE lines with its parser, and prints the folder to put on
# PYTHONPATH. Installed once into the git-ignored .pytools/ of the repo; nothing of it is shipped.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="0.1.1"
dest="$repo/.pytools/pygomo-lib-$version"
if [ ! -e "$dest/pygomo/protocol/gomocup.py" ]; then
  tmp="$repo/.pytools/tmp-$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
    --no-deps --target "$tmp" "pygomo-lib==$version" >&2
  rm -rf "$dest"
  mv "$tmp" "$dest"
fi
echo "$dest"

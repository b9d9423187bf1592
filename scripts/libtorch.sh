#!/usr/bin/env bash
# Makes sure libtorch 2.13.0 (the version tch 0.26 expects) is available and prints its root.
# A LIBTORCH set by the user is respected; otherwise PyPI's torch==2.13.0 wheel is installed into
# the git-ignored folder .libtorch/ of the repo (about 5 GB with its CUDA libraries, a minute or two).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="2.13.0"
if [ -n "${LIBTORCH:-}" ]; then
  if [ ! -e "$LIBTORCH/lib/libtorch_cpu.so" ]; then
    echo "LIBTORCH=$LIBTORCH has no lib/libtorch_cpu.so" >&2
    exit 1
  fi
  echo "$LIBTORCH"
  exit 0
fi
dest="$repo/.libtorch/torch-$version"
if [ ! -e "$dest/torch/lib/libtorch_cpu.so" ]; then
  echo "installing torch==$version from PyPI into $dest (first run only)..." >&2
  tmp="$repo/.libtorch/tmp-$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
    --target "$tmp" "torch==$version" >&2
  rm -rf "$dest"
  mv "$tmp" "$dest"
fi
echo "$dest/torch"

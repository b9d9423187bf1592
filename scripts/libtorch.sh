#!/usr/bin/env bash
# Makes sure libtorch 2.13.0 (the version tch 0.26 expects) is available and prints its root.
#
# A LIBTORCH set by the user is respected. Otherwise PyPI's torch==2.13.0 wheel is installed into
# the git-ignored folder .libtorch/ of the repo:
#   - by default the wheel alone (pip --no-deps) and the two small CUDA runtime libraries that
#     libtorch_cpu.so is linked against (libcudart, libcupti: about 50 MB): the CPU libtorch that
#     the build, the tests, the residual net on a CPU and training on a CPU need (about 1.3 GB),
#     without the rest of CUDA, cuDNN, NCCL and Triton;
#   - with HOSHI_CUDA=1, the full install with its nvidia-* CUDA libraries and Triton (about
#     4.7 GB), which `[network] device = "cuda"` needs. Running it with HOSHI_CUDA=1 over a CPU
#     install replaces that install with the full one.
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
cuda="${HOSHI_CUDA:-0}"
# An install is complete when it has libtorch_cpu.so, and, where CUDA is asked for, the full set
# of nvidia packages beside torch/ (cuDNN stands for them; a full install made before the CPU
# default counts as one).
need=0
if [ ! -e "$dest/torch/lib/libtorch_cpu.so" ]; then
  need=1
elif [ "$cuda" = "1" ] && [ ! -d "$dest/nvidia/cudnn" ]; then
  need=1
fi
if [ "$need" = "1" ]; then
  if [ "$cuda" = "1" ]; then
    what="torch==$version with its CUDA and Triton packages (about 4.7 GB)"
    deps=()
    packages=("torch==$version")
  else
    what="torch==$version for the CPU only, without CUDA (HOSHI_CUDA=1 installs CUDA too)"
    deps=(--no-deps)
    # libtorch_cpu.so is linked against these two (the versions torch's cuda-toolkit==13.0.3
    # requirement names); they land in nvidia/cu13/lib, where its rpath looks.
    packages=("torch==$version" nvidia-cuda-runtime==13.0.96 nvidia-cuda-cupti==13.0.85)
  fi
  pip=(python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location
    --root-user-action=ignore)
  echo "installing $what from PyPI into $dest (first run only)..." >&2
  tmp="$repo/.libtorch/tmp-$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  trap 'rm -rf "$tmp"' EXIT
  "${pip[@]}" "${deps[@]}" --target "$tmp" "${packages[@]}" >&2
  rm -rf "$dest"
  mv "$tmp" "$dest"
  trap - EXIT
fi
echo "$dest/torch"

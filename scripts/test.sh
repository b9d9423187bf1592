#!/usr/bin/env bash
# Runs the whole test suite (unit, integration against the real binary, doc tests), installing
# libtorch on first use. CI runs exactly this (see .ci/run).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
LIBTORCH="$(bash scripts/libtorch.sh)"
export LIBTORCH
cargo build --release --bins
cargo test --release --all-targets "$@"

#!/usr/bin/env bash
# Builds Hoshi (installing libtorch on first use) and starts the engine on stdin/stdout with the
# default config. Extra arguments go to pbrain-hoshi (e.g. --config PATH, or a subcommand).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
LIBTORCH="$(bash scripts/libtorch.sh)"
export LIBTORCH
cargo build --release --quiet --bins
exec "$repo/target/release/pbrain-hoshi" "$@"

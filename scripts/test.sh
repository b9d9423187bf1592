#!/usr/bin/env bash
# Runs the whole test suite (unit, integration against the real binary, doc tests), installing
# libtorch on first use, then the protocol tests once more with the searcher that is not the
# default (HOSHI_TEST_SEARCHER: tests/common). CI runs exactly this (see .ci/run).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
LIBTORCH="$(bash scripts/libtorch.sh)"
export LIBTORCH
cargo build --release --bins
cargo test --release --all-targets "$@"
other=mcts
if grep -Eq '^searcher *= *"mcts"' config/hoshi.toml; then other=alphabeta; fi
echo "the protocol tests again with searcher = \"$other\"" >&2
HOSHI_TEST_SEARCHER=$other cargo test --release --test gomocup --test extended \
  --test dialects --test rules --test search --test shutdown --test smoke --test message_format

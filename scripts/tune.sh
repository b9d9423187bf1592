#!/usr/bin/env bash
# Tunes one search constant by matches: the engine with the shipped config (player A) against
# the same engine with KEY = VALUE in its [search] section (player B, `match --config-b`), for
# each VALUE. A fixed playout budget per move instead of a clock keeps the result independent
# of whatever else the machine runs.
#
#   scripts/tune.sh KEY VALUE [VALUE ...]
#
# Environment: GAMES (default 60), NODES (20000 playouts a move), RULES (freestyle,renju),
# JOBS (games at once, default 2), NET (the config's network), SEED (1),
# BIN (target/release/pbrain-hoshi), OUT (tuning/), OPENINGS (unset: random openings; a file
# such as tests/data/openings-15-freestyle-even.txt: those openings in order, colours swapped,
# with RULES the one rule they were chosen for; random openings hand black most games and pull
# every score towards 50 %, see docs/experiments.md).
# Each result line (A's score: below 50 % means the VALUE plays better) is appended to
# OUT/KEY.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
key=${1:?a [search] key, e.g. fpu_reduction}
shift
(($# > 0)) || { echo "give at least one value" >&2; exit 2; }
games=${GAMES:-60}
nodes=${NODES:-20000}
rules=${RULES:-freestyle,renju}
seed=${SEED:-1}
jobs=${JOBS:-2}
bin=${BIN:-target/release/pbrain-hoshi}
out=${OUT:-tuning}
net=${NET:-$(sed -n 's/^network = "\(.*\)"/\1/p' config/hoshi.toml)}
openings=()
if [[ -n "${OPENINGS:-}" ]]; then openings=(--openings "$OPENINGS"); fi
grep -q "^$key = " config/hoshi.toml || { echo "no key $key in config/hoshi.toml" >&2; exit 2; }
mkdir -p "$out"
for value in "$@"; do
  variant="$out/$key-$value.toml"
  sed "s/^$key = .*/$key = $value/" config/hoshi.toml >"$variant"
  "$bin" match --config config/hoshi.toml --a "$net" --b "$net" --config-b "$variant" \
    --games "$games" --movetime 0 --nodes "$nodes" --rule "$rules" --seed "$seed" --jobs "$jobs" \
    "${openings[@]}" \
    | tee -a "$out/$key.txt"
done

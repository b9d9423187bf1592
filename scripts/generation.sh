#!/usr/bin/env bash
# One generation of the pattern net's self-play loop, resumable step by step: run it again
# after an interruption and each step picks up where it stopped (self-play plays only the
# missing games, training resumes from its newest checkpoint, the gate replays its match).
#
#   scripts/generation.sh GEN PREVIOUS_NET [DATA_ROOT]
#
# 1. self-play: 2 workers with the MCTS over PREVIOUS_NET at every leaf (NODES playouts a
#    move, root noise, temperature on the first moves, the threat solver), GAMES games each,
#    rules and sizes mixed, into DATA_ROOT/genGEN;
# 2. training: a pattern net from PREVIOUS_NET's weights on a window of the last WINDOW
#    generations (the newest counted twice), STEPS steps, into DATA_ROOT/ckpt-genGEN;
# 3. gate: the new net against PREVIOUS_NET, GATE_GAMES games at GATE_NODES playouts a move
#    (freestyle and renju, 15x15; fixed playouts, so the result does not depend on what else
#    the machine runs), written to DATA_ROOT/gate-genGEN.txt.
# Promote a net that gains with `pbrain-hoshi promote DATA_ROOT/ckpt-genGEN/ckpt-<step> NAME`.
#
# Environment: GAMES (default 2500 per worker), NODES (800), STEPS (4000), LR (7e-4, decaying
# to 3e-5), WINDOW (3), GATE_GAMES (400), GATE_NODES (1600), BIN (target/release/pbrain-hoshi),
# BALANCE (unset: every random opening; a margin such as 0.2: only openings the previous net's
# quick look scores within it of an even game, `selfplay --opening-balance`).
# The defaults are how hoshi-p32-g7 was made; networks/README.md gives the one-liner that made
# each later network (hoshi-p32-g12: GAMES=2000 BALANCE=0.2).
set -euo pipefail
cd "$(dirname "$0")/.."
gen=${1:?generation number}
previous=${2:?previous network}
root=${3:-generations}
games=${GAMES:-2500}
nodes=${NODES:-800}
steps=${STEPS:-4000}
lr=${LR:-7e-4}
window=${WINDOW:-3}
gate_games=${GATE_GAMES:-400}
gate_nodes=${GATE_NODES:-1600}
bin=${BIN:-target/release/pbrain-hoshi}
balance=()
if [[ -n "${BALANCE:-}" ]]; then balance=(--opening-balance "$BALANCE"); fi
export RUST_LOG=${RUST_LOG:-info}
mkdir -p "$root"

rules=freestyle,renju,renju,freestyle,standard,caro
sizes=15x15,15x15,15x15,20x20,12x12
echo "generation $gen: self-play with $previous ($games games x 2 workers, $nodes playouts a move)" >&2
for w in 1 2; do
  "$bin" selfplay --out "$root/gen$gen" --games "$games" --worker "$w" --player "$previous" \
    --movetime 0 --nodes "$nodes" --rule "$rules" --size "$sizes" --games-per-shard 250 \
    --seed "$((gen * 100 + w))" --threads 1 "${balance[@]}" >"$root/selfplay-gen$gen-$w.log" 2>&1 &
done
wait

data=()
for ((g = gen - window + 1; g <= gen; g++)); do
  [[ -d "$root/gen$g" ]] || continue
  if ((g == gen)); then data+=(--data "$root/gen$g:2"); else data+=(--data "$root/gen$g"); fi
done
echo "generation $gen: training on ${data[*]}" >&2
"$bin" train --kind pattern "${data[@]}" --init "$previous" --out "$root/ckpt-gen$gen" \
  --steps "$steps" --batch 256 --lr "$lr" --lr-final 3e-5 --log-every 200 \
  --checkpoint-every 1000 --torch-threads 2 --resume 2>&1 | tee -a "$root/train-gen$gen.log" >&2
newest=$(ls "$root/ckpt-gen$gen"/ckpt-*.safetensors | sort | tail -n 1)
newest=${newest%.safetensors}

echo "generation $gen: gate $newest against $previous" >&2
"$bin" match --a "$newest" --b "$previous" --games "$gate_games" --movetime 0 \
  --nodes "$gate_nodes" --rule freestyle,renju --size 15x15 --seed "$gen" --jobs 2 --threads 1 |
  tee "$root/gate-gen$gen.txt"

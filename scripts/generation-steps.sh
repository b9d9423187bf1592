# shellcheck shell=bash
# The steps of one generation of the pattern net's self-play loop, as shell functions. Sourced
# (never run) by scripts/generation.sh, which runs a generation on one machine, and by the batch
# scripts of scripts/slurm/, which run it on a Slurm cluster: both run these same command lines.
# Paths are relative to the repository root, the callers' working directory.
#
#   gen_settings                            the knobs from the environment (below), as variables
#   gen_selfplay GEN PREVIOUS ROOT WORKER   one self-play worker's games into ROOT/genGEN
#   gen_train GEN PREVIOUS ROOT THREADS     training into ROOT/ckpt-genGEN (log: ROOT/train-genGEN.log)
#   gen_newest_checkpoint GEN ROOT          prints the newest checkpoint of ROOT/ckpt-genGEN
#   gen_gate GEN PREVIOUS ROOT JOBS         the gate match, its result into ROOT/gate-genGEN.txt
#   gen_check GEN ROOT                      every CHECK_EVERY generations, the new net in the engine
#                                           against an outside brain, into ROOT/check-genGEN.txt
#
# Environment (read by gen_settings): GAMES (default 2500 per worker), NODES (800), STEPS (4000),
# LR (7e-4, decaying to 3e-5), WINDOW (3), GATE_GAMES (400), GATE_NODES (1600; a list such as
# `1600,3200`: a gate at each, since one playout count can misjudge a pair by tens of Elo), BIN
# (target/release/pbrain-hoshi), RULES and SIZES (self-play's rules and board sizes, each game one
# of every pair of the two lists, uniformly, so a repeated entry weighs more; default
# freestyle,renju,renju,freestyle,standard,caro and 15x15,15x15,15x15,20x20,12x12), BALANCE (unset: every random opening; a margin such as 0.2:
# `selfplay --opening-balance`), GATE_SPRT (unset: the gate plays all GATE_GAMES; `ELO0,ELO1`
# such as `0,15`: `match --sprt`, ending the gate once the test decides, GATE_GAMES at most),
# GATE_OPENINGS (unset: random openings, the rules mixed; `even`: half the games freestyle from
# tests/data/openings-15-freestyle-even.txt, half renju from the renju file, in order with
# colours swapped, so that openings one colour wins do not pull the score towards 50 %).
# GUMBEL (unset: the MCTS's own root, its visits the policy target; a count such as 16:
# `selfplay --gumbel 16 --temperature-moves 0`, a Gumbel root over that many sampled moves,
# for few playouts a move such as NODES=64),
# REUSE (unset: STEPS steps; a number such as 4: `train --max-reuse`, at most that many samples a
# position of the window), WINDOW `grow` (2 + GEN/4 generations: the window lengthens as the
# data piles up), EMA (unset: none; a decay such as 0.999: `train --ema`, and the gate plays the moving average),
# FORMULA (unset: the previous net's formula; a version such as 3: `train --pattern-version`, the
# previous net raised to it with the new weights at zero).
# CHECK_BRAIN (unset: no check; the command line of a Gomocup brain nobody here wrote, such as
# Rapfi, which self-play cannot drift along with), CHECK_EVERY (3), CHECK_GAMES (48 per rule),
# CHECK_MS (1000 a move; both sides get 2 threads, so one game runs at a time).
# The callers run with `set -euo pipefail`.

gen_settings() {
  games=${GAMES:-2500}
  nodes=${NODES:-800}
  steps=${STEPS:-4000}
  lr=${LR:-7e-4}
  window=${WINDOW:-3}
  gate_games=${GATE_GAMES:-400}
  gate_nodes=${GATE_NODES:-1600}
  bin=${BIN:-target/release/pbrain-hoshi}
  rules=${RULES:-freestyle,renju,renju,freestyle,standard,caro}
  sizes=${SIZES:-15x15,15x15,15x15,20x20,12x12}
  balance=()
  if [[ -n "${BALANCE:-}" ]]; then balance=(--opening-balance "$BALANCE"); fi
  gumbel=()
  if [[ -n "${GUMBEL:-}" ]]; then gumbel=(--gumbel "$GUMBEL" --temperature-moves 0); fi
  reuse=()
  if [[ -n "${REUSE:-}" ]]; then reuse=(--max-reuse "$REUSE"); fi
  ema=()
  if [[ -n "${EMA:-}" ]]; then ema=(--ema "$EMA"); fi
  formula=()
  if [[ -n "${FORMULA:-}" ]]; then formula=(--pattern-version "$FORMULA"); fi
  sprt=()
  if [[ -n "${GATE_SPRT:-}" ]]; then sprt=(--sprt "$GATE_SPRT"); fi
  gate_openings=${GATE_OPENINGS:-}
  if [[ -n "$gate_openings" && "$gate_openings" != even ]]; then
    echo "GATE_OPENINGS must be unset or 'even', not '$gate_openings'" >&2
    return 1
  fi
  check_every=${CHECK_EVERY:-3}
  check_games=${CHECK_GAMES:-48}
  check_ms=${CHECK_MS:-1000}
  export RUST_LOG=${RUST_LOG:-info}
}

# One worker: GAMES games with the MCTS over PREVIOUS at every leaf (NODES playouts a move, root
# noise, temperature on the first moves, the threat solver), rules and sizes mixed, one thread.
# Its shards are ROOT/genGEN/WORKER-<n>.hsp; run again, it plays only the missing games.
gen_selfplay() {
  local gen=$1 previous=$2 root=$3 w=$4
  "$bin" selfplay --out "$root/gen$gen" --games "$games" --worker "$w" --player "$previous" \
    --movetime 0 --nodes "$nodes" --rule "$rules" --size "$sizes" --games-per-shard 250 \
    --seed "$((gen * 100 + w))" --threads 1 "${balance[@]}" "${gumbel[@]}"
}

# A pattern net from PREVIOUS's weights on a window of the last WINDOW generations found in ROOT
# (the newest counted twice), STEPS steps; resumes from its newest checkpoint.
gen_train() {
  local gen=$1 previous=$2 root=$3 threads=$4
  local data=() g span=$window
  if [[ "$window" == grow ]]; then span=$((2 + gen / 4)); fi
  for ((g = gen - span + 1; g <= gen; g++)); do
    [[ -d "$root/gen$g" ]] || continue
    if ((g == gen)); then data+=(--data "$root/gen$g:2"); else data+=(--data "$root/gen$g"); fi
  done
  echo "generation $gen: training on ${data[*]}" >&2
  "$bin" train --kind pattern "${data[@]}" --init "$previous" --out "$root/ckpt-gen$gen" \
    --steps "$steps" --batch 256 --lr "$lr" --lr-final 3e-5 --log-every 200 \
    --checkpoint-every 1000 --torch-threads "$threads" --resume "${ema[@]}" "${reuse[@]}" \
    "${formula[@]}" 2>&1 |
    tee -a "$root/train-gen$gen.log" >&2
}

# The newest checkpoint of ROOT/ckpt-genGEN, without its .safetensors (with EMA set, the moving
# average written with it).
gen_newest_checkpoint() {
  local gen=$1 root=$2 newest
  newest=$(ls "$root/ckpt-gen$gen"/ckpt-*.safetensors | sort | tail -n 1) || return
  newest=${newest%.safetensors}
  if [[ -n "${EMA:-}" ]]; then newest="$(dirname "$newest")/ema-${newest##*/ckpt-}"; fi
  echo "$newest"
}

# The new net against PREVIOUS (nothing with GATE_GAMES=0): GATE_GAMES games at each of
# GATE_NODES's playout counts a move (freestyle and renju, 15x15; fixed playouts, so the result
# does not depend on what else the machine runs), JOBS games at a time, the results on stdout
# and in ROOT/gate-genGEN.txt.
gen_gate() {
  local gen=$1 previous=$2 root=$3 jobs=$4 newest rule nodes
  ((gate_games > 0)) || return 0
  newest=$(gen_newest_checkpoint "$gen" "$root")
  echo "generation $gen: gate $newest against $previous" >&2
  # One match at NODES playouts; the rest of the arguments say which games.
  gate_match() {
    local nodes=$1
    shift
    "$bin" match --a "$newest" --b "$previous" --movetime 0 --nodes "$nodes" --size 15x15 \
      --jobs "$jobs" --threads 1 "${sprt[@]}" "$@" |
      tee -a "$root/gate-gen$gen.txt"
  }
  : >"$root/gate-gen$gen.txt"
  for nodes in ${gate_nodes//,/ }; do
    if [[ "$gate_openings" == even ]]; then
      for rule in freestyle renju; do
        gate_match "$nodes" --games "$((gate_games / 2))" --rule "$rule" \
          --openings "tests/data/openings-15-$rule-even.txt"
      done
    else
      gate_match "$nodes" --games "$gate_games" --rule freestyle,renju --seed "$gen"
    fi
  done
}

# Every CHECK_EVERY generations, when CHECK_BRAIN is set: the engine as users run it
# (config/hoshi.toml with the new net named) against CHECK_BRAIN from the even openings,
# freestyle and renju 15x15, CHECK_GAMES games each at CHECK_MS a move, 2 threads each; the
# results go to ROOT/check-genGEN.txt, the config to ROOT/check-genGEN.toml.
gen_check() {
  local gen=$1 root=$2 newest config rule
  [[ -n "${CHECK_BRAIN:-}" ]] || return 0
  ((gen % check_every == 0)) || return 0
  newest=$(gen_newest_checkpoint "$gen" "$root")
  [[ "$newest" == /* ]] || newest="$PWD/$newest"
  config="$root/check-gen$gen.toml"
  sed "s#^network = .*#network = \"$newest\"#" config/hoshi.toml >"$config"
  : >"$root/check-gen$gen.txt"
  for rule in freestyle renju; do
    echo "generation $gen: $rule check of $newest against $CHECK_BRAIN" >&2
    "$bin" match --a "brain:$bin --config $config" --b "brain:$CHECK_BRAIN" \
      --openings "tests/data/openings-15-$rule-even.txt" --games "$check_games" \
      --movetime "$check_ms" --rule "$rule" --size 15x15 --jobs 1 --threads 2 |
      tee -a "$root/check-gen$gen.txt"
  done
}

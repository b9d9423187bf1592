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
# 3. gate (skipped with GATE_GAMES=0, as scripts/loop.sh runs it): the new net against
#    PREVIOUS_NET, GATE_GAMES games at GATE_NODES playouts a move (freestyle and renju, 15x15;
#    fixed playouts, so the result does not depend on what else the machine runs), written
#    to DATA_ROOT/gate-genGEN.txt; with GATE_OPENINGS=even, from the even openings in order,
#    half the games per rule (see scripts/generation-steps.sh).
# 4. check (every CHECK_EVERY generations, with CHECK_BRAIN set): the engine with the new net
#    against an outside brain at 1 s a move, written to DATA_ROOT/check-genGEN.txt.
# Promote a net that gains with `pbrain-hoshi promote DATA_ROOT/ckpt-genGEN/ckpt-<step> NAME`.
#
# Environment: GAMES (default 2500 per worker), NODES (800), STEPS (4000), LR (7e-4, decaying
# to 3e-5), WINDOW (3), GATE_GAMES (400), GATE_NODES (1600, or a list such as 1600,3200: a gate
# at each), BIN (target/release/pbrain-hoshi),
# BALANCE (unset: every random opening; a margin such as 0.2: only openings the previous net's
# quick look scores within it of an even game, `selfplay --opening-balance`).
# CHECK_BRAIN, CHECK_EVERY, CHECK_GAMES, CHECK_MS: the check against an outside brain (step 4;
# see scripts/generation-steps.sh).
# The defaults are how hoshi-p32-g7 was made; networks/README.md gives the one-liner that made
# each later network (hoshi-p32-g12: GAMES=2000 BALANCE=0.2; hoshi-p32-g15: the same with
# EMA=0.999 GATE_OPENINGS=even).
# The steps' command lines live in scripts/generation-steps.sh, shared with scripts/slurm/, which
# runs the same generation on a Slurm cluster (many self-play workers, see scripts/slurm/README.md).
# The body is one block that bash reads whole before running it: an edit to this file while
# a generation runs (hours) cannot change the commands still to come.
{
  set -euo pipefail
  cd "$(dirname "$0")/.."
  source scripts/generation-steps.sh
  gen=${1:?generation number}
  previous=${2:?previous network}
  root=${3:-generations}
  gen_settings
  mkdir -p "$root"

  echo "generation $gen: self-play with $previous ($games games x 2 workers, $nodes playouts a move)" >&2
  for w in 1 2; do
    gen_selfplay "$gen" "$previous" "$root" "$w" >>"$root/selfplay-gen$gen-$w.log" 2>&1 &
  done
  wait

  gen_train "$gen" "$previous" "$root" 2
  gen_gate "$gen" "$previous" "$root" 2
  gen_check "$gen" "$root"
  exit
}

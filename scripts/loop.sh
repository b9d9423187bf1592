#!/usr/bin/env bash
# Generations FIRST..LAST of the pattern net's loop in a row, each one's self-play with the net
# the one before trained (its moving average with EMA set), without gates between them: the
# policy improvement of the search is applied to each new net in turn, as AlphaZero's loop does,
# instead of every generation's self-play coming from the last net a gate let through. Gate
# the last net against START_NET afterwards (`pbrain-hoshi match`, networks/README.md).
#
#   scripts/loop.sh FIRST LAST START_NET [DATA_ROOT]
#
# The environment of scripts/generation.sh applies to every generation (GATE_GAMES is set to 0
# here). Run it again after an interruption: each generation resumes where it stopped, and the
# finished ones are passed through (their self-play and training already complete).
# The body is one block that bash reads whole before running it: an edit to this file while
# the loop runs cannot change the commands still to come.
{
  set -euo pipefail
  cd "$(dirname "$0")/.."
  source scripts/generation-steps.sh
  first=${1:?first generation}
  last=${2:?last generation}
  previous=${3:?network of the first self-play}
  root=${4:-generations}
  for ((gen = first; gen <= last; gen++)); do
    GATE_GAMES=0 scripts/generation.sh "$gen" "$previous" "$root"
    previous=$(gen_newest_checkpoint "$gen" "$root")
    echo "generation $gen: $previous" >&2
  done
  exit
}

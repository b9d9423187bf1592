#!/usr/bin/env bash
# One generation of the pattern net's self-play loop on a Slurm cluster: submits the self-play
# workers as an array job, then training, then the gate, each step starting only when the last
# has succeeded (--dependency=afterok; a step that fails cancels the rest). The steps are those of
# scripts/generation.sh (the same command lines: scripts/generation-steps.sh), with WORKERS
# self-play workers instead of 2. Prints the three job ids on stdout (self-play, training, gate)
# and returns; watch them with `squeue -u $USER`.
#
#   scripts/slurm/generation.sh GEN PREVIOUS_NET [DATA_ROOT] [-- SBATCH_OPTIONS...]
#
# The repository, PREVIOUS_NET, DATA_ROOT (default generations/) and BIN must be on a folder that
# every node sees at the same path (a shared file system); relative paths are relative to the
# repository root, where the jobs run. Job output goes to DATA_ROOT/slurm/.
#
# Environment: the knobs of scripts/generation.sh (GAMES per worker, NODES, STEPS, LR, WINDOW,
# GATE_GAMES, GATE_NODES, BIN, BALANCE), passed to the jobs, and
#   WORKERS         self-play array tasks, one CPU each (default 2)
#   SELFPLAY_OPTS, TRAIN_OPTS, GATE_OPTS
#                   extra sbatch options for one step, split on spaces
#                   (e.g. TRAIN_OPTS="--partition=long --cpus-per-task=8 --time=12:00:00")
# SBATCH_OPTIONS after `--` go to every step (e.g. -- --account=lab --qos=normal); Slurm's own
# SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT... apply as well. Running it again for the
# same generation resumes: self-play plays only missing games, training resumes from its newest
# checkpoint, the gate replays its match.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
gen=${1:?generation number}
previous=${2:?previous network}
shift 2
root=generations
if (($# > 0)) && [[ "$1" != "--" ]]; then root=$1; shift; fi
if (($# > 0)) && [[ "$1" == "--" ]]; then shift; fi
common=("$@")
workers=${WORKERS:-2}
read -r -a selfplay_opts <<<"${SELFPLAY_OPTS:-}"
read -r -a train_opts <<<"${TRAIN_OPTS:-}"
read -r -a gate_opts <<<"${GATE_OPTS:-}"
command -v sbatch >/dev/null || { echo "sbatch not found: is Slurm's client installed here?" >&2; exit 1; }
if ! [[ "$workers" =~ ^[1-9][0-9]*$ ]]; then echo "WORKERS=$workers: expected a positive count" >&2; exit 1; fi

mkdir -p "$root/slurm"
logs="$root/slurm"
# The knobs travel in the jobs' environment (--export=ALL: this script's whole environment).
submit() { sbatch --parsable --chdir "$repo" --export=ALL --kill-on-invalid-dep=yes "$@" | cut -d';' -f1; }
args=("$gen" "$previous" "$root")

# Options given by the user come last, so that they win over these.
selfplay=$(submit --job-name "hoshi-selfplay-gen$gen" --array "1-$workers" \
  --output "$logs/selfplay-gen$gen-%A_%a.out" "${common[@]}" "${selfplay_opts[@]}" \
  scripts/slurm/selfplay.sbatch "${args[@]}")
train=$(submit --job-name "hoshi-train-gen$gen" --dependency "afterok:$selfplay" \
  --output "$logs/train-gen$gen-%j.out" "${common[@]}" "${train_opts[@]}" \
  scripts/slurm/train.sbatch "${args[@]}")
gate=$(submit --job-name "hoshi-gate-gen$gen" --dependency "afterok:$train" \
  --output "$logs/gate-gen$gen-%j.out" "${common[@]}" "${gate_opts[@]}" \
  scripts/slurm/gate.sbatch "${args[@]}")
echo "generation $gen: self-play job $selfplay ($workers workers x ${GAMES:-2500} games), training job $train, gate job $gate; result: $root/gate-gen$gen.txt" >&2
echo "$selfplay $train $gate"

#!/usr/bin/env bash
# The fast screen against an outside engine (docs/experiments.md, "A faster screen against
# Rapfi"): one thread each, two games at once, the even openings FIRST-LAST of the 15x15
# freestyle set and of the renju -150 set with colours swapped, then each rule's result, how
# the games went (`defence-set.py course`) and how far the brain's ratings held
# (`defence-set.py calibration`).
#
#   scripts/rapfi-screen.sh OUT "BRAIN COMMAND" [FIRST LAST]
#
# Environment: SPARRING (the folder with match_run.py, c-gomoku-cli and the opponent; default
# ../shared/sparring), OPPONENT (default Rapfi with its classical evaluator from there), MS (the
# opponent's time a move, default 500), BRAIN_MS (the brain's, default MS), RULES (default
# "0 4"). Two configs compare game by game with `defence-set.py pairs --a OUT_A/rule-0
# OUT_A/rule-4 --b OUT_B/rule-0 OUT_B/rule-4 --brain A`; a rerun of one config changes about a
# quarter of the games, so a difference of 50 Elo needs some 400 games a side to show.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
brain=$2
first=${3:-1}
last=${4:-48}
sparring=${SPARRING:-../shared/sparring}
opponent=${OPPONENT:-$sparring/pbrain-rapfi --config $sparring/rapfi-classical.toml}
ms=${MS:-500}
brain_ms=${BRAIN_MS:-$ms}
mkdir -p "$out"
for rule in ${RULES:-0 4}; do
    case $rule in
        0) set_file=tests/data/openings-15-freestyle-even.txt ;;
        4) set_file=tests/data/openings-15-renju-even-150.txt ;;
        *) echo "rapfi-screen.sh: no even openings for rule $rule" >&2; exit 2 ;;
    esac
    sed -n "${first},${last}p" "$set_file" > "$out/openings-$rule.txt"
    games=$((2 * $(wc -l < "$out/openings-$rule.txt")))
    python3 "$sparring/match_run.py" --manager "$sparring/c-gomoku-cli" \
        --engine-a "$brain" --engine-b "$opponent" --threads-a 1 --threads-b 1 \
        --concurrency 2 --rule "$rule" --size 15 --tc-ms "$ms" --tc-ms-a "$brain_ms" \
        --games "$games" --order sequential --openings-type pos \
        --openings "$out/openings-$rule.txt" --out "$out/rule-$rule" > "$out/rule-$rule.log" 2>&1
    echo "rule $rule: $(tail -n 1 "$out/rule-$rule.log")"
    python3 scripts/defence-set.py course "$out/rule-$rule" --brain A --opponent B
    python3 scripts/defence-set.py calibration "$out/rule-$rule" --brain A --first 4 --last 30
done

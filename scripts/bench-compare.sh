#!/usr/bin/env bash
# Compares the pattern-net figures of `pbrain-hoshi bench` between builds on this machine.
#
#   scripts/bench-compare.sh ROUNDS BINARY...
#
# Runs `BINARY bench` ROUNDS times for each binary, interleaved (a burst of load from another
# process then lowers one round of each build, not one build), and prints per build the best
# round of each figure: evaluations/s along a walk and from a fresh state, and the search's
# playouts/s with the net at every leaf, without and with the VCF probe, on 1 and 2 threads, and
# the alpha-beta's nodes/s per thread.
set -euo pipefail
rounds=$1
shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for r in $(seq "$rounds"); do
    for k in $(seq $#); do
        "${!k}" bench 2>/dev/null | sed -n '/^pattern network/,$p' >"$out/$k-$r"
    done
done
for k in $(seq $#); do
    echo "${!k}"
    cat "$out/$k-"* | awk '
        function best(key, v) { if (v > max[key]) max[key] = v }
        /along a walk/ { best("walk", $(NF - 1)) }
        /fresh state/ { best("fresh", $(NF - 1)) }
        /VCF probe/ { probe = "probe " }
        /^the alpha-beta/ { probe = "alpha-beta " }
        /^pattern network/ { probe = "" }
        / thread\(s\):/ { best(probe $1 " thread(s)", $3) }
        END {
            printf "  evaluations/s: walk %d, fresh %d\n", max["walk"], max["fresh"]
            printf "  playouts/s, net at every leaf: 1 thread %d, 2 threads %d\n", max["1 thread(s)"], max["2 thread(s)"]
            printf "  playouts/s, with the VCF probe: 1 thread %d, 2 threads %d\n", max["probe 1 thread(s)"], max["probe 2 thread(s)"]
            printf "  alpha-beta nodes/s per thread: 1 thread %d, 2 threads %d\n", max["alpha-beta 1 thread(s)"], max["alpha-beta 2 thread(s)"]
        }'
done

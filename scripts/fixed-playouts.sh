#!/usr/bin/env bash
# Times builds on the same work: each binary answers the first COUNT even openings at a fixed
# playout count (`INFO max_node`, one thread, through the protocol) and the search times it
# reports (`tm` in its first MESSAGE line) are summed. Builds that choose alike search the same
# trees, so the sums compare their speed without the spread of a rate taken over a fixed time.
#
#   scripts/fixed-playouts.sh ROUNDS PLAYOUTS BINARY...
#
# Environment: CONFIG (default config/hoshi.toml), OPENINGS (default the 15x15 freestyle even
# openings), COUNT (default 12). Rounds interleave the binaries, so a burst of load from another
# process lowers one round of each; each binary's best round is printed last.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=$1
playouts=$2
shift 2
config=${CONFIG:-config/hoshi.toml}
openings=${OPENINGS:-tests/data/openings-15-freestyle-even.txt}
count=${COUNT:-12}
if [ -z "${LIBTORCH:-}" ]; then
    LIBTORCH="$(bash scripts/libtorch.sh)"
fi
export LD_LIBRARY_PATH="$LIBTORCH/lib:${LD_LIBRARY_PATH:-}"

# The BOARD lines of an opening (`h8i9g9`), the side to move's stones marked 1.
board_lines() {
    echo "$1" | grep -o '[a-z][0-9]*' | awk '
        { x[NR] = index("abcdefghijklmnopqrstuvwxyz", substr($0, 1, 1)) - 1; y[NR] = substr($0, 2) - 1 }
        END { for (i = 1; i <= NR; i++) printf "%d,%d,%d\n", x[i], y[i], (NR - i) % 2 == 1 ? 1 : 2 }'
}

# Milliseconds the binary's searches took over the openings.
time_build() {
    local bin=$1 total=0 line tm reply
    while read -r line; do
        coproc ENGINE { "$bin" --config "$config" 2>/dev/null; }
        {
            printf 'START 15\nINFO THREAD_NUM 1\nINFO timeout_turn 3600000\nINFO max_node %s\nBOARD\n' "$playouts"
            board_lines "$line"
            printf 'DONE\n'
        } >&"${ENGINE[1]}"
        tm=0
        while read -r reply <&"${ENGINE[0]}"; do
            case "$reply" in
                "MESSAGE depth"*) tm=$(echo "$reply" | sed -n 's/.* tm \([0-9]*\).*/\1/p') ;;
                [0-9]*,[0-9]*) break ;;
            esac
        done
        echo END >&"${ENGINE[1]}"
        wait "$ENGINE_PID" 2>/dev/null || true
        total=$((total + tm))
    done < <(grep -v '^#' "$openings" | grep . | head -n "$count")
    echo "$total"
}

declare -A best
for r in $(seq "$rounds"); do
    for bin in "$@"; do
        ms=$(time_build "$bin")
        echo "round $r: $bin $ms ms"
        if [ -z "${best[$bin]:-}" ] || [ "$ms" -lt "${best[$bin]}" ]; then
            best[$bin]=$ms
        fi
    done
done
for bin in "$@"; do
    echo "best: $bin ${best[$bin]} ms ($count openings, $playouts playouts each)"
done

#!/usr/bin/env python3
"""The opening judge: how good a brain's first moves out of the opening are, by an oracle's eval.

Most games lost to Rapfi are lost in the first few moves out of a three-to-five-stone opening:
right after them Rapfi already rates itself well ahead (docs/experiments.md, "Where the games
against Rapfi are lost"). A match needs hundreds of games to see a change there; this asks the
brain for its move on each such position and the oracle for its eval of the position after it,
which gives a figure per position instead of one result per game.

    # the positions: the brain's first N moves of each game of match_run.py output folders
    python3 scripts/opening-judge.py collect runs/hoshi-vs-rapfi-* --player hoshi --moves 2 \
        --out tests/data/opening-moves-15.txt
    # a brain's moves on them, judged by the oracle (its verdicts kept in the set's cache file)
    python3 scripts/opening-judge.py judge tests/data/opening-moves-15.txt \
        --engine "target/release/pbrain-hoshi --config config/hoshi.toml" --ms 1000 --threads 2 \
        --oracle "../shared/sparring/pbrain-rapfi --config ../shared/sparring/rapfi-classical.toml" \
        --oracle-ms 1000 --moves-out moves-A.txt

The oracle, to move after the brain's move, reports its eval from its own side: the lower, the
better the brain's move. Each eval becomes the brain's expected score, 1 / (1 + exp(eval / 200))
(a forced win or loss 0 or 1), and the judge prints the mean. Verdicts are cached by position and
move (`SET.verdicts`), so two brains that play the same move get the same verdict, and a second
brain costs only the oracle time of the moves the first did not play: a paired comparison.
`compare A B` prints, over the positions both files judged, the mean difference with its 95 %
interval.
"""
import argparse
import importlib.util
import math
import os
import re
import statistics
import sys

_spec = importlib.util.spec_from_file_location(
    "defence_set", os.path.join(os.path.dirname(os.path.abspath(__file__)), "defence-set.py"))
ds = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ds)


def expected_score(ev):
    """The brain's expected score from the oracle's eval (the oracle to move)."""
    if ev is None:
        return 0.5
    if ev.startswith("+M"):
        return 0.0
    if ev.startswith("-M"):
        return 1.0
    return 1.0 / (1.0 + math.exp(int(ev) / 200.0))


def collect(args):
    seen, kept = set(), 0
    with open(args.out, "w") as out:
        out.write(f"# the first {args.moves} moves of {args.player} in each game of: "
                  f"{' '.join(os.path.basename(r) for r in args.runs)}\n")
        for run in args.runs:
            rule = int(re.search(r"--rule (\d+)", open(f"{run}/command.txt").read()).group(1))
            for props, moves, opening in ds.sgf_games(f"{run}/games.sgf"):
                black = props.get("PB") == args.player
                taken = 0
                for ply in range(opening, len(moves)):
                    if (ply % 2 == 0) != black:
                        continue
                    if taken == args.moves:
                        break
                    taken += 1
                    position = moves[:ply]
                    size = int(props.get("SZ", 15))
                    key = (rule, size, frozenset(position[0::2]), frozenset(position[1::2]))
                    if key in seen:
                        continue
                    seen.add(key)
                    kept += 1
                    out.write(f"{rule} {size} {ds.format_moves(position)}\n")
    print(f"{kept} positions", file=sys.stderr)


def read_positions(path):
    positions = []
    for line in open(path):
        fields = line.split()
        if len(fields) >= 3 and not line.startswith("#"):
            positions.append((int(fields[0]), int(fields[1]), fields[2]))
    return positions


def read_verdicts(path):
    verdicts = {}
    if os.path.exists(path):
        for line in open(path):
            fields = line.split()
            if len(fields) == 5:
                verdicts[(int(fields[0]), int(fields[1]), fields[2], fields[3])] = fields[4]
    return verdicts


def judge(args):
    positions = read_positions(args.set)
    if args.limit:
        positions = positions[:args.limit]
    cache = args.set + ".verdicts"
    verdicts = read_verdicts(cache)
    oracles, scores = {}, []
    with open(args.moves_out, "w") as moves_out, open(cache, "a") as cache_out:
        for i, (rule, size, moves) in enumerate(positions):
            brain = ds.Brain(args.engine, size, rule, args.ms, args.threads)
            try:
                move, _ = brain.answer(ds.parse_moves(moves))
            finally:
                brain.close()
            name = ds.pos_name(*move)
            key = (rule, size, moves, name)
            if key not in verdicts:
                if (rule, size) not in oracles:
                    oracles[(rule, size)] = ds.Brain(args.oracle, size, rule, args.oracle_ms, 1)
                ev = oracles[(rule, size)].answer(ds.parse_moves(moves) + [move])[1]
                verdicts[key] = ev or "none"
                cache_out.write(f"{rule} {size} {moves} {name} {verdicts[key]}\n")
                cache_out.flush()
            score = expected_score(None if verdicts[key] == "none" else verdicts[key])
            scores.append(score)
            moves_out.write(f"{rule} {size} {moves} {name} {verdicts[key]} {score:.4f}\n")
            moves_out.flush()
            print(f"{i + 1}/{len(positions)} {moves} -> {name}: {verdicts[key]} "
                  f"(mean {statistics.mean(scores):.4f})", file=sys.stderr, flush=True)
    for oracle in oracles.values():
        oracle.close()
    by_rule = {}
    for (rule, _, _), s in zip(positions, scores):
        by_rule.setdefault(rule, []).append(s)
    parts = ", ".join(f"rule {r}: {statistics.mean(v):.4f} of {len(v)}"
                      for r, v in sorted(by_rule.items()))
    print(f"mean expected score {statistics.mean(scores):.4f} over {len(scores)} ({parts})")


def compare(args):
    def read(path):
        return {(f[0], f[1], f[2]): float(f[5]) for f in
                (line.split() for line in open(path)) if len(f) == 6}
    a, b = read(args.a), read(args.b)
    common = sorted(set(a) & set(b))
    diffs = [a[k] - b[k] for k in common]
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    differ = sum(1 for d in diffs if d != 0)
    print(f"A - B: {mean:+.4f} [{mean - half:+.4f}, {mean + half:+.4f}] over {len(diffs)} "
          f"positions ({differ} with different verdicts); A {statistics.mean(a[k] for k in common):.4f}, "
          f"B {statistics.mean(b[k] for k in common):.4f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="the positions from match_run.py output folders")
    c.add_argument("runs", nargs="+")
    c.add_argument("--player", default="hoshi", help="the engine whose moves are to be judged")
    c.add_argument("--moves", type=int, default=2, help="its first moves out of each opening")
    c.add_argument("--out", required=True)
    j = sub.add_parser("judge", help="a brain's moves on the positions, judged by the oracle")
    j.add_argument("set")
    j.add_argument("--engine", required=True)
    j.add_argument("--ms", type=int, default=1000)
    j.add_argument("--threads", type=int, default=2)
    j.add_argument("--oracle", required=True)
    j.add_argument("--oracle-ms", type=int, default=1000)
    j.add_argument("--limit", type=int, default=0)
    j.add_argument("--moves-out", required=True, help="each position's move, verdict and score")
    k = sub.add_parser("compare", help="two judged move files, paired by position")
    k.add_argument("a")
    k.add_argument("b")
    args = ap.parse_args()
    {"collect": collect, "judge": judge, "compare": compare}[args.command](args)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Keeps the openings that two engines both call even, for matches whose result should depend on
the play rather than on who drew the won side of an opening.

    cargo bench --bench tactics -- openings --rule freestyle --size 15 --count 200 --seed 77 --out cand.txt
    python3 scripts/even-openings.py cand.txt --rule 0 --out even.txt \
        --judge "../shared/sparring/pbrain-rapfi --config ../shared/sparring/rapfi-classical.toml" \
        --judge target/release/pbrain-hoshi

Each judge is a Gomocup brain asked for its move in the opening (`BOARD`, one thread); the eval
it reports for the side to move (Rapfi's `Eval N`, Hoshi's `ev N`; a proven win counts as
infinite) must lie within the bound of each round. Rounds (`--round JUDGE:MS:BOUND`, default
`0:300:120,0:1000:150,1:1000:300`: the first judge briefly, then longer, then the second judge)
run in order, each over the openings the previous kept. Openings are in the `h8i9g9` form.
"""
import argparse
import re
import shlex
import subprocess


def parse(line):
    return [(ord(c) - 97, int(r) - 1) for c, r in re.findall(r"([a-z])(\d+)", line)]


def judge(command, moves, rule, size, movetime):
    """The eval `command` reports for the side to move after `moves` (None if it gives none)."""
    me_black = len(moves) % 2 == 0
    lines = [f"START {size}", f"INFO rule {rule}", f"INFO timeout_turn {movetime}",
             "INFO thread_num 1", "BOARD"]
    for i, (x, y) in enumerate(moves):
        lines.append(f"{x},{y},{1 if (i % 2 == 0) == me_black else 2}")
    lines.append("DONE")
    brain = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
    brain.stdin.write("\n".join(lines) + "\n")
    brain.stdin.flush()
    found = None
    for out in brain.stdout:
        m = re.search(r"(?:Eval| ev) ([+-]?M?\d+)", out)
        if m:
            found = m.group(1)
        if re.match(r"^\d+,\d+$", out.strip()):
            break
    try:
        brain.stdin.write("END\n")
        brain.stdin.flush()
        brain.wait(timeout=5)
    except (BrokenPipeError, subprocess.TimeoutExpired):
        brain.kill()
    if found is None:
        return None
    if "M" in found:
        return float("-inf") if found.startswith("-") else float("inf")
    return int(found)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("candidates")
    ap.add_argument("--rule", type=int, default=0, help="Gomocup rule code (0 freestyle, 4 renju)")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--judge", action="append", required=True, help="a brain's command line")
    ap.add_argument("--round", default="0:300:120,0:1000:150,1:1000:300")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    kept = [line.strip() for line in open(args.candidates) if line.strip()]
    for spec in args.round.split(","):
        who, movetime, bound = (int(v) for v in spec.split(":"))
        survivors = []
        for line in kept:
            ev = judge(args.judge[who], parse(line), args.rule, args.size, movetime)
            print(f"judge {who} {movetime} ms: {line} {ev}", flush=True)
            if ev is not None and abs(ev) <= bound:
                survivors.append(line)
        print(f"round {spec}: {len(survivors)} of {len(kept)} kept", flush=True)
        kept = survivors
    with open(args.out, "w") as f:
        f.write("\n".join(kept) + "\n")


if __name__ == "__main__":
    main()

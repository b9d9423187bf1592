#!/usr/bin/env python3
"""The defence set: positions from lost games against Rapfi where one move decided the game, and a
check of how often a brain's move there is safe.

    # 1. the moments: in each game the brain lost, the position before its move after which the
    #    opponent announced a forced win (`+M`, read from match_run.py's messages.txt)
    python3 scripts/defence-set.py collect runs/hoshi-vs-rapfi ... --loser hoshi --out moments.txt
    # 2. the set: a moment is kept when the oracle proves the move played lost (a forced win for
    #    it after the move) and a witness (the oracle with more time) finds a reply the oracle does
    #    not refute; a moment without one is walked back to the loser's move before
    python3 scripts/defence-set.py build moments.txt --out tests/data/defence-15.txt \
        --oracle "../shared/sparring/pbrain-rapfi --config ../shared/sparring/rapfi-classical.toml"
    # 3. the check: a brain's move on each position at a move time; a move the set has no verdict
    #    for is asked of the oracle (and with --update written back)
    python3 scripts/defence-set.py check tests/data/defence-15.txt --ms 1000 --threads 2 \
        --engine target/release/pbrain-hoshi --oracle "..." --update

The wins set is the same for the other side of the game: the positions where the opponent
announced that it was lost (`-M`), and a check of how often the brain's move keeps the win.

    python3 scripts/defence-set.py wins runs/hoshi-vs-rapfi ... --opponent rapfi --every 3 \
        --oracle "..." --out tests/data/wins-15.txt
    python3 scripts/defence-set.py check tests/data/wins-15.txt --engine ... --oracle "..." \
        --oracle-ms 1000

How the games of a run were lost, read from the opponent's own ratings (its `Eval` from its
side, as in docs/experiments.md, "Where the games against Rapfi are lost"):

    python3 scripts/defence-set.py course runs/hoshi-vs-rapfi ... --brain hoshi --opponent rapfi

and two runs of the same openings compared game by game (which did better, a sign test):

    python3 scripts/defence-set.py pairs --a runs/A-freestyle runs/A-renju --b runs/B-freestyle runs/B-renju

How far a brain's own ratings can be trusted: its expected score by its `ev` against the score
it went on to make, per colour:

    python3 scripts/defence-set.py calibration runs/hoshi-vs-rapfi ... --brain hoshi

How long each engine thought a move (the last time it printed while choosing the move: Hoshi's
`tm`, Rapfi's `Time`), its mean, median and longest:

    python3 scripts/defence-set.py times runs/hoshi-vs-rapfi ...

In a wins set (its first line `# kind: wins`) `safe` lists the moves that keep the win (the
oracle, to move after them, announces its loss) and `losing` the moves that let it go.

Lines are `rule size moves safe=... losing=...` with moves in the `h8i9g9` form (letter = x,
number = y + 1), the side to move being the one that lost the game. A verdict is the oracle's at its
move time, one thread: "losing" is proven, "safe" only means it found no forced win.
"""
import argparse
import collections
import re
import shlex
import subprocess
import sys
import time
import functools
import math
import multiprocessing

Position = collections.namedtuple("Position", "rule size moves safe losing")


def pos_name(x, y):
    return f"{chr(97 + x)}{y + 1}"


def parse_moves(text):
    return [(ord(c) - 97, int(r) - 1) for c, r in re.findall(r"([a-z])(\d+)", text)]


def format_moves(moves):
    return "".join(pos_name(x, y) for x, y in moves)


def read_set(path):
    positions = []
    for line in open(path):
        fields = line.split()
        if len(fields) < 3 or line.startswith("#"):
            continue
        extra = dict(f.split("=", 1) for f in fields[3:])
        positions.append(Position(int(fields[0]), int(fields[1]), parse_moves(fields[2]),
                                  set(parse_moves(extra.get("safe", ""))),
                                  set(parse_moves(extra.get("losing", "")))))
    return positions


def write_line(out, p):
    def names(ms):
        return ",".join(pos_name(x, y) for x, y in sorted(ms))
    out.write(f"{p.rule} {p.size} {format_moves(p.moves)} safe={names(p.safe)} "
              f"losing={names(p.losing)}\n")


class Brain:
    """A Gomocup brain kept running; each question is one `BOARD` and its answer."""

    def __init__(self, command, size, rule, movetime, threads):
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.send(f"START {size}")
        self.read_until(lambda line: line.startswith("OK") or line.startswith("ERROR"))
        self.send(f"INFO rule {rule}")
        self.send(f"INFO timeout_turn {movetime}")
        self.send("INFO timeout_match 0")
        self.send(f"INFO thread_num {threads}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, done):
        seen = []
        for line in self.proc.stdout:
            line = line.strip()
            seen.append(line)
            if done(line):
                return seen
        raise RuntimeError("the brain closed its output")

    def answer(self, moves):
        """The brain's move and the last eval it reported, for the side to move after `moves`."""
        mine = len(moves) % 2
        self.send("BOARD")
        for i, (x, y) in enumerate(moves):
            self.send(f"{x},{y},{1 if i % 2 == mine else 2}")
        self.send("DONE")
        lines = self.read_until(lambda line: re.fullmatch(r"\d+,\d+", line) is not None)
        evals = [m.group(1) for line in lines
                 for m in [re.search(r"(?:Eval| ev) ([+-]?M?\d+)", line)] if m]
        x, y = (int(v) for v in lines[-1].split(","))
        # Rapfi drops a command that reaches it while it is still finishing the move it printed
        time.sleep(0.06)
        return (x, y), (evals[-1] if evals else None)

    def close(self):
        try:
            self.send("END")
            self.proc.wait(timeout=5)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            self.proc.kill()


def proven_win(ev):
    return ev is not None and ev.startswith("+M")


def proven_loss(ev):
    return ev is not None and ev.startswith("-M")


# ---- collect -------------------------------------------------------------------------------

def sgf_games(path):
    text = open(path).read()
    for game in re.findall(r"\(;(.*?)\)\s*(?=\(|$)", text, re.S):
        props = dict(re.findall(r"\b(GN|PB|PW|RE|RU|SZ)\[([^\]]*)\]", game))
        moves, opening = [], 0
        for colour, where, comment in re.findall(r";([BW])\[([a-z]{2})\](?:C\[([^\]]*)\])?", game):
            moves.append((ord(where[0]) - 97, ord(where[1]) - 97))
            if comment == "opening move":
                opening = len(moves)
        yield props, moves, opening


def engine_lines(path):
    """Each engine line of match_run.py's messages.txt as (game id, ply, engine name, text)."""
    game = None
    for line in open(path, errors="replace"):
        m = re.match(r"Game ID: (\d+)", line)
        if m:
            game = m.group(1)
            continue
        m = re.match(r"(\d+)\) (\S+): (.*)", line)
        if m and game is not None:
            yield game, int(m.group(1)), m.group(2), m.group(3)


def final_evals(path, name):
    """Per game id, per ply: the last eval `name` printed while choosing that ply's move (Rapfi's
    `Eval`, Hoshi's `ev`)."""
    evals = collections.defaultdict(dict)
    for game, ply, engine, text in engine_lines(path):
        m = re.search(r"(?:Eval| ev) ([+-]?M?\d+)", text)
        if m and engine == name:
            evals[game][ply] = m.group(1)
    return evals


def collect(args):
    seen, kept = set(), 0
    with open(args.out, "w") as out:
        for run in args.runs:
            rule = int(re.search(r"--rule (\d+)", open(f"{run}/command.txt").read()).group(1))
            evals = final_evals(f"{run}/messages.txt", args.winner)
            for props, moves, opening in sgf_games(f"{run}/games.sgf"):
                loser_black = props.get("PB") == args.loser
                if props.get("RE") != ("W+1" if loser_black else "B+1"):
                    continue
                game = evals.get(props["GN"], {})
                # plies are 1-based; the winner's first proven win names the loser's move before it
                wins = sorted(ply for ply, ev in game.items() if proven_win(ev))
                if not wins or wins[0] - 2 < opening:
                    continue
                position = moves[:wins[0] - 2]
                key = (rule, int(props.get("SZ", 15)), frozenset(position[0::2]),
                       frozenset(position[1::2]))
                if key in seen:
                    continue
                seen.add(key)
                kept += 1
                out.write(f"{rule} {props.get('SZ', 15)} {format_moves(position)} "
                          f"opening={opening} played={pos_name(*moves[wins[0] - 2])}\n")
    print(f"{kept} moments", file=sys.stderr)


# ---- wins ----------------------------------------------------------------------------------

def announced_losses(run, opponent, min_plies):
    """(rule, size, position) of every position of `run`'s games where `opponent` announced its
    loss at least `min_plies` plies away, the other side to move."""
    rule = int(re.search(r"--rule (\d+)", open(f"{run}/command.txt").read()).group(1))
    evals = final_evals(f"{run}/messages.txt", opponent)
    for props, moves, opening in sgf_games(f"{run}/games.sgf"):
        size = int(props.get("SZ", 15))
        for ply, ev in sorted(evals.get(props["GN"], {}).items()):
            if proven_loss(ev) and int(ev[2:]) >= min_plies and opening <= ply < len(moves):
                yield rule, size, moves[:ply]


def wins(args):
    """Every position where the opponent announced its loss at least `--min-plies` plies away
    (the brain to move), kept when the oracle, playing the brain's side, proves the win; its
    move is the first known to keep it. `--every N` writes the 1st, (N+1)th, ... of them."""
    seen, kept = set(), 0
    with open(args.out, "w") as out:
        out.write(f"# kind: wins\n# oracle: {args.oracle}, {args.oracle_ms} ms a verdict, one "
                  "thread\n")
        for run in args.runs:
            oracles = {}
            for rule, size, position in announced_losses(run, args.opponent, args.min_plies):
                key = (rule, size, frozenset(position[0::2]), frozenset(position[1::2]))
                if key in seen:
                    continue
                seen.add(key)
                if key[:2] not in oracles:
                    oracles[key[:2]] = Brain(args.oracle, size, rule, args.oracle_ms, 1)
                reply, ev = oracles[key[:2]].answer(position)
                if not proven_win(ev):
                    continue
                if kept % args.every == 0:
                    write_line(out, Position(rule, size, position, {reply}, set()))
                    out.flush()
                kept += 1
            for oracle in oracles.values():
                oracle.close()
    print(f"{kept} proven positions, every {args.every} written", file=sys.stderr)


# ---- course --------------------------------------------------------------------------------

def ev_at_least(ev, bound):
    """Whether a rating (`123`, `+M19`, `-M8`) is `bound` or better for the side that gave it."""
    if ev.startswith("+M"):
        return True
    if ev.startswith("-M"):
        return False
    return int(ev) >= bound


def brain_result(props, brain):
    """(brain plays black, brain won, brain lost) of an SGF game, or None when `brain` (the start
    of an engine name) plays neither side."""
    black = props.get("PB", "").startswith(brain)
    if not black and not props.get("PW", "").startswith(brain):
        return None
    result = props.get("RE", "")
    return black, result == ("B+1" if black else "W+1"), result == ("W+1" if black else "B+1")


def game_score(won, lost):
    """The brain's points from a game: 1 won, 0 lost, half a draw."""
    return 1.0 if won else 0.0 if lost else 0.5


def course(args):
    """Per run: the brain's results, and how its games went by the opponent's ratings: games
    where the opponent saw itself behind (at most -300) or announced its loss, and among the
    games lost without that, those the opponent rated +150 or better right after the brain's
    first or second move out of the opening, and those with a forced win announced by ply
    `--early-ply`."""
    for run in args.runs:
        evals = final_evals(f"{run}/messages.txt", args.opponent)
        rows, tally = [], []
        for props, moves, opening in sgf_games(f"{run}/games.sgf"):
            result = brain_result(props, args.brain)
            if result is None:
                continue
            black, won, lost = result
            game = evals.get(props["GN"], {})
            behind = any(not ev_at_least(ev, -299) for ev in game.values())
            conceded = any(proven_loss(ev) for ev in game.values())
            # plies are 1-based; the brain plays ply `first` after the opening and every second one
            first = opening + (1 if (opening % 2 == 0) == black else 2)
            early = any(ev_at_least(ev, 150) for ply, ev in game.items() if first < ply < first + 4)
            forced = [ply for ply, ev in game.items() if proven_win(ev)]
            unseen = lost and not behind
            counts = [
                ("games", True),
                ("won as black", won and black), ("lost as black", lost and black),
                ("won as white", won and not black), ("lost as white", lost and not black),
                ("opponent at -300 or worse", behind), ("  of those, won", behind and won),
                ("opponent announced its loss", conceded), ("  of those, won", conceded and won),
                ("lost, the opponent never at -300", unseen),
                ("  of those, the opponent at +150 after the brain's first two moves",
                 unseen and early),
                (f"  of those, a forced win announced by ply {args.early_ply}",
                 unseen and bool(forced) and min(forced) <= args.early_ply),
            ]
            if not tally:
                rows, tally = [row for row, _ in counts], [0] * len(counts)
            for i, (_, counted) in enumerate(counts):
                tally[i] += int(bool(counted))
        print(run)
        for row, count in zip(rows, tally):
            print(f"  {row}: {count}")


def pairs(args):
    """Two runs of the same openings (two builds or nets against one opponent): per game (the
    same opening, the brain on the same colour), which did better, and a two-sided sign test."""
    def scores(run):
        out = {}
        for props, moves, opening in sgf_games(f"{run}/games.sgf"):
            result = brain_result(props, args.brain)
            if result is not None:
                black, won, lost = result
                out[(tuple(moves[:opening]), black)] = game_score(won, lost)
        return out
    better = [0, 0]
    for run_a, run_b in zip(args.a, args.b):
        a, b = scores(run_a), scores(run_b)
        for game in a.keys() & b.keys():
            if a[game] != b[game]:
                better[a[game] < b[game]] += 1
    n, k = sum(better), min(better)
    p = min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n) if n else 1.0
    print(f"better for A: {better[0]}, for B: {better[1]}; two-sided sign test p = {p:.3f}")


def move_times(path):
    """Per engine name, the time each of its moves took: the last `tm N` (Hoshi) or `Time Nms`
    (Rapfi) it printed while choosing that move."""
    last = {}
    for game, ply, engine, text in engine_lines(path):
        m = re.search(r"\btm (\d+)\b|\bTime (\d+)ms\b", text)
        if m:
            last[(engine, game, ply)] = int(m.group(1) or m.group(2))
    times = collections.defaultdict(list)
    for (engine, _, _), ms in last.items():
        times[engine].append(ms)
    return times


def times(args):
    """Each engine's time a move in each run: moves, mean, median, longest."""
    for run in args.runs:
        for name, ms in sorted(move_times(f"{run}/messages.txt").items()):
            ms.sort()
            print(f"{run} {name}: {len(ms)} moves, mean {sum(ms) / len(ms):.0f} ms, "
                  f"median {ms[len(ms) // 2]} ms, longest {ms[-1]} ms")


def calibration(args):
    """How far a brain's own ratings can be trusted: its moves from `--first` to `--last` plies
    after the opening, binned by the expected score its `ev` gives (`1 / (1 + exp(-ev /
    scale))`; proven results left out), against the score it went on to make, per colour."""
    bins = collections.defaultdict(lambda: [0, 0.0, 0.0])
    for run in args.runs:
        evals = final_evals(f"{run}/messages.txt", args.brain)
        for props, moves, opening in sgf_games(f"{run}/games.sgf"):
            result = brain_result(props, args.brain)
            if result is None:
                continue
            black, won, lost = result
            score = game_score(won, lost)
            for ply, ev in evals.get(props["GN"], {}).items():
                if "M" in ev or not args.first <= ply - opening <= args.last:
                    continue
                expected = 1 / (1 + math.exp(-int(ev) / args.scale))
                row = bins[(not black, min(int(expected * args.bins), args.bins - 1))]
                row[0] += 1
                row[1] += expected
                row[2] += score
    width = 100 // args.bins
    print("colour  expected score   moves  mean expected  scored")
    for (white, b), (n, expected, scored) in sorted(bins.items()):
        print(f"{'white' if white else 'black'}   {b * width:3d}-{b * width + width:3d} %   "
              f"{n:6d}  {expected / n:13.2f}  {scored / n:6.2f}")


# ---- build ---------------------------------------------------------------------------------

def build_one(args, line):
    """The moment of `line` as a set position, walked back while it has no safe reply: the
    witness (the oracle given more time) plays a reply the oracle cannot refute, and the oracle
    proves the move played in the game lost."""
    fields = line.split()
    rule, size, moves = int(fields[0]), int(fields[1]), parse_moves(fields[2])
    extra = dict(f.split("=", 1) for f in fields[3:])
    opening, played = int(extra.get("opening", 0)), parse_moves(extra.get("played", ""))
    oracle = Brain(args.oracle, size, rule, args.oracle_ms, 1)
    witness = Brain(args.oracle, size, rule, args.witness_ms, 1)
    try:
        for _ in range(args.walk_back + 1):
            reply, ev = witness.answer(moves)
            if not proven_loss(ev) and not proven_win(oracle.answer(moves + [reply])[1]):
                if played and proven_win(oracle.answer(moves + played[:1])[1]):
                    return Position(rule, size, moves, {reply}, {played[0]})
                return None
            if len(moves) - 2 < max(opening, 1):
                return None
            played, moves = moves[-2:], moves[:-2]
        return None
    finally:
        oracle.close()
        witness.close()


def build(args):
    lines = [line for line in open(args.moments) if line.strip() and not line.startswith("#")]
    kept = 0
    with open(args.out, "w") as out, multiprocessing.Pool(args.jobs) as pool:
        out.write(f"# oracle: {args.oracle}, {args.oracle_ms} ms a verdict, {args.witness_ms} ms "
                  "for the witness, one thread\n")
        for i, found in enumerate(pool.imap(functools.partial(build_one, args), lines)):
            if found:
                kept += 1
                write_line(out, found)
                out.flush()
            print(f"{i + 1}/{len(lines)}: {kept} kept", file=sys.stderr, flush=True)


# ---- check ---------------------------------------------------------------------------------

def check(args):
    positions = read_set(args.set)
    # A wins set: a move is good when it keeps the win, which the oracle (to move) confirms by
    # announcing its loss; otherwise a move is good unless the oracle announces its win.
    keeps = any(line.strip() == "# kind: wins" for line in open(args.set))
    if args.limit:
        positions = positions[:args.limit]
    tally, oracles, learned = collections.Counter(), {}, 0
    for i, p in enumerate(positions):
        brain = Brain(args.engine, p.size, p.rule, args.ms, args.threads)
        try:
            move, _ = brain.answer(p.moves)
        finally:
            brain.close()
        if move in p.safe:
            verdict = "safe"
        elif move in p.losing:
            verdict = "losing"
        elif args.oracle:
            key = (p.size, p.rule)
            if key not in oracles:
                oracles[key] = Brain(args.oracle, p.size, p.rule, args.oracle_ms, 1)
            ev = oracles[key].answer(p.moves + [move])[1]
            losing = not proven_loss(ev) if keeps else proven_win(ev)
            (p.losing if losing else p.safe).add(move)
            verdict, learned = ("losing" if losing else "safe"), learned + 1
        else:
            verdict = "unknown"
        tally[verdict] += 1
        print(f"{i + 1}/{len(positions)} {format_moves(p.moves)} -> {pos_name(*move)}: {verdict}",
              flush=True)
    for oracle in oracles.values():
        oracle.close()
    if learned and args.update:
        # The oracle's new verdicts are kept, so that the next check asks only about new moves.
        header = [line for line in open(args.set) if line.startswith("#")]
        kept = read_set(args.set)[len(positions):]
        with open(args.set, "w") as out:
            out.writelines(header)
            for p in positions + kept:
                write_line(out, p)
    total = sum(tally.values())
    label = "kept the win" if keeps else "safe"
    print(f"{label} {tally['safe']} of {total} ({100 * tally['safe'] / max(total, 1):.1f} %), "
          f"losing {tally['losing']}, unknown {tally['unknown']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="the moments from match_run.py output folders")
    c.add_argument("runs", nargs="+")
    c.add_argument("--loser", default="hoshi", help="the engine name whose losses are read")
    c.add_argument("--winner", default="rapfi", help="the engine whose +M verdicts are read")
    c.add_argument("--out", required=True)
    b = sub.add_parser("build", help="judge every reply of each moment with the oracle")
    b.add_argument("moments")
    b.add_argument("--oracle", required=True, help="a brain's command line (Rapfi)")
    b.add_argument("--oracle-ms", type=int, default=400)
    b.add_argument("--witness-ms", type=int, default=2000)
    b.add_argument("--walk-back", type=int, default=2, help="loser's moves to step back at most")
    b.add_argument("--jobs", type=int, default=2, help="oracles run side by side")
    b.add_argument("--out", required=True)
    w = sub.add_parser("wins", help="the positions where the opponent announced its loss")
    w.add_argument("runs", nargs="+")
    w.add_argument("--opponent", default="rapfi", help="the engine whose -M verdicts are read")
    w.add_argument("--oracle", required=True, help="a brain's command line (Rapfi)")
    w.add_argument("--oracle-ms", type=int, default=1000)
    w.add_argument("--min-plies", type=int, default=15, help="the shortest announced loss read")
    w.add_argument("--every", type=int, default=1, help="write every Nth proven position only")
    w.add_argument("--out", required=True)
    r = sub.add_parser("course", help="how the games of match_run.py output folders went")
    r.add_argument("runs", nargs="+")
    r.add_argument("--brain", default="hoshi", help="the start of the brain's engine name")
    r.add_argument("--opponent", default="rapfi", help="the engine whose ratings are read")
    r.add_argument("--early-ply", type=int, default=14, help="a forced win announced this early")
    q = sub.add_parser("pairs", help="two runs of the same openings compared game by game")
    q.add_argument("--a", nargs="+", required=True, help="run folders of A")
    q.add_argument("--b", nargs="+", required=True, help="run folders of B, in the same order")
    q.add_argument("--brain", default="hoshi", help="the start of the brain's engine name")
    e = sub.add_parser("calibration", help="a brain's ratings against the results it made")
    e.add_argument("runs", nargs="+")
    e.add_argument("--brain", default="hoshi", help="the brain's engine name in the run")
    e.add_argument("--scale", type=float, default=400.0, help="ev = scale ln(s / (1 - s))")
    e.add_argument("--first", type=int, default=1, help="first ply after the opening read")
    e.add_argument("--last", type=int, default=30, help="last ply after the opening read")
    e.add_argument("--bins", type=int, default=5)
    t = sub.add_parser("times", help="each engine's time a move in match_run.py output folders")
    t.add_argument("runs", nargs="+")
    k = sub.add_parser("check", help="how often a brain's move is safe")
    k.add_argument("set")
    k.add_argument("--engine", required=True)
    k.add_argument("--ms", type=int, default=1000)
    k.add_argument("--threads", type=int, default=2)
    k.add_argument("--limit", type=int, default=0)
    k.add_argument("--oracle", help="asked about moves the set did not judge")
    k.add_argument("--oracle-ms", type=int, default=400)
    k.add_argument("--update", action="store_true", help="write the oracle's new verdicts back")
    args = ap.parse_args()
    {"collect": collect, "wins": wins, "build": build, "check": check,
     "course": course, "pairs": pairs, "calibration": calibration,
     "times": times}[args.command](args)


if __name__ == "__main__":
    main()

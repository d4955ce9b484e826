#!/usr/bin/env python3
"""Calibrate the computer's levels: each level against the one below it, with `denkmeter match`,
and a Markdown table per ruleset of the steps and of each level's Elo above level 1.

    calibrate.py [--denkmeter BIN] [--games 20] [--random-plies 4] [--balanced M]
                 [--concurrency 1] [--seed 1] [--levels 1-8] [--log DIR] RULESET [RULESET ...]
    calibrate.py --from-logs DIR [--levels 1-8] RULESET [RULESET ...]

Each step is `denkmeter match RULESET --first computer:N+1 --second computer:N --games G
--random-plies P [--balanced M] --concurrency C --seed S`, so that any line of the table can be
rerun by hand. A level's Elo is the sum of the steps below it; its interval adds the steps'
half-widths in quadrature (the steps are independent matches), each half-width taken by the delta
method (the step's own interval, as `denkmeter match` prints it, is lopsided near a one-sided
score). A step one side won every game has no finite estimate: it counts with the near end of the
score's 95 % Wilson interval instead, and every level above it is marked as a bound (>= when the
higher level won every game, <= when it lost every game).
A step missing from --from-logs ends the table there.

Only the Python standard library is needed. Every match's full report goes to the --log folder;
`--from-logs` prints the tables again from such a folder without playing (the steps found).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import subprocess
import sys
import time

Z = 1.959964  # the 95 % normal quantile
RESULT = re.compile(r"games\s+(\d+): \+(\d+) =(\d+) -(\d+)")


def elo_of(score: float) -> float:
    score = min(max(score, 1e-3), 1.0 - 1e-3)
    return -400.0 * math.log10(1.0 / score - 1.0)


class Step:
    """One match between neighbouring levels, from the higher level's side."""

    def __init__(self, wins: int, draws: int, losses: int, seconds: float):
        self.wins, self.draws, self.losses, self.seconds = wins, draws, losses, seconds

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / max(self.games, 1)  # 0 games: read as 0

    @property
    def one_sided(self) -> bool:
        return self.games > 0 and (self.wins == self.games or self.losses == self.games)

    def interval(self) -> tuple[float, float]:
        """The Elo interval from the score's normal interval (the games' own spread), as
        `denkmeter match` prints it."""
        n = max(self.games, 1)
        s = self.score
        mean_sq = (self.wins + 0.25 * self.draws) / n
        dev = math.sqrt(max(mean_sq - s * s, 0.0) / n)
        return elo_of(s - Z * dev), elo_of(s + Z * dev)

    def wilson_bound(self) -> float:
        """For a one-sided step: the Elo at the near end of the score's 95 % Wilson interval."""
        n = self.games
        low = n / (n + Z * Z)
        return elo_of(low) if self.wins == n else -elo_of(low)

    def elo(self) -> tuple[float, float, bool]:
        """Estimate, the half-width of its 95 % interval by the delta method (the score's
        standard error times the slope of the Elo curve there: symmetric, so that steps add
        up) and whether it is only a bound."""
        if self.one_sided:
            return self.wilson_bound(), 0.0, True
        n = max(self.games, 1)
        s = min(max(self.score, 1e-3), 1.0 - 1e-3)
        dev = math.sqrt(max((self.wins + 0.25 * self.draws) / n - s * s, 0.0) / n)
        slope = 400.0 / math.log(10.0) / (s * (1.0 - s))
        return elo_of(s), Z * dev * slope, False


def run_step(args, ruleset: str, low: int) -> Step:
    cmd = [
        args.denkmeter, "match", ruleset,
        "--first", f"computer:{low + 1}", "--second", f"computer:{low}",
        "--games", str(args.games), "--random-plies", str(args.random_plies),
        "--concurrency", str(args.concurrency), "--seed", str(args.seed),
    ]
    if args.balanced is not None:
        cmd += ["--balanced", str(args.balanced)]
    started = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.monotonic() - started
    if args.log:
        with open(os.path.join(args.log, f"{ruleset}-{low + 1}v{low}.txt"), "w") as log:
            log.write(" ".join(cmd) + "\n" + done.stdout + done.stderr)
    if done.returncode != 0:
        sys.exit(f"error: {' '.join(cmd)} failed:\n{done.stderr.strip()}")
    found = RESULT.search(done.stdout)
    if not found:
        sys.exit(f"error: no result in the output of {' '.join(cmd)}:\n{done.stdout}")
    _, wins, draws, losses = (int(g) for g in found.groups())
    return Step(wins, draws, losses, seconds)


def read_step(folder: str, ruleset: str, low: int) -> Step | None:
    """A step from a match report kept by --log, if there is one."""
    path = os.path.join(folder, f"{ruleset}-{low + 1}v{low}.txt")
    try:
        with open(path) as log:
            found = RESULT.search(log.read())
    except OSError:
        return None
    if not found:
        return None
    _, wins, draws, losses = (int(g) for g in found.groups())
    if wins + draws + losses == 0:
        return None
    return Step(wins, draws, losses, float("nan"))


def signed(x: float) -> str:
    return f"{x + 0.0:+.0f}"


def table(ruleset: str, steps: dict[int, Step], first: int) -> str:
    # Tables read back from reports have no times: no minutes column then.
    timed = any(not math.isnan(step.seconds) for step in steps.values())
    lines = [
        f"#### {ruleset}",
        "",
        "| level | against | W-D-L | score | Elo step (95 %) | level's Elo above "
        f"{first} |{' minutes |' if timed else ''}",
        "|---|---|---|---|---|---|" + ("---|" if timed else ""),
        f"| {first} | | | | | 0 |" + (" |" if timed else ""),
    ]
    # Which way the total is only a bound: ">=" after a step the higher level won every game,
    # "<=" after one it lost every game, none once both have happened.
    total, variance, bounds = 0.0, 0.0, set()
    for low in range(first, first + len(steps)):
        if low not in steps:
            lines.append(f"| {low + 1} | {low} | not measured: the levels above are unknown | | | |"
                         + (" |" if timed else ""))
            break
        step = steps[low]
        elo, half, is_bound = step.elo()
        total += elo
        variance += half * half
        if is_bound:
            bounds.add(">=" if elo > 0 else "<=")
            step_text = f"{'>=' if elo > 0 else '<='} {signed(elo)} (one-sided)"
        else:
            low_e, high_e = step.interval()
            top, bottom = elo_of(1.0), elo_of(0.0)  # where the interval leaves the scale
            high_text = "no end" if high_e >= top - 1 else signed(high_e)
            low_text = "no end" if low_e <= bottom + 1 else signed(low_e)
            step_text = f"{signed(elo)} ({low_text} to {high_text})"
        if len(bounds) > 1:
            level_text = "no bound (one-sided steps both ways)"
        else:
            mark = next(iter(bounds), "")
            level_text = f"{mark + ' ' if mark else ''}{signed(total)} ± {math.sqrt(variance):.0f}"
        lines.append(
            f"| {low + 1} | {low} | {step.wins}-{step.draws}-{step.losses} | "
            f"{100 * step.score:.1f} % | {step_text} | {level_text} |"
            + (f" {'' if math.isnan(step.seconds) else f'{step.seconds / 60:.1f}'} |" if timed else "")
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rulesets", nargs="+")
    parser.add_argument("--denkmeter", default="target/release/denkmeter")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--random-plies", type=int, default=4)
    parser.add_argument("--balanced", type=int, metavar="M",
                        help="only openings a short search scores within M of even")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default="1-8", help="the lowest and highest level, e.g. 1-8")
    parser.add_argument("--log", help="a folder for every match's full report")
    parser.add_argument("--from-logs", help="print the tables from the reports in this folder")
    args = parser.parse_args()
    try:
        first, last = (int(x) for x in args.levels.split("-"))
    except ValueError:
        sys.exit(f"error: --levels {args.levels!r}: expected LOW-HIGH, e.g. 1-8")
    if not 1 <= first < last:
        sys.exit(f"error: --levels {args.levels!r}: expected 1 <= LOW < HIGH")
    if args.from_logs:
        for ruleset in args.rulesets:
            steps = {low: step for low in range(first, last)
                     if (step := read_step(args.from_logs, ruleset, low)) is not None}
            if first in steps:
                print(table(ruleset, steps, first))
        return
    if args.games < 2 or args.games % 2:
        sys.exit("error: --games must be even and at least 2 (each opening with both colours)")
    if not os.access(args.denkmeter, os.X_OK):
        sys.exit(f"error: {args.denkmeter} is not an executable; build it with "
                 "`cargo build --release -p denkmeter` or give --denkmeter")
    if args.log:
        os.makedirs(args.log, exist_ok=True)
    balanced = "" if args.balanced is None else f" --balanced {args.balanced}"
    print(f"`calibrate.py --games {args.games} --random-plies {args.random_plies}{balanced} "
          f"--seed {args.seed} --levels {args.levels}`\n", flush=True)
    for ruleset in args.rulesets:
        steps: dict[int, Step] = {}
        for low in range(first, last):
            steps[low] = run_step(args, ruleset, low)
            print(f"  {ruleset} {low + 1} v {low}: +{steps[low].wins} ={steps[low].draws} "
                  f"-{steps[low].losses}", file=sys.stderr, flush=True)
        print(table(ruleset, steps, first), flush=True)


if __name__ == "__main__":
    main()

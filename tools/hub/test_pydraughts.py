#!/usr/bin/env python3
"""`denkmeter hub` driven by a real Hub client: pydraughts 0.6.7's HubEngine.

Plays whole games between `denkmeter hub` and tools/hub/random_engine.py (a greedy random Hub
engine built on pydraughts' own move generator), both through HubEngine, with pydraughts as the
referee of every move (see referee.py):

1. International draughts, denkmeter White, a fixed move time (HubEngine.play, `level move-time`).
2. International draughts, denkmeter Black, on a clock with an increment (`level time= inc=`):
   denkmeter must never run out of time.
3. English checkers through the literal-position workaround (HubEngine.go, variant english).

Exits 0 if every game ends (or is adjudicated at --max-plies) with only legal moves and
denkmeter loses none; 1 on a failure; 3 if the watchdog fires.

Usage: test_pydraughts.py --denkmeter target/debug/denkmeter [--movetime 0.05] [--timeout 100]
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from referee import (Player, RefereeError, Watchdog, play_game,  # noqa: E402
                     python_engine, start_engine, stop_engine)

RANDOM_ENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "random_engine.py")


def main():
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--denkmeter", required=True, help="the denkmeter binary")
    options.add_argument("--movetime", type=float, default=0.05, help="seconds per move")
    options.add_argument("--clock", type=float, default=3.0,
                         help="seconds on denkmeter's clock in the clock game")
    options.add_argument("--increment", type=float, default=0.1)
    options.add_argument("--max-plies", type=int, default=300)
    options.add_argument("--timeout", type=float, default=100.0, help="watchdog, seconds")
    options.add_argument("--seed", type=int, default=1)
    arguments = options.parse_args()
    denkmeter = [os.path.abspath(arguments.denkmeter), "hub"]
    randomer = python_engine(RANDOM_ENGINE, "--seed", str(arguments.seed))

    watchdog = Watchdog(arguments.timeout).start()
    failures = 0
    games = [
        ("international", "white", dict(movetime=arguments.movetime)),
        ("international", "black", dict(clock=arguments.clock, increment=arguments.increment)),
        ("english", "white", dict(movetime=arguments.movetime)),
    ]
    for number, (variant, side, limits) in enumerate(games, start=1):
        engines = []
        try:
            ours = watchdog.watch(start_engine(denkmeter, variant))
            engines.append(ours)
            theirs = watchdog.watch(start_engine(randomer, variant))
            engines.append(theirs)
            name = ours.id.get("name", "?")
            dm = Player(f"{name} hub", ours, **limits)
            rnd = Player("greedy-random", theirs, depth=1)
            white, black = (dm, rnd) if side == "white" else (rnd, dm)
            result, plies, reason = play_game(white, black, variant, arguments.max_plies)
            lost = (result == "0-1" and side == "white") or (result == "1-0" and side == "black")
            print(f"game {number} ({variant}, {limits}): {white.name} - {black.name} "
                  f"{result} in {plies} plies ({reason}); denkmeter's slowest move "
                  f"{dm.slowest:.3f} s" + (f", clock left {dm.clock:.3f} s" if dm.clock else ""),
                  flush=True)
            if lost:
                print(f"FAIL: game {number}: denkmeter lost to a greedy random player")
                failures += 1
        except (RefereeError, EOFError, OSError) as error:
            print(f"FAIL: game {number} ({variant}): {error}", flush=True)
            failures += 1
        finally:
            for engine in engines:
                stop_engine(engine)
    watchdog.cancel()
    print("PASS" if failures == 0 else f"FAIL: {failures} game(s)")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

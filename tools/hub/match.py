#!/usr/bin/env python3
"""A match between `denkmeter hub` and any Hub engine, with pydraughts as the referee.

Plays --games games, denkmeter taking the first player's side in the odd ones (White in
International draughts, Black in English checkers), and prints each result and then
denkmeter's wins, draws and losses. A game still going at --max-plies is adjudicated a draw.

Examples:
  match.py --denkmeter target/debug/denkmeter --engine "python3 tools/hub/random_engine.py"
  match.py --denkmeter target/release/denkmeter --engine "/opt/scan/scan hub" --games 10 \\
      --movetime 0.5
  match.py --denkmeter target/debug/denkmeter --engine "python3 tools/hub/random_engine.py" \\
      --variant english --depth 6

The engine's command line is split like a shell's; its program is made absolute by pydraughts,
and it is started in --cwd (Scan wants its own directory, for its data files). An engine under
python3 that imports pydraughts gets this environment's packages through PYTHONPATH.
"""

import argparse
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from referee import (Player, RefereeError, Watchdog, play_game,  # noqa: E402
                     python_engine, start_engine, stop_engine)

# Seconds the watchdog allows per game, on top of the moves' own time.
WATCHDOG_SECONDS_PER_GAME = 120.0


def engine_command(text):
    words = shlex.split(text)
    if not words:
        raise SystemExit("--engine is empty")
    if words[0].startswith("python") and len(words) > 1 and words[1].endswith(".py"):
        return python_engine(os.path.abspath(words[1]), *words[2:])
    return words


def main():
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                      formatter_class=argparse.RawDescriptionHelpFormatter,
                                      epilog="\n".join(__doc__.splitlines()[1:]))
    options.add_argument("--denkmeter", required=True, help="the denkmeter binary")
    options.add_argument("--engine", required=True, help="the other engine's command line")
    options.add_argument("--cwd", default=None, help="the other engine's working directory")
    options.add_argument("--games", type=int, default=2)
    options.add_argument("--variant", default="international",
                         choices=["international", "english"])
    options.add_argument("--movetime", type=float, default=None, help="seconds per move")
    options.add_argument("--depth", type=int, default=None, help="plies per move")
    options.add_argument("--max-plies", type=int, default=400)
    arguments = options.parse_args()
    if arguments.movetime is None and arguments.depth is None:
        arguments.movetime = 0.1
    limits = dict(movetime=arguments.movetime, depth=arguments.depth)
    denkmeter = [os.path.abspath(arguments.denkmeter), "hub"]
    other = engine_command(arguments.engine)

    per_game = WATCHDOG_SECONDS_PER_GAME + arguments.max_plies * (arguments.movetime or 1.0)
    watchdog = Watchdog(per_game * arguments.games).start()
    wins = draws = losses = errors = 0
    for number in range(1, arguments.games + 1):
        engines = []
        try:
            ours = watchdog.watch(start_engine(denkmeter, arguments.variant))
            engines.append(ours)
            if arguments.cwd:
                from draughts.engine import HubEngine
                theirs = HubEngine(other, cwd=arguments.cwd)
                theirs.setoption("variant", arguments.variant)
                theirs.init()
            else:
                theirs = start_engine(other, arguments.variant)
            engines.append(watchdog.watch(theirs))
            dm = Player("denkmeter", ours, **limits)
            them = Player(theirs.id.get("name", "engine"), theirs, **limits)
            we_start = number % 2 == 1
            first, second = (dm, them) if we_start else (them, dm)
            result, plies, reason = play_game(first, second, arguments.variant,
                                              arguments.max_plies)
            print(f"game {number}: {first.name} - {second.name} {result} in {plies} plies "
                  f"({reason})", flush=True)
            if result == "1/2-1/2":
                draws += 1
            elif (result == "1-0") == we_start:
                wins += 1
            else:
                losses += 1
        except (RefereeError, EOFError, OSError) as error:
            print(f"game {number}: not finished: {error}", flush=True)
            errors += 1
        finally:
            for engine in engines:
                stop_engine(engine)
    watchdog.cancel()
    print(f"denkmeter: W {wins} D {draws} L {losses}" + (f" (errors {errors})" if errors else ""))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks of the peer harness's shared part (common.py) against a denkmeter binary: square
numbers, move identities read from `denkmeter moves --captured`, refusals of lines that do not
fit the position, and the `denkmeter hub` driver. Standard library only; run by the cli crate's
`draughts_clients` tests.

    test_common.py --denkmeter PATH [--timeout SECONDS]

Prints PASS and exits 0 when every check holds.
"""

from __future__ import annotations

import argparse
import signal
import sys

from common import (
    Denkmeter, HarnessError, HubDenkmeter, Position, RulesDisagreement, identity_of_hub_move,
    identity_of_line, identity_of_played, numbered_square, parse_square,
)

# White's man on c3 (37) takes d4 and d6 and lands on c7 (17): written by its two ends.
DOUBLE = "10/10/10/10/3m6/10/3m6/2M7/10/10 w"
INTERNATIONAL_START = ("1m1m1m1m1m/m1m1m1m1m1/1m1m1m1m1m/m1m1m1m1m1/10/10/1M1M1M1M1M/"
                       "M1M1M1M1M1/1M1M1M1M1M/M1M1M1M1M1 w")
ENGLISH_START = "1m1m1m1m/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/M1M1M1M1 w"


def check(condition: bool, what: str) -> None:
    if not condition:
        raise AssertionError(what)


def refused(position: Position, line: str) -> bool:
    try:
        identity_of_line(position, line)
    except (RulesDisagreement, HarnessError):
        return True
    return False


def main() -> int:
    options = argparse.ArgumentParser()
    options.add_argument("--denkmeter", required=True)
    options.add_argument("--timeout", type=int, default=60)
    args = options.parse_args()
    signal.alarm(args.timeout)

    # Square numbers as Denkmeter's: International from b10 (1) to a1 (46) and i1 (50);
    # English from g1 (1) to b8 (32).
    check(numbered_square(1, 10) == (1, 9), "international 1 is b10")
    check(numbered_square(46, 10) == (0, 0), "international 46 is a1")
    check(numbered_square(50, 10) == (8, 0), "international 50 is i1")
    check(numbered_square(1, 8) == (6, 0), "english 1 is g1")
    check(numbered_square(32, 8) == (1, 7), "english 32 is b8")
    check(parse_square("37", 10) == parse_square("c3", 10), "37 is c3")
    for bad in ("0", "51", "07"):
        try:
            parse_square(bad, 10)
            check(False, f"{bad} read as a square")
        except HarnessError:
            pass

    # Identities from lines: what a capture takes comes from its `takes` list.
    double = Position.from_text(DOUBLE, 10)
    check(identity_of_line(double, "37x17 takes d4 d6")
          == ("37x17", ((2, 2), (2, 6), frozenset({(3, 3), (3, 5)}))), "the double capture")
    for bad in ("37x17", "37-32 takes d4", "37x17 takes d4 e5", "36x17 takes d4 d6",
                "37x17 takes d4 d4"):
        check(refused(double, bad), f"{bad!r} accepted")

    # The binary's own lists, read the same way.
    international = Denkmeter(args.denkmeter, "international", 0.05, "")
    ours = international.moves_by_identity(double)
    check(ours == {((2, 2), (2, 6), frozenset({(3, 3), (3, 5)})): "37x17"}, f"{ours}")
    check(identity_of_played(double, ours, "37x17") in ours, "the played capture")
    try:
        identity_of_played(double, ours, "37-32")
        check(False, "a move not in the list was played")
    except RulesDisagreement:
        pass
    start = international.moves_by_identity(Position.from_text(INTERNATIONAL_START, 10))
    check(len(start) == 9 and all(not taken for _, _, taken in start), f"{start}")
    check(start[((3, 3), (4, 4), frozenset())] == "32-28", f"{start}")  # d4-e5
    english = Denkmeter(args.denkmeter, "english", 0.05, "")
    start = english.moves_by_identity(Position.from_text(ENGLISH_START, 8))
    check(len(start) == 7, f"{start}")

    # Hub moves as identities, and the hub driver: one process answers several searches, each
    # with a legal move of the position its moves lead to.
    check(identity_of_hub_move("37x17x32x22", 10) == ((2, 2), (2, 6), frozenset({(3, 3), (3, 5)})),
          "a Hub capture")
    check(identity_of_hub_move("32-28", 10) == ((3, 3), (4, 4), frozenset()), "a Hub step")
    for bad in ("32", "32-28-23", "37x17x28x28", "a-b"):
        try:
            identity_of_hub_move(bad, 10)
            check(False, f"Hub move {bad!r} accepted")
        except HarnessError:
            pass
    hub = HubDenkmeter(args.denkmeter, "international", 0.05, hash_mb=4)
    try:
        start_position = Position.from_text(INTERNATIONAL_START, 10)
        legal = international.moves_by_identity(start_position)
        first, _, depth = hub.best_move([])
        check(identity_of_hub_move(first, 10) in legal, f"hub's first move {first}")
        check(depth is not None and depth >= 1, f"depth {depth}")
        # A side without pieces has no move: the hub says so and still ends with done, and
        # the driver reads both, so that the next search reads its own lines.
        over = hub._search("pos pos=Wb" + "e" * 49)[0]
        check(any(line.startswith("error") and "game is over" in line for line in over)
              and over[-1].startswith("done"), f"{over}")
        hub.new_game()
        # After 32-28 19-23 White must take 28x19, capturing 23 (e5 takes f6, lands on g7).
        reply, _, _ = hub.best_move(["32-28", "19-23"])
        check(identity_of_hub_move(reply, 10) == ((4, 4), (6, 6), frozenset({(5, 5)})),
              f"hub's forced capture {reply}")
        # A bad move is an error, not a reason to search the position alone.
        try:
            hub.best_move(["32-28", "11-12"], "W" + "b" * 20 + "e" * 10 + "w" * 20)
            check(False, "a bad move in the game was searched around")
        except HarnessError:
            pass
    finally:
        hub.close()
    check(hub.process.returncode == 0, f"hub exit status {hub.process.returncode}")
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())

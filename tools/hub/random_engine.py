#!/usr/bin/env python3
"""A small Hub protocol engine that plays a greedy random legal move.

It is independent of Denkmeter: the moves come from pydraughts' own move generator, so a game
between it and `denkmeter hub` checks Denkmeter against another implementation of the rules.
Among the legal moves it keeps those that capture the most pieces and picks one at random
(--seed makes it repeatable).

It reads `pos` literally, as `denkmeter hub` does: 51 characters for International draughts
(variant international, the default) and 33 for English checkers (variant english), where `W`
and `w` are the light pieces (White, the second player) and `B`/`b` the dark (Black, first).

Usage: random_engine.py [--seed N] [--variant international|english]
"""

import argparse
import random
import shlex
import sys

from draughts import Board, Move

VARIANTS = {"international": "standard", "normal": "standard", "standard": "standard",
            "english": "english"}
SQUARES = {"standard": 50, "english": 32}


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def parse_args(text):
    """`name=value name="a b" flag` as a dict (a flag maps to "")."""
    args = {}
    for word in shlex.split(text):
        name, _, value = word.partition("=")
        args[name] = value
    return args


def board_from_hub(variant, pos):
    """A pydraughts Board from a literal Hub position."""
    squares = SQUARES[variant]
    if len(pos) != squares + 1 or pos[0] not in "WB":
        raise ValueError(f"a position has {squares + 1} characters")
    white, black = [], []
    for number, letter in enumerate(pos[1:], start=1):
        if letter == "e":
            continue
        if letter not in "wbWB":
            raise ValueError(f"bad letter {letter!r}")
        listed = f"K{number}" if letter.isupper() else str(number)
        (white if letter.lower() == "w" else black).append(listed)
    fen = f"{pos[0]}:W{','.join(white)}:B{','.join(black)}"
    return Board(variant, fen=fen)


def main():
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--seed", type=int, default=None)
    options.add_argument("--variant", default="international", choices=sorted(VARIANTS))
    arguments = options.parse_args()
    rng = random.Random(arguments.seed)
    variant = VARIANTS[arguments.variant]
    board = None
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        command, _, rest = line.partition(" ")
        try:
            args = parse_args(rest)
        except ValueError as error:
            say(f'error message="{error}"')
            continue
        if command == "hub":
            say("id name=greedy-random version=1 author=denkmeter-tools")
            say('param name=variant value=international type=enum values="international english"')
            say("wait")
        elif command == "set-param":
            if args.get("name") == "variant" and args.get("value") in VARIANTS:
                variant = VARIANTS[args["value"]]
        elif command == "init":
            say("ready")
        elif command == "ping":
            say("pong")
        elif command == "pos":
            board = None
            try:
                board = board_from_hub(variant, args["pos"])
                for text in args.get("moves", "").split():
                    board.push(Move(board, hub_move=text))
            except (KeyError, ValueError) as error:
                board = None
                say(f'error message="bad pos: {error!r}"'.replace("'", ""))
        elif command == "go":
            if board is None or not board.legal_moves():
                say('error message="nothing to search"')
                continue
            moves = [m.hub_move for m in board.legal_moves()]
            most = max(m.count("x") for m in moves)
            say(f"done move={rng.choice([m for m in moves if m.count('x') == most])}")
        elif command == "quit":
            return
        elif command in ("level", "stop", "ponder-hit", "new-game"):
            pass
        else:
            say('error message="unknown command"')


if __name__ == "__main__":
    main()

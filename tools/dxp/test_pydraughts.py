#!/usr/bin/env python3
"""`denkmeter dxp` driven by a real DXP client: pydraughts 0.6.7's DXPEngine.

Starts `denkmeter dxp --listen 127.0.0.1:0 --max-games 1` (the follower), and plays one whole
game of International draughts against it with pydraughts' DXPEngine as the initiator: the
other side plays random legal moves, and pydraughts referees every move denkmeter sends (it
must be one of `board.legal_moves()`) and decides when the game is over (no moves, or its draw
rules); a game still going at --max-plies is stopped there. Then DXPEngine sends GAMEEND, and
denkmeter must confirm it and exit by itself.

Exits 0 and prints PASS if every move was legal and denkmeter did not lose; 1 on a failure;
3 if the watchdog fires.

Usage: test_pydraughts.py --denkmeter target/debug/denkmeter [--colour white|black]
       [--max-plies 200] [--timeout 50]
"""

import argparse
import os
import random
import subprocess
import sys
import threading

from draughts import BLACK, WHITE, Board
from draughts.engine import DXPEngine


class Watchdog:
    """Kills denkmeter and exits with status 3 if the run takes longer than `seconds`."""

    def __init__(self, seconds, process):
        self.process = process
        self.seconds = seconds
        self.timer = threading.Timer(seconds, self._fire)
        self.timer.daemon = True

    def start(self):
        self.timer.start()
        return self

    def cancel(self):
        self.timer.cancel()

    def _fire(self):
        print(f"FAIL: watchdog: no result within {self.seconds} s", flush=True)
        self.process.kill()
        os._exit(3)


def main():
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--denkmeter", required=True, help="the denkmeter binary")
    options.add_argument("--colour", choices=["white", "black"], default="white",
                         help="denkmeter's colour")
    options.add_argument("--max-plies", type=int, default=200)
    options.add_argument("--timeout", type=float, default=50.0, help="watchdog, seconds")
    options.add_argument("--seed", type=int, default=1)
    arguments = options.parse_args()
    rng = random.Random(arguments.seed)

    follower = subprocess.Popen(
        [os.path.abspath(arguments.denkmeter), "dxp", "--listen", "127.0.0.1:0",
         "--max-games", "1", "--read-timeout-secs", "30"],
        stdout=subprocess.PIPE, text=True)
    watchdog = Watchdog(arguments.timeout, follower).start()
    first = follower.stdout.readline().strip()
    if not first.startswith("listening "):
        print(f"FAIL: expected `listening ADDRESS`, got {first!r}")
        return 1
    host, port = first.split(" ", 1)[1].rsplit(":", 1)

    # The game is 0 minutes: denkmeter plays every move at its least time.
    engine = DXPEngine(None, {"engine-opened": True, "ip": host, "port": port,
                              "max-moves": 0, "initial-time": 0})
    ours = WHITE if arguments.colour == "white" else BLACK
    board = Board(variant="standard")
    failure = None
    plies = 0
    while not board.is_over() and plies < arguments.max_plies:
        legal = board.legal_moves()
        if board.turn == ours:
            played = engine.play(board).move
            if played is None:
                failure = f"ply {plies + 1}: denkmeter sent no move (connection lost?)"
                break
            matching = [m for m in legal if m.hub_position_move == played.hub_position_move]
            if len(matching) != 1:
                failure = (f"ply {plies + 1}: denkmeter's move {played.hub_position_move} is "
                           f"not legal in {board.fen}")
                break
            move = matching[0]
        else:
            move = rng.choice(legal)
        board.push(move)
        plies += 1
    engine.quit()
    try:
        follower.wait(timeout=20)
    except subprocess.TimeoutExpired:
        failure = failure or "denkmeter did not exit after its one game"
        follower.kill()
    rest = follower.stdout.read()
    follower.stdout.close()
    watchdog.cancel()

    winner = board.winner() if board.is_over() else None
    result = {WHITE: "1-0", BLACK: "0-1"}.get(winner, "draw or unfinished")
    print(f"denkmeter ({arguments.colour}) - random: {result} in {plies} plies; "
          f"denkmeter says: {rest.strip()}", flush=True)
    if failure is None and winner is not None and winner != ours:
        failure = "denkmeter lost to a random player"
    if failure is None and follower.returncode != 0:
        failure = f"denkmeter exited with {follower.returncode}"
    if failure is None and not rest.startswith("game 1: result"):
        failure = "denkmeter did not report the game's end"
    # pydraughts ends with no reason (E0): the result denkmeter records is the board's.
    expected = {WHITE: "2-0", BLACK: "0-2"}.get(winner)
    if failure is None and expected and not rest.startswith(f"game 1: result {expected}"):
        failure = f"denkmeter recorded another result than the board's {expected}"
    if failure:
        print(f"FAIL: {failure}")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())

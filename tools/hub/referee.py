"""Games between two Hub engines with pydraughts as the referee.

Both engines run through pydraughts' `HubEngine`. Every move an engine gives is read with
`Move(board, hub_move=...)` and must be one of `board.legal_moves()`; pydraughts decides when the
game is over (no moves, or its draw rules). A game still going after `max_plies` is adjudicated
as a draw.

International games go through `HubEngine.play()`, pydraughts' own path. English games use
`HubEngine.go()` with a literal English position (see ENGLISH_START): `play()` sends English
positions in pydraughts' internal frame (rotated, colours swapped), which Hub engines that read
`pos` literally, as `denkmeter hub` does, see as the wrong side to move.
"""

import os
import sys
import threading
import time

import draughts
from draughts import BLACK, WHITE, Board, Move
from draughts.engine import HubEngine, Limit

# English checkers' start in literal Hub form: Black (dark, first player) on 1-12, to move.
ENGLISH_START = "B" + "b" * 12 + "e" * 8 + "w" * 12
PYDRAUGHTS_VARIANT = {"international": "standard", "english": "english"}


class RefereeError(Exception):
    """An engine broke the rules or the protocol."""


def python_engine(script, *args):
    """The command line of a Hub engine written in Python that imports pydraughts.

    HubEngine resolves the program's symbolic links, so a virtual environment's python runs
    as the base interpreter without the environment's packages: PYTHONPATH gives them back.
    """
    packages = os.path.dirname(os.path.dirname(os.path.abspath(draughts.__file__)))
    paths = [packages] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    return [sys.executable, script, *args]


def start_engine(command, variant):
    """A HubEngine for `command` (a list), its variant set before init."""
    engine = HubEngine(command)
    engine.setoption("variant", variant)
    engine.init()
    return engine


def stop_engine(engine):
    try:
        engine.quit()
    finally:
        engine.kill_process()


class Watchdog:
    """Kills the engines and exits with status 3 if the run takes longer than `seconds`."""

    def __init__(self, seconds):
        self.engines = []
        self.timer = threading.Timer(seconds, self._fire)
        self.timer.daemon = True
        self.seconds = seconds

    def start(self):
        self.timer.start()
        return self

    def watch(self, engine):
        self.engines.append(engine)
        return engine

    def cancel(self):
        self.timer.cancel()

    def _fire(self):
        print(f"FAIL: watchdog: no result within {self.seconds} s", flush=True)
        for engine in self.engines:
            try:
                engine.kill_process()
            except Exception:  # noqa: BLE001 - the process may already be gone
                pass
        os._exit(3)


def checked_move(board, text, who):
    """The legal move `text` names in `board`, or RefereeError."""
    if not text:
        raise RefereeError(f"{who}: no move")
    try:
        move = Move(board, hub_move=text)
    except (KeyError, ValueError, IndexError) as error:
        raise RefereeError(f"{who}: move {text!r} is not legal ({error!r})") from error
    legal = {m.hub_move for m in board.legal_moves()}
    if move.hub_move not in legal:
        raise RefereeError(f"{who}: move {text!r} is not among {sorted(legal)}")
    return move


class Player:
    """One side of a game: an engine, its name, and how long it may think."""

    def __init__(self, name, engine, movetime=None, depth=None, clock=None, increment=0.0):
        self.name = name
        self.engine = engine
        self.movetime = movetime
        self.depth = depth
        # Seconds left on a clock (time + increment games), or None.
        self.clock = clock
        self.increment = increment
        self.slowest = 0.0

    def limit(self):
        if self.clock is not None:
            return Limit(time=self.clock, inc=self.increment or None)
        if self.movetime is not None:
            return Limit(movetime=self.movetime)
        return Limit(depth=self.depth or 4)

    def move(self, board, variant):
        # The clock runs from the position sent to the move read (pydraughts' reading of the
        # move included), not while the referee checks it.
        started = time.monotonic()
        if variant == "international":
            try:
                result = self.engine.play(board, self.limit(), False)
            except (KeyError, ValueError, IndexError) as error:
                raise RefereeError(f"{self.name}: unreadable move ({error!r})") from error
            spent = time.monotonic() - started
            move = checked_move(board, result.move.hub_move, self.name)
        else:
            limit = self.limit()
            moves = " ".join(m.hub_move for m in board.move_stack)
            best, _ponder = self.engine.go(ENGLISH_START, moves=moves or None,
                                           my_time=limit.time, inc=limit.inc,
                                           movetime=limit.movetime, depth=limit.depth)
            spent = time.monotonic() - started
            move = checked_move(board, best, self.name)
        self.slowest = max(self.slowest, spent)
        if self.clock is not None:
            self.clock += self.increment - spent
            if self.clock < 0:
                raise RefereeError(f"{self.name}: lost on time ({self.clock:.3f} s)")
        return move


def play_game(white, black, variant, max_plies):
    """Plays a game; returns (result, plies, reason) with result "1-0", "0-1" or "1/2-1/2".

    `white` is the first player: White in International draughts, Black in English checkers.
    """
    board = Board(PYDRAUGHTS_VARIANT[variant])
    first = board.turn
    plies = 0
    while not board.is_over():
        if plies >= max_plies:
            return "1/2-1/2", plies, f"adjudicated as a draw after {max_plies} plies"
        mover = white if board.turn == first else black
        board.push(mover.move(board, variant))
        plies += 1
    winner = board.winner()
    if winner == 0:
        return "1/2-1/2", plies, "drawn by pydraughts' rules"
    if winner not in (WHITE, BLACK):
        raise RefereeError(f"pydraughts gives no winner: {winner!r}")
    first_won = winner == first
    return ("1-0" if first_won else "0-1"), plies, "the loser has no move"

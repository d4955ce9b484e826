"""Shared parts of the peer-match harness (tools/peers/match_*.py).

- Board text: Denkmeter's position strings for the square draughts boards, square names and
  numbers, and a move's identity (start, end, captured squares) worked out from its text.
- The `denkmeter` binary, driven one process per question (`moves`, `analyse`).
- The options every match script takes, the opening plan, one line per game, the summary (score,
  Elo difference with a 95 % interval) and the optional record file.

Standard library only, so that the scripts can say clearly what is missing before they import a
peer package.
"""

from __future__ import annotations

import argparse
import math
import os
import select
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

# A move's identity as Denkmeter defines it (shared/rules/README.md): where it starts, where it
# ends and what it captures. Squares are (file, rank), both counted from 0 (a1 = (0, 0)).
Square = tuple[int, int]
Identity = tuple[Square, Square, frozenset[Square]]


class HarnessError(Exception):
    """A setup or tool failure: bad arguments, a missing binary, unreadable output."""


class RulesDisagreement(Exception):
    """Denkmeter and the peer's referee disagree about the rules in some position."""


# ----------------------------------------------------------------------------- board text


def square_name(square: Square) -> str:
    """`(2, 3)` -> `c4`."""
    file, rank = square
    return f"{chr(ord('a') + file)}{rank + 1}"


def numbered_square(number: int, size: int) -> Square:
    """Square `number` in Denkmeter's numbers for the two rulesets the harness plays, both with
    a1 dark: International (10x10) numbers rows from rank 10 down, each left to right, so 1 is
    b10 and 46 is a1; English (8x8) numbers rows from rank 1 up, each right to left, so 1 is g1
    and 32 is b8 (the first player's men start on 1-12). As `fen::numbered` in the games
    crate."""
    per_row = size // 2
    index = number - 1
    if not 0 <= index < per_row * size:
        raise HarnessError(f"{number} is not a square number of the {size}x{size} board")
    first_player_dark = size == 8
    row = index // per_row
    for offset in (0, 1):
        column = 2 * (index % per_row) + offset
        file, rank = (size - 1 - column, row) if first_player_dark else (column, size - 1 - row)
        if (file + rank) % 2 == 0:
            return (file, rank)
    raise AssertionError("one of two neighbouring cells is dark")


def parse_square(text: str, size: int) -> Square:
    """`c4` -> `(2, 3)`, or a square number (`46` -> `(0, 0)` on 10x10); raises HarnessError for
    anything that is not a square of the board."""
    if text.isdigit() and not text.startswith("0"):
        return numbered_square(int(text), size)
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        raise HarnessError(f"{text!r} is not a square name")
    file = ord(text[0].lower()) - ord("a")
    rank = int(text[1:]) - 1
    if not (0 <= file < size and 0 <= rank < size):
        raise HarnessError(f"{text!r} is not a square of the {size}x{size} board")
    return (file, rank)


@dataclass
class Position:
    """A draughts position: pieces by square (`M`/`D` White man/king, `m`/`d` Black) and the
    side to move (`w` or `b`)."""

    size: int
    pieces: dict[Square, str]
    to_move: str

    def to_text(self) -> str:
        """Denkmeter's position string: rows from the far rank down, runs of empty squares as
        numbers, then the side to move."""
        rows = []
        for rank in range(self.size - 1, -1, -1):
            row, empty = "", 0
            for file in range(self.size):
                piece = self.pieces.get((file, rank))
                if piece is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += piece
            if empty:
                row += str(empty)
            rows.append(row)
        return "/".join(rows) + " " + self.to_move

    @classmethod
    def from_text(cls, text: str, size: int) -> Position:
        """Reads a position string of a `size` x `size` draughts board."""
        try:
            grid, to_move = text.split()
        except ValueError:
            raise HarnessError(f"position {text!r}: expected ROWS SIDE") from None
        if to_move not in ("w", "b"):
            raise HarnessError(f"position {text!r}: the side to move is w or b")
        rows = grid.split("/")
        if len(rows) != size:
            raise HarnessError(f"position {text!r}: {len(rows)} rows, expected {size}")
        pieces: dict[Square, str] = {}
        for index, row in enumerate(rows):
            rank = size - 1 - index
            file, digits = 0, ""
            for char in row + "/":
                if char.isdigit():
                    digits += char
                    continue
                if digits:
                    file += int(digits)
                    digits = ""
                if char == "/":
                    break
                if char not in "MDmd":
                    raise HarnessError(f"position {text!r}: unknown piece letter {char!r}")
                pieces[(file, rank)] = char
                file += 1
            if file != size:
                raise HarnessError(f"position {text!r}: rank {rank + 1} has {file} cells")
        return cls(size, pieces, to_move)

    def is_own(self, square: Square) -> bool:
        piece = self.pieces.get(square)
        return piece is not None and piece.isupper() == (self.to_move == "w")

    def is_enemy(self, square: Square) -> bool:
        piece = self.pieces.get(square)
        return piece is not None and piece.isupper() != (self.to_move == "w")


def route_squares(text: str, size: int) -> tuple[list[Square], bool]:
    """A move text's squares and whether it is a capture: `c3-d4` or `c3xe5xg7`, or the same in
    numbers (`32-28`, `19x30`, `19x28x37`)."""
    capture = "x" in text
    parts = text.split("x" if capture else "-")
    if len(parts) < 2 or (not capture and len(parts) != 2):
        raise HarnessError(f"move {text!r}: expected FROM-TO or FROMxVIAx...xTO")
    return [parse_square(part, size) for part in parts], capture


def identity_of_line(position: Position, line: str) -> tuple[str, Identity]:
    """A line of `denkmeter moves --captured` in `position` (before the move): the move's text
    and its identity. The start and end are the text's first and last squares (`19x30`,
    `19x28x37`, `c3xe5`); what a capture takes is the line's ` takes` list, square names of
    the pieces it captures (`19x30 takes d4 f6`). Raises RulesDisagreement when the start holds
    no piece of the side to move, a taken square no enemy piece, or the text and the list
    disagree on whether the move captures."""
    text, _, taken = line.partition(" takes ")
    squares, capture = route_squares(text, position.size)
    if not position.is_own(squares[0]):
        raise RulesDisagreement(
            f"{text}: no piece of the side to move on {square_name(squares[0])} "
            f"in {position.to_text()}"
        )
    names = taken.split()
    captured = frozenset(parse_square(name, position.size) for name in names)
    if capture != bool(captured) or len(captured) != len(names):
        raise RulesDisagreement(f"{line!r}: the text and what it takes disagree in "
                                f"{position.to_text()}")
    for square in captured:
        if not position.is_enemy(square):
            raise RulesDisagreement(f"{line!r}: no enemy piece on {square_name(square)} in "
                                    f"{position.to_text()}")
    return text, (squares[0], squares[-1], captured)


def identity_of_played(position: Position, ours: dict[Identity, str], text: str) -> Identity:
    """The identity of Denkmeter's move `text`, one of its legal moves `ours` in `position`."""
    for identity, listed in ours.items():
        if listed == text:
            return identity
    raise RulesDisagreement(f"Denkmeter played {text}, not among its own legal moves "
                            f"{sorted(ours.values())} in {position.to_text()}")


def identity_text(identity: Identity) -> str:
    """An identity for messages: `c3xg7 (takes d4, f6)`."""
    start, end, captured = identity
    if not captured:
        return f"{square_name(start)}-{square_name(end)}"
    taken = ", ".join(square_name(sq) for sq in sorted(captured, key=lambda s: (s[1], s[0])))
    return f"{square_name(start)}x{square_name(end)} (takes {taken})"


def compare_move_sets(
    position: Position, ours: dict[Identity, str], theirs: set[Identity], peer: str
) -> str | None:
    """None when the two sets of identities agree, else a description of the difference."""
    if set(ours) == theirs:
        return None
    only_ours = sorted(identity_text(i) for i in set(ours) - theirs)
    only_theirs = sorted(identity_text(i) for i in theirs - set(ours))
    return (
        f"legal moves differ in {position.to_text()}: "
        f"only Denkmeter has [{', '.join(only_ours)}]; only {peer} has [{', '.join(only_theirs)}]"
    )


# ----------------------------------------------------------------------------- the binary


def find_denkmeter(explicit: str | None) -> str:
    """The `denkmeter` binary: --denkmeter, $DENKMETER, the repository's release build (also
    under $CARGO_TARGET_DIR), or one on the PATH."""
    candidates = []
    if explicit:
        candidates.append(Path(explicit))
    elif os.environ.get("DENKMETER"):
        candidates.append(Path(os.environ["DENKMETER"]))
    else:
        if os.environ.get("CARGO_TARGET_DIR"):
            candidates.append(Path(os.environ["CARGO_TARGET_DIR"]) / "release" / "denkmeter")
        candidates.append(REPO_ROOT / "target" / "release" / "denkmeter")
        on_path = shutil.which("denkmeter")
        if on_path:
            candidates.append(Path(on_path))
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    tried = ", ".join(str(p) for p in candidates) or "nothing"
    raise HarnessError(
        f"no denkmeter binary (tried {tried}): build it with "
        "`cargo build --release -p denkmeter` or pass --denkmeter PATH"
    )


LIMIT_OPTIONS = ("--time", "--depth", "--nodes")


class Denkmeter:
    """The command-line program, one process per question."""

    def __init__(self, binary: str, ruleset: str, seconds: float, player: str):
        self.binary = binary
        self.ruleset = ruleset
        try:
            self.player_args = shlex.split(player)
        except ValueError as error:
            raise HarnessError(f"--player {player!r}: {error}") from None
        names = {arg.split("=", 1)[0] for arg in self.player_args}
        # The player's own limit replaces the match's time per move.
        own_limit = bool(names & set(LIMIT_OPTIONS))
        self.limit_args = [] if own_limit else ["--time", f"{round(seconds * 1000)}ms"]

    def describe(self) -> str:
        return " ".join(["analyse", *self.limit_args, *self.player_args])

    def _run(self, args: list[str]) -> str:
        command = [self.binary, *args]
        try:
            done = subprocess.run(command, capture_output=True, text=True, check=False)
        except OSError as error:
            raise HarnessError(f"cannot run {self.binary}: {error}") from None
        if done.returncode != 0:
            raise HarnessError(
                f"`{shlex.join(command)}` failed ({done.returncode}): {done.stderr.strip()}"
            )
        return done.stdout

    def legal_moves(self, position: str | None) -> list[str]:
        """The legal moves in `position` (None: the ruleset's start), in Denkmeter's order,
        each with what it captures (`denkmeter moves --captured`)."""
        where = [] if position is None else [f"--position={position}"]
        out = self._run(["moves", self.ruleset, *where, "--captured"])
        return [line.strip() for line in out.splitlines() if line.strip()]

    def moves_by_identity(self, position: Position) -> dict[Identity, str]:
        """Denkmeter's legal moves in `position`, by identity; two texts for one identity would
        break the rules README's definition of a move."""
        moves: dict[Identity, str] = {}
        for line in self.legal_moves(position.to_text()):
            text, identity = identity_of_line(position, line)
            if identity in moves:
                raise RulesDisagreement(
                    f"Denkmeter lists {identity_text(identity)} twice ({moves[identity]}, "
                    f"{text}) in {position.to_text()}")
            moves[identity] = text
        return moves

    def check_player(self) -> None:
        """Fails early when the --player options are not accepted by `denkmeter analyse`: runs
        them at depth 1, without the player's own limit (whose value the first move checks)."""
        args, skip = [], False
        for arg in self.player_args:
            if skip:
                skip = False
            elif arg in LIMIT_OPTIONS:
                skip = True
            elif arg.split("=", 1)[0] not in LIMIT_OPTIONS:
                args.append(arg)
        self._run(["analyse", self.ruleset, "--depth", "1", *args])

    def _without_history(self, history: list[str]) -> list[str]:
        """The player's options for a search given the position alone: a
        --draw-after-quiet-plies limit less the plies of `history` since its last capture
        (a move text with `x`)."""
        quiet = 0
        for text in reversed(history):
            if "x" in text:
                break
            quiet += 1
        args, limit_next = [], False
        for arg in self.player_args:
            if limit_next:
                arg, limit_next = str(max(1, int(arg) - quiet)), False
            elif arg == "--draw-after-quiet-plies":
                limit_next = True
            elif arg.startswith("--draw-after-quiet-plies="):
                limit = int(arg.split("=", 1)[1])
                arg = f"--draw-after-quiet-plies={max(1, limit - quiet)}"
            args.append(arg)
        return args

    def best_move(self, position: str, history: list[str] | None = None
                  ) -> tuple[str, float, int | None]:
        """Denkmeter's move, the wall time it took (process start included) and the last
        completed depth. With `history`, the moves from the start that led to `position`,
        Denkmeter is given the game rather than the position, so that its search knows which
        positions occurred before."""
        started = time.perf_counter()
        where = [f"--position={position}"] if history is None else [
            "--moves=" + " ".join(history)]
        try:
            out = self._run(
                ["analyse", self.ruleset, *where, *self.limit_args, *self.player_args])
        except HarnessError as error:
            # The peer's referee plays on where Denkmeter's rules ended the game (a threefold
            # repetition): search the position alone, with what is left of a quiet-ply limit.
            if history is None or "the game is over" not in str(error):
                raise
            out = self._run(["analyse", self.ruleset, f"--position={position}",
                             *self.limit_args, *self._without_history(history)])
        elapsed = time.perf_counter() - started
        lines = [line.split() for line in out.splitlines() if line.strip()]
        if not lines or lines[-1][0] != "best" or len(lines[-1]) != 2:
            raise HarnessError(f"denkmeter analyse printed no `best MOVE` line:\n{out}")
        depth = None
        for words in reversed(lines):
            if words[0] == "depth" and len(words) > 1 and words[1].isdigit():
                depth = int(words[1])
                break
        return lines[-1][1], elapsed, depth


class HubDenkmeter:
    """The engine as it plays in a GUI: one `denkmeter hub` process for the whole match, which
    keeps its transposition table from one move to the next within a game, and starts each
    game with a new one ([`new_game`], as dame's engine is cleared for each). It is given the
    game's moves in Hub notation (`32-28`, `28x19x23`) and a fixed time a move, and answers
    with its move in the same notation."""

    # Seconds to wait for a line beyond the search's own time before giving up on the process.
    ANSWER_GRACE = 30.0

    def __init__(self, binary: str, ruleset: str, seconds: float, hash_mb: int | None = None):
        self.binary, self.ruleset, self.seconds = binary, ruleset, seconds
        self.hash_mb = hash_mb
        command = [binary, "hub", "--ruleset", ruleset]
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, bufsize=0)
        except OSError as error:
            raise HarnessError(f"cannot run {binary}: {error}") from None
        self._pending = b""
        try:
            self._send("hub")
            lines = self._read_until("wait", self.ANSWER_GRACE)
            if hash_mb is not None:
                self._send(f"set-param name=hash value={hash_mb}")
            if self._errors(lines):
                raise HarnessError(f"denkmeter hub: {self._errors(lines)[0]}")
            self.new_game()
        except HarnessError:
            self.process.kill()
            raise

    def new_game(self) -> None:
        """A new, empty transposition table (`init`), for the next game."""
        self._send("init")
        lines = self._read_until("ready", self.ANSWER_GRACE)
        if self._errors(lines):
            raise HarnessError(f"denkmeter hub: {self._errors(lines)[0]}")

    def describe(self) -> str:
        hash_text = "" if self.hash_mb is None else f", hash {self.hash_mb} MiB"
        return f"hub, move-time {self.seconds:g}{hash_text}"

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self._send("quit")
                self.process.wait(timeout=5)
            except (HarnessError, subprocess.TimeoutExpired):
                self.process.kill()

    def _send(self, line: str) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write((line + "\n").encode())
        except OSError as error:
            raise HarnessError(f"denkmeter hub stopped reading ({error})") from None

    def _read_line(self, deadline: float) -> str:
        """The next line, or HarnessError when the process ends or `deadline` (a
        time.monotonic() value) passes first. Reads the pipe itself, unbuffered, so that a
        line already read is never left waiting in a buffer that select cannot see."""
        assert self.process.stdout is not None
        descriptor = self.process.stdout.fileno()
        while b"\n" not in self._pending:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([descriptor], [], [], remaining)[0]:
                self.process.kill()
                raise HarnessError("denkmeter hub did not answer in time")
            chunk = os.read(descriptor, 65536)
            if not chunk:
                raise HarnessError(f"denkmeter hub ended (exit status {self.process.wait()})")
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        return line.decode("utf-8", errors="replace").strip()

    def _read_until(self, command: str, seconds: float) -> list[str]:
        """Lines up to and including the first whose command is `command`."""
        deadline = time.monotonic() + seconds
        lines = []
        while True:
            line = self._read_line(deadline)
            lines.append(line)
            if line.split(" ", 1)[0] == command:
                return lines

    @staticmethod
    def _errors(lines: list[str]) -> list[str]:
        return [line for line in lines if line.split(" ", 1)[0] == "error"]

    def _search(self, pos_line: str) -> tuple[list[str], float]:
        self._send(pos_line)
        self._send(f"level move-time={self.seconds:g}")
        started = time.perf_counter()
        self._send("go think")
        lines = self._read_until("done", self.seconds + self.ANSWER_GRACE)
        return lines, time.perf_counter() - started

    def best_move(self, hub_moves: list[str], hub_position: str | None = None
                  ) -> tuple[str, float, int | None]:
        """Denkmeter's move after `hub_moves` from the start, in Hub notation, the wall time
        from `go` to `done`, and the last depth reported. Where Denkmeter's own rules end the
        game there (a draw count such as the 25-, 16- or 5-move rule's, counted differently)
        and the peer's referee plays on, the position alone (`hub_position`, Hub's `pos=`
        string) is searched instead."""
        moves = " ".join(hub_moves)
        lines, elapsed = self._search(f'pos moves="{moves}"' if hub_moves else "pos")
        errors = self._errors(lines)
        if errors and hub_position is not None and all("game is over" in e for e in errors):
            lines, elapsed = self._search(f"pos pos={hub_position}")
            errors = self._errors(lines)
        if errors:
            raise HarnessError(f"denkmeter hub: {errors[0]}")
        fields = dict(word.split("=", 1) for word in lines[-1].split()[1:] if "=" in word)
        if "move" not in fields:
            raise HarnessError(f"denkmeter hub gave no move: {lines[-1]!r}")
        depth = None
        for line in reversed(lines[:-1]):
            info = dict(word.split("=", 1) for word in line.split()[1:] if "=" in word)
            if info.get("depth", "").isdigit():
                depth = int(info["depth"])
                break
        return fields["move"], elapsed, depth


def identity_of_hub_move(text: str, size: int) -> Identity:
    """A Hub move (`32-28`, `28x19x23`: start, end, then the captured squares, numbered as
    Denkmeter numbers them) as an identity."""
    parts = text.replace("x", "-").split("-")
    if len(parts) < 2 or any(not part.isdigit() for part in parts):
        raise HarnessError(f"{text!r} is not a Hub move")
    squares = [numbered_square(int(part), size) for part in parts]
    captured = frozenset(squares[2:])
    if len(captured) != len(squares) - 2 or (captured and "x" not in text):
        raise HarnessError(f"{text!r} is not a Hub move")
    return (squares[0], squares[1], captured)


# ----------------------------------------------------------------------------- options


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} must be at least 1")
    return value


def natural_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} must not be negative")
    return value


def seconds_arg(text: str) -> float:
    body = text[:-1] if text.endswith("s") else text
    try:
        value = float(body)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a time in seconds (e.g. 0.5)") from None
    if not (0.01 <= value <= 3600):
        raise argparse.ArgumentTypeError(f"{text}: from 0.01 to 3600 seconds")
    return value


def add_common_options(parser: argparse.ArgumentParser, random_plies: int, max_plies: int) -> None:
    parser.add_argument("--games", type=positive_int, default=40,
                        help="games to play (default 40); each opening is played twice, "
                             "colours swapped")
    parser.add_argument("--time", type=seconds_arg, default=0.5,
                        help="seconds per move for both sides (default 0.5)")
    parser.add_argument("--seed", type=natural_int, default=1,
                        help="seed of the openings and of the peer's randomness (default 1)")
    parser.add_argument("--random-plies", type=natural_int, default=random_plies,
                        help=f"random legal plies from the start position that make each "
                             f"opening (default {random_plies})")
    parser.add_argument("--max-plies", type=positive_int, default=max_plies,
                        help=f"adjudicate a draw after this many plies, the opening included "
                             f"(default {max_plies})")
    parser.add_argument("--player", default="",
                        help="extra `denkmeter analyse` options for Denkmeter, e.g. "
                             "--player='--depth 8' or --player=--hash=64 (write it with = when "
                             "it starts with a dash); a --time, --depth or --nodes here "
                             "replaces the match's --time for Denkmeter")
    parser.add_argument("--pgn", metavar="FILE",
                        help="write every game to FILE in Denkmeter's record format")
    parser.add_argument("--denkmeter", metavar="PATH",
                        help="the denkmeter binary (default: $DENKMETER, the repository's "
                             "target/release/denkmeter, or one on the PATH)")
    parser.add_argument("--check-rules", type=natural_int, default=0, metavar="N",
                        help="instead of a match, compare the legal moves of both sides in N "
                             "positions reached by random play, report every difference, and "
                             "exit")


# ----------------------------------------------------------------------------- games


@dataclass
class Game:
    """One finished game, seen from Denkmeter's side."""

    number: int
    opening: int
    opening_moves: list[str]
    denkmeter_white: bool
    result: str  # 1-0, 0-1 or 1/2-1/2
    termination: str  # the referee's words
    record_termination: str  # Denkmeter's Reason key, for the record file
    moves: list[str] = field(default_factory=list)
    denkmeter_seconds: list[float] = field(default_factory=list)
    peer_seconds: list[float] = field(default_factory=list)
    denkmeter_depths: list[int] = field(default_factory=list)
    peer_depths: list[int] = field(default_factory=list)
    final_position: str = ""

    @property
    def score(self) -> float:
        """Denkmeter's points: 1, 0.5 or 0."""
        if self.result == "1/2-1/2":
            return 0.5
        white_won = self.result == "1-0"
        return 1.0 if white_won == self.denkmeter_white else 0.0


def game_plan(games: int) -> list[tuple[int, bool]]:
    """(opening index, Denkmeter plays White) for each game: opening k is game 2k with Denkmeter
    White and game 2k+1 with colours swapped."""
    return [(number // 2, number % 2 == 0) for number in range(games)]


def game_line(game: Game, total: int, peer: str) -> str:
    colours = f"Denkmeter {'White' if game.denkmeter_white else 'Black'}"
    verdict = {1.0: "Denkmeter wins", 0.5: "draw", 0.0: f"{peer} wins"}[game.score]
    opening = " ".join(game.opening_moves) or "start position"
    return (
        f"game {game.number + 1:>3}/{total}  opening {game.opening + 1} [{opening}]  {colours}  "
        f"{game.result} ({verdict}, {game.termination})  {len(game.moves)} plies"
    )


def elo(score: float) -> float:
    """Elo difference for an expected score (fraction of points)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_text(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value + 0.0:+.0f}"  # + 0.0 turns -0.0 into 0.0


def mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def summary(games: list[Game], peer: str, setting: str,
            timing: str = "process start included") -> list[str]:
    """W-D-L from Denkmeter's side, score, Elo difference and a 95 % interval from the normal
    approximation on per-game scores, and the averages that show whether time was equal."""
    n = len(games)
    scores = [g.score for g in games]
    wins, draws, losses = scores.count(1.0), scores.count(0.5), scores.count(0.0)
    p = sum(scores) / n
    if n > 1:
        variance = sum((s - p) ** 2 for s in scores) / (n - 1)
    else:
        variance = 0.0
    margin = 1.96 * math.sqrt(variance / n)
    low, high = max(0.0, p - margin), min(1.0, p + margin)
    lines = [
        f"Denkmeter vs {peer} ({setting}): {n} game{'' if n == 1 else 's'}",
        f"  W-D-L {wins}-{draws}-{losses} (Denkmeter's side), score {100 * p:.1f} % "
        f"(95 % interval {100 * low:.1f} .. {100 * high:.1f} %)",
        f"  Elo difference {elo_text(elo(p))} (95 % interval {elo_text(elo(low))} .. "
        f"{elo_text(elo(high))}), normal approximation on per-game scores",
        f"  draws {100 * draws / n:.0f} %, mean length {mean([len(g.moves) for g in games]):.0f} "
        f"plies",
    ]
    own = [s for g in games for s in g.denkmeter_seconds]
    theirs = [s for g in games for s in g.peer_seconds]
    own_depth = [d for g in games for d in g.denkmeter_depths]
    their_depth = [d for g in games for d in g.peer_depths]
    if own and theirs:
        line = (f"  mean time per move: Denkmeter {mean(own):.3f} s ({timing}), "
                f"{peer} {mean(theirs):.3f} s")
        if own_depth and their_depth:
            line += (f"; mean depth: Denkmeter {mean(own_depth):.1f}, "
                     f"{peer} {mean(their_depth):.1f}")
        lines.append(line)
    terminations: dict[str, int] = {}
    for g in games:
        terminations[g.termination] = terminations.get(g.termination, 0) + 1
    lines.append("  endings: " + ", ".join(f"{k} {v}" for k, v in sorted(terminations.items())))
    return lines


def run_match(args: argparse.Namespace, play, peer: str, short_peer: str, setting: str,
              ruleset: str, family: str, timing: str = "process start included") -> None:
    """Plays args.games games with `play(number, opening_index, denkmeter_white) -> Game`,
    printing a line per game, rewriting the record file after each, and the summary at the end,
    or after the games finished so far when interrupted."""
    print(setting, flush=True)
    if args.games % 2:
        print(f"note: {args.games} games is odd; the last opening is played with one colour "
              "assignment only", flush=True)
    games: list[Game] = []
    try:
        for number, (opening_index, denkmeter_white) in enumerate(game_plan(args.games)):
            game = play(number, opening_index, denkmeter_white)
            games.append(game)
            print(game_line(game, args.games, short_peer), flush=True)
            if args.pgn:
                write_records(args.pgn, games, ruleset, family, peer, f"Denkmeter vs {peer}")
    except KeyboardInterrupt:
        print(f"interrupted after {len(games)} games", flush=True)
        if games:
            print("\n".join(summary(games, peer, setting, timing)))
        raise
    print("\n".join(summary(games, peer, setting, timing)))


def write_records(path: str, games: list[Game], ruleset: str, family: str, peer: str,
                  event: str) -> None:
    """Every game in Denkmeter's record format (tags, numbered moves, result), one after another.
    [Termination] uses Denkmeter's reason keys, so that `denkmeter record check` can replay a
    game copied into its own file; [RefereeTermination] keeps the referee's own words, and
    [FinalPosition] the last position, to judge a drawn or adjudicated game at a glance."""
    chunks = []
    for g in games:
        white, black = ("Denkmeter", peer) if g.denkmeter_white else (peer, "Denkmeter")
        tags = [
            ("Event", event), ("Game", family), ("Ruleset", ruleset), ("Round", str(g.number + 1)),
            ("White", white), ("Black", black), ("Result", g.result),
            ("Termination", g.record_termination), ("RefereeTermination", g.termination),
            ("OpeningPlies", str(len(g.opening_moves))),
            ("FinalPosition", g.final_position),
        ]
        text = "".join(f'[{k} "{v}"]\n' for k, v in tags) + "\n"
        line = ""
        for i, mv in enumerate(g.moves):
            token = f"{i // 2 + 1}. {mv}" if i % 2 == 0 else mv
            if line and len(line) + len(token) + 1 > 80:
                text += line + "\n"
                line = ""
            line = f"{line} {token}" if line else token
        line = f"{line} {g.result}" if line else g.result
        chunks.append(text + line + "\n")
    try:
        Path(path).write_text("\n".join(chunks), encoding="utf-8")
    except OSError as error:
        raise HarnessError(f"--pgn {path}: {error}") from None


def run_main(main) -> None:
    """Runs a script's main(), turning the harness's own errors into one clear line and exit
    status 2 (setup) or 3 (rules disagreement)."""
    try:
        main()
    except HarnessError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    except RulesDisagreement as error:
        print(f"RULES DISAGREEMENT: {error}", file=sys.stderr)
        sys.exit(3)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)

#!/usr/bin/env python3
"""Denkmeter against the engine of dame-rs (PyPI `dame-rs`, module `dame`) at International
draughts, ruleset `international`.

The referee is dame's `Board`, which applies the FMJD rules: compulsory capture of the most
pieces, and the draw rules (threefold repetition, 25 king moves each without capture, the 16-move
and 5-move endgame rules). Denkmeter is asked for a move one process per move
(`denkmeter analyse international --moves=... --time T`), or with `--hub` by one
`denkmeter hub` process for the whole match, which keeps its transposition table from move to
move, as dame's engine does, and starts each game with a new one, as dame's is cleared. At every ply its list of legal moves (`denkmeter moves`) must equal
dame's, move for move by start, end and captured squares; any difference stops the match as a
rules disagreement.

    match_dame.py [--games 40] [--time 0.5] [--random-plies 6] [--seed 1] [--max-plies 400]
                  [--player '--hash 64' | --hub [--hub-hash MB]] [--dame-hash 32] [--pgn FILE]
                  [--denkmeter PATH] [--versus PATH [--versus-player TEXT]]
    match_dame.py --check-rules 300      compare legal moves in random positions and exit

Squares: dame numbers them 1 to 50, White on 31-50 at the bottom; square 1 is b10, 5 is j10,
6 is a9, 46 is a1, 50 is i1. Denkmeter names them a1 to j10 with a1 dark, White on ranks 1-4.
"""

from __future__ import annotations

import argparse
import random
import sys

from common import (
    Denkmeter, Game, HarnessError, HubDenkmeter, Identity, Position, RulesDisagreement, Square,
    add_common_options, compare_move_sets, find_denkmeter, identity_of_hub_move,
    identity_of_played, identity_text, run_main, run_match,
)

try:
    import dame
except ImportError:
    sys.exit("error: the `dame` module is missing: run tools/peers/setup.sh and use its venv's "
             "python (target/peers-venv/bin/python)")

RULESET = "international"
SIZE = 10
START = ("1m1m1m1m1m/m1m1m1m1m1/1m1m1m1m1m/m1m1m1m1m1/10/10/1M1M1M1M1M/M1M1M1M1M1/1M1M1M1M1M/"
         "M1M1M1M1M1 w")


# ----------------------------------------------------------------------------- squares


def number_to_square(number: int) -> Square:
    """dame's square number (1-50) -> (file, rank) from 0. Row 0 is rank 10; on even rows the
    dark squares are b, d, f, h, j, on odd rows a, c, e, g, i."""
    row, index = divmod(number - 1, 5)
    return (2 * index + (1 if row % 2 == 0 else 0), SIZE - 1 - row)


SQUARE_TO_NUMBER = {number_to_square(n): n for n in range(1, 51)}


def square_to_number(square: Square) -> int:
    try:
        return SQUARE_TO_NUMBER[square]
    except KeyError:
        raise HarnessError(f"{square} is not a dark square of the 10x10 board") from None


# ----------------------------------------------------------------------------- positions


def position_of(board: dame.Board) -> Position:
    """dame's current position as Denkmeter's."""
    pieces = {}
    for number, piece in board.piece_map().items():
        letter = "D" if piece.is_king else "M"
        pieces[number_to_square(number)] = letter if piece.color == dame.WHITE else letter.lower()
    return Position(SIZE, pieces, "w" if board.turn == dame.WHITE else "b")


def hub_position_of(board: dame.Board) -> str:
    """dame's position as a Hub `pos=` string: the side to move (`W` or `B`), then squares 1
    to 50, each `w`/`b` (man), `W`/`B` (king) or `e` (empty)."""
    cells = ["e"] * 50
    for number, piece in board.piece_map().items():
        letter = "w" if piece.color == dame.WHITE else "b"
        cells[number - 1] = letter.upper() if piece.is_king else letter
    return ("W" if board.turn == dame.WHITE else "B") + "".join(cells)


def fen_of(position: Position) -> str:
    """Denkmeter's position as dame's FEN, e.g. `W:W31,K46:B1,K10`."""
    sides = {"W": [], "B": []}
    for square, letter in position.pieces.items():
        number = square_to_number(square)
        side = "W" if letter.isupper() else "B"
        sides[side].append((number, "K" if letter in "Dd" else ""))
    parts = [
        side + ",".join(f"{king}{n}" for n, king in sorted(sides[side])) for side in ("W", "B")
    ]
    return f"{position.to_move.upper()}:{parts[0]}:{parts[1]}"


def identity_of_dame(move: dame.Move) -> Identity:
    return (
        number_to_square(move.from_square),
        number_to_square(move.to_square),
        frozenset(number_to_square(n) for n in move.captured),
    )


def dame_moves(board: dame.Board) -> dict[Identity, dame.Move]:
    moves = {}
    for move in board.legal_moves:
        identity = identity_of_dame(move)
        if identity in moves:
            raise RulesDisagreement(
                f"dame lists {identity_text(identity)} twice ({moves[identity].hub()}, "
                f"{move.hub()}) in {board.fen()}")
        moves[identity] = move
    return moves


def synced_moves(denkmeter: Denkmeter, board: dame.Board
                 ) -> tuple[Position, dict[Identity, str], dict[Identity, dame.Move]]:
    """The position and both sides' legal moves, which must agree."""
    position = position_of(board)
    ours = denkmeter.moves_by_identity(position)
    theirs = dame_moves(board)
    difference = compare_move_sets(position, ours, set(theirs), "dame")
    if difference:
        raise RulesDisagreement(f"{difference} (dame FEN {board.fen()})")
    return position, ours, theirs


# ----------------------------------------------------------------------------- results

TERMINATIONS = [
    # (dame's termination, words for the game line, Denkmeter's reason key for records)
    (dame.Termination.NO_MOVES, "no moves", "no moves"),
    (dame.Termination.REPETITION, "threefold repetition", "threefold repetition"),
    (dame.Termination.TWENTY_FIVE_MOVES, "25-move rule", "move limit"),
    (dame.Termination.SIXTEEN_MOVES, "16-move rule", "move limit"),
    (dame.Termination.FIVE_MOVES, "5-move rule", "move limit"),
]


def describe_outcome(outcome: dame.Outcome) -> tuple[str, str, str]:
    """(result token, referee's words, Denkmeter's reason key)."""
    if outcome.winner is None:
        result = "1/2-1/2"
    else:
        result = "1-0" if outcome.winner == dame.WHITE else "0-1"
    for termination, words, key in TERMINATIONS:
        if outcome.termination == termination:
            return result, words, key
    raise HarnessError(f"unknown dame termination {outcome.termination!r}")


# ----------------------------------------------------------------------------- play


def random_opening(rng: random.Random, plies: int) -> list[dame.Move]:
    """`plies` uniformly random legal moves from the start; retried until the game is still on."""
    for _ in range(1000):
        board = dame.Board()
        moves = []
        for _ in range(plies):
            legal = board.legal_moves
            if not legal:
                break
            moves.append(board.push(rng.choice(legal)))
        if not board.is_game_over():
            return moves
    raise HarnessError(f"no opening of {plies} random plies leaves the game going")


Player = Denkmeter | HubDenkmeter


def denkmeter_move(player: Player, board: dame.Board, position: Position,
                   ours: dict[Identity, str], texts: list[str]
                   ) -> tuple[Identity, str, float, int | None]:
    """The move `player` chooses on `board` (whose legal moves in Denkmeter's notation are
    `ours`, and whose moves so far are `texts`): its identity, its text, the wall time and the
    depth."""
    if isinstance(player, HubDenkmeter):
        hub_text, seconds, depth = player.best_move([m.hub() for m in board.move_stack],
                                                    hub_position_of(board))
        identity = identity_of_hub_move(hub_text, SIZE)
        if identity not in ours:
            raise RulesDisagreement(f"denkmeter hub played {hub_text} "
                                    f"({identity_text(identity)}), not among its legal moves "
                                    f"{sorted(ours.values())} in {position.to_text()}")
        return identity, ours[identity], seconds, depth
    text, seconds, depth = player.best_move(position.to_text(), texts)
    return identity_of_played(position, ours, text), text, seconds, depth


def play_game(number: int, opening_index: int, opening: list[dame.Move], denkmeter_white: bool,
              denkmeter: Denkmeter, player: Player, engine: "dame.Engine | VersusDenkmeter",
              args: argparse.Namespace) -> Game:
    """One game; `denkmeter` lists Denkmeter's legal moves, `player` chooses its moves."""
    board = dame.Board()
    engine.clear()
    if isinstance(player, HubDenkmeter):
        player.new_game()
    texts: list[str] = []
    own_seconds, peer_seconds, own_depths, peer_depths = [], [], [], []
    for move in opening:
        _, ours, _ = synced_moves(denkmeter, board)
        texts.append(ours[identity_of_dame(move)])
        board.push(move)
    opening_texts = list(texts)
    while True:
        outcome = board.outcome()
        if outcome is not None:
            result, words, key = describe_outcome(outcome)
            if outcome.termination == dame.Termination.NO_MOVES:
                position = position_of(board)
                if denkmeter.legal_moves(position.to_text()):
                    raise RulesDisagreement(
                        f"dame ends the game for lack of moves in {position.to_text()}, "
                        "but Denkmeter has moves there")
            break
        if board.ply >= args.max_plies:
            result, words, key = "1/2-1/2", f"adjudicated at {args.max_plies} plies", "move limit"
            break
        position, ours, theirs = synced_moves(denkmeter, board)
        if not ours:
            raise RulesDisagreement(f"Denkmeter has no move in {position.to_text()}, dame has "
                                    f"{len(theirs)} and goes on")
        denkmeter_to_move = (board.turn == dame.WHITE) == denkmeter_white
        if denkmeter_to_move:
            identity, text, seconds, depth = denkmeter_move(player, board, position, ours, texts)
            if identity not in theirs:
                raise RulesDisagreement(
                    f"Denkmeter played {text} ({identity_text(identity)}) in "
                    f"{position.to_text()}, which matches none of dame's moves "
                    f"{[m.hub() for m in board.legal_moves]}")
            board.push(theirs[identity])
            texts.append(text)
            own_seconds.append(seconds)
            if depth is not None:
                own_depths.append(depth)
        else:
            found = (engine.search_game(board, args.time, texts)
                     if isinstance(engine, VersusDenkmeter)
                     else engine.search(board, time=args.time))
            move = found.best_move
            if move is None or not board.is_legal(move):
                raise HarnessError(f"dame's engine returned no legal move in {board.fen()}")
            identity = identity_of_dame(move)
            if identity not in ours:
                raise RulesDisagreement(f"dame played {move.hub()}, unknown to Denkmeter in "
                                        f"{position.to_text()}")
            texts.append(ours[identity])
            board.push(move)
            peer_seconds.append(found.elapsed)
            if not found.from_book:
                peer_depths.append(found.depth)
    return Game(number, opening_index, opening_texts, denkmeter_white, result, words, key, texts,
                own_seconds, peer_seconds, own_depths, peer_depths, position_of(board).to_text())


class VersusDenkmeter:
    """Another Denkmeter binary in dame's seat (`--versus`), to compare two builds or two
    settings against each other with dame's Board as the referee."""

    class Found:
        def __init__(self, best_move: dame.Move, elapsed: float, depth: int | None):
            self.best_move, self.elapsed, self.depth = best_move, elapsed, depth or 0
            self.from_book = False

    def __init__(self, player: Player, referee: Denkmeter):
        self.player, self.referee = player, referee

    def clear(self) -> None:
        if isinstance(self.player, HubDenkmeter):
            self.player.new_game()

    def search_game(self, board: dame.Board, seconds: float, texts: list[str]) -> Found:
        position = position_of(board)
        ours = self.referee.moves_by_identity(position)
        identity, text, elapsed, depth = denkmeter_move(self.player, board, position, ours,
                                                        texts)
        theirs = dame_moves(board)
        if identity not in theirs:
            raise RulesDisagreement(f"--versus played {text}, unknown to dame in "
                                    f"{position.to_text()}")
        return VersusDenkmeter.Found(theirs[identity], elapsed, depth)


# ----------------------------------------------------------------------------- rules check


def check_rules(denkmeter: Denkmeter, count: int, seed: int) -> int:
    """Random games from the start; in each position both move lists are compared, and the
    position is converted to dame's FEN and back. Returns the number of differences."""
    rng = random.Random(seed)
    start = position_of(dame.Board())
    problems = []
    if start.to_text() != START:
        problems.append(f"start position: dame's is {start.to_text()}, Denkmeter's is {START}")
    if denkmeter.legal_moves(None) != denkmeter.legal_moves(START):
        problems.append(f"Denkmeter's own start position is not {START}")
    seen = {"captures": 0, "multiple captures": 0, "king moves": 0, "king captures": 0,
            "promotions": 0}
    endings: dict[str, int] = {}
    draws: dict[str, str] = {}
    compared, games = 0, 0
    while compared < count:
        board = dame.Board()
        games += 1
        while compared < count:
            outcome = board.outcome()
            position = position_of(board)
            if Position.from_text(position.to_text(), SIZE) != position:
                problems.append(f"position string does not read back: {position.to_text()}")
            if dame.Board(fen_of(position)).fen() != board.fen():
                problems.append(f"FEN round trip: {board.fen()} -> {fen_of(position)}")
            try:
                ours = denkmeter.moves_by_identity(position)
            except RulesDisagreement as error:
                problems.append(str(error))
                break
            theirs = dame_moves(board)
            compared += 1
            # A game drawn by a draw rule has no legal moves in dame: nothing to compare.
            if outcome is None or outcome.termination == dame.Termination.NO_MOVES:
                difference = compare_move_sets(position, ours, set(theirs), "dame")
                if difference:
                    problems.append(f"{difference} (dame FEN {board.fen()})")
            if outcome is not None:
                _, words, _ = describe_outcome(outcome)
                endings[words] = endings.get(words, 0) + 1
                if outcome.termination == dame.Termination.NO_MOVES:
                    if ours:
                        problems.append(f"dame: no moves in {position.to_text()}; Denkmeter "
                                        f"has {len(ours)}")
                elif ours:
                    draws.setdefault(words, position.to_text())
                else:
                    problems.append(f"dame: a draw by the {words} in {position.to_text()}; "
                                    "Denkmeter: a loss for the side without moves")
                break
            moves = list(theirs.values())
            if any(m.is_capture for m in moves):
                seen["captures"] += 1
            if any(len(m.captured) > 1 for m in moves):
                seen["multiple captures"] += 1
            kings = {n for n, p in board.piece_map().items()
                     if p.is_king and p.color == board.turn}
            if any(m.from_square in kings for m in moves):
                seen["king moves"] += 1
                if any(m.is_capture for m in moves if m.from_square in kings):
                    seen["king captures"] += 1
            far_row = range(1, 6) if board.turn == dame.WHITE else range(46, 51)
            if any(m.from_square not in kings and m.to_square in far_row for m in moves):
                seen["promotions"] += 1
            board.push(rng.choice(moves))
    print(f"compared the legal moves of Denkmeter and dame in {compared} positions from "
          f"{games} random games (seed {seed})")
    print("  positions with: " + ", ".join(f"{k} {v}" for k, v in seen.items()))
    for problem in problems[:20]:
        print(f"  DIFFERENCE: {problem}")
    if len(problems) > 20:
        print(f"  ... and {len(problems) - 20} more")
    print(f"{len(problems)} differences in the legal moves")
    print("  random games ended by: " + (", ".join(f"{k} {v}" for k, v in sorted(endings.items()))
                                         or "none finished"))
    for words, example in sorted(draws.items()):
        print(f"rule difference: dame drew by the {words}, where Denkmeter, which has no draw "
              f"rules, plays on (e.g. {example})")
    return len(problems)


# ----------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Denkmeter against dame-rs's engine at International draughts, refereed "
                    "by dame's Board (FMJD rules).")
    add_common_options(parser, random_plies=6, max_plies=400)
    parser.add_argument("--dame-hash", type=int, default=32, metavar="MB",
                        help="dame's hash table in MiB (default 32, Denkmeter's default)")
    parser.add_argument("--versus", metavar="PATH",
                        help="play another denkmeter binary instead of dame's engine (dame "
                             "stays the referee): compares two builds")
    parser.add_argument("--versus-player", default="", metavar="TEXT",
                        help="extra `denkmeter analyse` options for the --versus binary")
    parser.add_argument("--hub", action="store_true",
                        help="drive Denkmeter (and a --versus binary) through one `denkmeter "
                             "hub` process for the match, which keeps its transposition table "
                             "between moves, instead of one `analyse` process a move")
    parser.add_argument("--hub-hash", type=int, metavar="MB",
                        help="with --hub: the hub's hash table in MiB (default: its own, 32)")
    args = parser.parse_args()
    if not 1 <= args.dame_hash <= 65536:
        parser.error("--dame-hash is from 1 to 65536 (MiB)")
    if args.hub and (args.player or args.versus_player):
        parser.error("--player and --versus-player are `analyse` options; with --hub the "
                     "only setting is --hub-hash")
    if args.hub_hash is not None and (not args.hub or not 1 <= args.hub_hash <= 16384):
        parser.error("--hub-hash goes with --hub and is from 1 to 16384 (MiB)")

    binary = find_denkmeter(args.denkmeter)
    denkmeter = Denkmeter(binary, RULESET, args.time, args.player)
    if args.check_rules:
        sys.exit(1 if check_rules(denkmeter, args.check_rules, args.seed) else 0)
    denkmeter.check_player()
    hubs: list[HubDenkmeter] = []
    try:
        run_with_players(args, binary, denkmeter, hubs)
    finally:
        for hub in hubs:
            hub.close()


def run_with_players(args: argparse.Namespace, binary: str, denkmeter: Denkmeter,
                     hubs: list[HubDenkmeter]) -> None:
    """The match, once the options are checked; every hub process started is added to `hubs`
    for the caller to close."""

    def hub_player(path: str) -> HubDenkmeter:
        hub = HubDenkmeter(path, RULESET, args.time, args.hub_hash)
        hubs.append(hub)
        return hub

    player: Player = hub_player(binary) if args.hub else denkmeter

    rng = random.Random(args.seed)
    openings = [random_opening(rng, args.random_plies) for _ in range((args.games + 1) // 2)]
    engine: dame.Engine | VersusDenkmeter
    if args.versus:
        versus = Denkmeter(args.versus, RULESET, args.time, args.versus_player)
        versus.check_player()
        versus_player: Player = hub_player(args.versus) if args.hub else versus
        engine = VersusDenkmeter(versus_player, denkmeter)
        peer = f"{args.versus}"
        setting = (f"{RULESET}, {args.time:g} s a move; Denkmeter `{player.describe()}` "
                   f"against {args.versus} `{versus_player.describe()}`; dame's Board "
                   f"referees; {args.random_plies} random opening plies, seed {args.seed}")
    else:
        engine = dame.Engine(hash_mb=args.dame_hash)
        peer = f"dame-rs {dame.__version__}"
        setting = (f"{RULESET}, {args.time:g} s a move; Denkmeter `{player.describe()}`, "
                   f"dame Engine(hash_mb={args.dame_hash}).search(time={args.time:g}); "
                   f"{args.random_plies} random opening plies, seed {args.seed}")

    def play(number: int, opening_index: int, denkmeter_white: bool) -> Game:
        return play_game(number, opening_index, openings[opening_index], denkmeter_white,
                         denkmeter, player, engine, args)

    timing = "from go to done" if args.hub else "process start included"
    run_match(args, play, peer, "dame", setting, RULESET, RULESET, timing)

if __name__ == "__main__":
    run_main(main)

#!/usr/bin/env python3
"""Denkmeter against OpenSpiel's bots (PyPI `open-spiel`, game `checkers`) at English checkers,
ruleset `english`.

The referee is OpenSpiel's checkers state. OpenSpiel plays one jump per action (the same player
keeps moving while the jumping piece can capture again, and a man crowned by a jump stops); the
harness groups those actions into whole moves, so that at every turn OpenSpiel's moves, as start,
end and captured squares, must equal Denkmeter's (`denkmeter moves english`). Any difference stops
the match as a rules disagreement.

Bots (`--bot`):
- mcts: OpenSpiel's C++ MCTSBot (UCT, c = 2, random-rollout evaluator, solver on). By default it
  searches for the match's time per move with its own wall-clock limit (`max_wall_clock_time`);
  `--mcts-simulations N` gives it a fixed simulation count instead, and `--calibrate` measures how
  many simulations fit in --time on this machine.
- alphabeta: OpenSpiel's alpha-beta (open_spiel.python.algorithms.minimax.alpha_beta_search), in
  iterative deepening: depth 1, 2, 3, ... until the time per move runs out; the deepest depth that
  finished gives the move (the unfinished one is abandoned at the deadline). OpenSpiel counts a
  ply per jump. Depth-limited search needs a value function, which OpenSpiel does not supply:
  the harness uses material, man 1 and king 1.5, scaled into (-1, 1) so that a won or lost end
  (+-1) always counts more. `--ab-depth N` searches a fixed depth instead.

    match_openspiel.py --bot mcts|alphabeta [--games 40] [--time 0.5] [--random-plies 4]
                       [--seed 1] [--max-plies 300] [--player '...'] [--pgn FILE]
    match_openspiel.py --check-rules 300      compare legal moves in random positions and exit
    match_openspiel.py --bot mcts --calibrate measure MCTS simulations per --time and exit
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
import time

from common import (
    Denkmeter, Game, HarnessError, Identity, Position, RulesDisagreement, Square,
    add_common_options, compare_move_sets, find_denkmeter, identity_of_played, identity_text,
    parse_square, route_squares, run_main, run_match,
)

try:
    import pyspiel
    from open_spiel.python.algorithms import minimax
except ImportError:
    sys.exit("error: OpenSpiel is missing: run tools/peers/setup.sh and use its venv's python "
             "(target/peers-venv/bin/python)")

RULESET = "english"
SIZE = 8
START = "1m1m1m1m/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/M1M1M1M1 w"
# OpenSpiel's cell characters: player 0 ('o', king '8') moves first from the bottom.
LETTERS = {"o": "M", "8": "D", "+": "m", "*": "d", ".": None}
NO_CAPTURE_LIMIT = 40  # OpenSpiel's kMaxMovesWithoutCapture, in actions


# ----------------------------------------------------------------------------- positions


def action_squares(state, player: int, action: int) -> tuple[Square, Square]:
    text = state.action_to_string(player, action)  # e.g. c3d4 or c3e5
    return parse_square(text[:2], SIZE), parse_square(text[2:], SIZE)


class Turn:
    """One whole move in OpenSpiel: the actions of one player until the turn passes."""

    def __init__(self, actions: list[int], squares: list[Square], captured: frozenset[Square]):
        self.actions = actions
        self.squares = squares
        self.captured = captured

    @property
    def identity(self) -> Identity:
        return (self.squares[0], self.squares[-1], self.captured)


def openspiel_turns(state) -> dict[Identity, list[Turn]]:
    """Every whole move of the player to move, by identity (several jump orders may share one)."""
    player = state.current_player()
    turns: dict[Identity, list[Turn]] = {}

    def walk(current, actions, squares, captured):
        for action in current.legal_actions():
            start, end = action_squares(current, player, action)
            child = current.clone()
            child.apply_action(action)
            taken = captured
            if abs(end[0] - start[0]) == 2:
                taken = captured | {((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)}
            path = (squares or [start]) + [end]
            if not child.is_terminal() and child.current_player() == player:
                walk(child, actions + [action], path, taken)
            else:
                turn = Turn(actions + [action], path, frozenset(taken))
                turns.setdefault(turn.identity, []).append(turn)

    walk(state, [], [], frozenset())
    return turns


def synced_moves(denkmeter: Denkmeter, state, to_move: str):
    position = turn_position(state, to_move)
    ours = denkmeter.moves_by_identity(position)
    theirs = openspiel_turns(state)
    difference = compare_move_sets(position, ours, set(theirs), "OpenSpiel")
    if difference:
        raise RulesDisagreement(difference)
    return position, ours, theirs


def turn_position(state, to_move: str) -> Position:
    """The position at the start of a turn; `to_move` is given because a finished OpenSpiel
    state names no current player."""
    position = position_of_board(state)
    position.to_move = to_move
    return position


def position_of_board(state) -> Position:
    lines = str(state).splitlines()
    pieces = {}
    for line in lines[:SIZE]:
        match = re.fullmatch(r"(\d+)([.o8+*]{%d})" % SIZE, line)
        if not match:
            raise HarnessError(f"unexpected OpenSpiel board line {line!r}")
        rank = int(match.group(1)) - 1
        for file, char in enumerate(match.group(2)):
            if LETTERS[char]:
                pieces[(file, rank)] = LETTERS[char]
    return Position(SIZE, pieces, "w")


def side(player: int) -> str:
    return "w" if player == 0 else "b"


def apply_turn(state, turn: Turn) -> None:
    player = state.current_player()
    for action in turn.actions:
        if state.current_player() != player:
            raise RulesDisagreement(f"OpenSpiel passed the turn in the middle of "
                                    f"{identity_text(turn.identity)}")
        state.apply_action(action)
    if not state.is_terminal() and state.current_player() == player:
        raise RulesDisagreement(f"OpenSpiel wants {identity_text(turn.identity)} to go on")


# ----------------------------------------------------------------------------- bots


def material_value(state, player: int) -> float:
    """Material for `player` (man 1, king 1.5), scaled into (-0.9, 0.9). Counts OpenSpiel's board
    characters; the rank label 8 of the first row is the one '8' that is not a king."""
    text = str(state)
    white = text.count("o") + 1.5 * (text.count("8") - 1)
    black = text.count("+") + 1.5 * text.count("*")
    value = (white - black) / 20.0
    return value if player == 0 else -value


class Timeout(Exception):
    """The alpha-beta bot's deadline passed inside a search."""


class AlphaBetaBot:
    def __init__(self, game, seconds: float, depth: int | None):
        self.game = game
        self.seconds = seconds
        self.depth = depth

    def step(self, state) -> tuple[int, int]:
        """(action, depth of the search that chose it)."""
        player = state.current_player()
        if self.depth is not None:
            _, action = minimax.alpha_beta_search(
                self.game, state=state, value_function=lambda s: material_value(s, player),
                maximum_depth=self.depth, maximizing_player_id=player)
            return action, self.depth
        deadline = time.perf_counter() + self.seconds
        best, best_depth = None, 0
        for depth in range(1, 65):
            def value(s, first=(depth == 1)):
                # Depth 1 always finishes, so that there is a move.
                if not first and time.perf_counter() > deadline:
                    raise Timeout
                return material_value(s, player)
            try:
                score, action = minimax.alpha_beta_search(
                    self.game, state=state, value_function=value, maximum_depth=depth,
                    maximizing_player_id=player)
            except Timeout:
                break
            best, best_depth = action, depth
            if abs(score) >= 1.0 or time.perf_counter() > deadline:
                break  # a proven result, or no time for another depth
        return best, best_depth


class MctsBot:
    def __init__(self, game, seconds: float, simulations: int | None, rollouts: int,
                 rng: random.Random):
        self.game = game
        self.seconds = seconds
        self.simulations = simulations
        self.rollouts = rollouts
        self.rng = rng

    def make(self, verbose: bool = False):
        seed = self.rng.randrange(2**31)
        evaluator = pyspiel.RandomRolloutEvaluator(self.rollouts, seed)
        if self.simulations is None:
            simulations, wall = 10**9, self.seconds
        else:
            simulations, wall = self.simulations, -1.0
        return pyspiel.MCTSBot(self.game, evaluator, 2.0, simulations, 1000, True, seed,
                               verbose, pyspiel.ChildSelectionPolicy.UCT, wall)

    def step(self, state) -> tuple[int, None]:
        return self.make().step(state), None


def play_bot_turn(bot, state) -> tuple[list[int], float, int | None]:
    """The bot's actions for one whole move: forced jumps are played without searching; every
    choice gets a search. Returns the actions, the seconds spent and the first search's depth."""
    player = state.current_player()
    actions, depth = [], None
    started = time.perf_counter()
    while not state.is_terminal() and state.current_player() == player:
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            action, found = bot.step(state)
            depth = found if depth is None else depth
        if action not in legal:
            raise HarnessError(f"the OpenSpiel bot chose an illegal action {action}")
        actions.append(action)
        state.apply_action(action)
    return actions, time.perf_counter() - started, depth


# ----------------------------------------------------------------------------- play


def random_opening(game, rng: random.Random, plies: int) -> list[list[int]]:
    """`plies` uniformly random whole moves from the start (as OpenSpiel actions)."""
    for _ in range(1000):
        state = game.new_initial_state()
        opening = []
        for _ in range(plies):
            if state.is_terminal():
                break
            turns = openspiel_turns(state)
            identity = rng.choice(sorted(turns))
            turn = rng.choice(turns[identity])
            apply_turn(state, turn)
            opening.append(turn.actions)
        if not state.is_terminal():
            return opening
    raise HarnessError(f"no opening of {plies} random plies leaves the game going")


def play_game(number: int, opening_index: int, opening: list[list[int]], denkmeter_white: bool,
              denkmeter: Denkmeter, game, bot, args: argparse.Namespace) -> Game:
    state = game.new_initial_state()
    texts: list[str] = []
    own_seconds, peer_seconds, own_depths, peer_depths = [], [], [], []
    to_move = "w"
    for actions in opening:
        _, ours, theirs = synced_moves(denkmeter, state, to_move)
        turn = next(t for ts in theirs.values() for t in ts if t.actions == actions)
        texts.append(ours[turn.identity])
        apply_turn(state, turn)
        to_move = "b" if to_move == "w" else "w"
    opening_texts = list(texts)
    while True:
        position = turn_position(state, to_move)
        if state.is_terminal():
            returns = state.returns()
            if returns[0] == 0:
                result, words, key = ("1/2-1/2", f"OpenSpiel's {NO_CAPTURE_LIMIT} plies without "
                                      "capture", "move limit")
            else:
                result = "1-0" if returns[0] > 0 else "0-1"
                words, key = "no moves", "no moves"
                if denkmeter.legal_moves(position.to_text()):
                    raise RulesDisagreement(
                        f"OpenSpiel ends the game in {position.to_text()}, but Denkmeter has "
                        "moves there")
            break
        if len(texts) >= args.max_plies:
            result, words, key = "1/2-1/2", f"adjudicated at {args.max_plies} plies", "move limit"
            break
        player = state.current_player()
        if side(player) != to_move:
            raise HarnessError(f"OpenSpiel's player {player} is to move, expected {to_move}")
        position, ours, theirs = synced_moves(denkmeter, state, to_move)
        denkmeter_to_move = (to_move == "w") == denkmeter_white
        if denkmeter_to_move:
            text, seconds, depth = denkmeter.best_move(position.to_text(), texts)
            identity = identity_of_played(position, ours, text)
            if identity not in theirs:
                raise RulesDisagreement(
                    f"Denkmeter played {text} ({identity_text(identity)}) in "
                    f"{position.to_text()}, which matches none of OpenSpiel's moves")
            route, _ = route_squares(text, SIZE)
            candidates = theirs[identity]
            turn = next((t for t in candidates if t.squares == route), candidates[0])
            apply_turn(state, turn)
            texts.append(text)
            own_seconds.append(seconds)
            if depth is not None:
                own_depths.append(depth)
        else:
            actions, seconds, depth = play_bot_turn(bot, state)
            turn = next((t for ts in theirs.values() for t in ts if t.actions == actions), None)
            if turn is None:
                raise RulesDisagreement(f"OpenSpiel's bot played actions {actions}, which make "
                                        f"no whole move in {position.to_text()}")
            texts.append(ours[turn.identity])
            peer_seconds.append(seconds)
            if depth is not None:
                peer_depths.append(depth)
        to_move = "b" if to_move == "w" else "w"
    final = turn_position(state, to_move).to_text()
    return Game(number, opening_index, opening_texts, denkmeter_white, result, words, key, texts,
                own_seconds, peer_seconds, own_depths, peer_depths, final)


# ----------------------------------------------------------------------------- rules check


def can_jump_from(position: Position, square: Square, king: bool) -> bool:
    """Whether the piece of the side to move on `square` (a man, or a king if `king`) could jump
    an adjacent enemy piece."""
    forward = 1 if position.to_move == "w" else -1
    for df, dr in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
        if not king and dr != forward:
            continue
        over = (square[0] + df, square[1] + dr)
        land = (square[0] + 2 * df, square[1] + 2 * dr)
        if (0 <= land[0] < SIZE and 0 <= land[1] < SIZE and position.is_enemy(over)
                and land not in position.pieces):
            return True
    return False


def check_rules(denkmeter: Denkmeter, game, count: int, seed: int) -> int:
    """Random games from the start; at every turn both move lists are compared. Returns the
    number of differences in the moves; OpenSpiel's draw rule is reported apart."""
    rng = random.Random(seed)
    problems, draws_by_limit = [], []
    start = turn_position(game.new_initial_state(), "w")
    if start.to_text() != START:
        problems.append(f"start position: OpenSpiel's is {start.to_text()}, Denkmeter's {START}")
    if denkmeter.legal_moves(None) != denkmeter.legal_moves(START):
        problems.append(f"Denkmeter's own start position is not {START}")
    if game.new_initial_state().current_player() != 0:
        problems.append("OpenSpiel's first player is not player 0 ('o', the bottom side)")
    seen = {"captures": 0, "multiple captures": 0, "several jump orders": 0, "king moves": 0,
            "king captures": 0, "crownings": 0, "crowning stopped a capture": 0, "losses": 0}
    compared, games = 0, 0
    while compared < count:
        state = game.new_initial_state()
        to_move = "w"
        games += 1
        while compared < count:
            position = turn_position(state, to_move)
            if Position.from_text(position.to_text(), SIZE) != position:
                problems.append(f"position string does not read back: {position.to_text()}")
            try:
                ours = denkmeter.moves_by_identity(position)
            except RulesDisagreement as error:
                problems.append(str(error))
                break
            compared += 1
            if state.is_terminal():
                if state.returns()[0] == 0:
                    draws_by_limit.append((position.to_text(), len(ours)))
                    if not ours:
                        problems.append(f"{position.to_text()}: OpenSpiel calls it a draw, "
                                        "Denkmeter a loss for the side without moves")
                else:
                    seen["losses"] += 1
                    if ours:
                        problems.append(f"OpenSpiel: no moves in {position.to_text()}; "
                                        f"Denkmeter has {len(ours)}")
                break
            theirs = openspiel_turns(state)
            difference = compare_move_sets(position, ours, set(theirs), "OpenSpiel")
            if difference:
                problems.append(difference)
            kings = {sq for sq, p in position.pieces.items() if p in "Dd" and position.is_own(sq)}
            identities = list(theirs)
            if any(i[2] for i in identities):
                seen["captures"] += 1
            if any(len(i[2]) > 1 for i in identities):
                seen["multiple captures"] += 1
            if any(len(ts) > 1 for ts in theirs.values()):
                seen["several jump orders"] += 1
            if any(i[0] in kings for i in identities):
                seen["king moves"] += 1
                if any(i[2] for i in identities if i[0] in kings):
                    seen["king captures"] += 1
            far = SIZE - 1 if to_move == "w" else 0
            crowning = [i for i in identities if i[0] not in kings and i[1][1] == far]
            if crowning:
                seen["crownings"] += 1
            for i in crowning:
                if i[2]:
                    after = Position(SIZE, dict(position.pieces), to_move)
                    for sq in i[2]:
                        del after.pieces[sq]
                    letter = after.pieces.pop(i[0])
                    after.pieces[i[1]] = "D" if letter.isupper() else "d"
                    if can_jump_from(after, i[1], king=True):
                        seen["crowning stopped a capture"] += 1
                        break
            identity = rng.choice(sorted(theirs))
            apply_turn(state, rng.choice(theirs[identity]))
            to_move = "b" if to_move == "w" else "w"
    print(f"compared the legal moves of Denkmeter and OpenSpiel in {compared} positions from "
          f"{games} random games (seed {seed})")
    print("  positions with: " + ", ".join(f"{k} {v}" for k, v in seen.items()))
    for problem in problems[:20]:
        print(f"  DIFFERENCE: {problem}")
    if len(problems) > 20:
        print(f"  ... and {len(problems) - 20} more")
    print(f"{len(problems)} differences in the legal moves")
    if draws_by_limit:
        example, moves = draws_by_limit[0]
        print(f"rule difference: {len(draws_by_limit)} of the {games} random games ended in "
              f"OpenSpiel's draw after {NO_CAPTURE_LIMIT} actions without a capture, where "
              f"Denkmeter plays on (e.g. {example}, {moves} moves there)")
    return len(problems)


def calibrate(game, seconds: float, rollouts: int, seed: int, positions: int = 6) -> None:
    """How many MCTS simulations OpenSpiel's bot finishes in `seconds` on this machine: its
    verbose report ("Finished N sims in T secs"), read from the C++ standard error."""
    rng = random.Random(seed)
    bot = MctsBot(game, seconds, None, rollouts, rng)
    counts = []
    for opening in [random_opening(game, rng, 4 + 2 * k) for k in range(positions)]:
        state = game.new_initial_state()
        for actions in opening:
            for action in actions:
                state.apply_action(action)
        if len(state.legal_actions()) < 2:
            continue
        with tempfile.TemporaryFile() as captured:
            sys.stderr.flush()
            saved = os.dup(2)
            os.dup2(captured.fileno(), 2)
            try:
                bot.make(verbose=True).step(state)
            finally:
                os.dup2(saved, 2)
                os.close(saved)
            captured.seek(0)
            report = captured.read().decode("utf-8", "replace")
        match = re.search(r"Finished (\d+) sims in ([\d.]+) secs", report)
        if not match:
            raise HarnessError("OpenSpiel's MCTS bot printed no 'Finished N sims' report")
        sims, took = int(match.group(1)), float(match.group(2))
        counts.append(sims)
        print(f"  position after {len(opening)} plies: {sims} simulations in {took:.3f} s")
    if not counts:
        raise HarnessError("no calibration position had a choice of moves")
    average = sum(counts) / len(counts)
    print(f"MCTS (rollouts {rollouts}): about {average:.0f} simulations in {seconds:g} s a move "
          f"({average / seconds:.0f} a second); `--mcts-simulations {round(average)}` fixes "
          "that count")


# ----------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Denkmeter against OpenSpiel's MCTS or alpha-beta bot at English checkers, "
                    "refereed by OpenSpiel's checkers.")
    add_common_options(parser, random_plies=4, max_plies=300)
    parser.add_argument("--bot", choices=("mcts", "alphabeta"),
                        help="OpenSpiel's bot (required for a match)")
    parser.add_argument("--mcts-simulations", type=int, metavar="N",
                        help="a fixed simulation count instead of --time for the MCTS bot")
    parser.add_argument("--mcts-rollouts", type=int, default=1, metavar="N",
                        help="random rollouts per MCTS evaluation (default 1)")
    parser.add_argument("--ab-depth", type=int, metavar="N",
                        help="a fixed alpha-beta depth (OpenSpiel actions) instead of "
                             "iterative deepening within --time")
    parser.add_argument("--calibrate", action="store_true",
                        help="measure how many MCTS simulations fit in --time, and exit")
    args = parser.parse_args()
    if args.mcts_simulations is not None and args.mcts_simulations < 2:
        parser.error("--mcts-simulations must be at least 2")
    if not 1 <= args.mcts_rollouts <= 1000:
        parser.error("--mcts-rollouts is from 1 to 1000")
    if args.ab_depth is not None and not 1 <= args.ab_depth <= 64:
        parser.error("--ab-depth is from 1 to 64")
    if args.bot != "mcts" and (args.mcts_simulations is not None or args.calibrate):
        parser.error("--mcts-simulations and --calibrate go with --bot mcts")
    if args.bot != "alphabeta" and args.ab_depth is not None:
        parser.error("--ab-depth goes with --bot alphabeta")

    game = pyspiel.load_game("checkers")
    if args.calibrate:
        calibrate(game, args.time, args.mcts_rollouts, args.seed)
        return
    denkmeter = Denkmeter(find_denkmeter(args.denkmeter), RULESET, args.time, args.player)
    if args.check_rules:
        sys.exit(1 if check_rules(denkmeter, game, args.check_rules, args.seed) else 0)
    if args.bot is None:
        parser.error("--bot mcts|alphabeta is required for a match")
    denkmeter.check_player()

    rng = random.Random(args.seed)
    if args.bot == "mcts":
        bot = MctsBot(game, args.time, args.mcts_simulations, args.mcts_rollouts,
                      random.Random(args.seed + 1))
        how = (f"{args.mcts_simulations} simulations" if args.mcts_simulations
               else f"max_wall_clock_time {args.time:g} s")
        peer = "OpenSpiel MCTS"
        detail = f"MCTSBot(uct_c 2, rollouts {args.mcts_rollouts}, solve, {how})"
    else:
        bot = AlphaBetaBot(game, args.time, args.ab_depth)
        how = (f"depth {args.ab_depth}" if args.ab_depth
               else f"iterative deepening within {args.time:g} s")
        peer = "OpenSpiel alpha-beta"
        detail = f"alpha_beta_search(material value, {how})"
    setting = (f"{RULESET}, {args.time:g} s a move; Denkmeter `{denkmeter.describe()}`, "
               f"open-spiel {detail}; {args.random_plies} random opening plies, "
               f"seed {args.seed}")
    openings = [random_opening(game, rng, args.random_plies)
                for _ in range((args.games + 1) // 2)]

    def play(number: int, opening_index: int, denkmeter_white: bool) -> Game:
        return play_game(number, opening_index, openings[opening_index], denkmeter_white,
                         denkmeter, game, bot, args)

    run_match(args, play, peer, peer, setting, RULESET, RULESET)

if __name__ == "__main__":
    run_main(main)

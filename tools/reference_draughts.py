#!/usr/bin/env python3
"""Independent reference move generator and perft counter for the draughts family.

Rulesets: the 12 Scandinavian checkers rulesets scandinavian[-8x8][-medium|-weak][-free],
international, english, and the Sjekkers rulesets sjekkers, sjekkers-sideways, sjekkers-checkers.

Written straight from the rules files in /work/shared/rules (README.md, scandinavian.md,
draughts-reference.md, sjekkers.md). Standard library only, deliberately slow and simple so that
it can be checked by reading. It shares no code with the Rust implementation and is meant to
cross-check it.

Usage:
    python3 tools/reference_draughts.py RULESET DEPTH [POSITION]  -> "D COUNT" for D = 1..DEPTH
    python3 tools/reference_draughts.py RULESET moves [POSITION]  -> legal moves, one per line
    python3 tools/reference_draughts.py RULESET divide DEPTH [POSITION]
                                   -> each legal move with its perft(DEPTH-1), then the total
    python3 tools/reference_draughts.py list                      -> the ruleset names

Model. Every game here is a set of cells plus direction vectors:
- Square boards: a cell is (file, rank), both 0-based (a1 = (0, 0)). Only the dark (playing)
  squares are cells; light squares must be empty in a position string and are otherwise ignored.
  Diagonal vectors are (+-1, +-1). Scandinavian orthogonal vectors are (0, +-2) and (+-2, 0): one
  step along a rank or file goes from a dark square to the next dark square, skipping the light
  square in between. A short jump over the piece at cell+v lands on cell+2v.
- Sjekkers: a cell is (row, number), row 0 = a ... 8 = i, number 1..9 as in the rules file. The six
  vectors are (0, -1), (0, +1) (sideways, along the row), (+1, 0), (+1, +1) (White's forward
  lines), (-1, 0), (-1, -1) (White's backward lines, Black's forward lines).

A board is a dict {cell: content}; content is "M"/"m" (man, disk), "K"/"k" (dame, king, Sjek),
uppercase White, or "." for empty. Boards are never modified in place.

A move is a tuple (identity, text, board_after, side_after). identity = (start, end, frozenset of
captured cells) (the promotion follows from the end square), so two routes with the same start,
end and captured pieces are one move. Among such routes the text shown is the alphabetically
first.

Capture search: the capturing piece is lifted from its start square (so it may pass over or end
on it); captured pieces stay on the board until the move is over, so they block lines and
landings, and a cell already captured can never be jumped again. A capture continues while the
piece can capture again from where it landed (in chaining rulesets); a flying piece may land on
any empty cell behind the captured piece, and a landing from which no further capture exists
simply ends the sequence (this matters only in the Scandinavian free-line rulesets). With the
majority rule only the sequences capturing the most pieces (men and kings alike) are kept.

Sjekkers: a side without pieces has lost, so such a position has no moves; a player with pieces
but no move has the single move "pass" if the opponent could move, otherwise nothing (draw).
"""

import sys

WHITE, BLACK = "w", "b"


def other(side):
    return BLACK if side == WHITE else WHITE


def colour_of(content):
    if content == ".":
        return None
    return WHITE if content.isupper() else BLACK


def is_king(content):
    return content in ("K", "k")


def add(cell, vector, times=1):
    return (cell[0] + times * vector[0], cell[1] + times * vector[1])


# ---------------------------------------------------------------- directions

DIAGONAL = [(1, 1), (-1, 1), (1, -1), (-1, -1)]


def flip(vectors, side):
    """Vectors are written for White (forward = +rank / +row); Black's are mirrored in rank."""
    if side == WHITE:
        return list(vectors)
    return [(df, -dr) for df, dr in vectors]


# Square boards, as seen by White (north = +rank).
N, S, E, W = (0, 2), (0, -2), (2, 0), (-2, 0)  # orthogonal: next dark square, two squares away
NE, NW, SE, SW = (1, 1), (-1, 1), (1, -1), (-1, -1)
SCANDINAVIAN_MAN_CAPTURES = {
    "strong": [N, NE, NW, E, W, S, SE, SW],
    "medium": [N, NE, NW, E, W],
    "weak": [N, NE, NW],
}
SCANDINAVIAN_DAME = [NE, NW, SE, SW, N, S, E, W]

# Sjekkers, as seen by White (forward = +row).
HEX_FORWARD = [(1, 0), (1, 1)]
HEX_BACKWARD = [(-1, 0), (-1, -1)]
HEX_SIDEWAYS = [(0, 1), (0, -1)]
HEX_ALL = HEX_FORWARD + HEX_BACKWARD + HEX_SIDEWAYS


def hex_flip(vectors, side):
    """Black's forward is White's backward: negate both coordinates."""
    if side == WHITE:
        return list(vectors)
    return [(-dr, -dn) for dr, dn in vectors]


# ---------------------------------------------------------------- the games

class Game:
    """Everything a ruleset decides. Vector lists are functions of the side to move."""

    name = None
    start = None
    cells = None               # list of cells
    man_steps = None           # side -> vectors (one step, to an empty cell)
    man_captures = None        # side -> vectors (short jump over cell+v onto cell+2v)
    own_jumps = None           # side -> vectors (jump over an own piece; Sjekkers only) or None
    king_moves = None          # vectors
    king_moves_fly = False     # slide any distance (True) or one step (False)
    king_captures = None       # vectors
    king_captures_fly = False  # long capture (True) or short jump (False)
    chain = True               # a capture continues while the piece can capture again
    majority = True            # the greatest number of pieces must be captured
    crown_ends_move = False    # a man landing on the far row during a capture stops there
    stuck_passes = False       # Sjekkers: a player with no move passes (True) or loses (False)

    def far_row(self, cell, side):
        raise NotImplementedError

    def name_of(self, cell):
        raise NotImplementedError


class SquareGame(Game):
    size = 10
    dark_parity = 0  # a cell is dark when (file + rank) % 2 == dark_parity
    man_letters = ("M", "m")
    king_letters = ("D", "d")

    def __init__(self):
        self.cells = [(f, r) for r in range(self.size) for f in range(self.size)
                      if (f + r) % 2 == self.dark_parity]

    def far_row(self, cell, side):
        return cell[1] == (self.size - 1 if side == WHITE else 0)

    def name_of(self, cell):
        return "abcdefghijklmnopqrstuvwxyz"[cell[0]] + str(cell[1] + 1)

    def parse(self, text):
        fields = text.split()
        if len(fields) != 2 or fields[1] not in (WHITE, BLACK):
            raise ValueError("position must be 'ROWS SIDE' with SIDE w or b: %r" % text)
        rows = fields[0].split("/")
        if len(rows) != self.size:
            raise ValueError("expected %d rows, got %d" % (self.size, len(rows)))
        board = {cell: "." for cell in self.cells}
        letters = {self.man_letters[0]: "M", self.man_letters[1]: "m",
                   self.king_letters[0]: "K", self.king_letters[1]: "k"}
        for row_index, row in enumerate(rows):
            rank = self.size - 1 - row_index
            file = 0
            i = 0
            while i < len(row):
                if row[i].isdigit():
                    j = i
                    while j < len(row) and row[j].isdigit():
                        j += 1
                    file += int(row[i:j])
                    i = j
                    continue
                if row[i] not in letters:
                    raise ValueError("unknown piece letter %r" % row[i])
                if file >= self.size:
                    raise ValueError("row %r is too long" % row)
                if (file, rank) not in board:
                    raise ValueError("piece on a light square %s" % self.name_of((file, rank)))
                board[(file, rank)] = letters[row[i]]
                file += 1
                i += 1
            if file != self.size:
                raise ValueError("row %r has %d cells, expected %d" % (row, file, self.size))
        return board, fields[1]


class Scandinavian(SquareGame):
    dark_parity = 1  # mirrored board: a1 light, file+rank odd is dark
    king_moves = SCANDINAVIAN_DAME
    king_moves_fly = True
    king_captures = SCANDINAVIAN_DAME
    king_captures_fly = True

    def __init__(self, size, strength, free):
        self.size = size
        self.strength = strength
        self.majority = not free
        self.name = "scandinavian" + ("-8x8" if size == 8 else "") + \
            ("" if strength == "strong" else "-" + strength) + ("-free" if free else "")
        self.start = {
            10: "m1m1m1m1m1/1m1m1m1m1m/m1m1m1m1m1/1m1m1m1m1m/10/10/"
                "M1M1M1M1M1/1M1M1M1M1M/M1M1M1M1M1/1M1M1M1M1M w",
            8: "m1m1m1m1/1m1m1m1m/m1m1m1m1/8/8/1M1M1M1M/M1M1M1M1/1M1M1M1M w",
        }[size]
        SquareGame.__init__(self)

    def man_steps(self, side):
        return flip([NE, NW], side)

    def man_captures(self, side):
        return flip(SCANDINAVIAN_MAN_CAPTURES[self.strength], side)


class International(SquareGame):
    name = "international"
    size = 10
    dark_parity = 0
    start = ("1m1m1m1m1m/m1m1m1m1m1/1m1m1m1m1m/m1m1m1m1m1/10/10/"
             "1M1M1M1M1M/M1M1M1M1M1/1M1M1M1M1M/M1M1M1M1M1 w")
    king_moves = DIAGONAL
    king_moves_fly = True
    king_captures = DIAGONAL
    king_captures_fly = True

    def man_steps(self, side):
        return flip([NE, NW], side)

    def man_captures(self, side):
        return list(DIAGONAL)


class English(SquareGame):
    name = "english"
    size = 8
    dark_parity = 0
    start = "1m1m1m1m/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/M1M1M1M1 w"
    king_moves = DIAGONAL
    king_moves_fly = False
    king_captures = DIAGONAL
    king_captures_fly = False
    majority = False
    crown_ends_move = True

    def man_steps(self, side):
        return flip([NE, NW], side)

    def man_captures(self, side):
        return flip([NE, NW], side)


class Sjekkers(Game):
    start = "ddddd/dddddd/ddddddd/8/9/8/DDDDDDD/DDDDDD/DDDDD w"
    ROWS = "abcdefghi"

    def __init__(self, variant):
        self.variant = variant
        self.name = "sjekkers" if variant == "plain" else "sjekkers-" + variant
        self.cells = [(r, n) for r in range(9) for n in self.row_numbers(r)]
        if variant == "checkers":
            # English-checkers conventions on the hexagon
            self.king_moves = HEX_ALL
            self.king_moves_fly = False
            self.king_captures = HEX_ALL
            self.king_captures_fly = False
            self.chain = True
            self.majority = False
            self.crown_ends_move = True
            self.stuck_passes = False
        else:
            self.king_moves = HEX_ALL
            self.king_moves_fly = True
            self.king_captures = HEX_ALL
            self.king_captures_fly = True
            self.chain = False          # one jump per turn
            self.majority = False       # the player chooses among captures
            self.crown_ends_move = False
            self.stuck_passes = True

    @staticmethod
    def row_numbers(r):
        return range(max(1, r - 3), min(5 + r, 9) + 1)

    def man_steps(self, side):
        return hex_flip(HEX_FORWARD, side)

    def man_captures(self, side):
        if self.variant == "checkers":
            return hex_flip(HEX_FORWARD, side)
        vectors = HEX_FORWARD + HEX_BACKWARD
        if self.variant == "sideways":
            vectors = vectors + HEX_SIDEWAYS
        return hex_flip(vectors, side)

    def own_jumps(self, side):
        if self.variant == "checkers":
            return None
        return hex_flip(HEX_FORWARD, side)

    def far_row(self, cell, side):
        return cell[0] == (8 if side == WHITE else 0)

    def name_of(self, cell):
        return self.ROWS[cell[0]] + str(cell[1])

    def parse(self, text):
        fields = text.split()
        if len(fields) != 2 or fields[1] not in (WHITE, BLACK):
            raise ValueError("position must be 'ROWS SIDE' with SIDE w or b: %r" % text)
        rows = fields[0].split("/")
        if len(rows) != 9:
            raise ValueError("expected 9 rows, got %d" % len(rows))
        letters = {"D": "M", "d": "m", "S": "K", "s": "k"}
        board = {}
        for row_index, row in enumerate(rows):
            r = 8 - row_index
            numbers = list(self.row_numbers(r))
            contents = []
            i = 0
            while i < len(row):
                if row[i].isdigit():
                    j = i
                    while j < len(row) and row[j].isdigit():
                        j += 1
                    contents.extend(["."] * int(row[i:j]))
                    i = j
                    continue
                if row[i] not in letters:
                    raise ValueError("unknown piece letter %r" % row[i])
                contents.append(letters[row[i]])
                i += 1
            if len(contents) != len(numbers):
                raise ValueError("row %s has %d cells, expected %d"
                                 % (self.ROWS[r], len(contents), len(numbers)))
            for n, content in zip(numbers, contents):
                board[(r, n)] = content
        return board, fields[1]


GAMES = {}
for _size in (10, 8):
    for _strength in ("strong", "medium", "weak"):
        for _free in (False, True):
            _game = Scandinavian(_size, _strength, _free)
            GAMES[_game.name] = _game
for _game in (International(), English(), Sjekkers("plain"), Sjekkers("sideways"),
              Sjekkers("checkers")):
    GAMES[_game.name] = _game


# ---------------------------------------------------------------- move generation

def capture_sequences(game, board, side, start):
    """All complete capture sequences of the piece on start.

    Yields (end, captured_cells, landings, crowned). A sequence is complete when the piece cannot
    capture again (or, without chains, after its one jump; or when a man is crowned in English
    style)."""
    piece = board[start]
    enemy = other(side)
    work = dict(board)
    work[start] = "."  # lifted: the piece may pass over or land on its own start square
    results = []

    def jumps(cell, king, captured):
        """(jumped cell, landing cell) pairs available from cell."""
        found = []
        vectors = game.king_captures if king else game.man_captures(side)
        flying = king and game.king_captures_fly
        for v in vectors:
            if flying:
                over = add(cell, v)
                while over in work and work[over] == ".":
                    over = add(over, v)
            else:
                over = add(cell, v)
            if over not in work or colour_of(work[over]) != enemy or over in captured:
                continue  # captured pieces are still on the board: they block, never re-jumped
            land = add(over, v)
            while land in work and work[land] == ".":
                found.append((over, land))
                if not flying:
                    break
                land = add(land, v)
        return found

    def extend(cell, king, captured, landings):
        options = jumps(cell, king, captured) if (game.chain or not captured) else []
        if not options:
            if captured:
                crowned = not king and game.far_row(cell, side)
                results.append((cell, frozenset(captured), landings, crowned))
            return
        for over, land in options:
            now_captured = captured | {over}
            if not king and game.crown_ends_move and game.far_row(land, side):
                results.append((land, frozenset(now_captured), landings + [land], True))
                continue
            extend(land, king, now_captured, landings + [land])

    extend(start, is_king(piece), frozenset(), [])
    return results


def promote(content, side):
    return "K" if side == WHITE else "k"


def make_move(board, side, start, end, captured, crowned):
    after = dict(board)
    piece = after[start]
    after[start] = "."
    for cell in captured:
        after[cell] = "."
    after[end] = promote(piece, side) if crowned else piece
    return after


def moves_without_pass(game, board, side):
    own = [cell for cell in game.cells if colour_of(board[cell]) == side]

    # captures first: they are compulsory
    captures = {}
    for start in own:
        for end, captured, landings, crowned in capture_sequences(game, board, side, start):
            identity = (start, end, captured)
            text = "x".join([game.name_of(start)] + [game.name_of(c) for c in landings])
            if identity in captures and captures[identity][1] <= text:
                continue
            captures[identity] = (identity, text,
                                  make_move(board, side, start, end, captured, crowned),
                                  other(side))
    if captures:
        if game.majority:
            most = max(len(identity[2]) for identity in captures)
            return [m for identity, m in captures.items() if len(identity[2]) == most]
        return list(captures.values())

    moves = {}

    def add_move(start, end):
        piece = board[start]
        crowned = not is_king(piece) and game.far_row(end, side)
        identity = (start, end, frozenset())
        moves[identity] = (identity, game.name_of(start) + "-" + game.name_of(end),
                           make_move(board, side, start, end, frozenset(), crowned), other(side))

    for start in own:
        king = is_king(board[start])
        if king:
            for v in game.king_moves:
                to = add(start, v)
                while to in board and board[to] == ".":
                    add_move(start, to)
                    if not game.king_moves_fly:
                        break
                    to = add(to, v)
        else:
            for v in game.man_steps(side):
                to = add(start, v)
                if to in board and board[to] == ".":
                    add_move(start, to)
        # Sjekkers: jump over an adjacent own piece along a forward line (disks and Sjeks alike)
        if game.own_jumps is not None and game.own_jumps(side):
            for v in game.own_jumps(side):
                over, to = add(start, v), add(start, v, 2)
                if over in board and colour_of(board[over]) == side \
                        and to in board and board[to] == ".":
                    add_move(start, to)
    return list(moves.values())


def legal_moves(game, board, side):
    if not game.stuck_passes:
        return moves_without_pass(game, board, side)  # no move: the player has lost
    # Sjekkers: a side without pieces has lost (all captured): the game is over
    for colour in (WHITE, BLACK):
        if not any(colour_of(board[cell]) == colour for cell in game.cells):
            return []
    moves = moves_without_pass(game, board, side)
    if moves:
        return moves
    if moves_without_pass(game, board, other(side)):
        return [("pass", "pass", board, other(side))]
    return []  # neither player can move: draw, the game is over


# ---------------------------------------------------------------- perft and command line

def perft(game, board, side, depth):
    moves = legal_moves(game, board, side)
    if depth == 1:
        return len(moves)
    return sum(perft(game, after, next_side, depth - 1) for _, _, after, next_side in moves)


def main(argv):
    if len(argv) == 2 and argv[1] == "list":
        for name in GAMES:
            print(name)
        return 0
    if len(argv) < 3 or argv[1] not in GAMES:
        print(__doc__.strip().split("\n\n")[3], file=sys.stderr)
        return 2
    game = GAMES[argv[1]]
    command = argv[2]
    rest = argv[3:]
    if command == "divide":
        if not rest:
            print("divide needs a DEPTH", file=sys.stderr)
            return 2
        depth, rest = int(rest[0]), rest[1:]
    position = " ".join(rest) if rest else game.start
    try:
        board, side = game.parse(position)
    except ValueError as error:
        print("bad position: %s" % error, file=sys.stderr)
        return 2
    if command == "moves":
        for text in sorted(move[1] for move in legal_moves(game, board, side)):
            print(text)
    elif command == "divide":
        total = 0
        for _, text, after, next_side in sorted(legal_moves(game, board, side),
                                                key=lambda m: m[1]):
            count = 1 if depth <= 1 else perft(game, after, next_side, depth - 1)
            total += count
            print(text, count)
        print("total", total)
    else:
        for depth in range(1, int(command) + 1):
            print(depth, perft(game, board, side, depth), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Independent reference move generator and perft counter for Chad and Shakti.

Written straight from the rules files in /work/shared/rules (README.md, chad.md, shakti.md).
Standard library only, deliberately slow and simple so that it can be checked by reading. It shares
no code with the Rust implementation and is meant to cross-check it.

Usage:
    python3 tools/reference_perft.py chad|shakti DEPTH [POSITION]   -> "D COUNT" for D = 1..DEPTH
    python3 tools/reference_perft.py chad|shakti moves [POSITION]   -> legal moves, one per line
    python3 tools/reference_perft.py chad|shakti divide DEPTH [POSITION]
                                         -> each legal move with its perft(DEPTH-1), then the total

A board is a dict {(file, rank): content}, both coordinates 0-based (file 0 = a/A, rank 0 = 1).
content is a piece letter (uppercase White, lowercase Black) or "." for an empty square.
In Shakti a square without a tile is simply absent from the dict. Boards are never modified in
place: every move builds a fresh copy.

A move is a tuple (identity, text, board_after, side_after). identity = (start, end, effects) as
README.md defines it; moves are collected in a dict keyed by identity, so two routes to the same
start, end and effects can never be counted twice.
"""

import sys

ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
ALL_DIRECTIONS = ORTHOGONAL + DIAGONAL
KNIGHT_JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]

CHAD_START = "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/12 w"
SHAKTI_START = "-5-/1w1k1w1/7/7/7/1W1K1W1/-5- w"


# ---------------------------------------------------------------- shared helpers

def colour_of(piece):
    """'w' for an uppercase piece letter, 'b' for lowercase, None for an empty square."""
    if piece == ".":
        return None
    return "w" if piece.isupper() else "b"


def other(side):
    return "b" if side == "w" else "w"


def parse_position(text, size, holes_allowed):
    """Parse 'row/row/.../row side'. Rows run from the highest rank down to rank 1."""
    fields = text.split()
    if len(fields) != 2 or fields[1] not in ("w", "b"):
        raise ValueError("position must be 'ROWS SIDE' with SIDE w or b: %r" % text)
    rows = fields[0].split("/")
    if len(rows) != size:
        raise ValueError("expected %d rows, got %d" % (size, len(rows)))
    board = {}
    for row_index, row in enumerate(rows):
        rank = size - 1 - row_index
        file = 0
        i = 0
        while i < len(row):
            ch = row[i]
            if ch.isdigit():
                j = i
                while j < len(row) and row[j].isdigit():
                    j += 1
                for _ in range(int(row[i:j])):
                    board[(file, rank)] = "."
                    file += 1
                i = j
                continue
            if ch == "-":
                if not holes_allowed:
                    raise ValueError("'-' is not allowed in this game")
            else:
                board[(file, rank)] = ch
            file += 1
            i += 1
        if file != size:
            raise ValueError("row %r has %d cells, expected %d" % (row, file, size))
    return board, fields[1]


def find_king(board, side):
    wanted = "K" if side == "w" else "k"
    for square, piece in board.items():
        if piece == wanted:
            return square
    return None


def on_board(square, size):
    return 0 <= square[0] < size and 0 <= square[1] < size


# ---------------------------------------------------------------- Chad

CHAD_SIZE = 12


def square_block(files, ranks):
    return {(f, r) for f in files for r in ranks}


CHAD_CASTLE = {
    "w": square_block(range(2, 5), range(2, 5)),   # C3-E5
    "b": square_block(range(7, 10), range(7, 10)),  # H8-J10
}


def wall_of(castle):
    """The squares orthogonally adjacent to the castle, not in it (12 squares)."""
    wall = set()
    for (f, r) in castle:
        for (df, dr) in ORTHOGONAL:
            neighbour = (f + df, r + dr)
            if neighbour not in castle:
                wall.add(neighbour)
    return wall


CHAD_WALL = {"w": wall_of(CHAD_CASTLE["w"]), "b": wall_of(CHAD_CASTLE["b"])}


def chad_name(square):
    return "ABCDEFGHIJKL"[square[0]] + str(square[1] + 1)


def chad_in_check(board, side):
    """Enemy rook/queen on a rank or file, or enemy queen on a diagonal, with nothing between."""
    king = find_king(board, side)
    if king is None:
        return False
    enemy = other(side)
    for directions, checkers in ((ORTHOGONAL, "RQ"), (DIAGONAL, "Q")):
        for (df, dr) in directions:
            square = (king[0] + df, king[1] + dr)
            while on_board(square, CHAD_SIZE) and board[square] == ".":
                square = (square[0] + df, square[1] + dr)
            if on_board(square, CHAD_SIZE):
                piece = board[square]
                if colour_of(piece) == enemy and piece.upper() in checkers:
                    return True
    return False


def chad_capture_allowed(side, start, target):
    """A rook or queen may capture only from the enemy wall into the enemy castle,
    or from inside its own castle onto its own wall."""
    enemy = other(side)
    if start in CHAD_WALL[enemy] and target in CHAD_CASTLE[enemy]:
        return True
    if start in CHAD_CASTLE[side] and target in CHAD_WALL[side]:
        return True
    return False


def chad_pseudo_moves(board, side):
    """Yield (start, end, captured_square_or_None, board_after), ignoring own-king safety."""
    enemy = other(side)
    for start, piece in list(board.items()):
        if colour_of(piece) != side:
            continue
        kind = piece.upper()
        if kind == "K":
            for (df, dr) in ALL_DIRECTIONS + KNIGHT_JUMPS:
                end = (start[0] + df, start[1] + dr)
                if end not in CHAD_CASTLE[side]:
                    continue  # the king never leaves its castle
                target = board[end]
                if target == ".":
                    captured = None
                elif colour_of(target) == enemy and target.upper() != "K":
                    captured = end  # only inside its own castle, guaranteed by the test above
                else:
                    continue
                after = dict(board)
                after[start] = "."
                after[end] = piece
                yield start, end, captured, after
        elif kind in ("R", "Q"):
            directions = ORTHOGONAL if kind == "R" else ALL_DIRECTIONS
            for (df, dr) in directions:
                end = (start[0] + df, start[1] + dr)
                while on_board(end, CHAD_SIZE):
                    target = board[end]
                    captured = None
                    if target != ".":
                        # The first piece met blocks; maybe it can be captured.
                        if (colour_of(target) == enemy and target.upper() != "K"
                                and chad_capture_allowed(side, start, end)):
                            captured = end
                        else:
                            break
                    new_piece = piece
                    if kind == "R" and end in CHAD_CASTLE[enemy]:
                        new_piece = "Q" if side == "w" else "q"  # promotion
                    after = dict(board)
                    after[start] = "."
                    after[end] = new_piece
                    yield start, end, captured, after
                    if captured is not None:
                        break
                    end = (end[0] + df, end[1] + dr)


def chad_legal_moves(board, side):
    moves = {}
    for start, end, captured, after in chad_pseudo_moves(board, side):
        if chad_in_check(after, side):
            continue
        promoted = board[start].upper() == "R" and after[end].upper() == "Q"
        identity = (start, end, captured, promoted)
        separator = "x" if captured is not None else "-"
        text = chad_name(start) + separator + chad_name(end)
        moves[identity] = (identity, text, after, other(side))
    return list(moves.values())


# ---------------------------------------------------------------- Shakti

SHAKTI_SIZE = 7


def shakti_name(square):
    return "abcdefg"[square[0]] + str(square[1] + 1)


def first_tile(board, square, direction):
    """Nearest square beyond `square` in `direction` that still has a tile (or None)."""
    df, dr = direction
    current = (square[0] + df, square[1] + dr)
    while on_board(current, SHAKTI_SIZE):
        if current in board:
            return current
        current = (current[0] + df, current[1] + dr)
    return None


def shakti_in_check(board, side):
    """An enemy warrior stands on the first tile the king sees in some direction."""
    king = find_king(board, side)
    if king is None:
        return False
    enemy_warrior = "w" if side == "w" else "W"
    for direction in ALL_DIRECTIONS:
        tile = first_tile(board, king, direction)
        if tile is not None and board[tile] == enemy_warrior:
            return True
    return False


def kings_see_each_other(board):
    """The evil stare: the White king's first tile in some direction holds the Black king."""
    king = find_king(board, "w")
    if king is None or find_king(board, "b") is None:
        return False
    for direction in ALL_DIRECTIONS:
        tile = first_tile(board, king, direction)
        if tile is not None and board[tile] == "k":
            return True
    return False


def shakti_pseudo_moves(board, side):
    """Yield (start, end, captured, removed_tile, board_after), ignoring legality filters."""
    in_check = shakti_in_check(board, side)
    for start, piece in list(board.items()):
        if colour_of(piece) != side:
            continue
        if piece.upper() == "K":
            enemy_warrior = "w" if side == "w" else "W"
            for direction in ALL_DIRECTIONS:
                if in_check:
                    # Only adjacent tiled squares: empty, or an enemy warrior (captured).
                    end = (start[0] + direction[0], start[1] + direction[1])
                    if end not in board:
                        continue
                    if board[end] == ".":
                        captured = None
                    elif board[end] == enemy_warrior:
                        captured = end
                    else:
                        continue
                else:
                    # The first tile seen, if it is empty.
                    end = first_tile(board, start, direction)
                    if end is None or board[end] != ".":
                        continue
                    captured = None
                after = dict(board)
                after[start] = "."
                after[end] = piece
                yield start, end, captured, None, after
        else:  # warrior
            for direction in ALL_DIRECTIONS:
                first = first_tile(board, start, direction)
                if first is None or board[first] != ".":
                    continue
                after = dict(board)
                after[start] = "."
                after[first] = piece
                yield start, first, None, None, after
                second = first_tile(board, first, direction)
                if second is None or board[second] != ".":
                    continue
                after = dict(board)
                after[start] = "."
                after[second] = piece
                del after[first]  # the jumped tile is removed (compulsory)
                yield start, second, None, first, after


def shakti_moves_without_pass(board, side):
    moves = {}
    for start, end, captured, removed, after in shakti_pseudo_moves(board, side):
        if shakti_in_check(after, side) or kings_see_each_other(after):
            continue
        identity = (start, end, captured, removed)
        separator = "x" if captured is not None else "-"
        text = shakti_name(start) + separator + shakti_name(end)
        moves[identity] = (identity, text, after, other(side))
    return list(moves.values())


def shakti_legal_moves(board, side):
    moves = shakti_moves_without_pass(board, side)
    if moves:
        return moves
    if shakti_in_check(board, side):
        return []  # checkmate: the game is over
    if shakti_moves_without_pass(board, other(side)):
        return [("pass", "pass", board, other(side))]  # stalemated player passes
    return []  # neither player can move: draw, the game is over


# ---------------------------------------------------------------- perft and command line

GAMES = {
    "chad": (CHAD_SIZE, False, CHAD_START, chad_legal_moves),
    "shakti": (SHAKTI_SIZE, True, SHAKTI_START, shakti_legal_moves),
}


def perft(legal_moves, board, side, depth):
    moves = legal_moves(board, side)
    if depth == 1:
        return len(moves)
    return sum(perft(legal_moves, after, next_side, depth - 1)
               for _, _, after, next_side in moves)


def main(argv):
    if len(argv) < 3 or argv[1] not in GAMES:
        print(__doc__.strip().split("\n\n")[2], file=sys.stderr)
        return 2
    size, holes_allowed, start, legal_moves = GAMES[argv[1]]
    command = argv[2]
    rest = argv[3:]
    if command == "divide":
        if not rest:
            print("divide needs a DEPTH", file=sys.stderr)
            return 2
        depth, rest = int(rest[0]), rest[1:]
    position = " ".join(rest) if rest else start
    board, side = parse_position(position, size, holes_allowed)
    if command == "moves":
        for text in sorted(move[1] for move in legal_moves(board, side)):
            print(text)
    elif command == "divide":
        total = 0
        for _, text, after, next_side in sorted(legal_moves(board, side), key=lambda m: m[1]):
            count = 1 if depth <= 1 else perft(legal_moves, after, next_side, depth - 1)
            total += count
            print(text, count)
        print("total", total)
    else:
        for depth in range(1, int(command) + 1):
            print(depth, perft(legal_moves, board, side, depth), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

//! Pieces, moves and the position: a mailbox of 144 squares, the side to move, both kings'
//! squares and an incrementally kept Zobrist hash.

use std::fmt;

use denkmeter_core::{zobrist, ByPlayer, Cell, Player};

use super::tables::{SquareName, CELLS};

/// What a piece is, whoever owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    /// Confined to its castle; moves as a chess king or knight.
    King,
    /// Slides along ranks and files.
    Rook,
    /// A promoted rook: slides along ranks, files and diagonals.
    Queen,
}

impl Kind {
    /// The word used in views: `king`, `rook` or `queen`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::King => "king",
            Kind::Rook => "rook",
            Kind::Queen => "queen",
        }
    }
}

/// A piece: its owner and kind in one byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Piece {
    /// `K`
    WhiteKing = 0,
    /// `R`
    WhiteRook = 1,
    /// `Q`
    WhiteQueen = 2,
    /// `k`
    BlackKing = 3,
    /// `r`
    BlackRook = 4,
    /// `q`
    BlackQueen = 5,
}

impl Piece {
    const ALL: [Piece; 6] = [
        Piece::WhiteKing,
        Piece::WhiteRook,
        Piece::WhiteQueen,
        Piece::BlackKing,
        Piece::BlackRook,
        Piece::BlackQueen,
    ];

    /// The piece of `kind` owned by `owner`.
    #[inline]
    pub const fn new(owner: Player, kind: Kind) -> Piece {
        Piece::ALL[owner as usize * 3 + kind as usize]
    }

    /// Who owns the piece.
    #[inline]
    pub const fn owner(self) -> Player {
        if (self as u8) < 3 {
            Player::White
        } else {
            Player::Black
        }
    }

    /// What the piece is.
    #[inline]
    pub const fn kind(self) -> Kind {
        match self as u8 % 3 {
            0 => Kind::King,
            1 => Kind::Rook,
            _ => Kind::Queen,
        }
    }

    /// The letter in position strings: `K R Q` for White, `k r q` for Black.
    pub const fn letter(self) -> char {
        match self {
            Piece::WhiteKing => 'K',
            Piece::WhiteRook => 'R',
            Piece::WhiteQueen => 'Q',
            Piece::BlackKing => 'k',
            Piece::BlackRook => 'r',
            Piece::BlackQueen => 'q',
        }
    }

    /// Reads a position-string letter.
    pub fn from_letter(letter: char) -> Option<Piece> {
        Piece::ALL.into_iter().find(|p| p.letter() == letter)
    }
}

const CAPTURE: u8 = 1;
const PROMOTION: u8 = 2;

/// A move: start and end square and its effects (a capture on the end square, a rook becoming a
/// queen). Three bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
    flags: u8,
}

impl Move {
    #[inline]
    pub(crate) const fn new(from: usize, to: usize, capture: bool, promotion: bool) -> Move {
        Move {
            from: from as u8,
            to: to as u8,
            flags: (capture as u8 * CAPTURE) | (promotion as u8 * PROMOTION),
        }
    }

    /// The square the piece leaves.
    pub const fn from(self) -> Cell {
        Cell(self.from as u16)
    }

    /// The square the piece ends on.
    pub const fn to(self) -> Cell {
        Cell(self.to as u16)
    }

    /// Whether the move takes the enemy piece on [`Move::to`].
    pub const fn is_capture(self) -> bool {
        self.flags & CAPTURE != 0
    }

    /// Whether a rook ends this move inside the enemy castle and becomes a queen.
    pub const fn is_promotion(self) -> bool {
        self.flags & PROMOTION != 0
    }

    #[inline]
    pub(crate) const fn start_index(self) -> usize {
        self.from as usize
    }

    #[inline]
    pub(crate) const fn end_index(self) -> usize {
        self.to as usize
    }
}

/// The move in Chad notation: `D3-D7`, or `H7xH9` for a capture (promotion is implied).
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let separator = if self.is_capture() { 'x' } else { '-' };
        write!(
            f,
            "{}{separator}{}",
            SquareName(self.start_index()),
            SquareName(self.end_index())
        )
    }
}

/// Zobrist family of Chad ("CHAD" in ASCII).
const ZOBRIST_FAMILY: u64 = 0x4348_4144;
/// One key per piece and square, then the key of Black to move.
const KEYS: [u64; 6 * CELLS + 1] = zobrist::table(ZOBRIST_FAMILY);
const BLACK_TO_MOVE: u64 = KEYS[6 * CELLS];

#[inline]
pub(crate) const fn piece_key(piece: Piece, sq: usize) -> u64 {
    KEYS[piece as usize * CELLS + sq]
}

#[inline]
const fn side_key(player: Player) -> u64 {
    match player {
        Player::White => 0,
        Player::Black => BLACK_TO_MOVE,
    }
}

/// A Chad position: every square, the side to move, both kings' squares and the hash.
///
/// Built by [`crate::chad::Chad`]'s `start` and `parse_position`, which check it; changed only by
/// its `play`.
#[derive(Clone, PartialEq, Eq)]
pub struct State {
    pub(crate) board: [Option<Piece>; CELLS],
    pub(crate) to_move: Player,
    pub(crate) kings: ByPlayer<u8>,
    pub(crate) hash: u64,
}

impl State {
    /// A state from a checked board with exactly one king per side. The hash is computed here.
    pub(crate) fn from_parts(board: [Option<Piece>; CELLS], to_move: Player) -> State {
        let king = |piece| {
            board
                .iter()
                .position(|&p| p == Some(piece))
                .map_or(0, |sq| sq as u8)
        };
        let mut state = State {
            kings: ByPlayer::new(king(Piece::WhiteKing), king(Piece::BlackKing)),
            board,
            to_move,
            hash: 0,
        };
        state.hash = state.fresh_hash();
        state
    }

    /// The piece on `cell`, if any (`None` also for a cell off the board).
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        self.board.get(cell.index()).copied().flatten()
    }

    /// The side to move.
    pub const fn to_move(&self) -> Player {
        self.to_move
    }

    /// The square of `player`'s king.
    pub fn king(&self, player: Player) -> Cell {
        Cell(u16::from(self.kings[player]))
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        super::movegen::in_check(self)
    }

    /// The hash recomputed from scratch (the kept one must always equal it).
    pub(crate) fn fresh_hash(&self) -> u64 {
        self.board
            .iter()
            .enumerate()
            .filter_map(|(sq, p)| p.map(|p| piece_key(p, sq)))
            .fold(side_key(self.to_move), |h, k| h ^ k)
    }

    /// The same position with the other side to move (a null move, for the search).
    pub(crate) fn passed(&self) -> State {
        let mut next = self.clone();
        next.hash ^= side_key(self.to_move) ^ side_key(!self.to_move);
        next.to_move = !self.to_move;
        next
    }

    /// Plays a move generated for this state, keeping kings and hash up to date.
    ///
    /// # Panics
    /// If the move's start square is empty (the move was not generated for this state).
    pub(crate) fn apply(&mut self, mv: Move) {
        let (from, to) = (mv.start_index(), mv.end_index());
        let piece = self.board[from].expect("a move is played only in the state it was made for");
        let mut hash = self.hash ^ piece_key(piece, from);
        if let Some(captured) = self.board[to] {
            hash ^= piece_key(captured, to);
        }
        let placed = if mv.is_promotion() {
            Piece::new(piece.owner(), Kind::Queen)
        } else {
            piece
        };
        hash ^= piece_key(placed, to);
        self.board[from] = None;
        self.board[to] = Some(placed);
        if piece.kind() == Kind::King {
            self.kings[piece.owner()] = to as u8;
        }
        hash ^= side_key(self.to_move) ^ side_key(!self.to_move);
        self.to_move = !self.to_move;
        self.hash = hash;
    }
}

/// Shows the position string.
impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "State({self})")
    }
}

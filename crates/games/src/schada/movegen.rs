//! Move generation: a piece follows one of the paths printed on its square to the path's end.
//! The paths are compiled once per board into, for each square, its destinations with the
//! squares each path passes.

use denkmeter_core::Player;

use super::board_file::BoardPaths;
use super::state::{base_line, bit, goal_line, Piece, State};
use super::Move;

/// One way from a square: its destination and the squares passed before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Way {
    pub to: u8,
    /// The squares the path passes before its end (never its own start: the piece has left).
    pub passed: u64,
}

/// The compiled paths of a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tables {
    /// `ways[ranges[sq].0..ranges[sq].1]` are the ways from `sq`, sorted by destination.
    ranges: [(u16, u16); 64],
    ways: Vec<Way>,
}

impl Tables {
    pub fn new(paths: &BoardPaths) -> Tables {
        let mut ranges = [(0, 0); 64];
        let mut ways = Vec::new();
        for (sq, square_paths) in paths.paths.iter().enumerate() {
            let start = ways.len();
            let mut own = Vec::with_capacity(square_paths.len());
            for path in square_paths {
                let (mut file, mut rank) = ((sq % 8) as i32, (sq / 8) as i32);
                let mut passed = 0u64;
                for (i, &(df, dr)) in path.iter().enumerate() {
                    file += i32::from(df);
                    rank += i32::from(dr);
                    if i + 1 < path.len() {
                        passed |= 1 << (file + 8 * rank);
                    }
                }
                passed &= !(1u64 << sq);
                own.push(Way {
                    to: (file + 8 * rank) as u8,
                    passed,
                });
            }
            own.sort_by_key(|w| (w.to, w.passed));
            own.dedup();
            ways.extend(own);
            ranges[sq] = (start as u16, ways.len() as u16);
        }
        Tables { ranges, ways }
    }

    /// The ways from a square.
    #[inline]
    pub fn from(&self, sq: u8) -> &[Way] {
        let (a, b) = self.ranges[sq as usize];
        &self.ways[a as usize..b as usize]
    }
}

/// Whether a piece of `side` of kind `piece` on `from` may end a move on `to`, as far as the
/// base-line and goal-line rules say (the squares' contents aside).
#[inline]
fn line_rules_allow(side: Player, piece: Piece, from: u8, to: u8) -> bool {
    if !piece.is_high() {
        return true;
    }
    let (base, goal) = (base_line(side), goal_line(side));
    if base & bit(from) == 0 && base & bit(to) != 0 {
        return false; // once off its base line, never back
    }
    if goal & bit(from) != 0 && goal & bit(to) == 0 {
        return false; // on the goal line it stays on the goal line
    }
    true
}

/// The squares `side` may not land on: its own pieces and the enemy high pieces standing on
/// their own goal line, which can no longer be captured.
#[inline]
fn forbidden(state: &State, side: Player) -> u64 {
    state.own[side] | (state.own[!side] & state.high() & goal_line(!side))
}

/// Calls `found(to)` for each destination of the piece on `from`, once per destination, with
/// `blockers` the pieces a path may not pass and `forbidden` the squares it may not end on.
#[inline]
fn destinations(
    tables: &Tables,
    side: Player,
    piece: Piece,
    from: u8,
    blockers: u64,
    forbidden: u64,
    mut found: impl FnMut(u8) -> bool,
) -> bool {
    let mut last = None;
    for way in tables.from(from) {
        if last == Some(way.to) || forbidden & bit(way.to) != 0 || way.passed & blockers != 0 {
            continue;
        }
        if !line_rules_allow(side, piece, from, way.to) {
            continue;
        }
        last = Some(way.to);
        if found(way.to) {
            return true;
        }
    }
    false
}

/// The pieces a path of `piece` may not pass: every piece, except that a Field Officer passes
/// over its own.
#[inline]
fn blockers(state: &State, side: Player, piece: Piece) -> u64 {
    if piece == Piece::FieldOfficer {
        state.own[!side]
    } else {
        state.occupied()
    }
}

/// Every move of the side to move, whether or not the game is over.
pub(crate) fn moves_ignoring_end(tables: &Tables, state: &State, moves: &mut Vec<Move>) {
    let side = state.to_move;
    let forbidden = forbidden(state, side);
    let mut pieces = state.own[side];
    while pieces != 0 {
        let from = pieces.trailing_zeros() as u8;
        pieces &= pieces - 1;
        let piece = kind_of(state, from);
        let blockers = blockers(state, side, piece);
        destinations(tables, side, piece, from, blockers, forbidden, |to| {
            moves.push(Move::new(from, to));
            false
        });
    }
}

/// Whether `side` has any move (the game's end aside).
pub(crate) fn has_move(tables: &Tables, state: &State, side: Player) -> bool {
    let forbidden = forbidden(state, side);
    let mut pieces = state.own[side];
    while pieces != 0 {
        let from = pieces.trailing_zeros() as u8;
        pieces &= pieces - 1;
        let piece = kind_of(state, from);
        if destinations(
            tables,
            side,
            piece,
            from,
            blockers(state, side, piece),
            forbidden,
            |_| true,
        ) {
            return true;
        }
    }
    false
}

/// Whether `side` is blocked (ending 2): it has a high piece off its goal line, and none of
/// them could move if all of `side`'s own pieces were lifted off the board.
pub(crate) fn is_blocked(tables: &Tables, state: &State, side: Player) -> bool {
    let mut high = state.own[side] & state.high() & !goal_line(side);
    if high == 0 {
        return false;
    }
    let enemy = state.own[!side];
    let forbidden = enemy & state.high() & goal_line(!side);
    while high != 0 {
        let from = high.trailing_zeros() as u8;
        high &= high - 1;
        let piece = kind_of(state, from);
        if destinations(tables, side, piece, from, enemy, forbidden, |_| true) {
            return false;
        }
    }
    true
}

#[inline]
pub(crate) fn kind_of(state: &State, sq: u8) -> Piece {
    let b = bit(sq);
    if state.field_officers & b != 0 {
        Piece::FieldOfficer
    } else if state.officers & b != 0 {
        Piece::Officer
    } else {
        Piece::Pawn
    }
}

/// Plays a move of the side to move.
pub(crate) fn play(state: &mut State, mv: Move) {
    let side = state.to_move;
    let piece = kind_of(state, mv.from);
    if state.own[!side] & bit(mv.to) != 0 {
        let captured = kind_of(state, mv.to);
        state.take(!side, captured, mv.to);
    }
    state.take(side, piece, mv.from);
    state.put(side, piece, mv.to);
    state.flip_side();
}

/// Whether `mv` takes a high piece sideways along its base line or goal line (`state` is the
/// position before it).
pub(crate) fn is_sideways_on_a_line(state: &State, mv: Move) -> bool {
    let side = state.to_move;
    let lines = base_line(side) | goal_line(side);
    kind_of(state, mv.from).is_high() && mv.from / 8 == mv.to / 8 && lines & bit(mv.from) != 0
}

//! Shakti (Christian Freeling, 1982): a king and two warriors each on a 7x7 board of 45 tiles
//! that shrinks as warriors jump over tiles and remove them. Checkmate wins; a stalemated player
//! passes; if neither player can move, the game is drawn. The rules are in
//! `shared/rules/shakti.md`.
//!
//! Tiles and warriors are bitboards over the 49 squares (square `file + 7 * rank`, bit of the
//! same number), with per-square ray, between and neighbour tables computed at compile time.

mod eval;
mod movegen;
mod notation;
mod state;
#[cfg(test)]
mod tests;

use std::fmt;

use denkmeter_core::{
    Board, Cell, DisplayName, Emblem, Facts, Game, MoveError, Outcome, PieceShape, PieceStyle,
    PieceView, Player, PositionError, PositionView, Reason, RulesetVisitor, SearchKind, Status,
    Viewer,
};

use state::{bit, Squares, ALL_SQUARES, NO_SQUARE};
pub use state::{Piece, State};

/// A Shakti move: a piece going from one square to another (a warrior's two-step move also
/// names the tile it removes), or a pass. A king's capture is implied by the destination.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
    /// The tile a two-step warrior move removes, or [`NO_SQUARE`].
    removed: u8,
}

impl Move {
    /// The pass, a player's only move when they cannot move, are not in check and the opponent
    /// can move.
    pub const PASS: Move = Move {
        from: NO_SQUARE,
        to: NO_SQUARE,
        removed: NO_SQUARE,
    };

    #[inline]
    pub(crate) const fn new(from: u8, to: u8, removed: u8) -> Move {
        Move { from, to, removed }
    }

    /// Whether this is the pass.
    pub const fn is_pass(self) -> bool {
        self.from == NO_SQUARE
    }

    /// The square the piece leaves (`None` for a pass).
    pub fn from(self) -> Option<Cell> {
        cell(self.from)
    }

    /// The square the piece reaches (`None` for a pass).
    pub fn to(self) -> Option<Cell> {
        cell(self.to)
    }

    /// The tile a two-step warrior move removes.
    pub fn removed(self) -> Option<Cell> {
        cell(self.removed)
    }
}

fn cell(sq: u8) -> Option<Cell> {
    (sq != NO_SQUARE).then_some(Cell(u16::from(sq)))
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            return f.write_str("Move(pass)");
        }
        let (from, to) = (
            notation::square_name(self.from),
            notation::square_name(self.to),
        );
        match self.removed {
            NO_SQUARE => write!(f, "Move({from}-{to})"),
            sq => write!(f, "Move({from}-{to}({}))", notation::square_name(sq)),
        }
    }
}

/// The game of Shakti, ruleset `shakti`.
///
/// ```
/// use denkmeter_core::Game;
/// use denkmeter_games::shakti::Shakti;
///
/// let game = Shakti::new();
/// let start = game.start();
/// let mut moves = Vec::new();
/// game.legal_moves(&start, &mut moves);
/// assert_eq!(moves.len(), 26);
/// let mv = game.parse_move(&start, "b2-b4(b3)").unwrap();
/// let mut next = start.clone();
/// game.play_unchecked(&mut next, mv);
/// assert_eq!(game.position_text(&next), "-5-/1w1k1w1/7/1W5/1-5/3K1W1/-5- b");
/// ```
#[derive(Clone, Debug)]
pub struct Shakti {
    board: Board,
}

impl Shakti {
    /// The Shakti ruleset.
    pub fn new() -> Shakti {
        Shakti {
            board: Board::rectangle(7, 7, false)
                .with_absent_cells("no tile")
                .with_pieces(&[
                    PieceStyle {
                        kind: Piece::King.name(),
                        letter: Piece::King.letter(Player::White),
                        shape: PieceShape::Disc,
                        emblem: Emblem::Crown,
                    },
                    PieceStyle {
                        kind: Piece::Warrior.name(),
                        letter: Piece::Warrior.letter(Player::White),
                        shape: PieceShape::Disc,
                        emblem: Emblem::Sword,
                    },
                ]),
        }
    }
}

impl Default for Shakti {
    fn default() -> Shakti {
        Shakti::new()
    }
}

/// The one Shakti ruleset's facts. Alpha-beta beats Monte Carlo tree search 20-0 here
/// (`denkmeter match shakti --first ab:0.3s --second mcts:0.3s --games 20`).
pub const FACTS: Facts = Facts {
    title: DisplayName::new("Shakti"),
    search: SearchKind::AlphaBeta,
    ..Facts::new(
        "shakti",
        "shakti",
        "Shakti (Freeling, 1982): a king and two warriors each on 45 vanishing tiles; checkmate \
         wins",
        include_str!("../../../../docs/rules/shakti.md"),
    )
};

/// Every Shakti ruleset (there is one).
pub fn rulesets(visitor: &mut impl RulesetVisitor) {
    visitor.visit(Shakti::new());
}

impl Game for Shakti {
    type Move = Move;
    type State = State;

    fn facts(&self) -> &Facts {
        &FACTS
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn start(&self) -> State {
        State::start()
    }

    fn to_move(&self, state: &State) -> Player {
        state.to_move
    }

    fn legal_moves(&self, state: &State, moves: &mut Vec<Move>) {
        movegen::legal_moves(state, moves);
    }

    fn play_unchecked(&self, state: &mut State, mv: Move) {
        movegen::play(state, mv);
    }

    fn status(&self, state: &State) -> Status {
        let side = state.to_move;
        if movegen::has_move(state, side) {
            Status::Ongoing
        } else if state.is_in_check(side) {
            Status::Over(Outcome::win(!side, Reason::Checkmate))
        } else if movegen::has_move(state, !side) {
            Status::Ongoing
        } else {
            Status::Over(Outcome::draw(Reason::NoMoves))
        }
    }

    fn hash(&self, state: &State) -> u64 {
        state.hash
    }

    /// A warrior 100; the kings, which are never taken, count nothing.
    fn material(&self, state: &State) -> Option<i32> {
        let warriors = |p: Player| state.warriors[p].count_ones() as i32 * 100;
        Some(warriors(Player::White) - warriors(Player::Black))
    }

    fn move_text(&self, state: &State, mv: Move) -> String {
        notation::move_text(state, mv)
    }

    fn parse_move(&self, state: &State, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(state, text)
    }

    fn position_text(&self, state: &State) -> String {
        notation::position_text(state)
    }

    fn parse_position(&self, text: &str) -> Result<State, PositionError> {
        notation::parse_position(text)
    }

    /// The pieces, and `-`: a square without its tile.
    fn editor_tokens(&self) -> Vec<denkmeter_core::EditorToken> {
        let mut tokens = denkmeter_core::editor::legend_tokens(self.board.legend());
        tokens.push(denkmeter_core::EditorToken {
            text: "-".to_string(),
            owner: None,
            kind: "no tile",
            letter: '-',
        });
        tokens
    }

    fn move_view(&self, state: &State, mv: Move) -> denkmeter_core::MoveView {
        let captured = if !mv.is_pass() && state.warriors[!state.to_move] & bit(mv.to) != 0 {
            vec![Cell(u16::from(mv.to))]
        } else {
            Vec::new()
        };
        denkmeter_core::MoveView {
            from: mv.from(),
            to: mv.to(),
            captured,
            removed: mv.removed().into_iter().collect(),
            ..Default::default()
        }
    }

    fn position_view(&self, state: &State, _viewer: Viewer) -> PositionView {
        let mut pieces = Vec::new();
        for owner in Player::BOTH {
            pieces.push(PieceView {
                cell: state.king(owner),
                owner,
                kind: Piece::King.name(),
                letter: Piece::King.letter(owner),
            });
            pieces.extend(state.warriors(owner).map(|cell| PieceView {
                cell,
                owner,
                kind: Piece::Warrior.name(),
                letter: Piece::Warrior.letter(owner),
            }));
        }
        let missing = !state.tiles & ALL_SQUARES;
        PositionView {
            pieces,
            absent: Squares(missing).map(|sq| Cell(u16::from(sq))).collect(),
            to_move: state.to_move,
        }
    }

    /// See the `eval` module: material (a warrior 100), the tiles left around each king, warriors
    /// that can land where they check, mobility and the warriors' nearness to the enemy king.
    fn evaluate(&self, state: &State) -> i32 {
        eval::evaluate(state)
    }

    /// The warrior a king takes (100); nothing else captures.
    fn move_gain(&self, state: &State, mv: Move) -> i32 {
        eval::move_gain(state, mv)
    }

    /// In check. (There is no null move: with three pieces a side, having to move can hurt;
    /// a warrior's long move removes a tile for good, and a side down to its king must move
    /// it.)
    fn forcing(&self, state: &State) -> bool {
        state.is_in_check(state.to_move)
    }
}

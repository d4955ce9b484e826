//! Chad (Christian Freeling, 1979): kings locked in 3x3 castles, rooks that only capture across
//! a castle's wall, and rooks that become queens inside the enemy castle. The rules are in
//! `docs/rules/chad.md`.
//!
//! ```
//! use denkmeter_core::Game;
//! use denkmeter_games::chad::Chad;
//!
//! let chad = Chad::new();
//! let start = chad.start();
//! let mut moves = Vec::new();
//! chad.legal_moves(&start, &mut moves);
//! assert_eq!(moves.len(), 54);
//! let mv = chad.parse_move(&start, "d5-d9").unwrap();
//! assert_eq!(chad.move_text(&start, mv), "D5-D9");
//! ```

mod eval;
mod movegen;
mod notation;
mod state;
mod tables;
#[cfg(test)]
mod tests;

use std::ops::ControlFlow;

use denkmeter_core::{
    Board, Cell, CellStyle, DisplayName, Emblem, Facts, Game, MoveError, MoveView, Outcome,
    PieceShape, PieceStyle, PieceView, Player, PositionError, PositionView, Reason, RulesetVisitor,
    SearchKind, Status, Viewer,
};

pub use state::{Kind, Move, Piece, State};

use tables::{in_castle, on_wall, CELLS};

/// The start position.
pub const START: &str = "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/12 w";

const CASTLE_FILL: &str = "#c9a66b";
const WALL_FILL: &str = "#e2cfa3";
const CASTLE_WHITE: CellStyle = CellStyle {
    class: "castle-white",
    fill: CASTLE_FILL,
    glyph: '+',
    words: "castle",
};
const CASTLE_BLACK: CellStyle = CellStyle {
    class: "castle-black",
    fill: CASTLE_FILL,
    glyph: '+',
    words: "castle",
};
const WALL_WHITE: CellStyle = CellStyle {
    class: "wall-white",
    fill: WALL_FILL,
    glyph: '-',
    words: "wall",
};
const WALL_BLACK: CellStyle = CellStyle {
    class: "wall-black",
    fill: WALL_FILL,
    glyph: '-',
    words: "wall",
};
const PIECES: [PieceStyle; 3] = [
    PieceStyle {
        kind: Kind::King.name(),
        letter: Piece::new(Player::White, Kind::King).letter(),
        shape: PieceShape::Disc,
        emblem: Emblem::Crown,
    },
    PieceStyle {
        kind: Kind::Rook.name(),
        letter: Piece::new(Player::White, Kind::Rook).letter(),
        shape: PieceShape::Disc,
        emblem: Emblem::Tower,
    },
    PieceStyle {
        kind: Kind::Queen.name(),
        letter: Piece::new(Player::White, Kind::Queen).letter(),
        shape: PieceShape::Crowned,
        emblem: Emblem::Coronet,
    },
];

/// The rules of Chad (ruleset `chad`).
#[derive(Clone, Debug)]
pub struct Chad {
    board: Board,
}

impl Chad {
    /// The one Chad ruleset. Its board is 12x12 with the castles and walls painted with the
    /// styles of classes `castle-white`, `castle-black`, `wall-white` and `wall-black`.
    pub fn new() -> Chad {
        let mut board = Board::rectangle(tables::SIZE, tables::SIZE, true).with_pieces(&PIECES);
        for sq in 0..CELLS {
            let cell = Cell(sq as u16);
            for (player, castle, wall) in [
                (Player::White, CASTLE_WHITE, WALL_WHITE),
                (Player::Black, CASTLE_BLACK, WALL_BLACK),
            ] {
                if in_castle(player, sq) {
                    board.paint(cell, castle);
                }
                if on_wall(player, sq) {
                    board.paint(cell, wall);
                }
            }
        }
        Chad { board }
    }
}

impl Default for Chad {
    fn default() -> Chad {
        Chad::new()
    }
}

/// The one Chad ruleset's facts. Alpha-beta beats Monte Carlo tree search 20-0 here
/// (`denkmeter match chad --first ab:0.3s --second mcts:0.3s --games 20`).
pub const FACTS: Facts = Facts {
    title: DisplayName::new("Chad"),
    playout_limit: 200,
    search: SearchKind::AlphaBeta,
    ..Facts::new(
        "chad",
        "chad",
        "Chad (Freeling 1979): kings in castles, rooks capture only across the castle wall",
        include_str!("../../../../docs/rules/chad.md"),
    )
};

/// Every Chad ruleset (there is one).
pub fn rulesets(visitor: &mut impl RulesetVisitor) {
    visitor.visit(Chad::new());
}

/// The null move is offered to a side with at least this many rooks and queens: with so many
/// pieces a harmless waiting move is always at hand, so having the move is never a burden.
const NULL_MOVE_PIECES: usize = 3;

impl Game for Chad {
    type Move = Move;
    type State = State;

    fn facts(&self) -> &Facts {
        &FACTS
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn start(&self) -> State {
        notation::parse_position(START).expect("the start position is valid")
    }

    fn to_move(&self, state: &State) -> Player {
        state.to_move
    }

    fn legal_moves(&self, state: &State, moves: &mut Vec<Move>) {
        moves.clear();
        let _ = movegen::for_each_legal(state, |m| {
            moves.push(m);
            ControlFlow::Continue(())
        });
    }

    fn play_unchecked(&self, state: &mut State, mv: Move) {
        state.apply(mv);
    }

    fn status(&self, state: &State) -> Status {
        if movegen::has_legal_move(state) {
            Status::Ongoing
        } else if movegen::in_check(state) {
            Status::Over(Outcome::win(!state.to_move, Reason::Checkmate))
        } else {
            Status::Over(Outcome::draw(Reason::Stalemate))
        }
    }

    fn hash(&self, state: &State) -> u64 {
        state.hash
    }

    /// A rook 100, a queen 300; kings, which are never taken, count nothing.
    fn material(&self, state: &State) -> Option<i32> {
        let material = state
            .board
            .iter()
            .flatten()
            .map(|p| {
                let value = match p.kind() {
                    Kind::King => 0,
                    Kind::Rook => eval::ROOK,
                    Kind::Queen => eval::QUEEN,
                };
                match p.owner() {
                    Player::White => value,
                    Player::Black => -value,
                }
            })
            .sum();
        Some(material)
    }

    fn move_text(&self, _state: &State, mv: Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, state: &State, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(state, text)
    }

    fn position_text(&self, state: &State) -> String {
        state.to_string()
    }

    fn parse_position(&self, text: &str) -> Result<State, PositionError> {
        notation::parse_position(text)
    }

    fn move_view(&self, _state: &State, mv: Move) -> MoveView {
        MoveView {
            from: Some(mv.from()),
            to: Some(mv.to()),
            captured: if mv.is_capture() {
                vec![mv.to()]
            } else {
                Vec::new()
            },
            promotes: mv.is_promotion(),
            ..MoveView::default()
        }
    }

    fn position_view(&self, state: &State, _viewer: Viewer) -> PositionView {
        let pieces = (0..CELLS)
            .filter_map(|sq| {
                state.board[sq].map(|p| PieceView {
                    cell: Cell(sq as u16),
                    owner: p.owner(),
                    kind: p.kind().name(),
                    letter: p.letter(),
                })
            })
            .collect();
        PositionView {
            pieces,
            absent: Vec::new(),
            to_move: state.to_move,
        }
    }

    /// See the `eval` module: material (rook 100, queen 300), pressure on the enemy wall, rooks with
    /// a way into the enemy castle, and the king's room in its own.
    fn evaluate(&self, state: &State) -> i32 {
        eval::evaluate(state)
    }

    /// The piece captured (rook 100, queen 300), plus 200 when a rook becomes a queen.
    fn move_gain(&self, state: &State, mv: Move) -> i32 {
        eval::move_gain(state, mv)
    }

    /// In check.
    fn forcing(&self, state: &State) -> bool {
        movegen::in_check(state)
    }

    /// Passing, when not in check and with at least three rooks or queens: zugzwang needs a
    /// side short of waiting moves, and rooks sliding along open lines always have one.
    fn null_move(&self, state: &State) -> Option<State> {
        let us = state.to_move;
        let pieces = state
            .board
            .iter()
            .flatten()
            .filter(|p| p.owner() == us && p.kind() != Kind::King)
            .take(NULL_MOVE_PIECES)
            .count();
        (pieces >= NULL_MOVE_PIECES && !movegen::in_check(state)).then(|| state.passed())
    }
}

//! Denkmeter's vocabulary: players, boards as data, positions, the [`Game`] trait, outcomes,
//! repetition tracking and records. No rules of any particular game live here.

mod game;
mod geometry;
mod legend;
mod outcome;
mod player;
mod playthrough;
mod position;
mod record;
pub mod svg;
mod view;
pub mod zobrist;

pub use game::{find_move_by_text, Game, MoveError, RepetitionRule};
pub use geometry::{Board, Cell, CellInfo, Direction, EdgeLabel, Ray, Shape, SQUARE_DIRECTIONS};
pub use legend::{CellStyle, Legend, Palette, PieceShape, PieceStyle, PALETTE};
pub use outcome::{logistic_value, Outcome, Reason, ResultError, Score, Status, UnknownReason};
pub use player::{ByPlayer, Player};
pub use playthrough::Playthrough;
pub use position::{Grid, GridCell, PositionError};
pub use record::{Record, RecordError};
pub use view::{MoveView, PieceView, PositionView, Viewer};

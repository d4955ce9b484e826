//! Denkmeter's vocabulary: players, boards as data, positions, the [`Game`] trait, outcomes,
//! repetition tracking and records. No rules of any particular game live here.

mod bits;
pub mod colour;
pub mod editor;
mod game;
mod geometry;
mod highlight;
mod legend;
mod outcome;
pub mod pdn;
pub mod perft;
mod player;
mod playthrough;
mod position;
pub mod random_play;
mod record;
pub mod solver;
pub mod svg;
mod view;
pub mod zobrist;

pub use bits::Bits;
pub use editor::EditorToken;
pub use game::{
    board_fingerprint, find_move_by_text, BoardFileError, DisplayName, Facts, Game, MoveError,
    RepetitionRule, RulesetVisitor, SearchKind, TableResult, TableValue, DISPLAY_NAME_PARTS,
    MAX_BOARD_FILE,
};
pub use geometry::{
    Board, Cell, CellInfo, Direction, EdgeLabel, Mark, Ray, Shape, SQUARE_DIRECTIONS,
};
pub use highlight::{Highlight, Side};
pub use legend::{
    CellStyle, Emblem, Legend, Palette, PieceShape, PieceStyle, Towards, MIN_MARK_CONTRAST,
    PALETTE, TILE_SCALE,
};
pub use outcome::{
    win_rate, Outcome, Reason, ResultError, Score, Status, UnknownReason, WIN_RATE_SCALE,
};
pub use player::{ByPlayer, Player};
pub use playthrough::{forbidden_by_repetition, Playthrough};
pub use position::{Grid, GridCell, PositionError};
pub use record::{numbered_move, split_records, Record, RecordError};
pub use view::{MoveView, PieceView, PositionView, Viewer};

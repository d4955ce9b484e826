//! What a person sees and clicks: pieces for drawing, and for each legal move the cells to click
//! and what the move changes. Built by each game, drawn by one renderer.

use crate::{Cell, Player};

/// Who looks at a position. In games with hidden information what may be shown depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// Everything is shown: the game is over, or it hides nothing.
    Everyone,
    /// One player, who sees what that player is entitled to see.
    Player(Player),
    /// Someone without a seat, who sees only what both players may see.
    Spectator,
}

/// A piece as drawn for one viewer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceView {
    pub cell: Cell,
    pub owner: Player,
    /// The game's word for the piece (`king`, `rook`, `warrior`); `unknown` when hidden.
    pub kind: &'static str,
    /// The piece's letter in position strings (uppercase for White).
    pub letter: char,
}

/// A position as drawn for one viewer (or for everyone when the game hides nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionView {
    pub pieces: Vec<PieceView>,
    /// Cells of the board that are not in play in this position (removed tiles).
    pub absent: Vec<Cell>,
    pub to_move: Player,
}

/// A legal move as a person makes it: click `from`, then each of `via`, then `to`, then pick
/// `choice` if the move needs one. `captured`, `removed` and `flipped` say what it changes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveView {
    /// `None` for a pass or a placement from outside the board.
    pub from: Option<Cell>,
    pub via: Vec<Cell>,
    /// `None` for a pass.
    pub to: Option<Cell>,
    /// A choice beyond the cells, such as a tile's orientation.
    pub choice: Option<String>,
    pub captured: Vec<Cell>,
    /// Cells taken out of play (Shakti's removed tile).
    pub removed: Vec<Cell>,
    pub flipped: Vec<Cell>,
    pub promotes: bool,
    /// The kind of piece a placement puts on `to`, so that it can be shown before it is made.
    pub places: Option<&'static str>,
}

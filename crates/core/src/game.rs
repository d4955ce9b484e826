//! The `Game` trait: the rules of one ruleset, statically dispatched for speed.

use std::fmt::Debug;
use std::hash::Hash;

use rand::RngCore;

use crate::{Board, MoveView, Player, PositionError, PositionView, Status, Viewer};

/// Why a move's text was rejected: it could not be read, or it is not legal here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("cannot read move {text:?}: {reason}")]
    Syntax { text: String, reason: String },
    #[error("move {text:?} is not legal here: {reason}")]
    Illegal { text: String, reason: String },
}

impl MoveError {
    pub fn syntax(text: &str, reason: impl Into<String>) -> MoveError {
        MoveError::Syntax {
            text: text.to_string(),
            reason: reason.into(),
        }
    }

    pub fn illegal(text: &str, reason: impl Into<String>) -> MoveError {
        MoveError::Illegal {
            text: text.to_string(),
            reason: reason.into(),
        }
    }
}

/// What the rules say about a position repeated with the same side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionRule {
    /// Repetitions mean nothing.
    Ignore,
    /// The third occurrence of a position is a draw.
    DrawOnThird,
    /// A move that would make a position occur for the third time is illegal.
    ForbidThird,
}

/// The rules of one ruleset. Implementations hold the ruleset's parameters (`&self`), so one
/// type can serve several rulesets.
///
/// Conventions: `legal_moves` clears the vector and fills it with every legal move (a forced pass
/// is a move; a finished game has none); `play` is only called with a move `legal_moves` gave;
/// `status` reads the position alone (repetition is [`crate::Playthrough`]'s job).
pub trait Game: Clone + Debug + Send + Sync + 'static {
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    type State: Clone + Debug + Send + Sync + 'static;
    /// What one player knows of a state. Perfect-information games use the state itself.
    type Observation: Clone + Debug + Send + Sync + 'static;

    /// The stable ruleset name, e.g. `chad`.
    fn name(&self) -> &str;
    /// The game's module name (`chad` for every Chad ruleset), used to find its rules page.
    fn family(&self) -> &'static str;
    /// One line for `denkmeter list`.
    fn description(&self) -> &str;
    fn board(&self) -> &Board;

    fn start(&self) -> Self::State;
    fn to_move(&self, state: &Self::State) -> Player;
    fn legal_moves(&self, state: &Self::State, moves: &mut Vec<Self::Move>);
    fn play(&self, state: &mut Self::State, mv: Self::Move);
    fn status(&self, state: &Self::State) -> Status;
    /// A Zobrist hash of the whole position (board and side to move).
    fn hash(&self, state: &Self::State) -> u64;
    fn repetition_rule(&self) -> RepetitionRule {
        RepetitionRule::DrawOnThird
    }

    /// The move in the game's notation.
    fn move_text(&self, state: &Self::State, mv: Self::Move) -> String;
    /// Reads a move in the game's notation and finds it among the legal moves.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, MoveError>;
    fn position_text(&self, state: &Self::State) -> String;
    fn parse_position(&self, text: &str) -> Result<Self::State, PositionError>;

    /// The cells a person clicks for `mv`, and what it changes.
    fn move_view(&self, state: &Self::State, mv: Self::Move) -> MoveView;
    /// The position as `viewer` may see it.
    fn position_view(&self, state: &Self::State, viewer: Viewer) -> PositionView;
    /// The text of a move made by `mover` as `viewer` may see it. Games that hide nothing in
    /// their notation return it unchanged.
    fn move_text_for(&self, text: &str, _mover: Player, _viewer: Viewer) -> String {
        text.to_string()
    }

    /// What `player` knows of `state`.
    fn observe(&self, state: &Self::State, player: Player) -> Self::Observation;
    /// A full state consistent with an observation, drawn at random.
    fn sample(&self, observation: &Self::Observation, rng: &mut dyn RngCore) -> Self::State;
    fn has_hidden_information(&self) -> bool {
        false
    }

    /// Playouts longer than this many plies are cut off and scored by [`Game::playout_value`].
    fn playout_limit(&self) -> usize {
        400
    }
    /// The value, between 0 and 1, of an unfinished playout for White. 0.5 unless the game
    /// knows better.
    fn playout_value(&self, _state: &Self::State) -> f64 {
        0.5
    }
}

/// Finds the move among `state`'s legal moves whose text, normalised by `normalise`, equals the
/// normalised `text`. A helper for [`Game::parse_move`] once the syntax has been checked.
pub fn find_move_by_text<G: Game>(
    game: &G,
    state: &G::State,
    text: &str,
    normalise: impl Fn(&str) -> String,
) -> Result<G::Move, MoveError> {
    let wanted = normalise(text);
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    moves
        .into_iter()
        .find(|&m| normalise(&game.move_text(state, m)) == wanted)
        .ok_or_else(|| MoveError::illegal(text, "no legal move matches it"))
}

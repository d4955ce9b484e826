//! What the evaluation's tuning tool (the engine's `texel` example) needs: the terms of the
//! evaluation by name, their counts in a position, the weights of each ruleset family, and the
//! evaluation and capture values with other weights. Not a stable interface.
//!
//! ```
//! use denkmeter_core::Game;
//! use denkmeter_games::draughts::tuning::{self, Group};
//! use denkmeter_games::draughts::{International, InternationalRules};
//!
//! let start = International::new().start();
//! let f = tuning::features::<InternationalRules>(&start);
//! assert!(f.iter().all(|&count| count == 0));
//! let w = Group::International.weights();
//! assert_eq!(tuning::white_score(&f, tuning::drawish::<InternationalRules>(&start), w), 0);
//! ```

pub use super::eval::{
    drawish, evaluate_with, evaluate_with_patterns, features, scaled, weights, Features, Group,
    Weights, ADVANCE, BACKED, BACK_RANK, BALANCE, BLOCKED, CENTRE, DAME, DAME_DIAGONAL,
    DAME_MOBILITY, EDGE, FIRST_DAME, HUNT, MAN, MAN_MOBILITY, N, NAMES, RUNAWAY, TRADE,
};

use denkmeter_core::{ByPlayer, Player};

use super::movegen::has_capture;
use super::{Move, State, Variant};

/// The evaluation for White from a position's counts and [`drawish`] flags: what
/// [`evaluate_with`] returns for White to move.
pub fn white_score(f: &Features, drawish: ByPlayer<bool>, w: &Weights) -> i32 {
    scaled(dot(f, w), drawish)
}

/// The weighted sum of the counts, before any scaling.
pub fn dot(f: &Features, w: &Weights) -> i32 {
    f.iter().zip(w).map(|(&c, &w)| c * w).sum()
}

/// Whether neither side could capture, whoever is to move: a position whose evaluation no
/// exchange is about to overturn.
pub fn is_quiet<V: Variant>(state: &State) -> bool {
    let mut other = state.clone();
    other.to_move = !state.to_move;
    !has_capture::<V>(state) && !has_capture::<V>(&other)
}

/// What `mv` captures, valued with weights `w` (a man [`MAN`], a dame [`DAME`]): the engine's
/// `move_gain` with other weights.
pub fn move_gain_with(state: &State, mv: Move, w: &Weights) -> i32 {
    let dames = (mv.captured & state.dames).count_ones() as i32;
    let men = mv.capture_count() as i32 - dames;
    men * w[MAN] + dames * w[DAME]
}

/// The position with the board turned half a circle and the colours swapped: the same
/// position seen from the other side.
pub fn mirrored<V: Variant>(state: &State) -> State {
    let g = super::variant::geometry::<V>();
    let cells = V::SIZE * V::SIZE;
    let turn = |bb: u64| {
        super::geometry::Squares(bb).fold(0u64, |acc, sq| {
            let cell = cells - 1 - usize::from(g.cell[usize::from(sq)]);
            acc | super::geometry::bit(g.square[cell])
        })
    };
    State::new(
        ByPlayer::new(
            turn(state.pieces[Player::Black]),
            turn(state.pieces[Player::White]),
        ),
        turn(state.dames),
        !state.to_move,
    )
}

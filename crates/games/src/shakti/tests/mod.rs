//! One test per rule of `shared/rules/shakti.md` and per fact it lists, plus cross-checks over
//! random games: a slow, obvious move generator, notation and position round trips, the hash.

use std::collections::BTreeSet;

use denkmeter_core::perft::perft;
use denkmeter_core::{Cell, Game, MoveError, Player, Reason, Status};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;

mod board_and_setup;
mod check;
mod eval;
mod king;
mod results;
mod slow;
mod text;
mod views;
mod warrior;

const START: &str = "-5-/1w1k1w1/7/7/7/1W1K1W1/-5- w";
/// The source's "check from a distance" position, with a Black king added on a7.
const FACT_CHECK: &str = "k6/2-2-w/5-1/4-2/1--K3/2-4/7 w";
/// The same with a White warrior on g6.
const FACT_NO_CHECK: &str = "k6/2-2-W/5-1/4-2/1--K3/2-4/7 w";

fn game() -> Shakti {
    Shakti::new()
}

fn pos(text: &str) -> State {
    game()
        .parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Cell {
    game().board().cell_by_name(name).unwrap()
}

fn moves_of(state: &State) -> Vec<Move> {
    let mut moves = Vec::new();
    game().legal_moves(state, &mut moves);
    moves
}

/// The legal moves in notation, sorted.
fn texts(state: &State) -> Vec<String> {
    let g = game();
    let mut list: Vec<String> = moves_of(state)
        .into_iter()
        .map(|m| g.move_text(state, m))
        .collect();
    list.sort();
    list
}

/// The destinations of the piece on `from`, sorted by name.
fn destinations(state: &State, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut list: Vec<String> = moves_of(state)
        .into_iter()
        .filter(|m| m.from() == Some(from))
        .map(|m| game().board().name(m.to().unwrap()).to_string())
        .collect();
    list.sort();
    list
}

fn played(state: &State, text: &str) -> State {
    let g = game();
    let mv = g
        .parse_move(state, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut next = state.clone();
    g.play_unchecked(&mut next, mv);
    next
}

fn is_legal(state: &State, text: &str) -> bool {
    game().parse_move(state, text).is_ok()
}

/// Every state of `games` random games of at most `plies` plies (the start included).
fn random_states(seed: u64, games: usize, plies: usize) -> Vec<State> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    denkmeter_core::random_play::random_states(&game(), &mut rng, games, plies)
}

//! One test per rule of `shared/rules/kamelen.md` and `tests/reference/rulings.md` and per fact they list, plus
//! cross-checks over random games of all three boards: a slow, obvious move generator,
//! notation and position round trips, the hash.

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::collections::BTreeSet;

use denkmeter_core::perft::perft;
use denkmeter_core::{Cell, Game, MoveError, Player, Status};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;

mod board_and_setup;
mod camel_and_dromedary;
mod evaluation;
mod results;
mod search_hooks;
mod slow;
mod text;
mod views;

/// The 11x11 start, as the rules file writes it.
const START: &str =
    "ddddd1ddddd/1cccc1cccc1/11/2X2X2X2/11/11/11/2X2X2X2/11/1CCCC1CCCC1/DDDDD1DDDDD w";

fn game() -> Kamelen {
    Kamelen::new()
}

fn all_rulesets() -> [Kamelen; 3] {
    Variant::ALL.map(Kamelen::with_variant)
}

fn pos(text: &str) -> State {
    pos_in(&game(), text)
}

fn pos_in(g: &Kamelen, text: &str) -> State {
    g.parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A position of `g`'s board with the pieces listed as letter and square (`"Cf5 dg8 Xc4"`),
/// and the side to move (`'w'` or `'b'`).
fn setup_in(g: &Kamelen, pieces: &str, side: char) -> State {
    let ranks = g.ranks();
    let mut rows = vec![vec![None; FILES]; ranks];
    for token in pieces.split_whitespace() {
        let letter = token.chars().next().unwrap();
        let cell = sq_in(g, &token[1..]);
        rows[ranks - 1 - cell.index() / FILES][cell.index() % FILES] = Some(letter);
    }
    let side = denkmeter_core::Player::from_letter(side).expect("w or b");
    let text = denkmeter_core::Grid::from_chars(&rows, side).to_text();
    pos_in(g, &text)
}

fn setup(pieces: &str, side: char) -> State {
    setup_in(&game(), pieces, side)
}

fn sq(name: &str) -> Cell {
    sq_in(&game(), name)
}

fn sq_in(g: &Kamelen, name: &str) -> Cell {
    g.board()
        .cell_by_name(name)
        .unwrap_or_else(|| panic!("no square {name}"))
}

fn moves_in(g: &Kamelen, state: &State) -> Vec<Move> {
    let mut moves = Vec::new();
    g.legal_moves(state, &mut moves);
    moves
}

fn moves_of(state: &State) -> Vec<Move> {
    moves_in(&game(), state)
}

/// The legal moves in notation, sorted.
fn texts_in(g: &Kamelen, state: &State) -> Vec<String> {
    let mut list: Vec<String> = moves_in(g, state)
        .into_iter()
        .map(|m| g.move_text(state, m))
        .collect();
    list.sort();
    list
}

fn texts(state: &State) -> Vec<String> {
    texts_in(&game(), state)
}

/// The destinations of the animal on `from`, sorted by name.
fn destinations(state: &State, from: &str) -> Vec<String> {
    let g = game();
    let from = sq(from);
    let mut list: Vec<String> = moves_of(state)
        .into_iter()
        .filter(|m| m.from() == Some(from))
        .map(|m| g.board().name(m.to().unwrap()).to_string())
        .collect();
    list.sort();
    list
}

fn played_in(g: &Kamelen, state: &State, text: &str) -> State {
    let mv = g
        .parse_move(state, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut next = state.clone();
    g.play_unchecked(&mut next, mv);
    next
}

fn played(state: &State, text: &str) -> State {
    played_in(&game(), state, text)
}

fn names(g: &Kamelen, cells: impl IntoIterator<Item = Cell>) -> Vec<String> {
    cells
        .into_iter()
        .map(|c| g.board().name(c).to_string())
        .collect()
}

/// Every state of `games` random games of at most `plies` plies of `g` (the start included).
fn random_states_in(g: &Kamelen, seed: u64, games: usize, plies: usize) -> Vec<State> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    denkmeter_core::random_play::random_states(g, &mut rng, games, plies)
}

/// Random states of all three boards, each with its game.
fn random_states(seed: u64, games: usize, plies: usize) -> Vec<(Kamelen, State)> {
    all_rulesets()
        .into_iter()
        .enumerate()
        .flat_map(|(i, g)| {
            random_states_in(&g, seed + i as u64, games, plies)
                .into_iter()
                .map(move |s| (g.clone(), s))
        })
        .collect()
}

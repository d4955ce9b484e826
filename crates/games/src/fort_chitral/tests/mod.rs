//! One test per rule of `shared/rules/fort-chitral.md` and of `spec9.md`, with hand-made
//! positions, plus cross-checks over random games: a slow, obvious move generator that follows
//! every chain of jumps, notation and position round trips, the hash.

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::collections::BTreeSet;

use denkmeter_core::perft::perft;
use denkmeter_core::{Cell, Game, MoveError, Player, Status};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;

mod board_and_setup;
mod capture;
mod end;
mod moves;
mod search_hooks;
mod slow;
mod text;
mod views;

fn standard() -> FortChitral {
    FortChitral::new()
}

fn orthogonal() -> FortChitral {
    FortChitral::orthogonal()
}

fn no_loss() -> FortChitral {
    FortChitral::no_loss_at_three()
}

fn all_rulesets() -> [FortChitral; 3] {
    [standard(), orthogonal(), no_loss()]
}

fn pos(text: &str) -> State {
    standard()
        .parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Cell {
    standard().board().cell_by_name(name).unwrap()
}

/// A position string with the pieces listed as letter and square (`"Pe5 pe6"`) and the side to
/// move (`'w'` or `'b'`).
fn setup(pieces: &str, side: char) -> String {
    let mut rows = [[None; 18]; 18];
    for token in pieces.split_whitespace() {
        let letter = token.chars().next().unwrap();
        let cell = sq(&token[1..]).index();
        rows[17 - cell / 18][cell % 18] = Some(letter);
    }
    let side = denkmeter_core::Player::from_letter(side).expect("w or b");
    denkmeter_core::Grid::from_chars(&rows, side).to_text()
}

/// Four pieces a side in far corners (q1 r1 q2 r2 for White, a17 b17 a18 b18 for Black), added
/// to hand-made positions so that neither side is below four pieces.
const FILL: &str = "Pq1 Pr1 Pq2 Pr2 pa17 pb17 pa18 pb18";

/// [`setup`] with the [`FILL`] pieces added.
fn filled(pieces: &str, side: char) -> State {
    at_setup(&format!("{pieces} {FILL}"), side)
}

/// The state of [`setup`].
fn at_setup(pieces: &str, side: char) -> State {
    pos(&setup(pieces, side))
}

fn moves_of(g: &FortChitral, state: &State) -> Vec<Move> {
    let mut moves = Vec::new();
    g.legal_moves(state, &mut moves);
    moves
}

/// The legal moves in notation, sorted.
fn texts(g: &FortChitral, state: &State) -> Vec<String> {
    let mut list: Vec<String> = moves_of(g, state)
        .into_iter()
        .map(|m| g.move_text(state, m))
        .collect();
    list.sort();
    list
}

/// The end squares of the moves of the piece on `from`, sorted by name.
fn destinations(g: &FortChitral, state: &State, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut list: Vec<String> = moves_of(g, state)
        .into_iter()
        .filter(|m| m.from() == Some(from))
        .map(|m| g.board().name(m.to().unwrap()).to_string())
        .collect();
    list.sort();
    list
}

fn played(g: &FortChitral, state: &State, text: &str) -> State {
    let mv = g
        .parse_move(state, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut next = state.clone();
    g.play_unchecked(&mut next, mv);
    next
}

fn is_legal(g: &FortChitral, state: &State, text: &str) -> bool {
    g.parse_move(state, text).is_ok()
}

/// The squares of `player`'s pieces, by name, sorted.
fn squares_of(state: &State, player: Player) -> Vec<String> {
    let g = standard();
    let mut list: Vec<String> = state
        .pieces(player)
        .map(|c| g.board().name(c).to_string())
        .collect();
    list.sort();
    list
}

/// Every state of `games` random games of at most `plies` plies (the start included). The
/// moves are drawn with a pull towards the Fort and towards captures (see [`pulled_move`]), so
/// that pieces meet, capture and finish games.
fn random_states(g: &FortChitral, seed: u64, games: usize, plies: usize) -> Vec<State> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    denkmeter_core::random_play::random_states_by(g, &mut rng, games, plies, |state, moves, rng| {
        pulled_move(g, state, moves, rng)
    })
}

/// Of four random moves, the one that captures most and then ends nearest the Fort, nine
/// times in ten; otherwise the first of them.
fn pulled_move(
    g: &FortChitral,
    state: &State,
    moves: &[Move],
    rng: &mut Xoshiro256PlusPlus,
) -> Move {
    let picks: Vec<Move> = (0..4)
        .map(|_| moves[rng.gen_range(0..moves.len())])
        .collect();
    if rng.gen_bool(0.1) {
        return picks[0];
    }
    let merit = |m: Move| {
        if m.is_pass() {
            return 0;
        }
        let captured = g.move_view(state, m).captured.len() as i32;
        captured * 20 - i32::from(state::FORT_DISTANCE[m.to as usize])
    };
    picks.into_iter().max_by_key(|&m| merit(m)).unwrap()
}

//! One test per rule of `shared/rules/straat.md` and of the rulings shared with the reference
//! (`tests/reference/rulings-straat.md`), with hand-made positions, plus cross-checks over
//! random games: a slow street counter built from the geometry, notation and position round
//! trips, the hash.

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use denkmeter_core::perft::perft;
use denkmeter_core::{Cell, Game, MoveError, Player, Status};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;

mod board_and_setup;
mod evaluation;
mod results;
mod slow;
mod streets;
mod text;
mod views;

fn straight() -> Straat {
    Straat::new()
}

fn diagonal() -> Straat {
    Straat::diagonal()
}

fn flip() -> Straat {
    Straat::flip()
}

fn all_rulesets() -> [Straat; 3] {
    [straight(), diagonal(), flip()]
}

fn pos(g: &Straat, text: &str) -> State {
    g.parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Cell {
    straight().board().cell_by_name(name).unwrap()
}

fn moves_of(g: &Straat, state: &State) -> Vec<Move> {
    let mut moves = Vec::new();
    g.legal_moves(state, &mut moves);
    moves
}

fn texts(g: &Straat, state: &State) -> Vec<String> {
    moves_of(g, state)
        .into_iter()
        .map(|m| g.move_text(state, m))
        .collect()
}

fn played(g: &Straat, state: &State, text: &str) -> State {
    let mv = g
        .parse_move(state, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut next = state.clone();
    g.play_unchecked(&mut next, mv);
    next
}

/// The streets as `[front white, front black, back white, back black]`, each `(N-S, W-E)`.
fn street_table(g: &Straat, state: &State) -> [(u32, u32); 4] {
    let s = g.streets(state);
    let c = |face, player| {
        let c: StreetCount = s.get(face, player);
        (c.north_south, c.west_east)
    };
    [
        c(Face::Front, Player::White),
        c(Face::Front, Player::Black),
        c(Face::Back, Player::White),
        c(Face::Back, Player::Black),
    ]
}

/// Every state of `games` random games played to the end (the start included).
fn random_states(g: &Straat, seed: u64, games: usize) -> Vec<State> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    denkmeter_core::random_play::random_states(g, &mut rng, games, 16)
}

//! One test per rule of `shared/rules/sjekkers.md`, with hand-made positions, plus cross-checks
//! over random games: a slow, obvious move generator, notation and position round trips, the
//! hash.

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::collections::BTreeSet;

use denkmeter_core::perft::perft;
use denkmeter_core::{Cell, Game, MoveError, Player, Status};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::state::{at, coords, row_low, ROWS, ROW_LEN};
use super::*;

mod board_and_setup;
mod checkers_rules;
mod disks;
mod end;
mod eval;
mod promotion;
mod sjeks;
mod slow;
mod text;
mod views;

fn standard() -> Sjekkers {
    Sjekkers::new()
}

fn sideways() -> Sjekkers {
    Sjekkers::sideways()
}

fn checkers() -> Sjekkers {
    Sjekkers::checkers()
}

fn all_rulesets() -> [Sjekkers; 3] {
    [standard(), sideways(), checkers()]
}

fn pos(text: &str) -> State {
    standard()
        .parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A position string with the pieces listed as letter and crossing (`"Se5 dd4"`), and the
/// side to move (`'w'` or `'b'`).
fn setup(pieces: &str, side: char) -> String {
    let mut rows: Vec<Vec<Option<char>>> = (0..ROWS)
        .map(|r| vec![None; usize::from(ROW_LEN[r])])
        .collect();
    for token in pieces.split_whitespace() {
        let letter = token.chars().next().unwrap();
        let cell = standard().board().cell_by_name(&token[1..]).unwrap();
        let (r, n) = coords(cell.index() as u8);
        rows[r][usize::from(n - row_low(r))] = Some(letter);
    }
    let mut text = String::new();
    for r in (0..ROWS).rev() {
        let mut run = 0;
        for cell in &rows[r] {
            match cell {
                None => run += 1,
                Some(c) => {
                    if run > 0 {
                        text.push_str(&run.to_string());
                        run = 0;
                    }
                    text.push(*c);
                }
            }
        }
        if run > 0 {
            text.push_str(&run.to_string());
        }
        text.push(if r == 0 { ' ' } else { '/' });
    }
    text.push(side);
    text
}

fn at_setup(pieces: &str, side: char) -> State {
    pos(&setup(pieces, side))
}

fn sq(name: &str) -> Cell {
    standard().board().cell_by_name(name).unwrap()
}

fn moves_of(game: &Sjekkers, state: &State) -> Vec<Move> {
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    moves
}

/// The legal moves in notation, sorted.
fn texts(game: &Sjekkers, state: &State) -> Vec<String> {
    let mut list: Vec<String> = moves_of(game, state)
        .into_iter()
        .map(|m| game.move_text(state, m))
        .collect();
    list.sort();
    list
}

/// The destinations of the piece on `from`, sorted.
fn destinations(game: &Sjekkers, state: &State, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut list: Vec<String> = moves_of(game, state)
        .into_iter()
        .filter(|m| m.from() == Some(from))
        .map(|m| game.board().name(m.to().unwrap()).to_string())
        .collect();
    list.sort();
    list
}

fn played(game: &Sjekkers, state: &State, text: &str) -> State {
    let mv = game
        .parse_move(state, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut next = state.clone();
    game.play_unchecked(&mut next, mv);
    next
}

fn piece(state: &State, name: &str) -> Option<(Player, Piece)> {
    state.piece_at(sq(name))
}

/// Every state of `games` random games of at most `plies` plies (the start included).
fn random_states(game: &Sjekkers, seed: u64, games: usize, plies: usize) -> Vec<State> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    denkmeter_core::random_play::random_states(game, &mut rng, games, plies)
}

/// White's disk on h5 is blocked by Black's disks on i5 and i6 and has nothing to capture.
const WHITE_BLOCKED: &str = "dd3/1D4/7/8/9/8/7/6/5 w";
/// Nobody can move: Black's five disks on row i face White's on rows h and g.
const NOBODY_MOVES: &str = "ddddd/DDDDDD/DDDDDDD/8/9/8/7/6/5 w";

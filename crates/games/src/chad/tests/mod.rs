//! One test per rule of `docs/rules/chad.md` and per fact it lists, plus cross-checks: a slow
//! obvious move generator, hash recomputation, notation round trips and perft vectors.

use std::collections::HashSet;

use denkmeter_core::{Game, MoveError, Player, PositionError, Reason, Status};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;

mod board_and_setup;
mod bookkeeping;
mod captures;
mod check;
mod cross_check;
mod eval;
mod facts;
mod king;
mod move_text;
mod perft;
mod positions;
mod promotion;
mod slow;

const EXAMPLE_WHITE: &str = "12/12/12/3R3rk3/12/7R4/12/12/2RKR7/12/4q7/12 w";
const EXAMPLE_BLACK: &str = "12/12/12/3R3rk3/12/7R4/12/12/2RKR7/12/4q7/12 b";

fn chad() -> Chad {
    Chad::new()
}

fn square(name: &str) -> usize {
    let b = name.as_bytes();
    let file = usize::from(b[0].to_ascii_uppercase() - b'A');
    let rank: usize = name[1..].parse().unwrap();
    file + (rank - 1) * 12
}

/// A position string from `"K:D4 r:H9 ..."` and the side to move.
fn setup(pieces: &str, side: char) -> String {
    let mut cells = [None; 144];
    for token in pieces.split_whitespace() {
        let (letter, name) = token.split_once(':').unwrap();
        cells[square(name)] = Some(letter.chars().next().unwrap());
    }
    let rows: Vec<String> = (0..12)
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut run = 0;
            for file in 0..12 {
                match cells[file + rank * 12] {
                    None => run += 1,
                    Some(c) => {
                        if run > 0 {
                            row.push_str(&run.to_string());
                            run = 0;
                        }
                        row.push(c);
                    }
                }
            }
            if run > 0 {
                row.push_str(&run.to_string());
            }
            row
        })
        .collect();
    format!("{} {side}", rows.join("/"))
}

fn position(text: &str) -> State {
    chad()
        .parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn state(pieces: &str, side: char) -> State {
    position(&setup(pieces, side))
}

fn legal(state: &State) -> Vec<Move> {
    let mut moves = Vec::new();
    chad().legal_moves(state, &mut moves);
    moves
}

fn texts(state: &State) -> HashSet<String> {
    legal(state).iter().map(|m| m.to_string()).collect()
}

fn has(state: &State, text: &str) -> bool {
    texts(state).contains(text)
}

/// The legal moves starting on `from`, as texts, sorted.
fn moves_from(state: &State, from: &str) -> Vec<String> {
    let mut v: Vec<String> = legal(state)
        .iter()
        .filter(|m| m.start_index() == square(from))
        .map(|m| m.to_string())
        .collect();
    v.sort();
    v
}

fn play(state: &State, text: &str) -> State {
    let mv = chad()
        .parse_move(state, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut next = state.clone();
    chad().play_unchecked(&mut next, mv);
    next
}

fn illegal_reason(state: &State, text: &str) -> String {
    match chad().parse_move(state, text) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("{text}: expected an illegal-move error, got {other:?}"),
    }
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Plays `games` random games of at most `plies` plies and calls `check` before every move.
fn random_games(seed: u64, games: usize, plies: usize, mut check: impl FnMut(&State, &[Move])) {
    let game = chad();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..games {
        let mut s = game.start();
        for _ in 0..plies {
            let moves = legal(&s);
            check(&s, &moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.play_unchecked(&mut s, mv);
        }
    }
}

//! Tests of every rule and fact of `shared/rules/trangalla.md` and the rulings.

mod hidden;
mod moves;
mod setup_and_text;

use denkmeter_core::Game;

use super::{Move, State, Trangalla};

fn game() -> Trangalla {
    Trangalla::new()
}

fn position(text: &str) -> State {
    game().parse_position(text).expect("a valid position")
}

/// The legal move texts of `text`, sorted.
fn moves(text: &str) -> Vec<String> {
    let g = game();
    let state = position(text);
    let mut list = Vec::new();
    g.legal_moves(&state, &mut list);
    let mut texts: Vec<String> = list.iter().map(|&m| g.move_text(&state, m)).collect();
    texts.sort();
    texts
}

/// The position after `mv` (a text) in `text`.
fn after(text: &str, mv: &str) -> String {
    let g = game();
    let mut state = position(text);
    let m: Move = g.parse_move(&state, mv).expect("a legal move");
    g.play_unchecked(&mut state, m);
    g.position_text(&state)
}

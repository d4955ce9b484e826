//! Schada's rules, one file per part of `shared/rules/schada.md`.

mod board_files;
mod endings;
mod facts;
mod moving;
mod scoring;
mod search_hooks;
mod text;

use denkmeter_core::Game;

use super::*;

/// The game on the reconstructed board.
fn game() -> Schada {
    Schada::new()
}

fn position(text: &str) -> State {
    game()
        .parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves' texts, sorted.
fn moves(state: &State) -> Vec<String> {
    let g = game();
    let mut moves = Vec::new();
    g.legal_moves(state, &mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| g.move_text(state, m)).collect();
    texts.sort();
    texts
}

/// The destinations of the piece on `square`, ignoring whether the game is over.
fn destinations(state: &State, square: &str) -> Vec<String> {
    let g = game();
    let mut all = Vec::new();
    movegen::moves_ignoring_end(&g.tables, state, &mut all);
    let mut found: Vec<String> = all
        .into_iter()
        .filter(|m| square_name(m.from) == square)
        .map(|m| square_name(m.to))
        .collect();
    found.sort();
    found
}

/// Plays moves given as text.
fn play(state: &mut State, texts: &[&str]) {
    let g = game();
    for text in texts {
        let mv = g
            .parse_move(state, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        g.play_unchecked(state, mv);
    }
}

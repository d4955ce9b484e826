//! Perft: the number of move sequences of a given length, the fingerprint of a game's rules.
//! Repetition plays no part (a position string has no history).

use crate::Game;

/// The number of leaves `depth` plies below `state`, counting at the last level in bulk.
pub fn perft<G: Game>(game: &G, state: &G::State, depth: u32) -> u64 {
    let mut buffers = vec![Vec::new(); depth as usize + 1];
    perft_with(game, state, depth, &mut buffers)
}

fn perft_with<G: Game>(
    game: &G,
    state: &G::State,
    depth: u32,
    buffers: &mut [Vec<G::Move>],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers
        .split_first_mut()
        .expect("perft keeps one move buffer per remaining ply");
    game.legal_moves(state, moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let mut next = state.clone();
        game.play_unchecked(&mut next, mv);
        total += perft_with(game, &next, depth - 1, rest);
    }
    total
}

/// Perft at every depth from 1 to `depth`: the lines `denkmeter perft` prints.
pub fn perft_table<G: Game>(game: &G, state: &G::State, depth: u32) -> Vec<(u32, u64)> {
    (1..=depth).map(|d| (d, perft(game, state, d))).collect()
}

/// Perft split by the first move: each move's text and the leaves below it.
pub fn divide<G: Game>(game: &G, state: &G::State, depth: u32) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut next = state.clone();
            game.play_unchecked(&mut next, mv);
            let count = perft(game, &next, depth.saturating_sub(1));
            (game.move_text(state, mv), count)
        })
        .collect()
}

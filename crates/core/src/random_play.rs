//! Random games, for tests that check rules on the positions play reaches: every state of
//! several games from the start, each move drawn by a caller's rule (uniform by default).

use rand::Rng;

use crate::Game;

/// Every state of `games` random games of at most `plies` plies each, the start included, the
/// moves drawn uniformly with `rng`.
pub fn random_states<G: Game, R: Rng>(
    game: &G,
    rng: &mut R,
    games: usize,
    plies: usize,
) -> Vec<G::State> {
    random_states_by(game, rng, games, plies, |_, moves, rng| {
        moves[rng.gen_range(0..moves.len())]
    })
}

/// Every state of `games` games of at most `plies` plies each, the start included, with each
/// move chosen by `pick` among the legal moves (never called with none).
pub fn random_states_by<G: Game, R: Rng>(
    game: &G,
    rng: &mut R,
    games: usize,
    plies: usize,
    mut pick: impl FnMut(&G::State, &[G::Move], &mut R) -> G::Move,
) -> Vec<G::State> {
    let mut states = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut state = game.start();
        states.push(state.clone());
        for _ in 0..plies {
            game.legal_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = pick(&state, &moves, rng);
            game.play_unchecked(&mut state, mv);
            states.push(state.clone());
        }
    }
    states
}

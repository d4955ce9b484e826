//! A mate solver for problems: which moves force a win within N of the mover's moves.

use crate::{Game, Player, Status};

/// Whether the player to move in `state` can force a win within `moves` of their own moves,
/// whatever the opponent replies. Draws and unfinished lines count as failure.
pub fn wins_within<G: Game>(game: &G, state: &G::State, moves: u32) -> bool {
    let attacker = game.to_move(state);
    attacker_wins(game, state, attacker, moves)
}

/// The moves of the player to move that force a win within `moves` of that player's moves
/// (the move itself counted), in move generation order.
pub fn winning_moves<G: Game>(game: &G, state: &G::State, moves: u32) -> Vec<G::Move> {
    if moves == 0 {
        return Vec::new();
    }
    let attacker = game.to_move(state);
    let mut list = Vec::new();
    game.legal_moves(state, &mut list);
    list.into_iter()
        .filter(|&mv| {
            let mut next = state.clone();
            game.play_unchecked(&mut next, mv);
            defender_loses(game, &next, attacker, moves - 1)
        })
        .collect()
}

/// The fewest own moves within which the player to move forces a win, searching up to `limit`.
pub fn shortest_win<G: Game>(game: &G, state: &G::State, limit: u32) -> Option<u32> {
    (1..=limit).find(|&n| wins_within(game, state, n))
}

fn won_by(status: &Status, attacker: Player) -> Option<bool> {
    status.outcome().map(|o| o.winner == Some(attacker))
}

fn attacker_wins<G: Game>(game: &G, state: &G::State, attacker: Player, moves: u32) -> bool {
    if let Some(won) = won_by(&game.status(state), attacker) {
        return won;
    }
    if moves == 0 {
        return false;
    }
    let mut list = Vec::new();
    game.legal_moves(state, &mut list);
    list.into_iter().any(|mv| {
        let mut next = state.clone();
        game.play_unchecked(&mut next, mv);
        defender_loses(game, &next, attacker, moves - 1)
    })
}

fn defender_loses<G: Game>(game: &G, state: &G::State, attacker: Player, moves: u32) -> bool {
    if let Some(won) = won_by(&game.status(state), attacker) {
        return won;
    }
    if game.to_move(state) == attacker {
        // The defender passed (or has no turn): the attacker moves again.
        return attacker_wins(game, state, attacker, moves);
    }
    let mut list = Vec::new();
    game.legal_moves(state, &mut list);
    list.into_iter().all(|mv| {
        let mut next = state.clone();
        game.play_unchecked(&mut next, mv);
        attacker_wins(game, &next, attacker, moves)
    })
}

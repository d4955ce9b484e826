//! Move ordering: the moves most likely to be best are searched first, so that alpha-beta cuts
//! off the rest sooner.

/// Puts `first` (the transposition table's best move), if present, at the front.
pub(crate) fn hash_move_first<M: Copy + Eq>(moves: &mut [M], first: Option<M>) {
    if let Some(at) = first.and_then(|m| moves.iter().position(|&x| x == m)) {
        moves.swap(0, at);
    }
}

/// Moves `best` (the previous iteration's choice) to the front, keeping the others' order.
pub(crate) fn best_move_first<M: Copy + Eq>(moves: &mut [M], best: M) {
    if let Some(at) = moves.iter().position(|&m| m == best) {
        moves[..=at].rotate_right(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chosen_move_leads() {
        let mut moves = [1, 2, 3, 4];
        hash_move_first(&mut moves, Some(3));
        assert_eq!(moves, [3, 2, 1, 4]);
        hash_move_first(&mut moves, Some(9));
        assert_eq!(moves, [3, 2, 1, 4]);
        best_move_first(&mut moves, 1);
        assert_eq!(moves, [1, 3, 2, 4]);
    }
}

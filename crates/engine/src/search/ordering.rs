//! Move ordering: the moves most likely to be best are searched first, so that alpha-beta cuts
//! off the rest sooner. The order is the transposition table's move, then the moves that win
//! something (the most valuable gain first), then the two killer moves of the ply (quiet moves
//! that refuted a sibling), then the rest by their history (how often each move caused a
//! cutoff, weighted by the depth of the search it cut).

use std::hash::{Hash, Hasher};

/// Score bands: every move of a band sorts before every move of the bands below.
const HASH_MOVE: i32 = i32::MAX;
const GAIN: i32 = 1 << 30;
const KILLER: i32 = 1 << 29;
/// History scores stay below this (they are halved when one reaches it).
const HISTORY_MAX: i32 = 1 << 28;

/// The history table's size (a power of two): moves are told apart by a hash of the move.
const HISTORY_SLOTS: usize = 1 << 14;

/// What a search thread learns about quiet moves as it goes.
#[derive(Debug)]
pub(crate) struct Heuristics<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
}

impl<M: Copy + Eq + Hash> Heuristics<M> {
    pub(crate) fn new() -> Heuristics<M> {
        Heuristics {
            killers: Vec::new(),
            history: vec![0; HISTORY_SLOTS * 2],
        }
    }

    fn history_slot(mv: M, side: usize) -> usize {
        let mut hasher = MoveHasher(0);
        mv.hash(&mut hasher);
        (hasher.0 as usize & (HISTORY_SLOTS - 1)) * 2 + side
    }

    /// A quiet move `mv` by `side` (0 or 1) refuted the position at `ply`, searched `depth`
    /// deep; `tried` are the quiet moves searched before it there, which did not.
    pub(crate) fn cutoff(&mut self, mv: M, side: usize, ply: usize, depth: u32, tried: &[M]) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let bonus = (depth * depth).min(400) as i32;
        let slot = Self::history_slot(mv, side);
        self.history[slot] += bonus;
        for &other in tried {
            let slot = Self::history_slot(other, side);
            self.history[slot] = (self.history[slot] - bonus).max(-HISTORY_MAX);
        }
        if self.history[slot] >= HISTORY_MAX {
            self.history.iter_mut().for_each(|h| *h /= 2);
        }
    }

    /// The ordering score of `mv` at `ply`: `gain` is what it wins at once.
    pub(crate) fn score(
        &self,
        mv: M,
        gain: i32,
        side: usize,
        ply: usize,
        hash_move: Option<M>,
    ) -> i32 {
        if hash_move == Some(mv) {
            return HASH_MOVE;
        }
        if gain > 0 {
            return GAIN + gain.min(GAIN / 2 - 1);
        }
        if let Some(killers) = self.killers.get(ply) {
            if killers[0] == Some(mv) {
                return KILLER + 1;
            }
            if killers[1] == Some(mv) {
                return KILLER;
            }
        }
        self.history[Self::history_slot(mv, side)]
    }

    /// Whether `mv` is one of the killers at `ply`.
    pub(crate) fn is_killer(&self, mv: M, ply: usize) -> bool {
        self.killers
            .get(ply)
            .is_some_and(|k| k[0] == Some(mv) || k[1] == Some(mv))
    }
}

/// Moves `scored[at..]`'s best to `at` and returns it: a selection sort done one step at a
/// time, since a cutoff usually comes before the list is through.
pub(crate) fn pick_next<M: Copy>(scored: &mut [(i32, M)], at: usize) -> M {
    let mut best = at;
    for i in at + 1..scored.len() {
        if scored[i].0 > scored[best].0 {
            best = i;
        }
    }
    scored.swap(at, best);
    scored[at].1
}

/// A small multiplicative hash of a move's fields (moves are a few integers).
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 ^= self.0 >> 29;
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_move_then_gains_then_killers_then_history() {
        let mut h = Heuristics::<u32>::new();
        h.cutoff(7, 0, 3, 4, &[5]);
        h.cutoff(8, 0, 3, 2, &[]);
        let order = |mv: u32, gain: i32| h.score(mv, gain, 0, 3, Some(1));
        assert!(order(1, 0) > order(2, 500));
        assert!(order(2, 500) > order(3, 100));
        assert!(order(3, 100) > order(8, 0), "a gain before the killers");
        assert!(order(8, 0) > order(7, 0), "the latest killer first");
        assert!(order(7, 0) > order(9, 0));
        assert!(
            order(9, 0) > order(5, 0),
            "a move that failed to cut ranks below one never tried"
        );
        assert!(h.is_killer(7, 3) && !h.is_killer(7, 2));
        assert_ne!(
            order(7, 0),
            h.score(7, 0, 1, 4, None) + 1,
            "history is kept per side"
        );
    }

    #[test]
    fn picking_takes_the_best_remaining() {
        let mut scored = [(1, 'a'), (5, 'b'), (3, 'c')];
        assert_eq!(pick_next(&mut scored, 0), 'b');
        assert_eq!(pick_next(&mut scored, 1), 'c');
        assert_eq!(pick_next(&mut scored, 2), 'a');
    }
}

//! A slow, obvious reference move generator and the tests that check the fast one against it.

use denkmeter_core::Board;

use super::*;

/// The rules written the plain way over arrays and core's board rays, to check the bitboards.
#[derive(Clone)]
struct Slow {
    tiles: [bool; 49],
    pieces: [Option<(Player, Piece)>; 49],
}

impl Slow {
    fn of(state: &State) -> Slow {
        let mut slow = Slow {
            tiles: [false; 49],
            pieces: [None; 49],
        };
        for c in 0..49 {
            slow.tiles[c] = state.has_tile(Cell(c as u16));
            slow.pieces[c] = state.piece_at(Cell(c as u16));
        }
        slow
    }

    fn first_tile(&self, board: &Board, from: Cell, dir: usize) -> Option<Cell> {
        board.ray(from, dir).find(|c| self.tiles[c.index()])
    }

    fn king(&self, side: Player) -> Cell {
        Cell(
            (0..49)
                .find(|&c| self.pieces[c] == Some((side, Piece::King)))
                .unwrap() as u16,
        )
    }

    fn in_check(&self, board: &Board, side: Player) -> bool {
        let king = self.king(side);
        (0..8).any(|d| {
            self.first_tile(board, king, d)
                .is_some_and(|c| self.pieces[c.index()] == Some((!side, Piece::Warrior)))
        })
    }

    fn stare(&self, board: &Board) -> bool {
        let king = self.king(Player::White);
        (0..8).any(|d| {
            self.first_tile(board, king, d)
                .is_some_and(|c| self.pieces[c.index()] == Some((Player::Black, Piece::King)))
        })
    }

    /// (from, to, removed) of every legal move of `side`, passes excluded.
    fn moves(&self, board: &Board, side: Player) -> BTreeSet<(u16, u16, Option<u16>)> {
        let mut found = BTreeSet::new();
        let in_check = self.in_check(board, side);
        let mut try_move = |from: Cell, to: Cell, removed: Option<Cell>| {
            let mut next = self.clone();
            next.pieces[to.index()] = next.pieces[from.index()].take();
            if let Some(r) = removed {
                next.tiles[r.index()] = false;
            }
            if !next.in_check(board, side) && !next.stare(board) {
                found.insert((from.0, to.0, removed.map(|r| r.0)));
            }
        };
        for from in board.cell_ids() {
            match self.pieces[from.index()] {
                Some((owner, Piece::King)) if owner == side => {
                    for d in 0..8 {
                        if in_check {
                            let Some(to) = board.neighbour(from, d) else {
                                continue;
                            };
                            let target = self.pieces[to.index()];
                            if self.tiles[to.index()]
                                && (target.is_none() || target == Some((!side, Piece::Warrior)))
                            {
                                try_move(from, to, None);
                            }
                        } else if let Some(to) = self.first_tile(board, from, d) {
                            if self.pieces[to.index()].is_none() {
                                try_move(from, to, None);
                            }
                        }
                    }
                }
                Some((owner, Piece::Warrior)) if owner == side => {
                    for d in 0..8 {
                        let Some(first) = self.first_tile(board, from, d) else {
                            continue;
                        };
                        if self.pieces[first.index()].is_some() {
                            continue;
                        }
                        try_move(from, first, None);
                        let Some(second) = self.first_tile(board, first, d) else {
                            continue;
                        };
                        if self.pieces[second.index()].is_none() {
                            try_move(from, second, Some(first));
                        }
                    }
                }
                _ => {}
            }
        }
        found
    }
}

/// Whether the side to move is in check, the plain way.
pub(super) fn in_check(state: &State) -> bool {
    Slow::of(state).in_check(game().board(), state.to_move())
}

#[test]
fn fast_generator_matches_the_slow_reference() {
    let g = game();
    let board = g.board();
    let mut passes = 0;
    for state in random_states(41, 60, 400) {
        let side = state.to_move();
        let slow = Slow::of(&state);
        assert_eq!(slow.in_check(board, side), state.is_in_check(side));
        let mut expected = slow.moves(board, side);
        if expected.is_empty()
            && !slow.in_check(board, side)
            && !slow.moves(board, !side).is_empty()
        {
            expected.insert((u16::MAX, u16::MAX, None));
            passes += 1;
        }
        let fast: BTreeSet<(u16, u16, Option<u16>)> = moves_of(&state)
            .into_iter()
            .map(|m| {
                let pass = (u16::MAX, u16::MAX, None);
                m.from().map_or(pass, |from| {
                    (from.0, m.to().unwrap().0, m.removed().map(|r| r.0))
                })
            })
            .collect();
        assert_eq!(fast, expected, "{}", g.position_text(&state));
        assert_eq!(fast.len(), moves_of(&state).len(), "duplicate moves");
    }
    assert!(passes > 0, "random games should reach a pass");
}

/// Random play from a fixed seed, for sanity: games end, and rather often by checkmate.
#[test]
fn random_games_reach_every_ending() {
    let g = game();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(51);
    let mut moves = Vec::new();
    let (mut mates, mut draws) = (0, 0);
    for _ in 0..200 {
        let mut state = g.start();
        for _ in 0..g.facts().playout_limit {
            g.legal_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            g.play_unchecked(&mut state, moves[rng.gen_range(0..moves.len())]);
        }
        match g.status(&state) {
            Status::Over(o) if o.reason == Reason::Checkmate => mates += 1,
            Status::Over(_) => draws += 1,
            Status::Ongoing => {}
        }
    }
    assert!(mates > 0);
    let _ = draws;
}

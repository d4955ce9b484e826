//! A slow, obvious reference move generator and status, written from the rules over file and
//! rank coordinates and the position view, and the tests that check the fast ones against it.

use denkmeter_core::{Outcome, Reason};

use super::*;

/// What stands on each square of a board, read through the public view.
struct Slow {
    files: i32,
    ranks: i32,
    /// `(owner, kind)` of each square; rocks have kind "rock" and no meaningful owner.
    squares: Vec<Option<(Player, &'static str)>>,
    to_move: Player,
}

impl Slow {
    fn of(g: &Kamelen, state: &State) -> Slow {
        let view = g.position_view(state, Viewer::Everyone);
        let mut squares = vec![None; g.board().len()];
        for piece in view.pieces {
            squares[piece.cell.index()] = Some((piece.owner, piece.kind));
        }
        Slow {
            files: 11,
            ranks: g.ranks() as i32,
            squares,
            to_move: view.to_move,
        }
    }

    fn at(&self, file: i32, rank: i32) -> Option<usize> {
        (file >= 0 && rank >= 0 && file < self.files && rank < self.ranks)
            .then_some((file + rank * self.files) as usize)
    }

    /// `(from, to)` of every leap of `side`, passes excluded.
    fn leaps(&self, side: Player) -> BTreeSet<(usize, usize)> {
        let mut found = BTreeSet::new();
        for from in 0..self.squares.len() {
            let Some((owner, kind)) = self.squares[from] else {
                continue;
            };
            if owner != side || kind == "rock" {
                continue;
            }
            let (file, rank) = ((from % 11) as i32, (from / 11) as i32);
            // (first step, second step, final step) as unit vectors.
            let mut shapes: Vec<((i32, i32), (i32, i32))> = Vec::new();
            if kind == "camel" {
                for (u, p) in [
                    ((0, 1), (1, 0)),
                    ((1, 0), (0, 1)),
                    ((0, -1), (1, 0)),
                    ((-1, 0), (0, 1)),
                ] {
                    shapes.push((u, (u.0 + p.0, u.1 + p.1)));
                    shapes.push((u, (u.0 - p.0, u.1 - p.1)));
                }
            } else {
                for d in [(1, 1), (1, -1), (-1, -1), (-1, 1)] {
                    shapes.push((d, (d.0, 0)));
                    shapes.push((d, (0, d.1)));
                }
            }
            for (step, last) in shapes {
                let a = self.at(file + step.0, rank + step.1);
                let b = self.at(file + 2 * step.0, rank + 2 * step.1);
                let to = self.at(file + 2 * step.0 + last.0, rank + 2 * step.1 + last.1);
                let (Some(a), Some(b), Some(to)) = (a, b, to) else {
                    continue;
                };
                if self.squares[a].is_some() || self.squares[b].is_some() {
                    continue;
                }
                match self.squares[to] {
                    None => {}
                    Some((_, "rock")) => continue,
                    Some((o, _)) if o == side => continue,
                    Some(_) => {}
                }
                found.insert((from, to));
            }
        }
        found
    }

    fn home(&self, player: Player) -> usize {
        match player {
            Player::White => 5,
            Player::Black => (5 + 11 * (self.ranks - 1)) as usize,
        }
    }

    fn colour(sq: usize) -> usize {
        (sq % 11 + sq / 11) % 2
    }

    fn able(&self, player: Player) -> usize {
        let wanted = Slow::colour(self.home(!player));
        (0..self.squares.len())
            .filter(|&sq| self.squares[sq] == Some((player, "camel")) && Slow::colour(sq) == wanted)
            .count()
    }

    fn status(&self) -> Option<(Player, Reason)> {
        let side = self.to_move;
        let conquered = |p: Player| self.squares[self.home(!p)] == Some((p, "camel"));
        if conquered(!side) {
            Some((!side, Reason::DoubleWin))
        } else if conquered(side) {
            Some((side, Reason::DoubleWin))
        } else if self.able(side) == 0 {
            Some((!side, Reason::Powerless))
        } else if self.able(!side) == 0 {
            Some((side, Reason::Powerless))
        } else {
            None
        }
    }
}

#[test]
fn fast_moves_and_status_match_the_slow_reference_in_random_games() {
    let mut compared = 0;
    for (g, state) in random_states(51, 12, 500) {
        let slow = Slow::of(&g, &state);
        let status = slow.status();
        let found: BTreeSet<(usize, usize)> = moves_in(&g, &state)
            .into_iter()
            .filter(|m| !m.is_pass())
            .map(|m| (m.from().unwrap().index(), m.to().unwrap().index()))
            .collect();
        let text = g.position_text(&state);
        match status {
            Some((winner, reason)) => {
                assert!(found.is_empty(), "{text}");
                let outcome: Outcome = g.status(&state).outcome().cloned().unwrap();
                assert_eq!(
                    (outcome.winner, outcome.reason),
                    (Some(winner), reason),
                    "{text}"
                );
            }
            None => {
                assert_eq!(g.status(&state), Status::Ongoing, "{text}");
                let expected = slow.leaps(state.to_move());
                assert_eq!(found, expected, "{text}");
                if expected.is_empty() {
                    assert_eq!(moves_in(&g, &state), [Move::PASS], "{text}");
                }
            }
        }
        compared += 1;
    }
    assert!(compared > 1000);
}

#[test]
fn fast_moves_match_the_slow_reference_in_crowded_random_setups() {
    // Random boards, denser than games reach, with both sides to move.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(52);
    for g in all_rulesets() {
        let squares = g.board().len();
        for _ in 0..300 {
            let mut tokens = String::new();
            let mut used = BTreeSet::new();
            let mut add = |letter: char, rng: &mut Xoshiro256PlusPlus, n: usize| {
                for _ in 0..n {
                    let sq = rng.gen_range(0..squares);
                    if used.insert(sq) {
                        tokens.push_str(&format!("{letter}{} ", g.board().name(Cell(sq as u16))));
                    }
                }
            };
            for (letter, most) in [('C', 8), ('c', 8), ('D', 10), ('d', 10), ('X', 6)] {
                let n = rng.gen_range(0..=most);
                add(letter, &mut rng, n);
            }
            for side in ['w', 'b'] {
                let state = setup_in(&g, &tokens, side);
                let slow = Slow::of(&g, &state);
                if slow.status().is_some() {
                    assert!(moves_in(&g, &state).is_empty());
                    continue;
                }
                let found: BTreeSet<(usize, usize)> = moves_in(&g, &state)
                    .into_iter()
                    .filter(|m| !m.is_pass())
                    .map(|m| (m.from().unwrap().index(), m.to().unwrap().index()))
                    .collect();
                assert_eq!(
                    found,
                    slow.leaps(state.to_move()),
                    "{}",
                    g.position_text(&state)
                );
            }
        }
    }
}

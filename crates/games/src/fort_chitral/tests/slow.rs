//! A slow, obvious reference: the rules written the plain way over an array of cells and core's
//! neighbour table, following every chain of jumps square by square (a path never lands on a
//! square twice, its start included), and the tests that check the fast code against it.

use denkmeter_core::{Board, Outcome, Reason};

use super::*;

/// The position as plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Slow {
    cells: Vec<Option<Player>>,
    to_move: Player,
}

impl Slow {
    fn of(state: &State, board: &Board) -> Slow {
        Slow {
            cells: board.cell_ids().map(|c| state.piece_at(c)).collect(),
            to_move: state.to_move(),
        }
    }

    fn count(&self, player: Player) -> usize {
        self.cells.iter().filter(|&&c| c == Some(player)).count()
    }

    /// The status by the rules' order.
    fn status(&self, board: &Board, loss_at_three: bool) -> Option<Outcome> {
        for player in Player::BOTH {
            if ["i9", "j9", "i10", "j10"]
                .iter()
                .all(|name| self.cells[board.cell_by_name(name).unwrap().index()] == Some(player))
            {
                return Some(Outcome::win(player, Reason::Goal));
            }
        }
        let (white, black) = (self.count(Player::White), self.count(Player::Black));
        if white < 4 && black < 4 {
            return Some(Outcome::draw(Reason::TooFewPieces));
        }
        if loss_at_three && white < 4 {
            return Some(Outcome::win(Player::Black, Reason::TooFewPieces));
        }
        if loss_at_three && black < 4 {
            return Some(Outcome::win(Player::White, Reason::TooFewPieces));
        }
        None
    }

    /// Follows every chain of jumps from `at` with the squares of `path` already landed on
    /// (the start included), recording every landing. Gives up (false) once `budget` steps
    /// are spent: the number of chains grows exponentially in crowded positions.
    fn chains(
        &self,
        board: &Board,
        at: Cell,
        path: &mut Vec<Cell>,
        ends: &mut BTreeSet<Cell>,
        budget: &mut u32,
    ) -> bool {
        let side = self.to_move;
        for d in 0..8 {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let Some(over) = board.neighbour(at, d) else {
                continue;
            };
            // The mover has left its start, which is empty during the chain.
            if over == path[0] || self.cells[over.index()] != Some(side) {
                continue;
            }
            let Some(landing) = board.neighbour(over, d) else {
                continue;
            };
            let empty = landing == path[0] || self.cells[landing.index()].is_none();
            if !empty || path.contains(&landing) {
                continue;
            }
            ends.insert(landing);
            path.push(landing);
            let finished = self.chains(board, landing, path, ends, budget);
            path.pop();
            if !finished {
                return false;
            }
        }
        true
    }

    /// The landings of chains from `from` found by a search that lands on each square once:
    /// the same set, since a square some chain reaches is reached by a chain without repeats.
    fn reachable(&self, board: &Board, from: Cell) -> BTreeSet<Cell> {
        let side = self.to_move;
        let mut ends = BTreeSet::new();
        let mut stack = vec![from];
        while let Some(at) = stack.pop() {
            for d in 0..8 {
                let Some(over) = board.neighbour(at, d) else {
                    continue;
                };
                if over == from || self.cells[over.index()] != Some(side) {
                    continue;
                }
                let Some(landing) = board.neighbour(over, d) else {
                    continue;
                };
                if landing != from && self.cells[landing.index()].is_none() && ends.insert(landing)
                {
                    stack.push(landing);
                }
            }
        }
        ends
    }

    /// Every move (from, to) of the side to move, passes excluded, and whether every chain
    /// was followed to its end (rather than found by [`Slow::reachable`]).
    fn moves(&self, board: &Board) -> (BTreeSet<(Cell, Cell)>, bool) {
        let mut found = BTreeSet::new();
        let mut every_chain = true;
        for from in board.cell_ids() {
            if self.cells[from.index()] != Some(self.to_move) {
                continue;
            }
            for d in 0..8 {
                if let Some(to) = board.neighbour(from, d) {
                    if self.cells[to.index()].is_none() {
                        found.insert((from, to));
                    }
                }
            }
            let mut ends = BTreeSet::new();
            let mut budget = 4_000;
            if !self.chains(board, from, &mut vec![from], &mut ends, &mut budget) {
                every_chain = false;
                ends = self.reachable(board, from);
            }
            found.extend(ends.into_iter().map(|to| (from, to)));
        }
        (found, every_chain)
    }

    /// The position after a move.
    fn play(&self, board: &Board, from: Cell, to: Cell, diagonal: bool) -> Slow {
        let side = self.to_move;
        let mut next = self.clone();
        next.cells[from.index()] = None;
        next.cells[to.index()] = Some(side);
        for d in 0..8 {
            if d % 2 == 1 && !diagonal {
                continue;
            }
            let Some(enemy) = board.neighbour(to, d) else {
                continue;
            };
            let Some(beyond) = board.neighbour(enemy, d) else {
                continue;
            };
            if self.cells[enemy.index()] == Some(!side) && next.cells[beyond.index()] == Some(side)
            {
                next.cells[enemy.index()] = None;
            }
        }
        next.to_move = !side;
        next
    }
}

#[test]
fn fast_rules_match_the_slow_reference_in_random_games() {
    for g in all_rulesets() {
        let board = g.board();
        let diagonal = g.variant().captures_diagonally();
        let loss = g.variant().loses_below_four();
        let (mut captures, mut endings, mut followed, mut positions) = (0, 0, 0, 0);
        for (i, state) in random_states(&g, 41, 5, 1500).into_iter().enumerate() {
            let slow = Slow::of(&state, board);
            let status = slow.status(board, loss);
            assert_eq!(g.status(&state).outcome(), status.as_ref());
            let mut expected = BTreeSet::new();
            if status.is_none() {
                let (moves, every_chain) = slow.moves(board);
                expected = moves;
                followed += usize::from(every_chain);
                positions += 1;
            }
            let pass = (Cell(u16::MAX), Cell(u16::MAX));
            if status.is_none() && expected.is_empty() {
                expected.insert(pass);
            }
            endings += usize::from(status.is_some());
            let moves = moves_of(&g, &state);
            let fast: BTreeSet<(Cell, Cell)> = moves
                .iter()
                .map(|m| m.from().map_or(pass, |from| (from, m.to().unwrap())))
                .collect();
            assert_eq!(fast, expected, "{}", g.position_text(&state));
            assert_eq!(fast.len(), moves.len(), "duplicate moves");
            // Playing every move of every position is slow: every third position.
            for mv in moves.into_iter().filter(|m| !m.is_pass() && i % 3 == 0) {
                let (from, to) = (mv.from().unwrap(), mv.to().unwrap());
                let mut next = state.clone();
                g.play_unchecked(&mut next, mv);
                let reference = slow.play(board, from, to, diagonal);
                assert_eq!(
                    Slow::of(&next, board),
                    reference,
                    "{}",
                    g.move_text(&state, mv)
                );
                let taken = state.count(!state.to_move()) - next.count(!state.to_move());
                assert_eq!(g.move_view(&state, mv).captured.len(), taken);
                captures += usize::from(taken > 0);
            }
        }
        assert!(captures > 0, "{}: random games should capture", g.name());
        assert!(endings > 0, "{}: random games should end", g.name());
        eprintln!(
            "{}: every chain followed in {followed} of {positions}",
            g.name()
        );
        assert!(
            followed * 10 > positions * 9,
            "{}: most positions should have every chain followed ({followed} of {positions})",
            g.name()
        );
    }
}

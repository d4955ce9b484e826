//! A slow, obvious reference move generator and the tests that check the fast one against it.

use denkmeter_core::Board;

use super::*;

/// The rules written the plain way over an array and core's board, to check the bitboards.
#[derive(Clone)]
struct Slow {
    cells: Vec<Option<(Player, Piece)>>,
}

/// A move as the reference sees it: start, end and the captured crossings.
type SlowMove = (u16, u16, Vec<u16>);

impl Slow {
    fn of(state: &State) -> Slow {
        Slow {
            cells: (0..61).map(|c| state.piece_at(Cell(c))).collect(),
        }
    }

    fn dir(board: &Board, name: &str) -> usize {
        board
            .directions()
            .iter()
            .position(|d| d.name == name)
            .unwrap()
    }

    fn forward(board: &Board, side: Player) -> Vec<usize> {
        match side {
            Player::White => vec![Self::dir(board, "ne"), Self::dir(board, "nw")],
            Player::Black => vec![Self::dir(board, "se"), Self::dir(board, "sw")],
        }
    }

    fn far_row(board: &Board, side: Player, cell: Cell) -> bool {
        let row = if side == Player::White { "i" } else { "a" };
        board.name(cell).starts_with(row)
    }

    fn owner(&self, cell: Cell) -> Option<Player> {
        self.cells[cell.index()].map(|(p, _)| p)
    }

    /// Every move of `side` (passes excluded) under `variant`.
    fn moves(&self, board: &Board, side: Player, variant: Variant) -> BTreeSet<SlowMove> {
        if variant == Variant::Checkers {
            self.checkers_moves(board, side)
        } else {
            self.flying_moves(board, side, variant == Variant::Sideways)
        }
    }

    fn flying_moves(&self, board: &Board, side: Player, sideways: bool) -> BTreeSet<SlowMove> {
        let mut captures = BTreeSet::new();
        let mut quiet = BTreeSet::new();
        let forward = Self::forward(board, side);
        let row_dirs = [Self::dir(board, "e"), Self::dir(board, "w")];
        for from in board.cell_ids() {
            let Some((owner, kind)) = self.cells[from.index()] else {
                continue;
            };
            if owner != side {
                continue;
            }
            for d in 0..6 {
                match kind {
                    Piece::Disk => {
                        if !sideways && row_dirs.contains(&d) {
                            continue;
                        }
                        let Some(over) = board.neighbour(from, d) else {
                            continue;
                        };
                        let Some(to) = board.neighbour(over, d) else {
                            continue;
                        };
                        if self.owner(over) == Some(!side) && self.owner(to).is_none() {
                            captures.insert((from.0, to.0, vec![over.0]));
                        }
                    }
                    Piece::Sjek => {
                        let mut ray = board.ray(from, d);
                        let Some(over) = ray.find(|&c| self.owner(c).is_some()) else {
                            continue;
                        };
                        if self.owner(over) != Some(!side) {
                            continue;
                        }
                        for to in board.ray(over, d) {
                            if self.owner(to).is_some() {
                                break;
                            }
                            captures.insert((from.0, to.0, vec![over.0]));
                        }
                    }
                }
            }
            // Steps and slides.
            for d in 0..6 {
                if kind == Piece::Disk && !forward.contains(&d) {
                    continue;
                }
                for to in board.ray(from, d) {
                    if self.owner(to).is_some() {
                        break;
                    }
                    quiet.insert((from.0, to.0, Vec::new()));
                    if kind == Piece::Disk {
                        break;
                    }
                }
            }
            // Jumps over own pieces.
            for &d in &forward {
                let Some(over) = board.neighbour(from, d) else {
                    continue;
                };
                let Some(to) = board.neighbour(over, d) else {
                    continue;
                };
                if self.owner(over) == Some(side) && self.owner(to).is_none() {
                    quiet.insert((from.0, to.0, Vec::new()));
                }
            }
        }
        if captures.is_empty() {
            quiet
        } else {
            captures
        }
    }

    fn checkers_moves(&self, board: &Board, side: Player) -> BTreeSet<SlowMove> {
        let mut captures = BTreeSet::new();
        let mut quiet = BTreeSet::new();
        for from in board.cell_ids() {
            let Some((owner, kind)) = self.cells[from.index()] else {
                continue;
            };
            if owner != side {
                continue;
            }
            let dirs = match kind {
                Piece::Disk => Self::forward(board, side),
                Piece::Sjek => (0..6).collect(),
            };
            let mut board_now = self.clone();
            board_now.cells[from.index()] = None;
            board_now.chain(
                board,
                side,
                kind,
                &dirs,
                from,
                from,
                &mut Vec::new(),
                &mut captures,
            );
            for &d in &dirs {
                if let Some(to) = board.neighbour(from, d) {
                    if self.owner(to).is_none() {
                        quiet.insert((from.0, to.0, Vec::new()));
                    }
                }
            }
        }
        if captures.is_empty() {
            quiet
        } else {
            captures
        }
    }

    /// Follows every capture chain from `at`; captured pieces stay on the board (and may not
    /// be jumped again) until the move ends.
    #[allow(clippy::too_many_arguments)]
    fn chain(
        &self,
        board: &Board,
        side: Player,
        kind: Piece,
        dirs: &[usize],
        from: Cell,
        at: Cell,
        taken: &mut Vec<u16>,
        found: &mut BTreeSet<SlowMove>,
    ) {
        let mut went_on = false;
        for &d in dirs {
            let Some(over) = board.neighbour(at, d) else {
                continue;
            };
            let Some(to) = board.neighbour(over, d) else {
                continue;
            };
            if self.owner(over) != Some(!side)
                || taken.contains(&over.0)
                || self.owner(to).is_some()
            {
                continue;
            }
            went_on = true;
            taken.push(over.0);
            if kind == Piece::Disk && Self::far_row(board, side, to) {
                let mut set = taken.clone();
                set.sort_unstable();
                found.insert((from.0, to.0, set));
            } else {
                self.chain(board, side, kind, dirs, from, to, taken, found);
            }
            taken.pop();
        }
        if !went_on && !taken.is_empty() {
            let mut set = taken.clone();
            set.sort_unstable();
            found.insert((from.0, at.0, set));
        }
    }

    fn has_pieces(&self, side: Player) -> bool {
        self.cells.iter().flatten().any(|&(p, _)| p == side)
    }

    /// The legal moves, a pass (as `(MAX, MAX, [])`) included.
    fn legal(&self, board: &Board, side: Player, variant: Variant) -> BTreeSet<SlowMove> {
        if !self.has_pieces(side) || !self.has_pieces(!side) {
            return BTreeSet::new();
        }
        let moves = self.moves(board, side, variant);
        if moves.is_empty()
            && variant != Variant::Checkers
            && !self.moves(board, !side, variant).is_empty()
        {
            return BTreeSet::from([(u16::MAX, u16::MAX, Vec::new())]);
        }
        moves
    }

    fn play(&mut self, side: Player, mv: &SlowMove) {
        let (from, to, taken) = mv;
        if *from == u16::MAX {
            return;
        }
        let (owner, mut kind) = self.cells[usize::from(*from)].take().unwrap();
        assert_eq!(owner, side);
        for &c in taken {
            self.cells[usize::from(c)] = None;
        }
        let row = if side == Player::White { 8 } else { 0 };
        if coords(*to as u8).0 == row {
            kind = Piece::Sjek;
        }
        self.cells[usize::from(*to)] = Some((side, kind));
    }

    fn perft(&self, board: &Board, side: Player, variant: Variant, depth: u32) -> u64 {
        let moves = self.legal(board, side, variant);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|mv| {
                let mut next = self.clone();
                next.play(side, mv);
                next.perft(board, !side, variant, depth - 1)
            })
            .sum()
    }
}

fn fast_as_slow(moves: &[Move]) -> BTreeSet<SlowMove> {
    moves
        .iter()
        .map(|m| match (m.from(), m.to()) {
            (Some(from), Some(to)) => (from.0, to.0, m.captured().map(|c| c.0).collect()),
            _ => (u16::MAX, u16::MAX, Vec::new()),
        })
        .collect()
}

#[test]
fn fast_generator_matches_the_slow_reference() {
    for g in all_rulesets() {
        let board = g.board();
        let (mut passes, mut captures, mut positions) = (0, 0, 0);
        for state in random_states(&g, 41, 40, 400) {
            let side = state.to_move();
            let slow = Slow::of(&state);
            let expected = slow.legal(board, side, g.variant());
            let fast = moves_of(&g, &state);
            let found = fast_as_slow(&fast);
            assert_eq!(found, expected, "{} {}", g.name(), g.position_text(&state));
            assert_eq!(found.len(), fast.len(), "duplicate moves");
            passes += usize::from(fast == [Move::PASS]);
            captures += usize::from(fast.iter().any(|m| m.is_capture()));
            positions += 1;
            // Playing agrees too.
            for &mv in fast.iter().take(3) {
                let mut next = state.clone();
                g.play_unchecked(&mut next, mv);
                let mut slow_next = slow.clone();
                let key = fast_as_slow(&[mv]).into_iter().next().unwrap();
                slow_next.play(side, &key);
                assert_eq!(Slow::of(&next).cells, slow_next.cells);
            }
        }
        assert!(captures > positions / 20, "{}: too few captures", g.name());
        let _ = passes;
    }
}

#[test]
fn slow_reference_perft_agrees_on_hand_made_positions() {
    for (g, text, depth) in [
        (standard(), START, 3),
        (sideways(), START, 3),
        (checkers(), START, 4),
        (standard(), WHITE_BLOCKED, 4),
        (checkers(), "5/6/7/4d3/2ds3d1/3S4/1dD2D1/2D3/5 w", 3),
        (standard(), "5/6/7/4d3/2ds3d1/3S4/1dD2D1/2D3/5 w", 3),
        (sideways(), "5/6/7/4d3/2ds3d1/3S4/1dD2D1/2D3/5 b", 3),
    ] {
        let state = g.parse_position(text).unwrap();
        let slow = Slow::of(&state);
        for d in 1..=depth {
            assert_eq!(
                perft(&g, &state, d),
                slow.perft(g.board(), state.to_move(), g.variant(), d),
                "{} {text} depth {d}",
                g.name()
            );
        }
    }
}

/// Random play from a fixed seed: games end, some by capturing everything.
#[test]
fn random_games_reach_an_end() {
    for g in all_rulesets() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(51);
        let mut moves = Vec::new();
        let mut ended = 0;
        for _ in 0..50 {
            let mut state = g.start();
            for _ in 0..2000 {
                g.legal_moves(&state, &mut moves);
                if moves.is_empty() {
                    break;
                }
                g.play_unchecked(&mut state, moves[rng.gen_range(0..moves.len())]);
            }
            ended += usize::from(g.status(&state).is_over());
        }
        assert!(ended > 0, "{}", g.name());
    }
}

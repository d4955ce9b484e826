//! The fast move generator and the status, checked against the slow reference.

use super::*;

/// Moves as the slow generator lists them: start, end, capture, promotion.
fn move_set(moves: &[Move]) -> HashSet<(usize, usize, bool, bool)> {
    moves
        .iter()
        .map(|m| {
            (
                m.start_index(),
                m.end_index(),
                m.is_capture(),
                m.is_promotion(),
            )
        })
        .collect()
}

#[test]
fn fast_generator_agrees_with_the_slow_one() {
    let check = |s: &State, moves: &[Move]| {
        let fast = move_set(moves);
        assert_eq!(fast.len(), moves.len(), "no duplicates: {s:?}");
        assert_eq!(fast, slow::moves(s), "{s:?}");
    };
    random_games(5, 12, 250, check);
    for text in [EXAMPLE_WHITE, EXAMPLE_BLACK] {
        let s = position(text);
        check(&s, &legal(&s));
    }
}

#[test]
fn status_agrees_with_the_move_list() {
    let game = chad();
    random_games(9, 20, 300, |s, moves| {
        assert_eq!(game.status(s).is_over(), moves.is_empty(), "{s:?}");
    });
}

/// Scattered positions with queens and rooks of both sides, half of them in or around a castle: pins along every
/// line, single and double checks, blocks and captures of the checker, far more often than
/// in games from the start. The fast generator must agree with the slow one on each (the
/// positions the rules refuse, e.g. with the side not to move in check, are skipped).
#[test]
fn fast_generator_agrees_on_scattered_positions_with_pins_and_checks() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1979);
    let castle = |low: usize, rng: &mut Xoshiro256PlusPlus| {
        let (f, r) = (low + rng.gen_range(0..3), low + rng.gen_range(0..3));
        format!("{}{}", (b'A' + f as u8) as char, r + 1)
    };
    let (mut compared, mut in_check, mut double) = (0, 0, 0);
    let (mut pinned, mut pinned_on_diagonal, mut checker_taken) = (0, 0, 0);
    while compared < 8000 {
        let mut used = HashSet::new();
        let mut pieces = Vec::new();
        for (letter, low) in [('K', 2), ('k', 7)] {
            let sq = castle(low, &mut rng);
            used.insert(sq.clone());
            pieces.push(format!("{letter}:{sq}"));
        }
        for _ in 0..rng.gen_range(2..12) {
            let letter = ['R', 'Q', 'r', 'q'][rng.gen_range(0..4)];
            // Half of the pieces in or around a castle, where pins, checks and captures
            // happen.
            let sq = if rng.gen_bool(0.5) {
                let low = [1, 6][rng.gen_range(0..2)];
                let (f, r) = (low + rng.gen_range(0..5), low + rng.gen_range(0..5));
                format!("{}{}", (b'A' + f as u8) as char, r + 1)
            } else {
                let (f, r) = (rng.gen_range(0..12u8), rng.gen_range(1..=12));
                format!("{}{r}", (b'A' + f) as char)
            };
            if used.insert(sq.clone()) {
                pieces.push(format!("{letter}:{sq}"));
            }
        }
        let side = if rng.gen_bool(0.5) { 'w' } else { 'b' };
        let Ok(s) = chad().parse_position(&setup(&pieces.join(" "), side)) else {
            continue;
        };
        let fast = move_set(&legal(&s));
        assert_eq!(fast, slow::moves(&s), "{}", chad().position_text(&s));
        compared += 1;
        // Pins: a piece of the side to move first on a line from its king, an enemy piece
        // that checks along that line behind it.
        let king = s.kings[s.to_move] as usize;
        for dir in 0..8 {
            let mut line = super::tables::ray(king, dir)
                .iter()
                .filter_map(|&t| s.board[t as usize]);
            if let (Some(own), Some(enemy)) = (line.next(), line.next()) {
                if own.owner() == s.to_move
                    && enemy.owner() != s.to_move
                    && (enemy.kind() == Kind::Queen || (dir % 2 == 0 && enemy.kind() == Kind::Rook))
                {
                    pinned += 1;
                    if dir % 2 == 1 {
                        pinned_on_diagonal += 1;
                    }
                }
            }
        }
        if slow::in_check(&s) {
            if fast.iter().any(|&(from, to, capture, _)| {
                capture && s.board[from].is_some_and(|p| p.kind() != Kind::King) && {
                    let mut next = s.clone();
                    next.board[to] = s.board[from];
                    next.board[from] = None;
                    // The capture ended the check: the taken piece was the checker.
                    !super::movegen::attacked(&next.board, king, !s.to_move)
                }
            }) {
                checker_taken += 1;
            }
            in_check += 1;
            let king = s.kings[s.to_move] as usize;
            let checkers = (0..8)
                .filter(|&dir| {
                    let orthogonal = dir % 2 == 0;
                    super::tables::ray(king, dir)
                        .iter()
                        .find_map(|&t| s.board[t as usize])
                        .is_some_and(|p| {
                            p.owner() != s.to_move
                                && (p.kind() == Kind::Queen
                                    || (orthogonal && p.kind() == Kind::Rook))
                        })
                })
                .count();
            if checkers > 1 {
                double += 1;
            }
        }
    }
    // The positions did reach the cases the generator treats apart.
    assert!(in_check > 1500, "{in_check} positions in check");
    assert!(double > 300, "{double} in double check");
    assert!(pinned > 120, "{pinned} pins");
    assert!(
        pinned_on_diagonal > 30,
        "{pinned_on_diagonal} pins on a diagonal"
    );
    assert!(
        checker_taken > 40,
        "{checker_taken} positions where a piece takes the checker"
    );
}

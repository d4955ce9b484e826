//! The facts the rules file states about its example position.

use denkmeter_core::solver::{winning_moves, Prover};

use super::*;

#[test]
fn example_white_mates_in_two_only_by_h7xh9() {
    let game = chad();
    let s = position(EXAMPLE_WHITE);
    let wins = winning_moves(&game, &s, 2);
    let wins: Vec<String> = wins.iter().map(|&m| game.move_text(&s, m)).collect();
    assert_eq!(wins, ["H7xH9"]);
    let mv = game.parse_move(&s, "H7xH9").unwrap();
    assert!(mv.is_capture());
    assert!(mv.is_promotion());
    assert!(winning_moves(&game, &s, 1).is_empty());
}

#[test]
fn the_prover_finds_the_example_mates() {
    let game = chad();
    let s = position(EXAMPLE_WHITE);
    let mut prover = Prover::new(&game, Player::White, 50_000_000, 1 << 20);
    assert_eq!(prover.shortest(&s, 3), Some(Some(2)));
    let wins = prover.winning_moves(&s, 2).expect("within the limit");
    let wins: Vec<String> = wins.iter().map(|&m| game.move_text(&s, m)).collect();
    assert_eq!(wins, ["H7xH9"]);
    let s = position(EXAMPLE_BLACK);
    let mut prover = Prover::new(&game, Player::Black, 50_000_000, 1 << 20);
    assert_eq!(prover.shortest(&s, 3), Some(Some(2)));
    let wins: HashSet<Move> = prover
        .winning_moves(&s, 2)
        .expect("within the limit")
        .into_iter()
        .collect();
    let plain: HashSet<Move> = winning_moves(&game, &s, 2).into_iter().collect();
    assert_eq!(wins, plain);
}

#[test]
fn example_white_h7xh9_promotes_and_checks() {
    let s = play(&position(EXAMPLE_WHITE), "H7xH9");
    assert_eq!(
        s.piece_at(Cell(square("H9") as u16)),
        Some(Piece::WhiteQueen)
    );
    assert!(movegen::in_check(&s));
    // The king cannot take the queen: the rook on D9 would then check along rank 9.
    assert!(!has(&s, "I9xH9"));
}

#[test]
fn example_black_mates_in_two() {
    let game = chad();
    let s = position(EXAMPLE_BLACK);
    let wins: HashSet<String> = winning_moves(&game, &s, 2)
        .iter()
        .map(|&m| game.move_text(&s, m))
        .collect();
    assert!(wins.contains("E2-D2"), "{wins:?}");
    assert!(wins.contains("E2-D1"), "{wins:?}");
    assert!(winning_moves(&game, &s, 1).is_empty());
}

#[test]
fn example_black_line_e2_d2_ends_in_mate() {
    let game = chad();
    let s = play(&position(EXAMPLE_BLACK), "E2-D2");
    assert!(movegen::in_check(&s));
    assert_eq!(
        moves_from(&s, "D4"),
        sorted(&["D4-C5", "D4-E5"]),
        "only C5 and E5 escape the check"
    );
    assert_eq!(legal(&s).len(), 2, "nothing can interpose on D3");
    for escape in ["D4-C5", "D4-E5"] {
        let after = play(&play(&s, escape), "D2-D6");
        assert_eq!(
            game.status(&after),
            Status::Over(Outcome::win(Player::Black, Reason::Checkmate)),
            "{escape} D2-D6"
        );
    }
}

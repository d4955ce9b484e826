//! The evaluation and the search hooks: gains and check agree with the move list and the slow
//! reference, the null move only passes, and the evaluation is symmetric and ranks clear
//! positions right.

use super::super::eval::{mirrored, QUEEN, ROOK};
use super::*;

const CASTLES: [&str; 2] = [
    "C3 D3 E3 C4 D4 E4 C5 D5 E5",
    "H8 I8 J8 H9 I9 J9 H10 I10 J10",
];

/// A random valid position: kings somewhere in their castles, up to a dozen rooks and queens a
/// side anywhere (a rook inside the enemy castle made a queen), either side to move.
fn random_position(rng: &mut impl Rng) -> State {
    loop {
        let mut board = [None; 144];
        for p in Player::BOTH {
            let castle: Vec<&str> = CASTLES[p.index()].split(' ').collect();
            let king = square(castle[rng.gen_range(0..9)]);
            board[king] = Some(Piece::new(p, Kind::King));
        }
        for p in Player::BOTH {
            for _ in 0..rng.gen_range(0..=12) {
                let sq = rng.gen_range(0..144);
                if board[sq].is_some() {
                    continue;
                }
                let enemy_castle = CASTLES[(!p).index()].split(' ').any(|n| square(n) == sq);
                let kind = if enemy_castle || rng.gen_bool(0.2) {
                    Kind::Queen
                } else {
                    Kind::Rook
                };
                board[sq] = Some(Piece::new(p, kind));
            }
        }
        let side = if rng.gen_bool(0.5) {
            Player::White
        } else {
            Player::Black
        };
        let s = State::from_parts(board, side);
        if let Ok(valid) = chad().parse_position(&s.to_string()) {
            return valid;
        }
    }
}

#[test]
fn the_search_hooks_agree_with_the_move_list() {
    // `forcing` is check, as the slow reference sees it; `move_gain` is what the move takes
    // (by the piece standing on its end square) and a queen's worth over a rook when it
    // promotes; the null move only hands the turn over, with a hash as a recomputation makes
    // it, and never in check.
    let game = chad();
    let (mut checks, mut free, mut gains, mut nulls) = (0, 0, 0, 0);
    let mut agree = |s: &State, moves: &[Move]| {
        let check = slow::in_check(s);
        assert_eq!(game.forcing(s), check, "{s:?}");
        if check {
            checks += 1;
        } else {
            free += 1;
        }
        for &mv in moves {
            let taken = match s.piece_at(mv.to()) {
                Some(p) if mv.is_capture() => match p.kind() {
                    Kind::Rook => ROOK,
                    Kind::Queen => QUEEN,
                    Kind::King => panic!("a king is never taken: {s:?} {mv}"),
                },
                _ => 0,
            };
            let promotion = if mv.is_promotion() { QUEEN - ROOK } else { 0 };
            assert_eq!(game.move_gain(s, mv), taken + promotion, "{s:?} {mv}");
            if taken + promotion > 0 {
                gains += 1;
            }
        }
        if let Some(passed) = game.null_move(s) {
            nulls += 1;
            assert!(!check, "{s:?}");
            assert_eq!(passed.to_move(), !s.to_move());
            assert_eq!(passed.board, s.board);
            assert_eq!(game.hash(&passed), passed.fresh_hash(), "{s:?}");
        }
    };
    random_games(21, 8, 300, &mut agree);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(22);
    for _ in 0..400 {
        let s = random_position(&mut rng);
        agree(&s, &legal(&s));
    }
    assert!(checks > 50 && free > 500, "{checks} {free}");
    assert!(gains > 100 && nulls > 500, "{gains} {nulls}");
}

#[test]
fn a_side_with_few_pieces_or_in_check_never_passes() {
    let game = chad();
    assert!(game.null_move(&game.start()).is_some());
    assert!(game
        .null_move(&state("K:D4 R:A1 R:A2 k:I9 r:L1", 'w'))
        .is_none());
    let checked = state("K:D4 R:A1 R:A2 R:A3 k:I9 r:D12", 'w');
    assert!(game.forcing(&checked));
    assert!(game.null_move(&checked).is_none());
}

#[test]
fn the_evaluation_is_even_at_the_start_and_symmetric() {
    let game = chad();
    assert_eq!(game.evaluate(&game.start()), 0);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
    let mut states: Vec<State> = (0..200).map(|_| random_position(&mut rng)).collect();
    random_games(24, 4, 200, |s, _| states.push(s.clone()));
    for s in &states {
        let e = game.evaluate(s);
        // The same position seen from the other side scores the same for its mover...
        assert_eq!(game.evaluate(&mirrored(s)), e, "{s:?}");
        // ...and handing the move to the other side negates it (there is no tempo term).
        let mut other = s.clone();
        other.to_move = !s.to_move;
        assert_eq!(game.evaluate(&other), -e, "{s:?}");
    }
}

#[test]
fn material_counts_first() {
    let game = chad();
    let start = game.start();
    // Black's rook on H8 gone.
    let fewer = state(&pieces_of(&start).replace(" r:H8", ""), 'w');
    let e = game.evaluate(&fewer);
    assert!((60..=160).contains(&e), "a rook up: {e}");
    let queen = state("K:D4 Q:A1 k:I9 r:A12", 'w');
    let rook = state("K:D4 R:A1 k:I9 r:A12", 'w');
    assert!(game.evaluate(&queen) >= game.evaluate(&rook) + 150);
    assert!(game.evaluate(&state("K:D4 q:A1 k:I9", 'w')) < -250);
}

#[test]
fn a_rook_on_the_enemy_wall_facing_a_defender_is_pressure() {
    let game = chad();
    // The same White rook far away, on Black's wall facing the defender on H9, and on the
    // wall of White's own castle.
    let far = state("K:D4 R:A12 k:I9 r:H9 r:L1", 'w');
    let wall = state("K:D4 R:H7 k:I9 r:H9 r:L1", 'w');
    assert!(game.evaluate(&wall) > game.evaluate(&far) + 20);
    assert!(game.move_gain(&wall, chad().parse_move(&wall, "H7xH9").unwrap()) == QUEEN);
}

#[test]
fn a_rook_with_a_way_into_the_enemy_castle_is_worth_more() {
    let game = chad();
    // A White rook on A9 sees along rank 9 up to the Black rook on H9: blocked. On A10 it
    // sees H10, an empty square of Black's castle.
    let blocked = state("K:D4 R:A9 k:I9 r:H9 r:H10 r:L1", 'w');
    let open = state("K:D4 R:A10 k:I9 r:H9 r:L1 r:L2", 'w');
    assert!(game.evaluate(&open) > game.evaluate(&blocked) + 10);
}

#[test]
fn a_king_whose_castle_squares_are_faced_is_worse() {
    let game = chad();
    // A Black rook down file C faces C5, C4 and C3, three of the White king's eight squares;
    // on file A it faces none.
    let faced = state("K:D4 R:L1 k:I9 r:C12", 'w');
    let aside = state("K:D4 R:L1 k:I9 r:A12", 'w');
    assert!(game.evaluate(&faced) < game.evaluate(&aside) - 10);
}

/// The pieces of a position in `setup`'s form.
fn pieces_of(s: &State) -> String {
    (0..144)
        .filter_map(|sq| {
            s.piece_at(Cell(sq as u16)).map(|p| {
                let name = format!("{}{}", (b'A' + (sq % 12) as u8) as char, sq / 12 + 1);
                format!("{}:{name}", p.letter())
            })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

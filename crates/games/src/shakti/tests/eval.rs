//! The evaluation and the search hooks: check and gains agree with the move list and the slow
//! reference, there is no null move, and the evaluation is symmetric and ranks clear positions
//! right.

use denkmeter_core::ByPlayer;

use super::super::eval::{mirrored, WARRIOR};
use super::super::state::{bit, ALL_SQUARES, CORNERS};
use super::*;

/// A random valid position: some tiles gone, kings and up to two warriors a side on tiles,
/// either side to move.
fn random_position(rng: &mut impl Rng) -> State {
    loop {
        let keep = rng.gen_range(0.3..1.0);
        let mut tiles = 0u64;
        for sq in 0..49u8 {
            if bit(sq) & CORNERS == 0 && rng.gen_bool(keep) {
                tiles |= bit(sq);
            }
        }
        let squares: Vec<u8> = (0..49).filter(|&sq| tiles & bit(sq) != 0).collect();
        if squares.len() < 6 {
            continue;
        }
        let mut taken = 0u64;
        let mut pick = |rng: &mut Xoshiro256PlusPlus| loop {
            let sq = squares[rng.gen_range(0..squares.len())];
            if taken & bit(sq) == 0 {
                taken |= bit(sq);
                return sq;
            }
        };
        let mut r = Xoshiro256PlusPlus::seed_from_u64(rng.gen());
        let kings = ByPlayer::new(pick(&mut r), pick(&mut r));
        let mut warriors = ByPlayer::new(0, 0);
        for p in Player::BOTH {
            for _ in 0..r.gen_range(0..=2) {
                warriors[p] |= bit(pick(&mut r));
            }
        }
        let side = if r.gen_bool(0.5) {
            Player::White
        } else {
            Player::Black
        };
        let s = State::from_parts(tiles & ALL_SQUARES, warriors, kings, side);
        if let Ok(valid) = game().parse_position(&game().position_text(&s)) {
            return valid;
        }
    }
}

#[test]
fn the_search_hooks_agree_with_the_move_list() {
    // `forcing` is check as the slow reference sees it; `move_gain` is a warrior's worth for
    // a king that takes one (only ever in check) and nothing otherwise; no null move.
    let g = game();
    let (mut checks, mut free, mut captures) = (0, 0, 0);
    let mut agree = |s: &State| {
        let check = slow::in_check(s);
        assert_eq!(g.forcing(s), check, "{}", g.position_text(s));
        if check {
            checks += 1;
        } else {
            free += 1;
        }
        for mv in moves_of(s) {
            let takes = mv
                .to()
                .and_then(|to| s.piece_at(to))
                .is_some_and(|(owner, piece)| owner != s.to_move() && piece == Piece::Warrior);
            let gain = g.move_gain(s, mv);
            assert_eq!(gain, if takes { WARRIOR } else { 0 }, "{mv:?}");
            if takes {
                captures += 1;
                assert!(check, "a king takes only when checked");
            }
        }
        assert!(g.null_move(s).is_none());
    };
    for s in random_states(61, 40, 300) {
        agree(&s);
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(62);
    for _ in 0..500 {
        agree(&random_position(&mut rng));
    }
    assert!(
        checks > 100 && free > 1000 && captures > 20,
        "{checks} {free} {captures}"
    );
}

#[test]
fn the_evaluation_is_even_at_the_start_and_symmetric() {
    let g = game();
    assert_eq!(g.evaluate(&g.start()), 0);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(63);
    let mut states: Vec<State> = (0..300).map(|_| random_position(&mut rng)).collect();
    states.extend(random_states(64, 10, 200));
    for s in &states {
        let e = g.evaluate(s);
        assert_eq!(g.evaluate(&mirrored(s)), e, "{}", g.position_text(s));
        let mut other = s.clone();
        other.to_move = !s.to_move;
        assert_eq!(g.evaluate(&other), -e, "{}", g.position_text(s));
    }
}

#[test]
fn a_warrior_up_is_better() {
    let g = game();
    // Black's warrior on f6 gone.
    let e = g.evaluate(&pos("-5-/1w1k3/7/7/7/1W1K1W1/-5- w"));
    assert!((70..=160).contains(&e), "{e}");
    assert_eq!(g.evaluate(&pos("-5-/1w1k3/7/7/7/1W1K1W1/-5- b")), -e);
}

#[test]
fn a_king_with_no_tiles_near_it_is_worse() {
    let g = game();
    // White's king on d2 with every neighbouring tile, or with none left.
    let open = pos("-5-/1w1k1w1/7/7/7/1W1K1W1/-5- w");
    let bare = pos("-5-/1w1k1w1/7/7/2---2/1W-K-W1/-1---1- w");
    assert!(g.evaluate(&bare) < g.evaluate(&open) - 100);
}

#[test]
fn a_warrior_that_can_check_next_is_better() {
    let g = game();
    // White's warrior on a2 reaches no tile next to Black's king on d6; on c4 it can step
    // to c5, which the king sees.
    let aside = pos("-5-/3k3/7/7/7/W2K3/-5- w");
    let near = pos("-5-/3k3/7/2W4/7/3K3/-5- w");
    assert!(g.evaluate(&near) > g.evaluate(&aside) + 15);
}

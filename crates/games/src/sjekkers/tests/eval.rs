//! The evaluation and the search hooks, in every ruleset: `forcing` says exactly when the moves
//! are captures, `move_gain` counts what they take and what a promotion adds, and the
//! evaluation is symmetric and ranks clear positions right.

use super::super::eval::{mirrored, DISK, FLYING_SJEK, STEPPING_SJEK};
use denkmeter_core::ByPlayer;

use super::super::state::FAR_ROW;
use super::*;

fn sjek_value(game: &Sjekkers) -> i32 {
    match game.variant() {
        Variant::Checkers => STEPPING_SJEK,
        _ => FLYING_SJEK,
    }
}

/// A random valid position: up to 18 pieces a side anywhere (about a fifth of them Sjeks, and
/// every piece on its own far row one), either side to move.
fn random_position(rng: &mut impl Rng) -> State {
    loop {
        let (mut white, mut black, mut sjeks) = (0u64, 0u64, 0u64);
        let density = rng.gen_range(0.05..0.5);
        for sq in 0..61u8 {
            if !rng.gen_bool(density) {
                continue;
            }
            let b = 1u64 << sq;
            let owner = if rng.gen_bool(0.5) {
                Player::White
            } else {
                Player::Black
            };
            match owner {
                Player::White => white |= b,
                Player::Black => black |= b,
            }
            if rng.gen_bool(0.2) || FAR_ROW[owner] & b != 0 {
                sjeks |= b;
            }
        }
        if white.count_ones() > 18 || black.count_ones() > 18 || white == 0 || black == 0 {
            continue;
        }
        let side = if rng.gen_bool(0.5) {
            Player::White
        } else {
            Player::Black
        };
        let s = State::from_parts(ByPlayer::new(white, black), sjeks, side);
        if let Ok(valid) = standard().parse_position(&standard().position_text(&s)) {
            return valid;
        }
    }
}

#[test]
fn the_search_hooks_agree_with_the_move_list() {
    for game in all_rulesets() {
        let sjek = sjek_value(&game);
        let (mut forced, mut free, mut promotions) = (0, 0, 0);
        let mut agree = |s: &State| {
            let moves = moves_of(&game, s);
            let captures = moves.first().is_some_and(|m| m.is_capture());
            assert!(moves.iter().all(|m| m.is_capture() == captures));
            assert_eq!(
                game.forcing(s),
                captures,
                "{}: {}",
                game.name(),
                game.position_text(s)
            );
            if captures {
                forced += 1;
            } else {
                free += 1;
            }
            for &mv in &moves {
                let mut taken = 0;
                for cell in mv.captured() {
                    taken += match s.piece_at(cell) {
                        Some((_, Piece::Sjek)) => sjek,
                        Some((_, Piece::Disk)) => DISK,
                        None => panic!("{mv:?} captures nothing on {cell:?}"),
                    };
                }
                let promotes = mv.from().is_some_and(|from| {
                    s.piece_at(from) == Some((s.to_move(), Piece::Disk))
                        && FAR_ROW[s.to_move()] & (1 << mv.to().unwrap().index()) != 0
                });
                if promotes {
                    promotions += 1;
                    taken += sjek - DISK;
                }
                assert_eq!(game.move_gain(s, mv), taken, "{}: {mv:?}", game.name());
            }
            assert!(game.null_move(s).is_none());
        };
        for s in random_states(&game, 71, 30, 300) {
            agree(&s);
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(72);
        for _ in 0..400 {
            agree(&random_position(&mut rng));
        }
        assert!(
            forced > 300 && free > 300 && promotions > 20,
            "{}: {forced} {free} {promotions}",
            game.name()
        );
    }
}

#[test]
fn the_evaluation_is_even_at_the_start_and_symmetric() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(73);
    let states: Vec<State> = (0..300).map(|_| random_position(&mut rng)).collect();
    for game in all_rulesets() {
        assert_eq!(game.evaluate(&game.start()), 0, "{}", game.name());
        let mut all = states.clone();
        all.extend(random_states(&game, 74, 5, 200));
        for s in &all {
            let e = game.evaluate(s);
            assert_eq!(game.evaluate(&mirrored(s)), e, "{}", game.position_text(s));
            let mut other = s.clone();
            other.to_move = !s.to_move;
            assert_eq!(game.evaluate(&other), -e, "{}", game.position_text(s));
        }
    }
}

#[test]
fn a_disk_up_is_worth_about_a_disk() {
    let start = standard().start();
    // Black's disk on i5 gone.
    let fewer = State::from_parts(
        ByPlayer::new(start.pieces.white, start.pieces.black & !(1 << 56)),
        0,
        Player::White,
    );
    for game in all_rulesets() {
        let e = game.evaluate(&fewer);
        assert!((80..=150).contains(&e), "{}: {e}", game.name());
    }
}

#[test]
fn a_flying_sjek_is_worth_most() {
    const { assert!(FLYING_SJEK >= 3 * DISK) };
    const { assert!(STEPPING_SJEK > DISK && STEPPING_SJEK < FLYING_SJEK) };
    // A White Sjek against a Black disk: well ahead, the more where it flies.
    let s = at_setup("Se5 dh8", 'w');
    let (flying, stepping) = (standard().evaluate(&s), checkers().evaluate(&s));
    assert!(flying > stepping && stepping > 50, "{flying} {stepping}");
}

#[test]
fn advanced_and_runaway_disks_count() {
    for game in all_rulesets() {
        // A White disk on b3 or on h7, against a Black disk on i5, out of its way.
        let back = at_setup("Db3 di5", 'w');
        let runaway = at_setup("Dh7 di5", 'w');
        let e_back = game.evaluate(&back);
        let e_run = game.evaluate(&runaway);
        assert!(e_run > e_back + 60, "{}: {e_run} {e_back}", game.name());
        // The same with the Black disk in its way, on i7.
        let blocked = at_setup("Dh7 di7", 'w');
        assert!(game.evaluate(&blocked) < e_run - 40, "{}", game.name());
    }
}

#[test]
fn forcing_is_cheap_and_sees_backward_and_sideways_captures() {
    // A White disk on e5 with a Black disk behind it on d4 (its backward line) and one beside
    // it on e6: `sjekkers` captures backward, `sjekkers-sideways` also sideways, and
    // `sjekkers-checkers` only forward.
    let behind = at_setup("De5 dd4 di9", 'w');
    assert!(standard().forcing(&behind));
    assert!(!checkers().forcing(&behind));
    let beside = at_setup("De5 de6 di9", 'w');
    assert!(!standard().forcing(&beside));
    assert!(sideways().forcing(&beside));
}

//! The endgame databases against the independent solver in `tests/egtb_reference/` (written
//! by someone who had not seen the generator, from the rules and the public `Game` API): every
//! position of up to three pieces, both sides to move, has the same value and distance in
//! both, for rulesets that differ in board, men's captures, kings and capture choice.

mod egtb_reference;

use denkmeter_core::Game;
use denkmeter_games::draughts::egtb::{Probe, Tablebase, Wdl};
use denkmeter_games::draughts::{
    Draughts, EnglishRules, InternationalRules, ScandinavianRules, Variant, MEDIUM, STRONG, WEAK,
};
use egtb_reference::Value;

fn agrees<V: Variant>(pieces: usize) {
    let game = Draughts::<V>::new();
    let reference = egtb_reference::solve(&game, pieces);
    let tables = Tablebase::generate::<V>(pieces, 2).expect("built");
    let mut wins = 0;
    for (text, value) in &reference {
        let state = game.parse_position(text).expect("the reference's position");
        let probe = tables
            .probe(&state)
            .unwrap_or_else(|| panic!("{} {text}: not in the databases", V::NAME));
        let expected = match *value {
            Value::Win(plies) => Probe {
                wdl: Wdl::Win,
                plies,
            },
            Value::Loss(plies) => Probe {
                wdl: Wdl::Loss,
                plies,
            },
            Value::Draw => Probe {
                wdl: Wdl::Draw,
                plies: 0,
            },
        };
        assert_eq!(probe, expected, "{} {text}", V::NAME);
        assert_eq!(tables.wdl(&state), Some(expected.wdl), "{} {text}", V::NAME);
        wins += usize::from(expected.wdl == Wdl::Win);
    }
    // Not a vacuous comparison: many positions, and every kind of value among them.
    assert!(
        reference.len() > 5_000 && wins > 0,
        "{}: {} positions",
        V::NAME,
        reference.len()
    );
    assert!(reference.values().any(|v| *v == Value::Draw));
    assert!(reference
        .values()
        .any(|v| matches!(v, Value::Loss(n) if *n > 2)));
}

#[test]
fn english_up_to_three_pieces() {
    agrees::<EnglishRules>(3);
}

#[test]
fn scandinavian_8x8_up_to_three_pieces() {
    agrees::<ScandinavianRules<8, STRONG, true>>(3);
}

#[test]
fn scandinavian_8x8_weak_men_free_line_up_to_three_pieces() {
    agrees::<ScandinavianRules<8, WEAK, false>>(3);
}

#[test]
fn scandinavian_10x10_medium_men_up_to_two_pieces() {
    agrees::<ScandinavianRules<10, MEDIUM, true>>(2);
}

#[test]
fn international_up_to_three_pieces() {
    agrees::<InternationalRules>(3);
}

//! Bad input never panics, in any ruleset: arbitrary text as a position, as a move in every
//! reachable kind of position, and as a record, gives an error (or, by chance, a valid reading).

use std::sync::LazyLock;

use denkmeter_core::Record;
use denkmeter_engine::{Agent, Registry};
use proptest::prelude::*;

/// Every ruleset, built once.
fn registry() -> &'static Registry {
    static REGISTRY: LazyLock<Registry> =
        LazyLock::new(|| Registry::from_list(denkmeter_games::visit_rulesets));
    &REGISTRY
}

const NASTY: &[&str] = &[
    "",
    " ",
    "–",
    "D3–D7",
    "é1-e2",
    "a1-ö",
    "ａ1",
    "x",
    "-",
    "xx",
    "a0-a1",
    "a99999999999999999999-b1",
    "z1-z2",
    "pass pass",
    "K@b2",
    "c3xe5x",
    "c3x",
    "(",
    "b2-b4(",
    "b2-b4(b3",
    "=Q",
    "D3-D7=Q=Q",
    "\u{0}",
    "🙂",
    "/ w",
    "w",
    "1/1/1 w",
    "99999999999999999999999 w",
    "m1m1m1m1m1/1m1m1m1m1m w",
];

#[test]
fn nasty_texts_are_errors_not_panics() {
    for game in registry().rulesets() {
        let session = game.new_game(None).expect("the start is valid");
        let legal: Vec<String> = session.legal_moves().into_iter().map(|m| m.text).collect();
        for text in NASTY {
            let mut copy = session.box_clone();
            if copy.play(text).is_ok() {
                assert!(
                    legal.iter().any(|m| m == text),
                    "{} accepted {text:?}",
                    game.name()
                );
            }
            assert!(
                game.new_game(Some(text)).is_err(),
                "{} read {text:?}",
                game.name()
            );
            // A legal move with a nasty tail.
            if let Some(first) = legal.first() {
                let mut copy = session.box_clone();
                assert!(copy.play(&format!("{first}{text}z")).is_err());
            }
        }
    }
}

fn positions_reached(name: &str, plies: usize, seed: u64) -> Vec<String> {
    let game = registry().find(name).expect("registered");
    let mut session = game.new_game(None).expect("the start is valid");
    let mut seen = vec![session.position()];
    for ply in 0..plies {
        let Some(mv) = session.choose_move(&Agent::Random, seed.wrapping_add(ply as u64)) else {
            break;
        };
        session.play(&mv).expect("a random legal move is legal");
        seen.push(session.position());
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,40}", seed in any::<u64>()) {
        for game in registry().rulesets() {
            let _ = game.new_game(Some(&text));
            for position in positions_reached(game.name(), 30, seed).iter().step_by(10) {
                let mut session = game.new_game(Some(position)).expect("reached positions read back");
                let _ = session.play(&text);
                // Mangled versions of a real position string.
                let mangled: String = position.chars().rev().collect();
                let _ = game.new_game(Some(&mangled));
                let _ = game.new_game(Some(&format!("{text}{position}")));
            }
            let record = format!("[Ruleset \"{}\"]\n\n1. {text} *\n", game.name());
            if let Ok(record) = record.parse::<Record>() {
                let _ = game.load_record(&record);
            }
        }
        let _ = text.parse::<Record>();
    }
}

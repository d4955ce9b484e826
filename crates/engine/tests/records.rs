//! Records written by a real game and read back through the rules.

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use denkmeter_core::solver;
use denkmeter_core::{Game, Playthrough, Record, RecordError, Status};
use denkmeter_games::chad::Chad;

const EXAMPLE: &str = "12/12/12/3R3rk3/12/7R4/12/12/2RKR7/12/4q7/12";

/// White's mate in two from the Chad example, Black replying with its first legal move.
fn mating_game() -> Playthrough<Chad> {
    let game = Chad::new();
    let start = game.parse_position(&format!("{EXAMPLE} w")).unwrap();
    let mut play = Playthrough::from_state(game.clone(), start);
    play.play_text("H7xH9").unwrap();
    let mut replies = Vec::new();
    play.legal_moves(&mut replies);
    play.play(replies[0]).unwrap();
    let mate = solver::winning_moves(&game, play.state(), 1);
    play.play(mate[0]).unwrap();
    play
}

#[test]
fn a_finished_game_round_trips_with_its_position_result_and_termination() {
    let play = mating_game();
    assert!(play.status().is_over());
    let record = Record::of(&play, &[("White", "a"), ("Black", "b")]);
    let text = record.to_string();
    assert!(
        text.contains(&format!("[Position \"{EXAMPLE} w\"]")),
        "{text}"
    );
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(text.contains("[Termination \"checkmate\"]"), "{text}");
    assert!(text.contains("1. H7xH9 "), "{text}");
    let replayed = text.parse::<Record>().unwrap().replay(Chad::new()).unwrap();
    assert_eq!(replayed.status(), play.status());
    assert_eq!(replayed.move_texts(), play.move_texts());
}

#[test]
fn a_record_from_black_to_move_is_numbered_from_one_dots() {
    let game = Chad::new();
    let start = game.parse_position(&format!("{EXAMPLE} b")).unwrap();
    let mut play = Playthrough::from_state(game, start);
    play.play_text("E2-D2").unwrap();
    play.play_text("D4-C5").unwrap();
    let text = Record::of(&play, &[]).to_string();
    assert!(text.contains("1... E2-D2 2. D4-C5 *"), "{text}");
    let replayed = text.parse::<Record>().unwrap().replay(Chad::new()).unwrap();
    assert_eq!(replayed.move_texts(), ["E2-D2", "D4-C5"]);
}

#[test]
fn a_result_the_board_contradicts_is_refused() {
    let mut record = Record::of(&mating_game(), &[]);
    record.result = "0-1".into();
    record.set_tag("Result", "0-1");
    let err = record.replay(Chad::new()).unwrap_err();
    assert!(matches!(err, RecordError::Result { .. }), "{err}");
}

#[test]
fn the_first_illegal_move_is_named_by_number() {
    let text = "[Game \"chad\"]\n[Ruleset \"chad\"]\n\n1. C5-A5 I8-I5 2. A5-A6 J9-J12 3. A6-B7 *\n";
    let err = text
        .parse::<Record>()
        .unwrap()
        .replay(Chad::new())
        .unwrap_err();
    let message = err.to_string();
    assert!(message.starts_with("move 2... J9-J12 (Black)"), "{message}");
    let text = "[Ruleset \"chad\"]\n\n1. C5-A5 I8-I5 2. A5-A6 J9-L9 3. A6-B7 *\n";
    let err = text
        .parse::<Record>()
        .unwrap()
        .replay(Chad::new())
        .unwrap_err();
    assert!(
        err.to_string().starts_with("move 3. A6-B7 (White)"),
        "{err}"
    );
    let err = "[Ruleset \"chad\"]\n\n1. Z9 *"
        .parse::<Record>()
        .unwrap()
        .replay(Chad::new());
    assert!(err.unwrap_err().to_string().contains("cannot read move"));
}

#[test]
fn resignation_and_wrong_rulesets() {
    let text =
        "[Ruleset \"chad\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. C5-A5 0-1\n";
    let play = text.parse::<Record>().unwrap().replay(Chad::new()).unwrap();
    assert!(matches!(play.status(), Status::Over(o) if o.reason.key() == "resignation"));
    let err = "[Ruleset \"shakti\"]\n\n*"
        .parse::<Record>()
        .unwrap()
        .replay(Chad::new());
    assert!(matches!(err, Err(RecordError::WrongRuleset { .. })));
    let err = "[Game \"chad\"]\n\n*"
        .parse::<Record>()
        .unwrap()
        .replay(Chad::new());
    assert!(matches!(err, Err(RecordError::NoRuleset)));
    let err = "[Ruleset \"chad\"]\n[Position \"12 w\"]\n\n*"
        .parse::<Record>()
        .unwrap()
        .replay(Chad::new());
    assert!(matches!(err, Err(RecordError::Position(_))));
}

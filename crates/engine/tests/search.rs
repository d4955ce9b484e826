//! The generic alpha-beta search on real games.

use denkmeter_core::Game;
use denkmeter_engine::matches::{play_match, MatchConfig};
use denkmeter_engine::search::{eval::WIN, search};
use denkmeter_engine::{Agent, Limits, Registry};
use denkmeter_games::chad::Chad;

#[test]
fn alphabeta_finds_the_chad_example_mate_in_two() {
    let game = Chad::new();
    let state = game
        .parse_position("12/12/12/3R3rk3/12/7R4/12/12/2RKR7/12/4q7/12 w")
        .expect("the rules file's example position");
    let found = search(&game, &state, Limits::depth(3)).expect("White has moves");
    assert_eq!(game.move_text(&state, found.best), "H7xH9");
    assert_eq!(found.score, WIN - 3, "mate on the third ply");
}

#[test]
fn alphabeta_beats_random_at_draughts() {
    let game = Registry::from_list(denkmeter_games::visit_rulesets)
        .find("scandinavian-8x8")
        .expect("registered");
    let config = MatchConfig {
        games: 6,
        max_plies: 200,
        seed: 5,
        ..MatchConfig::new(Agent::AlphaBeta(Limits::depth(3)), Agent::Random)
    };
    let report = play_match(game.as_ref(), &config, |_, _| {}).expect("the match is played");
    eprintln!("scandinavian-8x8 ab:3 vs random: {report}");
    assert!(report.score() >= 0.75, "{report}");
}

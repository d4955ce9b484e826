//! The generic computer player must beat a random mover clearly in every ruleset of the list.

use denkmeter_engine::matches::{play_match, MatchConfig};
use denkmeter_engine::{Agent, Limits, Registry};

#[test]
fn mcts_beats_random_in_every_ruleset() {
    let registry = Registry::from_list(denkmeter_games::visit_rulesets);
    let config = MatchConfig {
        games: 4,
        max_plies: 300,
        seed: 11,
        ..MatchConfig::new(Agent::Mcts(Limits::nodes(300)), Agent::Random)
    };
    let mut failures = Vec::new();
    for game in registry.rulesets() {
        let report = play_match(game.as_ref(), &config, |_, _| {}).expect("the match is played");
        eprintln!("{}: {} vs random: {report}", game.name(), config.first);
        if report.wins <= report.losses || report.score() < 0.75 {
            failures.push(format!("{}: {report}", game.name()));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

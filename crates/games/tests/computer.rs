//! The generic computer player must beat a random mover clearly in every game.

use denkmeter_engine::matches::{play_match, Agent, MatchConfig};
use denkmeter_engine::mcts::Limits;

fn match_against_random(ruleset: &str, iterations: u64, games: u32) -> f64 {
    let game = denkmeter_games::registry::find(ruleset).expect("registered");
    let config = MatchConfig {
        first: Agent::Mcts(Limits::iterations(iterations)),
        second: Agent::Random,
        games,
        max_plies: 300,
        seed: 11,
    };
    let report = play_match(game.as_ref(), &config, |_| {});
    eprintln!("{ruleset}: mcts:{iterations} vs random: {report}");
    assert!(report.wins > report.losses, "{ruleset}: {report}");
    report.score()
}

#[test]
fn mcts_beats_random_at_shakti() {
    assert!(match_against_random("shakti", 300, 8) >= 0.75);
}

#[test]
fn mcts_beats_random_at_chad() {
    assert!(match_against_random("chad", 300, 6) >= 0.75);
}

#[test]
fn mcts_beats_random_at_sjekkers() {
    for ruleset in ["sjekkers", "sjekkers-sideways", "sjekkers-checkers"] {
        assert!(match_against_random(ruleset, 300, 6) >= 0.75);
    }
}

#[test]
fn mcts_beats_random_at_draughts() {
    for ruleset in [
        "scandinavian-8x8",
        "scandinavian",
        "international",
        "english",
    ] {
        assert!(match_against_random(ruleset, 300, 6) >= 0.75);
    }
}

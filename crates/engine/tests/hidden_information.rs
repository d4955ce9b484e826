//! The computer in a game that hides something (Trangalla) plays from what it knows: its
//! search is given an observation, never the true state, and it plays well from it.

use denkmeter_core::{Game, Player};
use denkmeter_engine::dynamic::Ruleset;
use denkmeter_engine::ismcts;
use denkmeter_engine::matches::{play_match, MatchConfig, MatchReport, Openings};
use denkmeter_engine::mcts::MctsConfig;
use denkmeter_engine::{Agent, Limits};
use denkmeter_games::trangalla::Trangalla;

/// White's king on b2, Black's on d4, after a few moves; and the same with Black's king on
/// another of its never-flipped pieces: White cannot tell them apart.
fn two_truths() -> (String, String) {
    (
        "2ss1/3ks/S3s/SK3/1SS2 w".into(),
        "2ss1/3ss/S3k/SK3/1SS2 w".into(),
    )
}

/// The first of [`two_truths`], and what White sees of it.
fn first_truth_seen_by_white(
    game: &Trangalla,
) -> (<Trangalla as Game>::State, <Trangalla as Game>::State) {
    let (truth, _) = two_truths();
    let state = game.parse_position(&truth).expect("a position");
    let seen = game.observation(&state, Player::White);
    (state, seen)
}

/// The move `agent` chooses in each of [`two_truths`], through the object-safe layer.
fn moves_from_both_truths(agent: &Agent, seed: u64) -> [String; 2] {
    use denkmeter_engine::dynamic::AnyGame;
    let ruleset = Ruleset(Trangalla::new());
    let (a, b) = two_truths();
    [a, b].map(|text| {
        ruleset
            .new_game(Some(&text))
            .expect("a game")
            .choose_move(agent, seed)
            .expect("a move")
    })
}

/// A seeded Trangalla match, adjudicated after 400 plies.
fn trangalla_match(
    first: Agent,
    second: Agent,
    games: u32,
    seed: u64,
    openings: Openings,
) -> MatchReport {
    let game = Ruleset::shared(Trangalla::new());
    let config = MatchConfig {
        games,
        max_plies: 400,
        seed,
        openings,
        ..MatchConfig::new(first, second)
    };
    let report = play_match(game.as_ref(), &config, |_, _| {}).expect("the match is played");
    eprintln!("trangalla {first} vs {second}: {report}");
    report
}

#[test]
fn ismcts_is_given_an_observation_and_the_same_observation_gives_the_same_move() {
    let game = Trangalla::new();
    let (a, b) = two_truths();
    let a = game.parse_position(&a).expect("a position");
    let b = game.parse_position(&b).expect("a position");
    assert_ne!(game.hash(&a), game.hash(&b), "different truths");
    let seen_a = game.observation(&a, Player::White);
    let seen_b = game.observation(&b, Player::White);
    assert_eq!(seen_a, seen_b, "one observation");
    assert!(seen_a.hides_king_of(Player::Black));
    assert_eq!(
        seen_a.king(Player::Black),
        None,
        "the observation holds no Black king"
    );
    let config = MctsConfig::new(Limits::nodes(400), 7);
    let from_observation = ismcts::search(&game, &seen_a, Player::White, &config)
        .expect("a move")
        .best;
    let mut legal = Vec::new();
    game.legal_moves(&a, &mut legal);
    assert!(legal.contains(&from_observation));
    // Through the object-safe layer, from either truth: the same move.
    let [a, b] = moves_from_both_truths(&Agent::Ismcts(Limits::nodes(400)), 11);
    assert_eq!(a, b, "the computer's move depends on what it knows only");
}

#[test]
fn sampled_alpha_beta_is_given_an_observation_and_the_same_observation_gives_the_same_move() {
    use denkmeter_engine::{pimc, SearchOptions};
    let game = Trangalla::new();
    let (a, seen) = first_truth_seen_by_white(&game);
    let options = SearchOptions {
        seed: 5,
        ..SearchOptions::new(Limits::nodes(20_000))
    };
    let found = pimc::search(&game, &seen, Player::White, &options).expect("a move");
    let mut legal = Vec::new();
    game.legal_moves(&a, &mut legal);
    assert!(legal.contains(&found.best));
    // The budget is spent in passes of one more ply over every (drawing, answer) search; the
    // pass that runs out is cut short and dropped, so the total overshoots by a few searches.
    assert!(
        found.nodes > 0 && found.nodes <= 3 * 20_000,
        "{}",
        found.nodes
    );
    // `ab:` in a game that hides something is this search, from either truth the same move.
    let agent: Agent = "ab:n20000".parse().expect("an agent");
    let [a, b] = moves_from_both_truths(&agent, 5);
    assert_eq!(a, b, "the move depends on what it knows only");
}

/// Where a third repetition is forbidden (Trangalla), sampled alpha-beta does not choose a
/// move that would make one while it has another.
#[test]
fn sampled_alpha_beta_avoids_a_third_repetition() {
    use denkmeter_engine::{pimc, SearchOptions};
    let game = Trangalla::new();
    let (a, seen) = first_truth_seen_by_white(&game);
    let search = |history: Vec<u64>| {
        let options = SearchOptions {
            seed: 5,
            history,
            ..SearchOptions::new(Limits::depth(2))
        };
        pimc::search(&game, &seen, Player::White, &options)
            .expect("a move")
            .best
    };
    let first = search(Vec::new());
    let mut after = a.clone();
    game.play_unchecked(&mut after, first);
    let seen_twice = vec![game.repetition_hash(&after); 2];
    let second = search(seen_twice);
    let mut legal = Vec::new();
    game.legal_moves(&a, &mut legal);
    assert!(legal.len() > 1 && legal.contains(&second));
    assert_ne!(first, second, "the move that would repeat a third time");
}

/// Sampled alpha-beta against information-set MCTS at a fixed budget each (seeded, so
/// reproducible). At equal time (the measure, not reproducible, so not a test):
/// `denkmeter match trangalla --first ab:200ms --second ismcts:200ms --games 40
/// --random-plies 2` gave +27 =1 -12, and against MCTS on one drawing `--second mcts:200ms`
/// +30 =1 -9 (Elo +203, +95 to +367).
#[test]
fn sampled_alpha_beta_beats_information_set_mcts() {
    let report = trangalla_match(
        "ab:n20000".parse().expect("an agent"),
        Agent::Ismcts(Limits::nodes(2_000)),
        40,
        6,
        Openings::RandomPlies(2),
    );
    assert!(report.wins > report.losses + 6, "{report}");
}

#[test]
fn the_computer_chooses_its_king_without_knowing_the_other() {
    use denkmeter_engine::dynamic::AnyGame;
    let ruleset = Ruleset(Trangalla::new());
    let mut game = ruleset.new_game(None).expect("a game");
    let white = game
        .choose_move(&Agent::Computer(1), 1)
        .expect("a setup move");
    assert!(white.starts_with("K@"), "{white}");
    game.play(&white).expect("legal");
    let black = game
        .choose_move(&Agent::Computer(1), 2)
        .expect("a setup move");
    assert!(black.starts_with("K@"), "{black}");
}

/// Level 1 against a random mover, colours alternating: at least 95 wins in 100 games (the
/// issue's bar). Level 1 is alpha-beta over drawings, each answer searched a ply deep, with
/// noise.
#[test]
fn the_computer_beats_a_random_mover() {
    let report = trangalla_match(Agent::Computer(1), Agent::Random, 100, 10, Openings::Start);
    assert!(report.wins >= 95, "{report}");
}

/// Information-set MCTS against MCTS on a single determinization, both at 300 iterations a
/// move (seeded, so reproducible): 55 wins, 9 draws, 36 losses. At equal time (the issue's
/// measure, not reproducible, so not a test): `denkmeter match trangalla --first ismcts:50ms
/// --second mcts:50ms --games 200 --seed 3` gave +126 =2 -72, Elo +96 +- 50.
#[test]
fn ismcts_beats_a_single_determinization() {
    let report = trangalla_match(
        Agent::Ismcts(Limits::nodes(300)),
        Agent::Mcts(Limits::nodes(300)),
        100,
        4,
        Openings::Start,
    );
    assert!(report.wins > report.losses + 10, "{report}");
}

#[test]
#[ignore]
fn iterations_per_second() {
    use std::time::Duration;
    let game = Trangalla::new();
    let state = game.parse_position("2ss1/3ks/S3s/SK3/1SS2 w").unwrap();
    let seen = game.observation(&state, Player::White);
    let limits = Limits {
        time: Some(Duration::from_millis(500)),
        ..Limits::default()
    };
    let config = MctsConfig::new(limits, 1);
    let is = ismcts::search(&game, &seen, Player::White, &config).unwrap();
    let mut rng = rand::rngs::mock::StepRng::new(1, 1);
    let det = game.determinize(&seen, Player::White, &mut rng);
    let mc = denkmeter_engine::mcts::search(&game, &det, &config).unwrap();
    eprintln!(
        "ismcts {} iterations, mcts {} iterations in 500 ms",
        is.nodes, mc.nodes
    );
}

/// Alpha-beta over drawings considers every piece that may be the hidden king, weighed alike:
/// at the start of play each of Black's five pieces may be its king.
#[test]
fn drawings_cover_every_possible_king_about_equally() {
    use denkmeter_engine::pimc::{draw, DRAWS};
    let game = Trangalla::new();
    let (_, observation) = first_truth_seen_by_white(&game);
    for seed in 0..20 {
        let drawings = draw(&game, &observation, Player::White, seed);
        assert_eq!(
            drawings.len(),
            5,
            "seed {seed}: a drawing per unflipped black piece"
        );
        let total: u32 = drawings.iter().map(|d| d.2).sum();
        assert_eq!(total as usize, DRAWS);
        for (_, drawn, weight) in &drawings {
            // Uniform would be 51.2 each, give or take 6.4; 30 is more than three of those below.
            assert!(
                *weight >= 30,
                "seed {seed}: a king drawn only {weight} times"
            );
            assert_eq!(game.observation(drawn, Player::White), observation);
        }
    }
}

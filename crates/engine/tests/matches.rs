//! Matches as a measuring instrument: openings played with both colours, adjudication on
//! material at the ply limit, and results that do not depend on how many games run at once.

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::sync::Arc;

use denkmeter_core::{Outcome, Player, Reason, Record, Status};
use denkmeter_engine::dynamic::AnyGame;
use denkmeter_engine::matches::{
    balanced_random_opening, match_openings, parse_openings, play_match, random_opening,
    GameResult, MatchConfig, MatchError, MatchReport, Opening, Openings, OpeningsError,
    BALANCE_SEARCH_NODES,
};
use denkmeter_engine::search::SearchOptions;
use denkmeter_engine::{Agent, Limits, Registry};

fn ruleset(name: &str) -> Arc<dyn AnyGame> {
    Registry::from_list(denkmeter_games::visit_rulesets)
        .find(name)
        .unwrap_or_else(|| panic!("{name} is registered"))
}

/// Plays a match and keeps every game as it was handed on.
fn play(game: &dyn AnyGame, config: &MatchConfig) -> (MatchReport, Vec<GameResult>) {
    let mut games = Vec::new();
    let report = play_match(game, config, |_, g| games.push(g.clone())).unwrap();
    (report, games)
}

#[test]
fn an_openings_file_skips_blank_lines_and_comments() {
    let game = ruleset("scandinavian-8x8");
    let text = "\u{feff}# three positions\r\n\
                \r\n\
                D7/8/8/8/8/8/D7/1d6 w\r\n\
                \t  m7/8/8/8/8/8/8/1M6 w  \n\
                # a comment between\n\
                \n\
                D7/8/8/8/8/8/8/1d6 b";
    assert_eq!(
        parse_openings(game.as_ref(), text).unwrap(),
        [
            "D7/8/8/8/8/8/D7/1d6 w",
            "m7/8/8/8/8/8/8/1M6 w",
            "D7/8/8/8/8/8/8/1d6 b"
        ]
    );
}

#[test]
fn a_bad_opening_line_is_an_error_naming_its_line() {
    let game = ruleset("scandinavian-8x8");
    let good = "D7/8/8/8/8/8/D7/1d6 w";
    // A man on a light square, on line 4.
    let text = format!("# openings\n{good}\n\n8/8/8/8/8/8/8/M7 w\n{good}\n");
    let error = parse_openings(game.as_ref(), &text).unwrap_err();
    assert!(
        matches!(error, OpeningsError::Line { line: 4, .. }),
        "{error}"
    );
    let message = error.to_string();
    assert!(
        message.starts_with("openings, line 4: ") && message.contains("a1"),
        "{message}"
    );
    // A position where the game is over (White has no piece) cannot open a game.
    let error = parse_openings(game.as_ref(), "8/8/8/8/8/8/8/1d6 w").unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("openings, line 1: the game is already over"),
        "{error}"
    );
    assert_eq!(
        parse_openings(game.as_ref(), "# nothing\n\n  \n"),
        Err(OpeningsError::Empty)
    );
    for junk in [
        "w",
        "\u{0}\u{7f}",
        "ééé/ b",
        "99999999999999999999/8 w",
        "/////// w",
    ] {
        let error = parse_openings(game.as_ref(), junk).unwrap_err();
        assert!(
            matches!(error, OpeningsError::Line { line: 1, .. }),
            "{junk:?}: {error}"
        );
    }
}

#[test]
fn random_openings_are_reproducible_legal_and_going_on() {
    for name in ["scandinavian-8x8", "chad", "kamelen", "trangalla", "schada"] {
        let game = ruleset(name);
        for seed in 0..5 {
            let opening = random_opening(game.as_ref(), 6, seed).unwrap();
            assert_eq!(random_opening(game.as_ref(), 6, seed).unwrap(), opening);
            assert_eq!(opening.moves.len(), 6, "{name}");
            // The moves are legal from the start and lead to the position.
            let mut session = game.new_game(None).unwrap();
            for text in &opening.moves {
                session.play(text).unwrap();
            }
            assert_eq!(Some(session.position()), opening.position, "{name}");
            let from_text = game.new_game(opening.position.as_deref()).unwrap();
            assert_eq!(from_text.status(), Status::Ongoing, "{name}");
        }
        let drawn: Vec<_> = (0..5)
            .map(|seed| random_opening(game.as_ref(), 6, seed).unwrap())
            .collect();
        assert!(
            drawn.iter().any(|o| *o != drawn[0]),
            "{name}: five seeds, one opening"
        );
    }
}

#[test]
fn balanced_openings_are_scored_near_even_where_random_ones_are_not() {
    let game = ruleset("scandinavian-8x8");
    let score = |opening: &Opening| {
        let session = game.new_game(opening.position.as_deref()).unwrap();
        let options = SearchOptions::new(Limits::nodes(BALANCE_SEARCH_NODES));
        session.analyse(&options, &mut |_| {}).unwrap().score
    };
    // Four random plies in this sharp game often cost a side a piece or more.
    let lopsided = (0..20)
        .filter(|&seed| score(&random_opening(game.as_ref(), 4, seed).unwrap()).abs() > 50)
        .count();
    assert!(lopsided >= 2, "{lopsided} of 20 random openings lopsided");
    let balanced: Vec<Opening> = (0..5)
        .map(|seed| balanced_random_opening(game.as_ref(), 4, 50, seed).unwrap())
        .collect();
    for (seed, opening) in (0..).zip(&balanced) {
        assert!(score(opening).abs() <= 50, "{opening:?}");
        assert_eq!(opening.moves.len(), 4);
        assert_eq!(
            balanced_random_opening(game.as_ref(), 4, 50, seed).unwrap(),
            *opening
        );
    }
    assert!(balanced.iter().any(|o| *o != balanced[0]));
    // A match asks for them by name.
    let config = MatchConfig {
        games: 4,
        openings: Openings::BalancedRandomPlies {
            plies: 4,
            margin: 50,
        },
        ..MatchConfig::new(Agent::Random, Agent::Random)
    };
    let openings = match_openings(game.as_ref(), &config).unwrap();
    assert_eq!(openings.len(), 2);
    assert!(openings.iter().all(|o| score(o).abs() <= 50));
}

#[test]
fn random_openings_never_end_the_game() {
    // Every Straat game ends after 16 placements: 15 random plies leave it going, 16 never do.
    let game = ruleset("straat");
    let opening = random_opening(game.as_ref(), 15, 7).unwrap();
    let session = game.new_game(opening.position.as_deref()).unwrap();
    assert_eq!(session.status(), Status::Ongoing);
    assert_eq!(
        random_opening(game.as_ref(), 16, 7),
        Err(MatchError::NoRandomOpening {
            plies: 16,
            tries: 1000
        })
    );
    // No plies: the start.
    let opening = random_opening(game.as_ref(), 0, 7).unwrap();
    assert_eq!((opening.position, opening.moves.len()), (None, 0));
}

#[test]
fn each_opening_is_played_once_with_each_player_as_white() {
    let game = ruleset("shakti");
    let config = MatchConfig {
        games: 8,
        openings: Openings::RandomPlies(4),
        max_plies: 40,
        seed: 3,
        ..MatchConfig::new(Agent::Mcts(Limits::nodes(20)), Agent::Random)
    };
    let openings = match_openings(game.as_ref(), &config).unwrap();
    assert_eq!(openings.len(), 4);
    let (report, games) = play(game.as_ref(), &config);
    assert_eq!(report.games(), 8);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.index as usize, i);
        assert_eq!(g.opening, i / 2);
        assert_eq!(g.first_is_white, i % 2 == 0);
        let position = openings[g.opening].position.as_deref();
        assert!(position.is_some());
        assert_eq!(g.record.tag("Position"), position, "game {i}");
        let (white, black) = if g.first_is_white {
            ("mcts:20", "random")
        } else {
            ("random", "mcts:20")
        };
        assert_eq!(g.record.tag("White"), Some(white));
        assert_eq!(g.record.tag("Black"), Some(black));
        assert_eq!(g.record.tag("Round"), Some((i + 1).to_string().as_str()));
        // The record replays to the same ending.
        let text = g.record.to_string();
        let session = game.load_record(&text.parse::<Record>().unwrap()).unwrap();
        assert_eq!(session.status(), Status::Over(g.outcome.clone()), "{text}");
        assert_eq!(session.moves().len(), g.plies);
    }

    // Fewer positions than pairs: the list starts over, still both colours each.
    let config = MatchConfig {
        games: 8,
        openings: Openings::Positions(vec![
            "k6/2-2-w/5-1/4-2/1--K3/2-4/7 w".to_string(),
            "-5-/1w1k3/7/7/7/1W1K1W1/-5- w".to_string(),
        ]),
        max_plies: 10,
        ..MatchConfig::new(Agent::Random, Agent::Random)
    };
    let (_, games) = play(game.as_ref(), &config);
    let seen: Vec<_> = games
        .iter()
        .map(|g| (g.opening, g.first_is_white))
        .collect();
    assert_eq!(
        seen,
        [
            (0, true),
            (0, false),
            (1, true),
            (1, false),
            (0, true),
            (0, false),
            (1, true),
            (1, false)
        ]
    );
}

#[test]
fn openings_need_an_even_number_of_games() {
    let game = ruleset("shakti");
    let config = MatchConfig {
        games: 7,
        openings: Openings::RandomPlies(2),
        ..MatchConfig::new(Agent::Random, Agent::Random)
    };
    let error = play_match(game.as_ref(), &config, |_, _| {}).unwrap_err();
    assert_eq!(error, MatchError::OddGames { games: 7 });
    assert!(error.to_string().contains("must be even"), "{error}");
    // From the start position an odd number is fine: the first player has White once more.
    let config = MatchConfig {
        games: 3,
        max_plies: 4,
        ..MatchConfig::new(Agent::Random, Agent::Random)
    };
    let (report, games) = play(game.as_ref(), &config);
    assert_eq!(report.games(), 3);
    assert_eq!(games.iter().filter(|g| g.first_is_white).count(), 2);
    // Openings given to the engine directly are checked too.
    let config = MatchConfig {
        games: 2,
        openings: Openings::Positions(vec!["k6/2-2-w/5-1/4-2/1--K3/2-4/7 w".into(), "x".into()]),
        ..MatchConfig::new(Agent::Random, Agent::Random)
    };
    let error = play_match(game.as_ref(), &config, |_, _| {}).unwrap_err();
    assert!(
        matches!(error, MatchError::Position { number: 2, .. }),
        "{error}"
    );
}

/// Fort Chitral positions two plies from anything happening (no piece can reach an enemy in
/// two plies), played to a ply limit of 2: material decides.
#[test]
fn a_big_material_lead_at_the_ply_limit_wins_and_an_even_one_draws() {
    let game = ruleset("fort-chitral");
    let empty = "18/".repeat(16);
    let black = "pppppppppppppppppp";
    let white = "PPPPPPPPPPPPPPPPPP";
    let openings = vec![
        // White three pieces up.
        format!("ppppppppppppppp3/{empty}{white} w"),
        // Even.
        format!("{black}/{empty}{white} w"),
        // White one piece up: less than the margin of two.
        format!("ppppppppppppppppp1/{empty}{white} b"),
        // Black two pieces up.
        format!("{black}/{empty}PPPPPPPPPPPPPPPP2 w"),
    ];
    let config = MatchConfig {
        games: 8,
        openings: Openings::Positions(openings.clone()),
        max_plies: 2,
        seed: 9,
        ..MatchConfig::new(Agent::Random, Agent::Mcts(Limits::nodes(10)))
    };
    let (report, games) = play(game.as_ref(), &config);
    let outcomes: Vec<_> = games.iter().map(|g| g.outcome.clone()).collect();
    let white = Outcome::win(Player::White, Reason::Adjudication);
    let black = Outcome::win(Player::Black, Reason::Adjudication);
    let draw = Outcome::draw(Reason::MoveLimit);
    assert_eq!(
        outcomes,
        [
            white.clone(),
            white,
            draw.clone(),
            draw.clone(),
            draw.clone(),
            draw,
            black.clone(),
            black
        ]
    );
    assert!(games.iter().all(|g| g.plies == 2));
    // The first player had White in games 0 and 6: won game 0, lost game 6 and the reverse.
    assert_eq!(
        report,
        MatchReport {
            wins: 2,
            draws: 4,
            losses: 2,
            adjudicated_wins: 2,
            adjudicated_draws: 4,
            adjudicated_losses: 2,
            total_plies: 16,
            ..MatchReport::default()
        }
    );
    // The records say so and replay to the same ending.
    let text = games[0].record.to_string();
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(
        text.contains("[Termination \"adjudication on material\"]"),
        "{text}"
    );
    assert!(
        text.contains(&format!("[Position \"{}\"]", openings[0])),
        "{text}"
    );
    let replayed = game.load_record(&text.parse().unwrap()).unwrap();
    assert_eq!(replayed.status(), Status::Over(games[0].outcome.clone()));
    assert!(games[2]
        .record
        .to_string()
        .contains("[Termination \"move limit\"]"));

    // A larger margin makes the three-piece lead a draw too.
    let config = MatchConfig {
        adjudicate_margin: 400,
        ..config
    };
    let (report, _) = play(game.as_ref(), &config);
    assert_eq!((report.draws, report.adjudicated_draws), (8, 8));
}

#[test]
fn a_game_without_material_is_a_draw_at_the_ply_limit() {
    let game = ruleset("trangalla");
    let config = MatchConfig {
        games: 2,
        max_plies: 3,
        ..MatchConfig::new(Agent::Random, Agent::Random)
    };
    let (report, games) = play(game.as_ref(), &config);
    assert!(games
        .iter()
        .all(|g| g.outcome == Outcome::draw(Reason::MoveLimit)));
    assert_eq!(report.adjudicated_draws, 2);
}

/// The same games, records and report whether one, two or three games run at once.
#[test]
fn results_do_not_depend_on_the_concurrency() {
    let game = ruleset("scandinavian-8x8");
    let config = MatchConfig {
        games: 6,
        openings: Openings::RandomPlies(4),
        max_plies: 40,
        seed: 21,
        ..MatchConfig::new(
            Agent::Mcts(Limits::nodes(30)),
            Agent::alpha_beta(Limits::depth(2)),
        )
    };
    let (report, games) = play(game.as_ref(), &config);
    eprintln!("concurrency 1: {report}");
    assert_eq!(report.games(), 6);
    let texts = |games: &[GameResult]| {
        games
            .iter()
            .map(|g| g.record.to_string())
            .collect::<Vec<_>>()
    };
    for concurrency in [2, 3] {
        let config = MatchConfig {
            concurrency,
            ..config.clone()
        };
        let (again, games_again) = play(game.as_ref(), &config);
        assert_eq!(again, report, "concurrency {concurrency}");
        assert_eq!(
            texts(&games_again),
            texts(&games),
            "concurrency {concurrency}"
        );
    }
}

#[test]
fn on_the_clock_every_move_is_timed_and_nobody_overruns() {
    use denkmeter_engine::matches::MatchClock;
    use std::time::Duration;
    let game = ruleset("english");
    let clock = MatchClock {
        initial: Duration::from_millis(1_500),
        increment: Duration::from_millis(20),
        // The first plans by the time manager, the second spends a fixed share.
        fixed_share: [false, true],
    };
    let unlimited = Agent::alpha_beta(Limits::depth(64));
    let config = MatchConfig {
        games: 2,
        max_plies: 40,
        openings: Openings::RandomPlies(4),
        clock: Some(clock),
        ..MatchConfig::new(unlimited, unlimited)
    };
    let (report, games) = play(game.as_ref(), &config);
    assert_eq!(report.time_losses, [0, 0], "{report:#}");
    for g in &games {
        let thinking = g.thinking.expect("timed");
        assert_eq!(
            thinking[0].moves + thinking[1].moves,
            u32::try_from(g.plies).unwrap()
        );
        assert!(thinking.iter().all(|t| !t.spent.is_zero()), "{thinking:?}");
    }
    assert!(format!("{report:#}").contains("thinking"), "{report:#}");
}

#[test]
fn on_the_clock_a_player_whose_time_runs_out_loses() {
    use denkmeter_engine::matches::MatchClock;
    use std::time::Duration;
    let game = ruleset("international");
    let config = MatchConfig {
        games: 2,
        clock: Some(MatchClock {
            // Depth 1 always completes: it takes longer than a microsecond.
            initial: Duration::from_micros(1),
            increment: Duration::ZERO,
            fixed_share: [false, false],
        }),
        ..MatchConfig::new(
            Agent::alpha_beta(Limits::depth(64)),
            Agent::alpha_beta(Limits::depth(64)),
        )
    };
    let (report, games) = play(game.as_ref(), &config);
    for g in &games {
        assert_eq!(g.outcome.reason, Reason::TimeForfeit, "{:?}", g.outcome);
        assert_eq!(
            g.outcome.winner,
            Some(Player::Black),
            "White moves first and overruns"
        );
        assert_eq!(g.plies, 0);
    }
    assert_eq!(report.time_losses, [1, 1]);
}

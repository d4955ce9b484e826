//! The generic alpha-beta search on real games.

use denkmeter_core::Game;
use denkmeter_engine::matches::{play_match, MatchConfig};
use denkmeter_engine::search::{eval::WIN, search, search_with, SearchOptions};
use denkmeter_engine::{Agent, Limits, Registry};
use denkmeter_games::chad::Chad;
use denkmeter_games::draughts::{English, International};

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
        ..MatchConfig::new(Agent::alpha_beta(Limits::depth(3)), Agent::Random)
    };
    let report = play_match(game.as_ref(), &config, |_, _| {}).expect("the match is played");
    eprintln!("scandinavian-8x8 ab:3 vs random: {report}");
    assert!(report.score() >= 0.75, "{report}");
}

#[test]
fn two_threads_find_the_same_mate() {
    let game = Chad::new();
    let state = game
        .parse_position("12/12/12/3R3rk3/12/7R4/12/12/2RKR7/12/4q7/12 w")
        .expect("the rules file's example position");
    let options = SearchOptions {
        threads: 2,
        ..SearchOptions::new(Limits::depth(5))
    };
    let found = search_with(&game, &state, &options, &mut |_| {}).expect("White has moves");
    assert_eq!(game.move_text(&state, found.best), "H7xH9");
    assert_eq!(found.score, WIN - 3);
    assert_eq!(found.pv.len(), 3, "the line to the mate: {:?}", found.pv);
}

#[test]
fn a_side_behind_steers_for_a_position_that_repeats_the_game() {
    // One king against two: White is worse, unless a move repeats a position of the game.
    let game = English::new();
    let state = game
        .parse_position("8/8/8/4D3/8/8/1d6/4d3 w")
        .expect("a valid position");
    let alone = search(&game, &state, Limits::depth(4)).expect("White has moves");
    assert!(alone.score < -100, "{}", alone.score);
    let mut moves = Vec::new();
    game.legal_moves(&state, &mut moves);
    let mut tried = 0;
    for (&mv, from_after) in moves.iter().flat_map(|m| [(m, false), (m, true)]) {
        // A game that played `mv`, a reply, and both back: its position is the start's again,
        // and `mv` would repeat the position it led to.
        let Some((history, again)) = there_and_back(&game, &state, mv, from_after) else {
            continue;
        };
        tried += 1;
        let options = SearchOptions {
            history,
            ..SearchOptions::new(Limits::depth(4))
        };
        let found = search_with(&game, &again, &options, &mut |_| {}).expect("White has moves");
        assert_eq!(found.best, mv, "{}", game.move_text(&state, mv));
        assert_eq!(found.score, 0, "a repetition scores as the draw it is");
    }
    assert!(tried >= 8, "{tried} of {} moves, twice", moves.len());
}

/// The repetition hashes of a game that plays `mv` from `state`, a reply, and two moves that
/// bring the pieces back, and the position it reaches (`state`'s, but for the draw rules'
/// counts), if some reply allows that. `from_after`: the game starts instead at the position
/// `mv` led to, read from its text (no plies counted before it), so that playing `mv` again
/// repeats a position exactly as many plies back as the draw rules' count allows.
fn there_and_back<G: Game>(
    game: &G,
    state: &G::State,
    mv: G::Move,
    from_after: bool,
) -> Option<(Vec<u64>, G::State)> {
    let after = |s: &G::State, m: G::Move| {
        let mut next = s.clone();
        game.play_unchecked(&mut next, m);
        next
    };
    let legal = |s: &G::State| {
        let mut moves = Vec::new();
        game.legal_moves(s, &mut moves);
        moves
    };
    let mut a = after(state, mv);
    if from_after {
        a = game.parse_position(&game.position_text(&a)).ok()?;
    }
    for reply in legal(&a) {
        let b = after(&a, reply);
        for back in legal(&b) {
            let c = after(&b, back);
            for other_back in legal(&c) {
                let d = after(&c, other_back);
                if game.repetition_hash(&d) == game.repetition_hash(state) {
                    let line = if from_after {
                        vec![&a, &b, &c]
                    } else {
                        vec![state, &a, &b, &c]
                    };
                    let history = line.iter().map(|p| game.repetition_hash(p)).collect();
                    return Some((history, d));
                }
            }
        }
    }
    None
}

#[test]
fn the_search_scores_a_draw_by_the_25_move_rule_as_a_draw() {
    // Four kings against one, Black's lone king to move 49 plies of kings' moves into the
    // 25-move rule: whatever it does, the game is drawn (with White to move a ply earlier,
    // White would give a king away, since Black must take it and that starts the count again).
    let game = International::new();
    let mut state = game
        .parse_position("7d2/10/10/10/10/10/10/10/10/2D1D1D1D1 w")
        .expect("a valid position");
    for ply in 0..49 {
        let text = [["c1-d2", "h10-g9"], ["d2-c1", "g9-h10"]][ply / 2 % 2][ply % 2];
        let mv = game.parse_move(&state, text).expect("a legal shuttle");
        game.play(&mut state, mv).expect("legal");
    }
    // The same board read from text starts its count afresh.
    let fresh = game
        .parse_position(&game.position_text(&state))
        .expect("a position string reads back");
    let fresh = search(&game, &fresh, Limits::depth(6)).expect("Black has moves");
    assert!(
        fresh.score < -100,
        "the count just started: {}",
        fresh.score
    );
    let late = search(&game, &state, Limits::depth(6)).expect("Black has moves");
    assert_eq!(late.score, 0, "a draw a ply on");
    // A ply on, the game is over.
    let mut next = state.clone();
    let mv = game.parse_move(&next, "h10-g9").expect("legal");
    game.play(&mut next, mv).expect("legal");
    assert!(game.status(&next).is_over());
    assert!(!game.status(&state).is_over());
    assert!(
        search(&game, &next, Limits::depth(1)).is_none(),
        "no moves once drawn"
    );
}

#[test]
fn a_quiet_ply_limit_draws_a_win_that_comes_too_late() {
    let game = English::new();
    // Three dames against one: a forced win (the last dame taken) in 21 plies.
    let state = game
        .parse_position("1d6/8/8/8/8/8/8/2D1D1D1 w")
        .expect("a position");
    let searched = |quiet_ply_limit, quiet_plies| {
        let options = SearchOptions {
            quiet_ply_limit,
            quiet_plies,
            ..SearchOptions::new(Limits::depth(24))
        };
        search_with(&game, &state, &options, &mut |_| {})
            .expect("White has moves")
            .score
    };
    let free = searched(None, 0);
    assert!(free >= WIN - 30, "a win without the limit: {free}");
    assert_eq!(searched(Some(40), 0), free, "the capture comes in time");
    // Ten plies left before the referee's draw: no capture can be forced in time.
    assert_eq!(searched(Some(40), 30), 0);
    // Fifteen left: a capture can be forced, but not the whole win.
    let late = searched(Some(40), 25);
    assert!(late > 0 && late < WIN - 1_000, "{late}");
}

#[test]
fn a_stop_set_from_outside_ends_a_deep_search_with_a_move() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    let game = denkmeter_games::draughts::International::new();
    let state = game.start();
    let stop = Arc::new(AtomicBool::new(false));
    let options = SearchOptions {
        stop: Some(stop.clone()),
        ..SearchOptions::new(Limits::depth(60))
    };
    let setter = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let started = Instant::now();
    let found = search_with(&game, &state, &options, &mut |_| {}).expect("White has moves");
    setter.join().expect("the setter ends");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "stopped late: {:?}",
        started.elapsed()
    );
    assert!(
        found.depth >= 1 && found.depth < 60,
        "depth {}",
        found.depth
    );
    let mut moves = Vec::new();
    game.legal_moves(&state, &mut moves);
    assert!(moves.contains(&found.best));
}

/// The first position with a single legal move and at least 30 pieces' worth of game left, in
/// a game of International draughts played by random moves from the seed.
fn forced_international_position(seed: u64) -> <International as Game>::State {
    use rand::{Rng, SeedableRng};
    let game = International::new();
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..100 {
        let mut state = game.start();
        for _ in 0..60 {
            game.legal_moves(&state, &mut moves);
            if moves.len() == 1 && !matches!(game.status(&state), denkmeter_core::Status::Over(_)) {
                return state;
            }
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.play_unchecked(&mut state, mv);
        }
    }
    panic!("no forced position in a hundred random games");
}

#[test]
fn on_the_clock_a_forced_move_is_played_at_once() {
    use std::time::{Duration, Instant};
    let game = International::new();
    let state = forced_international_position(7);
    let planned = Limits {
        time: Some(Duration::from_secs(20)),
        target: Some(Duration::from_secs(5)),
        ..Limits::default()
    };
    let started = Instant::now();
    let found = search(&game, &state, planned).expect("a move");
    assert_eq!(
        found.depth, 1,
        "on the clock the only move is played at depth 1"
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    // A fixed time per move is spent as such, forced or not.
    let fixed = search(&game, &state, Limits::time(Duration::from_millis(200))).expect("a move");
    assert!(fixed.depth > 1, "depth {}", fixed.depth);
}

#[test]
fn on_the_clock_a_search_keeps_near_its_target_far_below_its_most() {
    use std::time::{Duration, Instant};
    let game = International::new();
    let planned = Limits {
        time: Some(Duration::from_secs(20)),
        target: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    let started = Instant::now();
    let found = search(&game, &game.start(), planned).expect("a move");
    let spent = started.elapsed();
    // However unsure the search is (at most three times the target), an iteration is cut at
    // twice that: 0.6 s, read every 1024 nodes. A loaded machine may overshoot a little.
    assert!(spent < Duration::from_millis(1_500), "{spent:?}");
    assert!(found.depth >= 2, "depth {}", found.depth);
}

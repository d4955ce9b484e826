//! The search with the draughts endgame databases installed (once per process, so every test
//! of this file shares them): a won or lost root is played from the databases, positions below
//! the root are scored from them, a drawn root is still searched.

use std::path::PathBuf;
use std::sync::OnceLock;

use denkmeter_core::{Game, TableResult};
use denkmeter_engine::search::eval::{is_table_result, score_text, WIN};
use denkmeter_engine::search::{search, search_with, SearchOptions};
use denkmeter_engine::Limits;
use denkmeter_games::draughts::{egtb, English};

/// Builds English's databases of up to four pieces in a temporary folder and installs them.
fn installed() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        // Cargo's folder for integration tests' files: a later run reuses what this one built.
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("egtb-search");
        egtb::generate_ruleset(
            "english",
            4,
            &dir,
            2,
            egtb::DEFAULT_MEMORY_LIMIT,
            &mut |_| {},
        )
        .expect("built");
        assert_eq!(egtb::install(&dir), [("english", 4)]);
        // The files are read in the background; the search does without them until then.
        let start = std::time::Instant::now();
        while !egtb::installed_loaded() {
            assert!(
                start.elapsed().as_secs() < 60,
                "the databases take too long to read"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        dir
    })
}

#[test]
fn a_won_root_is_played_from_the_databases_with_its_distance() {
    installed();
    let game = English::new();
    let state = game
        .parse_position("8/8/8/8/8/8/5D1d/6D1 w")
        .expect("position");
    let value = game.table_value(&state, true).expect("in the databases");
    assert_eq!(value.result, TableResult::Win);
    assert_eq!(value.plies, Some(11));
    assert!(
        value.exact,
        "11 plies from a count of 0 stand under the 40-move rule"
    );
    let found = search(&game, &state, Limits::depth(3)).expect("moves");
    assert_eq!(found.score, WIN - 11, "{}", score_text(found.score));
    // The move keeps the win one ply shorter, and the line is the databases' own.
    let mut after = state.clone();
    game.play_unchecked(&mut after, found.best);
    let next = game.table_value(&after, true).expect("in the databases");
    assert_eq!((next.result, next.plies), (TableResult::Loss, Some(10)));
    assert_eq!(found.pv.len(), 11);
    assert_eq!(found.pv[0], found.best);
}

#[test]
fn the_side_that_loses_resists_longest() {
    installed();
    let game = English::new();
    let state = game
        .parse_position("8/8/8/8/8/8/5D1d/6D1 b")
        .expect("position");
    let found = search(&game, &state, Limits::depth(5)).expect("moves");
    assert_eq!(found.score, -(WIN - 2));
}

#[test]
fn below_the_root_the_search_scores_positions_from_the_databases() {
    installed();
    let game = English::new();
    // Five pieces: White must take c3 with the king on b2, which leaves two kings and a man
    // against a man, a database win.
    let state = game
        .parse_position("8/8/5m2/8/8/2m3M1/1D6/4D3 w")
        .expect("position");
    assert!(
        game.table_value(&state, false).is_none(),
        "five pieces are not in the databases"
    );
    let found = search(&game, &state, Limits::depth(4)).expect("moves");
    assert!(
        is_table_result(found.score) && found.score > 0,
        "{}",
        score_text(found.score)
    );
    assert_eq!(score_text(found.score), "win (endgame database)");
}

#[test]
fn a_drawn_root_is_searched_and_scored_a_draw() {
    installed();
    let game = English::new();
    let state = game
        .parse_position("8/8/8/8/3d4/8/8/D7 w")
        .expect("position");
    let found = search(&game, &state, Limits::depth(6)).expect("moves");
    assert_eq!(found.score, 0);
    assert_eq!(found.depth, 6, "searched, not looked up");
}

#[test]
fn a_noisy_level_searches_instead_of_playing_perfectly() {
    installed();
    let game = English::new();
    let state = game
        .parse_position("8/8/8/8/8/8/5D1d/6D1 w")
        .expect("position");
    let options = SearchOptions {
        noise: 80,
        seed: 3,
        ..SearchOptions::new(Limits::depth(3))
    };
    let found = search_with(&game, &state, &options, &mut |_| {}).expect("moves");
    assert_eq!(found.depth, 3);
}

#[test]
fn a_search_whose_every_line_ends_in_the_databases_stops_deepening() {
    installed();
    let game = English::new();
    // Every move takes c3 into the four-piece databases: nothing is left to search deeper,
    // so five seconds are not spent.
    let state = game
        .parse_position("8/8/5m2/8/8/2m3M1/1D6/4D3 w")
        .expect("position");
    let start = std::time::Instant::now();
    let found = search(
        &game,
        &state,
        Limits::time(std::time::Duration::from_secs(5)),
    )
    .expect("moves");
    assert!(start.elapsed().as_secs_f64() < 2.0, "{:?}", start.elapsed());
    assert!(found.depth <= 2, "depth {}", found.depth);
    assert!(is_table_result(found.score) && found.score > 0);
}

#[test]
fn a_search_told_not_to_use_them_searches_as_if_none_were_installed() {
    installed();
    let game = English::new();
    let without = |depth| SearchOptions {
        endgame_tables: false,
        ..SearchOptions::new(Limits::depth(depth))
    };
    // A won root: searched, not played from the databases.
    let won = game
        .parse_position("8/8/8/8/8/8/5D1d/6D1 w")
        .expect("position");
    let found = search_with(&game, &won, &without(3), &mut |_| {}).expect("moves");
    assert_eq!(found.depth, 3);
    assert!(found.score < WIN - 100, "{}", score_text(found.score));
    // Below the root: no database score; the same search with them finds one.
    let five = game
        .parse_position("8/8/5m2/8/8/2m3M1/1D6/4D3 w")
        .expect("position");
    let found = search_with(&game, &five, &without(4), &mut |_| {}).expect("moves");
    assert!(!is_table_result(found.score), "{}", score_text(found.score));
    let with = search(&game, &five, Limits::depth(4)).expect("moves");
    assert!(is_table_result(with.score), "{}", score_text(with.score));
}

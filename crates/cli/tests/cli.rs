//! The `denkmeter` binary as a user runs it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

#[path = "support/postgres.rs"]
mod postgres;
use postgres::PostgresDatabase;

fn denkmeter(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_denkmeter"))
        .args(args)
        // The default log level (info), which some tests read.
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("input is written");
    child.wait_with_output().expect("the binary finishes")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A terminal game in a temporary folder: `denkmeter play ARGS --record FILE` with `input`
/// typed, which must end well.
struct Played {
    out: Output,
    record: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl Played {
    fn record_text(&self) -> &str {
        self.record.to_str().expect("utf-8 path")
    }
}

fn play(args: &[&str], input: &str) -> Played {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let record = dir.path().join("game.pgn");
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    all.extend(["--record", record.to_str().expect("utf-8 path")]);
    let out = denkmeter(&all, input);
    assert!(out.status.success(), "{}", stderr(&out));
    Played {
        out,
        record,
        _dir: dir,
    }
}

#[test]
fn list_names_every_ruleset_with_a_description() {
    let out = denkmeter(&["list"], "");
    assert!(out.status.success());
    let text = stdout(&out);
    for name in ["chad", "shakti"] {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} missing from\n{text}"));
        assert!(line.split_whitespace().count() > 3, "{line}");
    }
    // Each key with its name for people.
    let line = text
        .lines()
        .find(|l| l.starts_with("scandinavian-8x8-medium-free "))
        .unwrap_or_else(|| panic!("scandinavian-8x8-medium-free missing from\n{text}"));
    assert!(
        line.contains("Scandinavian checkers 8x8, medium men, free line"),
        "{line}"
    );
}

#[test]
fn rules_prints_the_rules_page() {
    let out = denkmeter(&["rules", "shakti"], "");
    assert!(out.status.success());
    assert!(stdout(&out).contains("What is reconstructed"));
    let out = denkmeter(&["rules", "chess"], "");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("unknown ruleset \"chess\""),
        "{}",
        stderr(&out)
    );
}

#[test]
fn perft_prints_one_line_per_depth() {
    let out = denkmeter(&["perft", "chad", "--depth", "2"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "1 54\n2 2844\n");
    let out = denkmeter(
        &[
            "perft",
            "shakti",
            "--depth",
            "2",
            "--position",
            "k6/2-2-w/5-1/4-2/1--K3/2-4/7 w",
        ],
        "",
    );
    assert_eq!(stdout(&out), "1 5\n2 55\n");
    // A FEN as draughts players write it: English checkers' start, Black (the first player)
    // on squares 1-12.
    let out = denkmeter(
        &[
            "perft",
            "english",
            "--depth",
            "3",
            "--position=B:W21-32:B1-12",
        ],
        "",
    );
    assert_eq!(stdout(&out), "1 7\n2 49\n3 302\n", "{}", stderr(&out));
    let out = denkmeter(
        &[
            "perft",
            "international",
            "--depth",
            "1",
            "--position",
            "W:W31-50:B1-51",
        ],
        "",
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("expected square numbers 1 to 50"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn position_writes_a_position_both_ways() {
    let out = denkmeter(&["position", "english", "--position=B:W21-32:B1-12"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "position 1m1m1m1m/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/M1M1M1M1 w\n\
         fen B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n"
    );
    // A game without a FEN prints its position string only.
    let out = denkmeter(&["position", "chad"], "");
    assert!(stdout(&out).starts_with("position ") && !stdout(&out).contains("fen"));
}

#[test]
fn moves_lists_the_legal_moves() {
    let out = denkmeter(
        &[
            "moves",
            "shakti",
            "--position",
            "k6/2-2-w/5-1/4-2/1--K3/2-4/7 w",
        ],
        "",
    );
    let mut moves: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    moves.sort();
    assert_eq!(moves, ["d3-c4", "d3-d2", "d3-d4", "d3-e2", "d3-e3"]);
}

#[test]
fn moves_can_name_what_each_capture_takes() {
    // White's man on c3 (37) takes d4 and d6, landing on c7 (17): in numbers, by its ends.
    let position = "--position=10/10/10/10/3m6/10/3m6/2M7/10/10 w";
    let out = denkmeter(&["moves", "international", position], "");
    assert_eq!(stdout(&out), "37x17\n");
    let out = denkmeter(&["moves", "international", position, "--captured"], "");
    assert_eq!(stdout(&out), "37x17 takes d4 d6\n");
    // A move that takes nothing is written alone.
    let out = denkmeter(&["moves", "international", "--captured"], "");
    assert!(stdout(&out).lines().all(|l| !l.contains("takes")));
    assert_eq!(stdout(&out).lines().count(), 9);
}

#[test]
fn bad_positions_are_one_line_errors() {
    for position in [
        "",
        "12/12 w",
        "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/12 x",
    ] {
        let out = denkmeter(
            &["perft", "chad", "--depth", "1", "--position", position],
            "",
        );
        assert!(!out.status.success());
        let err = stderr(&out);
        assert!(err.starts_with("error: bad --position"), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}

#[test]
fn solve_prints_the_value_the_best_moves_and_a_line() {
    // Three placements from the end; the engine's tests confirm it by an exhaustive count.
    let out = denkmeter(
        &["solve", "straat", "--position", "nNnN/nN1n/NN1N/nNn1 b"],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "value +0 (White's final score minus Black's under best play; Black to move, 3 plies to the end)"
    );
    assert_eq!(lines[1], "best c2e");
    assert!(lines[2].starts_with("line c2e "), "{text}");
    assert_eq!(lines[2].split_whitespace().count(), 4, "{text}");
    assert!(lines[3].starts_with("nodes "), "{text}");
}

#[test]
fn solve_explains_what_it_cannot_solve() {
    for (args, message) in [
        (
            &["solve", "straat", "--position", "4/4/4 w"][..],
            "error: bad --position",
        ),
        (
            &["solve", "straat", "--position=-1/4/4/4 w"],
            "error: bad --position",
        ),
        (&["solve", "straat"], "16 plies remain; the limit is 10"),
        (
            &[
                "solve",
                "straat",
                "--max-plies",
                "1",
                "--position",
                "nNnN/nN1n/NN1N/nNn1 b",
            ],
            "3 plies remain; the limit is 1",
        ),
        (&["solve", "chad"], "chad has no fixed end"),
        (
            &["solve", "straat", "--position", "NnNn/nNnN/NnNn/nNnN w"],
            "the game is over",
        ),
        (&["solve", "chess"], "unknown ruleset \"chess\""),
    ] {
        let out = denkmeter(args, "");
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(message), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
}

#[test]
fn play_survives_bad_input_and_saves_the_record() {
    let played = play(
        &["chad", "--black", "computer:1", "--seed", "3"],
        "D3-D9\nnonsense\n\nmoves\nC5-A5\nquit\n",
    );
    let (out, path, path_text) = (&played.out, &played.record, played.record_text());
    let text = stdout(out);
    assert!(text.contains("is not legal here"), "{text}");
    assert!(text.contains("cannot read move \"nonsense\""), "{text}");
    assert!(text.contains("Legal moves for White (54)"), "{text}");
    assert!(text.contains("Black plays"), "{text}");
    let record = std::fs::read_to_string(path).expect("the record was saved");
    assert!(record.contains("1. C5-A5 "), "{record}");
    assert!(record.contains("[Result \"*\"]"), "{record}");
    let check = denkmeter(&["record", "check", path_text], "");
    assert!(check.status.success(), "{}", stderr(&check));
    assert!(
        stdout(&check).contains("ok, chad (2 moves"),
        "{}",
        stdout(&check)
    );
}

#[test]
fn play_on_a_clock_ends_a_game_lost_on_time_and_times_the_computer() {
    // A person with a microsecond loses on time at his first move.
    let played = play(
        &["chad", "--black", "computer:1", "--clock", "0.000001"],
        "C5-A5\n",
    );
    let text = stdout(&played.out);
    assert!(text.contains("White's time has run out."), "{text}");
    let record = std::fs::read_to_string(&played.record).expect("the record was saved");
    assert!(record.contains("[Result \"0-1\"]"), "{record}");
    assert!(
        record.contains("[Termination \"time forfeit\"]"),
        "{record}"
    );
    // Out of time, a quit is no way out: the game is lost on time all the same.
    let played = play(
        &["chad", "--black", "computer:1", "--clock", "0.000001"],
        "quit\n",
    );
    let record = std::fs::read_to_string(&played.record).expect("the record was saved");
    assert!(record.contains("[Result \"0-1\"]"), "{record}");
    // Two searches with no limit of their own play a whole game on the clock.
    let played = play(
        &[
            "english", "--white", "ab:d64", "--black", "ab:d64", "--clock", "5+0.1", "--seed", "2",
        ],
        "",
    );
    let text = stdout(&played.out);
    assert!(text.contains("On the clock: 0:05.0 a side"), "{text}");
    assert!(text.contains("Game over"), "{text}");
    assert!(!text.contains("time has run out"), "{text}");
    // A clock that is not one is refused.
    let refused = denkmeter(&["play", "chad", "--clock", "soon"], "");
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("--clock"), "{}", stderr(&refused));
}

#[test]
fn play_saves_the_record_at_end_of_input() {
    let played = play(&["shakti", "--black", "human"], "b2-b4\nb6-b5\n");
    let path = &played.record;
    let record = std::fs::read_to_string(path).expect("the record was saved");
    assert!(record.contains("1. b2-b4 b6-b5 *"), "{record}");
}

#[test]
fn draughts_moves_are_typed_and_shown_in_numbers() {
    // International: 32-28 19-23 28x19 in numbers; a move by square names is read too and
    // shown in numbers.
    let played = play(
        &["international", "--black", "human"],
        "32-28\n19-23\n31-27\n28x19\nmoves\nquit\n",
    );
    let text = stdout(&played.out);
    assert!(text.contains(" 6     21    22    23    24    25"), "{text}");
    assert!(text.contains("31-27"), "{text}");
    assert!(text.contains("is not legal here"), "{text}");
    let record = std::fs::read_to_string(&played.record).expect("the record was saved");
    assert!(record.contains("1. 32-28 19-23 2. 28x19 *"), "{record}");
    // English: Black (the first player) 11-15 typed as c3-d4, White 22-18, Black takes 15x22.
    let played = play(&["english", "--black", "human"], "c3-d4\n22-18\n15x22\n");
    let record = std::fs::read_to_string(&played.record).expect("the record was saved");
    assert!(record.contains("1. 11-15 22-18 2. 15x22 *"), "{record}");
    // The empty squares show their numbers, numbered from White's side.
    let text = stdout(&played.out);
    assert!(text.contains("5  20    19    18    17"), "{text}");
}

#[test]
fn computers_play_a_whole_game_to_a_result() {
    let played = play(
        &[
            "shakti", "--white", "random", "--black", "random", "--seed", "5",
        ],
        "",
    );
    let (out, path_text) = (&played.out, played.record_text());
    assert!(stdout(out).contains("Game over:"), "{}", stdout(out));
    let check = denkmeter(&["record", "check", path_text], "");
    assert!(check.status.success(), "{}", stderr(&check));
}

#[test]
fn record_check_names_the_first_illegal_move() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("bad.pgn");
    std::fs::write(
        &path,
        "[Game \"chad\"]\n[Ruleset \"chad\"]\n[Result \"*\"]\n\n1. C5-A5 I8-I5 2. A5-B6 J9-L9 *\n",
    )
    .expect("written");
    let out = denkmeter(&["record", "check", path.to_str().expect("utf-8 path")], "");
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("move 2. A5-B6 (White)"), "{err}");
}

#[test]
fn record_check_checks_each_record_of_a_file_of_several() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("games.pgn");
    let good = "[Game \"chad\"]\n[Ruleset \"chad\"]\n[Result \"*\"]\n\n1. C5-A5 I8-I5 *\n";
    let bad = "[Game \"chad\"]\n[Ruleset \"chad\"]\n[Result \"*\"]\n\n1. C5-A5 I8-I5 2. A5-B6 *\n";
    let shakti = "[Game \"shakti\"]\n[Ruleset \"shakti\"]\n[Result \"*\"]\n\n1. b2-b4 b6-b5 *\n";
    let file = path.to_str().expect("utf-8 path");
    // Three good records, as `cat a.pgn b.pgn c.pgn` writes them.
    std::fs::write(&path, format!("{good}\n{shakti}\n{good}")).expect("written");
    let out = denkmeter(&["record", "check", file], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("record 1 (line 1): ok, chad (2 moves"),
        "{text}"
    );
    assert!(
        text.contains("record 2 (line 7): ok, shakti (2 moves"),
        "{text}"
    );
    assert!(
        text.contains("record 3 (line 13): ok, chad (2 moves"),
        "{text}"
    );
    assert!(text.ends_with("all 3 records ok\n"), "{text}");
    // The second of two does not replay: named, and the check fails.
    std::fs::write(&path, format!("{good}\n{bad}")).expect("written");
    let out = denkmeter(&["record", "check", file], "");
    assert!(!out.status.success());
    let text = stdout(&out);
    assert!(text.contains("record 1 (line 1): ok, chad"), "{text}");
    assert!(text.contains("record 2 (line 7): "), "{text}");
    assert!(text.contains("move 2. A5-B6 (White)"), "{text}");
    assert!(
        stderr(&out).contains("1 of 2 records do not replay"),
        "{}",
        stderr(&out)
    );
}

/// Hot-seat Trangalla: each person sees the board only after the device is passed, with his
/// own king and not the other's.
#[test]
fn hot_seat_trangalla_hides_each_king_behind_a_pass_the_device_screen() {
    let played = play(
        &["trangalla", "--white", "human", "--black", "human"],
        "\nK@b2\n\nK@d4\n\nc1-d1\n\nquit\n",
    );
    let (out, path) = (&played.out, &played.record);
    let text = stdout(out);
    let screens: Vec<&str> = text.split("Pass the device to ").skip(1).collect();
    assert_eq!(screens.len(), 4, "{text}");
    // Black's first screen: White's setup move and king are hidden.
    assert!(screens[1].starts_with("Black"), "{}", screens[1]);
    assert!(screens[1].contains("Last move: 1. K@?"), "{}", screens[1]);
    let board = |screen: &str| -> String {
        screen
            .lines()
            .skip(1)
            .take(9)
            .map(|l| {
                l.split_whitespace()
                    .filter(|w| w.len() <= 3)
                    .collect::<String>()
            })
            .collect()
    };
    assert!(!board(screens[1]).contains('K'), "{}", screens[1]);
    // Each person sees the board from his own end: White's home tip (a1) at the top of
    // Black's screens, Black's (e5) at the top of White's.
    let top = |screen: &str| screen.lines().nth(1).unwrap_or_default().to_string();
    assert!(top(screens[1]).ends_with("a1-a1"), "{}", screens[1]);
    assert!(top(screens[2]).ends_with("e5-e5"), "{}", screens[2]);
    // White's second screen shows his king and Black's pieces as unknown.
    assert!(screens[2].starts_with("White"), "{}", screens[2]);
    assert!(board(screens[2]).contains('K'), "{}", screens[2]);
    assert!(!board(screens[2]).contains('k'), "{}", screens[2]);
    assert!(board(screens[2]).contains('p'), "{}", screens[2]);
    // Black's second screen: his own king, White's hidden.
    assert!(board(screens[3]).contains('k'), "{}", screens[3]);
    assert!(!board(screens[3]).contains('K'), "{}", screens[3]);
    // The game was left unfinished: its record, which either person can read, names neither
    // king.
    let record = std::fs::read_to_string(path).expect("the record was saved");
    assert!(record.contains("1. K@? K@? 2. c1-d1 *"), "{record}");
    assert!(
        !record.contains("K@b2") && !record.contains("K@d4"),
        "{record}"
    );
}

/// Trangalla against the computer: the record file, rewritten after every move, never holds
/// the computer's king while the game goes on, and is the owner's alone; the whole game is
/// written when it ends.
#[test]
fn trangalla_record_hides_the_computers_king_until_the_game_ends() {
    let played = play(
        &["trangalla", "--black", "computer:1", "--seed", "3"],
        "K@b2\nquit\n",
    );
    let record = std::fs::read_to_string(&played.record).expect("the record was saved");
    assert!(record.contains("1. K@b2 K@? *"), "{record}");
    assert!(
        !record.contains("[Seed "),
        "the seed replays the computer's choice: {record}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&played.record)
            .expect("the record")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }
    // Resigned: the game is over, and the record shows both kings.
    let played = play(
        &["trangalla", "--black", "computer:1", "--seed", "3"],
        "K@b2\nresign\nyes\n",
    );
    let record = std::fs::read_to_string(&played.record).expect("the record was saved");
    assert!(!record.contains("K@?"), "{record}");
    assert!(record.contains("1. K@b2 K@"), "{record}");
    assert!(record.contains("[Seed \"3\"]"), "{record}");
    let check = denkmeter(&["record", "check", played.record_text()], "");
    assert!(check.status.success(), "{}", stderr(&check));
}

/// Playing second against the computer in the terminal: the board is drawn from that end,
/// moves are numbered as in the record, the legal moves are listed in columns after a bad
/// move, and `resign` asks first.
#[test]
fn play_as_black_turns_the_board_numbers_moves_and_confirms_resigning() {
    let played = play(
        &[
            "english", "--white", "random", "--black", "human", "--seed", "1",
        ],
        "a1-b2\nresign\nno\nresign\nyes\n",
    );
    let (out, path) = (&played.out, &played.record);
    let text = stdout(out);
    let first_board_line = text
        .lines()
        .find(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .unwrap_or_default();
    assert!(first_board_line.starts_with("1 "), "rank 1 on top: {text}");
    assert!(text.contains("   h  g  f  e  d  c  b  a"), "{text}");
    // Checkers names its first player Black: the person here plays second, as White.
    assert!(text.contains("Black plays 1. "), "{text}");
    assert!(text.contains("Last move: 1. "), "{text}");
    assert!(text.contains("White to move> "), "{text}");
    assert!(
        text.contains("(Black, who moves first, upper case; White lower)"),
        "{text}"
    );
    // Seven answers to any first move in English checkers, in one row of columns.
    assert!(text.contains("Legal moves for White (7):\n  "), "{text}");
    assert!(text.contains("Not resigned; play on."), "{text}");
    let record = std::fs::read_to_string(path).expect("the record was saved");
    assert!(record.contains("[Result \"1-0\"]"), "{record}");
}

/// Against the computer, its setup move is shown as `K@?`.
#[test]
fn trangalla_against_the_computer_hides_its_king() {
    let played = play(
        &["trangalla", "--black", "computer:1", "--seed", "2"],
        "K@b2\nquit\n",
    );
    let out = &played.out;
    let text = stdout(out);
    assert!(text.contains("Black plays 1... K@?"), "{text}");
    assert!(!text.contains("Pass the device"), "{text}");
}

/// `match` names the players as typed, with what a short form stands for.
#[test]
fn match_names_the_players_as_typed() {
    let args = [
        "match",
        "english",
        "--first",
        "computer",
        "--second",
        "mcts:0.05s",
        "--games",
        "2",
        "--max-plies",
        "4",
    ];
    let out = denkmeter(&args, "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("english: computer (computer:3) vs mcts:0.05s (mcts:50ms), 2 games"),
        "{text}"
    );
    assert!(
        text.contains("results for computer (computer:3):"),
        "{text}"
    );
    // Not on a terminal: a line of progress per game, with the running score.
    let progress = stderr(&out);
    assert!(progress.contains("game 1/2: "), "{progress}");
    assert!(progress.contains("game 2/2: "), "{progress}");
    assert!(progress.contains("%)"), "{progress}");
}

#[test]
fn match_plays_openings_with_both_colours_and_appends_the_records() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let openings = dir.path().join("openings.txt");
    std::fs::write(
        &openings,
        "# Shakti openings\n\nk6/2-2-w/5-1/4-2/1--K3/2-4/7 w\n-5-/1w1k3/7/7/7/1W1K1W1/-5- w\n",
    )
    .expect("the openings are written");
    let pgn = dir.path().join("games.pgn");
    let path = |p: &std::path::Path| p.to_str().expect("a UTF-8 path").to_string();
    let (openings, pgn_path) = (path(&openings), path(&pgn));
    let args = [
        "match",
        "shakti",
        "--first",
        "mcts:20",
        "--openings",
        &openings,
        "--max-plies",
        "6",
        "--concurrency",
        "2",
        "--pgn",
        &pgn_path,
    ];
    let out = denkmeter(&args, "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("shakti: mcts:20 vs random, 4 games from 2 openings in "),
        "{text}"
    );
    for measure in ["score", "Elo", "LOS", "draws", "adjudicated", "mean length"] {
        assert!(text.contains(measure), "{measure} missing from\n{text}");
    }
    let records = std::fs::read_to_string(&pgn).expect("the records file");
    let rounds: Vec<_> = records
        .lines()
        .filter(|l| l.starts_with("[Round "))
        .collect();
    assert_eq!(
        rounds,
        [
            "[Round \"1\"]",
            "[Round \"2\"]",
            "[Round \"3\"]",
            "[Round \"4\"]"
        ]
    );
    assert_eq!(
        records.matches("[White \"mcts:20\"]").count(),
        2,
        "{records}"
    );
    assert_eq!(
        records
            .matches("[Position \"k6/2-2-w/5-1/4-2/1--K3/2-4/7 w\"]")
            .count(),
        2
    );
    // A second match appends.
    let out = denkmeter(&args, "");
    assert!(out.status.success(), "{}", stderr(&out));
    let records = std::fs::read_to_string(&pgn).expect("the records file");
    assert_eq!(records.matches("[Round ").count(), 8);
}

#[test]
fn match_names_the_bad_line_of_an_openings_file() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let openings = dir.path().join("openings.txt");
    std::fs::write(
        &openings,
        "k6/2-2-w/5-1/4-2/1--K3/2-4/7 w\n# fine so far\nk6/2-2-w/5-1 w\n",
    )
    .expect("the openings are written");
    let openings = openings.to_str().expect("a UTF-8 path");
    let out = denkmeter(
        &[
            "match",
            "shakti",
            "--first",
            "random",
            "--openings",
            openings,
        ],
        "",
    );
    assert!(!out.status.success());
    let error = stderr(&out);
    assert!(error.contains("openings, line 3: "), "{error}");
    assert!(!error.contains("panicked"), "{error}");
    // Each opening is played with both colours: an odd number of games is refused.
    let out = denkmeter(
        &[
            "match",
            "shakti",
            "--first",
            "random",
            "--random-plies",
            "2",
            "--games",
            "5",
        ],
        "",
    );
    assert!(!out.status.success());
    assert!(stderr(&out).contains("must be even"), "{}", stderr(&out));
    let out = denkmeter(
        &[
            "match",
            "shakti",
            "--first",
            "random",
            "--openings",
            "/nonexistent/openings",
        ],
        "",
    );
    assert!(
        stderr(&out).contains("cannot read openings file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn analyse_prints_a_line_per_depth_then_the_best_move() {
    let out = denkmeter(&["analyse", "international", "--depth", "4"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    for (i, line) in lines[..4].iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[..2], ["depth", &(i + 1).to_string()], "{line}");
        for (at, key) in [
            (2, "score"),
            (4, "nodes"),
            (6, "nps"),
            (8, "time"),
            (10, "pv"),
        ] {
            assert_eq!(words[at], key, "{line}");
        }
        assert!(
            words[3].starts_with('+') || words[3].starts_with('-'),
            "{line}"
        );
        assert!(words.len() >= 12, "a principal variation: {line}");
    }
    let best = lines[4]
        .strip_prefix("best ")
        .expect("the last line names the best move");
    let pv_first = lines[3].split_whitespace().nth(11);
    assert_eq!(Some(best), pv_first, "the best move leads the last line");
    // The Chad example: mate in two, written as the distance to the end.
    let out = denkmeter(
        &[
            "analyse",
            "chad",
            "--position",
            "12/12/12/3R3rk3/12/7R4/12/12/2RKR7/12/4q7/12 w",
            "--depth",
            "3",
        ],
        "",
    );
    let text = stdout(&out);
    assert!(text.contains("score win in 3 plies"), "{text}");
    assert!(text.ends_with("best H7xH9\n"), "{text}");
}

#[test]
fn analyse_of_trangalla_sees_what_the_mover_sees_and_names_no_hidden_king() {
    // White to move; Black's king on d4, then on c5: White cannot tell the two apart, so the
    // analysis must be the same, and its lines must not guess at Black's king.
    let analyse = |position: &str| {
        let out = denkmeter(
            &[
                "analyse",
                "trangalla",
                "--position",
                position,
                "--nodes",
                "40000",
            ],
            "",
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        let lines: Vec<String> = text
            .lines()
            .map(|line| {
                // The time and the speed differ from run to run.
                let words: Vec<&str> = line.split(' ').collect();
                match words.iter().position(|w| *w == "nps") {
                    Some(i) => [&words[..i], &words[i + 4..]].concat().join(" "),
                    None => line.to_owned(),
                }
            })
            .collect();
        lines
    };
    let d4 = analyse("2ss1/3ks/S3s/SK3/1SS2 w");
    let c5 = analyse("2ks1/3ss/S3s/SK3/1SS2 w");
    assert!(d4.len() >= 3, "a line per pass, then the best move: {d4:?}");
    assert_eq!(d4, c5);
    for line in &d4[..d4.len() - 1] {
        let pv = line.split(" pv ").nth(1).unwrap_or_default();
        assert_eq!(pv.split(' ').count(), 1, "the mover's move alone: {line}");
    }
    assert!(d4.last().is_some_and(|l| l.starts_with("best ")), "{d4:?}");
}

#[test]
fn analyse_counts_the_quiet_plies_of_the_moves_given() {
    // Three dames against one, a won ending. Under a referee's draw after 12 plies without a capture,
    // White can still force one in time; after 11 it cannot. So from one ply earlier, with
    // that ply played through --moves (Black's dame a7-b8, no capture), the limit of 12
    // leaves too little: the ply of --moves counts.
    let score = |args: &[&str]| {
        let out = denkmeter(args, "");
        let text = stdout(&out);
        let last = text.lines().rev().nth(1).unwrap_or_default().to_string();
        last.split_whitespace()
            .nth(3)
            .unwrap_or_default()
            .to_string()
    };
    let analyse = |position: &str, moves: &str, limit: &str| {
        let mut args = vec![
            "analyse",
            "english",
            "--position",
            position,
            "--depth",
            "16",
        ];
        if !moves.is_empty() {
            args.extend(["--moves", moves]);
        }
        if !limit.is_empty() {
            args.extend(["--draw-after-quiet-plies", limit]);
        }
        score(&args)
    };
    let white = "1d6/8/8/8/8/8/8/2D1D1D1 w";
    let before = "8/d7/8/8/8/8/8/2D1D1D1 b";
    let free = analyse(white, "", "");
    assert!(free.starts_with('+') && free != "+0.00", "{free}");
    assert_eq!(analyse(white, "", "11"), "+0.00");
    let twelve = analyse(white, "", "12");
    assert!(twelve.starts_with('+') && twelve != "+0.00", "{twelve}");
    assert_eq!(analyse(before, "a7-b8", "12"), "+0.00");
    assert_eq!(analyse(before, "a7-b8", "13"), twelve);
}

#[test]
fn analyse_refuses_bad_input_with_one_line() {
    for (args, expected) in [
        (
            &["analyse", "international", "--depth", "0"][..],
            "--depth is from 1 to 64",
        ),
        (
            &["analyse", "international", "--time", "soon"][..],
            "--time",
        ),
        (
            &["analyse", "international", "--threads", "0"][..],
            "--threads is from 1",
        ),
        (
            &["analyse", "english", "--draw-after-quiet-plies", "0"][..],
            "--draw-after-quiet-plies is at least 1",
        ),
        (
            &["analyse", "international", "--hash", "0"][..],
            "--hash is from 1",
        ),
        (
            &["analyse", "international", "--moves", "b4-c5 zz"][..],
            "--moves: move 2",
        ),
        (
            &["analyse", "international", "--position", "junk"][..],
            "bad --position",
        ),
    ] {
        let out = denkmeter(args, "");
        assert!(!out.status.success(), "{args:?}");
        assert!(
            stderr(&out).contains(expected),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // A finished game has nothing to analyse.
    let out = denkmeter(
        &["analyse", "english", "--position", "8/8/8/8/8/8/8/M7 b"],
        "",
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("the game is over"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_pdn_collection_is_imported_game_by_game_and_exported_again() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let published = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/tests/data/pdn/wk2003-round1.pdn"
    );
    // The published games, then one with an illegal move: the bad one is named by its number,
    // line, move and reason; the others still come in.
    let mut text = std::fs::read_to_string(published).expect("the published games");
    text.push_str("\n[Event \"bad\"]\n[White \"A\"]\n[Black \"B\"]\n[GameType \"20\"]\n1. 32-28 19-23 2. 31-27 *\n");
    let collection = dir.path().join("collection.pdn");
    std::fs::write(&collection, text).expect("written");
    let records = dir.path().join("records.pgn");
    let path = |p: &std::path::Path| p.to_str().expect("utf-8 path").to_string();
    let out = denkmeter(
        &[
            "record",
            "import",
            &path(&collection),
            "--out",
            &path(&records),
        ],
        "",
    );
    assert!(!out.status.success(), "one game was refused");
    let said = stderr(&out);
    assert!(
        said.contains("game 5 (A - B, line 99): move 2. 31-27")
            && said.contains("the legal moves are 28x19")
            && said.contains("1 of 5 games were refused"),
        "{said}"
    );
    assert!(
        stdout(&out).contains("4 of 5 games replay through the rules"),
        "{}",
        stdout(&out)
    );
    let kept = std::fs::read_to_string(&records).expect("the records were written");
    assert_eq!(kept.matches("[Ruleset \"international\"]").count(), 4);
    assert!(kept.contains("[White \"Jansen,G.\"]"), "{kept}");
    // Exported again as PDN: standard tags, GameType 20, the moves as published.
    let out = denkmeter(&["record", "export", &path(&records)], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let pdn = stdout(&out);
    assert_eq!(pdn.matches("[GameType \"20\"]").count(), 4, "{pdn}");
    assert!(pdn.contains("48. 15x4 14-20 49. 4x36 20x49"), "{pdn}");
    assert!(
        pdn.contains("1-1\n") && pdn.contains("2-0\n") && pdn.contains("0-2\n"),
        "{pdn}"
    );
    // English games without a GameType need a ruleset; with it they come in whole.
    let oca = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/tests/data/pdn/oca-1847.pdn"
    );
    let out = denkmeter(&["record", "import", oca], "");
    assert!(
        stderr(&out).contains("give the ruleset"),
        "{}",
        stderr(&out)
    );
    let clean = dir.path().join("oca.pdn");
    let out = denkmeter(
        &[
            "record",
            "import",
            oca,
            "--ruleset",
            "english",
            "--out",
            &path(&clean),
            "--pdn",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let pdn = std::fs::read_to_string(&clean).expect("written");
    assert!(
        pdn.contains("[Black \"Moorhead, W.\"]") && pdn.contains("[GameType \"21\"]"),
        "{pdn}"
    );
    // A record of another game has no PDN.
    let played = play(&["chad", "--black", "human"], "D3-D7\n");
    let out = denkmeter(&["record", "export", played.record_text()], "");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("not draughts"), "{}", stderr(&out));
}

/// `denkmeter loadtest --rated`: every player signs up and plays signed in; the games between
/// two clients start from challenges; every finished game is rated, and the accounts' pages
/// count exactly the rated games each finished.
#[test]
fn loadtest_plays_rated_games_signed_in_and_checks_the_pages() {
    let out = denkmeter(
        &[
            "loadtest",
            "--clients",
            "6",
            "--computer-share",
            "0.34",
            "--rated",
            "--think-ms",
            "0",
            "--duration",
            "6",
            "--settle",
            "2",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("a JSON report");
    assert_eq!(report["rated"], true, "{report}");
    assert_eq!(report["clock"], "300+3", "{report}");
    assert_eq!(report["clients"], 6, "{report}");
    let finished = report["rated_games_finished"].as_u64().expect("a count");
    assert!(finished >= 2, "{report}");
    assert_eq!(report["rated_ends_without_change"], 0, "{report}");
    assert_eq!(report["accounts"]["checked"], 6, "{report}");
    assert_eq!(report["accounts"]["mismatches"], 0, "{report}");
    assert_eq!(report["accounts"]["unreadable"], 0, "{report}");
    assert!(
        report["accounts"]["rated_games"].as_u64().expect("a count") >= finished,
        "{report}"
    );
    assert_eq!(report["http"]["signup"]["201"], 6, "{report}");
    assert!(
        report["http"]["accept"]["201"].as_u64().expect("accepted") >= 1,
        "{report}"
    );
    assert_eq!(report["lost_pairs"], 0, "{report}");
    assert_eq!(report["stale_watchers"], 0, "{report}");
    assert_eq!(report["bad_messages"], 0, "{report}");
}

#[test]
fn loadtest_refuses_a_bad_clock() {
    let out = denkmeter(&["loadtest", "--clock", "5 minutes"], "");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--clock"), "{}", stderr(&out));
    // A bullet clock cannot be rated.
    let out = denkmeter(&["loadtest", "--rated", "--clock", "60+2"], "");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("at least blitz"), "{}", stderr(&out));
}

/// The arguments of a small study, its database and its outputs in `dir`.
fn lab_args(database: &str, dir: &std::path::Path, tag: &str) -> Vec<String> {
    let path = |name: &str| dir.join(format!("{tag}-{name}")).display().to_string();
    [
        "lab",
        "scandinavian-8x8",
        "kamelen",
        "--players",
        "ab:d1,mcts:50",
        "--games",
        "3",
        "--random-plies",
        "2",
        "--max-plies",
        "150",
        "--database",
        database,
        "--json",
        &path("report.json"),
        "--csv",
        &path("table.csv"),
        "--charts",
        &path("charts"),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn run(args: &[String]) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    denkmeter(&args, "")
}

/// The report's cells without the time games took, which differs between runs.
fn lab_cells(dir: &std::path::Path, tag: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join(format!("{tag}-report.json"))).expect("a report");
    let mut report: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    for cell in report["cells"].as_array_mut().expect("cells") {
        cell.as_object_mut()
            .expect("a cell")
            .remove("seconds_per_game");
    }
    report["cells"].take()
}

#[test]
fn lab_plays_a_small_study_on_sqlite_and_goes_on_with_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let database = format!("sqlite://{}/lab.db", dir.path().display());
    let args = lab_args(&database, dir.path(), "first");
    let output = run(&args);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    assert!(text.contains(": 12 games in sqlite://"), "{text}");
    assert!(text.contains("12 of 12 games"), "{text}");
    for row in ["scandinavian-8x8  ab:d1", "kamelen           mcts:50"] {
        assert!(text.contains(row), "{row} in {text}");
    }
    assert!(text.contains("how games ended"), "{text}");
    assert!(text.contains("first-player score"), "{text}");
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("first-report.json")).expect("a report"),
    )
    .expect("JSON");
    assert_eq!(report["games"], 12);
    assert_eq!(report["cells"].as_array().map(Vec::len), Some(4));
    for cell in report["cells"].as_array().expect("cells") {
        let (first, second, draws) = (
            cell["first_wins"].as_u64().expect("a count"),
            cell["second_wins"].as_u64().expect("a count"),
            cell["draws"].as_u64().expect("a count"),
        );
        assert_eq!(first + second + draws, 3, "{cell}");
        let score = &cell["first_score"];
        let value = score["value"].as_f64().expect("a score");
        assert!(score["low"].as_f64() <= Some(value) && Some(value) <= score["high"].as_f64());
        assert!(
            (value - (first as f64 + draws as f64 / 2.0) / 3.0).abs() < 1e-3,
            "{cell}"
        );
    }
    let csv = std::fs::read_to_string(dir.path().join("first-table.csv")).expect("a table");
    assert_eq!(csv.lines().count(), 5, "{csv}");
    assert!(csv.starts_with("ruleset,player,games,"), "{csv}");
    let charts: Vec<String> = std::fs::read_dir(dir.path().join("first-charts"))
        .expect("charts")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    for chart in [
        "first-player-score.svg",
        "draw-rate.svg",
        "lengths.svg",
        "endings.svg",
    ] {
        assert!(charts.iter().any(|c| c == chart), "{chart} in {charts:?}");
    }

    // The same command again finds the study played and reports the same.
    let again = run(&lab_args(&database, dir.path(), "again"));
    let text = stdout(&again);
    assert!(again.status.success(), "{text}{}", stderr(&again));
    assert!(text.contains("12 of 12 games already played"), "{text}");
    assert_eq!(
        lab_cells(dir.path(), "first"),
        lab_cells(dir.path(), "again")
    );

    // The study is listed, and its report printed on request.
    let list = denkmeter(&["lab", "list", "--database", &database], "");
    let text = stdout(&list);
    let id = report["id"].as_str().expect("an id");
    assert!(
        text.starts_with(id) && text.contains("12/12 games"),
        "{text}"
    );
    let printed = denkmeter(&["lab", "report", id, "--database", &database], "");
    assert!(
        stdout(&printed).contains("12 of 12 games"),
        "{}",
        stdout(&printed)
    );

    // Mistakes get reasons.
    let unknown = denkmeter(&["lab", "chess", "--database", &database], "");
    assert!(!unknown.status.success());
    assert!(
        stderr(&unknown).contains("unknown ruleset \"chess\""),
        "{}",
        stderr(&unknown)
    );
    let worker = denkmeter(&["lab", "worker", "--database", &database], "");
    assert!(!worker.status.success());
    assert!(
        stderr(&worker).contains("need PostgreSQL"),
        "{}",
        stderr(&worker)
    );
    let missing = denkmeter(&["lab", "report", "0000", "--database", &database], "");
    assert!(
        stderr(&missing).contains("no study 0000"),
        "{}",
        stderr(&missing)
    );
}

#[test]
fn lab_studies_on_postgres_are_shared_by_two_workers_with_the_same_results() {
    let Some(database) = PostgresDatabase::create("lab_workers") else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let sqlite = format!("sqlite://{}/lab.db", dir.path().display());
    let reference = run(&lab_args(&sqlite, dir.path(), "sqlite"));
    assert!(reference.status.success(), "{}", stderr(&reference));

    // The study is stored and followed by a process that plays nothing itself...
    let mut args = lab_args(&database.url, dir.path(), "postgres");
    args.extend(["--concurrency".to_string(), "0".to_string()]);
    let follower = Command::new(env!("CARGO_BIN_EXE_denkmeter"))
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let list = denkmeter(&["lab", "list", "--database", &database.url], "");
        if stdout(&list).contains("0/12 games") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the study was not stored"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    // ... and played by two workers.
    let workers: Vec<_> = (0..2)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_denkmeter"))
                .args([
                    "lab",
                    "worker",
                    "--database",
                    &database.url,
                    "--concurrency",
                    "1",
                ])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("the binary starts")
        })
        .collect();
    let mut played = 0;
    for worker in workers {
        let output = worker.wait_with_output().expect("the worker finishes");
        let text = stdout(&output);
        assert!(output.status.success(), "{text}{}", stderr(&output));
        let count: u64 = text
            .split(": ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a count of games in {text}"));
        played += count;
    }
    assert_eq!(played, 12);
    let output = follower.wait_with_output().expect("the follower finishes");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("12 of 12 games"),
        "{}",
        stdout(&output)
    );
    assert_eq!(
        lab_cells(dir.path(), "sqlite"),
        lab_cells(dir.path(), "postgres")
    );
}

/// A Chad game between `ab:d3` and `random` (`match chad --first ab:d3 --second random --games
/// 1 --seed 3`): Black's random moves make mistakes.
const CHAD_GAME: &str = "[Game \"chad\"]\n[Ruleset \"chad\"]\n[Result \"1-0\"]\n\n\
1. E3-G3 J10-J11 2. E4-H4 I8-I5 3. G3-G7 H9-B9 4. G7-I7 I9-J10 5. I7xI10 J10xI10\n\
6. C5-C7 J8-J2 7. C7-I7 B9-I9 8. I7-I8 J2-A2 9. D3-J3 H8-H6 10. J3-J8 I5-I7\n\
11. I8-G8 I9-H9 12. J8-I8 J9-I9 13. G8xH9 I10-J10 14. I8-J7 I9-J9 15. J7xJ9 1-0\n";

#[test]
fn analyse_game_judges_every_move_and_annotates_the_record() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let record = dir.path().join("chad.pgn");
    std::fs::write(&record, CHAD_GAME).expect("written");
    let annotated = dir.path().join("annotated.pgn");
    let json = dir.path().join("analysis.json");
    let path = |p: &std::path::Path| p.to_str().expect("utf-8 path").to_string();
    let out = denkmeter(
        &[
            "analyse-game",
            &path(&record),
            "--nodes",
            "30000",
            "--threads",
            "2",
            "--annotate",
            &path(&annotated),
            "--json",
            &path(&json),
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("29 moves analysed"), "{text}");
    assert!(text.contains("hundredths of a rook"), "{text}");
    let review: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("the JSON is written"))
            .expect("JSON");
    assert_eq!(review["positions"].as_array().map(Vec::len), Some(30));
    let moves = review["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 29);
    // The last position is checkmate: scored by the result, not searched.
    assert_eq!(review["positions"][29]["over"], true);
    assert_eq!(review["positions"][29]["white_chances"], 1.0);
    let marked: Vec<&serde_json::Value> =
        moves.iter().filter(|m| !m["judgement"].is_null()).collect();
    assert!(!marked.is_empty(), "a random player's moves are marked");
    // Every marked move is in the table, with its glyph and the better move.
    for m in &marked {
        let glyph = match m["judgement"].as_str() {
            Some("blunder") => "??",
            Some("mistake") => "?",
            _ => "?!",
        };
        let played = format!("{}{glyph} ", m["played"].as_str().expect("text"));
        let row = text
            .lines()
            .find(|l| l.contains(&played))
            .unwrap_or_else(|| panic!("{played:?} is not in the table:\n{text}"));
        assert!(
            row.contains(m["best"].as_str().expect("a better move")),
            "{row}"
        );
    }
    // The annotated record replays, with a comment after every move.
    let annotated_text = std::fs::read_to_string(&annotated).expect("annotated");
    let evaluated =
        annotated_text.matches(" for White").count() + annotated_text.matches(" wins in ").count();
    assert_eq!(evaluated, 28, "{annotated_text}");
    assert!(
        annotated_text.contains("{White wins by checkmate}"),
        "{annotated_text}"
    );
    assert_eq!(
        annotated_text.matches("was better").count(),
        marked.len(),
        "{annotated_text}"
    );
    let check = denkmeter(&["record", "check", &path(&annotated)], "");
    assert!(check.status.success(), "{}", stderr(&check));

    // A PDN game, annotated as PDN.
    let pdn = dir.path().join("english.pdn");
    std::fs::write(&pdn, "[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 *\n").expect("written");
    let out_pdn = dir.path().join("english-annotated.pdn");
    let out = denkmeter(
        &[
            "analyse-game",
            &path(&pdn),
            "--depth",
            "3",
            "--annotate",
            &path(&out_pdn),
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let pdn_text = std::fs::read_to_string(&out_pdn).expect("annotated PDN");
    assert!(pdn_text.contains("[GameType \"21"), "{pdn_text}");
    // English checkers calls the first player Black.
    assert_eq!(pdn_text.matches(" for Black").count(), 4, "{pdn_text}");

    // Refusals, with the reason.
    let bad = dir.path().join("bad.pgn");
    std::fs::write(&bad, CHAD_GAME.replace("J10-J11", "J10-J99")).expect("written");
    for (args, words) in [
        (vec!["analyse-game".to_string(), path(&bad)], "move 1"),
        (
            vec![
                "analyse-game".to_string(),
                path(&dir.path().join("none.pgn")),
            ],
            "cannot read",
        ),
        (
            vec![
                "analyse-game".to_string(),
                path(&record),
                "--threads".to_string(),
                "0".to_string(),
            ],
            "--threads",
        ),
        (
            vec![
                "analyse-game".to_string(),
                path(&record),
                "--depth".to_string(),
                "0".to_string(),
            ],
            "--depth",
        ),
    ] {
        let out = run(&args);
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(stderr(&out).contains(words), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn egtb_builds_the_databases_and_analyse_plays_from_them() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let egtb = dir.path().to_str().expect("utf-8 path");
    let built = denkmeter(
        &[
            "--egtb", egtb, "egtb", "generate", "english", "--pieces", "3",
        ],
        "",
    );
    assert!(built.status.success(), "{}", stderr(&built));
    let text = stdout(&built);
    assert!(text.starts_with("material"), "{text}");
    assert!(text.contains("\n0m2k-0m1k "), "{text}");
    assert!(text.contains("total "), "{text}");
    assert!(dir.path().join("english").join("0m2k-0m1k.egtb").is_file());
    // A second run reads what the first built.
    let again = denkmeter(
        &[
            "--egtb", egtb, "egtb", "generate", "english", "--pieces", "3",
        ],
        "",
    );
    assert!(stdout(&again).contains("(earlier)"), "{}", stdout(&again));

    let verified = denkmeter(
        &[
            "--egtb",
            egtb,
            "egtb",
            "verify",
            "english",
            "--samples",
            "40",
        ],
        "",
    );
    assert!(verified.status.success(), "{}", stderr(&verified));
    let text = stdout(&verified);
    assert!(text.starts_with("40 positions: "), "{text}");
    assert!(text.contains(", 0 disagree"), "{text}");

    let position = "--position=8/8/8/8/8/8/5D1d/6D1 w";
    let probed = denkmeter(&["--egtb", egtb, "egtb", "probe", "english", position], "");
    assert!(probed.status.success(), "{}", stderr(&probed));
    let text = stdout(&probed);
    assert!(text.starts_with("value win in 11 plies\n"), "{text}");
    assert!(text.contains("\n6-10 win in 11 plies\n"), "{text}");
    assert!(text.contains(" draw\n"), "{text}");

    let analysed = denkmeter(
        &[
            "--egtb", egtb, "analyse", "english", position, "--depth", "4",
        ],
        "",
    );
    assert!(analysed.status.success(), "{}", stderr(&analysed));
    let text = stdout(&analysed);
    assert!(text.contains("score win in 11 plies"), "{text}");
    assert!(text.contains("best 6-10"), "{text}");

    // A command that plays one ruleset installs that ruleset's databases alone.
    let other = denkmeter(
        &[
            "--egtb",
            egtb,
            "egtb",
            "generate",
            "scandinavian-8x8",
            "--pieces",
            "2",
        ],
        "",
    );
    assert!(other.status.success(), "{}", stderr(&other));
    let analysed = denkmeter(
        &[
            "--egtb", egtb, "analyse", "english", position, "--depth", "2",
        ],
        "",
    );
    assert!(analysed.status.success(), "{}", stderr(&analysed));
    let log = stderr(&analysed);
    assert!(
        log.contains("endgame databases: english up to 3 pieces"),
        "{log}"
    );
    assert!(!log.contains("scandinavian-8x8"), "{log}");
    let analysed = denkmeter(
        &[
            "--egtb",
            egtb,
            "analyse",
            "scandinavian-8x8",
            "--depth",
            "2",
        ],
        "",
    );
    assert!(analysed.status.success(), "{}", stderr(&analysed));
    let log = stderr(&analysed);
    assert!(
        log.contains("endgame databases: scandinavian-8x8 up to 2 pieces"),
        "{log}"
    );
    assert!(!log.contains("english"), "{log}");
}

#[test]
fn egtb_explains_what_it_cannot_do() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let egtb = dir.path().to_str().expect("utf-8 path");
    let cases: [(&[&str], &str); 7] = [
        (
            &["egtb", "generate", "international", "--pieces", "6"],
            "more than the limit of 16 GB",
        ),
        (
            &[
                "egtb",
                "generate",
                "english",
                "--pieces",
                "6",
                "--memory-gb",
                "8",
            ],
            "more than the limit of 8 GB",
        ),
        (
            &[
                "egtb",
                "probe",
                "english",
                "--position=8/8/8/8/8/8/5D1d/6D1 w",
            ],
            "no english databases in",
        ),
        (
            &["egtb", "generate", "chad", "--pieces", "3"],
            "only the draughts rulesets",
        ),
        (
            &["egtb", "generate", "english", "--pieces", "9"],
            "2 to 7 pieces",
        ),
        (
            &["egtb", "generate", "english", "--pieces", "1"],
            "2 to 7 pieces",
        ),
        (
            &[
                "egtb",
                "probe",
                "english",
                "--position=8/8/8/8/8/8/5D1d/5D2 w",
            ],
            "no english databases",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["--egtb", egtb];
        all.extend_from_slice(args);
        let out = denkmeter(&all, "");
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let built = denkmeter(
        &[
            "--egtb", egtb, "egtb", "generate", "english", "--pieces", "2",
        ],
        "",
    );
    assert!(built.status.success(), "{}", stderr(&built));
    for (position, expected) in [
        ("--position=8/8/8/8/8/8/5D1d/6D1 w", "not in the databases"),
        ("--position=8/8/8/8/8/8/5D1d/5D2 w", "bad position"),
    ] {
        let out = denkmeter(&["--egtb", egtb, "egtb", "probe", "english", position], "");
        assert!(!out.status.success(), "{position}");
        assert!(
            stderr(&out).contains(expected),
            "{position}: {}",
            stderr(&out)
        );
    }
}

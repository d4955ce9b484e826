//! `denkmeter hub` driven as a GUI drives it: lines in, lines out, every read under a timeout
//! so that a hang fails the test instead of blocking it.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use denkmeter_core::Game;
use denkmeter_games::draughts::{English, International};

/// How long any one expected line may take.
const LINE_TIMEOUT: Duration = Duration::from_secs(20);
/// How long the engine may take to exit after quit or the end of its input.
const EXIT_TIMEOUT: Duration = Duration::from_secs(10);

const INTERNATIONAL_START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
const ENGLISH_START: &str = "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";

/// A running `denkmeter hub`, its output read on a thread into a channel.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_denkmeter"))
            .arg("hub")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("the engine reads");
        stdin.flush().expect("the engine reads");
    }

    /// The next line, or a failure after [`LINE_TIMEOUT`].
    fn line(&self) -> String {
        match self.lines.recv_timeout(LINE_TIMEOUT) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no line within {LINE_TIMEOUT:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine closed its output"),
        }
    }

    /// Lines up to and including the first that starts with `word` (and a space or the end).
    fn until(&self, word: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.line();
            let done = line == word || line.starts_with(&format!("{word} "));
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// `ping`, and every line before the `pong`.
    fn ping(&mut self) -> Vec<String> {
        self.send("ping");
        let mut seen = self.until("pong");
        seen.pop();
        seen
    }

    /// The handshake with the variant set, then `init`.
    fn ready(args: &[&str], variant: Option<&str>) -> Engine {
        let mut engine = Engine::start(args);
        engine.send("hub");
        engine.until("wait");
        if let Some(variant) = variant {
            engine.send(&format!("set-param name=variant value={variant}"));
        }
        engine.send("init");
        assert_eq!(engine.until("ready"), ["ready"]);
        engine
    }

    /// Waits for the engine to exit; its exit status and standard error.
    fn exit(mut self) -> (std::process::ExitStatus, String) {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("the engine can be waited for") {
                let mut stderr = String::new();
                if let Some(mut pipe) = self.child.stderr.take() {
                    pipe.read_to_string(&mut stderr).expect("stderr is read");
                }
                return (status, stderr);
            }
            assert!(
                started.elapsed() < EXIT_TIMEOUT,
                "the engine did not exit within {EXIT_TIMEOUT:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value of `key` in a line of `key=value` pairs (values without spaces).
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|part| part.strip_prefix(&format!("{key}=")))
}

/// The best move of a `done` line, which must come first.
fn done_move(line: &str) -> &str {
    let mut parts = line.split_whitespace();
    assert_eq!(parts.next(), Some("done"), "{line}");
    parts
        .next()
        .and_then(|p| p.strip_prefix("move="))
        .unwrap_or_else(|| panic!("done starts with move=: {line}"))
}

#[test]
fn the_handshake_announces_the_engine_and_its_variants() {
    let mut engine = Engine::start(&[]);
    engine.send("hub");
    let lines = engine.until("wait");
    assert!(
        lines[0].starts_with("id name=denkmeter version="),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l
            == "param name=variant value=international type=enum values=\"international english\""),
        "{lines:?}"
    );
    engine.send("init");
    assert_eq!(engine.until("ready"), ["ready"]);
    engine.send("quit");
    let (status, stderr) = engine.exit();
    assert!(status.success());
    assert_eq!(stderr, "", "nothing on standard error");
}

#[test]
fn a_fixed_depth_search_gives_a_legal_move_in_hub_form() {
    let mut engine = Engine::ready(&[], None);
    engine.send(&format!("pos pos={INTERNATIONAL_START}"));
    engine.send("level depth=4");
    engine.send("go think");
    let lines = engine.until("done");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info ")).collect();
    assert_eq!(infos.len(), 4, "one info per depth: {lines:?}");
    for (i, info) in infos.iter().enumerate() {
        assert_eq!(field(info, "depth"), Some((i + 1).to_string().as_str()));
        let score = field(info, "score").expect("a score");
        let decimals = score.split_once('.').map(|(_, d)| d.len());
        assert_eq!(decimals, Some(2), "score in men with 2 decimals: {info}");
        assert!(info.contains("pv=\""), "{info}");
        assert!(field(info, "nodes").is_some() && field(info, "nps").is_some());
    }
    let done = lines.last().expect("a done line");
    let best = done_move(done);
    let game = International::new();
    let start = game.start();
    let mv = game.parse_hub_move(&start, best).expect("a legal move");
    assert_eq!(
        game.hub_move(mv).as_deref(),
        Some(best),
        "written in Hub form"
    );
    if let Some(ponder) = field(done, "ponder") {
        let mut after = start.clone();
        game.play_unchecked(&mut after, mv);
        game.parse_hub_move(&after, ponder)
            .expect("the ponder move is legal after the best move");
    }
}

#[test]
fn a_position_with_a_capture_in_its_moves() {
    let mut engine = Engine::ready(&[], Some("normal"));
    // The capture written with its captured square, then the same with `-` separators.
    for capture in ["28x19x23", "28-19-23"] {
        engine.send(&format!(
            "pos pos={INTERNATIONAL_START} moves=\"32-28 19-23 {capture}\""
        ));
        assert_eq!(
            engine.ping(),
            Vec::<String>::new(),
            "no error for {capture}"
        );
        engine.send("level depth=3");
        engine.send("go think");
        let lines = engine.until("done");
        let best = done_move(lines.last().expect("done"));
        assert!(
            ["13x24x19", "14x23x19"].contains(&best),
            "one of the two recaptures: {best}"
        );
    }
    // A double capture in the game, captured squares in descending order.
    let game = International::new();
    let mut state = game.start();
    let opening = [
        "32-28", "17-22", "28x17x22", "11x22x17", "37-32", "22-27", "31x22x27",
    ];
    for text in opening {
        let mv = game.parse_hub_move(&state, text).expect(text);
        game.play_unchecked(&mut state, mv);
    }
    engine.send(&format!(
        "pos pos={INTERNATIONAL_START} moves=\"{}\"",
        opening.join(" ")
    ));
    engine.send("level depth=2");
    engine.send("go think");
    let lines = engine.until("done");
    let best = done_move(lines.last().expect("done"));
    game.parse_hub_move(&state, best)
        .expect("legal after the captures");
}

#[test]
fn stop_ends_an_analysis_with_done() {
    let mut engine = Engine::ready(&[], None);
    engine.send("pos start");
    engine.send("go analyze");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    engine.send("stop");
    let lines = engine.until("done");
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "stopped late: {:?}",
        asked.elapsed()
    );
    assert!(lines.iter().any(|l| l.starts_with("info ")), "{lines:?}");
    let best = done_move(lines.last().expect("done"));
    let game = International::new();
    game.parse_hub_move(&game.start(), best)
        .expect("a legal move");
    // The same with level infinite and go think.
    engine.send("pos start");
    engine.send("level infinite");
    engine.send("go think");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("stop");
    let lines = engine.until("done");
    assert_eq!(lines.iter().filter(|l| l.starts_with("done")).count(), 1);
    assert_eq!(engine.ping(), Vec::<String>::new(), "exactly one done");
}

#[test]
fn ping_is_answered_during_a_search() {
    let mut engine = Engine::ready(&[], None);
    engine.send("pos start");
    engine.send("go analyze");
    std::thread::sleep(Duration::from_millis(200));
    let before = engine.ping();
    assert!(
        before.iter().all(|l| l.starts_with("info ")),
        "pong before done: {before:?}"
    );
    engine.send("stop");
    engine.until("done");
}

#[test]
fn bad_input_gets_an_error_and_the_engine_goes_on() {
    let mut engine = Engine::ready(&[], None);
    let error_for = |engine: &mut Engine, line: &str| {
        engine.send(line);
        let before = engine.ping();
        assert_eq!(before.len(), 1, "{line}: {before:?}");
        assert!(
            before[0].starts_with("error message=\""),
            "{line}: {before:?}"
        );
        before[0].clone()
    };
    error_for(&mut engine, "frobnicate now");
    error_for(&mut engine, "pos pos=Wbbbb");
    error_for(
        &mut engine,
        &format!("pos pos=X{}", &INTERNATIONAL_START[1..]),
    );
    error_for(&mut engine, &format!("pos pos={ENGLISH_START}"));
    error_for(&mut engine, "pos start moves=\"32-28 99-1\"");
    error_for(&mut engine, "pos start moves=\"32-28 18-24\"");
    error_for(&mut engine, "pos start moves=\"32-28 19-23 28x19\"x");
    error_for(&mut engine, "pos start moves=\"32-28");
    error_for(&mut engine, "level depth=0");
    error_for(&mut engine, "level move-time=-1");
    error_for(&mut engine, "level time=nan");
    error_for(&mut engine, "level inc=1");
    error_for(&mut engine, "set-param name=variant value=frisian");
    error_for(&mut engine, "set-param name=colour value=red");
    // After a refused pos, go says there is no position and still ends with a done, so that
    // a program waiting for one does not hang.
    engine.send("pos pos=Wbbbb");
    engine.send("level depth=1");
    engine.send("go think");
    let answer = engine.until("done");
    assert!(
        answer.iter().any(|l| l.contains("no position")),
        "{answer:?}"
    );
    // new-game goes back to the start: go searches it.
    engine.send("new-game");
    assert_eq!(engine.ping(), Vec::<String>::new());
    engine.send("level depth=1");
    engine.send("go think");
    let answer = engine.until("done");
    assert!(
        answer.last().is_some_and(|l| l.starts_with("done move=")),
        "{answer:?}"
    );
    let long = format!("pos moves=\"{}\"", "32-28 ".repeat(20_000));
    assert!(error_for(&mut engine, &long).contains("longer than"));
    error_for(&mut engine, "\u{0}\u{7f}é=\"");
    // Still answering: a search after all that.
    engine.send("pos start moves=\"32-28\"");
    engine.send("level depth=2");
    engine.send("go think");
    let lines = engine.until("done");
    let game = International::new();
    let after = {
        let mut s = game.start();
        let mv = game.parse_hub_move(&s, "32-28").expect("legal");
        game.play_unchecked(&mut s, mv);
        s
    };
    game.parse_hub_move(&after, done_move(lines.last().expect("done")))
        .expect("a legal reply");
    engine.send("quit");
    let (status, stderr) = engine.exit();
    assert!(status.success());
    assert_eq!(stderr, "");
}

#[test]
fn english_checkers_with_its_32_squares() {
    for (args, variant) in [
        (&[][..], Some("english")),
        (&["--ruleset", "english"][..], None),
    ] {
        let mut engine = Engine::ready(args, variant);
        engine.send(&format!("pos pos={ENGLISH_START} moves=\"11-15 24-20\""));
        engine.send("level depth=5");
        engine.send("go think");
        let lines = engine.until("done");
        let game = English::new();
        let mut state = game.start();
        for text in ["11-15", "24-20"] {
            let mv = game.parse_hub_move(&state, text).expect(text);
            game.play_unchecked(&mut state, mv);
        }
        game.parse_hub_move(&state, done_move(lines.last().expect("done")))
            .expect("a legal English move");
        // A 10x10 position is refused here.
        engine.send(&format!("pos pos={INTERNATIONAL_START}"));
        let errors = engine.ping();
        assert!(errors[0].contains("33 characters"), "{errors:?}");
    }
}

#[test]
fn a_clock_level_answers_in_time() {
    let mut engine = Engine::ready(&[], None);
    engine.send("pos start");
    engine.send("level time=1 inc=0.1");
    let asked = Instant::now();
    engine.send("go think");
    engine.until("done");
    assert!(
        asked.elapsed() < Duration::from_millis(900),
        "{:?}",
        asked.elapsed()
    );
    // Pondering lasts until ponder-hit, then the move time.
    engine.send("pos start moves=\"32-28\"");
    engine.send("level move-time=0.3");
    engine.send("go ponder");
    std::thread::sleep(Duration::from_millis(200));
    assert!(engine.ping().iter().all(|l| l.starts_with("info ")));
    let hit = Instant::now();
    engine.send("ponder-hit");
    engine.until("done");
    assert!(
        hit.elapsed() >= Duration::from_millis(250),
        "{:?}",
        hit.elapsed()
    );
    assert!(
        hit.elapsed() < Duration::from_secs(3),
        "{:?}",
        hit.elapsed()
    );
}

#[test]
fn the_engine_exits_at_the_end_of_its_input() {
    let mut engine = Engine::ready(&[], None);
    engine.send("pos start");
    engine.send("go analyze");
    std::thread::sleep(Duration::from_millis(100));
    drop(engine.stdin.take());
    let (status, stderr) = engine.exit();
    assert!(status.success());
    assert_eq!(stderr, "");
}

#[test]
fn a_long_bounded_search_keeps_reading_its_input() {
    // A search bounded by a time far away: the engine must still hear every command.
    let probe = Duration::from_secs(3);
    let mut engine = Engine::ready(&[], None);
    engine.send("pos start");
    engine.send("level move-time=1000000");
    engine.send("go think");
    std::thread::sleep(Duration::from_millis(200));
    // Any other command ends the search first: its done comes at once, with a legal move.
    let asked = Instant::now();
    engine.send("pos start");
    let lines = engine.until("done");
    assert!(asked.elapsed() < probe, "done after {:?}", asked.elapsed());
    let game = International::new();
    game.parse_hub_move(&game.start(), done_move(lines.last().expect("done")))
        .expect("a legal move");
    // Then the pos is carried out, and ping is answered with nothing before it.
    let asked = Instant::now();
    assert_eq!(engine.ping(), Vec::<String>::new());
    assert!(asked.elapsed() < probe, "pong after {:?}", asked.elapsed());
    // stop and ping during the same long search.
    engine.send("level move-time=1000000");
    engine.send("go think");
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    let before = engine.ping();
    assert!(before.iter().all(|l| l.starts_with("info ")), "{before:?}");
    engine.send("stop");
    engine.until("done");
    assert!(asked.elapsed() < probe, "done after {:?}", asked.elapsed());
    // quit during a long search: the engine exits.
    engine.send("level move-time=1000000");
    engine.send("go think");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("quit");
    let (status, stderr) = engine.exit();
    assert!(status.success());
    assert_eq!(stderr, "");
}

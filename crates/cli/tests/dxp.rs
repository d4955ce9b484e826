//! `denkmeter dxp`: a follower and an initiator play a whole game over loopback TCP, and a raw
//! client sends the follower malformed messages, an illegal move and more than the longest
//! message. Every read is under a timeout so that a hang fails instead of blocking.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use denkmeter_core::{Game, Player};
use denkmeter_games::draughts::{
    DxpMessage, EndReason, GameReq, International, State, DXP_VERSION,
};

/// How long any one expected message may take.
const READ_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a process may take to exit.
const EXIT_TIMEOUT: Duration = Duration::from_secs(60);

/// A `denkmeter dxp --listen 127.0.0.1:0` and the address it printed.
struct Follower {
    child: Child,
    address: String,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Follower {
    fn start(args: &[&str]) -> Follower {
        // A read timeout of 30 s unless the test gives its own.
        let timeout: &[&str] = if args.contains(&"--read-timeout-secs") {
            &[]
        } else {
            &["--read-timeout-secs", "30"]
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_denkmeter"))
            .args(["dxp", "--listen", "127.0.0.1:0"])
            .args(timeout)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("a first line");
        let address = line
            .trim()
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("expected `listening ADDRESS`, got {line:?}"))
            .to_string();
        Follower {
            child,
            address,
            stdout,
        }
    }

    /// Waits for the follower to exit by itself and returns the rest of its output.
    fn finish(mut self) -> String {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(status.success(), "the follower failed: {status}");
                break;
            }
            if started.elapsed() > EXIT_TIMEOUT {
                let _ = self.child.kill();
                panic!("the follower did not exit");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut rest = String::new();
        self.stdout.read_to_string(&mut rest).expect("output");
        rest
    }

    /// Stops the follower and returns what it logged on standard error.
    fn log(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut log = String::new();
        if let Some(mut stderr) = self.child.stderr.take() {
            stderr.read_to_string(&mut log).expect("the log");
        }
        log
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn an_initiator_and_a_follower_play_a_whole_game() {
    let follower = Follower::start(&["--max-games", "1"]);
    let output = Command::new(env!("CARGO_BIN_EXE_denkmeter"))
        .args(["dxp", "--connect", &follower.address])
        .args(["--colour", "black", "--time-minutes", "0", "--moves", "0"])
        .args(["--max-plies", "200", "--read-timeout-secs", "30"])
        .output()
        .expect("the initiator runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let result = stdout.lines().next().unwrap_or_default().to_string();
    assert!(result.starts_with("result "), "{stdout}");
    let theirs = follower.finish();
    // Both sides saw the same moves; the result is told from White's side by both.
    assert!(
        theirs.trim() == format!("game 1: {result}"),
        "{theirs}\n{result}"
    );
}

/// A raw DXP client.
struct Client {
    stream: TcpStream,
}

impl Client {
    fn connect(address: &str) -> Client {
        let stream = TcpStream::connect(address).expect("connects");
        stream
            .set_read_timeout(Some(READ_TIMEOUT))
            .expect("the follower answers");
        Client { stream }
    }

    fn send(&mut self, text: &[u8]) {
        self.stream.write_all(text).expect("the follower answers");
        self.stream.write_all(b"\0").expect("the follower answers");
    }

    /// The next message, or `None` when the follower closed the connection.
    fn recv(&mut self) -> Option<String> {
        let mut bytes = Vec::new();
        let mut byte = [0u8];
        loop {
            match self.stream.read(&mut byte) {
                Ok(0) => return None,
                Ok(_) if byte[0] == 0 => {
                    return Some(String::from_utf8(bytes).expect("the follower answers"))
                }
                Ok(_) => bytes.push(byte[0]),
                Err(error) if error.kind() == std::io::ErrorKind::ConnectionReset => return None,
                Err(error) => panic!("no message within {READ_TIMEOUT:?}: {error}"),
            }
        }
    }
}

/// A GAMEREQ from the start, the follower playing `colour` with a game of 0 minutes.
/// The follower's GAMEACC: its name padded to 32 characters, then 0 (accepted).
fn accepted() -> String {
    format!("A{:<32}0", "denkmeter")
}

fn gamereq(colour: char) -> Vec<u8> {
    format!("R01{:32}{colour}000000A", "raw test").into_bytes()
}

#[test]
fn a_follower_answers_bad_messages_and_illegal_moves_sensibly() {
    let follower = Follower::start(&[]);
    let mut client = Client::connect(&follower.address);

    // Outside a game, nonsense is only logged; BACKREQ gets "not supported".
    client.send(b"Xnonsense");
    client.send(b"B001W");
    assert_eq!(client.recv().as_deref(), Some("K1"));

    // A position that cannot be played is refused with code 2: not this game, another one.
    let men_on_the_far_row = format!("R01{:32}Z000000BW{}", "raw test", "w".repeat(50));
    client.send(men_on_the_far_row.as_bytes());
    let answer = client.recv().expect("the follower answers");
    assert!(
        answer.starts_with("Adenkmeter ") && answer.ends_with('2'),
        "{answer}"
    );

    // A game where the follower is White: it moves first.
    client.send(&gamereq('W'));
    let answer = client.recv().expect("the follower answers");
    assert_eq!(answer, accepted(), "{answer}");
    let first = client.recv().expect("the follower answers");
    assert!(first.starts_with('M') && first.len() == 11, "{first}");
    // A malformed move ends the game with GAMEEND.
    client.send(b"M12");
    let end = client.recv().expect("the follower answers");
    assert!(end.starts_with("E0"), "{end}");
    client.send(b"E01"); // a confirmation: not answered

    // A game where the follower is Black: an illegal move ends it.
    client.send(&gamereq('Z'));
    assert_eq!(client.recv().as_deref(), Some(accepted().as_str()));
    client.send(b"M0000322300");
    let end = client.recv().expect("the follower answers");
    assert!(end.starts_with("E0"), "{end}");

    // A legal game goes on: 32-28, then the follower answers; GAMEEND is confirmed.
    client.send(&gamereq('Z'));
    assert_eq!(client.recv().as_deref(), Some(accepted().as_str()));
    client.send(b"M0000322800");
    let reply = client.recv().expect("the follower answers");
    assert!(reply.starts_with('M'), "{reply}");
    client.send(b"C hello");
    client.send(b"E21");
    // Confirmed with reason 0, as the specification says, whatever the reason given.
    assert_eq!(client.recv().as_deref(), Some("E00"));

    // More than the longest message without a NUL drops the connection.
    client
        .stream
        .write_all(&[b'C'; 2000])
        .expect("the follower answers");
    assert_eq!(client.recv(), None);

    // The follower still serves the next connection.
    let mut again = Client::connect(&follower.address);
    again.send(&gamereq('Z'));
    assert_eq!(again.recv().as_deref(), Some(accepted().as_str()));
}

#[test]
fn a_peer_that_trickles_bytes_cannot_hold_the_follower() {
    use std::time::{Duration, Instant};
    let follower = Follower::start(&["--read-timeout-secs", "1"]);
    // One byte of an unfinished chat every 300 ms for 8 s: each read is within the timeout,
    // the whole message is not, so the follower drops this peer after a second.
    let mut slow = Client::connect(&follower.address);
    let trickle = std::thread::spawn(move || {
        for _ in 0..27 {
            if slow.stream.write_all(b"C").is_err() {
                break;
            }
            std::thread::sleep(Duration::from_millis(300));
        }
    });
    std::thread::sleep(Duration::from_millis(500));
    // The next peer is served long before the trickle ends.
    let waiting = Instant::now();
    let mut next = Client::connect(&follower.address);
    next.send(&gamereq('Z'));
    assert_eq!(next.recv().as_deref(), Some(accepted().as_str()));
    assert!(
        waiting.elapsed() < Duration::from_secs(5),
        "served after {:?}",
        waiting.elapsed()
    );
    let _ = trickle.join();
}

#[test]
fn a_read_timeout_is_logged_in_denkmeters_words() {
    let follower = Follower::start(&["--read-timeout-secs", "1"]);
    let silent = Client::connect(&follower.address);
    std::thread::sleep(Duration::from_millis(2500));
    drop(silent);
    let log = follower.log();
    assert!(
        log.contains("sent no whole message within 1 s (--read-timeout-secs)"),
        "{log}"
    );
    assert!(!log.contains("os error"), "{log}");
}

// ---------------------------------------------------------------- a peer as the specification says

/// White to move takes Black's last man (28x19); with Black to move, Black takes White's
/// (23x32). Either way the side to move next has no move and has lost.
const WHITE_TAKES_THE_LAST_MAN: &str = "W:W28:B23";
const BLACK_TAKES_THE_LAST_MAN: &str = "B:W28:B23";

/// Each side wins and loses once as White and once as Black: the position, denkmeter's colour,
/// how the game must end and its result.
const WON_AND_LOST: [(&str, Player, Ending, &str); 4] = [
    (
        WHITE_TAKES_THE_LAST_MAN,
        Player::White,
        Ending::PeerLost,
        "2-0",
    ),
    (
        WHITE_TAKES_THE_LAST_MAN,
        Player::Black,
        Ending::DenkmeterLost,
        "2-0",
    ),
    (
        BLACK_TAKES_THE_LAST_MAN,
        Player::Black,
        Ending::PeerLost,
        "0-2",
    ),
    (
        BLACK_TAKES_THE_LAST_MAN,
        Player::White,
        Ending::DenkmeterLost,
        "0-2",
    ),
];

/// How a game between denkmeter and the peer ended.
#[derive(Debug, PartialEq, Eq)]
enum Ending {
    /// The peer had no move and sent GAMEEND; denkmeter confirmed it.
    PeerLost,
    /// Denkmeter had no move and sent GAMEEND; the peer confirmed it.
    DenkmeterLost,
    /// The game's length was reached on denkmeter's turn and it ended the game.
    Length,
}

/// A DXP peer that plays as the specification says and waits as it says: it plays the first
/// legal move on its turn, sends GAMEEND only on its turn (when it has no move: reason 1, "I
/// lose"), expects denkmeter to do the same on its own turn, and expects every GAMEEND to be
/// confirmed with reason 0. Anything else fails the test, and so does waiting longer than
/// [`READ_TIMEOUT`] for a message.
struct SpecPeer {
    client: Client,
    game: International,
    state: State,
    colour: Player,
    /// The game's length in moves of each side; 0 for none.
    length: usize,
}

impl SpecPeer {
    fn send(&mut self, message: &DxpMessage) {
        self.client.send(message.to_text().as_bytes());
    }

    fn recv(&mut self) -> DxpMessage {
        let text = self.client.recv().expect("denkmeter keeps the connection");
        DxpMessage::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    /// Plays the game to its end.
    fn play_out(&mut self) -> Ending {
        let mut plies = 0;
        loop {
            let mut moves = Vec::new();
            self.game.legal_moves(&self.state, &mut moves);
            let at_length = self.length > 0 && plies >= 2 * self.length;
            if self.game.to_move(&self.state) == self.colour {
                assert!(
                    !at_length,
                    "the game's length was reached on the peer's turn"
                );
                let Some(&mv) = moves.first() else {
                    self.send(&DxpMessage::GameEnd {
                        reason: EndReason::ILose,
                        stop: false,
                    });
                    match self.recv() {
                        DxpMessage::GameEnd { reason, .. } => {
                            assert_eq!(reason, EndReason::Unknown, "confirmed with reason 0")
                        }
                        other => panic!("expected GAMEEND back, got {other:?}"),
                    }
                    return Ending::PeerLost;
                };
                self.send(&DxpMessage::Move(self.game.dxp_move(mv, 0)));
                self.game.play_unchecked(&mut self.state, mv);
                plies += 1;
                continue;
            }
            match self.recv() {
                DxpMessage::Move(mv) => {
                    assert!(
                        !moves.is_empty() && !at_length,
                        "a move after the end: {mv}"
                    );
                    let found = self
                        .game
                        .resolve_dxp_move(&self.state, &mv)
                        .unwrap_or_else(|e| panic!("denkmeter's move: {e}"));
                    self.game.play_unchecked(&mut self.state, found);
                    plies += 1;
                }
                DxpMessage::GameEnd { reason, .. } => {
                    let ending = if moves.is_empty() {
                        assert_eq!(reason, EndReason::ILose, "denkmeter has no move");
                        Ending::DenkmeterLost
                    } else {
                        assert!(at_length, "GAMEEND while the game goes on");
                        assert_eq!(reason, EndReason::Unknown, "the game's length");
                        Ending::Length
                    };
                    self.send(&DxpMessage::GameEnd {
                        reason: EndReason::Unknown,
                        stop: true,
                    });
                    return ending;
                }
                other => panic!("expected a move or GAMEEND, got {other:?}"),
            }
        }
    }
}

/// The state of a FEN.
fn position(fen: &str) -> State {
    International::new().parse_position(fen).expect("a FEN")
}

/// Denkmeter as the follower, playing `denkmeter` from `fen` against the peer, for a game of
/// `moves` moves: how it ended, and what denkmeter printed about it.
fn follower_game(fen: &str, denkmeter: Player, moves: u16) -> (Ending, String) {
    let follower = Follower::start(&["--max-games", "1"]);
    let state = position(fen);
    let mut peer = SpecPeer {
        client: Client::connect(&follower.address),
        game: International::new(),
        state: state.clone(),
        colour: denkmeter.opponent(),
        length: usize::from(moves),
    };
    peer.send(&DxpMessage::GameReq(GameReq {
        version: DXP_VERSION,
        name: "spec peer".to_string(),
        follower_colour: denkmeter,
        time_minutes: 0,
        moves,
        position: Some(peer.game.dxp_position(&state)),
    }));
    assert_eq!(peer.client.recv().as_deref(), Some(accepted().as_str()));
    let ending = peer.play_out();
    drop(peer);
    (ending, follower.finish().trim().to_string())
}

/// Denkmeter as the initiator, playing `denkmeter` from `fen` against the peer.
fn initiator_game(fen: &str, denkmeter: Player) -> (Ending, String) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let address = listener.local_addr().expect("bound").to_string();
    let colour = denkmeter.name();
    let mut initiator = Command::new(env!("CARGO_BIN_EXE_denkmeter"))
        .args(["dxp", "--connect", &address, "--colour", colour])
        .args(["--position", fen, "--time-minutes", "0", "--moves", "0"])
        .args(["--read-timeout-secs", "30"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // Waits for the connection, but not for a process that has given up.
    listener.set_nonblocking(true).expect("a listener");
    let started = Instant::now();
    let stream = loop {
        match listener.accept() {
            Ok((stream, _)) => break stream,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => panic!("accept: {e}"),
        }
        if let Some(status) = initiator.try_wait().expect("wait") {
            let mut log = String::new();
            if let Some(mut stderr) = initiator.stderr.take() {
                stderr.read_to_string(&mut log).expect("the log");
            }
            panic!("denkmeter exited without connecting ({status}): {log}");
        }
        assert!(
            started.elapsed() < READ_TIMEOUT,
            "denkmeter did not connect"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    stream.set_nonblocking(false).expect("a blocking stream");
    stream
        .set_read_timeout(Some(READ_TIMEOUT))
        .expect("a timeout");
    let mut peer = SpecPeer {
        client: Client { stream },
        game: International::new(),
        state: position(fen),
        colour: denkmeter.opponent(),
        length: 0,
    };
    match peer.recv() {
        DxpMessage::GameReq(request) => {
            assert_eq!(request.follower_colour, denkmeter.opponent());
            let asked = request.position.expect("a position");
            assert_eq!(peer.game.dxp_state(&asked).as_ref(), Ok(&peer.state));
        }
        other => panic!("expected GAMEREQ, got {other:?}"),
    }
    peer.send(&DxpMessage::GameAcc {
        name: "spec peer".to_string(),
        code: 0,
    });
    let ending = peer.play_out();
    drop(peer);
    let output = initiator.wait_with_output().expect("denkmeter exits");
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    (ending, stdout.trim().to_string())
}

#[test]
fn a_follower_ends_the_games_it_loses_and_confirms_the_games_it_wins() {
    for (fen, denkmeter, ending, result) in WON_AND_LOST {
        let (ended, printed) = follower_game(fen, denkmeter, 0);
        assert_eq!(ended, ending, "{fen}, denkmeter {denkmeter:?}: {printed}");
        let expected = format!("game 1: result {result} after 1 plies: ");
        assert!(printed.starts_with(&expected), "{fen}: {printed}");
    }
}

#[test]
fn an_initiator_ends_the_games_it_loses_and_confirms_the_games_it_wins() {
    for (fen, denkmeter, ending, result) in WON_AND_LOST {
        let (ended, printed) = initiator_game(fen, denkmeter);
        assert_eq!(ended, ending, "{fen}, denkmeter {denkmeter:?}: {printed}");
        let expected = format!("result {result} after 1 plies: ");
        assert!(printed.starts_with(&expected), "{fen}: {printed}");
    }
}

#[test]
fn the_number_of_moves_in_gamereq_is_the_games_length() {
    // One move each from the start: then White, denkmeter, is to move and ends the game
    // without a result.
    let start = "W:W31-50:B1-20";
    let (ended, printed) = follower_game(start, Player::White, 1);
    assert_eq!(ended, Ending::Length, "{printed}");
    assert!(
        printed.starts_with("game 1: result * after 2 plies: "),
        "{printed}"
    );
}

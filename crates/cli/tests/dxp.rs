//! `denkmeter dxp`: a follower and an initiator play a whole game over loopback TCP, and a raw
//! client sends the follower malformed messages, an illegal move and more than the longest
//! message. Every read is under a timeout so that a hang fails instead of blocking.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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
            .stderr(Stdio::null())
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

    // A position that cannot be played is refused with code 3.
    let men_on_the_far_row = format!("R01{:32}Z000000BW{}", "raw test", "w".repeat(50));
    client.send(men_on_the_far_row.as_bytes());
    let answer = client.recv().expect("the follower answers");
    assert!(
        answer.starts_with("Adenkmeter ") && answer.ends_with('3'),
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
    assert_eq!(client.recv().as_deref(), Some("E20"));

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

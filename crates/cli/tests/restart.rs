//! The server as a process: killed with SIGKILL while the computer thinks, started again on the
//! same SQLite file, it finishes the computer's move without anyone opening the game.

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct ServerProcess {
    child: Child,
    addr: String,
}

impl ServerProcess {
    fn start(database: &str) -> ServerProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_denkmeter"))
            .args(["serve", "--port", "0", "--database", database])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("Denkmeter serves on http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        ServerProcess { child, addr }
    }

    /// One HTTP/1.1 request; the status and the body.
    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response[9..12].parse().unwrap();
        let body = response
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }

    fn kill(mut self) {
        self.child.kill().unwrap(); // SIGKILL
        self.child.wait().unwrap();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A JSON string field, for the few this test reads.
fn field<'a>(json: &'a str, name: &str) -> &'a str {
    let key = format!("\"{name}\":\"");
    let start = json
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {json}"))
        + key.len();
    let end = json[start..].find('"').unwrap() + start;
    &json[start..end]
}

/// The number of moves of a game as the game list says, which does not load the game.
fn listed_moves(server: &ServerProcess, id: &str) -> Option<u64> {
    let (_, list) = server.request("GET", "/api/games", "");
    let at = list.find(&format!("\"id\":\"{id}\""))?;
    let rest = &list[at..];
    let start = rest.find("\"moves\":")? + 8;
    let digits: String = rest[start..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

#[test]
fn a_computer_game_resumes_after_the_server_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("games.db");
    let database = database.to_str().unwrap();
    let server = ServerProcess::start(database);
    // Level 5 thinks for seconds: long enough to kill the server mid-search.
    let (status, created) = server.request(
        "POST",
        "/api/games",
        r#"{"ruleset":"chad","white":{"kind":"human"},"black":{"kind":"computer","level":5}}"#,
    );
    assert_eq!(status, 201, "{created}");
    let id = field(&created, "id").to_string();
    let token = field(&created, "white").to_string();
    let (status, view) = server.request(
        "POST",
        &format!("/api/games/{id}/moves"),
        &format!(r#"{{"token":"{token}","move":"C5-A5"}}"#),
    );
    assert_eq!(status, 200, "{view}");
    assert_eq!(
        listed_moves(&server, &id),
        Some(1),
        "the computer answered too soon"
    );
    server.kill();

    let server = ServerProcess::start(database);
    let started = Instant::now();
    while listed_moves(&server, &id) != Some(2) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the computer never moved after the restart"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // The acknowledged move survived the kill.
    let (_, view) = server.request("GET", &format!("/api/games/{id}"), "");
    assert!(view.contains("\"moves\":[\"C5-A5\","), "{view}");
}

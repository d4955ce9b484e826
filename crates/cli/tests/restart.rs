//! The server as a process: killed with SIGKILL while the computer thinks, started again on the
//! same SQLite file or PostgreSQL database, it finishes the computer's move without anyone
//! opening the game; on PostgreSQL at once when it comes back under its own name, and once the
//! killed server's lease has run out when another server takes over.
//!
//! The PostgreSQL tests need `DENKMETER_TEST_POSTGRES_URL` (see `crates/server/tests/api.rs`).

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[path = "support/postgres.rs"]
mod postgres;
use postgres::PostgresDatabase;

struct ServerProcess {
    child: Child,
    addr: String,
}

impl ServerProcess {
    fn start(database: &str, extra: &[&str]) -> ServerProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_denkmeter"))
            .args(["serve", "--port", "0", "--database", database])
            .args(extra)
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

/// Starts a game against the computer (level 5 thinks for seconds), makes the human's move,
/// kills the server mid-search and starts it again with `again`; returns how long after the
/// restart the computer's move came (at most `limit`).
fn reply_after_a_kill(database: &str, first: &[&str], again: &[&str], limit: Duration) -> Duration {
    let server = ServerProcess::start(database, first);
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

    let server = ServerProcess::start(database, again);
    let started = Instant::now();
    while listed_moves(&server, &id) != Some(2) {
        assert!(
            started.elapsed() < limit,
            "the computer did not move within {limit:?} of the restart"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let took = started.elapsed();
    // The acknowledged move survived the kill.
    let (_, view) = server.request("GET", &format!("/api/games/{id}"), "");
    assert!(view.contains("\"moves\":[\"C5-A5\","), "{view}");
    took
}

#[test]
fn a_computer_game_resumes_after_the_server_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("games.db");
    reply_after_a_kill(
        database.to_str().unwrap(),
        &[],
        &[],
        Duration::from_secs(60),
    );
}

/// On PostgreSQL a server cannot tell a search of a server that stopped from one of a server
/// that runs on; it waits 60 s (`stall_after`) for a live one. Restarted under its own name it
/// knows the search was its own, and takes it at once.
#[test]
fn on_postgres_a_restarted_server_takes_its_own_search_at_once() {
    let Some(database) = PostgresDatabase::create("restart_own") else {
        return;
    };
    let name = ["--server-id", "restart-test"];
    let took = reply_after_a_kill(&database.url, &name, &name, Duration::from_secs(40));
    // Level 5 thinks for seconds, not the 60 s of a takeover.
    assert!(took < Duration::from_secs(30), "{took:?}");
}

/// Another server takes over a killed server's search once its lease ran out (10 s), not
/// after the 60 s it would give a live server.
#[test]
fn on_postgres_a_killed_servers_search_is_taken_over_when_its_lease_ends() {
    let Some(database) = PostgresDatabase::create("restart_other") else {
        return;
    };
    let took = reply_after_a_kill(
        &database.url,
        &["--server-id", "first"],
        &["--server-id", "second"],
        Duration::from_secs(55),
    );
    assert!(took < Duration::from_secs(45), "{took:?}");
}

impl ServerProcess {
    /// One HTTP/1.1 request with extra header lines, written and not waited for: the server
    /// may be killed while it answers.
    fn send_only(&self, method: &str, path: &str, headers: &str, body: &str) -> TcpStream {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{headers}\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        stream
    }

    /// One request with extra header lines; the status, the headers and the body.
    fn request_with(
        &self,
        method: &str,
        path: &str,
        headers: &str,
        body: &str,
    ) -> (u16, String, String) {
        let mut stream = self.send_only(method, path, headers, body);
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response[9..12].parse().unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
        (status, head.to_string(), body.to_string())
    }
}

/// A player's rated games against the computer, each resigned with the server killed at once
/// after the resignation is sent: whenever the kill lands, the game is either over with its
/// rating change or still going on without one, never one without the other; resigned again
/// after the restart, it is rated once. So every rated end is counted exactly once.
#[test]
fn a_rated_end_survives_a_kill_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("games.db");
    let database = database.to_str().unwrap();
    let mut server = ServerProcess::start(database, &["--sign-ins-per-minute", "0"]);
    let origin = format!("Origin: http://{}\r\n", server.addr);
    let (status, head, body) = server.request_with(
        "POST",
        "/api/account/signup",
        &origin,
        r#"{"name":"Killjoy","password":"a long enough passphrase"}"#,
    );
    assert_eq!(status, 201, "{body}");
    let cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: denkmeter_session="))
        .and_then(|v| v.split(';').next())
        .unwrap()
        .to_string();
    const ROUNDS: u64 = 6;
    let mut rated = 0;
    for round in 0..ROUNDS {
        // The page's origin is the server's address, new after each restart.
        let session = |server: &ServerProcess| {
            format!(
                "Origin: http://{}\r\nCookie: denkmeter_session={cookie}\r\n",
                server.addr
            )
        };
        let (status, _, created) = server.request_with(
            "POST",
            "/api/games",
            &session(&server),
            r#"{"ruleset":"chad","white":{"kind":"human"},"black":{"kind":"computer","level":1},
                "clock":{"main_seconds":600},"me":"white","rated":true}"#,
        );
        assert_eq!(status, 201, "{created}");
        let id = field(&created, "id").to_string();
        let (status, view) = server.request(
            "POST",
            &format!("/api/games/{id}/moves"),
            r#"{"move":"C5-A5"}"#,
        );
        // Without the session a move is nobody's.
        assert_eq!(status, 403, "{view}");
        let (status, _, view) = server.request_with(
            "POST",
            &format!("/api/games/{id}/moves"),
            &session(&server),
            r#"{"move":"C5-A5"}"#,
        );
        assert_eq!(status, 200, "{view}");
        let started = Instant::now();
        while listed_moves(&server, &id) != Some(2) {
            assert!(started.elapsed() < Duration::from_secs(30), "no reply");
            std::thread::sleep(Duration::from_millis(20));
        }
        // The resignation, and the kill a moment after: sooner or later in the write.
        let _sent = server.send_only(
            "POST",
            &format!("/api/games/{id}/resign"),
            &session(&server),
            "{}",
        );
        std::thread::sleep(Duration::from_millis(2 * round));
        server.kill();
        server = ServerProcess::start(database, &["--sign-ins-per-minute", "0"]);
        let (_, view) = server.request("GET", &format!("/api/games/{id}"), "");
        let view: serde_json::Value = serde_json::from_str(&view).unwrap();
        let change = &view["rating_changes"]["white"];
        eprintln!(
            "round {round}: after the kill the game is {}",
            view["status"]
        );
        if view["status"] == "over" {
            assert!(change["after"].is_number(), "over but not rated: {view}");
        } else {
            assert!(
                view["rating_changes"].is_null(),
                "rated but not over: {view}"
            );
            let (status, _, view) = server.request_with(
                "POST",
                &format!("/api/games/{id}/resign"),
                &session(&server),
                "{}",
            );
            assert_eq!(status, 200, "{view}");
        }
        rated += 1;
    }
    let (_, page) = server.request("GET", "/api/players/Killjoy", "");
    let page: serde_json::Value = serde_json::from_str(&page).unwrap();
    assert_eq!(page["ratings"][0]["games"], rated, "{page}");
    assert_eq!(
        page["ratings"][0]["history"].as_array().unwrap().len() as u64,
        rated
    );
    assert_eq!(page["records"][0]["losses"], rated);
}

//! The API against a real server on a loopback port, on SQLite and on PostgreSQL.
//!
//! PostgreSQL tests need `DENKMETER_TEST_POSTGRES_URL`, a URL of a role that may create
//! databases (each test makes its own). Without it they are skipped, unless
//! `DENKMETER_REQUIRE_POSTGRES=1` (as `scripts/test.sh` and CI set), which makes them fail.

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use denkmeter_engine::Registry;

use denkmeter_server::{AppState, ServerConfig};
use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::task::JoinHandle;

struct Server {
    addr: SocketAddr,
    handle: JoinHandle<()>,
    client: reqwest::Client,
}

/// The limits of a test server: the defaults, without the per-client rate limits (every test
/// client shares one address) unless a test sets them.
/// Every ruleset, as the command line hands them to the server.
fn registry() -> Arc<Registry> {
    Arc::new(Registry::from_list(denkmeter_games::visit_rulesets))
}

fn test_config() -> ServerConfig {
    ServerConfig {
        games_per_minute: 0,
        moves_per_second: 0,
        sign_ins_per_minute: 0,
        max_connections_per_address: 0,
        ..ServerConfig::default()
    }
}

impl Server {
    async fn start(database: &str) -> Server {
        Server::start_with(database, test_config()).await
    }

    async fn start_with(database: &str, config: ServerConfig) -> Server {
        let state = AppState::open_with(database, config, registry())
            .await
            .unwrap();
        Server::start_state(state).await
    }

    async fn start_state(state: AppState) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let handle = tokio::spawn(denkmeter_server::listener::serve(
            listener,
            state,
            std::future::pending(),
        ));
        Server {
            addr,
            handle,
            client: reqwest::Client::new(),
        }
    }

    async fn stop(self) {
        self.handle.abort();
        let _ = self.handle.await;
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    async fn get(&self, path: &str) -> (StatusCode, Value) {
        let response = self.client.get(self.url(path)).send().await.unwrap();
        let status = response.status();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn get_text(&self, path: &str) -> (StatusCode, String, String) {
        let response = self.client.get(self.url(path)).send().await.unwrap();
        let status = response.status();
        let kind = response
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        (status, kind, response.text().await.unwrap())
    }

    async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.post_raw(path, body.to_string()).await
    }

    async fn post_raw(&self, path: &str, body: String) -> (StatusCode, Value) {
        let response = self
            .client
            .post(self.url(path))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        let status = response.status();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// Creates a game; returns its id and the tokens.
    async fn create(&self, ruleset: &str, white: Value, black: Value) -> (String, Value) {
        let (status, body) = self
            .post(
                "/api/games",
                json!({"ruleset": ruleset, "white": white, "black": black}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        (
            body["id"].as_str().unwrap().to_string(),
            body["tokens"].clone(),
        )
    }

    async fn play(&self, id: &str, token: &Value, mv: &str) -> (StatusCode, Value) {
        self.post(
            &format!("/api/games/{id}/moves"),
            json!({"token": token, "move": mv}),
        )
        .await
    }

    /// The first of the legal moves the seat of `token` is offered.
    async fn first_legal_move(&self, id: &str, token: &Value) -> String {
        let token = token.as_str().unwrap();
        let (_, view) = self.get(&format!("/api/games/{id}?token={token}")).await;
        view["legal_moves"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("no legal move: {view}"))
            .to_string()
    }

    /// Waits until the game has `ply` moves.
    async fn wait_for_ply(&self, id: &str, ply: u64) -> Value {
        for _ in 0..1200 {
            let (_, view) = self.get(&format!("/api/games/{id}")).await;
            if view["ply"].as_u64() == Some(ply) {
                return view;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("game {id} never reached ply {ply}");
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;
use tokio_tungstenite::tungstenite::Message;

/// The next JSON message on a socket (10 s at most).
async fn next_message(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("no message within 10 s")
            .expect("the socket ended")
            .unwrap();
        if let Message::Text(text) = message {
            return serde_json::from_str::<Value>(&text).unwrap();
        }
    }
}

/// The next view on a socket, skipping heartbeats.
async fn next_view(socket: &mut Socket) -> Value {
    loop {
        let message = next_message(socket).await;
        if message["type"] == "view" {
            return message["view"].clone();
        }
        assert_eq!(message["type"], "heartbeat", "{message}");
    }
}

async fn open_socket(server: &Server, id: &str, token: Option<&Value>) -> Socket {
    let query = token
        .and_then(Value::as_str)
        .map(|t| format!("?token={t}"))
        .unwrap_or_default();
    let url = format!("ws://{}/api/games/{id}/ws{query}", server.addr);
    tokio_tungstenite::connect_async(&url).await.unwrap().0
}

fn human() -> Value {
    json!({"kind": "human"})
}

fn computer(level: u8) -> Value {
    json!({"kind": "computer", "level": level})
}

/// A database for one test: a fresh SQLite file, or a fresh PostgreSQL database.
async fn database(backend: &str, dir: &tempfile::TempDir) -> Option<String> {
    match backend {
        "sqlite" => Some(format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("test.db").display()
        )),
        _ => {
            let Ok(admin) = std::env::var("DENKMETER_TEST_POSTGRES_URL") else {
                assert!(
                    std::env::var("DENKMETER_REQUIRE_POSTGRES").as_deref() != Ok("1"),
                    "DENKMETER_REQUIRE_POSTGRES=1 but DENKMETER_TEST_POSTGRES_URL is not set"
                );
                eprintln!("skipped: DENKMETER_TEST_POSTGRES_URL is not set");
                return None;
            };
            use sqlx::Connection;
            let name = format!(
                "dm_test_{}",
                dir.path()
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .to_lowercase()
                    .replace(|c: char| !c.is_ascii_alphanumeric(), "")
            );
            let mut conn = sqlx::PgConnection::connect(&admin).await.unwrap();
            sqlx::query(&format!("CREATE DATABASE {name}"))
                .execute(&mut conn)
                .await
                .unwrap();
            let base = admin.split('?').next().unwrap();
            let (server, _) = base.rsplit_once('/').unwrap();
            Some(format!("{server}/{name}"))
        }
    }
}

/// Drops a test's PostgreSQL database, whatever connections are left.
async fn drop_database(url: &str) {
    use sqlx::Connection;
    let admin = std::env::var("DENKMETER_TEST_POSTGRES_URL").unwrap();
    let (_, name) = url.rsplit_once('/').unwrap();
    let mut conn = sqlx::PgConnection::connect(&admin).await.unwrap();
    // A session the test role may not end (autovacuum's, on a role without pg_signal_backend)
    // can hold the database a moment: tried again, and left behind rather than failing a test
    // that passed.
    for attempt in 0..20 {
        let dropped = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .execute(&mut conn)
            .await;
        match dropped {
            Ok(_) => return,
            Err(error) if attempt == 19 => eprintln!("test database {name} left behind: {error}"),
            Err(_) => tokio::time::sleep(std::time::Duration::from_millis(250)).await,
        }
    }
}

macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let dir = tempfile::tempdir().unwrap();
                    let db = super::database("sqlite", &dir).await.unwrap();
                    super::$name(&db).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let dir = tempfile::tempdir().unwrap();
                    if let Some(db) = super::database("postgres", &dir).await {
                        super::$name(&db).await;
                        super::drop_database(&db).await;
                    }
                }
            )*
        }
    };
}

#[path = "api/players.rs"]
mod players;

#[path = "api/challenges.rs"]
mod challenges;

#[path = "api/lab.rs"]
mod lab;

#[path = "api/analyses.rs"]
mod analyses;

#[path = "api/board.rs"]
mod board;

#[path = "api/puzzles.rs"]
mod puzzles;

on_both_databases!(
    rulesets_and_health,
    a_game_against_the_computer,
    two_people_and_a_spectator,
    bad_requests_change_nothing,
    resign_and_draws,
    record_diagram_and_replay,
    a_game_survives_a_restart,
    the_websocket_pushes_every_change,
    two_servers_share_one_database,
    the_server_answers_while_the_computer_thinks,
    a_game_against_the_computer_driven_from_its_own_socket,
    hot_seat_with_a_polling_reader_and_a_spectator,
    one_search_at_a_time_per_game,
    list_and_view_agree_on_a_finished_start,
    tokens_are_stored_as_hashes,
    a_game_on_an_uploaded_board_keeps_its_board,
    hidden_kings_reach_nobody,
    a_hidden_king_against_the_computer,
    a_finished_straat_game_shows_both_sides_and_its_streets,
    hints_are_for_the_seat_to_move_and_change_nothing,
    finished_games_are_analysed_position_by_position,
    takebacks_against_the_computer,
    takebacks_between_people_on_two_servers,
    timed_games_are_lost_on_time_by_the_server,
    the_computer_plays_on_its_clock,
    the_clocks_start_with_the_first_moves,
    a_timed_turn_begins_again_after_a_restart,
    a_pdn_game_is_brought_in_continued_and_downloaded,
    an_invite_is_claimed_once,
    two_claims_of_one_invite_at_once,
);

mod postgres_only {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_live_servers_search_is_not_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        if let Some(db) = super::database("postgres", &dir).await {
            super::a_live_servers_search_is_not_taken_over(&db).await;
            super::drop_database(&db).await;
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn watchers_see_moves_made_on_another_server() {
        let dir = tempfile::tempdir().unwrap();
        if let Some(db) = super::database("postgres", &dir).await {
            super::watchers_see_moves_made_on_another_server(&db).await;
            super::drop_database(&db).await;
        }
    }
}

async fn rulesets_and_health(db: &str) {
    let server = Server::start(db).await;
    let (status, body) = server.get("/api/health").await;
    assert_eq!((status, body), (StatusCode::OK, json!({"status": "ok"})));
    let (_, list) = server.get("/api/rulesets").await;
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"chad") && names.contains(&"shakti"),
        "{names:?}"
    );
    let (status, chad) = server.get("/api/rulesets/chad").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(chad["board"]["cells"].as_array().unwrap().len(), 144);
    assert_eq!(chad["board"]["cells"][0]["name"], "A1");
    assert!(chad["rules"].as_str().unwrap().contains("castle"));
    // The rules page rendered on the server: headings as elements with their anchors, no
    // Markdown syntax left, no raw HTML.
    let html = chad["rules_html"].as_str().unwrap();
    assert!(html.starts_with(r#"<h1 id="chad">Chad</h1>"#), "{html}");
    assert!(html.contains(r#"<h2 id="how-the-pieces-move">How the pieces move</h2>"#));
    assert!(html.contains("<li><strong>King.</strong>") && html.contains("<pre><code>"));
    assert!(!html.contains("## ") && !html.contains("**") && !html.contains("<script"));
    let (status, body) = server.get("/api/rulesets/chess").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].as_str().unwrap().contains("chess"));
    let (status, _) = server.get("/").await;
    assert_eq!(status, StatusCode::OK);
    server.stop().await;
}

async fn a_game_against_the_computer(db: &str) {
    let server = Server::start(db).await;
    let (id, tokens) = server.create("chad", human(), computer(1)).await;
    assert!(tokens["black"].is_null());
    let (status, view) = server.play(&id, &tokens["white"], "C5-A5").await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["you"], "white");
    assert_eq!(view["moves"][0], "C5-A5");
    let view = server.wait_for_ply(&id, 2).await;
    assert_eq!(view["to_move"], "white");
    assert_eq!(view["thinking"], false);
    // A spectator sees the moves but no legal moves.
    assert!(view["legal_moves"].as_array().unwrap().is_empty());
    assert!(view["you"].is_null());
    let (_, mine) = server
        .get(&format!(
            "/api/games/{id}?token={}",
            tokens["white"].as_str().unwrap()
        ))
        .await;
    let legal = mine["legal_moves"].as_array().unwrap();
    assert!(!legal.is_empty());
    let first = &legal[0];
    assert!(first["from"].is_u64() && first["to"].is_u64() && first["text"].is_string());
    assert_eq!(mine["last_move"]["text"], view["moves"][1]);
    server.stop().await;
}

async fn two_people_and_a_spectator(db: &str) {
    let server = Server::start(db).await;
    let (id, tokens) = server.create("shakti", human(), human()).await;
    let (status, view) = server.play(&id, &tokens["white"], "b2-b4").await;
    assert_eq!(status, StatusCode::OK, "{view}");
    // The jumped tile b3 is gone.
    assert_eq!(view["last_move"]["removed"].as_array().unwrap().len(), 1);
    assert_eq!(view["absent"].as_array().unwrap().len(), 5);
    let (status, view) = server.play(&id, &tokens["black"], "b6-b5").await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["ply"], 2);
    let (_, list) = server.get("/api/games").await;
    let listed = list
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id.as_str())
        .unwrap();
    assert_eq!(listed["moves"], 2);
    assert_eq!(listed["status"], "ongoing");
    server.stop().await;
}

async fn bad_requests_change_nothing(db: &str) {
    let server = Server::start(db).await;
    let (id, tokens) = server.create("chad", human(), human()).await;
    let games = format!("/api/games/{id}");
    let moves = format!("/api/games/{id}/moves");
    let cases: Vec<(String, String, StatusCode)> = vec![
        (moves.clone(), "{not json".into(), StatusCode::BAD_REQUEST),
        (
            moves.clone(),
            json!({"token": tokens["white"]}).to_string(),
            StatusCode::BAD_REQUEST,
        ),
        (
            moves.clone(),
            json!({"token": "wrong", "move": "C5-A5"}).to_string(),
            StatusCode::FORBIDDEN,
        ),
        (
            moves.clone(),
            json!({"token": tokens["black"], "move": "I8-I5"}).to_string(),
            StatusCode::CONFLICT,
        ),
        (
            moves.clone(),
            json!({"token": tokens["white"], "move": "D3-D9"}).to_string(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            moves.clone(),
            json!({"token": tokens["white"], "move": "hello"}).to_string(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            moves.clone(),
            json!({"token": tokens["white"], "move": "x".repeat(40_000)}).to_string(),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        (
            "/api/games/nosuchgame/moves".into(),
            json!({"token": "t", "move": "C5-A5"}).to_string(),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/games".into(),
            json!({"ruleset": "chess", "white": human(), "black": human()}).to_string(),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/games".into(),
            json!({"ruleset": "chad", "white": computer(9), "black": human()}).to_string(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/games".into(),
            json!({"ruleset": "chad", "white": {"kind": "alien"}, "black": human()}).to_string(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/games".into(),
            json!({"ruleset": "chad", "white": human(), "black": human(), "position": "12/12 w"})
                .to_string(),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/api/games/{id}/draw"),
            json!({"token": tokens["white"], "action": "dance"}).to_string(),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/api/games/{id}/draw"),
            json!({"token": tokens["white"], "action": "accept"}).to_string(),
            StatusCode::CONFLICT,
        ),
    ];
    for (path, body, expected) in cases {
        let (status, reply) = server.post_raw(&path, body.clone()).await;
        let shown: String = body.chars().take(80).collect();
        assert_eq!(status, expected, "{path} {shown}: {reply}");
        assert!(
            reply["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{path} {shown}: {reply}"
        );
    }
    let (status, reply) = server.get(&format!("{games}?ply=abc")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{reply}");
    let (status, _) = server.get(&format!("{games}?ply=5")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = server.get(&format!("{games}?token=forged")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = server.get("/api/nothing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Nothing changed.
    let (_, view) = server.get(&games).await;
    assert_eq!(view["ply"], 0);
    assert_eq!(view["status"], "ongoing");
    assert!(view["draw_offer"].is_null());
    let (_, list) = server.get("/api/games").await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    server.stop().await;
}

async fn resign_and_draws(db: &str) {
    let server = Server::start(db).await;
    let (id, tokens) = server.create("chad", human(), human()).await;
    let draw = format!("/api/games/{id}/draw");
    let (status, view) = server
        .post(&draw, json!({"token": tokens["white"], "action": "offer"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["draw_offer"], "white");
    let (status, view) = server
        .post(
            &draw,
            json!({"token": tokens["black"], "action": "decline"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(view["draw_offer"].is_null());
    server
        .post(&draw, json!({"token": tokens["black"], "action": "offer"}))
        .await;
    // An offer lapses when a move is played.
    let (_, view) = server.play(&id, &tokens["white"], "C5-A5").await;
    assert!(view["draw_offer"].is_null());
    server
        .post(&draw, json!({"token": tokens["white"], "action": "offer"}))
        .await;
    let (status, view) = server
        .post(&draw, json!({"token": tokens["black"], "action": "accept"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["status"], "over");
    assert_eq!(view["result"]["token"], "1/2-1/2");
    assert_eq!(view["result"]["reason"], "draw agreed");
    let (status, _) = server.play(&id, &tokens["black"], "I8-I5").await;
    assert_eq!(status, StatusCode::CONFLICT);

    let (id, tokens) = server.create("shakti", human(), computer(1)).await;
    let (status, view) = server
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": tokens["white"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["result"]["winner"], "black");
    assert_eq!(view["result"]["text"], "Black wins by resignation");
    let (status, _) = server
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": tokens["white"]}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    // The computer declines draws.
    let (id, tokens) = server.create("shakti", human(), computer(1)).await;
    let (_, view) = server
        .post(
            &format!("/api/games/{id}/draw"),
            json!({"token": tokens["white"], "action": "offer"}),
        )
        .await;
    assert!(view["draw_offer"].is_null());
    server.stop().await;
}

async fn hints_are_for_the_seat_to_move_and_change_nothing(db: &str) {
    let server = Server::start(db).await;
    let (id, tokens) = server.create("english", human(), human()).await;
    let hint = format!("/api/games/{id}/hint");
    // Asked twice at once: one search, the same answer.
    let ((status, answer), (again_status, again)) = tokio::join!(
        server.post(&hint, json!({"token": tokens["white"]})),
        server.post(&hint, json!({"token": tokens["white"]}))
    );
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!((again_status, &again), (StatusCode::OK, &answer));
    assert_eq!(
        (answer["ply"].as_u64(), answer["level"].as_u64()),
        (Some(0), Some(6))
    );
    let (_, view) = server
        .get(&format!(
            "/api/games/{id}?token={}",
            tokens["white"].as_str().unwrap()
        ))
        .await;
    assert_eq!(view["ply"], 0, "a hint plays nothing: {view}");
    let legal: Vec<&str> = view["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["text"].as_str())
        .collect();
    let suggested = answer["move"].as_str().unwrap();
    assert!(legal.contains(&suggested), "{suggested} not in {legal:?}");
    // The hinted move plays.
    let (status, _) = server.play(&id, &tokens["white"], suggested).await;
    assert_eq!(status, StatusCode::OK);
    // Not for the seat that waits, nor for a stranger, nor once the game is over.
    let (status, answer) = server.post(&hint, json!({"token": tokens["white"]})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("turn"),
        "{answer}"
    );
    let (status, _) = server.post(&hint, json!({"token": "not-a-token"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // No token and no session: nobody's seat.
    let (status, answer) = server.post(&hint, json!({})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("no seat"),
        "{answer}"
    );
    server
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": tokens["black"]}),
        )
        .await;
    let (status, answer) = server.post(&hint, json!({"token": tokens["black"]})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    server.stop().await;
}

async fn finished_games_are_analysed_position_by_position(db: &str) {
    let server = Server::start(db).await;
    let (id, tokens) = server.create("english", human(), human()).await;
    let analysis = |ply: &str| format!("/api/games/{id}/analysis{ply}");
    // Not while the game is played.
    let (status, answer) = server.get(&analysis("?ply=0")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    server.play(&id, &tokens["white"], "c3-d4").await;
    server.play(&id, &tokens["black"], "f6-e5").await;
    server
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": tokens["white"]}),
        )
        .await;
    let (status, answer) = server.get(&analysis("?ply=2")).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        (answer["ply"].as_u64(), answer["to_move"].as_str()),
        (Some(2), Some("white"))
    );
    assert!(answer["depth"].as_u64().unwrap() >= 4, "{answer}");
    assert!(answer["score_text"].as_str().is_some(), "{answer}");
    // After c3-d4 f6-e5 (11-15 22-18) Black, the first player, must take: the best line
    // starts with the capture d4xf6, shown in numbers.
    assert_eq!(answer["pv"][0], "15x22", "{answer}");
    // The same answer again, kept; the last position by default; bad plies refused.
    let (_, again) = server.get(&analysis("?ply=2")).await;
    assert_eq!(again, answer);
    let (status, last) = server.get(&analysis("")).await;
    assert_eq!((status, last["ply"].as_u64()), (StatusCode::OK, Some(2)));
    let (status, _) = server.get(&analysis("?ply=3")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = server.get(&analysis("?ply=x")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Any position, without a game: a forced capture is the best line's first move (c3xe5).
    let (status, answer) = server
        .post(
            "/api/analysis",
            json!({"ruleset": "english", "position": "8/8/8/8/3m4/2M5/8/M7 w"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        (answer["ply"].clone(), answer["pv"][0].clone()),
        (json!(0), json!("11x18"))
    );
    let (status, start) = server
        .post("/api/analysis", json!({"ruleset": "chad"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{start}");
    assert_eq!(start["to_move"], "white");
    for (body, code) in [
        (
            json!({"ruleset": "english", "position": "nonsense"}),
            StatusCode::BAD_REQUEST,
        ),
        (json!({"ruleset": "nogame"}), StatusCode::NOT_FOUND),
        (
            json!({"ruleset": "chad", "extra": 1}),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        assert_eq!(
            server.post("/api/analysis", body.clone()).await.0,
            code,
            "{body}"
        );
    }
    server.stop().await;
}

async fn record_diagram_and_replay(db: &str) {
    let server = Server::start(db).await;
    let (id, tokens) = server.create("chad", human(), human()).await;
    server.play(&id, &tokens["white"], "C5-A5").await;
    server.play(&id, &tokens["black"], "I8-I5").await;
    let (status, kind, record) = server
        .get_text(&format!("/api/games/{id}/record.pgn"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/plain"));
    assert!(
        record.contains("[Ruleset \"chad\"]") && record.contains("1. C5-A5 I8-I5 *"),
        "{record}"
    );
    let parsed: denkmeter_core::Record = record.parse().unwrap();
    let replayed = registry()
        .find("chad")
        .unwrap()
        .load_record(&parsed)
        .unwrap();
    assert_eq!(replayed.moves(), ["C5-A5", "I8-I5"]);
    let (status, kind, svg) = server
        .get_text(&format!("/api/games/{id}/diagram.svg?ply=1"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "image/svg+xml");
    assert!(svg.starts_with("<svg") && svg.contains("<title>A5</title>"));
    let (_, start) = server.get(&format!("/api/games/{id}?ply=0")).await;
    assert_eq!(start["ply"], 0);
    assert_eq!(
        start["position"],
        "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/12 w"
    );
    assert!(start["last_move"].is_null());
    let (_, one) = server
        .get(&format!(
            "/api/games/{id}?ply=1&token={}",
            tokens["black"].as_str().unwrap()
        ))
        .await;
    assert_eq!(one["last_move"]["text"], "C5-A5");
    assert!(
        one["legal_moves"].as_array().unwrap().is_empty(),
        "no moves in a replay"
    );
    server.stop().await;
}

async fn a_finished_straat_game_shows_both_sides_and_its_streets(db: &str) {
    let server = Server::start(db).await;
    // One cell short of the rules' fact `nNnN/nNnn/NNNN/nNnn w`, won 6-4 by White: White's
    // solid faces make a cross on the back that joins all four sides.
    let (status, created) = server
        .post(
            "/api/games",
            json!({"ruleset": "straat", "white": human(), "black": human(),
                   "position": "nNnN/nNnn/NNNN/nNn1 b"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let tokens = &created["tokens"];
    let (_, before) = server
        .get(&format!(
            "/api/games/{id}?token={}",
            tokens["black"].as_str().unwrap()
        ))
        .await;
    assert_eq!(before["highlights"], json!([]), "no streets before the end");
    let d1n = before["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["text"] == "d1n")
        .unwrap();
    assert_eq!(d1n["places"], "tile-n", "a move names the face it lays up");
    // The back: every tile's solid face on its own cell, named from the front.
    let back = before["back"].as_array().unwrap();
    assert_eq!(back.len(), 15);
    let a1 = &back[0];
    assert_eq!(
        (&a1["cell"], &a1["owner"], &a1["kind"]),
        (&json!(0), &json!("black"), &json!("solid"))
    );
    let legend = &before["board"]["legend"]["pieces"];
    let split = legend
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["kind"] == "tile-e");
    assert_eq!(split.unwrap()["shape"], "split-tile");
    assert_eq!(split.unwrap()["fills_cell"], true);
    assert_eq!(
        split.unwrap()["dark_half"],
        json!([[0.0, -0.5], [0.5, -0.5], [0.5, 0.5], [0.0, 0.5]])
    );

    let (status, over) = server.play(id, &tokens["black"], "d1n").await;
    assert_eq!(status, StatusCode::OK, "{over}");
    assert_eq!(over["status"], "over");
    assert_eq!(over["result"]["score"]["white"], 6);
    let lights = over["highlights"].as_array().unwrap();
    let value = |side: &str, owner: &str| -> u64 {
        lights
            .iter()
            .filter(|h| h["side"] == side && h["owner"] == owner)
            .map(|h| h["value"].as_u64().unwrap())
            .sum()
    };
    // The breakdown's counts, side by side.
    let breakdown = over["result"]["score"]["breakdown"].as_str().unwrap();
    assert!(breakdown.starts_with("front: White 4"), "{breakdown}");
    assert_eq!(
        [value("front", "white"), value("front", "black")],
        [4, 4],
        "{breakdown}"
    );
    assert_eq!(
        [value("back", "white"), value("back", "black")],
        [2, 0],
        "{breakdown}"
    );
    let cross = lights
        .iter()
        .find(|h| h["side"] == "back" && h["owner"] == "white")
        .unwrap();
    assert_eq!(cross["parts"].as_array().unwrap().len(), 28);
    assert_eq!(cross["outline"].as_array().unwrap().len(), 32);
    assert_eq!(cross["outline"][0].as_array().unwrap().len(), 4);

    // The diagram of either side, with its streets.
    let (status, _, front) = server
        .get_text(&format!("/api/games/{id}/diagram.svg"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(front.contains("<title>tile-n</title>") && front.contains("street on the front"));
    let (status, _, back) = server
        .get_text(&format!("/api/games/{id}/diagram.svg?side=back"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(back.contains("<title>solid</title>"), "{back}");
    assert!(back.contains("White's street on the back") && !back.contains("on the front"));
    let (status, _, _) = server
        .get_text(&format!("/api/games/{id}/diagram.svg?side=top"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (chad, _) = server.create("chad", human(), human()).await;
    let (_, view) = server.get(&format!("/api/games/{chad}")).await;
    assert!(view["back"].is_null() && view["highlights"] == json!([]));
    let (status, _, _) = server
        .get_text(&format!("/api/games/{chad}/diagram.svg?side=back"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    server.stop().await;
}

async fn a_game_survives_a_restart(db: &str) {
    let server = Server::start(db).await;
    let (id, tokens) = server.create("shakti", human(), computer(1)).await;
    server.play(&id, &tokens["white"], "b2-b4").await;
    server.wait_for_ply(&id, 2).await;
    let (id2, tokens2) = server.create("chad", human(), human()).await;
    server
        .post(
            &format!("/api/games/{id2}/resign"),
            json!({"token": tokens2["black"]}),
        )
        .await;
    server.stop().await;

    let server = Server::start(db).await;
    let (status, view) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["ply"], 2);
    assert_eq!(view["moves"][0], "b2-b4");
    let (_, mine) = server
        .get(&format!(
            "/api/games/{id}?token={}",
            tokens["white"].as_str().unwrap()
        ))
        .await;
    let next = mine["legal_moves"][0]["text"].as_str().unwrap().to_string();
    let (status, _) = server.play(&id, &tokens["white"], &next).await;
    assert_eq!(status, StatusCode::OK);
    server.wait_for_ply(&id, 4).await;
    let (_, view2) = server.get(&format!("/api/games/{id2}")).await;
    assert_eq!(view2["result"]["text"], "White wins by resignation");
    server.stop().await;
}

async fn the_websocket_pushes_every_change(db: &str) {
    let server = Server::start(db).await;
    let (id, tokens) = server.create("chad", human(), human()).await;
    let url = format!(
        "ws://{}/api/games/{id}/ws?token={}",
        server.addr,
        tokens["black"].as_str().unwrap()
    );
    let (mut socket, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let first = next_view(&mut socket).await;
    assert_eq!(
        (first["ply"].clone(), first["you"].clone()),
        (json!(0), json!("black"))
    );
    server.play(&id, &tokens["white"], "C5-A5").await;
    let second = next_view(&mut socket).await;
    assert_eq!(second["moves"], json!(["C5-A5"]));
    assert!(!second["legal_moves"].as_array().unwrap().is_empty());
    // A client frame is answered with a heartbeat, never with a view.
    socket.send(Message::Text("ping".into())).await.unwrap();
    let answer = next_message(&mut socket).await;
    assert_eq!(answer, json!({"type": "heartbeat", "version": 1}));
    let bad = format!("ws://{}/api/games/{id}/ws?token=forged", server.addr);
    assert!(tokio_tungstenite::connect_async(&bad).await.is_err());
    server.stop().await;
}

async fn takebacks_against_the_computer(db: &str) {
    let server = Server::start(db).await;
    let (id, tokens) = server.create("english", human(), computer(1)).await;
    let takeback = format!("/api/games/{id}/takeback");
    let ask = json!({"token": tokens["white"], "action": "offer"});
    // Nothing to take back before the first move.
    let (status, body) = server.post(&takeback, ask.clone()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    server.play(&id, &tokens["white"], "c3-d4").await;
    server.wait_for_ply(&id, 2).await;
    // The computer grants it at once: the person's move and the reply go.
    let (status, view) = server.post(&takeback, ask.clone()).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(
        (view["ply"].clone(), view["to_move"].clone()),
        (json!(0), json!("white"))
    );
    assert!(view["takeback_offer"].is_null());
    // Back at the start, which a draughts player writes as a FEN.
    assert_eq!(
        view["fen"],
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    // Taken back while the computer thinks: its search is dropped, and it plays again later.
    let (status, _) = server.play(&id, &tokens["white"], "a3-b4").await;
    assert_eq!(status, StatusCode::OK);
    let (status, view) = server.post(&takeback, ask.clone()).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["ply"], 0);
    tokio::time::sleep(Duration::from_millis(600)).await;
    let (_, view) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        (view["ply"].clone(), view["thinking"].clone()),
        (json!(0), json!(false))
    );
    // Given in numbers (e3-f4), shown in numbers.
    server.play(&id, &tokens["white"], "10-14").await;
    let view = server.wait_for_ply(&id, 2).await;
    assert_eq!(view["moves"][0], "10-14");
    server.stop().await;
    // The takeback was stored: after a restart the game goes on from there.
    let server = Server::start(db).await;
    let (_, view) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(view["moves"].as_array().unwrap().len(), 2, "{view}");
    assert_eq!(view["moves"][0], "10-14");
    let (status, _, record) = server
        .get_text(&format!("/api/games/{id}/record.pgn"))
        .await;
    assert_eq!(status, StatusCode::OK);
    // c3-d4 and a3-b4, taken back, are 11-15 and 12-16.
    assert!(
        record.contains("1. 10-14") && !record.contains("11-15") && !record.contains("12-16"),
        "{record}"
    );
    // A finished game is not taken back.
    server
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": tokens["white"]}),
        )
        .await;
    let (status, _) = server.post(&takeback, ask).await;
    assert_eq!(status, StatusCode::CONFLICT);

    // On a clock, a takeback gives back neither the thinking nor a full clock per move.
    let (id, tokens) = create_timed(
        &server,
        "english",
        human(),
        computer(1),
        json!({"move_seconds": 30}),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    server.play(&id, &tokens["white"], "c3-d4").await;
    server.wait_for_ply(&id, 2).await;
    // Thinking on the next turn before asking is not given back either.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let ask = json!({"token": tokens["white"], "action": "offer"});
    let (status, view) = server.post(&format!("/api/games/{id}/takeback"), ask).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let left = view["clock"]["white_ms"].as_i64().unwrap();
    assert!(
        left <= 29_500,
        "the 0.5 s after the reply came back (c3-d4, a first move, was not charged): {left}"
    );
    // Back at the first move, which the clock does not charge.
    assert_eq!(view["clock"]["running"], Value::Null);
    assert!(view["clock"]["first_move_ms"].as_i64().is_some(), "{view}");

    // Against the computer, a game that hides something has no takebacks.
    let (id, tokens) = server.create("trangalla", human(), computer(1)).await;
    let (_, mine) = server
        .get(&format!(
            "/api/games/{id}?token={}",
            tokens["white"].as_str().unwrap()
        ))
        .await;
    let first = mine["legal_moves"][0]["text"].as_str().unwrap().to_string();
    server.play(&id, &tokens["white"], &first).await;
    server.wait_for_ply(&id, 2).await;
    let ask = json!({"token": tokens["white"], "action": "offer"});
    let (status, body) = server.post(&format!("/api/games/{id}/takeback"), ask).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    server.stop().await;
}

async fn takebacks_between_people_on_two_servers(db: &str) {
    let a = Server::start(db).await;
    let b = Server::start(db).await;
    let (id, tokens) = a.create("chad", human(), human()).await;
    let (_, view) = a.get(&format!("/api/games/{id}")).await;
    assert!(view["fen"].is_null(), "Chad has no FEN: {view}");
    let takeback = format!("/api/games/{id}/takeback");
    let by = |seat: &str, action: &str| json!({"token": tokens[seat], "action": action});
    a.play(&id, &tokens["white"], "C5-A5").await;
    // Black has no move to take back; nobody asked, so there is nothing to accept.
    assert_eq!(
        a.post(&takeback, by("black", "offer")).await.0,
        StatusCode::CONFLICT
    );
    assert_eq!(
        a.post(&takeback, by("black", "accept")).await.0,
        StatusCode::CONFLICT
    );
    let (status, view) = a.post(&takeback, by("white", "offer")).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(
        (view["takeback_offer"].clone(), view["ply"].clone()),
        (json!("white"), json!(1))
    );
    // One may not accept one's own request; the other declines it, on the other server.
    assert_eq!(
        a.post(&takeback, by("white", "accept")).await.0,
        StatusCode::CONFLICT
    );
    let (status, view) = b.post(&takeback, by("black", "decline")).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert!(view["takeback_offer"].is_null());
    assert_eq!(view["ply"], 1);
    // A request lapses when a move is played.
    a.post(&takeback, by("white", "offer")).await;
    let (_, view) = b.play(&id, &tokens["black"], "I8-I5").await;
    assert!(view["takeback_offer"].is_null(), "{view}");
    // Accepted: White's move and Black's reply after it go, on both servers.
    a.post(&takeback, by("white", "offer")).await;
    let (status, view) = b.post(&takeback, by("black", "accept")).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(
        (view["ply"].clone(), view["to_move"].clone()),
        (json!(0), json!("white"))
    );
    let (_, view) = a.get(&format!("/api/games/{id}")).await;
    assert_eq!(view["moves"], json!([]));
    // Play goes on from the start, on either server, with the same ply numbers reused.
    assert_eq!(
        a.play(&id, &tokens["white"], "D3-D1").await.0,
        StatusCode::OK
    );
    assert_eq!(
        b.play(&id, &tokens["black"], "I8-I5").await.0,
        StatusCode::OK
    );
    let (_, view) = a.get(&format!("/api/games/{id}")).await;
    assert_eq!(view["moves"], json!(["D3-D1", "I8-I5"]));
    a.stop().await;
    b.stop().await;
}

/// Creates a game with a time control; returns its id and tokens.
async fn create_timed(
    server: &Server,
    ruleset: &str,
    white: Value,
    black: Value,
    clock: Value,
) -> (String, Value) {
    let (status, body) = server
        .post(
            "/api/games",
            json!({"ruleset": ruleset, "white": white, "black": black, "clock": clock}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    (
        body["id"].as_str().unwrap().to_string(),
        body["tokens"].clone(),
    )
}

/// Waits until the game is over (10 s at most).
async fn wait_over(server: &Server, id: &str) -> Value {
    for _ in 0..400 {
        let (_, view) = server.get(&format!("/api/games/{id}")).await;
        if view["status"] == "over" {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("game {id} did not end");
}

async fn timed_games_are_lost_on_time_by_the_server(db: &str) {
    let server = Server::start(db).await;
    // Bad time controls are refused with what is wrong.
    for (clock, says) in [
        (json!({"move_seconds": 0}), "clock.move_seconds"),
        (json!({"main_seconds": 60, "move_seconds": 5}), "clock:"),
        (
            json!({"main_seconds": 60, "increment_seconds": 4000}),
            "clock.increment_seconds",
        ),
        (json!({"minutes": 5}), "minutes"),
    ] {
        let (status, body) = server
            .post(
                "/api/games",
                json!({"ruleset": "chad", "white": human(), "black": human(), "clock": clock}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{clock}: {body}");
        assert!(body["error"].as_str().unwrap().contains(says), "{body}");
    }

    // A second a move: both sides make their first move (not timed), White moves in time,
    // then nobody does anything and Black loses.
    let (id, tokens) = create_timed(
        &server,
        "english",
        human(),
        human(),
        json!({"move_seconds": 1}),
    )
    .await;
    let (_, view) = server.get(&format!("/api/games/{id}")).await;
    let clock = &view["clock"];
    assert_eq!(
        (clock["kind"].clone(), clock["running"].clone()),
        (json!("per-move"), Value::Null)
    );
    assert_eq!(
        (clock["white_ms"].as_i64(), clock["black_ms"].as_i64()),
        (Some(1000), Some(1000))
    );
    server.play(&id, &tokens["white"], "c3-d4").await;
    let reply = server.first_legal_move(&id, &tokens["black"]).await;
    server.play(&id, &tokens["black"], &reply).await;
    let next = server.first_legal_move(&id, &tokens["white"]).await;
    let (status, view) = server.play(&id, &tokens["white"], &next).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(
        view["clock"]["white_ms"], 1000,
        "the clock is full again after a move"
    );
    assert_eq!(view["clock"]["running"], "black");
    let view = wait_over(&server, &id).await;
    let result = &view["result"];
    assert_eq!(
        (result["winner"].clone(), result["reason"].clone()),
        (json!("white"), json!("time forfeit"))
    );
    // English checkers calls the seats the other way round.
    assert_eq!(result["text"], "Black wins on time: White's clock ran out");
    assert_eq!(
        (
            view["clock"]["black_ms"].clone(),
            view["clock"]["running"].clone()
        ),
        (json!(0), Value::Null)
    );
    let (_, _, record) = server
        .get_text(&format!("/api/games/{id}/record.pgn"))
        .await;
    assert!(
        record.contains("[Termination \"time forfeit\"]") && record.contains("1-0"),
        "{record}"
    );
    assert_eq!(
        server.play(&id, &tokens["black"], "f6-e5").await.0,
        StatusCode::CONFLICT
    );

    // A move too late is refused, whoever notices first.
    let (id, tokens) = create_timed(
        &server,
        "chad",
        human(),
        human(),
        json!({"move_seconds": 1}),
    )
    .await;
    server.play(&id, &tokens["white"], "C5-A5").await;
    server.play(&id, &tokens["black"], "I8-I5").await;
    let late = server.first_legal_move(&id, &tokens["white"]).await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(
        server.play(&id, &tokens["white"], &late).await.0,
        StatusCode::CONFLICT
    );
    assert_eq!(
        wait_over(&server, &id).await["result"]["reason"],
        "time forfeit"
    );

    // A main time with an increment; the computer is on the clock too.
    let (id, tokens) = create_timed(
        &server,
        "chad",
        human(),
        computer(1),
        json!({"main_seconds": 60, "increment_seconds": 5}),
    )
    .await;
    let (_, view) = server.play(&id, &tokens["white"], "C5-A5").await;
    assert_eq!(
        view["clock"]["white_ms"], 60_000,
        "a first move is not charged"
    );
    assert_eq!(view["clock"]["black_ms"], 60_000, "{view}");
    let view = server.wait_for_ply(&id, 2).await;
    assert_eq!(view["clock"]["running"], "white");
    assert_eq!(view["clock"]["black_ms"], 60_000, "nor is the computer's");
    let next = server.first_legal_move(&id, &tokens["white"]).await;
    let (_, view) = server.play(&id, &tokens["white"], &next).await;
    let left = view["clock"]["white_ms"].as_i64().unwrap();
    assert!(
        (60_000..=65_000).contains(&left),
        "60 s, less the move's time, plus 5 s: {left}"
    );
    assert_eq!(
        view["clock"]["running"], "black",
        "the computer's clock runs"
    );
    let view = server.wait_for_ply(&id, 4).await;
    let black = view["clock"]["black_ms"].as_i64().unwrap();
    // Level 1 may think for less than the clock's millisecond: then it is charged nothing.
    assert!(
        (60_000..=65_000).contains(&black),
        "60 s, less the computer's thinking, plus 5 s: {black}"
    );
    server.stop().await;
}

/// The computer thinks within its clock: at level 8 it would think up to 10 s a move, but with
/// 6 s for the game it spends a share of what it has left and never loses on time.
async fn the_computer_plays_on_its_clock(db: &str) {
    let server = Server::start(db).await;
    let (id, tokens) = create_timed(
        &server,
        "chad",
        human(),
        computer(8),
        json!({"main_seconds": 6}),
    )
    .await;
    let mut ply = 0;
    let mut view = server.get(&format!("/api/games/{id}")).await.1;
    while ply < 12 && view["status"] == "ongoing" {
        let next = server.first_legal_move(&id, &tokens["white"]).await;
        let asked = std::time::Instant::now();
        server.play(&id, &tokens["white"], &next).await;
        view = server.wait_for_ply(&id, ply + 2).await;
        let reply = asked.elapsed();
        ply += 2;
        assert!(
            reply < Duration::from_secs(3),
            "the computer took {reply:?} with {} ms on its clock",
            view["clock"]["black_ms"]
        );
    }
    let black = view["clock"]["black_ms"].as_i64().unwrap();
    assert!(
        (1..6_000).contains(&black),
        "the computer's thinking is charged, and it keeps some time: {black} ms left after {ply} plies"
    );
    assert_ne!(
        view["result"]["reason"], "time forfeit",
        "the computer lost on time: {view}"
    );
    server.stop().await;
}

/// As on lidraughts: neither clock runs until both sides have made their first move, and the
/// wait for a first move is bounded.
async fn the_clocks_start_with_the_first_moves(db: &str) {
    let server = Server::start(db).await;
    let (id, tokens) = create_timed(
        &server,
        "chad",
        human(),
        human(),
        json!({"main_seconds": 120}),
    )
    .await;
    let clock_of = |view: &Value| {
        let c = &view["clock"];
        (
            c["white_ms"].clone(),
            c["black_ms"].clone(),
            c["running"].clone(),
        )
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, view) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        clock_of(&view),
        (json!(120_000), json!(120_000), Value::Null)
    );
    // White is told how long he has for his first move: his whole time.
    let first = view["clock"]["first_move_ms"].as_i64().unwrap();
    assert!((119_000..120_000).contains(&first), "{view}");
    let (_, view) = server.play(&id, &tokens["white"], "C5-A5").await;
    assert_eq!(
        clock_of(&view),
        (json!(120_000), json!(120_000), Value::Null)
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, view) = server.play(&id, &tokens["black"], "I8-I5").await;
    let (white, black, running) = clock_of(&view);
    assert_eq!((black, running), (json!(120_000), json!("white")));
    // White's clock runs from Black's move on: at most a few milliseconds gone.
    assert!(
        (119_900..=120_000).contains(&white.as_i64().unwrap()),
        "{view}"
    );
    assert!(view["clock"]["first_move_ms"].is_null(), "{view}");
    // From the second move on the time is charged.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let next = server.first_legal_move(&id, &tokens["white"]).await;
    let (_, view) = server.play(&id, &tokens["white"], &next).await;
    let left = view["clock"]["white_ms"].as_i64().unwrap();
    assert!(left <= 119_700, "{view}");
    assert_eq!(view["clock"]["running"], "black");
    server.stop().await;
}

async fn a_timed_turn_begins_again_after_a_restart(db: &str) {
    let server = Server::start(db).await;
    let (id, tokens) = create_timed(
        &server,
        "chad",
        human(),
        human(),
        json!({"main_seconds": 2}),
    )
    .await;
    // The clocks run once both sides have made their first move.
    server.play(&id, &tokens["white"], "C5-A5").await;
    server.play(&id, &tokens["black"], "I8-I5").await;
    server.stop().await;
    // Down for longer than White had: nobody loses time while the server is down.
    tokio::time::sleep(Duration::from_millis(2300)).await;
    let server = Server::start(db).await;
    let mut given_back = false;
    for _ in 0..80 {
        let (_, view) = server.get(&format!("/api/games/{id}")).await;
        assert_eq!(
            view["status"], "ongoing",
            "lost on time while the server was down: {view}"
        );
        if view["clock"]["white_ms"].as_i64().unwrap() > 1000 {
            given_back = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(given_back, "White's turn did not begin again");
    // The clock runs again, and nobody has to ask for the game to end.
    let view = wait_over(&server, &id).await;
    assert_eq!(
        view["result"]["text"],
        "Black wins on time: White's clock ran out"
    );
    server.stop().await;
}

async fn two_servers_share_one_database(db: &str) {
    let a = Server::start(db).await;
    let b = Server::start(db).await;
    let (id, tokens) = a.create("chad", human(), human()).await;
    assert_eq!(
        a.play(&id, &tokens["white"], "C5-A5").await.0,
        StatusCode::OK
    );
    // B loads the game from the database and plays on.
    assert_eq!(
        b.play(&id, &tokens["black"], "I8-I5").await.0,
        StatusCode::OK
    );
    // A notices that the stored game moved on and answers from the database.
    let (_, view) = a.get(&format!("/api/games/{id}")).await;
    assert_eq!(view["moves"], json!(["C5-A5", "I8-I5"]));
    let (status, view) = a.play(&id, &tokens["white"], "A5-A6").await;
    assert_eq!(status, StatusCode::OK, "{view}");
    // B sees A's move, and a draw offer made on B is seen by A.
    let draw = json!({"token": tokens["black"], "action": "offer"});
    let (_, view) = b.post(&format!("/api/games/{id}/draw"), draw).await;
    assert_eq!(view["moves"], json!(["C5-A5", "I8-I5", "A5-A6"]));
    let (_, view) = a.get(&format!("/api/games/{id}")).await;
    assert_eq!(view["draw_offer"], "black");
    // A move on A clears it; offered again on B, whose copy still shows it, A sees it.
    let token = tokens["black"].as_str().unwrap();
    let (_, mine) = a.get(&format!("/api/games/{id}?token={token}")).await;
    let next = mine["legal_moves"][0]["text"].as_str().unwrap().to_string();
    let (_, view) = a.play(&id, &tokens["black"], &next).await;
    assert!(view["draw_offer"].is_null());
    let draw = json!({"token": tokens["white"], "action": "offer"});
    b.post(&format!("/api/games/{id}/draw"), draw.clone()).await;
    a.play(&id, &tokens["white"], "A6-A5").await;
    let (_, view) = b.post(&format!("/api/games/{id}/draw"), draw).await;
    assert_eq!(view["draw_offer"], "white", "{view}");
    let (_, view) = a.get(&format!("/api/games/{id}")).await;
    assert_eq!(view["draw_offer"], "white");
    a.stop().await;
    b.stop().await;
}

async fn the_server_answers_while_the_computer_thinks(db: &str) {
    let server = Server::start(db).await;
    // Level 4 searches 5,000 iterations of Chad: long enough to be caught thinking.
    let (id, tokens) = server.create("chad", human(), computer(4)).await;
    let (status, view) = server.play(&id, &tokens["white"], "C5-A5").await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["thinking"], true);
    let (status, health) = server.get("/api/health").await;
    assert_eq!((status, health), (StatusCode::OK, json!({"status": "ok"})));
    let (status, other) = server
        .post(
            "/api/games",
            json!({"ruleset": "shakti", "white": human(), "black": human()}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{other}");
    let (_, view) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        view["ply"], 1,
        "the computer answered before the checks above: {view}"
    );
    let view = server.wait_for_ply(&id, 2).await;
    assert_eq!(view["thinking"], false);
    server.stop().await;
}

/// The player's own socket is all it reads: after each of its moves the computer's reply must
/// arrive on it (the old server's sockets fell silent after a few moves).
async fn a_game_against_the_computer_driven_from_its_own_socket(db: &str) {
    let server = Server::start(db).await;
    let mut played = 0;
    while played < 40 {
        let (id, tokens) = server.create("shakti", human(), computer(1)).await;
        let mut socket = open_socket(&server, &id, Some(&tokens["white"])).await;
        let mut last_ply = 0;
        let mut last_version = -1;
        let mut moved_at = None;
        loop {
            let view = next_view(&mut socket).await;
            let ply = view["ply"].as_u64().unwrap();
            let version = view["version"].as_i64().unwrap();
            assert!(
                ply >= last_ply,
                "views out of order: {ply} after {last_ply}"
            );
            assert!(
                version > last_version || view["thinking"] == true,
                "the same view twice: {view}"
            );
            last_ply = ply;
            last_version = version;
            if view["status"] == "over" || played == 40 {
                break;
            }
            if view["to_move"] != "white" || moved_at == Some(ply) {
                continue;
            }
            let mv = view["legal_moves"][0]["text"].as_str().unwrap().to_string();
            let (status, reply) = server.play(&id, &tokens["white"], &mv).await;
            assert_eq!(status, StatusCode::OK, "{reply}");
            moved_at = Some(ply);
            played += 1;
        }
    }
    server.stop().await;
}

/// Two people on one screen, a reader polling over HTTP and a spectator's socket: the
/// spectator sees every move, in order.
async fn hot_seat_with_a_polling_reader_and_a_spectator(db: &str) {
    let server = std::sync::Arc::new(Server::start(db).await);
    let (id, tokens) = server.create("english", human(), human()).await;
    let mut spectator = open_socket(&server, &id, None).await;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let poller = {
        let (server, stop, id) = (server.clone(), stop.clone(), id.clone());
        tokio::spawn(async move {
            let mut polls = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let (status, _) = server.get(&format!("/api/games/{id}")).await;
                assert_eq!(status, StatusCode::OK);
                polls += 1;
            }
            polls
        })
    };
    let (_, mut view) = server
        .get(&format!(
            "/api/games/{id}?token={}",
            tokens["white"].as_str().unwrap()
        ))
        .await;
    let mut moves = Vec::new();
    while moves.len() < 60 && view["status"] == "ongoing" {
        let seat = view["to_move"].as_str().unwrap().to_string();
        if view["you"] != seat.as_str() {
            view = server
                .get(&format!(
                    "/api/games/{id}?token={}",
                    tokens[&seat].as_str().unwrap()
                ))
                .await
                .1;
        }
        let mv = view["legal_moves"][0]["text"].as_str().unwrap().to_string();
        let (status, reply) = server.play(&id, &tokens[&seat], &mv).await;
        assert_eq!(status, StatusCode::OK, "{reply}");
        moves.push(mv);
        view = reply;
    }
    let last = view["ply"].as_u64().unwrap();
    let mut seen = 0;
    let mut views = 0;
    while seen < last {
        let view = next_view(&mut spectator).await;
        let ply = view["ply"].as_u64().unwrap();
        assert!(ply >= seen, "views out of order: {ply} after {seen}");
        // Every view holds the moves played so far, as they were played.
        assert_eq!(view["moves"], json!(moves[..ply as usize]), "at ply {ply}");
        seen = ply;
        views += 1;
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(poller.await.unwrap() > 0);
    let (_, final_view) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(final_view["moves"], json!(moves));
    assert!(views >= 2, "{views} views");
    std::sync::Arc::into_inner(server).unwrap().stop().await;
}

/// Readers, sockets and moves all at once never start a second search for one game.
async fn one_search_at_a_time_per_game(db: &str) {
    let state = AppState::open_with(db, test_config(), registry())
        .await
        .unwrap();
    let server = std::sync::Arc::new(Server::start_state(state.clone()).await);
    let (id, tokens) = server.create("chad", human(), computer(2)).await;
    let readers: Vec<_> = (0..4)
        .map(|_| {
            let (server, id) = (server.clone(), id.clone());
            tokio::spawn(async move {
                for _ in 0..40 {
                    let mut socket = open_socket(&server, &id, None).await;
                    next_view(&mut socket).await;
                    server.get(&format!("/api/games/{id}")).await;
                }
            })
        })
        .collect();
    // White plays its first legal move each time, so a strong computer may mate it before
    // six moves are out (alpha-beta does in Chad): count the computer's moves as they come.
    let mut ply = 0;
    let mut replies = 0;
    for _ in 0..6 {
        let (_, mine) = server
            .get(&format!(
                "/api/games/{id}?token={}",
                tokens["white"].as_str().unwrap()
            ))
            .await;
        let Some(mv) = mine["legal_moves"][0]["text"].as_str() else {
            assert_eq!(mine["status"], "over", "{mine}");
            break;
        };
        let (status, reply) = server.play(&id, &tokens["white"], mv).await;
        assert_eq!(status, StatusCode::OK, "{reply}");
        ply += 2;
        server.wait_for_ply(&id, ply).await;
        replies += 1;
    }
    assert!(replies >= 2, "the computer answered {replies} times");
    for reader in readers {
        reader.await.unwrap();
    }
    let proxy = state.rounds.cached(&id).unwrap();
    assert_eq!(proxy.searches(), replies, "one search per computer move");
    drop(proxy);
    std::sync::Arc::into_inner(server).unwrap().stop().await;
}

/// A game set up from a finished position is over in the list as in its view.
async fn list_and_view_agree_on_a_finished_start(db: &str) {
    let server = Server::start(db).await;
    let (status, body) = server
        .post(
            "/api/games",
            json!({"ruleset": "english", "white": human(), "black": human(),
                   "position": "8/8/8/8/8/8/1D6/8 b"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let id = body["id"].as_str().unwrap();
    let (_, view) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(view["status"], "over");
    let (_, list) = server.get("/api/games").await;
    let listed = &list[0];
    assert_eq!(listed["id"], id);
    assert_eq!(listed["status"], "over");
    assert_eq!(listed["result"], view["result"]["token"]);
    server.stop().await;
}

/// The database keeps no token in plain text; tokens stored by older servers are hashed when
/// the database is opened, and keep working.
async fn tokens_are_stored_as_hashes(db: &str) {
    use sqlx::Row;
    sqlx::any::install_default_drivers();
    let server = Server::start(db).await;
    let (id, tokens) = server.create("chad", human(), human()).await;
    server.stop().await;
    let white = tokens["white"].as_str().unwrap();
    let pool = sqlx::AnyPool::connect(db).await.unwrap();
    let row = sqlx::query("SELECT white_token_hash, black_token_hash FROM games WHERE id = $1")
        .bind(&id)
        .fetch_one(&pool)
        .await
        .unwrap();
    let stored: String = row.get("white_token_hash");
    assert_eq!(stored.len(), 64);
    assert_eq!(
        stored,
        denkmeter_server::seat::TokenHash::of(white).to_hex(),
        "the stored value is the token's hash"
    );
    // As an older server left it: the plain token.
    let legacy = "abcdefghijkmnpqrstuvwxyz";
    sqlx::query("UPDATE games SET black_token_hash = $1 WHERE id = $2")
        .bind(legacy)
        .bind(&id)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let server = Server::start(db).await;
    assert_eq!(
        server.play(&id, &tokens["white"], "C5-A5").await.0,
        StatusCode::OK
    );
    let (status, view) = server.play(&id, &json!(legacy), "I8-I5").await;
    assert_eq!(status, StatusCode::OK, "{view}");
    server.stop().await;
    let pool = sqlx::AnyPool::connect(db).await.unwrap();
    let stored: String = sqlx::query("SELECT black_token_hash FROM games WHERE id = $1")
        .bind(&id)
        .fetch_one(&pool)
        .await
        .unwrap()
        .get("black_token_hash");
    assert_eq!(stored.len(), 64);
    pool.close().await;
}

/// A socket on one server sees the moves played through another server on the same
/// PostgreSQL database, promptly (by notification, not by anyone reading on its server).
async fn watchers_see_moves_made_on_another_server(db: &str) {
    let a = Server::start(db).await;
    let b = Server::start(db).await;
    let (id, tokens) = a.create("chad", human(), human()).await;
    let mut watcher = open_socket(&a, &id, None).await;
    assert_eq!(next_view(&mut watcher).await["ply"], 0);
    let moves = ["C5-A5", "I8-I5", "A5-A6", "I5-I4"];
    for (n, mv) in moves.iter().enumerate() {
        let seat = if n % 2 == 0 { "white" } else { "black" };
        let (status, reply) = b.play(&id, &tokens[seat], mv).await;
        assert_eq!(status, StatusCode::OK, "{reply}");
        let view = next_view(&mut watcher).await;
        assert_eq!(view["ply"], n as u64 + 1, "{view}");
        assert_eq!(view["moves"][n], *mv);
    }
    a.stop().await;
    b.stop().await;
}

/// Connection hygiene, limits and security: the same on both databases, so run on SQLite.
mod hygiene {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    async fn sqlite_server(config: ServerConfig) -> (tempfile::TempDir, Server) {
        let dir = tempfile::tempdir().unwrap();
        let db = database("sqlite", &dir).await.unwrap();
        let server = Server::start_with(&db, config).await;
        (dir, server)
    }

    /// Reads until the server closes the connection; the time it took.
    async fn time_until_closed(stream: &mut tokio::net::TcpStream) -> Duration {
        let started = std::time::Instant::now();
        let mut buffer = [0u8; 4096];
        loop {
            match tokio::time::timeout(Duration::from_secs(20), stream.read(&mut buffer)).await {
                Ok(Ok(0)) | Ok(Err(_)) => return started.elapsed(),
                Ok(Ok(_)) => {}
                Err(_) => panic!("the connection was still open after 20 s"),
            }
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn slow_and_idle_connections_are_closed() {
        let config = ServerConfig {
            header_timeout: Duration::from_secs(1),
            ..test_config()
        };
        let (_dir, server) = sqlite_server(config).await;
        // A lone byte does not hold a connection.
        let mut lone = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        lone.write_all(b"G").await.unwrap();
        assert!(time_until_closed(&mut lone).await < Duration::from_secs(5));
        // Nor does a kept-alive connection that asks nothing more.
        let mut idle = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        idle.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        assert!(time_until_closed(&mut idle).await < Duration::from_secs(5));
        let (status, _) = server.get("/api/health").await;
        assert_eq!(status, StatusCode::OK);
        server.stop().await;
    }

    /// A body that trickles in (one byte a while of 30,000 announced) gets 408 within the body
    /// deadline and its connection is closed, instead of holding it for ever.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_trickling_body_is_timed_out() {
        let config = ServerConfig {
            body_timeout: Duration::from_secs(1),
            ..test_config()
        };
        let (_dir, server) = sqlite_server(config).await;
        let (id, _) = server.create("chad", human(), human()).await;
        let mut slow = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        slow.write_all(
            format!(
                "POST /api/games/{id}/moves HTTP/1.1\r\nHost: x\r\n\
                 Content-Type: application/json\r\nContent-Length: 30000\r\n\r\n{{"
            )
            .as_bytes(),
        )
        .await
        .unwrap();
        let started = std::time::Instant::now();
        let (mut reader, mut writer) = slow.into_split();
        let trickle = tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(200)).await;
                if writer.write_all(b" ").await.is_err() {
                    return;
                }
            }
        });
        let mut answer = Vec::new();
        let read =
            tokio::time::timeout(Duration::from_secs(10), reader.read_to_end(&mut answer)).await;
        trickle.abort();
        let answer = String::from_utf8_lossy(&answer);
        assert!(
            read.is_ok(),
            "the trickling body was still being read after 10 s"
        );
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(answer.contains("did not arrive within 1 s"), "{answer}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        // A body sent at once is read as before.
        let (status, _) = server
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"token": "x", "move": "C5-A5"}),
            )
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        server.stop().await;
    }

    /// One HTTP/1.1 request on a connection made from `local` (a loopback address); the status.
    async fn health_from(local: &str, server: &Server) -> Option<u16> {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(format!("{local}:0").parse().unwrap()).unwrap();
        let mut stream = socket.connect(server.addr).await.ok()?;
        stream
            .write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .ok()?;
        let mut answer = Vec::new();
        tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer))
            .await
            .ok()?
            .ok()?;
        String::from_utf8_lossy(&answer).get(9..12)?.parse().ok()
    }

    /// One address may hold only so many connections: the next is closed at once, while
    /// another address is still served.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_address_may_hold_only_so_many_connections() {
        let config = ServerConfig {
            max_connections_per_address: 3,
            ..test_config()
        };
        let (_dir, server) = sqlite_server(config).await;
        let mut held = Vec::new();
        for _ in 0..3 {
            held.push(tokio::net::TcpStream::connect(server.addr).await.unwrap());
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        let mut extra = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        assert!(time_until_closed(&mut extra).await < Duration::from_secs(2));
        assert_eq!(health_from("127.0.0.1", &server).await, None);
        // Another address is served meanwhile.
        assert_eq!(health_from("127.0.0.2", &server).await, Some(200));
        // The address gets its places back as its connections close.
        drop(held);
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(health_from("127.0.0.1", &server).await, Some(200));
        server.stop().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn connections_over_the_cap_are_refused() {
        let config = ServerConfig {
            max_connections: 4,
            ..test_config()
        };
        let (_dir, server) = sqlite_server(config).await;
        let mut held = Vec::new();
        for _ in 0..4 {
            held.push(tokio::net::TcpStream::connect(server.addr).await.unwrap());
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        let mut extra = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        assert!(time_until_closed(&mut extra).await < Duration::from_secs(5));
        drop(held);
        tokio::time::sleep(Duration::from_millis(200)).await;
        let (status, _) = server.get("/api/health").await;
        assert_eq!(status, StatusCode::OK);
        // Open WebSockets count too: they outlive the HTTP connection they upgraded.
        let (id, _) = server.create("chad", human(), human()).await;
        let url = format!("ws://{}/api/games/{id}/ws", server.addr);
        let mut sockets = Vec::new();
        let mut refused = false;
        for _ in 0..5 {
            match tokio_tungstenite::connect_async(&url).await {
                Ok((socket, _)) => sockets.push(socket),
                Err(_) => {
                    refused = true;
                    break;
                }
            }
        }
        assert!(
            refused && sockets.len() <= 4,
            "{} sockets open under a cap of 4",
            sockets.len()
        );
        drop(sockets);
        server.stop().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_large_websocket_message_closes_the_socket() {
        let (_dir, server) = sqlite_server(test_config()).await;
        let (id, _) = server.create("chad", human(), human()).await;
        let mut socket = open_socket(&server, &id, None).await;
        next_view(&mut socket).await;
        let _ = socket
            .send(Message::Text("x".repeat(64 * 1024).into()))
            .await;
        let ended = tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                match socket.next().await {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                    Some(Ok(_)) => {}
                }
            }
        })
        .await;
        assert!(ended.is_ok(), "the socket stayed open");
        // A small frame is fine.
        let mut socket = open_socket(&server, &id, None).await;
        next_view(&mut socket).await;
        socket.send(Message::Text("ping".into())).await.unwrap();
        assert_eq!(next_message(&mut socket).await["type"], "heartbeat");
        server.stop().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sockets_from_other_origins_are_refused() {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let (_dir, server) = sqlite_server(ServerConfig {
            allowed_origins: vec!["https://friend.example".into()],
            ..test_config()
        })
        .await;
        let (id, _) = server.create("chad", human(), human()).await;
        let url = format!("ws://{}/api/games/{id}/ws", server.addr);
        let with_origin = |origin: &str| {
            let mut request = url.clone().into_client_request().unwrap();
            request
                .headers_mut()
                .insert("origin", origin.parse().unwrap());
            request
        };
        let refused = tokio_tungstenite::connect_async(with_origin("http://evil.example")).await;
        match refused {
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                assert_eq!(response.status(), 403)
            }
            other => panic!("a foreign origin was not refused: {other:?}"),
        }
        let own = format!("http://{}", server.addr);
        assert!(tokio_tungstenite::connect_async(with_origin(&own))
            .await
            .is_ok());
        assert!(
            tokio_tungstenite::connect_async(with_origin("https://friend.example"))
                .await
                .is_ok()
        );
        server.stop().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn clients_over_their_rate_are_told_to_wait() {
        let (_dir, server) = sqlite_server(ServerConfig {
            games_per_minute: 3,
            moves_per_second: 1,
            ..ServerConfig::default()
        })
        .await;
        let mut created = Vec::new();
        for _ in 0..3 {
            created.push(server.create("chad", human(), human()).await);
        }
        let (status, body) = server
            .post(
                "/api/games",
                json!({"ruleset": "chad", "white": human(), "black": human()}),
            )
            .await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
        let message = body["error"].as_str().unwrap();
        assert!(message.contains("too many new games") && message.contains("try again in"));
        let (id, tokens) = &created[0];
        let mut statuses = Vec::new();
        for mv in ["C5-A5", "I8-I5", "A5-A6", "I5-I4"] {
            let seat = if statuses.len() % 2 == 0 {
                "white"
            } else {
                "black"
            };
            statuses.push(server.play(id, &tokens[seat], mv).await.0);
        }
        assert!(
            statuses.contains(&StatusCode::TOO_MANY_REQUESTS),
            "{statuses:?}"
        );
        // Reads are not limited, and a refused move changed nothing.
        let (_, view) = server.get(&format!("/api/games/{id}")).await;
        let accepted = statuses.iter().filter(|s| **s == StatusCode::OK).count();
        assert_eq!(view["ply"], accepted as u64);
        server.stop().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn static_files_answer_get_and_head_only_with_security_headers() {
        let (_dir, server) = sqlite_server(test_config()).await;
        let response = server.client.get(server.url("/")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let headers = response.headers();
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("default-src 'self'"));
        assert_eq!(headers["x-content-type-options"], "nosniff");
        let head = server
            .client
            .head(server.url("/app.js"))
            .send()
            .await
            .unwrap();
        assert_eq!(head.status(), StatusCode::OK);
        // Every file under web/ is served, with its type and no caching without asking.
        for (path, kind) in [
            ("/", "text/html; charset=utf-8"),
            ("/index.html", "text/html; charset=utf-8"),
            ("/app.js", "text/javascript; charset=utf-8"),
            ("/board/board.js", "text/javascript; charset=utf-8"),
            ("/game/page.js", "text/javascript; charset=utf-8"),
            ("/style.css", "text/css; charset=utf-8"),
        ] {
            let response = server.client.get(server.url(path)).send().await.unwrap();
            assert_eq!(response.status(), StatusCode::OK, "{path}");
            assert_eq!(response.headers()["content-type"], kind, "{path}");
            assert_eq!(response.headers()["cache-control"], "no-cache", "{path}");
        }
        let (status, _, body) = server.get_text("/index.html").await;
        assert_eq!(status, StatusCode::OK);
        assert!(body.contains(r#"<script type="module" src="/app.js">"#));
        for path in [
            "/nope.js",
            "/board/",
            "/board",
            "/../Cargo.toml",
            "/web/app.js",
        ] {
            let (status, _, _) = server.get_text(path).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        }
        let (status, kind, body) = server.get_text("/api/nope").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(kind.starts_with("application/json") && body.contains("no such endpoint"));
        for method in ["POST", "PUT", "DELETE", "CONNECT"] {
            let response = server
                .client
                .request(method.parse().unwrap(), server.url("/"))
                .send()
                .await
                .unwrap();
            assert_eq!(
                response.status(),
                StatusCode::METHOD_NOT_ALLOWED,
                "{method}"
            );
        }
        server.stop().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_new_sqlite_file_is_created_for_its_owner_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fresh.db");
        let url = format!("sqlite://{}", path.display());
        assert!(url.starts_with("sqlite:///"));
        let server = Server::start(&url).await;
        server.create("chad", human(), human()).await;
        server.stop().await;
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
        // A plain path works too, and a missing directory is one clear line.
        let plain = dir.path().join("plain.db");
        Server::start(plain.to_str().unwrap()).await.stop().await;
        assert!(plain.exists());
        let error = AppState::open("sqlite:///no/such/dir/x.db", registry())
            .await
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "cannot create the SQLite database /no/such/dir/x.db: the directory /no/such/dir does not exist"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn searches_never_outnumber_the_pool() {
        let mut config = test_config();
        config.rounds.search_threads = 1;
        let dir = tempfile::tempdir().unwrap();
        let db = database("sqlite", &dir).await.unwrap();
        let state = AppState::open_with(&db, config, registry()).await.unwrap();
        let server = Server::start_state(state.clone()).await;
        let mut watchers = Vec::new();
        for _ in 0..4 {
            let (id, _) = server.create("chad", computer(6), computer(6)).await;
            watchers.push(open_socket(&server, &id, None).await);
        }
        let pool = state.rounds.search_pool();
        let started = std::time::Instant::now();
        // Until one game's search runs while the other three wait (10 s at most), never two
        // searches at once. (All four may wait for a moment before the thread takes one.)
        let mut seen = false;
        while !seen && started.elapsed() < Duration::from_secs(10) {
            assert!(pool.running() <= 1, "{} searches at once", pool.running());
            seen = pool.running() == 1 && pool.queued() == 3;
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert!(
            seen,
            "one search runs while the other games wait their turn"
        );
        for _ in 0..100 {
            assert!(pool.running() <= 1, "{} searches at once", pool.running());
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // The server answers meanwhile.
        let (status, _) = server.get("/api/health").await;
        assert_eq!(status, StatusCode::OK);
        server.stop().await;
    }

    /// A computer-vs-computer game nobody watches moves at a bounded rate; a watcher makes it
    /// go at the computer's own pace.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn unwatched_computer_games_move_at_a_bounded_rate() {
        let mut config = test_config();
        config.rounds.unwatched_computer_interval = Duration::from_secs(1);
        let (_dir, server) = sqlite_server(config).await;
        let (id, _) = server.create("english", computer(1), computer(1)).await;
        let moves = |list: &Value| {
            list.as_array()
                .unwrap()
                .iter()
                .find(|g| g["id"] == id.as_str())
                .unwrap()["moves"]
                .as_u64()
                .unwrap()
        };
        // The list does not watch the game.
        tokio::time::sleep(Duration::from_millis(2_500)).await;
        let unwatched = moves(&server.get("/api/games").await.1);
        assert!(unwatched <= 3, "{unwatched} moves in 2.5 s unwatched");
        let mut socket = open_socket(&server, &id, None).await;
        let started = std::time::Instant::now();
        loop {
            let view = next_view(&mut socket).await;
            if view["ply"].as_u64().unwrap() >= unwatched + 8 || view["status"] == "over" {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "watched, the game still crawls"
            );
        }
        server.stop().await;
    }
}

/// A Schada game on an uploaded board file: a broken file is refused with its line, the game
/// names its board, its record carries it, and after a restart it is replayed on that board.
async fn a_game_on_an_uploaded_board_keeps_its_board(db: &str) {
    let server = Server::start(db).await;
    let (_, detail) = server.get("/api/rulesets/schada").await;
    assert_eq!(detail["board_name"], "reconstruction");
    let default = detail["board_file"].as_str().unwrap().to_string();
    // On this board the a2 pawn goes two squares, a move the reconstruction does not have.
    let mine: String = default
        .lines()
        .map(|l| if l.starts_with("a2 ") { "a2 N N" } else { l })
        .collect::<Vec<_>>()
        .join("\n");
    let broken = default.replace("d3  S S", "d3  S S S S");
    let (status, body) = server
        .post(
            "/api/games",
            json!({"ruleset": "schada", "white": human(), "black": human(),
                   "board": {"name": "broken", "text": broken}}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let error = body["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("line 25") && error.contains("steps off the board"),
        "{body}"
    );
    let (status, body) = server
        .post(
            "/api/games",
            json!({"ruleset": "chad", "white": human(), "black": human(),
                   "board": {"name": "mine", "text": mine}}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = server
        .post(
            "/api/games",
            json!({"ruleset": "schada", "white": human(), "black": human(),
                   "board": {"name": "mine", "text": mine}}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let tokens = body["tokens"].clone();
    let (status, view) = server.play(&id, &tokens["white"], "a2-a4").await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["board_name"], "mine");
    // A game on the default board names it too, and refuses the other board's move.
    let (plain, plain_tokens) = server.create("schada", human(), human()).await;
    let (status, _) = server.play(&plain, &plain_tokens["white"], "a2-a4").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (_, plain_view) = server.get(&format!("/api/games/{plain}")).await;
    assert_eq!(plain_view["board_name"], "reconstruction");
    let (_, _, record) = server
        .get_text(&format!("/api/games/{id}/record.pgn"))
        .await;
    assert!(record.contains("[Board \"mine\"]"), "{record}");
    assert!(
        record.contains(&format!(
            "[BoardFingerprint \"{}\"]",
            denkmeter_core::board_fingerprint(&mine)
        )),
        "{record}"
    );
    let (status, _, text) = server.get_text(&format!("/api/games/{id}/board.txt")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(text, mine, "the uploaded board can be downloaded again");
    // The name of the built-in board is its own; the built-in text under another name is the
    // built-in board.
    let (status, body) = server
        .post(
            "/api/games",
            json!({"ruleset": "schada", "white": human(), "black": human(),
                   "board": {"name": "reconstruction", "text": mine}}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = server
        .post(
            "/api/games",
            json!({"ruleset": "schada", "white": human(), "black": human(),
                   "board": {"name": "copy", "text": default}}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (_, copy) = server
        .get(&format!("/api/games/{}", body["id"].as_str().unwrap()))
        .await;
    assert_eq!(copy["board_name"], "reconstruction");
    let (status, _, _) = server
        .get_text(&format!("/api/games/{plain}/board.txt"))
        .await;
    assert_eq!(status, StatusCode::OK);
    server.stop().await;

    let server = Server::start(db).await;
    let (status, view) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["board_name"], "mine");
    assert_eq!(view["moves"][0], "a2-a4");
    let (status, _) = server.play(&id, &tokens["black"], "h7-h5").await;
    assert_eq!(status, StatusCode::OK);
    server.stop().await;
}

/// Everything one client of a Trangalla game receives, normalised (the game's id, versions
/// and times removed), as lines of text.
#[derive(Default)]
struct Received(Vec<String>);

impl Received {
    fn json(&mut self, id: &str, mut value: Value) {
        fn scrub(value: &mut Value) {
            match value {
                Value::Object(map) => {
                    for key in ["id", "version", "updated_at"] {
                        map.remove(key);
                    }
                    map.values_mut().for_each(scrub);
                }
                Value::Array(items) => items.iter_mut().for_each(scrub),
                _ => {}
            }
        }
        scrub(&mut value);
        self.text(id, &value.to_string());
    }

    fn text(&mut self, id: &str, text: &str) {
        self.0.push(text.replace(id, "ID"));
    }
}

/// Plays a Trangalla game between two people, the kings on `kings`, then `moves`, with a
/// spectator watching; every client reads its view, the replays, the record, the diagram, the
/// game list, its socket and an error after every move. Returns what White, Black and the
/// spectator received before the end, and the record everyone gets once White resigns.
async fn trangalla_seen(
    server: &Server,
    kings: [&str; 2],
    moves: &[&str],
) -> ([Received; 3], String) {
    let (id, tokens) = server.create("trangalla", human(), human()).await;
    let seats = [Some(&tokens["white"]), Some(&tokens["black"]), None];
    let mut sockets = Vec::new();
    for token in seats {
        sockets.push(open_socket(server, &id, token).await);
    }
    let mut seen: [Received; 3] = Default::default();
    let all: Vec<String> = kings
        .iter()
        .map(|k| format!("K@{k}"))
        .chain(moves.iter().map(|m| m.to_string()))
        .collect();
    for ply in 0..=all.len() {
        for (k, token) in seats.iter().enumerate() {
            let query = token
                .and_then(Value::as_str)
                .map(|t| format!("?token={t}"))
                .unwrap_or_default();
            let join = if query.is_empty() { "?" } else { "&" };
            loop {
                let view = next_view(&mut sockets[k]).await;
                let at = view["ply"].as_u64();
                seen[k].json(&id, view);
                if at == Some(ply as u64) {
                    break;
                }
            }
            let (_, view) = server.get(&format!("/api/games/{id}{query}")).await;
            seen[k].json(&id, view);
            for replay in 0..ply {
                let (_, view) = server
                    .get(&format!("/api/games/{id}{query}{join}ply={replay}"))
                    .await;
                seen[k].json(&id, view);
            }
            for path in ["record.pgn", "diagram.svg"] {
                let (_, _, text) = server
                    .get_text(&format!("/api/games/{id}/{path}{query}"))
                    .await;
                let text: String = text
                    .lines()
                    .filter(|l| !l.starts_with("[Date") && !l.starts_with("[Time"))
                    .collect();
                seen[k].text(&id, &text);
            }
            let (_, list) = server.get("/api/games").await;
            let mine: Vec<Value> = list
                .as_array()
                .unwrap()
                .iter()
                .filter(|g| g["id"] == id.as_str())
                .cloned()
                .collect();
            seen[k].json(&id, Value::Array(mine));
            // A wrong move: its error must not depend on the kings either.
            if let Some(token) = token {
                let (_, error) = server.play(&id, token, "e5-a1").await;
                seen[k].json(&id, error);
            }
        }
        if let Some(mv) = all.get(ply) {
            let mover = seats[ply % 2].unwrap();
            let (status, view) = server.play(&id, mover, mv).await;
            assert_eq!(status, StatusCode::OK, "{mv}: {view}");
            seen[ply % 2].json(&id, view);
        }
    }
    let (status, _) = server
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": tokens["white"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, _, record) = server
        .get_text(&format!("/api/games/{id}/record.pgn"))
        .await;
    (seen, record)
}

async fn hidden_kings_reach_nobody(db: &str) {
    let server = Server::start(db).await;
    // Steps only, so that no king is jumped and the three games look alike on the table.
    let moves = ["c1-d1", "c5-b5", "d1-e1", "b5-a5", "b1-c1", "d5-c5"];
    let ([white_a, black_a, watcher_a], record_a) =
        trangalla_seen(&server, ["b2", "d4"], &moves).await;
    // Black's king elsewhere: White and the spectator receive the very same bytes.
    let ([white_b, black_b, watcher_b], _) = trangalla_seen(&server, ["b2", "e3"], &moves).await;
    assert_eq!(white_a.0.len(), white_b.0.len());
    for (a, b) in white_a.0.iter().zip(&white_b.0) {
        assert_eq!(a, b, "White learns where Black's king is");
    }
    assert_eq!(
        watcher_a.0, watcher_b.0,
        "the spectator learns Black's king"
    );
    assert_ne!(
        black_a.0, black_b.0,
        "Black sees his own king (the test can fail)"
    );
    // White's king elsewhere: Black and the spectator receive the same bytes.
    let ([white_c, black_c, watcher_c], _) = trangalla_seen(&server, ["a3", "d4"], &moves).await;
    assert_eq!(black_a.0, black_c.0, "Black learns where White's king is");
    assert_eq!(
        watcher_a.0, watcher_c.0,
        "the spectator learns White's king"
    );
    assert_ne!(white_a.0, white_c.0);
    // What each is told, in so many words.
    let white_text = white_a.0.join("\n");
    assert!(white_text.contains("K@?"), "Black's setup move is hidden");
    assert!(white_text.contains("\"kind\":\"unknown\""));
    assert!(!black_a.0.join("\n").contains("K@b2"));
    for line in &watcher_a.0 {
        if let Ok(value) = serde_json::from_str::<Value>(line) {
            for piece in value["pieces"].as_array().into_iter().flatten() {
                assert_ne!(piece["kind"], "king", "the spectator sees a king: {line}");
            }
        }
    }
    // After the end everyone sees everything: the whole record, kings included.
    assert!(
        record_a.contains("K@b2") && record_a.contains("K@d4"),
        "{record_a}"
    );
    server.stop().await;
}

async fn a_hidden_king_against_the_computer(db: &str) {
    let server = Server::start(db).await;
    let (id, tokens) = server.create("trangalla", human(), computer(1)).await;
    let (status, _) = server.play(&id, &tokens["white"], "K@b2").await;
    assert_eq!(status, StatusCode::OK);
    let view = server.wait_for_ply(&id, 2).await;
    let mut received = vec![view.to_string()];
    let query = format!("?token={}", tokens["white"].as_str().unwrap());
    let mut ply = 2;
    while ply < 12 {
        let (_, view) = server.get(&format!("/api/games/{id}{query}")).await;
        if view["status"] == "over" {
            break;
        }
        let legal = view["legal_moves"].as_array().unwrap();
        if legal.is_empty() {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        }
        // No move on offer tells a king from a soldier.
        assert!(legal.iter().all(|m| m["captured"] == json!([])), "{view}");
        let mv = legal[0]["text"].as_str().unwrap().to_string();
        let (status, answer) = server.play(&id, &tokens["white"], &mv).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        received.push(answer.to_string());
        ply += 2;
        let (_, view) = server.get(&format!("/api/games/{id}{query}")).await;
        received.push(view.to_string());
        if view["status"] == "over" {
            break;
        }
        server.wait_for_ply(&id, ply).await;
    }
    let (_, view) = server.get(&format!("/api/games/{id}{query}")).await;
    if view["status"] != "over" {
        let joined = received.join("\n");
        // The computer's setup move and king are never shown to White.
        assert!(joined.contains("K@?"), "{joined}");
        for line in &received {
            let value: Value = serde_json::from_str(line).unwrap();
            if value["status"] == "over" {
                continue;
            }
            for piece in value["pieces"].as_array().into_iter().flatten() {
                assert!(
                    !(piece["owner"] == "black" && piece["kind"] == "king"),
                    "{line}"
                );
            }
        }
    }
    server.stop().await;
}

async fn a_pdn_game_is_brought_in_continued_and_downloaded(db: &str) {
    let server = Server::start(db).await;
    // An unfinished International game from a FEN (after 1. 32-28), pasted: the ruleset
    // comes from its GameType, whatever the request names; the moves are replayed and the
    // game goes on.
    let fen = "B:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:\
               B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20";
    let pdn = "[Event \"Training\"]\n[GameType \"20\"]\n[FEN \"B:W28,31,33-50:B1-20\"]\n\
               1... 19-23 {the exchange} 2. 28x19 14x23 *\n";
    let (status, created) = server
        .post(
            "/api/games",
            json!({"ruleset": "english", "white": {"kind": "human"}, "black": {"kind": "human"}, "pdn": pdn}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let (_, view) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(view["ruleset"], "international", "{view}");
    assert_eq!(view["moves"], json!(["19-23", "28x19", "14x23"]), "{view}");
    assert_eq!(
        (view["status"].clone(), view["to_move"].clone()),
        (json!("ongoing"), json!("white"))
    );
    let (status, _) = server.play(&id, &created["tokens"]["white"], "37-32").await;
    assert_eq!(status, StatusCode::OK);
    // Kept across a restart, and written back as PDN with its setup.
    server.stop().await;
    let server = Server::start(db).await;
    let (status, kind, text) = server
        .get_text(&format!("/api/games/{id}/record.pdn"))
        .await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert!(kind.starts_with("text/plain"), "{kind}");
    assert!(
        text.contains("[GameType \"20\"]") && text.contains("[SetUp \"1\"]"),
        "{text}"
    );
    assert!(text.contains(&format!("[FEN \"{fen}\"]")), "{text}");
    assert!(
        text.contains("1... 19-23 2. 28x19 14x23 3. 37-32 *"),
        "{text}"
    );
    // A finished game brought in is over at once, so it can be analysed.
    let finished = "[GameType \"21\"]\n[Result \"0-1\"]\n1. 11-15 24-20 2. 8-11 0-1\n";
    let (status, created) = server
        .post(
            "/api/games",
            json!({"ruleset": "english", "white": {"kind": "human"}, "black": {"kind": "computer", "level": 1}, "pdn": finished}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let (_, view) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(view["status"], "over", "{view}");
    assert_eq!(view["result"]["winner"], "black", "{view}");
    let (status, answer) = server.get(&format!("/api/games/{id}/analysis?ply=2")).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // The last position of a pasted game analysed without making a game: after 1. 11-15
    // 24-20 2. 8-11, White (the second player) is to move.
    let (status, answer) = server
        .post(
            "/api/analysis",
            json!({"ruleset": "international", "pdn": "[GameType \"21\"]\n1. 11-15 24-20 2. 8-11 *"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // Analysed under the rules its GameType names, which the answer says.
    assert_eq!(answer["ruleset"], "english", "{answer}");
    assert_eq!(answer["to_move"], "black", "{answer}");
    assert!(
        answer["pv"][0]
            .as_str()
            .is_some_and(|m| m.contains('-') || m.contains('x')),
        "{answer}"
    );
    let (status, _) = server
        .post(
            "/api/analysis",
            json!({"ruleset": "english", "pdn": "1. 11-15 11-15 *"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Bad PDN: one clear reason, and no game made.
    for (bad, reason) in [
        (
            "[GameType \"20\"]\n1. 32-28 19-23 2. 31-27 *",
            "move 2. 31-27",
        ),
        ("[GameType \"20\"]\n[FEN \"W:W51:B1\"]\n*", "[FEN]"),
        ("[GameType \"25\"]\n1. c3-d4 *", "GameType"),
        ("1. 32-28 * 1. 33-28 *", "holds 2 games"),
        ("[GameType \"20\"]\n1. 32-28 {unclosed", "never closed"),
    ] {
        let (status, body) = server
            .post(
                "/api/games",
                json!({"ruleset": "international", "white": {"kind": "human"}, "black": {"kind": "human"}, "pdn": bad}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        let error = body["error"].as_str().unwrap_or_default();
        assert!(error.contains(reason), "{bad}: {error}");
    }
    // Other games have no PDN.
    let (chad, _) = server.create("chad", human(), human()).await;
    let (status, _, _) = server
        .get_text(&format!("/api/games/{chad}/record.pdn"))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    server.stop().await;
}

/// The claim of an invite link (`POST /api/games/{id}/claim`): the friend gets a token of his
/// own and the invite holds nothing any more (401, saying so), neither for moves, nor views,
/// nor the socket, and shows no hidden king; the same after a restart.
async fn an_invite_is_claimed_once(db: &str) {
    let server = Server::start(db).await;
    let (id, tokens) = server.create("trangalla", human(), human()).await;
    let invite = tokens["black"].clone();
    let claim_path = format!("/api/games/{id}/claim");
    let (status, _) = server.play(&id, &tokens["white"], "K@b2").await;
    assert_eq!(status, StatusCode::OK);
    // The creator holds the invite too: a socket he opens with it before the friend claims
    // the seat must not go on showing that seat (its king) afterwards.
    let mut early = open_socket(&server, &id, Some(&invite)).await;
    assert_eq!(next_view(&mut early).await["you"], "black");
    let (status, claimed) = server.post(&claim_path, json!({"token": invite})).await;
    assert_eq!(status, StatusCode::OK, "{claimed}");
    assert_eq!(claimed["seat"], "black");
    let fresh = claimed["token"].clone();
    assert_eq!(fresh.as_str().unwrap().len(), 24);
    assert_ne!(fresh, invite);
    assert_eq!(claimed["view"]["you"], "black");
    assert_eq!(claimed["view"]["black"]["claimed"], true);
    assert_eq!(claimed["view"]["white"]["claimed"], false);
    let (status, _) = server.play(&id, &fresh, "K@d4").await;
    assert_eq!(status, StatusCode::OK);
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(Ok(message)) = early.next().await {
            if let Message::Text(text) = message {
                let message: Value = serde_json::from_str(&text).unwrap();
                assert_ne!(message["type"], "view", "a view after the claim: {message}");
            }
        }
    })
    .await;
    assert!(
        ended.is_ok(),
        "the invite's socket stayed open after the claim"
    );
    let (status, _) = server.play(&id, &tokens["white"], "c1-d1").await;
    assert_eq!(status, StatusCode::OK);
    invite_is_used(&server, &id, &invite, &fresh).await;
    let (status, _) = server.play(&id, &fresh, "c5-b5").await;
    assert_eq!(status, StatusCode::OK);
    server.stop().await;

    // A new server on the same database: the invite is still used, the new token still holds.
    let server = Server::start(db).await;
    invite_is_used(&server, &id, &invite, &fresh).await;
    let (status, view) = server.play(&id, &tokens["white"], "d1-e1").await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let (status, _) = server.play(&id, &fresh, "b5-a5").await;
    assert_eq!(status, StatusCode::OK);
    // A seat's token that was never an invite claim is refused as before (403).
    let (status, _) = server
        .post(&claim_path, json!({"token": "abcdefghijkmnpqrstuvwxyz"}))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    server.stop().await;
}

/// A claimed invite is refused everywhere (401, saying so) and its claimant's token holds.
async fn invite_is_used(server: &Server, id: &str, invite: &Value, fresh: &Value) {
    let claim_path = format!("/api/games/{id}/claim");
    let used = |body: &Value| {
        let message = body["error"].as_str().unwrap_or_default().to_string();
        assert!(
            message.contains("invite link has been used") && message.contains("watch"),
            "{body}"
        );
    };
    let token = invite.as_str().unwrap();
    let (status, body) = server.get(&format!("/api/games/{id}?token={token}")).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    used(&body);
    assert!(!body.to_string().contains("king"), "{body}");
    let (status, body) = server.play(id, invite, "c5-b5").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    used(&body);
    let (status, body) = server.post(&claim_path, json!({"token": invite})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    used(&body);
    for path in ["record.pgn", "diagram.svg"] {
        let (status, _, text) = server
            .get_text(&format!("/api/games/{id}/{path}?token={token}"))
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
        assert!(!text.contains("d4"), "{path}: {text}");
    }
    let url = format!("ws://{}/api/games/{id}/ws?token={token}", server.addr);
    match tokio_tungstenite::connect_async(&url).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 401)
        }
        other => panic!("the used invite opened a socket: {other:?}"),
    }
    // The claimant's token plays and sees his own king; it cannot be claimed again.
    let fresh_text = fresh.as_str().unwrap();
    let (status, view) = server
        .get(&format!("/api/games/{id}?token={fresh_text}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["you"], "black");
    assert!(view["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["owner"] == "black" && p["kind"] == "king"));
    let (status, body) = server.post(&claim_path, json!({"token": fresh})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    // Everyone sees that the seat is taken.
    let (_, view) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(view["black"]["claimed"], true);
    assert_eq!(view["white"]["claimed"], false);
}

/// Eight browsers claim one invite at once, on two servers sharing the database: exactly one
/// gets the seat, the others are told it is taken, and only the winner's token plays.
async fn two_claims_of_one_invite_at_once(db: &str) {
    let a = Server::start(db).await;
    let b = Server::start(db).await;
    for _round in 0..3 {
        let (id, tokens) = a.create("chad", human(), human()).await;
        // B knows the game before the claims, so that its copy may be out of date.
        b.get(&format!("/api/games/{id}")).await;
        let path = format!("/api/games/{id}/claim");
        let mut claims = Vec::new();
        for n in 0..8 {
            let server = if n % 2 == 0 { &a } else { &b };
            let (client, url) = (server.client.clone(), server.url(&path));
            let body = json!({"token": tokens["black"]}).to_string();
            claims.push(tokio::spawn(async move {
                let response = client
                    .post(url)
                    .header("content-type", "application/json")
                    .body(body)
                    .send()
                    .await
                    .unwrap();
                let status = response.status();
                (status, response.json::<Value>().await.unwrap())
            }));
        }
        let mut winners = Vec::new();
        for claim in claims {
            let (status, body) = claim.await.unwrap();
            match status {
                StatusCode::OK => winners.push(body["token"].clone()),
                StatusCode::UNAUTHORIZED => {
                    assert!(body["error"].as_str().unwrap().contains("has been used"))
                }
                other => panic!("{other}: {body}"),
            }
        }
        assert_eq!(winners.len(), 1, "{winners:?}");
        a.play(&id, &tokens["white"], "C5-A5").await;
        for server in [&a, &b] {
            let (status, view) = server.play(&id, &tokens["black"], "I8-I5").await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{view}");
        }
        let (status, view) = b.play(&id, &winners[0], "I8-I5").await;
        assert_eq!(status, StatusCode::OK, "{view}");
    }
    a.stop().await;
    b.stop().await;
}

/// On PostgreSQL a server does not take over a search that another server, still running,
/// has under way: it waits (for `stall_after`) while the other's lease is renewed.
async fn a_live_servers_search_is_not_taken_over(db: &str) {
    let a_state = AppState::open_with(db, test_config(), registry())
        .await
        .unwrap();
    let b_state = AppState::open_with(db, test_config(), registry())
        .await
        .unwrap();
    let a = Server::start_state(a_state.clone()).await;
    let b = Server::start_state(b_state.clone()).await;
    // Level 8 thinks for seconds.
    let (id, tokens) = a.create("chad", human(), computer(8)).await;
    let (status, _) = a.play(&id, &tokens["white"], "C5-A5").await;
    assert_eq!(status, StatusCode::OK);
    let (_, view) = b.get(&format!("/api/games/{id}")).await;
    let searching = view["ply"] == 1;
    // Longer than a lease renewal and a look at it: B leaves the search to A.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let b_proxy = b_state.rounds.cached(&id).expect("B loaded the game");
    assert_eq!(b_proxy.searches(), 0, "B took over a live server's search");
    let a_proxy = a_state.rounds.cached(&id).unwrap();
    assert_eq!(a_proxy.searches(), 1);
    assert!(
        searching,
        "A answered before B looked (the test proves nothing)"
    );
    a.wait_for_ply(&id, 2).await;
    assert_eq!(b_proxy.searches(), 0);
    a.stop().await;
    b.stop().await;
}

//! The API against a real server on a loopback port, on SQLite and on PostgreSQL.
//!
//! PostgreSQL tests need `DENKMETER_TEST_POSTGRES_URL`, a URL of a role that may create
//! databases (each test makes its own). Without it they are skipped, unless
//! `DENKMETER_REQUIRE_POSTGRES=1` (as `scripts/test.sh` and CI set), which makes them fail.

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::task::JoinHandle;

struct Server {
    addr: SocketAddr,
    handle: JoinHandle<()>,
    client: reqwest::Client,
}

impl Server {
    async fn start(database: &str) -> Server {
        let state = denkmeter_server::AppState::open(database).await.unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let handle = tokio::spawn(async move {
            axum::serve(listener, denkmeter_server::app(state))
                .await
                .unwrap();
        });
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
    sqlx::query(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .execute(&mut conn)
        .await
        .unwrap();
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
);

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
            json!({"token": tokens["white"], "move": "x".repeat(20_000)}).to_string(),
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
    let replayed = denkmeter_games::registry::find("chad")
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
    type Socket = tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >;
    async fn next_view(socket: &mut Socket) -> Value {
        loop {
            let message = tokio::time::timeout(Duration::from_secs(10), socket.next())
                .await
                .unwrap()
                .unwrap()
                .unwrap();
            if let tokio_tungstenite::tungstenite::Message::Text(text) = message {
                return serde_json::from_str::<Value>(&text).unwrap();
            }
        }
    }
    let first = next_view(&mut socket).await;
    assert_eq!(
        (first["ply"].clone(), first["you"].clone()),
        (json!(0), json!("black"))
    );
    server.play(&id, &tokens["white"], "C5-A5").await;
    let second = next_view(&mut socket).await;
    assert_eq!(second["moves"], json!(["C5-A5"]));
    assert!(!second["legal_moves"].as_array().unwrap().is_empty());
    let bad = format!("ws://{}/api/games/{id}/ws?token=forged", server.addr);
    assert!(tokio_tungstenite::connect_async(&bad).await.is_err());
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

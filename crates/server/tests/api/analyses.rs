//! Whole-game analyses over HTTP: a finished game's asked for, streamed and judged; pasted
//! games; the bounded queue; a restart in the middle; and every refusal.

use std::time::{Duration, Instant};

use denkmeter_engine::{Agent, Registry};
use reqwest::StatusCode;
use serde_json::{json, Value};

use super::{database, drop_database, human, registry, test_config, Server};

mod postgres_only {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_page_on_another_server_follows_an_analysis() {
        let dir = tempfile::tempdir().unwrap();
        if let Some(db) = super::database("postgres", &dir).await {
            super::a_page_on_another_server_follows_an_analysis(&db).await;
            super::drop_database(&db).await;
        }
    }
}

on_both_databases!(
    a_finished_game_is_analysed_whole,
    pasted_games_are_analysed_and_bad_ones_refused,
    analyses_wait_in_a_bounded_queue,
    an_analysis_goes_on_after_a_restart,
    analyses_name_the_game_asked_for_and_see_hidden_pieces,
);

/// An English checkers opening (Black, the rules' first player, moves first). The tests rely on
/// no particular mark: they check that the marks agree with the scores and thresholds.
const ENGLISH: [&str; 8] = [
    "11-15", "22-18", "15x22", "25x18", "8-11", "29-25", "4-8", "25-22",
];

/// Waits until the analysis is done; returns it.
async fn wait_done(server: &Server, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (status, data) = server.get(&format!("/api/analyses/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{data}");
        if data["status"] == "done" {
            return data;
        }
        assert_ne!(data["status"], "failed", "{data}");
        assert!(Instant::now() < deadline, "not analysed in time: {data}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The progress events of an analysis's stream, until it ends (bounded in time).
async fn progress_events(server: &Server, id: &str) -> Vec<Value> {
    let mut response = server
        .client
        .get(server.url(&format!("/api/analyses/{id}/events")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let kind = response.headers()["content-type"].to_str().unwrap();
    assert!(kind.starts_with("text/event-stream"), "{kind}");
    let mut text = String::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while let Ok(Some(chunk)) = tokio::time::timeout_at(deadline.into(), response.chunk())
        .await
        .unwrap()
    {
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(|data| serde_json::from_str(data.trim()).unwrap())
        .collect()
}

/// Every position judged, and the marks consistent with the evaluations and thresholds.
fn check_review(analysis: &Value, moves: usize) {
    let review = &analysis["review"];
    let positions = review["positions"].as_array().unwrap();
    assert_eq!(positions.len(), moves + 1, "{review}");
    for (ply, position) in positions.iter().enumerate() {
        assert_eq!(position["ply"], ply);
        let chances = position["white_chances"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&chances), "{position}");
        if position["over"] == false {
            assert!(position["depth"].as_u64().unwrap() >= 1, "{position}");
            assert!(!position["pv"].as_array().unwrap().is_empty());
        }
    }
    let t = &review["thresholds"];
    let judged = review["moves"].as_array().unwrap();
    assert_eq!(judged.len(), moves);
    for m in judged {
        let loss = m["loss"].as_i64().unwrap();
        let expected = if loss >= t["blunder"].as_i64().unwrap() {
            json!("blunder")
        } else if loss >= t["mistake"].as_i64().unwrap() {
            json!("mistake")
        } else if loss >= t["inaccuracy"].as_i64().unwrap() {
            json!("inaccuracy")
        } else {
            Value::Null
        };
        assert_eq!(m["judgement"], expected, "{m}");
        let before = &positions[m["ply"].as_u64().unwrap() as usize - 1];
        if m["played"] == before["pv"][0] {
            assert_eq!((m["loss"].as_i64(), &m["best"]), (Some(0), &Value::Null));
        } else if !m["judgement"].is_null() {
            assert_eq!(m["best"], before["pv"][0], "{m}");
            assert_ne!(m["best"], m["played"]);
        }
    }
}

async fn a_finished_game_is_analysed_whole(db: &str) {
    let server = Server::start(db).await;
    let (id, tokens) = server.create("english", human(), human()).await;
    let path = format!("/api/games/{id}/analyses");
    // Not while the game is being played.
    let (status, answer) = server.post(&path, json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    let (status, _) = server.get(&path).await;
    assert_eq!(status, StatusCode::CONFLICT);
    for (i, mv) in ENGLISH.iter().enumerate() {
        let token = if i % 2 == 0 {
            &tokens["white"]
        } else {
            &tokens["black"]
        };
        let (status, view) = server.play(&id, token, mv).await;
        assert_eq!(status, StatusCode::OK, "{mv}: {view}");
    }
    server
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": tokens["white"]}),
        )
        .await;
    let (status, none) = server.get(&path).await;
    assert_eq!((status, none), (StatusCode::OK, Value::Null));
    let (status, asked) = server.post(&path, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    let analysis_id = asked["id"].as_str().unwrap().to_string();
    assert_eq!(asked["game_id"], id.as_str());
    assert_eq!(asked["total"], ENGLISH.len() + 1);
    assert_eq!(asked["moves"].as_array().unwrap().len(), ENGLISH.len());
    assert_eq!(asked["family"], "english");
    assert_eq!(asked["full_information"], Value::Null);
    // Progress streams in order until done.
    let events = progress_events(&server, &analysis_id).await;
    let last = events.last().expect("at least one event");
    assert_eq!(last["status"], "done", "{events:?}");
    assert_eq!(last["done"], ENGLISH.len() + 1);
    let dones: Vec<u64> = events.iter().map(|e| e["done"].as_u64().unwrap()).collect();
    assert!(dones.windows(2).all(|w| w[0] <= w[1]), "{dones:?}");

    let analysis = wait_done(&server, &analysis_id).await;
    check_review(&analysis, ENGLISH.len());
    assert_eq!(analysis["review"]["unit"], "a man");
    // Asked again, or found from the game: the same analysis.
    let (_, again) = server.post(&path, json!({})).await;
    assert_eq!(again["id"], analysis_id.as_str());
    assert_eq!(again["status"], "done");
    let (_, found) = server.get(&path).await;
    assert_eq!(found["id"], analysis_id.as_str());

    // Its positions, drawn for the page.
    let (status, start) = server
        .get(&format!("/api/analyses/{analysis_id}/positions/0"))
        .await;
    assert_eq!(status, StatusCode::OK, "{start}");
    assert_eq!(start["pieces"].as_array().unwrap().len(), 24);
    assert_eq!(start["last_move"], Value::Null);
    assert_eq!(start["legal_moves"].as_array().unwrap().len(), 7);
    let (_, third) = server
        .get(&format!("/api/analyses/{analysis_id}/positions/3"))
        .await;
    assert_eq!(third["pieces"].as_array().unwrap().len(), 23, "{third}");
    assert_eq!(third["last_move"]["text"], "15x22");
    let (status, _) = server
        .get(&format!("/api/analyses/{analysis_id}/positions/9"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = server.get("/api/analyses/nothing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = server.get("/api/analyses/nothing/events").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = server.post("/api/games/nothing/analyses", json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    server.stop().await;
}

/// `plies` random moves of `ruleset` from its start, from `seed`.
fn random_game(ruleset: &str, plies: usize, seed: u64) -> Vec<String> {
    let registry: std::sync::Arc<Registry> = registry();
    let game = registry.find(ruleset).unwrap();
    let mut session = game.new_game(None).unwrap();
    let agent: Agent = "random".parse().unwrap();
    while session.moves().len() < plies && !session.status().is_over() {
        let mv = session
            .choose_move(&agent, seed + session.moves().len() as u64)
            .unwrap();
        session.play(&mv).unwrap();
    }
    session.moves().to_vec()
}

async fn pasted_games_are_analysed_and_bad_ones_refused(db: &str) {
    let server = Server::start(db).await;
    // A PDN game, its ruleset named by its GameType.
    let pdn = "[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 *";
    let (status, pasted) = server
        .post(
            "/api/analyses",
            json!({"ruleset": "international", "pdn": pdn}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{pasted}");
    assert_eq!(pasted["ruleset"], "english");
    assert_eq!(pasted["game_id"], Value::Null);
    let analysis = wait_done(&server, pasted["id"].as_str().unwrap()).await;
    check_review(&analysis, 4);
    // Moves of any ruleset.
    let moves = random_game("kamelen", 12, 5);
    let (status, kamelen) = server
        .post(
            "/api/analyses",
            json!({"ruleset": "kamelen", "moves": moves}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{kamelen}");
    let analysis = wait_done(&server, kamelen["id"].as_str().unwrap()).await;
    check_review(&analysis, moves.len());

    let refused = |body: Value, code: StatusCode, words: &'static str| {
        let server = &server;
        async move {
            let (status, answer) = server.post("/api/analyses", body.clone()).await;
            assert_eq!(status, code, "{body}: {answer}");
            let error = answer["error"].as_str().unwrap_or_default();
            assert!(error.contains(words), "{error:?} should say {words:?}");
        }
    };
    refused(
        json!({"ruleset": "chad", "moves": ["E3-G3", "Z9-Z1"]}),
        StatusCode::BAD_REQUEST,
        "move 2",
    )
    .await;
    refused(
        json!({"ruleset": "english", "pdn": pdn, "moves": []}),
        StatusCode::BAD_REQUEST,
        "not both",
    )
    .await;
    refused(
        json!({"ruleset": "chess", "moves": []}),
        StatusCode::NOT_FOUND,
        "unknown ruleset",
    )
    .await;
    refused(
        json!({"ruleset": "english", "pdn": "1. 11-15 99-98 *"}),
        StatusCode::BAD_REQUEST,
        "pdn",
    )
    .await;
    refused(
        json!({"ruleset": "chad", "position": "nonsense", "moves": []}),
        StatusCode::BAD_REQUEST,
        "position",
    )
    .await;
    refused(
        json!({"ruleset": "trangalla", "moves": random_game("trangalla", 6, 1)}),
        StatusCode::BAD_REQUEST,
        "only once it is over",
    )
    .await;
    let long = vec!["E3-G3".to_string(); 1001];
    refused(
        json!({"ruleset": "chad", "moves": long}),
        StatusCode::BAD_REQUEST,
        "at most 1000",
    )
    .await;
    let (status, _) = server
        .post("/api/analyses", json!({"ruleset": "chad", "extra": 1}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = server.post_raw("/api/analyses", "{".to_string()).await;
    assert!(status.is_client_error());
    server.stop().await;
}

async fn analyses_wait_in_a_bounded_queue(db: &str) {
    let server = Server::start(db).await;
    // Long games: the first two are still unfinished when the third is asked for.
    let mut answers = Vec::new();
    for seed in 0..3 {
        let moves = random_game("chad", 120, 100 + seed);
        answers.push(
            server
                .post("/api/analyses", json!({"ruleset": "chad", "moves": moves}))
                .await,
        );
    }
    assert_eq!(answers[0].0, StatusCode::OK, "{}", answers[0].1);
    assert_eq!(answers[1].0, StatusCode::OK, "{}", answers[1].1);
    assert_eq!(
        answers[2].0,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        answers[2].1
    );
    let error = answers[2].1["error"].as_str().unwrap();
    assert!(error.contains("at most 2"), "{error}");
    // One at a time: the second waits while the first runs.
    let (_, second) = server
        .get(&format!(
            "/api/analyses/{}",
            answers[1].1["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(second["status"], "waiting", "{second}");
    server.stop().await;
}

async fn an_analysis_goes_on_after_a_restart(db: &str) {
    // The same server name both times: on PostgreSQL its earlier claims are its own to take
    // back at once.
    let config = || denkmeter_server::ServerConfig {
        server_id: Some("analyses-restart".to_string()),
        ..test_config()
    };
    let server = Server::start_with(db, config()).await;
    let moves = random_game("shakti", 60, 7);
    let (status, asked) = server
        .post(
            "/api/analyses",
            json!({"ruleset": "shakti", "moves": moves}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    let id = asked["id"].as_str().unwrap().to_string();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (_, now) = server.get(&format!("/api/analyses/{id}")).await;
        if now["done"].as_u64().unwrap() >= 2 {
            assert_eq!(now["status"], "running", "{now}");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the analysis did not start: {now}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.stop().await;
    let server = Server::start_with(db, config()).await;
    let analysis = wait_done(&server, &id).await;
    check_review(&analysis, moves.len());
    server.stop().await;
}

async fn analyses_name_the_game_asked_for_and_see_hidden_pieces(db: &str) {
    let server = Server::start(db).await;
    let resigned = |ruleset: &'static str| {
        let server = &server;
        async move {
            let (id, tokens) = server.create(ruleset, human(), human()).await;
            let (status, view) = server
                .post(
                    &format!("/api/games/{id}/resign"),
                    json!({"token": tokens["white"]}),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{view}");
            id
        }
    };
    // Two games with the same moves share an analysis, each named as the game asked about.
    let first = resigned("english").await;
    let second = resigned("english").await;
    let (_, a) = server
        .post(&format!("/api/games/{first}/analyses"), json!({}))
        .await;
    let (_, b) = server
        .post(&format!("/api/games/{second}/analyses"), json!({}))
        .await;
    assert_eq!(a["id"], b["id"]);
    assert_eq!(a["game_id"], first.as_str());
    assert_eq!(b["game_id"], second.as_str());
    let (_, found) = server.get(&format!("/api/games/{second}/analyses")).await;
    assert_eq!(found["game_id"], second.as_str());

    // A finished Trangalla game is analysed, and the analysis says it saw the hidden kings.
    let trangalla = resigned("trangalla").await;
    let (status, hidden) = server
        .post(&format!("/api/games/{trangalla}/analyses"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{hidden}");
    assert!(
        hidden["full_information"]
            .as_str()
            .is_some_and(|words| words.contains("hidden")),
        "{hidden}"
    );
    wait_done(&server, hidden["id"].as_str().unwrap()).await;
    // While one is played, nothing.
    let (live, _) = server.create("trangalla", human(), human()).await;
    let (status, _) = server
        .post(&format!("/api/games/{live}/analyses"), json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);

    // Moves pasted as a person types them are kept as the rules write them: one analysis.
    let (status, typed) = server
        .post(
            "/api/analyses",
            json!({"ruleset": "chad", "moves": ["e3-g3", "j10-j11"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{typed}");
    assert_eq!(typed["moves"], json!(["E3-G3", "J10-J11"]));
    assert_eq!(typed["start_position"], Value::Null);
    let start = {
        let registry = registry();
        let chad = registry.find("chad").unwrap();
        chad.new_game(None).unwrap().position()
    };
    let (_, written) = server
        .post(
            "/api/analyses",
            json!({"ruleset": "chad", "position": start, "moves": ["E3-G3", "J10-J11"]}),
        )
        .await;
    assert_eq!(written["id"], typed["id"]);
    server.stop().await;
}

/// Two servers on one PostgreSQL database: whichever runs the analysis, both show it running
/// with its progress, and both have its result.
async fn a_page_on_another_server_follows_an_analysis(db: &str) {
    let a = Server::start(db).await;
    let b = Server::start(db).await;
    let moves = random_game("chad", 40, 11);
    let (status, asked) = a
        .post("/api/analyses", json!({"ruleset": "chad", "moves": moves}))
        .await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    let path = format!("/api/analyses/{}", asked["id"].as_str().unwrap());
    let mut seen_running = [false, false];
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let mut done = 0;
        for (i, server) in [&a, &b].into_iter().enumerate() {
            let (_, now) = server.get(&path).await;
            if now["status"] == "running" && now["done"].as_u64() > Some(0) {
                seen_running[i] = true;
            }
            if now["status"] == "done" {
                done += 1;
            }
        }
        if done == 2 {
            break;
        }
        assert!(Instant::now() < deadline, "not analysed in time");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        seen_running,
        [true, true],
        "both servers showed the progress"
    );
    let (_, on_a) = a.get(&path).await;
    let (_, on_b) = b.get(&path).await;
    assert_eq!(on_a["review"], on_b["review"]);
    check_review(&on_a, moves.len());
    a.stop().await;
    b.stop().await;
}

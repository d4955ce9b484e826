//! The lab over HTTP: a small study started in the browser is played in the background,
//! through a restart, and reported with its charts; and every refusal.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::{database, drop_database, Server};

on_both_databases!(
    a_study_started_in_the_browser_is_played_and_reported,
    a_study_goes_on_after_a_restart,
    lab_requests_that_are_refused,
);

/// A small, quick study.
fn small_study() -> Value {
    json!({
        "rulesets": ["scandinavian-8x8", "kamelen"],
        "players": ["ab:d1", "random"],
        "games": 2,
        "random_plies": 2,
    })
}

/// Waits until the study has `played` games or more; returns its page's data.
async fn wait_for_games(server: &Server, id: &str, played: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (status, data) = server.get(&format!("/api/lab/studies/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{data}");
        if data["study"]["played"].as_u64() >= Some(played) {
            return data;
        }
        assert!(
            Instant::now() < deadline,
            "the study was not played: {data}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn a_study_started_in_the_browser_is_played_and_reported(db: &str) {
    let server = Server::start(db).await;
    let (status, study) = server.post("/api/lab/studies", small_study()).await;
    assert_eq!(status, StatusCode::CREATED, "{study}");
    let id = study["id"].as_str().unwrap().to_string();
    assert_eq!(study["total"], 8);
    assert_eq!(study["origin"], "web");
    assert_eq!(study["rulesets"][1]["family"], "kamelen");
    // The same study again is the one stored.
    let (status, again) = server.post("/api/lab/studies", small_study()).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(again["id"], study["id"]);

    let data = wait_for_games(&server, &id, 8).await;
    let report = &data["report"];
    assert_eq!(report["games"], 8);
    let cells = report["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 4);
    for cell in cells {
        assert_eq!(cell["games"], 2, "{cell}");
        let results = cell["first_wins"].as_u64().unwrap()
            + cell["second_wins"].as_u64().unwrap()
            + cell["draws"].as_u64().unwrap();
        assert_eq!(results, 2, "{cell}");
        assert!(cell["branching"]["mean"]["value"].as_f64().unwrap() >= 1.0);
    }
    assert_eq!(report["trends"].as_array().unwrap().len(), 2);
    let charts = data["charts"].as_array().unwrap();
    assert!(charts.len() >= 5, "{charts:?}");
    for chart in charts {
        let (status, kind, svg) = server.get_text(chart["href"].as_str().unwrap()).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(kind, "image/svg+xml");
        assert!(svg.starts_with("<svg") && svg.contains(chart["title"].as_str().unwrap()));
    }
    let (status, kind, csv) = server
        .get_text(&format!("/api/lab/studies/{id}/table.csv"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/csv"), "{kind}");
    assert_eq!(csv.lines().count(), 5, "{csv}");

    // Listed for its games and for no other.
    let (_, all) = server.get("/api/lab/studies").await;
    assert_eq!(all["studies"][0]["id"], study["id"]);
    assert_eq!(all["studies"][0]["played"], 8);
    let (_, kamelen) = server.get("/api/lab/studies?family=kamelen").await;
    assert_eq!(kamelen["studies"].as_array().unwrap().len(), 1);
    let (_, chad) = server.get("/api/lab/studies?family=chad").await;
    assert_eq!(chad["studies"], json!([]));
    server.stop().await;
}

async fn a_study_goes_on_after_a_restart(db: &str) {
    let server = Server::start(db).await;
    let mut request = small_study();
    request["games"] = json!(10);
    let (status, study) = server.post("/api/lab/studies", request).await;
    assert_eq!(status, StatusCode::CREATED, "{study}");
    let id = study["id"].as_str().unwrap().to_string();
    wait_for_games(&server, &id, 1).await;
    server.stop().await;
    // A new server on the same database plays the rest.
    let server = Server::start(db).await;
    let data = wait_for_games(&server, &id, 40).await;
    assert_eq!(data["report"]["games"], 40);
    server.stop().await;
}

async fn lab_requests_that_are_refused(db: &str) {
    let server = Server::start(db).await;
    let refused = |body: Value, words: &'static str| {
        let server = &server;
        async move {
            let (status, answer) = server.post("/api/lab/studies", body).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
            let error = answer["error"].as_str().unwrap_or_default();
            assert!(error.contains(words), "{error:?} should say {words:?}");
        }
    };
    let mut unknown = small_study();
    unknown["rulesets"] = json!(["chess"]);
    refused(unknown, "unknown ruleset").await;
    let mut heavy = small_study();
    heavy["players"] = json!(["ab:d9"]);
    refused(heavy, "too long").await;
    let mut big = small_study();
    big["games"] = json!(1000);
    refused(big, "200 games").await;
    let mut bad_player = small_study();
    bad_player["players"] = json!(["grandmaster"]);
    refused(bad_player, "cannot read player").await;
    let mut extra = small_study();
    extra["board"] = json!("x");
    let (status, _) = server.post("/api/lab/studies", extra).await;
    assert!(status.is_client_error(), "{status}");
    let (status, _) = server.post_raw("/api/lab/studies", "{".to_string()).await;
    assert!(status.is_client_error(), "{status}");
    // Nothing was stored.
    let (_, list) = server.get("/api/lab/studies").await;
    assert_eq!(list["studies"], json!([]));

    let (status, _) = server.get("/api/lab/studies/0000000000000000").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, study) = server.post("/api/lab/studies", small_study()).await;
    let id = study["id"].as_str().unwrap();
    let (status, _) = server
        .get(&format!("/api/lab/studies/{id}/charts/..%2Fsecret.svg"))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // The browser's studies wait in a short queue: with it full, the next is refused.
    let mut seed = 100;
    let mut busy = None;
    for _ in 0..5 {
        seed += 1;
        let request = json!({
            "rulesets": ["international"],
            "players": ["ab:d4"],
            "games": 50,
            "seed": seed,
        });
        let (status, answer) = server.post("/api/lab/studies", request).await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            busy = Some(answer);
            break;
        }
        assert_eq!(status, StatusCode::CREATED, "{answer}");
    }
    let busy = busy.expect("the queue of browser studies is bounded");
    assert!(busy["error"].as_str().unwrap().contains("busy"), "{busy}");
    server.stop().await;
}

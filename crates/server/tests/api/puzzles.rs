//! Puzzles over HTTP: every shipped puzzle is offered, solved move by move without its
//! solution leaving the server early, a signed-in player's first attempt rated once (also
//! when attempts race), and every refusal.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::players::{Browser, PASSWORD};
use super::{database, drop_database, Server};
use denkmeter_engine::puzzles::{parse_set, Puzzle};

on_both_databases!(
    every_shipped_puzzle_is_offered_and_solved_move_by_move,
    a_signed_in_players_first_attempt_is_rated_once,
    racing_attempts_are_rated_once_each,
    bad_attempts_are_refused_and_change_nothing,
    problem_collections_are_listed_in_order_and_never_rated,
);

/// The shipped puzzles, as the server embeds them: every `puzzles/*.jsonl` of the workspace.
fn shipped() -> Vec<Puzzle> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../puzzles");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files
        .iter()
        .flat_map(|path| parse_set(&std::fs::read_to_string(path).unwrap()).unwrap())
        .collect()
}

/// The solver's moves of a puzzle: the line's moves of the player to move at its start
/// (found by replaying it: a side may move twice when the other has no move).
async fn solver_moves(server: &Server, puzzle: &Puzzle) -> Vec<String> {
    let mut moves = Vec::new();
    let (status, start) = server
        .post(
            "/api/positions",
            json!({"ruleset": puzzle.ruleset, "position": puzzle.position}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{start}");
    let solver = start["to_move"].clone();
    for ply in 0..puzzle.line.len() {
        let (status, view) = server
            .post(
                "/api/positions",
                json!({"ruleset": puzzle.ruleset, "position": puzzle.position,
                       "moves": puzzle.line[..ply]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{view}");
        if view["to_move"] == solver {
            moves.push(puzzle.line[ply].clone());
        }
    }
    moves
}

/// A legal move of the puzzle's first position that is not the solution's.
async fn wrong_move(server: &Server, puzzle: &Puzzle) -> String {
    let (status, view) = server
        .post(
            "/api/positions",
            json!({"ruleset": puzzle.ruleset, "position": puzzle.position}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    view["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .find(|m| *m != puzzle.line[0])
        .expect("a puzzle has a choice of moves")
}

async fn every_shipped_puzzle_is_offered_and_solved_move_by_move(db: &str) {
    let server = Server::start(db).await;
    let puzzles = shipped();
    let (status, list) = server.get("/api/puzzles").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(list["signed_in"], false);
    assert_eq!(list["player"], Value::Null);
    let total: u64 = list["families"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["count"].as_u64().unwrap())
        .sum();
    assert_eq!(total as usize, puzzles.len());

    // One puzzle of each ruleset: shown without its solution, solved move by move.
    let mut seen = std::collections::HashSet::new();
    for puzzle in puzzles.iter().filter(|p| seen.insert(p.ruleset.clone())) {
        let (status, shown) = server.get(&format!("/api/puzzles/{}", puzzle.id)).await;
        assert_eq!(status, StatusCode::OK, "{shown}");
        assert_eq!(shown["position"], puzzle.position.as_str());
        assert_eq!(shown["moves"], puzzle.moves);
        for key in ["line", "solution"] {
            assert!(shown.get(key).is_none(), "{key} shown before the attempt");
        }
        let moves = solver_moves(&server, puzzle).await;
        assert_eq!(moves.len() as u32, puzzle.moves, "{}", puzzle.id);
        let mut played: Vec<String> = Vec::new();
        for (k, mv) in moves.iter().enumerate() {
            let (status, answer) = server
                .post(
                    &format!("/api/puzzles/{}/attempt", puzzle.id),
                    json!({"moves": moves[..=k]}),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{answer}");
            let last = k + 1 == moves.len();
            assert_eq!(
                answer["result"],
                if last { "solved" } else { "right" },
                "{}: {answer}",
                puzzle.id
            );
            assert_eq!(answer["rating"], Value::Null, "a guest is not rated");
            played.push(mv.clone());
            for reply in answer["replies"].as_array().unwrap() {
                played.push(reply.as_str().unwrap().to_string());
            }
            assert_eq!(
                answer["solution"].is_null(),
                !last,
                "the solution only at the end"
            );
        }
        assert_eq!(played, puzzle.line, "{}", puzzle.id);
    }

    // `next` chooses within the family, and not the one just shown when there is another.
    for family in list["families"].as_array().unwrap() {
        let family = family["family"].as_str().unwrap();
        let (status, first) = server
            .get(&format!("/api/puzzles/next?family={family}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{first}");
        assert_eq!(first["family"], family);
        let (_, second) = server
            .get(&format!(
                "/api/puzzles/next?family={family}&after={}",
                first["id"].as_str().unwrap()
            ))
            .await;
        assert_ne!(second["id"], first["id"]);
    }
    server.stop().await;
}

async fn a_signed_in_players_first_attempt_is_rated_once(db: &str) {
    let server = Server::start(db).await;
    let puzzles = shipped();
    let (a, b) = (&puzzles[0], &puzzles[1]);
    let mut browser = Browser::new(&server);
    assert_eq!(
        browser.sign_up("solver", PASSWORD).await.status,
        StatusCode::CREATED
    );

    // A wrong first move: the attempt fails, both ratings move.
    let wrong = wrong_move(&server, a).await;
    let answer = browser
        .post(
            &format!("/api/puzzles/{}/attempt", a.id),
            json!({"moves": [wrong]}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["result"], "wrong");
    assert_eq!(answer.body["expected"], a.line[0].as_str());
    assert_eq!(answer.body["solution"], json!(a.line));
    let change = &answer.body["rating"];
    assert_eq!(change["before"]["rating"], 1500);
    assert!(
        change["after"]["rating"].as_i64().unwrap() < 1500,
        "{change}"
    );
    assert!(
        change["puzzle_after"]["rating"].as_i64().unwrap()
            > change["puzzle_before"]["rating"].as_i64().unwrap()
    );
    let failed_at = change["after"]["rating"].as_i64().unwrap();

    // Solved the second time: not rated again.
    let moves = solver_moves(&server, a).await;
    let answer = browser
        .post(
            &format!("/api/puzzles/{}/attempt", a.id),
            json!({"moves": moves}),
        )
        .await;
    assert_eq!(answer.body["result"], "solved", "{}", answer.body);
    assert_eq!(answer.body["rating"], Value::Null);

    // Another puzzle solved at the first try: up.
    let moves = solver_moves(&server, b).await;
    let answer = browser
        .post(
            &format!("/api/puzzles/{}/attempt", b.id),
            json!({"moves": moves}),
        )
        .await;
    assert_eq!(answer.body["result"], "solved", "{}", answer.body);
    let up = answer.body["rating"]["after"]["rating"].as_i64().unwrap();
    assert!(up > failed_at, "{}", answer.body);

    // The list shows the player's rating and counts; the puzzles their own.
    let list = browser.send(Method::GET, "/api/puzzles", None).await.body;
    assert_eq!(list["signed_in"], true);
    assert_eq!(list["player"]["name"], "solver");
    assert_eq!(list["player"]["attempts"], 2);
    assert_eq!(list["player"]["solved"], 1);
    assert_eq!(list["player"]["rating"]["rating"], up);
    let shown = browser
        .send(Method::GET, &format!("/api/puzzles/{}", a.id), None)
        .await
        .body;
    assert_eq!(shown["attempts"], 1);
    assert_eq!(shown["solved"], 0);
    assert_eq!(shown["attempted"], true);

    // Giving up on a third counts as a failure, once.
    let c = &puzzles[2];
    let answer = browser
        .post(&format!("/api/puzzles/{}/solution", c.id), json!({}))
        .await;
    assert_eq!(answer.body["solution"], json!(c.line));
    assert!(answer.body["rating"]["after"]["rating"].as_i64().unwrap() < up);
    let again = browser
        .post(&format!("/api/puzzles/{}/solution", c.id), json!({}))
        .await;
    assert_eq!(again.body["rating"], Value::Null);

    // A puzzle begun with a right move and left for another has failed: solving it later
    // changes nothing.
    let d = puzzles
        .iter()
        .find(|p| p.moves >= 2 && ![&a.id, &b.id, &c.id].contains(&&p.id))
        .unwrap();
    let moves = solver_moves(&server, d).await;
    let answer = browser
        .post(
            &format!("/api/puzzles/{}/attempt", d.id),
            json!({"moves": [moves[0]]}),
        )
        .await;
    assert_eq!(answer.body["result"], "right", "{}", answer.body);
    assert_eq!(answer.body["rating"], Value::Null);
    let before = browser.send(Method::GET, "/api/puzzles", None).await.body;
    assert_eq!(
        before["player"]["attempts"], 3,
        "begun is not yet ended: {before}"
    );
    let next = browser
        .send(
            Method::GET,
            &format!("/api/puzzles/next?family={}", family_of(&server, d).await),
            None,
        )
        .await
        .body;
    assert_ne!(next["id"], d.id.as_str());
    let after = browser.send(Method::GET, "/api/puzzles", None).await.body;
    assert_eq!(after["player"]["attempts"], 4, "{after}");
    assert_eq!(after["player"]["solved"], 1, "{after}");
    assert!(
        after["player"]["rating"]["rating"].as_i64().unwrap()
            < before["player"]["rating"]["rating"].as_i64().unwrap()
    );
    let answer = browser
        .post(
            &format!("/api/puzzles/{}/attempt", d.id),
            json!({"moves": moves}),
        )
        .await;
    assert_eq!(answer.body["result"], "solved", "{}", answer.body);
    assert_eq!(
        answer.body["rating"],
        Value::Null,
        "only the first attempt counts"
    );

    // `next` offers a signed-in player puzzles not yet attempted.
    for _ in 0..10 {
        let next = browser
            .send(
                Method::GET,
                &format!("/api/puzzles/next?family={}", family_of(&server, a).await),
                None,
            )
            .await
            .body;
        assert_eq!(next["attempted"], false, "{next}");
    }
    server.stop().await;
}

async fn family_of(server: &Server, puzzle: &Puzzle) -> String {
    let (_, shown) = server.get(&format!("/api/puzzles/{}", puzzle.id)).await;
    shown["family"].as_str().unwrap().to_string()
}

async fn racing_attempts_are_rated_once_each(db: &str) {
    let server = Server::start(db).await;
    let puzzles = shipped();
    let mut browser = Browser::new(&server);
    assert_eq!(
        browser.sign_up("racer", PASSWORD).await.status,
        StatusCode::CREATED
    );
    let cookie = browser.cookie.clone();
    let origin = browser.origin.clone();
    // Eight attempts at one puzzle at once, then one at each of eight others at once.
    let wrong = wrong_move(&server, &puzzles[0]).await;
    let mut tasks = Vec::new();
    for k in 0..16 {
        let puzzle = if k < 8 { &puzzles[0] } else { &puzzles[k - 7] };
        let moves = if k < 8 {
            vec![wrong.clone()]
        } else {
            solver_moves(&server, puzzle).await
        };
        let request = server
            .client
            .post(server.url(&format!("/api/puzzles/{}/attempt", puzzle.id)))
            .header("content-type", "application/json")
            .header(
                "cookie",
                format!("denkmeter_session={}", cookie.clone().unwrap()),
            )
            .header("origin", origin.clone().unwrap())
            .body(json!({ "moves": moves }).to_string());
        tasks.push(tokio::spawn(async move {
            let response = request.send().await.unwrap();
            assert_eq!(response.status(), StatusCode::OK);
            response.json::<Value>().await.unwrap()
        }));
    }
    let mut rated_first = 0;
    for (k, task) in tasks.into_iter().enumerate() {
        let answer = task.await.unwrap();
        if k < 8 {
            assert_eq!(answer["result"], "wrong");
            rated_first += usize::from(!answer["rating"].is_null());
        } else {
            assert_eq!(answer["result"], "solved", "{answer}");
            assert!(!answer["rating"].is_null(), "a first attempt is rated");
        }
    }
    assert_eq!(rated_first, 1, "one puzzle's attempts at once: one rated");
    let list = browser.send(Method::GET, "/api/puzzles", None).await.body;
    assert_eq!(list["player"]["attempts"], 9, "{list}");
    assert_eq!(list["player"]["solved"], 8, "{list}");
    let (_, first) = server.get(&format!("/api/puzzles/{}", puzzles[0].id)).await;
    assert_eq!(first["attempts"], 1);
    server.stop().await;
}

async fn bad_attempts_are_refused_and_change_nothing(db: &str) {
    let server = Server::start(db).await;
    let puzzles = shipped();
    let puzzle = &puzzles[0];
    let path = format!("/api/puzzles/{}/attempt", puzzle.id);
    let mut browser = Browser::new(&server);
    assert_eq!(
        browser.sign_up("careful", PASSWORD).await.status,
        StatusCode::CREATED
    );

    for (body, why) in [
        (json!({"moves": []}), "no move"),
        (json!({"moves": ["no such move"]}), "illegal"),
        (
            json!({"moves": puzzle.line.iter().chain(puzzle.line.iter()).collect::<Vec<_>>()}),
            "too many",
        ),
        (json!({"moves": "e2-e4"}), "not a list"),
        (json!({"moves": [], "solution": true}), "unknown field"),
    ] {
        let answer = browser.post(&path, body).await;
        assert!(
            answer.status == StatusCode::BAD_REQUEST
                || answer.status == StatusCode::UNPROCESSABLE_ENTITY,
            "{why}: {} {}",
            answer.status,
            answer.body
        );
        assert!(answer.body["error"].is_string(), "{why}: {}", answer.body);
    }
    let (status, _) = server.get("/api/puzzles/000000000000").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = server
        .post("/api/puzzles/000000000000/attempt", json!({"moves": ["a"]}))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = server.get("/api/puzzles/next?family=no-such-game").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // A session's attempt from another site's page is refused before anything is recorded.
    let mut stranger = Browser::new(&server);
    stranger.cookie = browser.cookie.clone();
    stranger.origin = Some("http://evil.example".into());
    let wrong = wrong_move(&server, puzzle).await;
    let answer = stranger.post(&path, json!({"moves": [wrong]})).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.body);
    let answer = stranger
        .post(&format!("/api/puzzles/{}/solution", puzzle.id), json!({}))
        .await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.body);

    // Nothing was recorded: the player is unrated and the first real attempt is rated.
    let list = browser.send(Method::GET, "/api/puzzles", None).await.body;
    assert_eq!(list["player"], Value::Null, "{list}");
    let answer = browser.post(&path, json!({"moves": [wrong]})).await;
    assert_eq!(answer.body["result"], "wrong");
    assert!(!answer.body["rating"].is_null());
    server.stop().await;
}

async fn problem_collections_are_listed_in_order_and_never_rated(db: &str) {
    let server = Server::start(db).await;
    let (_, list) = server.get("/api/puzzles").await;
    let families: Vec<&str> = list["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["family"].as_str().unwrap())
        .collect();
    assert_eq!(families, ["chad", "shakti"], "{list}");
    let (status, shakti) = server.get("/api/problems/shakti").await;
    assert_eq!(status, StatusCode::OK, "{shakti}");
    let problems = shakti["problems"].as_array().unwrap();
    let listed = list["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["family"] == "shakti")
        .unwrap();
    assert_eq!(listed["count"].as_u64().unwrap() as usize, problems.len());
    for (k, problem) in problems.iter().enumerate() {
        assert_eq!(problem["number"], k + 1);
        assert!(problem["moves"].as_u64().unwrap() >= 3, "{problem}");
        assert!(problem.get("line").is_none());
    }
    let (status, _) = server.get("/api/problems/english").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // A problem is solved like a puzzle, but a signed-in player's attempt is not rated, and
    // `next` never offers one.
    let id = problems[0]["id"].as_str().unwrap();
    let (_, shown) = server.get(&format!("/api/puzzles/{id}")).await;
    assert_eq!(shown["collection"], "problems");
    assert_eq!(shown["number"], 1);
    assert_eq!(shown["of"], problems.len());
    let problem = Puzzle {
        id: id.to_string(),
        ruleset: shown["ruleset"].as_str().unwrap().to_string(),
        position: shown["position"].as_str().unwrap().to_string(),
        moves: shown["moves"].as_u64().unwrap() as u32,
        line: Vec::new(),
        source: String::new(),
    };
    let mut browser = Browser::new(&server);
    assert_eq!(
        browser.sign_up("reader", PASSWORD).await.status,
        StatusCode::CREATED
    );
    let answer = browser
        .post(&format!("/api/puzzles/{id}/solution"), json!({}))
        .await;
    let line: Vec<String> = serde_json::from_value(answer.body["solution"].clone()).unwrap();
    assert_eq!(answer.body["rating"], Value::Null);
    let problem = Puzzle { line, ..problem };
    let moves = solver_moves(&server, &problem).await;
    let answer = browser
        .post(
            &format!("/api/puzzles/{id}/attempt"),
            json!({"moves": moves}),
        )
        .await;
    assert_eq!(answer.body["result"], "solved", "{}", answer.body);
    assert_eq!(answer.body["rating"], Value::Null);
    let list = browser.send(Method::GET, "/api/puzzles", None).await.body;
    assert_eq!(list["player"], Value::Null, "nothing recorded: {list}");
    for _ in 0..20 {
        let (_, next) = server.get("/api/puzzles/next?family=shakti").await;
        assert_eq!(next["collection"], "puzzles");
    }
    server.stop().await;
}

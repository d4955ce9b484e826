//! The analysis board over HTTP: positions replayed from every kind of start or set up by hand
//! and checked by the rules; its engine socket streaming depth by depth, replaced, stopped, and
//! refused while the viewer plays; and every refusal.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use super::players::{Browser, PASSWORD};
use super::{database, drop_database, human, Server, Socket};

on_both_databases!(
    searches_count_against_the_moves_limit,
    the_engine_takes_turns_and_each_address_has_two,
    the_board_replays_moves_from_every_start,
    positions_set_up_by_hand_are_checked_by_the_rules,
    the_engine_streams_depth_by_depth_and_follows_the_page,
    the_engine_is_off_while_the_viewer_plays,
);

/// The start of an English checkers game, as typed.
const ENGLISH: [&str; 4] = ["11-15", "22-18", "15x22", "25x18"];

async fn positions(server: &Server, body: Value) -> (StatusCode, Value) {
    server.post("/api/positions", body).await
}

/// A finished English game of [`ENGLISH`] and a resignation.
async fn finished_english(server: &Server) -> String {
    let (id, tokens) = server.create("english", human(), human()).await;
    for (i, mv) in ENGLISH.iter().enumerate() {
        let seat = if i % 2 == 0 { "white" } else { "black" };
        let (status, view) = server.play(&id, &tokens[seat], mv).await;
        assert_eq!(status, StatusCode::OK, "{mv}: {view}");
    }
    let (status, _) = server
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": tokens["white"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    id
}

async fn the_board_replays_moves_from_every_start(db: &str) {
    let server = Server::start(db).await;
    let (status, start) =
        positions(&server, json!({"ruleset": "english", "with_board": true})).await;
    assert_eq!(status, StatusCode::OK, "{start}");
    assert_eq!(start["ply"], 0);
    assert_eq!(start["moves"], json!([]));
    assert_eq!(start["position"], start["start_position"]);
    assert_eq!(start["legal_moves"].as_array().unwrap().len(), 7);
    assert_eq!(
        start["side_names"],
        json!({"white": "Black", "black": "White"})
    );
    assert_eq!(start["grid"].as_object().unwrap().len(), 24);
    let tokens: Vec<&str> = start["editor"]["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["text"].as_str().unwrap())
        .collect();
    assert!(tokens.contains(&"M") && tokens.contains(&"m"), "{tokens:?}");
    assert!(start["board"]["cells"].as_array().unwrap().len() == 64);

    // Moves from the start; the drawing is sent only when asked for.
    let (status, after) = positions(&server, json!({"ruleset": "english", "moves": ENGLISH})).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["ply"], 4);
    assert_eq!(after["moves"], json!(ENGLISH));
    assert_eq!(after["last_move"]["text"], "25x18");
    assert!(after.get("board").is_none() && after.get("editor").is_none());
    assert_eq!(after["grid"].as_object().unwrap().len(), 22);
    assert_eq!(after["status"], "ongoing");
    assert_eq!(after["outcome"], Value::Null);

    // From the position reached, the same position again.
    let (status, again) = positions(
        &server,
        json!({"ruleset": "english", "position": after["position"]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["position"], after["position"]);
    assert_eq!(again["legal_moves"], after["legal_moves"]);

    // A finished game's start: refused while it is played, then its moves and more.
    let (live, _) = server.create("english", human(), human()).await;
    let (status, refused) = positions(&server, json!({"game": live})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    let id = finished_english(&server).await;
    let mut line: Vec<&str> = ENGLISH.to_vec();
    line.push("8-11");
    let (status, of_game) = positions(
        &server,
        json!({"game": id, "moves": line, "with_board": true}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{of_game}");
    assert_eq!(of_game["ply"], 5);
    assert_eq!(of_game["display_name"], start["display_name"]);

    // An analysis's start.
    let (status, asked) = server
        .post(&format!("/api/games/{id}/analyses"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    let (status, of_analysis) = positions(
        &server,
        json!({"analysis": asked["id"], "moves": ENGLISH[..1]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{of_analysis}");
    assert_eq!(of_analysis["moves"], json!(["11-15"]));

    // A game that ends on the board says how.
    let (status, over) = positions(
        &server,
        json!({"ruleset": "english", "position": "8/8/8/8/8/8/8/d7 w"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{over}");
    assert_eq!(over["status"], "over");
    assert_eq!(over["legal_moves"], json!([]));
    assert!(
        over["outcome"].as_str().unwrap().starts_with("White wins"),
        "{over}"
    );

    // Refusals.
    let too_many: Vec<&str> = std::iter::repeat("11-15").take(1001).collect();
    for (body, expected, words) in [
        (
            json!({"ruleset": "english", "moves": ["11-15", "11-15"]}),
            StatusCode::BAD_REQUEST,
            "move 2",
        ),
        (
            json!({"ruleset": "english", "moves": too_many}),
            StatusCode::BAD_REQUEST,
            "at most 1000",
        ),
        (
            json!({"ruleset": "english", "position": "9/9 w"}),
            StatusCode::BAD_REQUEST,
            "start position",
        ),
        (json!({"ruleset": "nope"}), StatusCode::NOT_FOUND, "nope"),
        (
            json!({}),
            StatusCode::BAD_REQUEST,
            "one of ruleset, game and analysis",
        ),
        (
            json!({"ruleset": "english", "game": id}),
            StatusCode::BAD_REQUEST,
            "one of",
        ),
        (
            json!({"game": id, "position": "8/8/8/8/8/8/8/8 w"}),
            StatusCode::BAD_REQUEST,
            "its own board",
        ),
        (json!({"game": "nosuchgame"}), StatusCode::NOT_FOUND, ""),
        (json!({"analysis": "nosuch"}), StatusCode::NOT_FOUND, ""),
        (
            json!({"ruleset": "english", "to_move": "white"}),
            StatusCode::BAD_REQUEST,
            "to_move goes with a grid",
        ),
        (
            json!({"ruleset": "english", "colour": "red"}),
            StatusCode::BAD_REQUEST,
            "unknown field",
        ),
    ] {
        let (status, answer) = positions(&server, body.clone()).await;
        assert_eq!(status, expected, "{body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap_or("").contains(words),
            "{body}: {answer}"
        );
    }
    server.stop().await;
}

async fn positions_set_up_by_hand_are_checked_by_the_rules(db: &str) {
    let server = Server::start(db).await;
    let (_, start) = positions(&server, json!({"ruleset": "chad", "with_board": true})).await;
    let cell = |name: &str| {
        start["board"]["cells"]
            .as_array()
            .unwrap()
            .iter()
            .position(|c| c["name"] == name)
            .unwrap()
            .to_string()
    };
    // The start's own grid sets up the start again.
    let (status, same) = positions(
        &server,
        json!({"ruleset": "chad", "grid": start["grid"], "to_move": "white"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{same}");
    assert_eq!(same["position"], start["position"]);
    assert_eq!(same["legal_moves"], start["legal_moves"]);
    // Black to move.
    let (status, black) = positions(
        &server,
        json!({"ruleset": "chad", "grid": start["grid"], "to_move": "black"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{black}");
    assert_eq!(black["to_move"], "black");
    assert!(black["position"].as_str().unwrap().ends_with(" b"));

    // A rook alone: the rules refuse it, in their words.
    let mut grid = serde_json::Map::new();
    grid.insert(cell("A1"), json!("R"));
    let (status, refused) = positions(
        &server,
        json!({"ruleset": "chad", "grid": grid, "to_move": "white"}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("invalid position"),
        "{refused}"
    );

    // Shakti: a square without its tile is set up as one.
    let (_, shakti) = positions(&server, json!({"ruleset": "shakti", "with_board": true})).await;
    let absent = shakti["absent"].as_array().unwrap().len();
    let dashes = shakti["grid"]
        .as_object()
        .unwrap()
        .values()
        .filter(|t| *t == "-")
        .count();
    assert_eq!((absent, dashes), (4, 4), "{shakti}");

    for (body, words) in [
        (
            json!({"ruleset": "chad", "grid": {"0": "Z"}, "to_move": "white"}),
            "not a piece of this game",
        ),
        (
            json!({"ruleset": "chad", "grid": {"x": "R"}, "to_move": "white"}),
            "not a cell number",
        ),
        (
            json!({"ruleset": "chad", "grid": {"999": "R"}, "to_move": "white"}),
            "not on the board",
        ),
        (
            json!({"ruleset": "chad", "grid": {}, "to_move": "red"}),
            "to_move",
        ),
        (json!({"ruleset": "chad", "grid": {}}), "to_move"),
        (
            json!({"ruleset": "chad", "grid": start["grid"], "to_move": "white", "moves": ["A1-A2"]}),
            "no moves",
        ),
        (
            json!({"ruleset": "chad", "grid": start["grid"], "to_move": "white", "position": start["position"]}),
            "no other position",
        ),
    ] {
        let (status, answer) = positions(&server, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(words),
            "{body}: {answer}"
        );
    }
    server.stop().await;
}

/// The analysis board's engine socket, opened as a page of the server.
async fn engine_socket(server: &Server, cookie: Option<&str>) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{}/api/analysis/ws", server.addr)
        .into_client_request()
        .unwrap();
    let headers = request.headers_mut();
    headers.insert("origin", format!("http://{}", server.addr).parse().unwrap());
    if let Some(cookie) = cookie {
        headers.insert(
            "cookie",
            format!("denkmeter_session={cookie}").parse().unwrap(),
        );
    }
    tokio_tungstenite::connect_async(request).await.unwrap().0
}

async fn say(socket: &mut Socket, message: Value) {
    socket
        .send(Message::Text(message.to_string().into()))
        .await
        .unwrap();
}

/// The next JSON message (30 s at most: a search may wait for its turn).
async fn heard(socket: &mut Socket) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let message = tokio::time::timeout_at(deadline, socket.next())
            .await
            .expect("no message within 30 s")
            .expect("the socket ended")
            .unwrap();
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).unwrap();
        }
    }
}

/// The messages of search `id` until it is done (others skipped), the last one `done`.
async fn until_done(socket: &mut Socket, id: u64) -> Vec<Value> {
    let mut all = Vec::new();
    loop {
        let message = heard(socket).await;
        if message["id"] != id {
            continue;
        }
        let done = message["type"] == "done" || message["type"] == "error";
        all.push(message);
        if done {
            return all;
        }
    }
}

async fn the_engine_streams_depth_by_depth_and_follows_the_page(db: &str) {
    let server = Server::start(db).await;
    let mut socket = engine_socket(&server, None).await;
    // A Chad position searched until the page moves on: depths come one by one.
    say(
        &mut socket,
        json!({"type": "analyse", "id": 1, "ruleset": "chad"}),
    )
    .await;
    let mut depths = Vec::new();
    while depths.len() < 3 {
        let message = heard(&mut socket).await;
        assert_eq!(message["id"], 1, "{message}");
        match message["type"].as_str().unwrap() {
            "depth" => {
                assert_eq!(message["to_move"], "white");
                assert!(!message["pv"].as_array().unwrap().is_empty(), "{message}");
                let chances = message["white_chances"].as_f64().unwrap();
                assert!((0.0..=1.0).contains(&chances));
                depths.push(message["depth"].as_u64().unwrap());
            }
            "queued" | "paused" => {}
            other => panic!("unexpected {other}: {message}"),
        }
    }
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
    // The page moves on: the new position's search replaces the old one, whose messages stop.
    say(
        &mut socket,
        json!({"type": "analyse", "id": 2, "ruleset": "english", "moves": ENGLISH}),
    )
    .await;
    loop {
        let message = heard(&mut socket).await;
        if message["id"] == 2 {
            assert_eq!(message["type"], "depth", "{message}");
            // English after four moves: Black (the first player) to move again.
            assert_eq!(message["to_move"], "white");
            break;
        }
        assert_eq!(message["id"], 1, "{message}");
    }
    say(&mut socket, json!({"type": "stop"})).await;
    loop {
        let message = heard(&mut socket).await;
        assert_eq!(message["id"], 2, "{message}");
        if message["type"] == "done" {
            assert_eq!(message["reason"], "stopped");
            break;
        }
    }
    // A search runs to its end by itself: a position where the side to move is mated in one.
    say(
        &mut socket,
        json!({"type": "analyse", "id": 3, "ruleset": "english", "position": "8/8/8/2m5/1M6/8/8/8 w"}),
    )
    .await;
    let messages = until_done(&mut socket, 3).await;
    let last = messages.last().unwrap();
    assert_eq!(last["type"], "done", "{messages:?}");
    assert_eq!(last["reason"], "depth", "{messages:?}");
    // A position where the game is over.
    say(
        &mut socket,
        json!({"type": "analyse", "id": 4, "ruleset": "english", "position": "8/8/8/8/8/8/8/d7 w"}),
    )
    .await;
    let over = until_done(&mut socket, 4).await;
    assert_eq!(over.len(), 1, "{over:?}");
    assert_eq!(over[0]["reason"], "over");
    assert!(
        over[0]["text"].as_str().unwrap().contains("wins"),
        "{over:?}"
    );

    // Refusals keep the socket open.
    for (message, code) in [
        (
            json!({"type": "analyse", "id": 5, "ruleset": "nope"}),
            "not-found",
        ),
        (
            json!({"type": "analyse", "id": 6, "ruleset": "english", "moves": ["1-2"]}),
            "bad-request",
        ),
        (
            json!({"type": "analyse", "ruleset": "english"}),
            "bad-request",
        ),
        (json!({"type": "dance", "id": 7}), "bad-request"),
        (
            json!({"type": "analyse", "id": 8, "ruleset": "english", "extra": 1}),
            "bad-request",
        ),
    ] {
        say(&mut socket, message.clone()).await;
        let answer = heard(&mut socket).await;
        assert_eq!(answer["type"], "error", "{message}: {answer}");
        assert_eq!(answer["code"], code, "{message}: {answer}");
    }
    socket.send(Message::Text("not json".into())).await.unwrap();
    assert_eq!(heard(&mut socket).await["code"], "bad-request");
    // A burst of searches (a key held down): the ones replaced within 50 ms never start, and
    // the last one asked for runs.
    for id in 9..=12 {
        say(
            &mut socket,
            json!({"type": "analyse", "id": id, "ruleset": "english"}),
        )
        .await;
    }
    loop {
        let message = heard(&mut socket).await;
        assert_ne!(message["type"], "error", "{message}");
        assert!(message["id"] != 10 && message["id"] != 11, "{message}");
        if message["id"] == 12 {
            assert_eq!(message["type"], "depth", "{message}");
            break;
        }
    }
    say(&mut socket, json!({"type": "stop"})).await;

    // A page of another site may not open the socket.
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{}/api/analysis/ws", server.addr)
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("origin", "http://evil.example".parse().unwrap());
    assert!(tokio_tungstenite::connect_async(request).await.is_err());
    server.stop().await;
}

async fn the_engine_is_off_while_the_viewer_plays(db: &str) {
    let server = Server::start(db).await;
    // A browser that holds a seat of a game going on lists it.
    let (live, tokens) = server.create("english", human(), human()).await;
    let (status, _) = server.play(&live, &tokens["white"], "11-15").await;
    assert_eq!(status, StatusCode::OK);
    let mut socket = engine_socket(&server, None).await;
    say(
        &mut socket,
        json!({"type": "analyse", "id": 1, "ruleset": "english", "playing": [live]}),
    )
    .await;
    let refused = heard(&mut socket).await;
    assert_eq!(refused["code"], "live-game", "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains(&live),
        "{refused}"
    );
    // A finished game listed does not stop the engine.
    let finished = finished_english(&server).await;
    say(
        &mut socket,
        json!({"type": "analyse", "id": 2, "ruleset": "english", "playing": [finished]}),
    )
    .await;
    let heard_first = heard(&mut socket).await;
    assert_ne!(heard_first["type"], "error", "{heard_first}");
    let too_many: Vec<String> = (0..51).map(|i| format!("g{i}")).collect();
    say(
        &mut socket,
        json!({"type": "analyse", "id": 3, "ruleset": "english", "playing": too_many}),
    )
    .await;
    let answer = loop {
        let message = heard(&mut socket).await;
        if message["id"] == 3 {
            break message;
        }
    };
    assert_eq!(answer["code"], "bad-request", "{answer}");

    // A signed-in player's game of his account's, whatever the page lists.
    let mut alice = Browser::new(&server);
    assert_eq!(
        alice.sign_up("Alice", PASSWORD).await.status,
        StatusCode::CREATED
    );
    let created = alice
        .post(
            "/api/games",
            json!({"ruleset": "english", "white": human(), "black": human(), "me": "white"}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let game = created.body["id"].as_str().unwrap().to_string();
    let mut hers = engine_socket(&server, alice.cookie.as_deref()).await;
    say(
        &mut hers,
        json!({"type": "analyse", "id": 1, "ruleset": "chad"}),
    )
    .await;
    let refused = heard(&mut hers).await;
    assert_eq!(refused["code"], "live-game", "{refused}");
    // Its positions are not shown through the board either, while it is played.
    let (status, _) = positions(&server, json!({"game": game})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    say(
        &mut socket,
        json!({"type": "analyse", "id": 4, "game": game}),
    )
    .await;
    let answer = loop {
        let message = heard(&mut socket).await;
        if message["id"] == 4 {
            break message;
        }
    };
    assert_eq!(answer["code"], "still-played", "{answer}");
    // Over: the engine is back.
    let token = &created.body["tokens"]["white"];
    let resigned = alice
        .post(
            &format!("/api/games/{game}/resign"),
            json!({"token": token}),
        )
        .await;
    assert_eq!(resigned.status, StatusCode::OK, "{}", resigned.body);
    say(
        &mut hers,
        json!({"type": "analyse", "id": 2, "ruleset": "chad"}),
    )
    .await;
    let back = heard(&mut hers).await;
    assert_ne!(back["type"], "error", "{back}");
    server.stop().await;
}

async fn the_engine_takes_turns_and_each_address_has_two(db: &str) {
    // Two search threads: one analysis board search at a time.
    let mut config = super::test_config();
    config.rounds.search_threads = 2;
    // Addresses are counted (they are not behind a proxy).
    config.max_connections_per_address = 100;
    let server = Server::start_with(db, config).await;
    let mut first = engine_socket(&server, None).await;
    let mut second = engine_socket(&server, None).await;
    let mut third = engine_socket(&server, None).await;
    say(
        &mut first,
        json!({"type": "analyse", "id": 1, "ruleset": "chad"}),
    )
    .await;
    assert_eq!(heard(&mut first).await["type"], "depth");
    // The second waits for the first's turn.
    say(
        &mut second,
        json!({"type": "analyse", "id": 1, "ruleset": "chad"}),
    )
    .await;
    assert_eq!(heard(&mut second).await["type"], "queued");
    // A third from the same address is one too many.
    say(
        &mut third,
        json!({"type": "analyse", "id": 1, "ruleset": "chad"}),
    )
    .await;
    let refused = heard(&mut third).await;
    assert_eq!(refused["code"], "busy", "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains("at most 2"),
        "{refused}"
    );
    // The first stops: the second's turn comes.
    say(&mut first, json!({"type": "stop"})).await;
    loop {
        let message = heard(&mut second).await;
        if message["type"] == "depth" {
            break;
        }
        assert_eq!(message["type"], "queued", "{message}");
    }
    drop((first, second, third));
    server.stop().await;
}

async fn searches_count_against_the_moves_limit(db: &str) {
    let mut config = super::test_config();
    // A move a second, two at once.
    config.moves_per_second = 1;
    let server = Server::start_with(db, config).await;
    let mut socket = engine_socket(&server, None).await;
    for id in 1..=3 {
        say(
            &mut socket,
            json!({"type": "analyse", "id": id, "ruleset": "english"}),
        )
        .await;
    }
    let refused = loop {
        let message = heard(&mut socket).await;
        if message["id"] == 3 {
            break message;
        }
    };
    assert_eq!(refused["code"], "busy", "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("too many searches"),
        "{refused}"
    );
    drop(socket);
    server.stop().await;
}

//! Finding an opponent: challenges offered, seen live in the lobby, accepted once, played by
//! session; and every refusal.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::players::{Browser, PASSWORD};
use super::{database, drop_database, next_message, Server, Socket};

on_both_databases!(
    a_challenge_is_found_accepted_and_played_by_session,
    a_challenge_accepted_twice_at_once_makes_one_game,
    challenges_that_are_refused,
    sockets_close_when_their_session_ends,
);

/// Two signed-up players, Alice and Bob.
async fn alice_and_bob(server: &Server) -> (Browser<'_>, Browser<'_>) {
    let mut alice = Browser::new(server);
    let mut bob = Browser::new(server);
    assert_eq!(
        alice.sign_up("Alice", PASSWORD).await.status,
        StatusCode::CREATED
    );
    assert_eq!(
        bob.sign_up("Bob", PASSWORD).await.status,
        StatusCode::CREATED
    );
    (alice, bob)
}

/// A browser's lobby socket, with its session cookie and its page's origin.
async fn lobby_socket(browser: &Browser<'_>) -> Socket {
    socket_at(browser, "/api/lobby/ws").await
}

/// A browser's socket at `path`, with its session cookie and its page's origin.
async fn socket_at(browser: &Browser<'_>, path: &str) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let url = format!("ws://{}{path}", browser.server.addr);
    let mut request = url.into_client_request().unwrap();
    if let Some(cookie) = &browser.cookie {
        request.headers_mut().insert(
            "cookie",
            format!("denkmeter_session={cookie}").parse().unwrap(),
        );
    }
    request.headers_mut().insert(
        "origin",
        format!("http://{}", browser.server.addr).parse().unwrap(),
    );
    tokio_tungstenite::connect_async(request).await.unwrap().0
}

/// The next message of a type on a lobby socket.
async fn next_of(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let message = next_message(socket).await;
        if message["type"] == kind {
            return message;
        }
    }
}

const BLITZ: &str = r#"{"ruleset": "chad", "clock": {"main_seconds": 180, "increment_seconds": 2}, "rated": true, "colour": "white"}"#;

async fn a_challenge_is_found_accepted_and_played_by_session(db: &str) {
    let server = Server::start(db).await;
    let (mut alice, mut bob) = alice_and_bob(&server).await;
    let mut alices_lobby = lobby_socket(&alice).await;
    let first = next_of(&mut alices_lobby, "challenges").await;
    assert_eq!(first["challenges"], json!([]));
    let mut bobs_lobby = lobby_socket(&bob).await;
    next_of(&mut bobs_lobby, "challenges").await;

    let made = alice
        .post("/api/challenges", serde_json::from_str(BLITZ).unwrap())
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    let challenge = made.body["id"].as_str().unwrap().to_string();
    assert_eq!(made.body["category"], "chad/blitz");
    assert_eq!(
        made.body["by"],
        json!({"name": "Alice", "rating": 1500, "provisional": true})
    );
    // Bob's lobby shows it without asking.
    let seen = next_of(&mut bobs_lobby, "challenges").await;
    assert_eq!(seen["challenges"][0]["id"], challenge.as_str(), "{seen}");
    let (_, listed) = server.get("/api/challenges").await;
    assert_eq!(
        listed["challenges"][0]["rated"], true,
        "signed out, it is listed too"
    );

    let accepted = bob
        .post(&format!("/api/challenges/{challenge}/accept"), json!({}))
        .await;
    assert_eq!(accepted.status, StatusCode::CREATED, "{}", accepted.body);
    assert_eq!(accepted.body["seat"], "black", "Alice asked for white");
    let game = accepted.body["game"].as_str().unwrap().to_string();
    let bob_token = accepted.body["token"].clone();
    // Alice's lobby tells her page to open the game.
    let told = next_of(&mut alices_lobby, "accepted").await;
    assert_eq!(
        told,
        json!({"type": "accepted", "challenge": challenge, "game": game})
    );
    // Had her page missed it, the challenge itself says where the game is: to her, not to
    // a stranger once it is no longer open.
    let mine = alice
        .send(Method::GET, &format!("/api/challenges/{challenge}"), None)
        .await;
    assert_eq!(
        (&mine.body["status"], &mine.body["game"]),
        (&json!("accepted"), &json!(game)),
        "{}",
        mine.body
    );
    let (status, _) = server.get(&format!("/api/challenges/{challenge}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let again = bob
        .post(&format!("/api/challenges/{challenge}/accept"), json!({}))
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);

    // Alice plays by her session alone: no token.
    let view = alice
        .send(Method::GET, &format!("/api/games/{game}"), None)
        .await;
    assert_eq!(view.body["you"], "white", "{}", view.body);
    assert_eq!(view.body["rated"], true);
    assert_eq!(view.body["white"]["player"]["name"], "Alice");
    assert_eq!(view.body["black"]["player"]["name"], "Bob");
    let first_move = view.body["legal_moves"][0]["text"].clone();
    let moved = alice
        .post(
            &format!("/api/games/{game}/moves"),
            json!({"move": first_move}),
        )
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.body);
    let reply = server.first_legal_move(&game, &bob_token).await;
    assert_eq!(
        server.play(&game, &bob_token, &reply).await.0,
        StatusCode::OK
    );
    // A stranger signed in is a spectator and cannot act.
    let mut carol = Browser::new(&server);
    carol.sign_up("Carol", PASSWORD).await;
    let view = carol
        .send(Method::GET, &format!("/api/games/{game}"), None)
        .await;
    assert_eq!(view.body["you"], Value::Null);
    for (action, body) in [
        ("resign", json!({})),
        ("moves", json!({"move": first_move})),
        ("draw", json!({"action": "offer"})),
        ("takeback", json!({"action": "offer"})),
        ("hint", json!({})),
    ] {
        let refused = carol
            .post(&format!("/api/games/{game}/{action}"), body)
            .await;
        assert_eq!(
            refused.status,
            StatusCode::FORBIDDEN,
            "{action}: {}",
            refused.body
        );
    }
    // Alice's own session, sent from another site's page: refused on every route that acts.
    alice.origin = Some("http://evil.example".into());
    for path in [
        format!("/api/games/{game}/resign"),
        format!("/api/games/{game}/moves"),
        format!("/api/games/{game}/draw"),
        format!("/api/games/{game}/takeback"),
        format!("/api/games/{game}/hint"),
        format!("/api/games/{game}/claim"),
        format!("/api/challenges/{challenge}/accept"),
    ] {
        let refused = alice.post(&path, json!({"action": "offer"})).await;
        assert_eq!(
            refused.status,
            StatusCode::FORBIDDEN,
            "{path}: {}",
            refused.body
        );
    }
    let refused = alice
        .send(
            Method::DELETE,
            &format!("/api/challenges/{challenge}"),
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    alice.origin = Some(format!("http://{}", server.addr));
    // Alice resigns by session: both ratings move, by the same amount between equals.
    let over = alice
        .post(&format!("/api/games/{game}/resign"), json!({}))
        .await;
    assert_eq!(over.status, StatusCode::OK, "{}", over.body);
    let changes = &over.body["rating_changes"];
    let delta = |seat: &str| {
        changes[seat]["after"].as_f64().unwrap() - changes[seat]["before"].as_f64().unwrap()
    };
    assert!(delta("white") < 0.0 && delta("black") > 0.0, "{changes}");
    assert!((delta("white") + delta("black")).abs() < 0.25, "{changes}");
    let (_, page) = server.get("/api/players/Bob").await;
    assert_eq!(page["recent"][0]["opponent"], "Alice");
    assert_eq!(page["recent"][0]["result"], "win");
    let (_, listed) = server.get("/api/challenges").await;
    assert_eq!(
        listed["challenges"],
        json!([]),
        "an accepted challenge leaves the lobby"
    );
    server.stop().await;
}

async fn a_challenge_accepted_twice_at_once_makes_one_game(db: &str) {
    use sqlx::Row;
    let a = Server::start(db).await;
    let b = Server::start(db).await;
    let (mut alice, mut bob) = alice_and_bob(&a).await;
    let mut carol = Browser::new(&b);
    carol.sign_up("Carol", PASSWORD).await;
    for _ in 0..3 {
        let made = alice
            .post("/api/challenges", serde_json::from_str(BLITZ).unwrap())
            .await;
        let id = made.body["id"].as_str().unwrap().to_string();
        let path = format!("/api/challenges/{id}/accept");
        let (first, second) =
            tokio::join!(bob.post(&path, json!({})), carol.post(&path, json!({})));
        let mut statuses = [first.status, second.status];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::CREATED, StatusCode::CONFLICT],
            "{} / {}",
            first.body,
            second.body
        );
    }
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(db).await.unwrap();
    let games: i64 = sqlx::query("SELECT COUNT(*) AS n FROM games")
        .fetch_one(&pool)
        .await
        .unwrap()
        .get("n");
    pool.close().await;
    assert_eq!(games, 3, "one game per challenge");
    a.stop().await;
    b.stop().await;
}

async fn challenges_that_are_refused(db: &str) {
    let server = Server::start(db).await;
    let (mut alice, mut bob) = alice_and_bob(&server).await;
    let mut carol = Browser::new(&server);
    carol.sign_up("Carol", PASSWORD).await;
    let blitz: Value = serde_json::from_str(BLITZ).unwrap();
    // Signed out: no challenge, no accepting.
    let mut stranger = Browser::new(&server);
    let answer = stranger.post("/api/challenges", blitz.clone()).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    for (body, status, says) in [
        (
            json!({"ruleset": "chad", "rated": true}),
            StatusCode::BAD_REQUEST,
            "clock",
        ),
        (
            json!({"ruleset": "nothing"}),
            StatusCode::NOT_FOUND,
            "nothing",
        ),
        (
            json!({"ruleset": "chad", "colour": "green"}),
            StatusCode::BAD_REQUEST,
            "colour",
        ),
        (
            json!({"ruleset": "chad", "to": "Nobody"}),
            StatusCode::NOT_FOUND,
            "no such player",
        ),
        (
            json!({"ruleset": "chad", "to": "alice"}),
            StatusCode::BAD_REQUEST,
            "yourself",
        ),
        (
            json!({"ruleset": "chad", "extra": 1}),
            StatusCode::BAD_REQUEST,
            "extra",
        ),
    ] {
        let answer = alice.post("/api/challenges", body.clone()).await;
        assert_eq!(answer.status, status, "{body}: {}", answer.body);
        assert!(
            answer.body["error"].as_str().unwrap().contains(says),
            "{}",
            answer.body
        );
    }
    // A challenge to Bob: Carol neither sees nor takes it; Alice cannot take her own.
    let named = alice
        .post("/api/challenges", json!({"ruleset": "chad", "to": "bob"}))
        .await;
    assert_eq!(named.status, StatusCode::CREATED, "{}", named.body);
    assert_eq!(named.body["to"], "Bob");
    let id = named.body["id"].as_str().unwrap().to_string();
    let seen = |b: &Value| {
        b["challenges"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == id.as_str())
    };
    assert!(!seen(
        &carol.send(Method::GET, "/api/challenges", None).await.body
    ));
    assert!(!seen(&server.get("/api/challenges").await.1));
    assert!(seen(
        &bob.send(Method::GET, "/api/challenges", None).await.body
    ));
    assert!(seen(
        &alice.send(Method::GET, "/api/challenges", None).await.body
    ));
    let path = format!("/api/challenges/{id}/accept");
    assert_eq!(
        carol.post(&path, json!({})).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        alice.post(&path, json!({})).await.status,
        StatusCode::CONFLICT
    );
    assert_eq!(
        stranger.post(&path, json!({})).await.status,
        StatusCode::UNAUTHORIZED
    );
    // Only Alice cancels it; then nobody can take it.
    let cancel = format!("/api/challenges/{id}");
    assert_eq!(
        bob.send(Method::DELETE, &cancel, None).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        alice.send(Method::DELETE, &cancel, None).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        bob.post(&path, json!({})).await.status,
        StatusCode::CONFLICT
    );
    assert_eq!(
        alice.send(Method::DELETE, &cancel, None).await.status,
        StatusCode::CONFLICT
    );
    assert_eq!(
        bob.post("/api/challenges/nothing/accept", json!({}))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    // At most three open at once.
    for _ in 0..3 {
        assert_eq!(
            alice.post("/api/challenges", blitz.clone()).await.status,
            StatusCode::CREATED
        );
    }
    let fourth = alice.post("/api/challenges", blitz.clone()).await;
    assert_eq!(fourth.status, StatusCode::CONFLICT, "{}", fourth.body);
    // From another site's page, with the session: refused.
    bob.origin = Some("http://evil.example".into());
    let answer = bob.post("/api/challenges", blitz).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    server.stop().await;
}

/// Whether the socket ends within `limit` (a close, or the stream's end), reading past the
/// messages before it.
async fn ends_within(socket: &mut Socket, limit: std::time::Duration) -> bool {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(deadline, socket.next()).await {
            Err(_) => return false,
            Ok(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) => return true,
            Ok(Some(Ok(_))) => {}
        }
    }
}

/// A socket opened by a session sees the account's seat only while the session lasts: signed
/// out, the game's socket and the lobby's close.
async fn sockets_close_when_their_session_ends(db: &str) {
    let server = Server::start(db).await;
    let (mut alice, mut bob) = alice_and_bob(&server).await;
    let made = alice
        .post("/api/challenges", serde_json::from_str(BLITZ).unwrap())
        .await;
    let challenge = made.body["id"].as_str().unwrap().to_string();
    let accepted = bob
        .post(&format!("/api/challenges/{challenge}/accept"), json!({}))
        .await;
    let game = accepted.body["game"].as_str().unwrap().to_string();
    let mut seat = socket_at(&alice, &format!("/api/games/{game}/ws")).await;
    let view = next_message(&mut seat).await;
    assert_eq!(view["view"]["you"], "white", "{view}");
    let mut lobby = lobby_socket(&alice).await;
    next_of(&mut lobby, "challenges").await;
    let out = alice.post("/api/account/signout", json!({})).await;
    assert_eq!(out.status, StatusCode::NO_CONTENT);
    let limit = std::time::Duration::from_secs(25);
    assert!(
        ends_within(&mut seat, limit).await,
        "the game's socket outlived the session"
    );
    assert!(
        ends_within(&mut lobby, limit).await,
        "the lobby's socket outlived the session"
    );
    server.stop().await;
}

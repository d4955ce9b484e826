//! Players' accounts and sessions through the API, as a browser uses them: the session in a
//! cookie, changes sent from the server's own pages; and every refusal.

use std::time::{Duration, Instant};

use reqwest::header::HeaderMap;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::{database, drop_database, test_config, Server};
use denkmeter_server::ServerConfig;

/// A browser: its session cookie, if it has one, and the origin its pages come from.
pub(super) struct Browser<'s> {
    pub(super) server: &'s Server,
    pub(super) cookie: Option<String>,
    pub(super) origin: Option<String>,
    /// The session cookie's name (`__Host-denkmeter_session` behind https).
    pub(super) cookie_name: &'static str,
}

/// The answer to a request: status, JSON body and headers.
pub(super) struct Answer {
    pub(super) status: StatusCode,
    pub(super) body: Value,
    headers: HeaderMap,
}

impl Answer {
    /// The session cookie the answer sets (`Some("")` when it clears it) and its attributes.
    fn set_cookie(&self) -> Option<(String, String)> {
        let text = self.headers.get("set-cookie")?.to_str().ok()?.to_string();
        let value = text
            .strip_prefix("denkmeter_session=")
            .or_else(|| text.strip_prefix("__Host-denkmeter_session="))?
            .split(';')
            .next()?
            .to_string();
        Some((value, text))
    }
}

impl<'s> Browser<'s> {
    /// A browser on the server's own pages.
    pub(super) fn new(server: &'s Server) -> Browser<'s> {
        Browser {
            server,
            cookie: None,
            origin: Some(format!("http://{}", server.addr)),
            cookie_name: "denkmeter_session",
        }
    }

    pub(super) async fn send(&mut self, method: Method, path: &str, body: Option<Value>) -> Answer {
        let mut request = self
            .server
            .client
            .request(method, self.server.url(path))
            .header("content-type", "application/json");
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", format!("{}={cookie}", self.cookie_name));
        }
        if let Some(origin) = &self.origin {
            request = request.header("origin", origin);
        }
        if let Some(body) = body {
            request = request.body(body.to_string());
        }
        let response = request.send().await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let body = response.json().await.unwrap_or(Value::Null);
        let answer = Answer {
            status,
            body,
            headers,
        };
        // As a browser does: keep a cookie set, forget a cleared one.
        if let Some((value, _)) = answer.set_cookie() {
            self.cookie = Some(value).filter(|v| !v.is_empty());
        }
        answer
    }

    pub(super) async fn post(&mut self, path: &str, body: Value) -> Answer {
        self.send(Method::POST, path, Some(body)).await
    }

    pub(super) async fn sign_up(&mut self, name: &str, password: &str) -> Answer {
        self.post(
            "/api/account/signup",
            json!({"name": name, "password": password}),
        )
        .await
    }

    pub(super) async fn sign_in(&mut self, name: &str, password: &str) -> Answer {
        self.post(
            "/api/account/signin",
            json!({"name": name, "password": password}),
        )
        .await
    }

    /// Who the server says is signed in.
    pub(super) async fn who(&mut self) -> Value {
        let answer = self.send(Method::GET, "/api/account", None).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
        answer.body["name"].clone()
    }
}

pub(super) const PASSWORD: &str = "correct horse battery";

on_both_databases!(
    a_rated_game_against_the_computer,
    rated_games_that_are_refused,
    a_rated_result_is_applied_once_by_two_servers,
    an_account_is_made_used_changed_and_deleted,
    names_and_passwords_that_are_refused,
    a_session_acts_only_from_the_servers_own_pages,
    sessions_are_stored_hashed_and_expire,
    a_session_cookie_is_the_hosts_own_behind_https_and_comes_once,
);

/// Behind https the cookie is `__Host-` (no other site, sibling subdomains included, can plant
/// one); on plain http a second session cookie, as a planted one would come, signs nobody in:
/// what needs a session is refused with 400 saying why, and signing out still works.
async fn a_session_cookie_is_the_hosts_own_behind_https_and_comes_once(db: &str) {
    let site = "https://games.example.org";
    let config = ServerConfig {
        public_url: Some(site.into()),
        ..test_config()
    };
    let server = Server::start_with(db, config).await;
    let mut alice = Browser::new(&server);
    alice.origin = Some(site.into());
    alice.cookie_name = "__Host-denkmeter_session";
    let made = alice.sign_up("Alice", PASSWORD).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    let (_, attributes) = made.set_cookie().unwrap();
    assert!(
        attributes.starts_with("__Host-denkmeter_session="),
        "{attributes}"
    );
    for attribute in ["; Secure", "; Path=/", "; HttpOnly"] {
        assert!(attributes.contains(attribute), "{attributes}");
    }
    assert!(!attributes.contains("Domain"), "{attributes}");
    assert_eq!(alice.who().await, "Alice");
    // The plain name means nothing here.
    alice.cookie_name = "denkmeter_session";
    assert_eq!(alice.who().await, Value::Null);

    let server = Server::start(db).await;
    let mut bob = Browser::new(&server);
    assert_eq!(
        bob.sign_up("Bob", PASSWORD).await.status,
        StatusCode::CREATED
    );
    let mut mallory = Browser::new(&server);
    assert_eq!(
        mallory.sign_up("Mallory", PASSWORD).await.status,
        StatusCode::CREATED
    );
    let (Some(bobs), Some(planted)) = (bob.cookie.clone(), mallory.cookie.clone()) else {
        panic!("both are signed in");
    };
    // Bob's browser sends his cookie and one planted for the domain, in either order.
    for pair in [
        format!("{bobs}; denkmeter_session={planted}"),
        format!("{planted}; denkmeter_session={bobs}"),
    ] {
        bob.cookie = Some(pair);
        assert_eq!(bob.who().await, Value::Null, "neither cookie signs in");
        let answer = bob
            .post(
                "/api/challenges",
                json!({"ruleset": "chad", "clock": null, "rated": false, "colour": "white"}),
            )
            .await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.body);
        assert!(
            answer.body["error"]
                .as_str()
                .is_some_and(|e| e.contains("two denkmeter_session cookies")),
            "{}",
            answer.body
        );
    }
    // Signing out clears this server's cookie.
    let answer = bob.post("/api/account/signout", json!({})).await;
    assert_eq!(answer.status, StatusCode::NO_CONTENT, "{}", answer.body);
    assert_eq!(
        answer.set_cookie().map(|(value, _)| value),
        Some(String::new())
    );
    bob.cookie = Some(bobs);
    assert_eq!(
        bob.who().await,
        "Bob",
        "signing out with two cookies ended no session"
    );
}

async fn an_account_is_made_used_changed_and_deleted(db: &str) {
    let server = Server::start(db).await;
    let mut alice = Browser::new(&server);
    assert_eq!(alice.who().await, Value::Null, "nobody is signed in yet");
    let made = alice.sign_up("Alice", PASSWORD).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    assert_eq!(made.body["name"], "Alice");
    let (_, attributes) = made.set_cookie().unwrap();
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(attributes.contains(attribute), "{attributes}");
    }
    assert!(!attributes.contains("Secure"), "plain http: {attributes}");
    assert_eq!(alice.who().await, "Alice");

    // Another browser signs in with the name in any case; a wrong password and an unknown name
    // get the same answer.
    let mut phone = Browser::new(&server);
    let wrong = phone.sign_in("alice", "correct horse batterY").await;
    let unknown = phone.sign_in("Alicia", PASSWORD).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert_eq!((unknown.status, &unknown.body), (wrong.status, &wrong.body));
    assert!(wrong.set_cookie().is_none() && phone.cookie.is_none());
    let signed_in = phone.sign_in("alice", PASSWORD).await;
    assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.body);
    assert_eq!(
        signed_in.body["name"], "Alice",
        "the name as it was typed at sign-up"
    );
    assert_eq!(phone.who().await, "Alice");

    // A new password: the current one must confirm it; the other browser is signed out.
    let new_password = "a much better passphrase";
    let refused = alice
        .post(
            "/api/account/password",
            json!({"password": "not it at all", "new_password": new_password}),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{}", refused.body);
    let weak = alice
        .post(
            "/api/account/password",
            json!({"password": PASSWORD, "new_password": "password"}),
        )
        .await;
    assert_eq!(weak.status, StatusCode::BAD_REQUEST, "{}", weak.body);
    let changed = alice
        .post(
            "/api/account/password",
            json!({"password": PASSWORD, "new_password": new_password}),
        )
        .await;
    assert_eq!(changed.status, StatusCode::NO_CONTENT, "{}", changed.body);
    assert_eq!(
        alice.who().await,
        "Alice",
        "the browser that changed it stays in"
    );
    assert_eq!(phone.who().await, Value::Null, "every other session ends");
    let mut other = Browser::new(&server);
    assert_eq!(
        other.sign_in("Alice", PASSWORD).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        other.sign_in("Alice", new_password).await.status,
        StatusCode::OK
    );

    // Signing out ends the session on the server: the old cookie, replayed, holds nothing.
    let stolen = other.cookie.clone();
    let out = other.post("/api/account/signout", json!({})).await;
    assert_eq!(out.status, StatusCode::NO_CONTENT);
    assert_eq!(out.set_cookie().unwrap().0, "", "the cookie is cleared");
    other.cookie = stolen;
    assert_eq!(other.who().await, Value::Null);

    // Deleting needs the password; the name is then free, the old sessions gone.
    let refused = alice
        .send(
            Method::DELETE,
            "/api/account",
            Some(json!({"password": PASSWORD})),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    let kept = alice.cookie.clone();
    let deleted = alice
        .send(
            Method::DELETE,
            "/api/account",
            Some(json!({"password": new_password})),
        )
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.body);
    alice.cookie = kept;
    assert_eq!(alice.who().await, Value::Null);
    let mut again = Browser::new(&server);
    assert_eq!(
        again.sign_in("Alice", new_password).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        again.sign_up("alice", PASSWORD).await.status,
        StatusCode::CREATED,
        "a deleted account's name can be taken again"
    );
    server.stop().await;
}

async fn names_and_passwords_that_are_refused(db: &str) {
    let server = Server::start(db).await;
    let mut browser = Browser::new(&server);
    assert_eq!(
        browser.sign_up("Boogerd", PASSWORD).await.status,
        StatusCode::CREATED
    );
    let mut someone = Browser::new(&server);
    for alike in ["boogerd", "B00GERD", "boo_gerd", "Boo-gerd"] {
        let answer = someone.sign_up(alike, PASSWORD).await;
        assert_eq!(
            answer.status,
            StatusCode::CONFLICT,
            "{alike}: {}",
            answer.body
        );
        assert!(answer.body["error"].as_str().unwrap().contains("taken"));
    }
    let huge_name = "x".repeat(10_000);
    let huge_password = "y".repeat(100_000);
    for (name, password, says) in [
        ("ab", PASSWORD, "3 to 20 characters"),
        (huge_name.as_str(), PASSWORD, "3 to 20 characters"),
        ("two words", PASSWORD, "letters"),
        ("Ｂoogerd", PASSWORD, "letters"),
        ("<script>", PASSWORD, "letters"),
        ("Computer", PASSWORD, "reserved"),
        ("Carol", "short", "8 to 128 characters"),
        ("Carol", huge_password.as_str(), ""),
        ("Carol", "password123", "too easy"),
        ("Carol", "carol-carol", "too easy"),
    ] {
        let started = Instant::now();
        let answer = someone.sign_up(name, password).await;
        let status = answer.status;
        let error = answer.body["error"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if password.len() > 50_000 {
            // Larger than any request body: refused before it is read as an account.
            assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{error}");
            continue;
        }
        assert_eq!(
            status,
            StatusCode::BAD_REQUEST,
            "{name:.20} {password:.20}: {error}"
        );
        assert!(error.contains(says), "{name:.20}: {error}");
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "refused before any hashing"
        );
    }
    // A long password within the body limit but over the password limit is refused unhashed,
    // and a sign-in with it is simply wrong.
    let long = "z".repeat(5_000);
    assert_eq!(
        someone.sign_up("Carol", &long).await.status,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        someone.sign_in("Boogerd", &long).await.status,
        StatusCode::UNAUTHORIZED
    );
    // Requests that are not an account at all.
    for body in [
        json!({}),
        json!({"name": "Carol"}),
        json!({"name": 5, "password": PASSWORD}),
        json!({"name": "Carol", "password": PASSWORD, "admin": true}),
    ] {
        let answer = someone.post("/api/account/signup", body.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}");
    }
    assert_eq!(someone.cookie, None, "no refused request signed anyone in");
    server.stop().await;
}

async fn a_session_acts_only_from_the_servers_own_pages(db: &str) {
    let server = Server::start(db).await;
    let mut alice = Browser::new(&server);
    alice.sign_up("Alice", PASSWORD).await;
    let change = json!({"password": PASSWORD, "new_password": "something else entirely"});
    // Another site's page, and a request without an Origin, carrying the cookie: refused.
    for origin in [Some("http://evil.example"), Some("null"), None] {
        alice.origin = origin.map(str::to_string);
        for (method, path, body) in [
            (Method::POST, "/api/account/password", change.clone()),
            (
                Method::DELETE,
                "/api/account",
                json!({"password": PASSWORD}),
            ),
            (Method::POST, "/api/account/signout", json!({})),
        ] {
            let answer = alice.send(method, path, Some(body)).await;
            assert_eq!(
                answer.status,
                StatusCode::FORBIDDEN,
                "{origin:?} {path}: {}",
                answer.body
            );
        }
    }
    // Reading who is signed in is no change: allowed, and the session is still there.
    alice.origin = Some("http://evil.example".into());
    assert_eq!(alice.who().await, "Alice");
    alice.origin = Some(format!("http://{}", server.addr));
    let mut fresh = Browser::new(&server);
    assert_eq!(
        fresh.sign_in("Alice", PASSWORD).await.status,
        StatusCode::OK,
        "the password was not changed"
    );
    // Without a session, the routes that need one say so.
    let mut nobody = Browser::new(&server);
    let answer = nobody.post("/api/account/password", change).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{}", answer.body);
    nobody.cookie = Some("a-made-up-session-token".into());
    let answer = nobody
        .send(
            Method::DELETE,
            "/api/account",
            Some(json!({"password": PASSWORD})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{}", answer.body);
    server.stop().await;
}

async fn sessions_are_stored_hashed_and_expire(db: &str) {
    use sqlx::Row;
    sqlx::any::install_default_drivers();
    let server = Server::start(db).await;
    let mut alice = Browser::new(&server);
    alice.sign_up("Alice", PASSWORD).await;
    let token = alice.cookie.clone().unwrap();
    let pool = sqlx::AnyPool::connect(db).await.unwrap();
    let hashes: Vec<String> = sqlx::query("SELECT token_hash FROM sessions")
        .fetch_all(&pool)
        .await
        .unwrap()
        .iter()
        .map(|row| row.get("token_hash"))
        .collect();
    assert_eq!(
        hashes,
        [denkmeter_server::seat::TokenHash::of(&token).to_hex()],
        "only the token's hash is kept"
    );
    let stored: String = sqlx::query("SELECT password_hash FROM players")
        .fetch_one(&pool)
        .await
        .unwrap()
        .get("password_hash");
    assert!(stored.starts_with("$argon2id$") && !stored.contains(PASSWORD));
    // The session's time runs out: it holds nothing any more.
    sqlx::query("UPDATE sessions SET expires_at = $1")
        .bind(denkmeter_server::round::now_ms() - 1)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    assert_eq!(alice.who().await, Value::Null);
    server.stop().await;
}

/// An unknown name takes about as long to refuse as a wrong password, so the time of the answer
/// does not tell which names exist.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_name_is_refused_as_slowly_as_a_wrong_password() {
    let dir = tempfile::tempdir().unwrap();
    let db = database("sqlite", &dir).await.unwrap();
    let server = Server::start(&db).await;
    let mut browser = Browser::new(&server);
    browser.sign_up("Alice", PASSWORD).await;
    let [wrong, unknown] = median_refusals(&server, ["Alice", "Nobody"]).await;
    assert!(
        unknown * 2 > wrong && wrong * 2 > unknown,
        "median sign-in refusals: {unknown:?} for an unknown name, {wrong:?} for a wrong password"
    );
    server.stop().await;
}

/// The median times of refused sign-ins as each of `names`, measured in turns (one of each,
/// then again), so that the machine's load weighs on each alike.
async fn median_refusals(server: &Server, names: [&str; 2]) -> [Duration; 2] {
    let mut times = [Vec::new(), Vec::new()];
    for _ in 0..9 {
        for (name, times) in names.iter().zip(&mut times) {
            let mut someone = Browser::new(server);
            let started = Instant::now();
            let answer = someone.sign_in(name, "not the password").await;
            times.push(started.elapsed());
            assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
        }
    }
    times.map(|mut t| {
        t.sort();
        t[t.len() / 2]
    })
}

/// Sign-ups and sign-ins from one address are limited: a guesser is slowed to the limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_ins_from_one_address_are_limited() {
    let dir = tempfile::tempdir().unwrap();
    let db = database("sqlite", &dir).await.unwrap();
    let config = ServerConfig {
        sign_ins_per_minute: 3,
        ..test_config()
    };
    let server = Server::start_with(&db, config).await;
    let mut guesser = Browser::new(&server);
    assert_eq!(
        guesser.sign_up("Alice", PASSWORD).await.status,
        StatusCode::CREATED
    );
    for guess in ["guess one!", "guess two!"] {
        assert_eq!(
            guesser.sign_in("Alice", guess).await.status,
            StatusCode::UNAUTHORIZED
        );
    }
    let answer = guesser.sign_in("Alice", PASSWORD).await;
    assert_eq!(
        answer.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        answer.body
    );
    assert!(answer.body["error"].as_str().unwrap().contains("sign-ins"));
    assert_eq!(
        guesser.cookie.as_deref().map(str::len),
        Some(24),
        "still the sign-up's session"
    );
    server.stop().await;
}

/// A rated Chad blitz game against the computer, created by a signed-in player.
async fn create_rated(browser: &mut Browser<'_>) -> (String, Value) {
    let answer = browser
        .post(
            "/api/games",
            json!({"ruleset": "chad", "white": {"kind": "human"},
                   "black": {"kind": "computer", "level": 1},
                   "clock": {"main_seconds": 180, "increment_seconds": 2},
                   "me": "white", "rated": true}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
    (
        answer.body["id"].as_str().unwrap().to_string(),
        answer.body["tokens"]["white"].clone(),
    )
}

async fn a_rated_game_against_the_computer(db: &str) {
    use denkmeter_server::rating::Rating;
    let server = Server::start(db).await;
    let mut alice = Browser::new(&server);
    alice.sign_up("Alice", PASSWORD).await;
    let (id, white) = create_rated(&mut alice).await;
    let (_, view) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(view["rated"], true);
    assert_eq!(view["category"], "chad/blitz");
    assert_eq!(
        view["white"]["player"],
        json!({"name": "Alice", "rating": 1500, "provisional": true})
    );
    assert!(view["black"]["player"].is_null());
    assert!(view["rating_changes"].is_null(), "not over yet");
    // No help from the engine in a rated game.
    let (status, body) = server
        .post(&format!("/api/games/{id}/hint"), json!({"token": white}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("no hints in a rated game"));
    let next = server.first_legal_move(&id, &white).await;
    server.play(&id, &white, &next).await;
    server.wait_for_ply(&id, 2).await;
    let (status, body) = server
        .post(
            &format!("/api/games/{id}/takeback"),
            json!({"token": white, "action": "offer"}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    // Alice resigns: her rating falls as Glicko-2 says, from 1500 against level 1's 800.
    let (status, view) = server
        .post(&format!("/api/games/{id}/resign"), json!({"token": white}))
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let expected = Rating::NEW.after(&[(
        denkmeter_server::ladder::computer_rating("chad", 1).unwrap(),
        0.0,
    )]);
    let tenth = |x: f64| (x * 10.0).round() / 10.0;
    assert_eq!(
        view["rating_changes"],
        json!({"white": {"before": 1500.0, "after": tenth(expected.rating)}, "black": null})
    );
    assert!(expected.rating < 1500.0);
    // Her page: the category, one point of history, a loss, the game.
    let (status, page) = server.get("/api/players/alice").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["name"], "Alice");
    let rating = &page["ratings"][0];
    assert_eq!(
        (
            &rating["category"],
            &rating["title"],
            &rating["games"],
            &rating["provisional"]
        ),
        (
            &json!("chad/blitz"),
            &json!("Chad blitz"),
            &json!(1),
            &json!(true)
        )
    );
    assert_eq!(rating["rating"], tenth(expected.rating));
    assert_eq!(rating["history"].as_array().unwrap().len(), 1);
    assert_eq!(rating["history"][0]["game"], id.as_str());
    assert_eq!(
        page["records"],
        json!([{"family": "chad", "title": "Chad", "wins": 0, "draws": 0, "losses": 1}])
    );
    let recent = &page["recent"][0];
    assert_eq!(
        (
            &recent["id"],
            &recent["result"],
            &recent["opponent"],
            &recent["rated"]
        ),
        (
            &json!(id),
            &json!("loss"),
            &json!("Computer, level 1"),
            &json!(true)
        )
    );
    assert_eq!(
        recent["rating_change"],
        tenth(expected.rating - 1500.0),
        "{recent}"
    );
    // Provisional players are not on the leaderboard.
    let (_, board) = server.get("/api/leaderboard").await;
    assert_eq!(board, json!({"categories": []}));
    let (status, board) = server.get("/api/leaderboard?category=chad/blitz").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(board["players"], json!([]));
    assert_eq!(board["title"], "Chad blitz");
    for bad in ["chad/slow", "nothing/blitz", "chad"] {
        let (status, _) = server
            .get(&format!("/api/leaderboard?category={bad}"))
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{bad}");
    }
    for unknown in ["nobody", "x", &"y".repeat(300)] {
        let (status, _) = server.get(&format!("/api/players/{unknown}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{unknown:.20}");
    }
    // A rated game abandoned before both sides moved is not rated.
    let (id, white) = create_rated(&mut alice).await;
    let (_, view) = server
        .post(&format!("/api/games/{id}/resign"), json!({"token": white}))
        .await;
    assert_eq!(
        view["rating_changes"],
        json!({"white": null, "black": null})
    );
    let (_, page) = server.get("/api/players/Alice").await;
    assert_eq!(page["ratings"][0]["games"], 1);
    assert_eq!(page["records"][0]["losses"], 2, "a loss all the same");
    // A deleted account's page is gone; its games stay, the seat without a name.
    alice
        .send(
            Method::DELETE,
            "/api/account",
            Some(json!({"password": PASSWORD})),
        )
        .await;
    let (status, _) = server.get("/api/players/Alice").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, view) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["white"]["player"]["name"], Value::Null);
    server.stop().await;
}

async fn rated_games_that_are_refused(db: &str) {
    let server = Server::start(db).await;
    let mut alice = Browser::new(&server);
    alice.sign_up("Alice", PASSWORD).await;
    let base = json!({"ruleset": "chad", "white": {"kind": "human"},
                      "black": {"kind": "computer", "level": 1},
                      "clock": {"main_seconds": 180}, "me": "white", "rated": true});
    let with = |changes: Value| {
        let mut request = base.clone();
        for (key, value) in changes.as_object().unwrap() {
            if value.is_null() {
                request.as_object_mut().unwrap().remove(key);
            } else {
                request[key] = value.clone();
            }
        }
        request
    };
    for (changes, status, says) in [
        (
            json!({"clock": null}),
            StatusCode::BAD_REQUEST,
            "needs a clock",
        ),
        (
            json!({"clock": {"main_seconds": 60, "increment_seconds": 2}}),
            StatusCode::BAD_REQUEST,
            "at least blitz",
        ),
        (
            json!({"black": {"kind": "human"}}),
            StatusCode::BAD_REQUEST,
            "challenge",
        ),
        (json!({"me": null}), StatusCode::BAD_REQUEST, "your account"),
        (
            json!({"me": "black"}),
            StatusCode::BAD_REQUEST,
            "computer's",
        ),
        (
            json!({"me": "green"}),
            StatusCode::BAD_REQUEST,
            "white or black",
        ),
        (
            json!({"position": "12/12/12/12/12/12/12/12/12/12/12/12 w"}),
            StatusCode::BAD_REQUEST,
            "own start",
        ),
    ] {
        let answer = alice.post("/api/games", with(changes.clone())).await;
        assert_eq!(answer.status, status, "{changes}: {}", answer.body);
        let error = answer.body["error"].as_str().unwrap_or_default();
        assert!(error.contains(says), "{changes}: {error}");
    }
    // Without a session: no account to put in a seat.
    let mut stranger = Browser::new(&server);
    let answer = stranger.post("/api/games", base.clone()).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{}", answer.body);
    // With the session but from another site's page: refused before anything is made.
    alice.origin = Some("http://evil.example".into());
    let answer = alice.post("/api/games", base.clone()).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.body);
    alice.origin = Some(format!("http://{}", server.addr));
    // An unrated game may still name the creator's seat; a hot-seat game holds one account.
    let answer = alice
        .post(
            "/api/games",
            json!({"ruleset": "chad", "white": {"kind": "human"}, "black": {"kind": "human"},
                   "me": "black"}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
    let id = answer.body["id"].as_str().unwrap();
    let (_, view) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(view["black"]["player"]["name"], "Alice");
    assert_eq!(view["rated"], false);
    // Bob claims the white invite signed in: his account takes the seat. Alice claiming the
    // other seat of her own game (she holds both tokens) would not put her in both seats.
    let mut bob = Browser::new(&server);
    bob.sign_up("Bob", PASSWORD).await;
    let claimed = bob
        .post(
            &format!("/api/games/{id}/claim"),
            json!({"token": answer.body["tokens"]["white"]}),
        )
        .await;
    assert_eq!(claimed.status, StatusCode::OK, "{}", claimed.body);
    let (_, view) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(view["white"]["player"]["name"], "Bob");
    let answer = alice
        .post(
            "/api/games",
            json!({"ruleset": "chad", "white": {"kind": "human"}, "black": {"kind": "human"},
                   "me": "black"}),
        )
        .await;
    let id = answer.body["id"].as_str().unwrap();
    alice
        .post(
            &format!("/api/games/{id}/claim"),
            json!({"token": answer.body["tokens"]["white"]}),
        )
        .await;
    let (_, view) = server.get(&format!("/api/games/{id}")).await;
    assert!(view["white"]["player"].is_null(), "{view}");
    server.stop().await;
}

/// Two servers on one database end one rated game at once: one ending wins, and the ratings
/// change once.
async fn a_rated_result_is_applied_once_by_two_servers(db: &str) {
    use sqlx::Row;
    let a = Server::start(db).await;
    let b = Server::start(db).await;
    let mut alice = Browser::new(&a);
    alice.sign_up("Alice", PASSWORD).await;
    for _ in 0..3 {
        let (id, white) = create_rated(&mut alice).await;
        let next = a.first_legal_move(&id, &white).await;
        a.play(&id, &white, &next).await;
        a.wait_for_ply(&id, 2).await;
        b.wait_for_ply(&id, 2).await;
        let path = format!("/api/games/{id}/resign");
        let body = json!({"token": white});
        let (first, second) = tokio::join!(a.post(&path, body.clone()), b.post(&path, body));
        let statuses = [first.0, second.0];
        assert!(
            statuses.contains(&StatusCode::OK)
                && statuses
                    .iter()
                    .all(|s| *s == StatusCode::OK || *s == StatusCode::CONFLICT),
            "{statuses:?}"
        );
    }
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(db).await.unwrap();
    let changes: i64 = sqlx::query("SELECT COUNT(*) AS n FROM rating_changes")
        .fetch_one(&pool)
        .await
        .unwrap()
        .get("n");
    let games: i64 = sqlx::query("SELECT games FROM ratings")
        .fetch_one(&pool)
        .await
        .unwrap()
        .get("games");
    pool.close().await;
    assert_eq!((changes, games), (3, 3));
    a.stop().await;
    b.stop().await;
}

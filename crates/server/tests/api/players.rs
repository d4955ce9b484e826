//! Players' accounts and sessions through the API, as a browser uses them: the session in a
//! cookie, changes sent from the server's own pages; and every refusal.

use std::time::{Duration, Instant};

use reqwest::header::HeaderMap;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::{database, drop_database, test_config, Server};
use denkmeter_server::ServerConfig;

/// A browser: its session cookie, if it has one, and the origin its pages come from.
struct Browser<'s> {
    server: &'s Server,
    cookie: Option<String>,
    origin: Option<String>,
}

/// The answer to a request: status, JSON body and headers.
struct Answer {
    status: StatusCode,
    body: Value,
    headers: HeaderMap,
}

impl Answer {
    /// The session cookie the answer sets (`Some("")` when it clears it) and its attributes.
    fn set_cookie(&self) -> Option<(String, String)> {
        let text = self.headers.get("set-cookie")?.to_str().ok()?.to_string();
        let value = text
            .strip_prefix("denkmeter_session=")?
            .split(';')
            .next()?
            .to_string();
        Some((value, text))
    }
}

impl<'s> Browser<'s> {
    /// A browser on the server's own pages.
    fn new(server: &'s Server) -> Browser<'s> {
        Browser {
            server,
            cookie: None,
            origin: Some(format!("http://{}", server.addr)),
        }
    }

    async fn send(&mut self, method: Method, path: &str, body: Option<Value>) -> Answer {
        let mut request = self
            .server
            .client
            .request(method, self.server.url(path))
            .header("content-type", "application/json");
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", format!("denkmeter_session={cookie}"));
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

    async fn post(&mut self, path: &str, body: Value) -> Answer {
        self.send(Method::POST, path, Some(body)).await
    }

    async fn sign_up(&mut self, name: &str, password: &str) -> Answer {
        self.post(
            "/api/account/signup",
            json!({"name": name, "password": password}),
        )
        .await
    }

    async fn sign_in(&mut self, name: &str, password: &str) -> Answer {
        self.post(
            "/api/account/signin",
            json!({"name": name, "password": password}),
        )
        .await
    }

    /// Who the server says is signed in.
    async fn who(&mut self) -> Value {
        let answer = self.send(Method::GET, "/api/account", None).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
        answer.body["name"].clone()
    }
}

const PASSWORD: &str = "correct horse battery";

on_both_databases!(
    an_account_is_made_used_changed_and_deleted,
    names_and_passwords_that_are_refused,
    a_session_acts_only_from_the_servers_own_pages,
    sessions_are_stored_hashed_and_expire,
);

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
    let wrong = median_refusal(&server, "Alice").await;
    let unknown = median_refusal(&server, "Nobody").await;
    assert!(
        unknown * 2 > wrong && wrong * 2 > unknown,
        "median sign-in refusals: {unknown:?} for an unknown name, {wrong:?} for a wrong password"
    );
    server.stop().await;
}

/// The median time of 7 refused sign-ins as `name`.
async fn median_refusal(server: &Server, name: &str) -> Duration {
    let mut times = Vec::new();
    for _ in 0..7 {
        let mut someone = Browser::new(server);
        let started = Instant::now();
        let answer = someone.sign_in(name, "not the password").await;
        times.push(started.elapsed());
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    }
    times.sort();
    times[3]
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

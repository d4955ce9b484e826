//! Accounts: sign up, sign in and out, change the password, delete the account; and the
//! session a request carries in its cookie ([`SignedIn`], [`MaybeSignedIn`]).
//!
//! A session is a random token in an `HttpOnly; SameSite=Lax` cookie (`Secure` when the public
//! address is https); the database keeps its SHA-256 only. A request that changes anything and
//! carries a session cookie must come from a page of this server: its `Origin` must be the
//! server's own (its `Host`, or `--public-url`), or it is refused, whether or not the route
//! uses the session. So no other site can act for a signed-in player.

use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::error::{ApiError, Body};
use crate::accounts::{
    check_name, check_password, name_key, SECURE_SESSION_COOKIE, SESSION_COOKIE, SESSION_DAYS,
};
use crate::round::{now_ms, Credential};
use crate::seat::{new_token, TokenHash};
use crate::store::SessionPlayer;
use crate::AppState;

/// Whether the server is reached by https (its public URL says so): its cookies are `Secure`.
fn secure(state: &AppState) -> bool {
    state
        .config
        .public_url
        .as_deref()
        .is_some_and(|url| url.starts_with("https://"))
}

/// The session cookie's name: [`SECURE_SESSION_COOKIE`] behind https, else [`SESSION_COOKIE`].
fn cookie_name(state: &AppState) -> &'static str {
    if secure(state) {
        SECURE_SESSION_COOKIE
    } else {
        SESSION_COOKIE
    }
}

/// What the request's cookies named `name` hold.
enum SessionCookie {
    Absent,
    One(String),
    /// Two or more: one was planted by another site (a sibling subdomain can set a cookie for
    /// the whole domain) to sign the player in as someone else. Neither is used.
    Several,
}

fn session_cookie(headers: &HeaderMap, name: &str) -> SessionCookie {
    let mut values = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|cookies| cookies.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(|(cookie, _)| *cookie == name)
        .map(|(_, value)| value.trim());
    match (values.next(), values.next()) {
        (_, Some(_)) => SessionCookie::Several,
        (Some(value), None) if !value.is_empty() && value.len() <= 64 => {
            SessionCookie::One(value.to_string())
        }
        _ => SessionCookie::Absent,
    }
}

/// Whether a request comes from a page of this server: its `Origin` is `public_url` or names
/// the request's own `Host`. A request without an `Origin` is not trusted.
pub fn same_origin(headers: &HeaderMap, public_url: Option<&str>) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else {
        return false;
    };
    public_url.is_some_and(|url| url.eq_ignore_ascii_case(origin))
        || super::ws::origin_is_host(origin, headers)
}

/// A signed-in player and the hash of the session's token.
#[derive(Clone, Debug)]
pub struct Session {
    pub player: SessionPlayer,
    pub token: TokenHash,
}

/// The request's session, if its cookie holds a valid one. Refuses (403) a request that
/// changes something, carries a session cookie and does not come from this server's pages.
#[derive(Clone, Debug)]
pub struct MaybeSignedIn(pub Option<Session>);

/// A request of a signed-in player: 401 without a valid session.
#[derive(Clone, Debug)]
pub struct SignedIn(pub Session);

impl FromRequestParts<AppState> for MaybeSignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<MaybeSignedIn, ApiError> {
        // With two session cookies the request is taken as signed out: it may still sign out
        // (which clears this server's own cookie) and play by seat tokens.
        let SessionCookie::One(token) = session_cookie(&parts.headers, cookie_name(state)) else {
            return Ok(MaybeSignedIn(None));
        };
        let safe = matches!(parts.method, Method::GET | Method::HEAD | Method::OPTIONS);
        if !safe && !same_origin(&parts.headers, state.config.public_url.as_deref()) {
            return Err(ApiError::Forbidden(
                "a request that carries a session must come from this server's own pages \
                 (its Origin header is missing or another site's)"
                    .into(),
            ));
        }
        let hash = TokenHash::of(&token);
        let player = state
            .rounds
            .store
            .session_player(&hash, now_ms())
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(MaybeSignedIn(player.map(|player| Session {
            player,
            token: hash,
        })))
    }
}

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<SignedIn, ApiError> {
        match MaybeSignedIn::from_request_parts(parts, state).await?.0 {
            Some(session) => Ok(SignedIn(session)),
            None => match session_cookie(&parts.headers, cookie_name(state)) {
                SessionCookie::Several => Err(ApiError::BadRequest(format!(
                    "this browser sent two {} cookies, one of them set by another site: clear \
                     this site's cookies and sign in again",
                    cookie_name(state)
                ))),
                _ => Err(ApiError::Unauthorized(
                    "sign in first (no session, or it has expired)".into(),
                )),
            },
        }
    }
}

/// Who a game request comes from: the seat token it gives, else its session's account.
pub fn credential(token: Option<String>, session: Option<Session>) -> Credential {
    let (account, session) = match session {
        Some(s) => (Some(s.player.id), Some(s.token)),
        None => (None, None),
    };
    Credential {
        token,
        account,
        session,
    }
}

/// Whether the session `token` still signs in `player` (for a socket opened with it).
pub async fn session_holds(state: &AppState, token: &TokenHash, player: &str) -> bool {
    match state.rounds.store.session_player(token, now_ms()).await {
        Ok(found) => found.is_some_and(|p| p.id == player),
        // The database cannot say: keep the socket; the next look decides.
        Err(_) => true,
    }
}

/// The `Set-Cookie` value opening a session with `token`, or (with `None`) ending it.
fn cookie(state: &AppState, token: Option<&str>) -> HeaderValue {
    let (value, age) = match token {
        Some(token) => (token, SESSION_DAYS * 24 * 60 * 60),
        None => ("", 0),
    };
    let text = format!(
        "{}={value}; Path=/; Max-Age={age}; HttpOnly; SameSite=Lax{}",
        cookie_name(state),
        if secure(state) { "; Secure" } else { "" }
    );
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// Opens a session for `player`: stored hashed, sent as a cookie.
async fn open_session(
    state: &AppState,
    player: SessionPlayer,
    status: StatusCode,
) -> Result<Response, ApiError> {
    let token = new_token();
    let now = now_ms();
    state
        .rounds
        .store
        .create_session(
            &TokenHash::of(&token),
            &player.id,
            now,
            now + SESSION_DAYS * 24 * 60 * 60 * 1000,
        )
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut response = (status, Json(json!({ "name": player.name }))).into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie(state, Some(&token)));
    Ok(response)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
}

/// The one answer to a sign-in that fails, whether the name is unknown or the password wrong.
fn wrong_credentials() -> ApiError {
    ApiError::Unauthorized("wrong name or password".into())
}

/// Makes an account and signs it in: 201 `{name}` and the session cookie.
pub async fn sign_up(
    State(state): State<AppState>,
    Body(request): Body<Credentials>,
) -> Result<Response, ApiError> {
    check_name(&request.name).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    check_password(&request.name, &request.password)
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let taken = || {
        ApiError::Conflict(format!(
            "the name {:?} is taken (or too like one that is)",
            request.name
        ))
    };
    let key = name_key(&request.name);
    let store = &state.rounds.store;
    if store
        .account_by_key(&key)
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
        .is_some()
    {
        return Err(taken());
    }
    let hash = state
        .passwords
        .hash(&request.password)
        .await
        .map_err(ApiError::Internal)?;
    let id = new_token();
    let created = store
        .create_account(&id, &request.name, &key, &hash, now_ms())
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    if !created {
        return Err(taken());
    }
    tracing::info!(name = %request.name, "account created");
    let player = SessionPlayer {
        id,
        name: request.name,
    };
    open_session(&state, player, StatusCode::CREATED).await
}

/// Signs in: 200 `{name}` and the session cookie, or 401 for an unknown name or a wrong
/// password alike, in about the same time.
pub async fn sign_in(
    State(state): State<AppState>,
    Body(request): Body<Credentials>,
) -> Result<Response, ApiError> {
    if request.password.chars().count() > crate::accounts::PASSWORD_MAX
        || request.name.len() > 4 * crate::accounts::NAME_MAX
    {
        return Err(wrong_credentials());
    }
    let account = state
        .rounds
        .store
        .account_by_key(&name_key(&request.name))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let stored = account.as_ref().map(|a| a.password_hash.as_str());
    if !state.passwords.verify(&request.password, stored).await {
        return Err(wrong_credentials());
    }
    let Some(account) = account else {
        return Err(wrong_credentials());
    };
    let player = SessionPlayer {
        id: account.id,
        name: account.name,
    };
    open_session(&state, player, StatusCode::OK).await
}

/// Signs out: ends the session and clears the cookie (204, signed in or not).
pub async fn sign_out(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
) -> Result<Response, ApiError> {
    if let Some(session) = session {
        state
            .rounds
            .store
            .delete_session(&session.token)
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie(&state, None));
    Ok(response)
}

/// Who is signed in: `{name}`, or `{name: null}`.
pub async fn who(MaybeSignedIn(session): MaybeSignedIn) -> Json<serde_json::Value> {
    Json(json!({ "name": session.map(|s| s.player.name) }))
}

/// Checks the signed-in player's password again before a change that needs it.
async fn confirm_password(
    state: &AppState,
    session: &Session,
    password: &str,
) -> Result<(), ApiError> {
    let account = state
        .rounds
        .store
        .account(&session.player.id)
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let stored = account.as_ref().map(|a| a.password_hash.as_str());
    if password.chars().count() > crate::accounts::PASSWORD_MAX
        || !state.passwords.verify(password, stored).await
    {
        return Err(ApiError::Unauthorized("wrong password".into()));
    }
    Ok(())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    password: String,
    new_password: String,
}

/// Changes the password (the current one confirms it); every other session of the player ends.
pub async fn change_password(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Body(request): Body<PasswordChange>,
) -> Result<StatusCode, ApiError> {
    confirm_password(&state, &session, &request.password).await?;
    check_password(&session.player.name, &request.new_password)
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let hash = state
        .passwords
        .hash(&request.new_password)
        .await
        .map_err(ApiError::Internal)?;
    state
        .rounds
        .store
        .set_password(&session.player.id, &hash, &session.token)
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deletion {
    password: String,
}

/// Deletes the account (the password confirms it): its games stay, without its name.
pub async fn delete_account(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Body(request): Body<Deletion>,
) -> Result<Response, ApiError> {
    confirm_password(&state, &session, &request.password).await?;
    state
        .rounds
        .store
        .delete_account(&session.player.id, now_ms())
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    state.rounds.forget_account(&session.player.id).await;
    tracing::info!(name = %session.player.name, "account deleted");
    let mut response = StatusCode::NO_CONTENT.into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie(&state, None));
    Ok(response)
}

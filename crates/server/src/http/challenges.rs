//! Challenges: offered, listed, accepted, cancelled; and the lobby's socket, which pushes them
//! and tells a challenger that his challenge was accepted.

use std::collections::HashSet;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::{Extension, Json};
use denkmeter_core::{ByPlayer, Player};
use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use serde::{Deserialize, Serialize};

use super::accounts::{MaybeSignedIn, SignedIn};
use super::error::{ApiError, Body};
use super::games::ClockRequest;
use super::ws::{check_socket_origin, SOCKET_READ_BUFFER};
use crate::clock::TimeControl;
use crate::listener::ConnectionSlot;
use crate::round::{now_ms, RoundError, Setup};
use crate::seat::{new_token, Seat};
use crate::store::{Challenge, NewChallenge, SeatAccount};
use crate::AppState;

/// How long a challenge stays open.
pub const CHALLENGE_OPEN_MS: i64 = 30 * 60 * 1000;
/// A challenge accepted this long before a challenger's lobby socket opened is still told to
/// it (the socket may have been reconnecting just then).
const ACCEPTED_BEFORE_OPEN_MS: i64 = 10_000;
/// A lobby socket that sends nothing for this long is gone; a heartbeat goes to it every third
/// of it.
const LOBBY_SILENCE_LIMIT: Duration = Duration::from_secs(45);

fn internal(error: crate::store::StoreError) -> ApiError {
    ApiError::from(RoundError::from(error))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    ruleset: String,
    #[serde(default)]
    clock: Option<ClockRequest>,
    #[serde(default)]
    rated: bool,
    #[serde(default = "random")]
    colour: String,
    #[serde(default)]
    to: Option<String>,
}

fn random() -> String {
    "random".into()
}

#[derive(Debug, Serialize, PartialEq)]
pub struct ChallengerJson {
    name: String,
    rating: Option<i64>,
    provisional: bool,
}

#[derive(Debug, Serialize, PartialEq)]
pub struct ChallengeJson {
    id: String,
    ruleset: String,
    display_name: String,
    clock: Option<serde_json::Value>,
    category: Option<String>,
    rated: bool,
    colour: String,
    by: ChallengerJson,
    to: Option<String>,
    created_at: i64,
    expires_at: i64,
    status: String,
    game: Option<String>,
}

fn challenge_json(state: &AppState, c: &Challenge) -> ChallengeJson {
    let rating = c
        .category
        .as_ref()
        .map(|_| c.player_rating.unwrap_or(crate::rating::Rating::NEW));
    ChallengeJson {
        id: c.id.clone(),
        display_name: state
            .registry
            .find(&c.ruleset)
            .map_or_else(|| c.ruleset.clone(), |g| g.facts().display_name()),
        ruleset: c.ruleset.clone(),
        clock: c.clock.map(|control| match control {
            TimeControl::PerMove { move_ms } => {
                serde_json::json!({ "move_seconds": move_ms / 1000 })
            }
            TimeControl::Main {
                main_ms,
                increment_ms,
            } => serde_json::json!({
                "main_seconds": main_ms / 1000,
                "increment_seconds": increment_ms / 1000,
            }),
        }),
        category: c.category.clone(),
        rated: c.rated,
        colour: c.colour.clone(),
        by: ChallengerJson {
            name: c.player_name.clone(),
            rating: rating.map(|r| r.rating.round() as i64),
            provisional: rating.map_or(true, |r| r.is_provisional()),
        },
        to: c.target_name.clone(),
        created_at: c.created_at,
        expires_at: c.expires_at,
        status: c.status.clone(),
        game: c.game_id.clone(),
    }
}

/// Whether `viewer` (an account id, if signed in) may see challenge `c` in the lobby: an open
/// challenge to anyone, or one he made or that names him.
fn visible(c: &Challenge, viewer: Option<&str>, now: i64) -> bool {
    let open = c.status == "open" && c.expires_at > now;
    let party = viewer.is_some_and(|v| v == c.player_id || c.target_id.as_deref() == Some(v));
    open && (c.target_id.is_none() || party)
}

fn visible_list(state: &AppState, all: &[Challenge], viewer: Option<&str>) -> Vec<ChallengeJson> {
    let now = now_ms();
    all.iter()
        .filter(|c| visible(c, viewer, now))
        .map(|c| challenge_json(state, c))
        .collect()
}

/// Offers a game in the lobby.
pub async fn create(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Body(request): Body<ChallengeRequest>,
) -> Result<(StatusCode, Json<ChallengeJson>), ApiError> {
    let game = state
        .registry
        .find(&request.ruleset)
        .ok_or_else(|| RoundError::UnknownRuleset(request.ruleset.clone()))?;
    let clock = match &request.clock {
        None => None,
        Some(c) => Some(
            TimeControl::from_seconds(c.main_seconds, c.increment_seconds, c.move_seconds)
                .map_err(ApiError::BadRequest)?,
        ),
    };
    if request.rated && clock.is_none() {
        return Err(ApiError::BadRequest(
            "rated: a rated game needs a clock".into(),
        ));
    }
    if !matches!(request.colour.as_str(), "white" | "black" | "random") {
        return Err(ApiError::BadRequest(format!(
            "colour: expected white, black or random, found {:?}",
            request.colour
        )));
    }
    let store = &state.rounds.store;
    let target = match request
        .to
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        None => None,
        Some(name) => {
            let key = crate::accounts::name_key(name);
            if name.chars().count() > crate::accounts::NAME_MAX {
                return Err(ApiError::NotFound(format!("no such player: {name:?}")));
            }
            let (id, _, _) = store
                .player_by_key(&key)
                .await
                .map_err(internal)?
                .ok_or_else(|| ApiError::NotFound(format!("no such player: {name:?}")))?;
            if id == session.player.id {
                return Err(ApiError::BadRequest(
                    "to: you cannot challenge yourself".into(),
                ));
            }
            Some(id)
        }
    };
    let facts = game.facts();
    let now = now_ms();
    let new = NewChallenge {
        id: new_token()[..12].to_string(),
        player_id: session.player.id.clone(),
        ruleset: facts.name.to_string(),
        clock,
        category: clock.map(|c| crate::ladder::category(facts.name, facts.family, c)),
        rated: request.rated,
        colour: request.colour.clone(),
        target_id: target,
        now,
        expires_at: now + CHALLENGE_OPEN_MS,
    };
    store.create_challenge(&new).await?;
    state.lobby.poke();
    let made = store
        .challenge(&new.id)
        .await
        .map_err(internal)?
        .ok_or_else(|| ApiError::Internal("a new challenge is missing".into()))?;
    tracing::info!(challenge = %new.id, by = %session.player.name, "challenge offered");
    Ok((StatusCode::CREATED, Json(challenge_json(&state, &made))))
}

/// The open challenges the visitor may see, newest first.
pub async fn list(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
) -> Result<Json<serde_json::Value>, ApiError> {
    let now = now_ms();
    let all = state
        .rounds
        .store
        .recent_challenges(now, now, crate::lobby::MAX_CHALLENGES)
        .await
        .map_err(internal)?;
    let viewer = session.as_ref().map(|s| s.player.id.as_str());
    Ok(Json(
        serde_json::json!({ "challenges": visible_list(&state, &all, viewer) }),
    ))
}

#[derive(Debug, Serialize)]
pub struct Accepted {
    game: String,
    seat: &'static str,
    token: Option<String>,
}

/// Accepts a challenge: the game is made with both accounts in their seats.
pub async fn accept(
    State(state): State<AppState>,
    Path(id): Path<String>,
    SignedIn(session): SignedIn,
) -> Result<(StatusCode, Json<Accepted>), ApiError> {
    let store = &state.rounds.store;
    let challenge = store
        .challenge(&id)
        .await
        .map_err(internal)?
        .ok_or_else(|| ApiError::NotFound("no such challenge".into()))?;
    let ruleset = state
        .registry
        .find(&challenge.ruleset)
        .ok_or_else(|| RoundError::UnknownRuleset(challenge.ruleset.clone()))?;
    let challenger = match challenge.colour.as_str() {
        "white" => Player::White,
        "black" => Player::Black,
        _ if rand::thread_rng().gen_bool(0.5) => Player::White,
        _ => Player::Black,
    };
    let mut accounts = ByPlayer::new(None, None);
    accounts[challenger] = Some(SeatAccount {
        id: challenge.player_id.clone(),
        name: Some(challenge.player_name.clone()),
    });
    accounts[!challenger] = Some(SeatAccount {
        id: session.player.id.clone(),
        name: Some(session.player.name.clone()),
    });
    let setup = Setup {
        accounts,
        rated: challenge.rated,
        challenge: Some((challenge.id.clone(), session.player.id.clone())),
        ..Setup::default()
    };
    let seats = ByPlayer::new(Seat::Human, Seat::Human);
    let (game, tokens) = state
        .rounds
        .create(ruleset, seats, None, setup, challenge.clock)
        .await?;
    state.lobby.poke();
    tracing::info!(challenge = %id, %game, by = %session.player.name, "challenge accepted");
    let seat = !challenger;
    Ok((
        StatusCode::CREATED,
        Json(Accepted {
            game,
            seat: seat.name(),
            token: tokens[seat].clone(),
        }),
    ))
}

/// One challenge, whatever its state, to its challenger or the player it names (and, open
/// and to anyone, to all): a challenger whose page missed the word that it was accepted finds
/// the game here.
pub async fn one(
    State(state): State<AppState>,
    Path(id): Path<String>,
    MaybeSignedIn(session): MaybeSignedIn,
) -> Result<Json<ChallengeJson>, ApiError> {
    let no_such = || ApiError::NotFound("no such challenge".into());
    let challenge = state
        .rounds
        .store
        .challenge(&id)
        .await
        .map_err(internal)?
        .ok_or_else(no_such)?;
    let viewer = session.as_ref().map(|s| s.player.id.as_str());
    let party = viewer
        .is_some_and(|v| v == challenge.player_id || challenge.target_id.as_deref() == Some(v));
    if !party && !visible(&challenge, viewer, now_ms()) {
        return Err(no_such());
    }
    Ok(Json(challenge_json(&state, &challenge)))
}

/// Cancels one's own open challenge.
pub async fn cancel(
    State(state): State<AppState>,
    Path(id): Path<String>,
    SignedIn(session): SignedIn,
) -> Result<StatusCode, ApiError> {
    state
        .rounds
        .store
        .cancel_challenge(&id, &session.player.id, now_ms())
        .await?;
    state.lobby.poke();
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum LobbyMessage<'a> {
    Challenges {
        challenges: &'a [ChallengeJson],
    },
    Accepted {
        challenge: &'a str,
        game: &'a str,
    },
    /// Sent when nothing else was for a while, so that a page knows its socket is alive.
    Heartbeat,
}

/// The lobby's socket: the visible challenges now and after every change, and word to a
/// challenger when his challenge is accepted.
pub async fn socket(
    State(state): State<AppState>,
    slot: Option<Extension<ConnectionSlot>>,
    headers: HeaderMap,
    MaybeSignedIn(session): MaybeSignedIn,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    check_socket_origin(&state, &headers)?;
    let viewer = session.map(|s| (s.player.id, s.token));
    let limit = state.config.ws_message_limit;
    Ok(upgrade
        .max_message_size(limit)
        .max_frame_size(limit)
        .read_buffer_size(SOCKET_READ_BUFFER)
        .on_upgrade(move |socket| async move {
            let _slot = slot;
            lobby_socket(socket, state, viewer).await;
        }))
}

async fn send_json<T: Serialize>(
    sender: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    message: &T,
) -> bool {
    let Ok(text) = serde_json::to_string(message) else {
        return false;
    };
    matches!(
        tokio::time::timeout(
            super::ws::SEND_TIMEOUT,
            sender.send(Message::Text(text.into()))
        )
        .await,
        Ok(Ok(()))
    )
}

async fn lobby_socket(
    socket: WebSocket,
    state: AppState,
    signed_in: Option<(String, crate::seat::TokenHash)>,
) {
    let viewer = signed_in.as_ref().map(|(id, _)| id.clone());
    let (mut sender, mut receiver) = socket.split();
    let mut snapshots = state.lobby.subscribe();
    state.lobby.poke();
    let opened = now_ms();
    let mut shown: Option<Vec<ChallengeJson>> = None;
    let mut announced: HashSet<String> = HashSet::new();
    let mut last_heard = tokio::time::Instant::now();
    let mut ping = tokio::time::interval(LOBBY_SILENCE_LIMIT / 3);
    loop {
        let all = snapshots.borrow_and_update().clone();
        let list = visible_list(&state, &all, viewer.as_deref());
        if shown.as_ref() != Some(&list) {
            if !send_json(&mut sender, &LobbyMessage::Challenges { challenges: &list }).await {
                return;
            }
            shown = Some(list);
        }
        // The viewer's own challenges accepted since the socket opened (or just before).
        for c in all.iter().filter(|c| {
            c.status == "accepted"
                && viewer.as_deref() == Some(c.player_id.as_str())
                && c.updated_at >= opened - ACCEPTED_BEFORE_OPEN_MS
        }) {
            let Some(game) = &c.game_id else { continue };
            if announced.insert(c.id.clone()) {
                let message = LobbyMessage::Accepted {
                    challenge: &c.id,
                    game,
                };
                if !send_json(&mut sender, &message).await {
                    return;
                }
            }
        }
        tokio::select! {
            changed = snapshots.changed() => {
                if changed.is_err() {
                    return;
                }
            }
            incoming = receiver.next() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => last_heard = tokio::time::Instant::now(),
            },
            _ = ping.tick() => {
                if last_heard.elapsed() > LOBBY_SILENCE_LIMIT {
                    return;
                }
                // Signed out (or the password changed) since it opened: the socket closes, and
                // the page opens another as whoever it is now.
                if let Some((id, session)) = &signed_in {
                    if !super::accounts::session_holds(&state, session, id).await {
                        return;
                    }
                }
                if !send_json(&mut sender, &LobbyMessage::Heartbeat).await {
                    return;
                }
            }
        }
    }
}

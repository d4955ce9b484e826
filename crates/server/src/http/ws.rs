//! `GET /api/games/{id}/ws`: the viewer's view at once and after every change, and a heartbeat.
//!
//! The socket renders the game from its proxy's snapshots: a change hands it the newest
//! snapshot, so a watcher that falls behind gets the newest view (with every move in it) rather
//! than losing one, and rendering never waits for a write. A client frame is answered with a heartbeat carrying the game's
//! version, never with a view or a database query; a client compares that version with its
//! view's and reloads if it is behind.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap};
use axum::response::Response;
use axum::Extension;
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use super::accounts::{credential, session_holds, MaybeSignedIn};
use super::error::{ApiError, Params};
use crate::listener::ConnectionSlot;
use crate::round::json::{game_view, GameView};
use crate::round::{Credential, GameProxy, LiveGame};
use crate::AppState;

/// A heartbeat goes out after this long without any message.
pub const HEARTBEAT_EVERY: Duration = Duration::from_secs(15);
/// A client that sends nothing for this long (not even the answer to a ping) is gone.
pub const CLIENT_SILENCE_LIMIT: Duration = Duration::from_secs(45);
/// A message that the client does not take within this time closes the socket.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// Client frames are answered at most this often.
pub const ANSWER_EVERY: Duration = Duration::from_secs(1);
/// The bytes a socket reads at a time. Clients send only short messages, and the library
/// zeroes its read buffer's free room before every read: with its default, 128 KiB, that was
/// about a twentieth of the server's time at 1,000 players.
pub const SOCKET_READ_BUFFER: usize = 4096;

#[derive(Debug, Deserialize)]
pub struct WsQuery {
    token: Option<String>,
}

/// What the server sends.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum ServerMessage<'a> {
    View { view: &'a GameView },
    Heartbeat { version: i64 },
}

/// Whether a browser page from `Origin` may open the socket: pages of this server itself (the
/// origin's host is the request's `Host`), and origins allowed by the server's flag. A client
/// that sends no `Origin` is not a browser page and is not refused.
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    if allowed
        .iter()
        .any(|a| a == "*" || a.eq_ignore_ascii_case(origin))
    {
        return true;
    }
    origin_is_host(origin, headers)
}

/// Whether `origin` names the request's own `Host`: a page of this server, by http or https.
pub fn origin_is_host(origin: &str, headers: &HeaderMap) -> bool {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

/// Refuses a socket opened by a page that may not open this server's sockets (see
/// [`origin_allowed`]): pages of this server, of its public address, and of the origins the
/// server allows.
pub fn check_socket_origin(state: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    let public = state.config.public_url.iter().cloned();
    let allowed: Vec<String> = state
        .config
        .allowed_origins
        .iter()
        .cloned()
        .chain(public)
        .collect();
    if origin_allowed(headers, &allowed) {
        return Ok(());
    }
    let origin = headers
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok())
        .unwrap_or("?");
    Err(ApiError::Forbidden(format!(
        "a page from {origin} may not open this server's sockets"
    )))
}

pub async fn connect(
    State(state): State<AppState>,
    Path(id): Path<String>,
    slot: Option<Extension<ConnectionSlot>>,
    headers: HeaderMap,
    query: Result<Params<WsQuery>, ApiError>,
    MaybeSignedIn(session): MaybeSignedIn,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    check_socket_origin(&state, &headers)?;
    let Params(query) = query?;
    // Refuse unknown games and bad tokens before upgrading.
    let (proxy, changes) = state.rounds.watch(&id).await?;
    let who = credential(query.token, session);
    proxy.snapshot().viewer_seat(&who)?;
    let limit = state.config.ws_message_limit;
    Ok(upgrade
        .max_message_size(limit)
        .max_frame_size(limit)
        .read_buffer_size(SOCKET_READ_BUFFER)
        .on_upgrade(move |socket| async move {
            // The socket holds its connection's place under the cap while it is open.
            let _slot = slot;
            watch(socket, state, proxy, changes, who).await;
        }))
}

type Sender = SplitSink<WebSocket, Message>;

async fn send(sender: &mut Sender, message: Message) -> bool {
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, sender.send(message)).await,
        Ok(Ok(()))
    )
}

/// What tells two views of one game apart: every stored change moves the version on.
type Shown = i64;

/// Sends the view of `game` unless the client has it already; `false` (close the socket)
/// when the token no longer holds what it held (an invite whose seat has been claimed since
/// the socket opened), so that an open socket never shows a seat's secrets to a token that
/// lost it.
async fn send_view(
    sender: &mut Sender,
    game: &LiveGame,
    who: &Credential,
    shown: &mut Option<Shown>,
) -> bool {
    let now = Some(game.version);
    if *shown == now {
        return true;
    }
    *shown = now;
    let Ok(seat) = game.viewer_seat(who) else {
        return false;
    };
    let text = match game_view(game, seat, None) {
        Ok(view) => serde_json::to_string(&ServerMessage::View { view: &view }),
        Err(error) => {
            tracing::error!(game = %game.id, %error, "cannot render a view");
            return false;
        }
    };
    match text {
        Ok(text) => send(sender, Message::Text(text.into())).await,
        Err(_) => false,
    }
}

async fn send_heartbeat(sender: &mut Sender, proxy: &GameProxy) -> bool {
    let version = proxy.snapshot().version;
    match serde_json::to_string(&ServerMessage::Heartbeat { version }) {
        Ok(text) => send(sender, Message::Text(text.into())).await,
        Err(_) => false,
    }
}

async fn watch(
    socket: WebSocket,
    state: AppState,
    proxy: Arc<GameProxy>,
    mut changes: watch::Receiver<Arc<LiveGame>>,
    who: Credential,
) {
    let (mut sender, mut receiver) = socket.split();
    let mut shown = None;
    let game = changes.borrow_and_update().clone();
    if !send_view(&mut sender, &game, &who, &mut shown).await {
        return;
    }
    let mut last_sent = Instant::now();
    let mut last_heard = Instant::now();
    let mut last_ping = Instant::now();
    let mut last_answer: Option<Instant> = None;
    let mut tick = tokio::time::interval(Duration::from_secs(5));
    loop {
        tokio::select! {
            changed = changes.changed() => {
                if changed.is_err() {
                    return;
                }
                let game = changes.borrow_and_update().clone();
                if !send_view(&mut sender, &game, &who, &mut shown).await {
                    return;
                }
                last_sent = Instant::now();
            }
            incoming = receiver.next() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(message)) => {
                    last_heard = Instant::now();
                    let answer = matches!(message, Message::Text(_) | Message::Binary(_))
                        && last_answer.map_or(true, |t| t.elapsed() >= ANSWER_EVERY);
                    if answer {
                        if !send_heartbeat(&mut sender, &proxy).await {
                            return;
                        }
                        last_answer = Some(Instant::now());
                        last_sent = Instant::now();
                    }
                }
            },
            _ = tick.tick() => {
                // A socket that sees a seat by its session closes when the session ends
                // (signed out, a new password, the account deleted).
                if let (Some(session), Some(account)) = (who.standing_session(), &who.account) {
                    if !session_holds(&state, session, account).await {
                        let _ = send(&mut sender, Message::Close(None)).await;
                        return;
                    }
                }
                if last_heard.elapsed() >= CLIENT_SILENCE_LIMIT {
                    let _ = send(&mut sender, Message::Close(None)).await;
                    return;
                }
                if last_sent.elapsed() >= HEARTBEAT_EVERY {
                    if !send_heartbeat(&mut sender, &proxy).await {
                        return;
                    }
                    last_sent = Instant::now();
                }
                // A client that only listens answers pings (browsers and WebSocket libraries
                // do so by themselves).
                if last_heard.elapsed() >= HEARTBEAT_EVERY && last_ping.elapsed() >= HEARTBEAT_EVERY {
                    if !send(&mut sender, Message::Ping(Vec::new().into())).await {
                        return;
                    }
                    last_ping = Instant::now();
                }
            }
        }
    }
}

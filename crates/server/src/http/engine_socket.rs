//! `GET /api/analysis/ws`: the analysis board's engine. The page sends the position it shows
//! (as `POST /api/positions` takes it) and the server streams the engine's evaluation and best
//! line depth by depth, until the page shows another position, stops it, or its time is up.
//!
//! The engine is refused to anyone playing a game: a signed-in player with a game of his
//! account's going on, or a page listing a game of its browser's that is (`playing`). A game
//! with a clock counts as going on until it is over (its clock ends it); one without, until
//! it is over or has not changed for [`LIVE_QUIET`].
//!
//! The searches run on the search pool as background work that gives way to the games being
//! played, and a few at a time server-wide (the analysts' turns): a page may wait for its turn.

use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Extension;
use denkmeter_core::ByPlayer;
use denkmeter_engine::review;
use denkmeter_engine::{Limits, SearchOptions};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::accounts::MaybeSignedIn;
use super::error::ApiError;
use super::games::BoardRequest;
use super::limits::ClientAddress;
use super::positions::{replay, Source};
use super::ws::{check_socket_origin, HEARTBEAT_EVERY, SEND_TIMEOUT, SOCKET_READ_BUFFER};
use crate::listener::ConnectionSlot;
use crate::round::{now_ms, BoardPlace, BOARD_SEARCHES_PER_ADDRESS};
use crate::AppState;

/// The longest a search runs.
pub const SEARCH_TIME: Duration = Duration::from_secs(20);
/// The deepest a search goes.
pub const SEARCH_DEPTH: u32 = 64;
/// The transposition table of one search, in megabytes.
pub const SEARCH_HASH_MB: usize = 32;
/// How long a search that gave way to the games waits before it starts again.
pub const PAUSE: Duration = Duration::from_secs(1);
/// The largest message a page may send: a game of 1,000 moves and a board file fit.
pub const MESSAGE_LIMIT: usize = 64 * 1024;
/// Searches asked for closer together than this wait: one replaced meanwhile never starts.
pub const MIN_GAP: Duration = Duration::from_millis(50);
/// A game without a clock unchanged this long no longer counts as being played.
pub const LIVE_QUIET: Duration = Duration::from_secs(60 * 60);
/// The most games a page may list as its own.
pub const MAX_PLAYING: usize = 50;
/// A page that sends nothing (not even the answer to a ping) for this long is gone.
pub const SILENCE_LIMIT: Duration = Duration::from_secs(45);

/// What the page is told when something failed on the server (the log has the details).
const BUSY: &str = "the engine cannot answer just now; try again";

/// What a page sends.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClientMessage {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    ruleset: Option<String>,
    #[serde(default)]
    board: Option<BoardRequest>,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    analysis: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default)]
    playing: Vec<String>,
}

/// What the server sends.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum ServerMessage {
    Queued {
        id: u64,
    },
    Depth {
        id: u64,
        depth: u32,
        score: i32,
        score_text: String,
        white_text: String,
        white_chances: f64,
        to_move: String,
        pv: Vec<String>,
        nodes: u64,
        ms: u64,
    },
    Paused {
        id: u64,
        message: &'static str,
    },
    Done {
        id: u64,
        reason: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    Error {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
        code: &'static str,
        message: String,
    },
}

impl ServerMessage {
    fn error(id: Option<u64>, code: &'static str, message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            id,
            code,
            message: message.into(),
        }
    }
}

pub async fn connect(
    State(state): State<AppState>,
    slot: Option<Extension<ConnectionSlot>>,
    headers: HeaderMap,
    MaybeSignedIn(session): MaybeSignedIn,
    ClientAddress(address): ClientAddress,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    check_socket_origin(&state, &headers)?;
    let account = session.map(|s| s.player.id);
    Ok(upgrade
        .max_message_size(MESSAGE_LIMIT)
        .max_frame_size(MESSAGE_LIMIT)
        .read_buffer_size(SOCKET_READ_BUFFER)
        .on_upgrade(move |socket| async move {
            // The socket holds its connection's place under the cap while it is open.
            let _slot = slot;
            serve(socket, state, account, address).await;
        }))
}

/// The search a page asked for last, while it runs.
struct Running {
    id: u64,
    /// Set to stop the search: by the page, or when the game's searches need the threads.
    stop: Arc<AtomicBool>,
    /// Set when the page stopped it (the search then says `stopped`).
    cancelled: Arc<AtomicBool>,
    task: JoinHandle<()>,
    /// Its place among its address's searches, given back as soon as it is replaced or ends.
    _place: Option<BoardPlace>,
}

impl Running {
    fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
        self.stop.store(true, Ordering::Relaxed);
        self.task.abort();
    }
}

async fn serve(socket: WebSocket, state: AppState, account: Option<String>, address: IpAddr) {
    let (mut sender, mut receiver) = socket.split();
    // Bounded by what a search sends: a message per depth (at most SEARCH_DEPTH) and a few
    // more, and one search at a time.
    let (events, mut outgoing) = mpsc::unbounded_channel::<ServerMessage>();
    let mut running: Option<Running> = None;
    let mut last_asked: Option<Instant> = None;
    let mut last_heard = Instant::now();
    let mut last_sent = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_secs(5));
    loop {
        tokio::select! {
            message = outgoing.recv() => {
                let Some(message) = message else { break };
                // A message of a search since replaced is dropped.
                let current = running.as_ref().map(|r| r.id);
                let of = match &message {
                    ServerMessage::Queued { id }
                    | ServerMessage::Depth { id, .. }
                    | ServerMessage::Paused { id, .. }
                    | ServerMessage::Done { id, .. } => Some(*id),
                    ServerMessage::Error { id, .. } => *id,
                };
                if of.is_some() && of != current {
                    continue;
                }
                if !send(&mut sender, &message).await {
                    break;
                }
                last_sent = Instant::now();
                // A search that has ended is no longer the one running.
                if of.is_some() && matches!(message, ServerMessage::Done { .. } | ServerMessage::Error { .. }) {
                    running = None;
                }
            }
            incoming = receiver.next() => {
                let text = match incoming {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(_)) => {
                        last_heard = Instant::now();
                        continue;
                    }
                };
                last_heard = Instant::now();
                let message: ClientMessage = match serde_json::from_str(&text) {
                    Ok(message) => message,
                    Err(error) => {
                        let refused = ServerMessage::error(None, "bad-request", error.to_string());
                        if !send(&mut sender, &refused).await {
                            break;
                        }
                        continue;
                    }
                };
                match message.kind.as_str() {
                    "stop" => {
                        if let Some(r) = running.take() {
                            r.cancel();
                            let _ = send(&mut sender, &ServerMessage::Done { id: r.id, reason: "stopped", text: None }).await;
                        }
                    }
                    "analyse" => {
                        let Some(id) = message.id else {
                            let refused = ServerMessage::error(None, "bad-request", "analyse: give an id");
                            if !send(&mut sender, &refused).await {
                                break;
                            }
                            continue;
                        };
                        // Searches asked for in a burst (a key held down) start at most
                        // every MIN_GAP: each waits its turn, and the next replaces it.
                        let delay = last_asked.map_or(Duration::ZERO, |t| MIN_GAP.saturating_sub(t.elapsed()));
                        // The page has moved on: its last search goes, whatever becomes of
                        // this one.
                        if let Some(r) = running.take() {
                            r.cancel();
                        }
                        // Counted as moves are: a search per position shown.
                        if let Err(error) = state.limits.check_moves(address) {
                            let refused = ServerMessage::error(Some(id), "busy", error.to_string());
                            if !send(&mut sender, &refused).await {
                                break;
                            }
                            continue;
                        }
                        last_asked = Some(Instant::now());
                        // At most BOARD_SEARCHES_PER_ADDRESS per address, unless the server
                        // counts no address's connections (behind a proxy, where every
                        // client has the proxy's address).
                        let place = if state.config.max_connections_per_address == 0 {
                            None
                        } else {
                            match state.rounds.board_place(address) {
                                Some(place) => Some(place),
                                None => {
                                    let refused = ServerMessage::error(
                                        Some(id),
                                        "busy",
                                        format!(
                                            "at most {BOARD_SEARCHES_PER_ADDRESS} searches from one address at once: \
                                             close another analysis board"
                                        ),
                                    );
                                    if !send(&mut sender, &refused).await {
                                        break;
                                    }
                                    continue;
                                }
                            }
                        };
                        let stop = Arc::new(AtomicBool::new(false));
                        let cancelled = Arc::new(AtomicBool::new(false));
                        let task = tokio::spawn(search(
                            delay,
                            state.clone(),
                            account.clone(),
                            id,
                            message,
                            (stop.clone(), cancelled.clone()),
                            events.clone(),
                        ));
                        running = Some(Running { id, stop, cancelled, task, _place: place });
                    }
                    other => {
                        let refused = ServerMessage::error(
                            message.id,
                            "bad-request",
                            format!("unknown message type {other:?}: expected analyse or stop"),
                        );
                        if !send(&mut sender, &refused).await {
                            break;
                        }
                    }
                }
            }
            _ = tick.tick() => {
                if last_heard.elapsed() >= SILENCE_LIMIT {
                    let _ = sender.send(Message::Close(None)).await;
                    break;
                }
                if last_sent.elapsed() >= HEARTBEAT_EVERY {
                    let ping = tokio::time::timeout(SEND_TIMEOUT, sender.send(Message::Ping(Vec::new().into())));
                    if !matches!(ping.await, Ok(Ok(()))) {
                        break;
                    }
                    last_sent = Instant::now();
                }
            }
        }
    }
    if let Some(r) = running.take() {
        r.cancel();
    }
}

async fn send(
    sender: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    message: &ServerMessage,
) -> bool {
    let Ok(text) = serde_json::to_string(message) else {
        return false;
    };
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, sender.send(Message::Text(text.into()))).await,
        Ok(Ok(()))
    )
}

/// Runs one search the page asked for, after `delay`, sending what it finds to `events`.
async fn search(
    delay: Duration,
    state: AppState,
    account: Option<String>,
    id: u64,
    message: ClientMessage,
    (stop, cancelled): (Arc<AtomicBool>, Arc<AtomicBool>),
    events: mpsc::UnboundedSender<ServerMessage>,
) {
    let say = |message: ServerMessage| {
        let _ = events.send(message);
    };
    tokio::time::sleep(delay).await;
    if message.playing.len() > MAX_PLAYING {
        return say(ServerMessage::error(
            Some(id),
            "bad-request",
            format!("playing: at most {MAX_PLAYING} games"),
        ));
    }
    let since = now_ms() - LIVE_QUIET.as_millis() as i64;
    match state
        .rounds
        .store
        .live_game_among(account.as_deref(), &message.playing, since)
        .await
    {
        Ok(None) => {}
        Ok(Some(game)) => {
            return say(ServerMessage::error(
                Some(id),
                "live-game",
                format!(
                    "the engine is off while you play a game (game {game} is going on); \
                     it comes back when the game is over"
                ),
            ))
        }
        Err(error) => {
            tracing::error!(%error, "cannot look for the viewer's games");
            return say(ServerMessage::error(Some(id), "busy", BUSY));
        }
    }
    let source = Source {
        ruleset: message.ruleset,
        board: message.board,
        position: message.position,
        game: message.game,
        analysis: message.analysis,
    };
    let session = match source.start(&state).await {
        Ok(start) => replay(&start, &message.moves).map(|s| (start, s)),
        Err(error) => Err(error),
    };
    let (start, session) = match session {
        Ok(found) => found,
        Err(error) => {
            let code = match &error {
                ApiError::NotFound(_) => "not-found",
                ApiError::Conflict(_) => "still-played",
                ApiError::BadRequest(_) => "bad-request",
                _ => {
                    tracing::error!(%error, "cannot set up a position to analyse");
                    return say(ServerMessage::error(Some(id), "busy", BUSY));
                }
            };
            return say(ServerMessage::error(Some(id), code, error.to_string()));
        }
    };
    if let Some(outcome) = session.status().outcome() {
        let names = start.ruleset.facts().side_names;
        return say(ServerMessage::Done {
            id,
            reason: "over",
            text: Some(outcome.describe(names)),
        });
    }
    if session.legal_moves().is_empty() {
        return say(ServerMessage::Done {
            id,
            reason: "over",
            text: Some("no move: the game ends here".to_string()),
        });
    }
    let rounds = state.rounds.clone();
    let _turn = match rounds.try_board_turn() {
        Some(turn) => turn,
        None => {
            say(ServerMessage::Queued { id });
            match rounds.board_turn().await {
                Ok(turn) => turn,
                Err(_) => return say(ServerMessage::error(Some(id), "busy", BUSY)),
            }
        }
    };
    let names: ByPlayer<&'static str> = start.ruleset.facts().side_names;
    let began = Instant::now();
    let session: Arc<dyn denkmeter_engine::dynamic::AnySession> = Arc::from(session);
    loop {
        if began.elapsed() >= SEARCH_TIME {
            return say(ServerMessage::Done {
                id,
                reason: "time",
                text: None,
            });
        }
        let searched = session.clone();
        let depths = events.clone();
        let flag = stop.clone();
        let to_move = session.to_move();
        let found = rounds
            .search_pool()
            .compute_yielding_with(
                format!("board {}", session.ruleset()),
                stop.clone(),
                move |_| {
                    // The time it waited in the pool's queue counts.
                    let left = SEARCH_TIME.saturating_sub(began.elapsed());
                    let options = SearchOptions {
                        stop: Some(flag),
                        hash_mb: SEARCH_HASH_MB,
                        ..review::position_options(Limits {
                            depth: Some(SEARCH_DEPTH),
                            nodes: None,
                            time: Some(left.max(Duration::from_millis(1))),
                            target: None,
                        })
                    };
                    let mut deepest = 0;
                    searched.analyse_known(&options, &mut |line| {
                        deepest = line.depth;
                        let eval = review::line_eval(to_move, 0, line.clone(), names);
                        let _ = depths.send(ServerMessage::Depth {
                            id,
                            depth: eval.depth,
                            score: eval.score,
                            score_text: eval.score_text,
                            white_text: eval.white_text,
                            white_chances: eval.white_chances,
                            to_move: eval.to_move,
                            pv: eval.pv,
                            nodes: eval.nodes,
                            ms: line.elapsed.as_millis() as u64,
                        });
                    });
                    Some(deepest)
                },
            )
            .await;
        let Some((deepest, yielded)) = found else {
            return say(ServerMessage::error(Some(id), "busy", BUSY));
        };
        if cancelled.load(Ordering::Relaxed) {
            return say(ServerMessage::Done {
                id,
                reason: "stopped",
                text: None,
            });
        }
        if !yielded {
            // A search ends at its time limit, or by itself: at its deepest, or with the
            // result proved.
            let timed_out = began.elapsed() + Duration::from_millis(250) >= SEARCH_TIME;
            let reason = if deepest < SEARCH_DEPTH && timed_out {
                "time"
            } else {
                "depth"
            };
            return say(ServerMessage::Done {
                id,
                reason,
                text: None,
            });
        }
        // The games needed the threads: wait, then start again.
        say(ServerMessage::Paused {
            id,
            message: "the engine gave way to games being played; it goes on in a moment",
        });
        stop.store(false, Ordering::Relaxed);
        tokio::time::sleep(PAUSE).await;
    }
}

//! `GET /api/games/{id}/ws`: the viewer's view at once and after every change.

use axum::extract::rejection::QueryRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use super::error::ApiError;
use super::games::view_for;
use crate::AppState;

#[derive(Debug, Deserialize)]
pub struct WsQuery {
    token: Option<String>,
}

pub async fn connect(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<WsQuery>, QueryRejection>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let Query(query) = query?;
    // Refuse unknown games and bad tokens before upgrading.
    view_for(&state, &id, query.token.as_deref(), None).await?;
    Ok(upgrade.on_upgrade(move |socket| watch(socket, state, id, query.token)))
}

async fn watch(socket: WebSocket, state: AppState, id: String, token: Option<String>) {
    let Ok(entry) = state.games.get(&id).await else {
        return;
    };
    let mut changes = entry.changes.subscribe();
    let (mut sender, mut receiver) = socket.split();
    loop {
        let text = match view_for(&state, &id, token.as_deref(), None).await {
            Ok(view) => match serde_json::to_string(&view) {
                Ok(text) => text,
                Err(_) => return,
            },
            Err(_) => return,
        };
        if sender.send(Message::Text(text.into())).await.is_err() {
            return;
        }
        tokio::select! {
            change = changes.recv() => match change {
                Ok(()) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return,
            },
            incoming = receiver.next() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => {
                    // Clients send nothing; anything else is answered with the view again.
                }
            },
        }
    }
}

//! `POST /api/positions`: the analysis board's rules. Moves are replayed from a start (a
//! ruleset's, a position given, a finished game's or an analysed game's), or a position is set
//! up by hand, and the result is drawn with its legal moves. Nothing here consults the engine,
//! so nothing is refused to a player in a game.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use denkmeter_core::{Cell, Player};
use denkmeter_engine::dynamic::{AnyGame, AnySession};
use denkmeter_engine::review;
use serde::{Deserialize, Serialize};

use super::error::{ApiError, Body};
use super::games::{on_board, BoardRequest};
use crate::round::json::{BoardJson, PositionJson, SideNamesJson};
use crate::round::RoundError;
use crate::AppState;

/// Where the moves of a position start: one of a ruleset (on an uploaded board, from a
/// position given or its own start), a finished game of the server's, or a whole-game analysis.
#[derive(Debug, Default)]
pub struct Source {
    pub ruleset: Option<String>,
    pub board: Option<BoardRequest>,
    pub position: Option<String>,
    pub game: Option<String>,
    pub analysis: Option<String>,
}

/// A source found: the ruleset and the start position (`None`: the ruleset's own).
pub struct Start {
    pub ruleset: Arc<dyn AnyGame>,
    pub position: Option<String>,
}

impl Source {
    /// The ruleset and start the source names. A game still being played is refused (409).
    pub async fn start(&self, state: &AppState) -> Result<Start, ApiError> {
        let position = self.position.clone().filter(|p| !p.trim().is_empty());
        match (&self.ruleset, &self.game, &self.analysis) {
            (Some(name), None, None) => {
                let ruleset = state
                    .registry
                    .find(name)
                    .ok_or_else(|| RoundError::UnknownRuleset(name.clone()))?;
                Ok(Start {
                    ruleset: on_board(ruleset, self.board.as_ref())?,
                    position,
                })
            }
            (None, Some(_), None) | (None, None, Some(_))
                if self.board.is_some() || position.is_some() =>
            {
                Err(ApiError::BadRequest(
                    "a game or an analysis has its own board and start: give neither".into(),
                ))
            }
            (None, Some(id), None) => {
                let game = state.rounds.finished_game(id).await?;
                Ok(Start {
                    ruleset: game.ruleset,
                    position: game.start_position,
                })
            }
            (None, None, Some(id)) => {
                let (ruleset, position) = state.reviews.source(id).await?;
                Ok(Start { ruleset, position })
            }
            _ => Err(ApiError::BadRequest(
                "give one of ruleset, game and analysis".into(),
            )),
        }
    }
}

/// The session after `moves` from `start`; a bad start or move is the asker's error (400),
/// naming the move.
pub fn replay(start: &Start, moves: &[String]) -> Result<Box<dyn AnySession>, ApiError> {
    review::replay(start.ruleset.as_ref(), start.position.as_deref(), moves)
        .map_err(|error| ApiError::BadRequest(error.to_string()))
}

/// A position for the analysis board: see the module's docs and docs/api.md.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionsRequest {
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
    /// A position set up by hand: the token on each cell, by the cell's number.
    #[serde(default)]
    grid: Option<HashMap<String, String>>,
    /// With `grid`: `white` or `black`.
    #[serde(default)]
    to_move: Option<String>,
    /// Adds what drawing the board needs (once per page).
    #[serde(default)]
    with_board: bool,
}

/// What may stand on a cell in the board editor.
#[derive(Debug, Serialize)]
pub struct TokenJson {
    pub text: String,
    pub owner: Option<&'static str>,
    pub kind: &'static str,
    pub letter: char,
}

#[derive(Debug, Serialize)]
pub struct EditorJson {
    pub tokens: Vec<TokenJson>,
}

/// What drawing the board needs, sent once.
#[derive(Debug, Serialize)]
pub struct DrawingJson {
    pub display_name: String,
    pub family: &'static str,
    pub side_names: SideNamesJson,
    pub hidden_information: bool,
    pub board: BoardJson,
    pub board_name: Option<String>,
    pub editor: EditorJson,
}

/// A position of the analysis board.
#[derive(Debug, Serialize)]
pub struct BoardPositionJson {
    pub ruleset: String,
    /// Where the moves start, written out even when it is the ruleset's start.
    pub start_position: String,
    /// The moves as the rules write them.
    pub moves: Vec<String>,
    pub position: String,
    #[serde(flatten)]
    pub shown: PositionJson,
    /// The result in words, once the game is over.
    pub outcome: Option<String>,
    /// The token on each occupied cell, by cell number, for the board editor.
    pub grid: BTreeMap<u16, String>,
    #[serde(flatten)]
    pub drawing: Option<DrawingJson>,
}

impl BoardPositionJson {
    pub fn of(ruleset: &dyn AnyGame, session: &dyn AnySession, with_board: bool) -> Self {
        let facts = ruleset.facts();
        let position = session.position();
        // The session's own position is one the rules wrote, so it reads back.
        let grid = ruleset
            .position_grid(&position)
            .unwrap_or_default()
            .into_iter()
            .map(|(cell, token)| (cell.0, token))
            .collect();
        let drawing = with_board.then(|| DrawingJson {
            display_name: facts.display_name(),
            family: facts.family,
            side_names: SideNamesJson::of(ruleset),
            hidden_information: facts.hidden_information,
            board: BoardJson::of(ruleset.board()),
            board_name: ruleset.board_file().map(|(name, _)| name.to_string()),
            editor: EditorJson {
                tokens: ruleset
                    .editor_tokens()
                    .into_iter()
                    .map(|t| TokenJson {
                        text: t.text,
                        owner: t.owner.map(Player::name),
                        kind: t.kind,
                        letter: t.letter,
                    })
                    .collect(),
            },
        });
        BoardPositionJson {
            ruleset: ruleset.name().to_string(),
            start_position: session.start_position(),
            moves: session.moves().to_vec(),
            position,
            shown: PositionJson::of(session),
            outcome: session
                .status()
                .outcome()
                .map(|o| o.describe(facts.side_names)),
            grid,
            drawing,
        }
    }
}

/// The cells and tokens of a position set up by hand, its cells by number.
fn placed(grid: &HashMap<String, String>) -> Result<Vec<(Cell, String)>, ApiError> {
    grid.iter()
        .map(|(cell, token)| {
            let number: u16 = cell.parse().map_err(|_| {
                ApiError::BadRequest(format!("grid: {cell:?} is not a cell number"))
            })?;
            Ok((Cell(number), token.clone()))
        })
        .collect()
}

pub async fn show(
    State(state): State<AppState>,
    Body(request): Body<PositionsRequest>,
) -> Result<Json<BoardPositionJson>, ApiError> {
    let source = Source {
        ruleset: request.ruleset,
        board: request.board,
        position: request.position,
        game: request.game,
        analysis: request.analysis,
    };
    let mut start = source.start(&state).await?;
    let session = match &request.grid {
        Some(grid) => {
            if !request.moves.is_empty() || start.position.is_some() {
                return Err(ApiError::BadRequest(
                    "a position set up by hand (grid) has no moves and no other position".into(),
                ));
            }
            let to_move = match request.to_move.as_deref() {
                Some("white") => Player::White,
                Some("black") => Player::Black,
                _ => {
                    return Err(ApiError::BadRequest(
                        "to_move: expected \"white\" or \"black\" with a grid".into(),
                    ))
                }
            };
            let position = start
                .ruleset
                .compose_position(&placed(grid)?, to_move)
                .map_err(|e| RoundError::BadPosition(e.to_string()))?;
            start.position = Some(position);
            replay(&start, &[])?
        }
        None => {
            if request.to_move.is_some() {
                return Err(ApiError::BadRequest(
                    "to_move goes with a grid; a position string says who moves".into(),
                ));
            }
            replay(&start, &request.moves)?
        }
    };
    Ok(Json(BoardPositionJson::of(
        start.ruleset.as_ref(),
        session.as_ref(),
        request.with_board,
    )))
}

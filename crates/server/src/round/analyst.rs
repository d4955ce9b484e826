//! The analyst: the engine's evaluation and best line for a position of a finished game, or
//! for a position given as a string, searched on the search pool behind every game being
//! played, a few at a time server-wide. Of the games on the server only finished ones are
//! analysed, so that nobody consults the engine in a game still being played. The search sees
//! what the side to move knew: in Trangalla it searches over drawings of the other king, and its
//! line is the mover's move alone.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use denkmeter_engine::dynamic::{AnyGame, AnySession};
use denkmeter_engine::search::eval::score_text;
use denkmeter_engine::{Limits, SearchOptions};
use serde::Serialize;

use super::json::position_after;
use super::{RoundError, Rounds};
use crate::search::Priority;

/// The most one analysis searches: positions, and seconds on a slow or busy machine.
pub const ANALYSIS_NODES: u64 = 1_000_000;
pub const ANALYSIS_SECONDS: u64 = 2;

/// The engine's view of the position after `ply` moves.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// The ruleset analysed (a pasted PDN game's may not be the one asked for).
    pub ruleset: String,
    pub ply: usize,
    /// The side the score is for: the side to move.
    pub to_move: &'static str,
    /// The last completed depth (0 when the position has no move).
    pub depth: u32,
    /// In hundredths of the game's basic piece, for the side to move.
    pub score: i32,
    /// The score for people: `+0.35`, `win in 5 plies`...
    pub score_text: String,
    /// The best line, the best move first, in the game's notation.
    pub pv: Vec<String>,
    pub nodes: u64,
}

/// The analysis board's searches a client address may have waiting or running at once.
pub const BOARD_SEARCHES_PER_ADDRESS: usize = 2;

/// One analysis board search's place among its address's (see [`Rounds::board_place`]).
#[derive(Debug)]
pub struct BoardPlace {
    rounds: Arc<Rounds>,
    address: IpAddr,
}

impl Drop for BoardPlace {
    fn drop(&mut self) {
        if let Ok(mut by_address) = self.rounds.exploring_by_address.lock() {
            if let Some(count) = by_address.get_mut(&self.address) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    by_address.remove(&self.address);
                }
            }
        }
    }
}

/// Analyses kept per game, by ply.
pub(super) type Analyses = HashMap<usize, Analysis>;

/// A finished game as its whole-game analysis needs it.
#[derive(Debug)]
pub struct FinishedGame {
    pub ruleset: Arc<dyn AnyGame>,
    pub start_position: Option<String>,
    /// Every move, hidden ones as they were played: the game is over.
    pub moves: Vec<String>,
}

impl Rounds {
    /// A finished game's ruleset, start and moves (refused while it is being played).
    pub async fn finished_game(self: &Arc<Self>, id: &str) -> Result<FinishedGame, RoundError> {
        let proxy = self.fresh(id).await?;
        let game = proxy.snapshot();
        if !game.session.status().is_over() {
            return Err(RoundError::StillPlayed);
        }
        Ok(FinishedGame {
            ruleset: game.ruleset.clone(),
            start_position: game.start_position.clone(),
            moves: game.session.moves().to_vec(),
        })
    }

    /// The analysis of the position after `ply` moves (the last position by default) of a
    /// finished game. A game has one analysis search at a time, and each ply's is kept.
    pub async fn analysis(
        self: &Arc<Self>,
        id: &str,
        ply: Option<usize>,
    ) -> Result<Analysis, RoundError> {
        // As the game is in the database now: another server may just have finished it.
        let proxy = self.fresh(id).await?;
        let mut kept = proxy.analyses.lock().await;
        let game = proxy.snapshot();
        if !game.session.status().is_over() {
            return Err(RoundError::StillPlayed);
        }
        let ply = ply.unwrap_or(game.session.moves().len());
        if let Some(found) = kept.get(&ply) {
            return Ok(found.clone());
        }
        let session = position_after(&game, ply)?;
        let analysis = self.analyse(session, ply).await?;
        kept.insert(ply, analysis.clone());
        Ok(analysis)
    }

    /// The analysis of a position given as a string (`ply` 0), or the ruleset's start.
    pub async fn analyse_position(
        self: &Arc<Self>,
        ruleset: &dyn AnyGame,
        position: Option<&str>,
    ) -> Result<Analysis, RoundError> {
        let session = ruleset
            .new_game(position)
            .map_err(|e| RoundError::BadPosition(e.to_string()))?;
        self.analyse(session, 0).await
    }

    /// A place for one more analysis board search of a client address, if it has fewer than
    /// [`BOARD_SEARCHES_PER_ADDRESS`] waiting or running; given back when dropped.
    pub fn board_place(self: &Arc<Self>, address: IpAddr) -> Option<BoardPlace> {
        let mut by_address = self.exploring_by_address.lock().ok()?;
        let count = by_address.entry(address).or_insert(0);
        if *count >= BOARD_SEARCHES_PER_ADDRESS {
            return None;
        }
        *count += 1;
        Some(BoardPlace {
            rounds: self.clone(),
            address,
        })
    }

    /// A turn for an analysis board search, if one is free now.
    pub fn try_board_turn(&self) -> Option<tokio::sync::SemaphorePermit<'_>> {
        self.exploring.try_acquire().ok()
    }

    /// A turn for an analysis board search, waited for.
    pub async fn board_turn(&self) -> Result<tokio::sync::SemaphorePermit<'_>, RoundError> {
        self.exploring
            .acquire()
            .await
            .map_err(|_| RoundError::Internal("the server is stopping".into()))
    }

    /// Searches `session`'s position, a few at a time server-wide.
    async fn analyse(
        &self,
        session: Box<dyn AnySession>,
        ply: usize,
    ) -> Result<Analysis, RoundError> {
        let to_move = session.to_move().name();
        let ruleset = session.ruleset().to_string();
        let options = SearchOptions::new(Limits {
            depth: None,
            nodes: Some(ANALYSIS_NODES),
            time: Some(Duration::from_secs(ANALYSIS_SECONDS)),
            target: None,
        });
        let analysis = if session.legal_moves().is_empty() {
            Analysis {
                ruleset,
                ply,
                to_move,
                depth: 0,
                score: 0,
                score_text: "no move: the game ends here".to_string(),
                pv: Vec::new(),
                nodes: 0,
            }
        } else {
            let _turn = self
                .analysing
                .acquire()
                .await
                .map_err(|_| RoundError::Internal("the server is stopping".into()))?;
            // A failed search is not kept: asking again searches again.
            let line = self
                .pool
                .analyse(Priority::Background, session, options)
                .await
                .ok_or_else(|| RoundError::Internal("the analysis failed; try again".into()))?;
            Analysis {
                ruleset,
                ply,
                to_move,
                depth: line.depth,
                score: line.score,
                score_text: score_text(line.score),
                pv: line.pv,
                nodes: line.nodes,
            }
        };
        Ok(analysis)
    }
}

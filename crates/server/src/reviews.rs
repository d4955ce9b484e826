//! Whole-game analyses in the server: a finished game (or a game pasted in) asked for once,
//! every position searched on the search pool behind every game being played, the result kept
//! in the database, and progress told to whoever follows it.
//!
//! Bounds: at most [`MAX_WAITING`] analyses unfinished server-wide and
//! [`MAX_WAITING_PER_ADDRESS`] per client address; a game of at most
//! [`review::MAX_PLIES`] moves. One analysis runs at a time per server, its positions in
//! parallel on the pool's threads at the lowest priority, each a short search
//! ([`review::DEFAULT_NODES`] positions, at most [`review::DEFAULT_TIME`]). While games are
//! searching, the analysis starts searches on all threads but one; and a game's search that
//! finds every thread held by the analysis's searches stops one of them (see
//! [`crate::search::SearchPool::compute_yielding`]): a game waits for an analysis about as
//! long as a search takes to notice its stop flag, not for a whole position. A server claims
//! the analysis it runs and renews the claim (with its progress) after every search, so an
//! analysis whose server died is taken over by another (PostgreSQL) or resumed at restart.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use denkmeter_engine::dynamic::{AnyGame, AnySession};
use denkmeter_engine::review::{self, GameReview, ReviewError as GameReviewError};
use denkmeter_engine::{Registry, SearchOptions};
use serde::Serialize;
use sha2::{Digest, Sha256};
use tokio::sync::{watch, Notify};

use crate::round::json::{BoardJson, PositionJson, RawJson, SideNamesJson};
use crate::round::{now_ms, RoundError, Rounds};
use crate::store::{StoreError, StoredAnalysis, CLAIM_STALE_MS};

/// The most analyses waiting or running, server-wide.
pub const MAX_WAITING: i64 = 20;
/// The most of them one address may have asked for.
pub const MAX_WAITING_PER_ADDRESS: i64 = 2;
/// How long the runner waits for a new analysis before looking again (another server on the
/// same PostgreSQL database may have stored one).
const IDLE_LOOK: Duration = Duration::from_secs(30);
/// A position's search that gave way to a game's is kept if it had completed this depth, else
/// done again: under a steady stream of games an analysis still gets on.
const KEPT_DEPTH: u32 = 5;
/// The version of the analysis's method, in its id: a new one analyses games again.
const METHOD: u32 = 1;

/// Why an analysis cannot be asked for or shown.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    #[error(transparent)]
    Round(#[from] RoundError),
    #[error("no analysis {0:?}")]
    NotFound(String),
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    Busy(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// An analysis as the API shows it.
#[derive(Debug, Serialize)]
pub struct AnalysisJson {
    pub id: String,
    /// The server's game analysed, if it is one.
    pub game_id: Option<String>,
    pub ruleset: String,
    pub display_name: String,
    pub family: &'static str,
    pub side_names: SideNamesJson,
    /// A [`BoardJson`].
    pub board: RawJson,
    pub board_name: Option<String>,
    /// In a game that hides something: the analysis sees everything, as it comes after the
    /// game. The words say so.
    pub full_information: Option<&'static str>,
    pub start_position: Option<String>,
    pub first_to_move: &'static str,
    pub moves: Vec<String>,
    /// `waiting`, `running`, `done` or `failed`.
    pub status: &'static str,
    /// Positions searched, of `total` (one more than the moves).
    pub done: usize,
    pub total: usize,
    pub error: Option<String>,
    /// Once done: the positions' evaluations and the moves judged (see
    /// `denkmeter_engine::review::GameReview`).
    pub review: Option<RawJson>,
}

/// Just the progress, for the event stream.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Progress {
    pub status: &'static str,
    pub done: usize,
    pub total: usize,
}

const FULL_INFORMATION: &str = "The game is over, so the analysis sees everything, the hidden \
     pieces included: its judgements use what neither player knew when he moved.";

/// The server's whole-game analyses.
#[derive(Debug)]
pub struct Reviews {
    rounds: Weak<Rounds>,
    registry: Arc<Registry>,
    /// The analyses this server runs now: positions done and in all.
    running: Mutex<HashMap<String, (usize, usize)>>,
    /// Moves on whenever an analysis here makes progress.
    changes: watch::Sender<u64>,
    wake: Notify,
}

/// The id of an analysis: what it analyses, and how.
fn analysis_id(game: &dyn AnyGame, start: Option<&str>, moves: &[String]) -> String {
    let limits = review::default_limits();
    let key = serde_json::json!({
        "method": METHOD,
        "ruleset": game.name(),
        "board": game.board_file().map(|(_, text)| text),
        "start": start,
        "moves": moves,
        "nodes": limits.nodes,
    });
    let digest = Sha256::digest(key.to_string().as_bytes());
    digest[..12].iter().map(|b| format!("{b:02x}")).collect()
}

impl Reviews {
    pub fn new(rounds: &Arc<Rounds>, registry: Arc<Registry>) -> Arc<Reviews> {
        Arc::new(Reviews {
            rounds: Arc::downgrade(rounds),
            registry,
            running: Mutex::new(HashMap::new()),
            changes: watch::channel(0).0,
            wake: Notify::new(),
        })
    }

    fn rounds(&self) -> Result<Arc<Rounds>, ReviewError> {
        self.rounds
            .upgrade()
            .ok_or_else(|| ReviewError::Busy("the server is stopping".to_string()))
    }

    /// Asks for the analysis of a finished game of the server's (or finds the one asked for
    /// before).
    pub async fn request_game(
        &self,
        game_id: &str,
        address: &str,
    ) -> Result<AnalysisJson, ReviewError> {
        let rounds = self.rounds()?;
        let game = rounds.finished_game(game_id).await?;
        let mut analysis = self
            .request(
                game.ruleset,
                game.start_position,
                game.moves,
                Some(game_id.to_string()),
                address,
            )
            .await?;
        // Another game with the same moves may have asked first: this one is the game here.
        analysis.game_id = Some(game_id.to_string());
        Ok(analysis)
    }

    /// Asks for the analysis of a game given by its moves (a game pasted in). A game that hides
    /// something is analysed only once it is over.
    pub async fn request_moves(
        &self,
        ruleset: Arc<dyn AnyGame>,
        start: Option<String>,
        moves: Vec<String>,
        address: &str,
    ) -> Result<AnalysisJson, ReviewError> {
        let session = review::replay(ruleset.as_ref(), start.as_deref(), &moves)
            .map_err(|e| ReviewError::Refused(e.to_string()))?;
        if ruleset.facts().hidden_information && !session.status().is_over() {
            return Err(ReviewError::Refused(format!(
                "{} hides pieces: a game of it is analysed only once it is over",
                ruleset.facts().display_name()
            )));
        }
        // As the rules write them (`e3-g3+` is `E3-G3`), from no position at the ruleset's
        // start: the same game pasted twice is one analysis, and its moves compare with the
        // engine's.
        let moves = session.moves().to_vec();
        let standard = ruleset.new_game(None).map(|s| s.position()).ok();
        let start = Some(session.start_position()).filter(|s| Some(s) != standard.as_ref());
        self.request(ruleset, start, moves, None, address).await
    }

    async fn request(
        &self,
        ruleset: Arc<dyn AnyGame>,
        start: Option<String>,
        moves: Vec<String>,
        game_id: Option<String>,
        address: &str,
    ) -> Result<AnalysisJson, ReviewError> {
        if moves.len() > review::MAX_PLIES {
            return Err(ReviewError::Refused(
                GameReviewError::TooLong(moves.len()).to_string(),
            ));
        }
        let rounds = self.rounds()?;
        let store = &rounds.store;
        let id = analysis_id(ruleset.as_ref(), start.as_deref(), &moves);
        if let Some(head) = store.load_analysis_head(&id).await? {
            // A failure is not for ever: asked again, the analysis runs again.
            if head.error.is_some() {
                store.retry_analysis(&id, now_ms()).await?;
                self.wake.notify_one();
            }
            let stored = store
                .load_analysis(&id)
                .await?
                .ok_or_else(|| ReviewError::NotFound(id.clone()))?;
            return self.json(&stored, ruleset.as_ref());
        }
        let (waiting, mine) = store.unfinished_analyses(address).await?;
        if mine >= MAX_WAITING_PER_ADDRESS {
            return Err(ReviewError::Busy(format!(
                "you have {mine} analyses waiting (at most {MAX_WAITING_PER_ADDRESS}): ask again when one is done"
            )));
        }
        if waiting >= MAX_WAITING {
            return Err(ReviewError::Busy(format!(
                "the server has {waiting} analyses waiting (at most {MAX_WAITING}): ask again in a few minutes"
            )));
        }
        let stored = StoredAnalysis {
            id: id.clone(),
            game_id,
            ruleset: ruleset.name().to_string(),
            start_position: start,
            moves,
            requested_by: address.to_string(),
            requested_at: now_ms(),
            claimed_at: None,
            done: 0,
            finished_at: None,
            result: None,
            error: None,
        };
        store.insert_analysis(&stored).await?;
        self.wake.notify_one();
        let stored = store
            .load_analysis(&id)
            .await?
            .ok_or_else(|| ReviewError::NotFound(id.clone()))?;
        self.json(&stored, ruleset.as_ref())
    }

    /// The ruleset an analysis is of: its game's (on the game's board), else by name.
    async fn ruleset_of(&self, stored: &StoredAnalysis) -> Result<Arc<dyn AnyGame>, ReviewError> {
        if let Some(game_id) = &stored.game_id {
            let rounds = self.rounds()?;
            if let Ok(game) = rounds.finished_game(game_id).await {
                return Ok(game.ruleset);
            }
        }
        self.registry
            .find(&stored.ruleset)
            .ok_or_else(|| ReviewError::Round(RoundError::UnknownRuleset(stored.ruleset.clone())))
    }

    /// An analysis as stored, without its result.
    async fn stored_head(&self, id: &str) -> Result<StoredAnalysis, ReviewError> {
        self.rounds()?
            .store
            .load_analysis_head(id)
            .await?
            .ok_or_else(|| ReviewError::NotFound(id.to_string()))
    }

    async fn stored(&self, id: &str) -> Result<StoredAnalysis, ReviewError> {
        self.rounds()?
            .store
            .load_analysis(id)
            .await?
            .ok_or_else(|| ReviewError::NotFound(id.to_string()))
    }

    /// What an analysis is of: its ruleset (on its game's board) and its start position.
    pub async fn source(
        &self,
        id: &str,
    ) -> Result<(Arc<dyn AnyGame>, Option<String>), ReviewError> {
        let stored = self.stored(id).await?;
        let ruleset = self.ruleset_of(&stored).await?;
        Ok((ruleset, stored.start_position))
    }

    /// An analysis, however far it has got.
    pub async fn view(&self, id: &str) -> Result<AnalysisJson, ReviewError> {
        let stored = self.stored(id).await?;
        let ruleset = self.ruleset_of(&stored).await?;
        self.json(&stored, ruleset.as_ref())
    }

    /// The analysis of a finished game of the server's, if one was asked for.
    pub async fn of_game(&self, game_id: &str) -> Result<Option<AnalysisJson>, ReviewError> {
        let game = self.rounds()?.finished_game(game_id).await?;
        let id = analysis_id(
            game.ruleset.as_ref(),
            game.start_position.as_deref(),
            &game.moves,
        );
        match self.rounds()?.store.load_analysis(&id).await? {
            Some(stored) => {
                let mut analysis = self.json(&stored, game.ruleset.as_ref())?;
                analysis.game_id = Some(game_id.to_string());
                Ok(Some(analysis))
            }
            None => Ok(None),
        }
    }

    /// The position after `ply` moves of an analysed game, as everyone sees it.
    pub async fn position(&self, id: &str, ply: usize) -> Result<PositionJson, ReviewError> {
        let stored = self.stored_head(id).await?;
        if ply > stored.moves.len() {
            return Err(ReviewError::Round(RoundError::BadPly {
                ply,
                played: stored.moves.len(),
            }));
        }
        let ruleset = self.ruleset_of(&stored).await?;
        let session = review::replay(
            ruleset.as_ref(),
            stored.start_position.as_deref(),
            &stored.moves[..ply],
        )
        .map_err(|e| RoundError::Corrupt(format!("analysis {id}: replay: {e}")))?;
        Ok(PositionJson::of(session.as_ref()))
    }

    /// How far an analysis has got.
    pub async fn progress(&self, id: &str) -> Result<Progress, ReviewError> {
        if let Some((done, total)) = self.running_now(id) {
            return Ok(Progress {
                status: "running",
                done,
                total,
            });
        }
        let stored = self.stored_head(id).await?;
        let (status, done) = status_of(&stored, now_ms());
        Ok(Progress {
            status,
            done,
            total: stored.moves.len() + 1,
        })
    }

    fn running_now(&self, id: &str) -> Option<(usize, usize)> {
        self.running.lock().ok()?.get(id).copied()
    }

    /// Moves on whenever an analysis on this server makes progress.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    fn json(
        &self,
        stored: &StoredAnalysis,
        ruleset: &dyn AnyGame,
    ) -> Result<AnalysisJson, ReviewError> {
        let facts = ruleset.facts();
        let total = stored.moves.len() + 1;
        let (mut status, mut done) = status_of(stored, now_ms());
        if let Some((now, _)) = self.running_now(&stored.id) {
            status = "running";
            done = now;
        }
        let review = match &stored.result {
            Some(text) => Some(RawJson::from_text(text.clone()).map_err(|e| {
                ReviewError::Store(StoreError::Corrupt {
                    id: stored.id.clone(),
                    what: "analysis",
                    value: e.to_string(),
                })
            })?),
            None => None,
        };
        let first_to_move = ruleset
            .new_game(stored.start_position.as_deref())
            .map(|s| s.to_move().name())
            .unwrap_or("white");
        Ok(AnalysisJson {
            id: stored.id.clone(),
            game_id: stored.game_id.clone(),
            ruleset: ruleset.name().to_string(),
            display_name: facts.display_name(),
            family: facts.family,
            side_names: SideNamesJson::of(ruleset),
            board: RawJson::of(&BoardJson::of(ruleset.board())),
            board_name: ruleset.board_file().map(|(name, _)| name.to_string()),
            full_information: facts.hidden_information.then_some(FULL_INFORMATION),
            start_position: stored.start_position.clone(),
            first_to_move,
            moves: stored.moves.clone(),
            status,
            done,
            total,
            error: stored.error.clone(),
            review,
        })
    }

    /// Runs the analyses asked for, oldest first, one at a time, until the server stops.
    pub fn spawn_runner(self: &Arc<Self>) {
        let reviews = Arc::downgrade(self);
        tokio::spawn(async move {
            if let Some(this) = reviews.upgrade() {
                if let Ok(rounds) = this.rounds() {
                    if let Err(error) = rounds.store.release_analysis_claims().await {
                        tracing::warn!(%error, "cannot release the analyses of an earlier run");
                    }
                }
            }
            loop {
                let Some(this) = reviews.upgrade() else {
                    return;
                };
                let claimed = match this.rounds() {
                    Ok(rounds) => rounds.store.claim_analysis(now_ms()).await,
                    Err(_) => return,
                };
                match claimed {
                    Ok(Some(stored)) => this.run(stored).await,
                    Ok(None) => {
                        let _ = tokio::time::timeout(IDLE_LOOK, this.wake.notified()).await;
                    }
                    Err(error) => {
                        tracing::warn!(%error, "cannot look for analyses to run");
                        drop(this);
                        tokio::time::sleep(IDLE_LOOK).await;
                    }
                }
            }
        });
    }

    fn set_running(&self, id: &str, progress: Option<(usize, usize)>) {
        if let Ok(mut running) = self.running.lock() {
            match progress {
                Some(p) => {
                    running.insert(id.to_string(), p);
                }
                None => {
                    running.remove(id);
                }
            }
        }
        self.changes.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// Runs one claimed analysis to its end (or until another server takes it over).
    async fn run(&self, stored: StoredAnalysis) {
        let id = stored.id.clone();
        let outcome = self.analyse(&stored).await;
        let Ok(rounds) = self.rounds() else {
            return;
        };
        let finished = match &outcome {
            Ok(Some(review)) => match serde_json::to_string(review) {
                Ok(json) => rounds.store.finish_analysis(&id, now_ms(), Ok(&json)).await,
                Err(error) => {
                    let why = format!("the analysis cannot be written: {error}");
                    rounds.store.finish_analysis(&id, now_ms(), Err(&why)).await
                }
            },
            // Taken over by another server, or the server is stopping: left as it is.
            Ok(None) => Ok(()),
            Err(why) => {
                tracing::warn!(analysis = id, why, "an analysis failed");
                rounds.store.finish_analysis(&id, now_ms(), Err(why)).await
            }
        };
        if let Err(error) = finished {
            tracing::warn!(analysis = id, %error, "cannot keep an analysis");
        }
        self.set_running(&id, None);
    }

    /// Searches every position of the analysis on the pool, a few at a time; `Ok(None)` if it
    /// was taken over or the server is stopping.
    async fn analyse(&self, stored: &StoredAnalysis) -> Result<Option<GameReview>, String> {
        let ruleset = self.ruleset_of(stored).await.map_err(|e| e.to_string())?;
        let sessions = review::positions(
            ruleset.as_ref(),
            stored.start_position.as_deref(),
            &stored.moves,
        )
        .map_err(|e| e.to_string())?;
        let total = sessions.len();
        self.set_running(&stored.id, Some((0, total)));
        let options = review::position_options(review::default_limits());
        let names = ruleset.facts().side_names;
        let mut evals = vec![None; total];
        // Positions to search, and again those whose search gave way to a game's.
        let mut pending: Vec<(usize, Box<dyn AnySession>)> =
            sessions.into_iter().enumerate().rev().collect();
        let mut searching = tokio::task::JoinSet::new();
        let mut done = 0;
        loop {
            // The server is asked for anew each time: a server that stops is not kept alive
            // by its analysis (a search in hand runs out first).
            let Ok(rounds) = self.rounds() else {
                return Ok(None);
            };
            // Every thread while nobody else needs one; one left free while a game does.
            let pool = rounds.search_pool();
            let threads = pool.threads().max(1);
            let slots = if pool.foreground() > 0 {
                threads.saturating_sub(1).max(1)
            } else {
                threads
            };
            while searching.len() < slots {
                let Some((ply, session)) = pending.pop() else {
                    break;
                };
                let rounds = Arc::downgrade(&rounds);
                let options = options.clone();
                let label = format!("analysis {}", stored.id);
                searching.spawn(async move {
                    let Some(rounds) = rounds.upgrade() else {
                        return (ply, None);
                    };
                    let eval = rounds
                        .search_pool()
                        .compute_yielding(label, move |stop| {
                            let options = SearchOptions {
                                stop: Some(stop.clone()),
                                ..options
                            };
                            let eval = review::evaluate(session.as_ref(), ply, &options, names);
                            // A search that gave way early is done again later, in full; one
                            // that had gone deep enough is kept.
                            let cut_short = stop.load(Ordering::Relaxed)
                                && !eval.over
                                && eval.depth < KEPT_DEPTH;
                            Some(if cut_short { Err(session) } else { Ok(eval) })
                        })
                        .await
                        .map(|(eval, _)| eval);
                    (ply, eval)
                });
            }
            drop(rounds);
            let Some(joined) = searching.join_next().await else {
                break;
            };
            let (ply, eval) = joined.map_err(|e| format!("a position's search failed: {e}"))?;
            let Ok(rounds) = self.rounds() else {
                return Ok(None);
            };
            match eval {
                Some(Ok(eval)) => {
                    evals[ply] = Some(eval);
                    done += 1;
                    self.set_running(&stored.id, Some((done, total)));
                }
                Some(Err(session)) => pending.push((ply, session)),
                None => return Err(format!("position {ply} could not be analysed")),
            }
            // Renewed after every search, finished or given way, with the progress for other
            // servers' pages.
            let progress = i64::try_from(done).unwrap_or(i64::MAX);
            match rounds
                .store
                .renew_analysis_claim(&stored.id, now_ms(), progress)
                .await
            {
                Ok(true) => {}
                Ok(false) => return Ok(None),
                Err(error) => tracing::warn!(%error, "cannot renew an analysis's claim"),
            }
        }
        let evals: Vec<_> = evals.into_iter().flatten().collect();
        if evals.len() != total {
            return Err("some positions were not analysed".to_string());
        }
        let facts = ruleset.facts();
        Ok(Some(review::review(
            facts.name,
            facts.family,
            &stored.moves,
            evals,
        )))
    }
}

/// Status and positions done of a stored analysis not running here: `running` while another
/// server's claim on it is fresh.
fn status_of(stored: &StoredAnalysis, now: i64) -> (&'static str, usize) {
    let total = stored.moves.len() + 1;
    let done = usize::try_from(stored.done).unwrap_or(0).min(total);
    match (&stored.finished_at, &stored.error) {
        (Some(_), Some(_)) => ("failed", 0),
        (Some(_), None) => ("done", total),
        (None, _)
            if stored
                .claimed_at
                .is_some_and(|at| at >= now - CLAIM_STALE_MS) =>
        {
            ("running", done)
        }
        (None, _) => ("waiting", done),
    }
}

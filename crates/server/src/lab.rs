//! The lab in the server: the studies stored in its database (by `denkmeter lab` or started in
//! the browser) with their reports and charts, and the small studies visitors start, played
//! one game at a time on the search pool behind every game being played (the lowest
//! priority, like a game nobody watches).
//!
//! A visitor's study is bounded: a few rulesets and players, light players, at most
//! [`WEB_MAX_GAMES`] games, and at most [`WEB_MAX_UNFINISHED`] such studies waiting at once.
//! Bigger studies are for `denkmeter lab` and its workers, on the same database.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use denkmeter_engine::{Agent, Registry};
use denkmeter_lab::store::{Claim, Cursor};
use denkmeter_lab::{
    figures, report, Backend, Figure, GameMeasure, LabStore, LabStoreError, Prepared, StoredStudy,
    StudyOpenings, StudyReport, StudyRuleset, StudySpec,
};
use serde::Deserialize;
use tokio::sync::Notify;

use crate::round::Rounds;
use crate::search::Priority;
use crate::store::Store;

/// The most games a study started in the browser may hold.
pub const WEB_MAX_GAMES: u64 = 200;
/// The most rulesets and players of a study started in the browser.
pub const WEB_MAX_RULESETS: usize = 4;
pub const WEB_MAX_PLAYERS: usize = 3;
/// The most random plies of its openings.
pub const WEB_MAX_OPENING_PLIES: u32 = 10;
/// Its games are adjudicated after this many plies.
pub const WEB_MAX_PLIES: u32 = 300;
/// The most studies started in the browser that may wait unfinished at once.
pub const WEB_MAX_UNFINISHED: usize = 3;
/// The deepest alpha-beta, the most Monte Carlo iterations and the longest time a move of a
/// browser study's player may take.
pub const WEB_MAX_DEPTH: u32 = 4;
pub const WEB_MAX_ITERATIONS: u64 = 2_000;
pub const WEB_MAX_MOVE_TIME: Duration = Duration::from_millis(200);
/// The highest computer level a browser study's player may have.
pub const WEB_MAX_LEVEL: u8 = 3;
/// The narrowest margin of `balanced` openings in the browser: a narrow one may search many
/// openings before finding one.
pub const WEB_MIN_BALANCE_MARGIN: u32 = 50;
/// The most studies started in the browser kept: beyond them the oldest finished one goes.
pub const WEB_MAX_STORED: usize = 100;
/// A study's report is computed again at most this often while its games are being played.
pub const REPORT_FRESH: Duration = Duration::from_secs(5);
/// How many studies' reports are kept computed.
const CACHED_REPORTS: usize = 16;
/// How long the runner waits for a new study before looking again (another server on the same
/// PostgreSQL database may have stored one).
const IDLE_LOOK: Duration = Duration::from_secs(30);

/// Why a study cannot be shown or started.
#[derive(Debug, thiserror::Error)]
pub enum LabError {
    /// A study the browser may not start, and why.
    #[error("{0}")]
    Refused(String),
    #[error("no study {0}")]
    NotFound(String),
    #[error("the lab is busy with {0} studies; try again when one has finished")]
    Busy(usize),
    #[error(transparent)]
    Store(#[from] LabStoreError),
    #[error("{0}")]
    Internal(String),
}

/// A study asked for in the browser.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewStudy {
    pub rulesets: Vec<String>,
    pub players: Vec<String>,
    /// Games for each ruleset and player.
    pub games: u32,
    #[serde(default)]
    pub random_plies: Option<u32>,
    /// Keep only openings scored within this margin of even (see `denkmeter lab --balanced`).
    #[serde(default)]
    pub balanced: Option<u32>,
    #[serde(default)]
    pub seed: Option<u64>,
}

/// A study's report and charts as shown, for the number of games played when computed.
#[derive(Debug)]
pub struct StudyView {
    pub study: StoredStudy,
    pub report: StudyReport,
    pub figures: Vec<Figure>,
}

/// The lab's tables in the server's database.
#[derive(Debug)]
pub struct Lab {
    /// Reads reports (the readers' pool, so that a large study never holds up the writer).
    reader: LabStore,
    /// Stores studies and their games.
    writer: LabStore,
    registry: Arc<Registry>,
    /// Reports computed lately, with when.
    cache: Mutex<HashMap<String, (Instant, Arc<StudyView>)>>,
    /// Held while a report is computed: one at a time, so that many readers of a large study
    /// cost one computation.
    computing: tokio::sync::Mutex<()>,
    /// Told when a study is started.
    wake: Notify,
}

impl Lab {
    /// The lab's tables in `store`'s database, created if missing.
    pub async fn open(store: &Store, registry: Arc<Registry>) -> Result<Arc<Lab>, LabStoreError> {
        let (writer, reader, postgres) = store.lab_pools();
        let backend = if postgres {
            Backend::Postgres
        } else {
            Backend::Sqlite
        };
        let writer = LabStore::new(writer, backend).await?;
        let reader = LabStore::new(reader, backend).await?;
        Ok(Arc::new(Lab {
            reader,
            writer,
            registry,
            cache: Mutex::default(),
            computing: tokio::sync::Mutex::new(()),
            wake: Notify::new(),
        }))
    }

    /// Every stored study, the newest first.
    pub async fn studies(&self) -> Result<Vec<StoredStudy>, LabStoreError> {
        self.reader.studies().await
    }

    /// A study's report and charts, computed again only when games were played since, and at
    /// most every [`REPORT_FRESH`]; one report is computed at a time.
    pub async fn view(&self, id: &str) -> Result<Arc<StudyView>, LabError> {
        let study = self
            .reader
            .study(id)
            .await?
            .ok_or_else(|| LabError::NotFound(id.to_string()))?;
        let fresh = |cached: Option<(Instant, Arc<StudyView>)>| {
            cached.and_then(|(at, view)| {
                (view.study.played == study.played || at.elapsed() < REPORT_FRESH).then_some(view)
            })
        };
        if let Some(view) = fresh(self.cached(id)) {
            return Ok(view);
        }
        let _computing = self.computing.lock().await;
        // Another request may have computed it meanwhile.
        if let Some(view) = fresh(self.cached(id)) {
            return Ok(view);
        }
        let games = self.reader.games(id).await?;
        let view = tokio::task::spawn_blocking(move || {
            let report = report(&study.spec, games.iter().map(|(n, g)| (*n, g)));
            let figures = figures(&report, &games);
            StudyView {
                study,
                report,
                figures,
            }
        })
        .await
        .map_err(|e| LabError::Internal(format!("the report could not be computed: {e}")))?;
        let view = Arc::new(view);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= CACHED_REPORTS && !cache.contains_key(id) {
            // Forget the report computed longest ago.
            if let Some(oldest) = cache
                .iter()
                .min_by_key(|(_, (at, _))| *at)
                .map(|(k, _)| k.clone())
            {
                cache.remove(&oldest);
            }
        }
        cache.insert(id.to_string(), (Instant::now(), view.clone()));
        Ok(view)
    }

    fn cached(&self, id: &str) -> Option<(Instant, Arc<StudyView>)> {
        self.cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// Stores a study a visitor asked for, to be played in the background; a study with the
    /// same definition is the one already stored. Refused if it is larger or its players
    /// heavier than a browser may ask for, or if [`WEB_MAX_UNFINISHED`] such studies wait.
    pub async fn start(&self, request: NewStudy) -> Result<StoredStudy, LabError> {
        let spec = web_spec(&request)?;
        Prepared::new(spec.clone(), &self.registry)
            .map_err(|e| LabError::Refused(e.to_string()))?;
        let id = spec.id();
        if let Some(study) = self.writer.study(&id).await? {
            return Ok(study);
        }
        let mut web: Vec<StoredStudy> = self
            .reader
            .studies()
            .await?
            .into_iter()
            .filter(|s| s.origin == "web")
            .collect();
        let waiting = web.iter().filter(|s| s.played < s.total).count();
        if waiting >= WEB_MAX_UNFINISHED {
            return Err(LabError::Busy(waiting));
        }
        // Keep a bounded number: the oldest finished go first.
        web.retain(|s| s.played >= s.total);
        web.sort_by_key(|s| s.created_at);
        let stored = web.len() + waiting;
        for old in web.iter().take((stored + 1).saturating_sub(WEB_MAX_STORED)) {
            self.writer.delete(&old.id).await?;
        }
        self.writer.create(&spec, "web").await?;
        self.wake.notify_one();
        self.writer
            .study(&id)
            .await?
            .ok_or_else(|| LabError::NotFound(id))
    }

    /// Plays the unfinished studies started in the browser, oldest first, one game at a time
    /// on the search pool, until the server stops.
    pub fn spawn_runner(self: &Arc<Self>, rounds: Weak<Rounds>) {
        let lab = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut prepared: HashMap<String, Arc<Prepared>> = HashMap::new();
            let mut cursor = Cursor::default();
            loop {
                let Some(this) = lab.upgrade() else {
                    return;
                };
                match this.play_next(&rounds, &mut prepared, &mut cursor).await {
                    Ok(Next::Played) => {}
                    Ok(Next::Idle) => {
                        let _ = tokio::time::timeout(IDLE_LOOK, this.wake.notified()).await;
                    }
                    Ok(Next::Stopped) => return,
                    Err(error) => {
                        tracing::warn!(%error, "the lab cannot play its studies");
                        drop(this);
                        tokio::time::sleep(IDLE_LOOK).await;
                    }
                }
            }
        });
    }

    /// Plays one game of the oldest unfinished browser study.
    async fn play_next(
        &self,
        rounds: &Weak<Rounds>,
        prepared: &mut HashMap<String, Arc<Prepared>>,
        cursor: &mut Cursor,
    ) -> Result<Next, LabError> {
        let mut studies = self.reader.studies().await?;
        studies.retain(|s| s.origin == "web" && s.played < s.total);
        studies.sort_by_key(|s| s.created_at);
        prepared.retain(|id, _| studies.iter().any(|s| &s.id == id));
        for study in studies {
            let taken = match self.writer.backend() {
                Backend::Postgres => cursor
                    .next(&self.writer, Some(&study.id))
                    .await?
                    .map(Taken::Claim),
                Backend::Sqlite => self
                    .reader
                    .unplayed(&study.id)
                    .await?
                    .first()
                    .map(|&n| Taken::Number(n)),
            };
            let Some(taken) = taken else {
                continue;
            };
            let plan = match prepared.get(&study.id) {
                Some(plan) => plan.clone(),
                None => match Prepared::new(study.spec.clone(), &self.registry) {
                    Ok(plan) => {
                        let plan = Arc::new(plan);
                        prepared.insert(study.id.clone(), plan.clone());
                        plan
                    }
                    Err(error) => {
                        // Stored by a newer server, or for rulesets this one lacks.
                        tracing::warn!(study = study.id, %error, "a study cannot be played here");
                        continue;
                    }
                },
            };
            let Some(rounds) = rounds.upgrade() else {
                return Ok(Next::Stopped);
            };
            let number = taken.number();
            let job = plan.clone();
            let played = rounds
                .search_pool()
                .compute(
                    Priority::Background,
                    format!("lab {}", study.id),
                    move || Some(job.play(number)),
                )
                .await;
            drop(rounds);
            match played {
                None => return Ok(Next::Stopped),
                Some(Ok(game)) => self.finish(&study.id, taken, &game).await?,
                Some(Err(error)) => {
                    tracing::warn!(study = study.id, %error, "a study cannot be played: deleted");
                    drop(taken);
                    self.writer.delete(&study.id).await?;
                }
            }
            return Ok(Next::Played);
        }
        Ok(Next::Idle)
    }

    async fn finish(&self, id: &str, taken: Taken, game: &GameMeasure) -> Result<(), LabError> {
        match taken {
            Taken::Claim(claim) => self.writer.finish(claim, game, "server").await?,
            Taken::Number(number) => {
                self.writer.save(id, number, game, "server").await?;
            }
        }
        Ok(())
    }
}

/// What the runner did.
enum Next {
    Played,
    Idle,
    Stopped,
}

/// A game taken to play: locked on PostgreSQL, simply the next on SQLite.
enum Taken {
    Claim(Claim),
    Number(u64),
}

impl Taken {
    fn number(&self) -> u64 {
        match self {
            Taken::Claim(claim) => claim.number,
            Taken::Number(n) => *n,
        }
    }
}

/// Whether a browser study's player is light enough: random, a low computer level, or a search
/// bounded by a small depth, few iterations or a short time per move.
fn light(agent: &Agent) -> bool {
    let short = |time: Option<Duration>| time.is_some_and(|t| t <= WEB_MAX_MOVE_TIME);
    match agent {
        Agent::Random => true,
        Agent::Computer(level) => *level <= WEB_MAX_LEVEL,
        Agent::AlphaBeta { limits, .. } => {
            limits.depth.is_some_and(|d| d <= WEB_MAX_DEPTH) || short(limits.time)
        }
        Agent::Mcts(limits) | Agent::Ismcts(limits) => {
            limits.nodes.is_some_and(|n| n <= WEB_MAX_ITERATIONS) || short(limits.time)
        }
    }
}

/// The definition of a study a browser asked for, within the browser's bounds.
fn web_spec(request: &NewStudy) -> Result<StudySpec, LabError> {
    let refuse = |text: String| Err(LabError::Refused(text));
    if request.rulesets.is_empty() || request.rulesets.len() > WEB_MAX_RULESETS {
        return refuse(format!(
            "a study in the browser compares 1 to {WEB_MAX_RULESETS} rulesets"
        ));
    }
    if request.players.is_empty() || request.players.len() > WEB_MAX_PLAYERS {
        return refuse(format!(
            "a study in the browser compares 1 to {WEB_MAX_PLAYERS} players"
        ));
    }
    for text in &request.players {
        let agent: Agent = text
            .parse()
            .map_err(|e: denkmeter_engine::AgentError| LabError::Refused(e.to_string()))?;
        if !light(&agent) {
            return refuse(format!(
                "player {text} searches too long for a study in the browser: use random, \
                 computer:1 to computer:{WEB_MAX_LEVEL}, ab: to depth {WEB_MAX_DEPTH}, mcts: to \
                 {WEB_MAX_ITERATIONS} iterations, or a time of at most {} ms a move \
                 (`denkmeter lab` plays any)",
                WEB_MAX_MOVE_TIME.as_millis()
            ));
        }
    }
    let total =
        request.rulesets.len() as u64 * request.players.len() as u64 * u64::from(request.games);
    if request.games == 0 || total > WEB_MAX_GAMES {
        return refuse(format!(
            "a study in the browser plays 1 to {WEB_MAX_GAMES} games in all, not {total}"
        ));
    }
    let plies = request.random_plies.unwrap_or(4);
    if plies > WEB_MAX_OPENING_PLIES {
        return refuse(format!(
            "openings of at most {WEB_MAX_OPENING_PLIES} random plies in the browser"
        ));
    }
    if request
        .balanced
        .is_some_and(|margin| margin < WEB_MIN_BALANCE_MARGIN)
    {
        return refuse(format!(
            "balanced openings in the browser have a margin of at least {WEB_MIN_BALANCE_MARGIN}"
        ));
    }
    let openings = match (plies, request.balanced) {
        (0, None) => StudyOpenings::Start,
        (plies, Some(margin)) => StudyOpenings::Balanced { plies, margin },
        (plies, None) => StudyOpenings::RandomPlies { plies },
    };
    Ok(StudySpec {
        rulesets: request
            .rulesets
            .iter()
            .map(|r| StudyRuleset {
                ruleset: r.clone(),
                board: None,
            })
            .collect(),
        players: request.players.clone(),
        games: request.games,
        openings,
        max_plies: WEB_MAX_PLIES,
        adjudicate_margin: 200,
        seed: request.seed.unwrap_or(1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(players: &[&str], games: u32) -> NewStudy {
        NewStudy {
            rulesets: vec!["chad".to_string()],
            players: players.iter().map(|p| p.to_string()).collect(),
            games,
            random_plies: None,
            balanced: None,
            seed: None,
        }
    }

    #[test]
    fn a_browser_study_is_small_and_its_players_light() {
        assert!(web_spec(&request(&["ab:d2", "random", "computer:3"], 60)).is_ok());
        assert!(web_spec(&request(&["mcts:2000", "ab:0.2s"], 100)).is_ok());
        for heavy in ["ab:d5", "computer:4", "mcts:5000", "ab:1s", "ab:n1000000"] {
            let error = web_spec(&request(&[heavy], 10))
                .err()
                .map(|e| e.to_string());
            assert!(
                error.as_deref().is_some_and(|e| e.contains("too long")),
                "{heavy}: {error:?}"
            );
        }
        assert!(web_spec(&request(&["ab:d2", "ab:d3"], 101)).is_err());
        assert!(web_spec(&request(&["ab:d2"], 0)).is_err());
        assert!(web_spec(&request(&[], 10)).is_err());
        let spec = web_spec(&request(&["ab:d2"], 10)).expect("a study");
        assert_eq!(spec.openings, StudyOpenings::RandomPlies { plies: 4 });
        assert_eq!(spec.max_plies, WEB_MAX_PLIES);
    }
}

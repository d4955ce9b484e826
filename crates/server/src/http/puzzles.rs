//! Puzzles: `GET /api/puzzles` lists the families, the problem collections and the player's
//! puzzle rating, `GET /api/puzzles/next?family=F` chooses a puzzle, `GET /api/problems/{family}`
//! lists a game's problems, `GET /api/puzzles/{id}` shows a puzzle or problem,
//! `POST /api/puzzles/{id}/attempt` checks the solver's moves so far, and
//! `POST /api/puzzles/{id}/solution` gives up and shows the solution.
//!
//! The solution never leaves the server before the attempt ends (a wrong move, the last right
//! move, or giving up): the page learns the opponent's replies one by one. A signed-in player's
//! first attempt at a puzzle rates both (Glicko-2); later attempts, and guests', are not rated.

use axum::extract::{Path, State};
use axum::Json;
use denkmeter_core::Player;
use denkmeter_engine::dynamic::AnySession;
use rand::Rng;
use serde::{Deserialize, Serialize};

use super::accounts::MaybeSignedIn;
use super::error::{ApiError, Body, Params};
use crate::puzzles::{starting_rating, BookPuzzle, Collection};
use crate::rating::Rating;
use crate::round::now_ms;
use crate::store::puzzles::{PuzzleRecord, RatedAttempt};
use crate::AppState;

/// How many of the puzzles nearest a player's rating `next` chooses among.
const NEAREST: usize = 12;

/// A rating as the page shows it.
#[derive(Debug, Serialize)]
pub struct RatingJson {
    pub rating: i64,
    pub deviation: i64,
    /// Still too unsure to trust (shown with a "?").
    pub provisional: bool,
}

impl RatingJson {
    fn of(rating: Rating) -> RatingJson {
        RatingJson {
            rating: rating.rating.round() as i64,
            deviation: rating.deviation.round() as i64,
            provisional: rating.is_provisional(),
        }
    }
}

/// A player's puzzle rating and counts.
#[derive(Debug, Serialize)]
pub struct PlayerPuzzlesJson {
    pub name: String,
    pub rating: RatingJson,
    pub attempts: i64,
    pub solved: i64,
}

#[derive(Debug, Serialize)]
pub struct FamilyJson {
    pub family: String,
    pub title: String,
    pub count: usize,
}

#[derive(Debug, Serialize)]
pub struct PuzzlesJson {
    pub families: Vec<FamilyJson>,
    /// The games' problem collections (long wins, numbered, not rated).
    pub problems: Vec<FamilyJson>,
    /// The signed-in player's puzzle rating; `null` for a guest or before a first attempt.
    pub player: Option<PlayerPuzzlesJson>,
    pub signed_in: bool,
}

/// A puzzle without its solution.
#[derive(Debug, Serialize)]
pub struct PuzzleJson {
    pub id: String,
    pub family: String,
    pub family_title: String,
    pub ruleset: String,
    pub ruleset_title: String,
    pub position: String,
    /// `white` or `black`: the player to move, who solves it.
    pub to_move: &'static str,
    /// What the game calls that player (English checkers' first player is Black).
    pub side_name: &'static str,
    /// The solver's moves in the solution.
    pub moves: u32,
    /// The task in words: `White to play wins in 2 moves`.
    pub goal: String,
    pub rating: RatingJson,
    pub attempts: i64,
    pub solved: i64,
    /// Where it was found.
    pub source: String,
    /// Whether the signed-in player has attempted it (their rating no longer moves with it).
    pub attempted: bool,
    /// `puzzles` (rated) or `problems` (a game's numbered problem collection, not rated).
    pub collection: &'static str,
    /// Its number in its family's collection, from 1, and how many the collection has.
    pub number: usize,
    pub of: usize,
}

/// A problem in its collection's list.
#[derive(Debug, Serialize)]
pub struct ProblemEntryJson {
    pub id: String,
    pub number: usize,
    pub ruleset: String,
    pub position: String,
    pub to_move: &'static str,
    pub moves: u32,
    pub goal: String,
}

#[derive(Debug, Serialize)]
pub struct ProblemsJson {
    pub family: String,
    pub title: String,
    pub problems: Vec<ProblemEntryJson>,
}

/// The moves the solver has played so far, in order: the solution's own replies come from
/// the server.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttemptRequest {
    moves: Vec<String>,
}

/// What a rated attempt did.
#[derive(Debug, Serialize)]
pub struct RatingChangeJson {
    pub before: RatingJson,
    pub after: RatingJson,
    pub puzzle_before: RatingJson,
    pub puzzle_after: RatingJson,
}

impl RatingChangeJson {
    fn of(change: RatedAttempt) -> RatingChangeJson {
        RatingChangeJson {
            before: RatingJson::of(change.player_before),
            after: RatingJson::of(change.player_after),
            puzzle_before: RatingJson::of(change.puzzle_before),
            puzzle_after: RatingJson::of(change.puzzle_after),
        }
    }
}

/// How an attempt stands.
#[derive(Debug, Serialize)]
pub struct AttemptJson {
    /// `right` (go on), `solved` or `wrong`.
    pub result: &'static str,
    /// The solution's plies so far as the rules write them: the solver's right moves and the
    /// replies to them.
    pub played: Vec<String>,
    /// The replies to the last move, if it was right and the puzzle goes on.
    pub replies: Vec<String>,
    /// The whole solution, once the attempt has ended.
    pub solution: Option<Vec<String>>,
    /// The right move where the last one was wrong.
    pub expected: Option<String>,
    /// What the attempt did to the ratings, if it was rated (a signed-in player's first).
    pub rating: Option<RatingChangeJson>,
}

fn side_json(player: Player) -> &'static str {
    match player {
        Player::White => "white",
        Player::Black => "black",
    }
}

fn family_title(state: &AppState, family: &str) -> String {
    state
        .registry
        .find(family)
        .map_or_else(|| family.to_string(), |game| game.facts().display_name())
}

/// The task in words: `White to play wins in 2 moves`.
fn goal(side_name: &str, moves: u32) -> String {
    format!(
        "{side_name} to play wins in {moves} move{}",
        if moves == 1 { "" } else { "s" }
    )
}

fn side_name(state: &AppState, puzzle: &BookPuzzle) -> &'static str {
    state
        .registry
        .find(&puzzle.puzzle.ruleset)
        .map_or("White", |g| g.facts().side_names[puzzle.solver])
}

/// How many puzzles the collection of `puzzle` has.
fn collection_size(state: &AppState, puzzle: &BookPuzzle) -> usize {
    state
        .puzzles
        .of_family(puzzle.collection, puzzle.family)
        .len()
}

fn puzzle_json(
    state: &AppState,
    puzzle: &BookPuzzle,
    record: Option<&PuzzleRecord>,
    attempted: bool,
) -> PuzzleJson {
    let game = state.registry.find(&puzzle.puzzle.ruleset);
    let facts = game.as_ref().map(|g| g.facts());
    let side_name = facts.map_or("White", |f| f.side_names[puzzle.solver]);
    let moves = puzzle.puzzle.moves;
    let rating = record.map_or_else(|| starting_rating(moves), |r| r.rating);
    PuzzleJson {
        id: puzzle.puzzle.id.clone(),
        family: puzzle.family.to_string(),
        family_title: family_title(state, puzzle.family),
        ruleset: puzzle.puzzle.ruleset.clone(),
        ruleset_title: facts.map_or_else(|| puzzle.puzzle.ruleset.clone(), |f| f.display_name()),
        position: puzzle.puzzle.position.clone(),
        to_move: side_json(puzzle.solver),
        side_name,
        moves,
        goal: goal(side_name, moves),
        rating: RatingJson::of(rating),
        attempts: record.map_or(0, |r| r.attempts),
        solved: record.map_or(0, |r| r.solved),
        source: puzzle.puzzle.source.clone(),
        attempted,
        collection: puzzle.collection.name(),
        number: puzzle.number,
        of: collection_size(state, puzzle),
    }
}

fn store_error(error: crate::store::StoreError) -> ApiError {
    ApiError::Internal(error.to_string())
}

fn find<'a>(state: &'a AppState, id: &str) -> Result<&'a BookPuzzle, ApiError> {
    state
        .puzzles
        .get(id)
        .ok_or_else(|| ApiError::NotFound(format!("no puzzle {id:?}")))
}

pub async fn list(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
) -> Result<Json<PuzzlesJson>, ApiError> {
    let listed = |collection| {
        state
            .puzzles
            .families(collection)
            .map(|(family, puzzles)| FamilyJson {
                family: family.to_string(),
                title: family_title(&state, family),
                count: puzzles.len(),
            })
            .collect()
    };
    let families = listed(Collection::Puzzles);
    let problems = listed(Collection::Problems);
    let player = match &session {
        Some(session) => state
            .rounds
            .store
            .puzzle_player(&session.player.id)
            .await
            .map_err(store_error)?
            .map(|record| PlayerPuzzlesJson {
                name: session.player.name.clone(),
                rating: RatingJson::of(record.rating),
                attempts: record.attempts,
                solved: record.solved,
            }),
        None => None,
    };
    Ok(Json(PuzzlesJson {
        families,
        problems,
        player,
        signed_in: session.is_some(),
    }))
}

#[derive(Debug, Deserialize)]
pub struct NextQuery {
    family: String,
    /// The puzzle just shown, not to be chosen again at once.
    #[serde(default)]
    after: Option<String>,
}

/// A puzzle of the family for the player: for a signed-in player, one not yet attempted among
/// those nearest their puzzle rating; for a guest, any but the one just shown.
pub async fn next(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Params(query): Params<NextQuery>,
) -> Result<Json<PuzzleJson>, ApiError> {
    let puzzles = state.puzzles.of_family(Collection::Puzzles, &query.family);
    if puzzles.is_empty() {
        return Err(ApiError::NotFound(format!(
            "no puzzles of the family {:?}",
            query.family
        )));
    }
    let store = &state.rounds.store;
    if let Some(session) = &session {
        // A puzzle begun and left for another has failed.
        for id in store
            .unfinished_puzzles(&session.player.id)
            .await
            .map_err(store_error)?
        {
            if let Some(left) = state.puzzles.get(&id) {
                record_end(&state, Some(session), left, false).await?;
            }
        }
    }
    let records = store.puzzle_records().await.map_err(store_error)?;
    let (target, attempted) = match &session {
        Some(session) => (
            store
                .puzzle_player(&session.player.id)
                .await
                .map_err(store_error)?
                .map_or(Rating::NEW.rating, |r| r.rating.rating),
            store
                .attempted_puzzles(&session.player.id)
                .await
                .map_err(store_error)?,
        ),
        None => (Rating::NEW.rating, Default::default()),
    };
    let rating_of = |p: &BookPuzzle| {
        records
            .get(&p.puzzle.id)
            .map_or_else(|| starting_rating(p.puzzle.moves), |r| r.rating)
            .rating
    };
    let mut candidates: Vec<&BookPuzzle> = puzzles
        .iter()
        .copied()
        .filter(|p| !attempted.contains(&p.puzzle.id))
        .filter(|p| query.after.as_deref() != Some(p.puzzle.id.as_str()))
        .collect();
    if candidates.is_empty() {
        // Every puzzle of the family tried: any but the last one shown.
        candidates = puzzles
            .iter()
            .copied()
            .filter(|p| query.after.as_deref() != Some(p.puzzle.id.as_str()))
            .collect();
    }
    if candidates.is_empty() {
        candidates = puzzles;
    }
    candidates.sort_by(|a, b| {
        (rating_of(a) - target)
            .abs()
            .total_cmp(&(rating_of(b) - target).abs())
    });
    let pool = if session.is_some() {
        &candidates[..candidates.len().min(NEAREST)]
    } else {
        &candidates[..]
    };
    let chosen = pool[rand::thread_rng().gen_range(0..pool.len())];
    let is_attempted = attempted.contains(&chosen.puzzle.id);
    Ok(Json(puzzle_json(
        &state,
        chosen,
        records.get(&chosen.puzzle.id),
        is_attempted,
    )))
}

/// A game's problem collection, in order, without solutions.
pub async fn problems(
    State(state): State<AppState>,
    Path(family): Path<String>,
) -> Result<Json<ProblemsJson>, ApiError> {
    let problems = state.puzzles.of_family(Collection::Problems, &family);
    if problems.is_empty() {
        return Err(ApiError::NotFound(format!(
            "no problems of the family {family:?}"
        )));
    }
    Ok(Json(ProblemsJson {
        title: family_title(&state, &family),
        problems: problems
            .iter()
            .map(|p| ProblemEntryJson {
                id: p.puzzle.id.clone(),
                number: p.number,
                ruleset: p.puzzle.ruleset.clone(),
                position: p.puzzle.position.clone(),
                to_move: side_json(p.solver),
                moves: p.puzzle.moves,
                goal: goal(side_name(&state, p), p.puzzle.moves),
            })
            .collect(),
        family,
    }))
}

pub async fn show(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Path(id): Path<String>,
) -> Result<Json<PuzzleJson>, ApiError> {
    let puzzle = find(&state, &id)?;
    let store = &state.rounds.store;
    let records = store.puzzle_records().await.map_err(store_error)?;
    let attempted = match &session {
        Some(session) => store
            .attempted_puzzles(&session.player.id)
            .await
            .map_err(store_error)?
            .contains(&id),
        None => false,
    };
    Ok(Json(puzzle_json(
        &state,
        puzzle,
        records.get(&id),
        attempted,
    )))
}

/// Checks the solver's moves so far against the solution. A move the rules refuse is a 400
/// (nothing is recorded); a legal move that is not the solution's ends the attempt as failed.
pub async fn attempt(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Path(id): Path<String>,
    Body(request): Body<AttemptRequest>,
) -> Result<Json<AttemptJson>, ApiError> {
    let puzzle = find(&state, &id)?;
    let line = &puzzle.puzzle.line;
    if request.moves.is_empty() {
        return Err(ApiError::BadRequest("no move to check".into()));
    }
    if request.moves.len() > line.len() {
        return Err(ApiError::BadRequest(format!(
            "{} moves; the solution has fewer",
            request.moves.len()
        )));
    }
    let game = state
        .registry
        .find(&puzzle.puzzle.ruleset)
        .ok_or_else(|| ApiError::Internal(format!("no ruleset {}", puzzle.puzzle.ruleset)))?;
    let mut session_game = game
        .new_game(Some(&puzzle.puzzle.position))
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut ply = 0;
    for (number, text) in request.moves.iter().enumerate() {
        // The solution's replies before the solver's next move.
        play_replies(session_game.as_mut(), puzzle, &mut ply)?;
        if ply >= line.len() {
            return Err(ApiError::BadRequest(format!(
                "move {} comes after the end of the puzzle",
                number + 1
            )));
        }
        let played = session_game
            .play(text)
            .map_err(|e| ApiError::BadRequest(format!("move {} ({text:?}): {e}", number + 1)))?;
        if played != line[ply] {
            let rating = record_end(&state, session.as_ref(), puzzle, false).await?;
            return Ok(Json(AttemptJson {
                result: "wrong",
                played: line[..ply].to_vec(),
                replies: Vec::new(),
                solution: Some(line.clone()),
                expected: Some(line[ply].clone()),
                rating,
            }));
        }
        ply += 1;
    }
    // The replies to the last move, up to the solver's next turn or the end.
    let replies = play_replies(session_game.as_mut(), puzzle, &mut ply)?;
    if ply >= line.len() {
        let rating = record_end(&state, session.as_ref(), puzzle, true).await?;
        return Ok(Json(AttemptJson {
            result: "solved",
            played: line.clone(),
            replies,
            solution: Some(line.clone()),
            expected: None,
            rating,
        }));
    }
    if let Some(session) = session.as_ref() {
        if puzzle.collection == Collection::Puzzles {
            // Begun: leaving it now counts as a failure.
            state
                .rounds
                .store
                .begin_puzzle_attempt(&session.player.id, &puzzle.puzzle.id, now_ms())
                .await
                .map_err(store_error)?;
        }
    }
    Ok(Json(AttemptJson {
        result: "right",
        played: line[..ply].to_vec(),
        replies,
        solution: None,
        expected: None,
        rating: None,
    }))
}

/// Plays the solution's replies from ply `ply` on, up to the solver's next turn or the end
/// of the line, and returns them.
fn play_replies(
    game: &mut dyn AnySession,
    puzzle: &BookPuzzle,
    ply: &mut usize,
) -> Result<Vec<String>, ApiError> {
    let line = &puzzle.puzzle.line;
    let mut replies = Vec::new();
    while *ply < line.len() && game.to_move() != puzzle.solver {
        game.play(&line[*ply])
            .map_err(|e| ApiError::Internal(format!("puzzle {}: {e}", puzzle.puzzle.id)))?;
        replies.push(line[*ply].clone());
        *ply += 1;
    }
    Ok(replies)
}

/// Gives up: the solution, and a failed attempt for a signed-in player who had not tried it.
pub async fn solution(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Path(id): Path<String>,
) -> Result<Json<AttemptJson>, ApiError> {
    let puzzle = find(&state, &id)?;
    let rating = record_end(&state, session.as_ref(), puzzle, false).await?;
    Ok(Json(AttemptJson {
        result: "wrong",
        played: Vec::new(),
        replies: Vec::new(),
        solution: Some(puzzle.puzzle.line.clone()),
        expected: puzzle.puzzle.line.first().cloned(),
        rating,
    }))
}

/// Records the end of an attempt for a signed-in player: rated if it is the player's first
/// at a rated puzzle.
async fn record_end(
    state: &AppState,
    session: Option<&super::accounts::Session>,
    puzzle: &BookPuzzle,
    solved: bool,
) -> Result<Option<RatingChangeJson>, ApiError> {
    let Some(session) = session else {
        return Ok(None);
    };
    if puzzle.collection == Collection::Problems {
        // A problem collection is a book to work through: nothing is rated or recorded.
        return Ok(None);
    }
    let change = state
        .rounds
        .store
        .record_puzzle_attempt(
            &session.player.id,
            &puzzle.puzzle.id,
            starting_rating(puzzle.puzzle.moves),
            solved,
            now_ms(),
        )
        .await
        .map_err(store_error)?;
    Ok(change.map(RatingChangeJson::of))
}

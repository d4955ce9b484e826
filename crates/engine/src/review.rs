//! Whole-game analysis: every position of a game searched once, and every move judged by what
//! it lost against the engine's best, in the game's own units. The command line
//! (`denkmeter analyse-game`) and the server share it; the server runs each position as its
//! own job on its search pool, the command line on threads of its own.
//!
//! A position's search sees the position as it really is ([`AnySession::analyse_known`]): a
//! review comes after the game, when nothing is secret any more.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use denkmeter_core::{win_rate, ByPlayer, Player, Status};
use serde::{Deserialize, Serialize};

use crate::dynamic::{AnalysisLine, AnyGame, AnySession};
use crate::search::eval::{is_decisive, score_text, WIN};
use crate::{Limits, SearchOptions};

/// The most moves a reviewed game may have.
pub const MAX_PLIES: usize = 1_000;
/// A position's search at the default strength: about this many positions...
pub const DEFAULT_NODES: u64 = 300_000;
/// ...and never longer than this on a slow or busy machine.
pub const DEFAULT_TIME: Duration = Duration::from_millis(1_500);
/// The transposition table of each position's search, in megabytes: one search is short.
pub const HASH_MB: usize = 16;

/// Why a game cannot be reviewed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    #[error("the game has {0} moves; at most {MAX_PLIES} are analysed")]
    TooLong(usize),
    #[error("bad start position: {0}")]
    Position(String),
    #[error("move {number} ({text:?}): {error}")]
    Move {
        number: usize,
        text: String,
        error: String,
    },
}

/// The search options of one position at a strength.
pub fn position_options(limits: Limits) -> SearchOptions {
    SearchOptions {
        hash_mb: HASH_MB,
        ..SearchOptions::new(limits)
    }
}

/// The default strength: [`DEFAULT_NODES`] within [`DEFAULT_TIME`].
pub fn default_limits() -> Limits {
    Limits {
        depth: None,
        nodes: Some(DEFAULT_NODES),
        time: Some(DEFAULT_TIME),
        target: None,
    }
}

/// How much a move must lose to be marked, in hundredths of the family's basic unit (see
/// `docs/analysis.md`). Scores beyond `decided` either way count as `decided`: being five men
/// or nine men ahead both win, and a forced win counts as `decided` too, so a slower win is
/// not a mistake but a win thrown away is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thresholds {
    pub inaccuracy: i32,
    pub mistake: i32,
    pub blunder: i32,
    pub decided: i32,
}

/// The thresholds of a game family, and the family's unit in words.
pub fn thresholds(family: &str) -> (Thresholds, &'static str) {
    let t = |inaccuracy, mistake, blunder, decided| Thresholds {
        inaccuracy,
        mistake,
        blunder,
        decided,
    };
    match family {
        // A man is 100; a dame is worth about three.
        "international" | "english" | "scandinavian" | "sjekkers" => (t(40, 90, 200, 500), "a man"),
        // A rook is 100, a queen 300.
        "chad" => (t(40, 90, 200, 600), "a rook"),
        // A warrior is 100.
        "shakti" => (t(40, 90, 200, 600), "a warrior"),
        // A dromedary is 100; reaching home wins.
        "kamelen" => (t(40, 90, 200, 600), "a dromedary"),
        // A piece is 100; the fort wins.
        "fort-chitral" => (t(40, 90, 200, 600), "a piece"),
        // A piece is 100, a king 300.
        "trangalla" => (t(40, 90, 200, 600), "a piece"),
        // A street is 100; the score is streets against streets.
        "straat" => (t(50, 100, 200, 400), "a street"),
        // An officer on its goal line (a point of the score) is 400, a field officer 800;
        // off it an officer is worth 60 and more as it advances, a pawn 15.
        "schada" => (t(100, 200, 400, 1600), "a quarter of a point"),
        _ => (t(40, 90, 200, 600), "a piece"),
    }
}

/// The engine's view of one position of the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionEval {
    /// Moves played before it: 0 is the start.
    pub ply: usize,
    /// `white` or `black`: the side to move, whom `score` is for.
    pub to_move: String,
    /// The last completed depth (0 when the game is over here).
    pub depth: u32,
    /// For the side to move, in hundredths of the family's unit, or a forced result.
    pub score: i32,
    /// The same for White.
    pub white_score: i32,
    /// White's chances, 0 to 1, as the win-rate model reads the score: the graph's height.
    pub white_chances: f64,
    /// `+0.35`, `win in 5 plies`, or how the game ended here.
    pub score_text: String,
    /// The score for White in words, the sides by their traditional names: `+0.35`,
    /// `Black wins in 5 plies`, or how the game ended here.
    pub white_text: String,
    /// The best line, the best move first (empty when the game is over here).
    pub pv: Vec<String>,
    pub nodes: u64,
    /// The game is over in this position.
    pub over: bool,
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// `?!`, `?` or `??`, as annotators write them.
    pub fn glyph(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// One move of the game against the engine's best.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveReview {
    /// The move's index from 1: it leads from position `ply - 1` to position `ply`.
    pub ply: usize,
    /// `white` or `black`.
    pub mover: String,
    pub played: String,
    /// What the move lost against the best, for the mover, capped at the thresholds'
    /// `decided` (0 when it was the best move).
    pub loss: i32,
    pub judgement: Option<Judgement>,
    /// The engine's best move and line from the position before, when the move was not it.
    pub best: Option<String>,
    pub line: Vec<String>,
}

/// Marks and the mean loss of one side.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideSummary {
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// The mean loss per move, in hundredths of the unit.
    pub mean_loss: i32,
}

/// A whole game analysed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameReview {
    pub ruleset: String,
    pub family: String,
    /// The family's unit in words (`a man`): scores are in hundredths of it.
    pub unit: String,
    pub thresholds: Thresholds,
    /// Every position, the start and the one after each move.
    pub positions: Vec<PositionEval>,
    pub moves: Vec<MoveReview>,
    pub white: SideSummary,
    pub black: SideSummary,
}

/// The sessions at every position of the game `moves` from `start` (the ruleset's start if
/// `None`): the start first, then the position after each move.
pub fn positions(
    game: &dyn AnyGame,
    start: Option<&str>,
    moves: &[String],
) -> Result<Vec<Box<dyn AnySession>>, ReviewError> {
    let mut all = Vec::with_capacity(moves.len().min(MAX_PLIES) + 1);
    replay_each(game, start, moves, |session| all.push(session.box_clone()))?;
    Ok(all)
}

/// The session after `moves` from `start` (the ruleset's start if `None`): the last of
/// [`positions`], without keeping the others.
pub fn replay(
    game: &dyn AnyGame,
    start: Option<&str>,
    moves: &[String],
) -> Result<Box<dyn AnySession>, ReviewError> {
    replay_each(game, start, moves, |_| {})
}

/// Replays `moves` from `start`, showing `each` every position (the start's and each move's);
/// the last session.
fn replay_each(
    game: &dyn AnyGame,
    start: Option<&str>,
    moves: &[String],
    mut each: impl FnMut(&dyn AnySession),
) -> Result<Box<dyn AnySession>, ReviewError> {
    if moves.len() > MAX_PLIES {
        return Err(ReviewError::TooLong(moves.len()));
    }
    let mut session = game
        .new_game(start)
        .map_err(|e| ReviewError::Position(e.to_string()))?;
    each(session.as_ref());
    for (i, text) in moves.iter().enumerate() {
        session.play(text).map_err(|e| ReviewError::Move {
            number: i + 1,
            text: text.clone(),
            error: e.to_string(),
        })?;
        each(session.as_ref());
    }
    Ok(session)
}

fn side(player: Player) -> String {
    player.name().to_string()
}

/// Searches one position, the game's `ply`-th: a position where the game is over is scored by
/// its result. `names` are the sides' names for people (the ruleset's `side_names`).
pub fn evaluate(
    session: &dyn AnySession,
    ply: usize,
    options: &SearchOptions,
    names: ByPlayer<&str>,
) -> PositionEval {
    let to_move = session.to_move();
    let for_white = |score: i32| {
        if to_move == Player::White {
            score
        } else {
            -score
        }
    };
    let ended = |score: i32, text: String| PositionEval {
        ply,
        to_move: side(to_move),
        depth: 0,
        score,
        white_score: for_white(score),
        white_chances: chances(for_white(score)),
        score_text: text.clone(),
        white_text: text,
        pv: Vec::new(),
        nodes: 0,
        over: true,
    };
    if let Status::Over(outcome) = session.status() {
        let score = match outcome.winner {
            Some(w) if w == to_move => WIN,
            Some(_) => -WIN,
            None => 0,
        };
        return ended(score, outcome.describe(names));
    }
    match session.analyse_known(options, &mut |_| {}) {
        Some(line) => line_eval(to_move, ply, line, names),
        None => ended(0, "no move: the game ends here".to_string()),
    }
}

/// The evaluation one depth of a search gives a position with `to_move` to move.
pub fn line_eval(
    to_move: Player,
    ply: usize,
    line: AnalysisLine,
    names: ByPlayer<&str>,
) -> PositionEval {
    let white_score = if to_move == Player::White {
        line.score
    } else {
        -line.score
    };
    PositionEval {
        ply,
        to_move: side(to_move),
        depth: line.depth,
        score: line.score,
        white_score,
        white_chances: chances(white_score),
        score_text: score_text(line.score),
        white_text: white_text(white_score, names),
        pv: line.pv,
        nodes: line.nodes,
        over: false,
    }
}

/// A score for White in words: `+0.35`, or `Black wins in 5 plies`.
fn white_text(white_score: i32, names: ByPlayer<&str>) -> String {
    if is_decisive(white_score) {
        let plies = WIN - white_score.abs();
        let winner = if white_score > 0 {
            Player::White
        } else {
            Player::Black
        };
        let unit = if plies == 1 { "ply" } else { "plies" };
        format!("{} wins in {plies} {unit}", names[winner])
    } else {
        score_text(white_score)
    }
}

/// White's chances for a score for White: the win-rate model, 1 or 0 for a forced result.
fn chances(white_score: i32) -> f64 {
    if is_decisive(white_score) {
        if white_score > 0 {
            1.0
        } else {
            0.0
        }
    } else {
        (win_rate(white_score) * 1000.0).round() / 1000.0
    }
}

/// Searches every position on `threads` threads (at least one), calling `done` as each one
/// is finished (from the thread that searched it); the evaluations in order.
pub fn evaluate_all(
    sessions: &[Box<dyn AnySession>],
    options: &SearchOptions,
    names: ByPlayer<&str>,
    threads: usize,
    done: &(dyn Fn(&PositionEval) + Sync),
) -> Vec<PositionEval> {
    let next = AtomicUsize::new(0);
    let found: Mutex<Vec<Option<PositionEval>>> = Mutex::new(vec![None; sessions.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, sessions.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(session) = sessions.get(i) else {
                    break;
                };
                let eval = evaluate(session.as_ref(), i, options, names);
                done(&eval);
                if let Ok(mut found) = found.lock() {
                    found[i] = Some(eval);
                }
            });
        }
    });
    found
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

/// Judges every move of a game from the evaluations of all its positions (one more than the
/// moves) and sums up each side.
pub fn review(
    ruleset: &str,
    family: &str,
    moves: &[String],
    positions: Vec<PositionEval>,
) -> GameReview {
    let (thresholds, unit) = thresholds(family);
    let capped = |score: i32| score.clamp(-thresholds.decided, thresholds.decided);
    let mut reviews = Vec::with_capacity(moves.len());
    for (i, played) in moves.iter().enumerate() {
        let (Some(before), Some(after)) = (positions.get(i), positions.get(i + 1)) else {
            break;
        };
        let mover = before.to_move.clone();
        let best_move = before.pv.first().cloned();
        // The score after the move, for the mover (the side to move after it may be the same).
        let after_score = if after.to_move == mover {
            after.score
        } else {
            -after.score
        };
        let is_best = best_move.as_deref() == Some(played.as_str());
        let loss = if is_best || before.pv.is_empty() {
            0
        } else {
            (capped(before.score) - capped(after_score)).max(0)
        };
        let judgement = if loss >= thresholds.blunder {
            Some(Judgement::Blunder)
        } else if loss >= thresholds.mistake {
            Some(Judgement::Mistake)
        } else if loss >= thresholds.inaccuracy {
            Some(Judgement::Inaccuracy)
        } else {
            None
        };
        reviews.push(MoveReview {
            ply: i + 1,
            mover,
            played: played.clone(),
            loss,
            judgement,
            best: if is_best { None } else { best_move },
            line: if is_best {
                Vec::new()
            } else {
                before.pv.clone()
            },
        });
    }
    let summary = |who: &str| {
        let mine: Vec<&MoveReview> = reviews.iter().filter(|m| m.mover == who).collect();
        let count = |j| mine.iter().filter(|m| m.judgement == Some(j)).count();
        let total: i64 = mine.iter().map(|m| i64::from(m.loss)).sum();
        SideSummary {
            inaccuracies: count(Judgement::Inaccuracy),
            mistakes: count(Judgement::Mistake),
            blunders: count(Judgement::Blunder),
            mean_loss: if mine.is_empty() {
                0
            } else {
                (total / mine.len() as i64) as i32
            },
        }
    };
    GameReview {
        ruleset: ruleset.to_string(),
        family: family.to_string(),
        unit: unit.to_string(),
        thresholds,
        white: summary("white"),
        black: summary("black"),
        positions,
        moves: reviews,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(ply: usize, to_move: &str, score: i32, pv: &[&str]) -> PositionEval {
        let white = if to_move == "white" { score } else { -score };
        PositionEval {
            ply,
            to_move: to_move.to_string(),
            depth: 5,
            score,
            white_score: white,
            white_chances: chances(white),
            score_text: score_text(score),
            white_text: white_text(white, ByPlayer::new("White", "Black")),
            pv: pv.iter().map(|s| s.to_string()).collect(),
            nodes: 1,
            over: false,
        }
    }

    fn moves(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn losses_are_judged_by_the_family_thresholds() {
        // White is level, plays b (best a): Black is then 2.5 men up => a blunder of 250.
        // Black then plays the best move; White loses 50 more (an inaccuracy at 40).
        let positions = vec![
            eval(0, "white", 0, &["a", "x"]),
            eval(1, "black", 250, &["y", "z"]),
            eval(2, "white", -250, &["c"]),
            eval(3, "black", 300, &["w"]),
        ];
        let r = review(
            "international",
            "international",
            &moves(&["b", "y", "d"]),
            positions,
        );
        assert_eq!(r.moves.len(), 3);
        assert_eq!(r.moves[0].loss, 250);
        assert_eq!(r.moves[0].judgement, Some(Judgement::Blunder));
        assert_eq!(r.moves[0].best.as_deref(), Some("a"));
        assert_eq!(r.moves[0].line, ["a", "x"]);
        // The best move is never marked, whatever the scores say.
        assert_eq!(r.moves[1].loss, 0);
        assert_eq!(r.moves[1].judgement, None);
        assert_eq!(r.moves[1].best, None);
        assert_eq!(r.moves[2].loss, 50);
        assert_eq!(r.moves[2].judgement, Some(Judgement::Inaccuracy));
        assert_eq!(r.white.blunders, 1);
        assert_eq!(r.white.inaccuracies, 1);
        assert_eq!(r.white.mean_loss, 150);
        assert_eq!(r.black, SideSummary::default());
    }

    #[test]
    fn a_decided_game_stays_decided_but_a_thrown_win_is_a_blunder() {
        let positions = vec![
            // White wins by force; plays b and is still 9 men up: no mark.
            eval(0, "white", WIN - 7, &["a"]),
            eval(1, "black", -900, &["y"]),
            // Black plays x (not y): White is then level: Black gained, nothing lost.
            eval(2, "white", 0, &["c"]),
            // White plays d and loses by force: a blunder.
            eval(3, "black", WIN - 3, &["e"]),
        ];
        let r = review("english", "english", &moves(&["b", "x", "d"]), positions);
        assert_eq!(r.moves[0].judgement, None);
        assert_eq!(r.moves[0].loss, 0);
        assert_eq!(r.moves[1].loss, 0, "a move that gains is not marked");
        assert_eq!(r.moves[2].loss, 500);
        assert_eq!(r.moves[2].judgement, Some(Judgement::Blunder));
        // A forced win thrown away for a level game loses all of the decided score.
        let thrown = vec![
            eval(0, "white", WIN - 9, &["a"]),
            eval(1, "black", 0, &["y"]),
        ];
        let r = review("english", "english", &moves(&["b"]), thrown);
        assert_eq!(r.moves[0].loss, 500);
        assert_eq!(r.moves[0].judgement, Some(Judgement::Blunder));
    }

    #[test]
    fn a_side_that_moves_twice_is_judged_for_itself() {
        // Position 1 has White to move again: the score after is already White's.
        let positions = vec![
            eval(0, "white", 100, &["a"]),
            eval(1, "white", -50, &["b"]),
            eval(2, "black", 0, &["c"]),
        ];
        let r = review("chad", "chad", &moves(&["z", "b"]), positions);
        assert_eq!(r.moves[0].loss, 150);
        assert_eq!(r.moves[0].judgement, Some(Judgement::Mistake));
        assert_eq!(r.moves[1].mover, "white");
    }

    #[test]
    fn chances_follow_the_score_and_forced_results() {
        assert_eq!(chances(0), 0.5);
        assert!(chances(200) > 0.7 && chances(200) < 0.75);
        assert_eq!(chances(WIN - 3), 1.0);
        assert_eq!(chances(-(WIN - 3)), 0.0);
    }

    #[test]
    fn white_texts_name_the_sides() {
        let names = ByPlayer::new("Black", "White");
        assert_eq!(white_text(35, names), "+0.35");
        assert_eq!(white_text(-(WIN - 5), names), "White wins in 5 plies");
        assert_eq!(white_text(WIN - 1, names), "Black wins in 1 ply");
    }
}

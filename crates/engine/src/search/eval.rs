//! Scores: the game's integer evaluation for unfinished positions, wins and losses by their
//! distance, and the win-rate model that turns an evaluation into a playout's value.

use denkmeter_core::{win_rate, Game, Outcome, Player, TableResult, TableValue};

/// Scores at least `WIN - MAX_PLY` are forced wins (`WIN` minus the plies to the win).
pub const WIN: i32 = 1_000_000;
/// A drawn game's score.
pub const DRAW: i32 = 0;
/// No search reaches deeper than this; it bounds the mate scores.
pub const MAX_PLY: i32 = 1_000;

/// Whether a score is a forced win or loss.
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= WIN - MAX_PLY
}

/// An endgame database's win `ply` plies from the root is `TABLE_WIN - ply` (a loss minus
/// that): above every evaluation, below the forced wins, since the distance is not known
/// there (and, under move-count rules, the result may not hold).
pub const TABLE_WIN: i32 = WIN - 2 * MAX_PLY;

/// Whether a score is an endgame database's win or loss.
pub fn is_table_result(score: i32) -> bool {
    !is_decisive(score) && score.abs() >= TABLE_WIN - MAX_PLY
}

/// The score of a position an endgame database holds, `ply` plies from the root.
pub(crate) fn table_score(value: &TableValue, ply: i32) -> i32 {
    match value.result {
        TableResult::Win => TABLE_WIN - ply,
        TableResult::Draw => DRAW,
        TableResult::Loss => -(TABLE_WIN - ply),
    }
}

/// A score as a person reads it: `+1.25` in the game's basic unit (a score is in hundredths
/// of it), or `win in 7` / `loss in 6` (plies) for a forced result.
pub fn score_text(score: i32) -> String {
    if is_decisive(score) {
        let plies = WIN - score.abs();
        let word = if score > 0 { "win" } else { "loss" };
        let unit = if plies == 1 { "ply" } else { "plies" };
        format!("{word} in {plies} {unit}")
    } else if is_table_result(score) {
        let word = if score > 0 { "win" } else { "loss" };
        format!("{word} (endgame database)")
    } else {
        let sign = if score < 0 { '-' } else { '+' };
        format!("{sign}{}.{:02}", score.abs() / 100, score.abs() % 100)
    }
}

/// The static score of an unfinished position for the side to move, kept clear of the
/// databases' and the mate scores whatever the game returns.
pub(crate) fn evaluate<G: Game>(game: &G, state: &G::State) -> i32 {
    game.evaluate(state)
        .clamp(-(TABLE_WIN - MAX_PLY - 1), TABLE_WIN - MAX_PLY - 1)
}

/// The score of a finished game for `mover`, `ply` plies from the root: shorter wins and longer
/// losses score better.
pub(crate) fn final_score(outcome: &Outcome, mover: Player, ply: i32) -> i32 {
    match outcome.winner {
        Some(w) if w == mover => WIN - ply,
        Some(_) => -(WIN - ply),
        None => DRAW,
    }
}

/// The value for White, 0 to 1, of an unfinished position: the win rate of its evaluation.
pub fn white_value<G: Game>(game: &G, state: &G::State) -> f64 {
    let score = evaluate(game, state);
    match game.to_move(state) {
        Player::White => win_rate(score),
        Player::Black => win_rate(-score),
    }
}

/// The evaluation that the win-rate model maps to `value` (0 to 1): how a Monte Carlo search
/// reports its mean value as a score.
pub fn score_of_value(value: f64) -> i32 {
    let v = value.clamp(1e-6, 1.0 - 1e-6);
    let score = -denkmeter_core::WIN_RATE_SCALE * (1.0 / v - 1.0).ln();
    score.round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_win_rate_model_inverts() {
        for score in [-900, -100, 0, 1, 250, 1200] {
            assert_eq!(score_of_value(win_rate(score)), score);
        }
        assert!(is_decisive(WIN - 3) && is_decisive(-(WIN - 3)) && !is_decisive(5_000));
    }

    #[test]
    fn scores_read_as_units_or_as_the_distance_to_the_end() {
        assert_eq!(score_text(125), "+1.25");
        assert_eq!(score_text(-7), "-0.07");
        assert_eq!(score_text(0), "+0.00");
        assert_eq!(score_text(WIN - 7), "win in 7 plies");
        assert_eq!(score_text(-(WIN - 1)), "loss in 1 ply");
        assert_eq!(score_text(TABLE_WIN - 12), "win (endgame database)");
        assert_eq!(score_text(-(TABLE_WIN - 3)), "loss (endgame database)");
        assert!(!is_decisive(TABLE_WIN) && is_table_result(TABLE_WIN - 40));
        assert!(!is_table_result(900_000) && !is_table_result(WIN - 5));
    }
}

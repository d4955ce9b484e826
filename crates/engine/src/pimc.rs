//! Alpha-beta for games that hide something, by sampling (perfect-information Monte Carlo): a
//! few full states are drawn from what the searching player knows ([`Game::determinize`]), each
//! answer to the position is searched by alpha-beta in every drawing, and the move with the
//! best mean expected result wins. Scores become expected results (a win 1, a loss 0, an
//! evaluation through a logistic curve) before they are averaged, so that one drawing's forced
//! win does not outweigh the others by the size of a win score.
//!
//! It is given an *observation*, never the true state. Its known weakness is that every
//! drawing is searched as if both players could see everything in it; in a game whose secret
//! is small (Trangalla hides one piece's identity) the searches are deep enough that this
//! costs less than Monte Carlo tree search's random playouts.
//!
//! Reproducible: the same seed and a depth or node limit give the same move.

use denkmeter_core::{forbidden_by_repetition, Game, Player, Status};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

use crate::search::eval::{is_decisive, WIN};
use crate::search::tt::Table;
use crate::search::{self, DepthReport, SearchOptions, SearchResult};
use crate::{Limits, MAX_DEPTH};

/// The most distinct drawings of the hidden part searched.
pub const DRAWINGS: usize = 8;

/// Draws of the hidden part made to find the drawings and weigh them by how often each comes
/// up. Draws are cheap next to a search; eight draws alone, as before, left out each of five
/// equally likely kings in Trangalla about one search in six ((4/5)^8) and weighed the rest
/// unevenly.
pub const DRAWS: usize = 256;

/// The expected result of a score for the side it belongs to, from 0 (lost) to 1 (won): the
/// evaluation's own win-rate curve ([`denkmeter_core::win_rate`]), forced results exact.
fn expected(score: i32) -> f64 {
    if is_decisive(score) {
        return if score > 0 { 1.0 } else { 0.0 };
    }
    denkmeter_core::win_rate(score)
}

/// One candidate move with its results over the drawings where it is legal.
#[derive(Clone)]
struct Candidate<M> {
    mv: M,
    /// Sum over drawings (each weighted by how often it was drawn) of the expected result.
    expected: f64,
    /// Sum of the scores, for ties (a faster win, a slower loss).
    score: i64,
    weight: u32,
    /// It would repeat a position for the third time where the rules forbid that.
    forbidden: bool,
}

/// The distinct full states drawn ([`DRAWS`] draws) from what `player` knows, the
/// [`DRAWINGS`] drawn most often (the earlier drawn first among equals), each with its hash and
/// how often it was drawn.
pub fn draw<G: Game>(
    game: &G,
    observation: &G::State,
    player: Player,
    seed: u64,
) -> Vec<(u64, G::State, u32)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x9e37_79b9);
    let mut drawings: Vec<(u64, G::State, u32)> = Vec::new();
    for _ in 0..DRAWS {
        let state = game.determinize(observation, player, &mut rng);
        let hash = game.hash(&state);
        match drawings.iter_mut().find(|(h, _, _)| *h == hash) {
            Some(found) => found.2 += 1,
            None => drawings.push((hash, state, 1)),
        }
    }
    // The likeliest, each weighed by its own count: a drawing is kept for how often it came
    // up, not for how early.
    drawings.sort_by_key(|d| std::cmp::Reverse(d.2));
    drawings.truncate(DRAWINGS);
    drawings
}

/// Searches for `player`, who knows `observation`; `options.limits` is the whole budget: nodes
/// and time are spent in passes of one more ply over every (drawing, move) pair, the last
/// complete pass deciding, and a depth limit is the depth of each answer's search (so depth 1
/// looks two plies ahead). Where the game forbids a third
/// repetition, moves that would make one (by `options.history`) are not chosen while another
/// is possible. `None` if no drawing has a legal move.
pub fn search<G: Game>(
    game: &G,
    observation: &G::State,
    player: Player,
    options: &SearchOptions,
) -> Option<SearchResult<G::Move>> {
    search_with(game, observation, player, options, &mut |_| {})
}

/// [`search()`], calling `on_pass` after every complete pass with the move it would choose then
/// (`pv` is that move alone: the rest of a line would be one drawing's guess at what is hidden).
pub fn search_with<G: Game>(
    game: &G,
    observation: &G::State,
    player: Player,
    options: &SearchOptions,
    on_pass: &mut dyn FnMut(&DepthReport<G::Move>),
) -> Option<SearchResult<G::Move>> {
    let started = Instant::now();
    let drawings = draw(game, observation, player, options.seed);
    let mut moves_of: Vec<Vec<G::Move>> = Vec::with_capacity(drawings.len());
    let mut candidates: Vec<Candidate<G::Move>> = Vec::new();
    for (_, state, _) in &drawings {
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        for &mv in &moves {
            if !candidates.iter().any(|c| c.mv == mv) {
                candidates.push(Candidate {
                    mv,
                    expected: 0.0,
                    score: 0,
                    weight: 0,
                    forbidden: false,
                });
            }
        }
        moves_of.push(moves);
    }
    let first = candidates.first()?.mv;
    if candidates.len() == 1 {
        return Some(SearchResult {
            best: first,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: vec![first],
        });
    }
    // A node or time budget is spent in passes of one more ply each, every answer in every
    // drawing searched at the pass's depth: the last complete pass decides, so a budget always
    // reaches the depth it can afford (shared evenly, a large budget split over many answers
    // searched each shallower than a small depth limit does). A depth limit alone is one pass.
    let budgeted = options.limits.nodes.is_some() || options.limits.time.is_some();
    let deadline = options.limits.time.map(|t| Instant::now() + t);
    let last_depth = options.limits.depth.unwrap_or(MAX_DEPTH);
    let first_depth = if budgeted { 1 } else { last_depth };
    let mut nodes = 0;
    let spent = |nodes: u64| {
        options.limits.nodes.is_some_and(|n| nodes >= n)
            || deadline.is_some_and(|d| Instant::now() >= d)
    };
    // One table for every search, kept across the passes: a drawing's positions are the same
    // in each pass (the hash tells drawings apart), so a pass starts from the moves and bounds
    // the last one found, and no table is zeroed per search. At most 4 MB: the benchmark's
    // passes took 174 ms in 4 MB, 186 ms in 16 and 220 ms in 32 (pages first touched and cache
    // misses cost more than the entries save in searches this short).
    let mut table = Table::new(options.hash_mb.min(4));
    table.new_search();
    let mut decided: Option<(Vec<Candidate<G::Move>>, u32)> = None;
    for pass_depth in first_depth..=last_depth {
        let mut pass = candidates.clone();
        let mut deepest = 0;
        let mut complete = true;
        'pass: for ((_, state, weight), moves) in drawings.iter().zip(&moves_of) {
            let mut history = options.history.clone();
            history.push(game.repetition_hash(state));
            for &mv in moves {
                let mut child = state.clone();
                game.play_unchecked(&mut child, mv);
                let mover = game.to_move(state);
                let score = match game.status(&child) {
                    Status::Over(outcome) => match outcome.winner {
                        Some(winner) if winner == mover => WIN - 1,
                        Some(_) => -(WIN - 1),
                        None => 0,
                    },
                    Status::Ongoing => {
                        let now = Instant::now();
                        let limits = Limits {
                            depth: Some(pass_depth),
                            nodes: options.limits.nodes.map(|n| n.saturating_sub(nodes).max(1)),
                            time: deadline.map(|d| d.saturating_duration_since(now)),
                            target: None,
                        };
                        let child_options = SearchOptions {
                            limits,
                            history: history.clone(),
                            ..options.clone()
                        };
                        match search::search_in(game, &child, &child_options, &table, &mut |_| {}) {
                            None => 0,
                            Some(found) => {
                                nodes += found.nodes;
                                deepest = deepest.max(found.depth);
                                if spent(nodes) && decided.is_some() {
                                    complete = false;
                                    break 'pass;
                                }
                                // The answer's score is for the side to move after `mv`.
                                if game.to_move(&child) == mover {
                                    found.score
                                } else {
                                    -found.score
                                }
                            }
                        }
                    }
                };
                let forbidden = forbidden_by_repetition(game, &history, state, mv);
                if let Some(c) = pass.iter_mut().find(|c| c.mv == mv) {
                    c.forbidden |= forbidden;
                    c.expected += f64::from(*weight) * expected(score);
                    c.score += i64::from(*weight) * i64::from(score);
                    c.weight += weight;
                }
            }
        }
        if !complete {
            break;
        }
        if let Some((best, score)) = choose(&pass) {
            on_pass(&DepthReport {
                depth: pass_depth + 1,
                score,
                nodes,
                elapsed: started.elapsed(),
                pv: vec![best],
            });
        }
        decided = Some((pass, pass_depth + 1));
        // No answer went as deep as asked: the game ends within the pass's depth everywhere.
        if spent(nodes) || deepest < pass_depth {
            break;
        }
    }
    let (candidates, depth) = decided?;
    let (best, score) = choose(&candidates)?;
    Some(SearchResult {
        best,
        score,
        depth,
        nodes,
        pv: vec![best],
    })
}

/// The candidate with the best mean expected result, and its mean score; a move that would
/// repeat a position a third time only when every move would.
fn choose<M: Copy>(candidates: &[Candidate<M>]) -> Option<(M, i32)> {
    let mean = |c: &Candidate<M>| {
        let w = f64::from(c.weight.max(1));
        (c.expected / w, c.score as f64 / w)
    };
    let allowed = candidates.iter().any(|c| c.weight > 0 && !c.forbidden);
    let best = candidates
        .iter()
        .filter(|c| c.weight > 0 && !(allowed && c.forbidden))
        .max_by(|a, b| {
            mean(a)
                .partial_cmp(&mean(b))
                .unwrap_or(std::cmp::Ordering::Equal)
        })?;
    Some((best.mv, mean(best).1.round() as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_results_rank_like_scores_and_bound_wins() {
        assert_eq!(expected(WIN - 3), 1.0);
        assert_eq!(expected(-(WIN - 3)), 0.0);
        assert!((expected(0) - 0.5).abs() < 1e-12);
        assert!(expected(100) > expected(50) && expected(50) > expected(-50));
        assert!(expected(5_000) < 1.0 && expected(-5_000) > 0.0);
    }
}

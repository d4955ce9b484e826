//! A study's report: per ruleset and player, the figures the lab answers with, each with its
//! 95 % interval; how they move from the weakest player to the strongest; as a terminal
//! table, JSON and CSV.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write;

use serde::Serialize;

use crate::charts::Estimate;
use crate::play::{GameMeasure, Side};
use crate::stats::{self, Quartiles};
use crate::study::{StudyOpenings, StudySpec};

/// The plies of a stage of the game in [`Branching::by_stage`].
pub const STAGE_PLIES: u32 = 10;

/// The figures of one ruleset played by one player against itself.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellReport {
    pub ruleset: String,
    pub player: String,
    /// Games played so far, and planned.
    pub games: u64,
    pub planned: u64,
    pub first_wins: u64,
    pub second_wins: u64,
    pub draws: u64,
    /// The first player's score: 1 a win, ½ a draw.
    #[serde(serialize_with = "estimate")]
    pub first_score: Option<Estimate>,
    #[serde(serialize_with = "estimate")]
    pub draw_rate: Option<Estimate>,
    #[serde(serialize_with = "estimate")]
    pub decisive_rate: Option<Estimate>,
    /// Game length in plies from the start, the opening's included.
    #[serde(serialize_with = "quartiles")]
    pub length: Option<Quartiles>,
    /// Games stopped at the ply limit (adjudicated on material or drawn).
    pub adjudicated: u64,
    /// How the games ended, most common first.
    pub endings: Vec<Ending>,
    pub branching: Branching,
    /// For games decided by a score: the first player's points minus the second's.
    pub score: Option<ScoreReport>,
    /// Games whose moves no other game of the cell repeats: with players whose search does
    /// not depend on a seed, openings are what makes games differ.
    pub distinct_games: u64,
    /// The mean time a game took, in seconds.
    pub seconds_per_game: f64,
}

/// How many games ended for a reason, and who won them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ending {
    /// The reason's key, and after a colon what caused a scored ending where the game says
    /// (`score: a player cannot move`).
    pub reason: String,
    pub first_wins: u64,
    pub second_wins: u64,
    pub draws: u64,
    /// The share of the cell's games that ended so.
    #[serde(serialize_with = "estimate")]
    pub share: Option<Estimate>,
}

/// The branching factor: legal moves of the player to move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Branching {
    /// The mean over games of each game's mean number of legal moves.
    #[serde(serialize_with = "estimate")]
    pub mean: Option<Estimate>,
    /// The mean over games of the share of a game's plies with a single legal move (a forced
    /// move: in the capture-compulsory games, mostly a capture).
    #[serde(serialize_with = "estimate")]
    pub forced_share: Option<Estimate>,
    /// The mean number of legal moves in each stage of [`STAGE_PLIES`] plies from the start,
    /// over the games that reached it, with how many did.
    pub by_stage: Vec<Stage>,
}

/// The branching factor in one stage of the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stage {
    /// The stage's first ply, from 0.
    pub from_ply: u32,
    pub mean: f64,
    pub games: u64,
}

/// The points of games decided by counting.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreReport {
    pub games: u64,
    /// The first player's points minus the second's, on average.
    #[serde(serialize_with = "estimate")]
    pub margin: Option<Estimate>,
    /// Each margin with how many games had it, smallest first.
    pub distribution: Vec<(i64, u64)>,
}

/// How a rate moves from the weakest player of a study to the strongest, in one ruleset.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Trend {
    pub ruleset: String,
    pub from_player: String,
    pub to_player: String,
    #[serde(serialize_with = "estimate")]
    pub first_score_change: Option<Estimate>,
    #[serde(serialize_with = "estimate")]
    pub draw_rate_change: Option<Estimate>,
}

/// A study's report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StudyReport {
    pub id: String,
    pub spec: StudySpec,
    pub games: u64,
    pub planned: u64,
    /// One per ruleset and player, rulesets in the study's order, then players.
    pub cells: Vec<CellReport>,
    /// One per ruleset when the study has two players or more.
    pub trends: Vec<Trend>,
}

/// The report of `spec` from its games played so far: `(number, game)` pairs.
pub fn report<'a>(
    spec: &StudySpec,
    games: impl IntoIterator<Item = (u64, &'a GameMeasure)>,
) -> StudyReport {
    let players = spec.players.len();
    let mut by_cell: Vec<Vec<&GameMeasure>> = vec![Vec::new(); spec.rulesets.len() * players];
    let mut played = 0;
    for (number, game) in games {
        if let Some(slot) = spec.slot(number) {
            by_cell[slot.ruleset * players + slot.player].push(game);
            played += 1;
        }
    }
    let mut cells = Vec::with_capacity(by_cell.len());
    for (i, games) in by_cell.iter().enumerate() {
        let ruleset = spec.rulesets[i / players].label();
        let player = spec.players[i % players].clone();
        cells.push(cell(ruleset, player, u64::from(spec.games), games));
    }
    let mut trends = Vec::new();
    if players > 1 {
        for row in cells.chunks(players) {
            let (Some(weakest), Some(strongest)) = (row.first(), row.last()) else {
                continue;
            };
            let change = |a: Option<Estimate>, b: Option<Estimate>| match (a, b) {
                (Some(a), Some(b)) => Some(stats::difference(a, b)),
                _ => None,
            };
            trends.push(Trend {
                ruleset: weakest.ruleset.clone(),
                from_player: weakest.player.clone(),
                to_player: strongest.player.clone(),
                first_score_change: change(weakest.first_score, strongest.first_score),
                draw_rate_change: change(weakest.draw_rate, strongest.draw_rate),
            });
        }
    }
    StudyReport {
        id: spec.id(),
        spec: spec.clone(),
        games: played,
        planned: spec.total_games(),
        cells,
        trends,
    }
}

fn cell(ruleset: String, player: String, planned: u64, games: &[&GameMeasure]) -> CellReport {
    let n = games.len() as u64;
    let wins = |side| games.iter().filter(|g| g.winner == Some(side)).count() as u64;
    let (first_wins, second_wins) = (wins(Side::First), wins(Side::Second));
    let draws = n - first_wins - second_wins;
    let results: Vec<f64> = games.iter().map(|g| g.first_score()).collect();
    let lengths: Vec<f64> = games.iter().map(|g| f64::from(g.plies)).collect();
    let adjudicated = games.iter().filter(|g| g.adjudicated).count() as u64;
    let mut endings: BTreeMap<String, [u64; 3]> = BTreeMap::new();
    for game in games {
        let ending = match &game.cause {
            Some(cause) => format!("{}: {cause}", game.reason),
            None => game.reason.clone(),
        };
        let counts = endings.entry(ending).or_default();
        match game.winner {
            Some(Side::First) => counts[0] += 1,
            Some(Side::Second) => counts[1] += 1,
            None => counts[2] += 1,
        }
    }
    let mut endings: Vec<Ending> = endings
        .into_iter()
        .map(|(reason, [first_wins, second_wins, draws])| Ending {
            reason,
            first_wins,
            second_wins,
            draws,
            share: stats::proportion(first_wins + second_wins + draws, n),
        })
        .collect();
    endings.sort_by_key(|e| std::cmp::Reverse(e.first_wins + e.second_wins + e.draws));
    let distinct_games = games
        .iter()
        .map(|g| g.moves.as_str())
        .collect::<HashSet<_>>()
        .len() as u64;
    let millis: u64 = games.iter().map(|g| g.millis).sum();
    CellReport {
        ruleset,
        player,
        games: n,
        planned,
        first_wins,
        second_wins,
        draws,
        first_score: stats::score(&results),
        draw_rate: stats::proportion(draws, n),
        decisive_rate: stats::proportion(n - draws, n),
        length: stats::median(&lengths),
        adjudicated,
        endings,
        branching: branching(games),
        score: score_report(games),
        distinct_games,
        seconds_per_game: if n == 0 {
            0.0
        } else {
            millis as f64 / 1000.0 / n as f64
        },
    }
}

fn branching(games: &[&GameMeasure]) -> Branching {
    let mut means = Vec::new();
    let mut forced = Vec::new();
    let mut stages: Vec<(f64, u64)> = Vec::new();
    for game in games {
        if game.branching.is_empty() {
            continue;
        }
        let plies = game.branching.len() as f64;
        means.push(game.branching.iter().map(|&n| f64::from(n)).sum::<f64>() / plies);
        forced.push(game.branching.iter().filter(|&&n| n == 1).count() as f64 / plies);
        for (stage, chunk) in game.branching.chunks(STAGE_PLIES as usize).enumerate() {
            if stages.len() <= stage {
                stages.push((0.0, 0));
            }
            let mean = chunk.iter().map(|&n| f64::from(n)).sum::<f64>() / chunk.len() as f64;
            stages[stage].0 += mean;
            stages[stage].1 += 1;
        }
    }
    Branching {
        mean: stats::mean(&means),
        forced_share: stats::mean(&forced),
        by_stage: stages
            .into_iter()
            .enumerate()
            .map(|(i, (sum, games))| Stage {
                from_ply: i as u32 * STAGE_PLIES,
                mean: sum / games as f64,
                games,
            })
            .collect(),
    }
}

fn score_report(games: &[&GameMeasure]) -> Option<ScoreReport> {
    let margins: Vec<i64> = games
        .iter()
        .filter_map(|g| g.score.map(|[first, second]| first - second))
        .collect();
    if margins.is_empty() {
        return None;
    }
    let mut distribution: BTreeMap<i64, u64> = BTreeMap::new();
    for &m in &margins {
        *distribution.entry(m).or_default() += 1;
    }
    let values: Vec<f64> = margins.iter().map(|&m| m as f64).collect();
    Some(ScoreReport {
        games: margins.len() as u64,
        margin: stats::mean(&values),
        distribution: distribution.into_iter().collect(),
    })
}

fn estimate<S: serde::Serializer>(e: &Option<Estimate>, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    match e {
        None => s.serialize_none(),
        Some(e) => {
            let mut st = s.serialize_struct("Estimate", 3)?;
            st.serialize_field("value", &finite(e.value))?;
            st.serialize_field("low", &finite(e.low))?;
            st.serialize_field("high", &finite(e.high))?;
            st.end()
        }
    }
}

fn quartiles<S: serde::Serializer>(q: &Option<Quartiles>, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    match q {
        None => s.serialize_none(),
        Some(q) => {
            let mut st = s.serialize_struct("Quartiles", 6)?;
            st.serialize_field("median", &finite(q.median.value))?;
            st.serialize_field("median_low", &finite(q.median.low))?;
            st.serialize_field("median_high", &finite(q.median.high))?;
            st.serialize_field("lower_quartile", &finite(q.lower))?;
            st.serialize_field("upper_quartile", &finite(q.upper))?;
            st.serialize_field("min", &finite(q.min))?;
            st.serialize_field("max", &finite(q.max))?;
            st.end()
        }
    }
}

/// A number for JSON, which has no NaN: rounded to 4 decimals, `None` if not finite.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then(|| (x * 10_000.0).round() / 10_000.0)
}

/// A percentage with its interval, `52.1% (49.0-55.2)`, or `-` without games.
fn percent(e: Option<Estimate>) -> String {
    match e {
        Some(e) => format!(
            "{:.1}% ({:.1}-{:.1})",
            100.0 * e.value,
            100.0 * e.low,
            100.0 * e.high
        ),
        None => "-".to_string(),
    }
}

/// A signed change in percentage points with its interval.
fn change(e: Option<Estimate>) -> String {
    match e {
        Some(e) => format!(
            "{:+.1} ({:+.1} to {:+.1})",
            100.0 * e.value,
            100.0 * e.low,
            100.0 * e.high
        ),
        None => "-".to_string(),
    }
}

impl StudyReport {
    /// The report as text for a terminal: a summary table, then each cell's endings, and the
    /// trends from the weakest player to the strongest.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let openings = match self.spec.openings {
            StudyOpenings::Start => "from the start".to_string(),
            StudyOpenings::RandomPlies { plies } => format!("from {plies} random plies"),
            StudyOpenings::Balanced { plies, margin } => {
                format!("from {plies} random plies scored within {margin} of even")
            }
        };
        let _ = writeln!(
            out,
            "study {}: {} of {} games, each player against itself {openings}, seed {}; 95% intervals",
            self.id, self.games, self.planned, self.spec.seed
        );
        let header = [
            "ruleset",
            "player",
            "games",
            "first-player score",
            "draws",
            "length median (IQR)",
            "branching",
            "forced",
            "distinct",
        ];
        let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
        for c in &self.cells {
            let length = match &c.length {
                Some(q) => format!("{:.0} ({:.0}-{:.0})", q.median.value, q.lower, q.upper),
                None => "-".to_string(),
            };
            let branching = c
                .branching
                .mean
                .map_or("-".to_string(), |e| format!("{:.1}", e.value));
            let forced = c
                .branching
                .forced_share
                .map_or("-".to_string(), |e| format!("{:.0}%", 100.0 * e.value));
            rows.push(vec![
                c.ruleset.clone(),
                c.player.clone(),
                format!("{}/{}", c.games, c.planned),
                percent(c.first_score),
                percent(c.draw_rate),
                length,
                branching,
                forced,
                c.distinct_games.to_string(),
            ]);
        }
        table(&mut out, &rows);
        let _ = writeln!(
            out,
            "\nhow games ended (first-player wins / second / draws):"
        );
        for c in &self.cells {
            let endings: Vec<String> = c
                .endings
                .iter()
                .map(|e| {
                    format!(
                        "{} {}/{}/{}",
                        e.reason, e.first_wins, e.second_wins, e.draws
                    )
                })
                .collect();
            let _ = writeln!(out, "  {} {}: {}", c.ruleset, c.player, endings.join(", "));
            if let Some(score) = &c.score {
                if let Some(m) = score.margin {
                    let _ = writeln!(
                        out,
                        "    score margin (first - second) in {} scored games: {:+.1} ({:+.1} to {:+.1})",
                        score.games, m.value, m.low, m.high
                    );
                }
            }
        }
        if !self.trends.is_empty() {
            let _ = writeln!(
                out,
                "\nfrom the first player listed to the last (percentage points):"
            );
            for t in &self.trends {
                let _ = writeln!(
                    out,
                    "  {}: {} -> {}: first-player score {}, draws {}",
                    t.ruleset,
                    t.from_player,
                    t.to_player,
                    change(t.first_score_change),
                    change(t.draw_rate_change)
                );
            }
        }
        out
    }

    /// One CSV row per ruleset and player, with a header; rates as fractions.
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "ruleset,player,games,planned,first_wins,second_wins,draws,\
             first_score,first_score_low,first_score_high,draw_rate,draw_rate_low,draw_rate_high,\
             decisive_rate,decisive_rate_low,decisive_rate_high,length_median,length_median_low,\
             length_median_high,length_q1,length_q3,adjudicated,branching_mean,forced_share,\
             score_margin,distinct_games,seconds_per_game,endings\n",
        );
        let num = |x: Option<f64>| x.and_then(finite).map_or(String::new(), |x| x.to_string());
        let est = |e: Option<Estimate>| {
            format!(
                "{},{},{}",
                num(e.map(|e| e.value)),
                num(e.map(|e| e.low)),
                num(e.map(|e| e.high))
            )
        };
        for c in &self.cells {
            let endings: Vec<String> = c
                .endings
                .iter()
                .map(|e| {
                    format!(
                        "{}:{}/{}/{}",
                        e.reason, e.first_wins, e.second_wins, e.draws
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                csv_field(&c.ruleset),
                csv_field(&c.player),
                c.games,
                c.planned,
                c.first_wins,
                c.second_wins,
                c.draws,
                est(c.first_score),
                est(c.draw_rate),
                est(c.decisive_rate),
                est(c.length.map(|q| q.median)),
                num(c.length.map(|q| q.lower)),
                num(c.length.map(|q| q.upper)),
                c.adjudicated,
                num(c.branching.mean.map(|e| e.value)),
                num(c.branching.forced_share.map(|e| e.value)),
                num(c.score.as_ref().and_then(|s| s.margin).map(|e| e.value)),
                c.distinct_games,
                num(Some(c.seconds_per_game)),
                csv_field(&endings.join(";")),
            );
        }
        out
    }
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// Writes rows as columns padded to their widest cell, the first row a header.
fn table(out: &mut String, rows: &[Vec<String>]) {
    let columns = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|i| {
            rows.iter()
                .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in rows {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, &width)| format!("{cell:<width$}"))
            .collect();
        let _ = writeln!(out, "{}", line.join("  ").trim_end());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::StudyRuleset;

    fn spec() -> StudySpec {
        StudySpec {
            rulesets: vec![StudyRuleset {
                ruleset: "straat".to_string(),
                board: None,
            }],
            players: vec!["ab:d1".to_string(), "ab:d3".to_string()],
            games: 4,
            openings: StudyOpenings::RandomPlies { plies: 2 },
            max_plies: 100,
            adjudicate_margin: 200,
            seed: 1,
        }
    }

    fn game(winner: Option<Side>, reason: &str, plies: u32, moves: &str) -> GameMeasure {
        GameMeasure {
            winner,
            reason: reason.to_string(),
            cause: None,
            score: Some(match winner {
                Some(Side::First) => [3, 1],
                Some(Side::Second) => [0, 2],
                None => [1, 1],
            }),
            plies,
            opening_plies: 2,
            adjudicated: plies >= 102,
            branching: (0..plies).map(|i| if i % 2 == 1 { 1 } else { 5 }).collect(),
            moves: moves.to_string(),
            millis: 500,
        }
    }

    #[test]
    fn a_report_counts_each_cell_and_the_trend() {
        let spec = spec();
        let games = [
            (0, game(Some(Side::First), "score", 20, "a")),
            (2, game(Some(Side::First), "score", 30, "b")),
            (4, game(None, "threefold repetition", 40, "b")),
            (6, game(Some(Side::Second), "score", 102, "c")),
            (1, game(None, "threefold repetition", 20, "d")),
            (3, game(None, "threefold repetition", 20, "e")),
        ];
        let report = report(&spec, games.iter().map(|(n, g)| (*n, g)));
        assert_eq!(report.games, 6);
        assert_eq!(report.planned, 8);
        let weak = &report.cells[0];
        assert_eq!((weak.first_wins, weak.second_wins, weak.draws), (2, 1, 1));
        assert_eq!(weak.first_score.map(|e| e.value), Some(0.625));
        assert_eq!(weak.distinct_games, 3);
        assert_eq!(weak.adjudicated, 1);
        assert_eq!(weak.endings[0].reason, "score");
        assert_eq!(
            (weak.endings[0].first_wins, weak.endings[0].second_wins),
            (2, 1)
        );
        let length = weak.length.expect("lengths");
        assert_eq!(length.median.value, 35.0);
        let b = &weak.branching;
        assert_eq!(b.forced_share.map(|e| e.value), Some(0.5));
        assert_eq!(b.by_stage[0].games, 4);
        assert_eq!(b.by_stage[0].mean, 3.0);
        assert_eq!(b.by_stage.last().map(|s| s.games), Some(1));
        let score = weak.score.as_ref().expect("scores");
        assert_eq!(score.distribution, [(-2, 1), (0, 1), (2, 2)]);
        let strong = &report.cells[1];
        assert_eq!(strong.games, 2);
        assert_eq!(strong.draw_rate.map(|e| e.value), Some(1.0));
        let trend = &report.trends[0];
        let draws = trend.draw_rate_change.expect("a change");
        assert_eq!(draws.value, 0.75);
        assert!(draws.low < draws.value && draws.high > draws.value);
        let text = report.to_text();
        assert!(text.contains("62.5%"), "{text}");
        let csv = report.to_csv();
        assert_eq!(csv.lines().count(), 3);
        assert!(csv
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("straat,ab:d1,4,4,2,1,1,0.625,")));
        let json = serde_json::to_value(&report).expect("json");
        assert_eq!(json["cells"][0]["first_score"]["value"], 0.625);
        assert_eq!(json["cells"][1]["score"]["distribution"][0][0], 0);
    }

    #[test]
    fn a_cell_without_games_reports_nothing_rather_than_nonsense() {
        let spec = spec();
        let report = report(&spec, std::iter::empty());
        assert_eq!(report.cells.len(), 2);
        assert_eq!(report.cells[0].first_score, None);
        assert!(report.to_text().contains(" - "));
        let json = serde_json::to_string(&report).expect("json");
        assert!(!json.contains("NaN"));
    }
}

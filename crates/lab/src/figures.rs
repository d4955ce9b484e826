//! A study's charts: first-player score and draw rate against strength, game lengths, how
//! games end, the branching factor along the game, and the score margins of scored games.

use std::collections::BTreeSet;

use crate::charts::{
    box_plots, histogram, line_chart, stacked_bars, Bar, Estimate, Sample, Series,
};
use crate::play::GameMeasure;
use crate::report::{StudyReport, STAGE_PLIES};

/// One chart of a study.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figure {
    /// A file name: lower case, digits and hyphens, ending in `.svg`.
    pub file: String,
    pub title: String,
    /// The SVG document.
    pub svg: String,
}

/// The charts of `report`, drawn from its games (`(number, game)` pairs, as for
/// [`crate::report::report`]).
pub fn figures(report: &StudyReport, games: &[(u64, GameMeasure)]) -> Vec<Figure> {
    let spec = &report.spec;
    let players = spec.players.len();
    let mut figures = Vec::new();
    let rows: Vec<&[crate::report::CellReport]> = report.cells.chunks(players.max(1)).collect();
    let against_strength = |pick: &dyn Fn(&crate::report::CellReport) -> Option<Estimate>| {
        rows.iter()
            .map(|row| Series {
                name: row.first().map_or(String::new(), |c| c.ruleset.clone()),
                points: row.iter().map(pick).collect(),
            })
            .collect::<Vec<_>>()
    };
    let title = "First-player score against strength";
    figures.push(Figure {
        file: "first-player-score.svg".to_string(),
        title: title.to_string(),
        svg: line_chart(
            title,
            "player",
            "first-player score",
            &spec.players,
            &against_strength(&|c| c.first_score),
            Some((0.0, 1.0)),
            Some(0.5),
        ),
    });
    let title = "Draw rate against strength";
    figures.push(Figure {
        file: "draw-rate.svg".to_string(),
        title: title.to_string(),
        svg: line_chart(
            title,
            "player",
            "draw rate",
            &spec.players,
            &against_strength(&|c| c.draw_rate),
            Some((0.0, 1.0)),
            None,
        ),
    });
    let cell_name = |i: usize| {
        let c = &report.cells[i];
        format!("{} {}", c.ruleset, c.player)
    };
    let mut lengths: Vec<Vec<f64>> = vec![Vec::new(); report.cells.len()];
    let mut margins: Vec<Vec<i64>> = vec![Vec::new(); report.cells.len()];
    for (number, game) in games {
        if let Some(slot) = spec.slot(*number) {
            let i = slot.ruleset * players + slot.player;
            lengths[i].push(f64::from(game.plies));
            if let Some([first, second]) = game.score {
                margins[i].push(first - second);
            }
        }
    }
    let title = "Game length";
    figures.push(Figure {
        file: "lengths.svg".to_string(),
        title: title.to_string(),
        svg: box_plots(
            title,
            "plies from the start",
            &lengths
                .into_iter()
                .enumerate()
                .map(|(i, values)| Sample {
                    name: cell_name(i),
                    values,
                })
                .collect::<Vec<_>>(),
        ),
    });
    // Endings as parts: each reason, split into decisive and drawn.
    let mut parts = BTreeSet::new();
    for cell in &report.cells {
        for e in &cell.endings {
            if e.first_wins + e.second_wins > 0 {
                parts.insert(format!("{} (won)", e.reason));
            }
            if e.draws > 0 {
                parts.insert(format!("{} (drawn)", e.reason));
            }
        }
    }
    let parts: Vec<String> = parts.into_iter().collect();
    let bars: Vec<Bar> = report
        .cells
        .iter()
        .enumerate()
        .map(|(i, cell)| Bar {
            name: cell_name(i),
            values: parts
                .iter()
                .map(|part| {
                    cell.endings
                        .iter()
                        .map(|e| {
                            if *part == format!("{} (won)", e.reason) {
                                (e.first_wins + e.second_wins) as f64
                            } else if *part == format!("{} (drawn)", e.reason) {
                                e.draws as f64
                            } else {
                                0.0
                            }
                        })
                        .sum()
                })
                .collect(),
        })
        .collect();
    let title = "How games end";
    figures.push(Figure {
        file: "endings.svg".to_string(),
        title: title.to_string(),
        svg: stacked_bars(title, &parts, &bars, true),
    });
    let stages = report
        .cells
        .iter()
        .map(|c| c.branching.by_stage.len())
        .max()
        .unwrap_or(0);
    let stage_names: Vec<String> = (0..stages)
        .map(|s| format!("{}", s as u32 * STAGE_PLIES))
        .collect();
    let series: Vec<Series> = report
        .cells
        .iter()
        .enumerate()
        .map(|(i, cell)| Series {
            name: cell_name(i),
            points: (0..stages)
                .map(|s| {
                    cell.branching.by_stage.get(s).map(|stage| Estimate {
                        value: stage.mean,
                        low: stage.mean,
                        high: stage.mean,
                    })
                })
                .collect(),
        })
        .collect();
    let title = "Legal moves along the game";
    figures.push(Figure {
        file: "branching.svg".to_string(),
        title: title.to_string(),
        svg: line_chart(
            title,
            &format!("ply (stages of {STAGE_PLIES})"),
            "mean legal moves",
            &stage_names,
            &series,
            None,
            None,
        ),
    });
    for (i, values) in margins.iter().enumerate() {
        if values.is_empty() {
            continue;
        }
        let title = format!("Score margin (first - second): {}", cell_name(i));
        figures.push(Figure {
            file: format!("scores-{}.svg", file_part(&cell_name(i))),
            svg: histogram(&title, "first player's points minus second's", values),
            title,
        });
    }
    figures
}

/// Text made safe as part of a file name: lower-case letters, digits and hyphens.
fn file_part(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::Side;
    use crate::study::{StudyOpenings, StudyRuleset, StudySpec};

    #[test]
    fn a_study_draws_its_charts_with_safe_names() {
        let spec = StudySpec {
            rulesets: vec![StudyRuleset {
                ruleset: "straat".to_string(),
                board: None,
            }],
            players: vec!["ab:d1".to_string(), "ab:0.2s".to_string()],
            games: 2,
            openings: StudyOpenings::Start,
            max_plies: 100,
            adjudicate_margin: 200,
            seed: 1,
        };
        let game = |winner, score| GameMeasure {
            winner,
            reason: "score".to_string(),
            cause: None,
            score: Some(score),
            plies: 30,
            opening_plies: 0,
            adjudicated: false,
            branching: vec![4; 30],
            moves: "a".to_string(),
            millis: 1,
        };
        let games = vec![
            (0, game(Some(Side::First), [3, 1])),
            (1, game(None, [2, 2])),
            (2, game(Some(Side::Second), [1, 4])),
        ];
        let report = crate::report::report(&spec, games.iter().map(|(n, g)| (*n, g)));
        let figures = figures(&report, &games);
        let files: Vec<&str> = figures.iter().map(|f| f.file.as_str()).collect();
        assert_eq!(
            files,
            [
                "first-player-score.svg",
                "draw-rate.svg",
                "lengths.svg",
                "endings.svg",
                "branching.svg",
                "scores-straat-ab-d1.svg",
                "scores-straat-ab-0-2s.svg"
            ]
        );
        for f in &figures {
            assert!(f.svg.starts_with("<svg") && f.svg.trim_end().ends_with("</svg>"));
        }
        assert!(figures[3].svg.contains("score (won)"));
    }
}

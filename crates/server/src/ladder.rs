//! What a rated game is rated in, and the computer's place on the scale.
//!
//! A rating belongs to a *category*: a rating pool (a game family, or a board of its own within
//! one, see [`pool`]) and a time class (from the clock, see [`TimeClass`]), written `chad/blitz`.
//!
//! The computer's levels are players of fixed rating in every pool: level 1 is
//! [`LEVEL_ONE_RATING`], and each level above it adds the Elo that the level ladder in
//! `docs/strength.md` measured for it in that family (its tables' last column, read from the
//! document itself when the server starts, so the two cannot drift apart). So a rating means the
//! same in every game, even where few people play it.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::clock::TimeControl;
use crate::rating::Rating;

/// The rating of level 1 in every pool: a beginner's (one ply of search, with its evaluation
/// blurred by noise).
pub const LEVEL_ONE_RATING: f64 = 800.0;

/// The level ladder, as measured and written in `docs/strength.md`.
const STRENGTH_DOC: &str = include_str!("../../../docs/strength.md");

/// The time class of a clock, by the game's expected length: the main time plus 40 increments,
/// or 40 times a time per move (as lichess estimates it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TimeClass {
    /// Under 3 minutes.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
}

impl TimeClass {
    pub const ALL: [TimeClass; 4] = [
        TimeClass::Bullet,
        TimeClass::Blitz,
        TimeClass::Rapid,
        TimeClass::Classical,
    ];

    /// The class of a time control.
    pub fn of(control: TimeControl) -> TimeClass {
        let expected_ms = match control {
            TimeControl::PerMove { move_ms } => 40 * move_ms,
            TimeControl::Main {
                main_ms,
                increment_ms,
            } => main_ms + 40 * increment_ms,
        };
        match expected_ms / 1000 {
            s if s < 3 * 60 => TimeClass::Bullet,
            s if s < 8 * 60 => TimeClass::Blitz,
            s if s < 25 * 60 => TimeClass::Rapid,
            _ => TimeClass::Classical,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TimeClass::Bullet => "bullet",
            TimeClass::Blitz => "blitz",
            TimeClass::Rapid => "rapid",
            TimeClass::Classical => "classical",
        }
    }

    pub fn from_name(name: &str) -> Option<TimeClass> {
        TimeClass::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// The measured ladders: for each pool, each level's Elo above level 1.
fn ladders() -> &'static BTreeMap<String, Vec<f64>> {
    static LADDERS: OnceLock<BTreeMap<String, Vec<f64>>> = OnceLock::new();
    LADDERS.get_or_init(|| read_ladders(STRENGTH_DOC))
}

/// Reads the level tables of `docs/strength.md`: a heading `#### POOL`, then a table whose rows
/// start `| LEVEL |` and whose last column is the level's Elo above level 1 (`0`, `+382 ±
/// 216`, `>= +1421 ± 359`; a one-sided bound counts as its value). A pool is kept only with
/// every level from 1 to 8, in order.
fn read_ladders(doc: &str) -> BTreeMap<String, Vec<f64>> {
    let mut ladders = BTreeMap::new();
    let mut pool: Option<String> = None;
    let mut levels: Vec<f64> = Vec::new();
    let mut finish = |pool: &mut Option<String>, levels: &mut Vec<f64>| {
        if let Some(name) = pool.take() {
            if levels.len() == usize::from(denkmeter_engine::MAX_LEVEL) {
                ladders.insert(name, std::mem::take(levels));
            }
        }
        levels.clear();
    };
    for line in doc.lines() {
        if let Some(name) = line.strip_prefix("#### ") {
            finish(&mut pool, &mut levels);
            pool = Some(name.trim().to_string());
            continue;
        }
        if pool.is_none() || !line.starts_with('|') {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let (Some(level), Some(last)) = (cells.first(), cells.last()) else {
            continue;
        };
        let Ok(level) = level.parse::<usize>() else {
            continue;
        };
        let value = last
            .trim_start_matches(">=")
            .split('±')
            .next()
            .map(|v| v.trim().trim_start_matches('+'))
            .and_then(|v| v.parse::<f64>().ok());
        match value {
            Some(elo) if level == levels.len() + 1 => levels.push(elo),
            // A level out of order or unreadable spoils the table.
            _ => levels.push(f64::NAN),
        }
    }
    finish(&mut pool, &mut levels);
    ladders.retain(|_, levels| levels.iter().all(|e| e.is_finite()));
    ladders
}

/// The rating pool of a ruleset: the longest measured ladder's name that the ruleset's name
/// is, or starts with followed by `-` (`scandinavian-8x8-weak` plays in `scandinavian-8x8`,
/// `scandinavian-weak` in `scandinavian`), else its family. Rulesets of one pool share
/// ratings: they differ in a rule, not in the game.
pub fn pool(ruleset: &str, family: &str) -> String {
    ladders()
        .keys()
        .filter(|name| {
            ruleset == name.as_str()
                || ruleset
                    .strip_prefix(name.as_str())
                    .is_some_and(|rest| rest.starts_with('-'))
        })
        .max_by_key(|name| name.len())
        .cloned()
        .unwrap_or_else(|| family.to_string())
}

/// The category of a game: `POOL/CLASS`.
pub fn category(ruleset: &str, family: &str, control: TimeControl) -> String {
    format!(
        "{}/{}",
        pool(ruleset, family),
        TimeClass::of(control).name()
    )
}

/// Splits a category into its pool and class; `None` if it is not one.
pub fn split_category(category: &str) -> Option<(&str, TimeClass)> {
    let (pool, class) = category.split_once('/')?;
    let plain = !pool.is_empty()
        && pool
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    Some((pool, TimeClass::from_name(class)?)).filter(|_| plain)
}

/// The fixed rating of the computer's `level` in `pool`; `None` for a pool without a measured
/// ladder or a level outside it.
pub fn computer_rating(pool: &str, level: u8) -> Option<Rating> {
    let above_one = ladders()
        .get(pool)?
        .get(usize::from(level).checked_sub(1)?)?;
    Some(Rating::fixed(LEVEL_ONE_RATING + above_one))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_families_ladder_is_read_from_the_strength_page() {
        let pools: Vec<&str> = ladders().keys().map(String::as_str).collect();
        assert_eq!(
            pools,
            [
                "chad",
                "english",
                "fort-chitral",
                "international",
                "kamelen",
                "scandinavian",
                "scandinavian-8x8",
                "schada",
                "shakti",
                "sjekkers",
                "straat",
                "trangalla"
            ]
        );
        // Each level's figure as measured, even where a level was no stronger than the one
        // below it (Trangalla's level 5 scored 18-2-20 against level 4).
        for (pool, levels) in ladders() {
            assert_eq!(levels[0], 0.0, "{pool}");
            assert!(
                levels[7] > levels[3] && levels[3] > 0.0,
                "{pool}: {levels:?}"
            );
        }
        assert_eq!(ladders()["trangalla"][3..5], [404.0, 387.0]);
        // As printed: international's level 8 is +2279 above level 1, English's level 5 a
        // one-sided >= +1421.
        assert_eq!(
            computer_rating("international", 8).unwrap().rating,
            800.0 + 2279.0
        );
        assert_eq!(
            computer_rating("english", 5).unwrap().rating,
            800.0 + 1421.0
        );
        assert_eq!(computer_rating("chad", 1).unwrap().rating, LEVEL_ONE_RATING);
        assert_eq!(computer_rating("chad", 9), None);
        assert_eq!(computer_rating("chad", 0), None);
        assert_eq!(computer_rating("nothing", 1), None);
    }

    #[test]
    fn a_broken_table_is_left_out() {
        let doc = "#### good\n| 1 | | 0 |\n| 2 | 1 | +10 ± 3 |\n| 3 | | +20 |\n| 4 | | +30 |\n\
                   | 5 | | +40 |\n| 6 | | +50 |\n| 7 | | +60 |\n| 8 | | >= +70 ± 5 |\n\
                   #### short\n| 1 | | 0 |\n#### garbled\n| 1 | | 0 |\n| 3 | | +1 |";
        let read = read_ladders(doc);
        assert_eq!(read.keys().collect::<Vec<_>>(), ["good"]);
        assert_eq!(read["good"][7], 70.0);
    }

    #[test]
    fn rulesets_play_in_their_pools() {
        assert_eq!(
            pool("scandinavian-8x8-weak-free", "scandinavian"),
            "scandinavian-8x8"
        );
        assert_eq!(pool("scandinavian-weak", "scandinavian"), "scandinavian");
        assert_eq!(pool("scandinavian", "scandinavian"), "scandinavian");
        assert_eq!(pool("kamelen-11x13", "kamelen"), "kamelen");
        assert_eq!(pool("sjekkers-checkers", "sjekkers"), "sjekkers");
        assert_eq!(
            pool("chadx", "chad"),
            "chad",
            "a prefix without - is not its pool"
        );
    }

    #[test]
    fn clocks_fall_into_time_classes() {
        let main = |m: i64, i: i64| TimeControl::Main {
            main_ms: m * 1000,
            increment_ms: i * 1000,
        };
        assert_eq!(TimeClass::of(main(60, 0)), TimeClass::Bullet);
        assert_eq!(TimeClass::of(main(120, 1)), TimeClass::Bullet);
        assert_eq!(TimeClass::of(main(180, 0)), TimeClass::Blitz);
        assert_eq!(TimeClass::of(main(300, 3)), TimeClass::Blitz);
        assert_eq!(TimeClass::of(main(480, 0)), TimeClass::Rapid);
        assert_eq!(TimeClass::of(main(600, 5)), TimeClass::Rapid);
        assert_eq!(TimeClass::of(main(900, 15)), TimeClass::Classical);
        let per_move = TimeControl::PerMove { move_ms: 30_000 };
        assert_eq!(TimeClass::of(per_move), TimeClass::Rapid);
        assert_eq!(category("chad", "chad", main(180, 2)), "chad/blitz");
        assert_eq!(
            split_category("chad/blitz"),
            Some(("chad", TimeClass::Blitz))
        );
        assert_eq!(
            split_category("scandinavian-8x8/bullet"),
            Some(("scandinavian-8x8", TimeClass::Bullet))
        );
        for bad in [
            "chad",
            "chad/",
            "/blitz",
            "chad/slow",
            "Chad/blitz",
            "a b/blitz",
            "x/blitz/y",
        ] {
            assert_eq!(split_category(bad), None, "{bad}");
        }
    }
}

//! Who makes the moves: the one agent type, written as text on the command line and in match
//! reports. Its text round-trips: an agent prints as text that reads back as the same agent.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::Limits;

/// The highest level of [`Agent::Computer`].
pub const MAX_LEVEL: u8 = 8;
/// The longest time limit an agent accepts.
pub const MAX_TIME: Duration = Duration::from_secs(3600);
/// The deepest depth an agent accepts.
pub const MAX_DEPTH: u32 = 64;

/// A player that chooses moves by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    /// A uniformly random legal move.
    Random,
    /// The computer opponent at a level, 1 to [`MAX_LEVEL`]: the search the game plays best
    /// with ([`denkmeter_core::Facts::search`]), alpha-beta by [`alphabeta_level`] (over
    /// drawings of what is hidden, [`crate::pimc`], where something is) or Monte Carlo by
    /// [`level_limits`] (information-set MCTS where something is hidden).
    Computer(u8),
    /// Monte Carlo tree search with these limits (`nodes` counts iterations). In a game that
    /// hides something it searches one state drawn from what the player knows (a single
    /// determinization).
    Mcts(Limits),
    /// Information-set Monte Carlo tree search with these limits (`nodes` counts iterations):
    /// a new drawing of the hidden part at every iteration, one shared tree. The computer's
    /// search in games that hide something; the same as [`Agent::Mcts`] in the others.
    Ismcts(Limits),
    /// Alpha-beta search with these limits; in a game that hides something, over several
    /// drawings of the hidden part ([`crate::pimc`]), the limits shared by them.
    /// `endgame_tables`: whether it uses the endgame databases installed (written `no-egtb`
    /// among the limits when not), so that a match can measure what they bring.
    AlphaBeta {
        limits: Limits,
        endgame_tables: bool,
    },
}

/// The Monte Carlo limits of a level: level `n` searches a fixed number of iterations,
/// stopping early at the level's time limit. A seeded game is reproducible whenever the
/// iterations finish within the time limit (always for the low levels).
pub fn level_limits(level: u8) -> Option<Limits> {
    let (iterations, seconds) = match level {
        1 => (100, 1),
        2 => (400, 1),
        3 => (1_500, 2),
        4 => (5_000, 3),
        5 => (15_000, 5),
        6 => (40_000, 5),
        7 => (100_000, 5),
        8 => (250_000, 10),
        _ => return None,
    };
    Some(Limits {
        depth: None,
        nodes: Some(iterations),
        time: Some(Duration::from_secs(seconds)),
        target: None,
    })
}

/// How a level plays a game whose computer uses alpha-beta: the low levels search a few plies
/// with noise added to the evaluation (in hundredths of a man or rook), so that they misjudge
/// like a beginner; from level 5 up a level searches about three times the nodes of the one
/// below (100,000 to 3,200,000), so that every step costs the same in every game (their nodes
/// per second differ sevenfold) and a seeded game repeats on any machine. Level 5 starts at
/// 100,000 because four plies take some 35,000-70,000 nodes in Chad, where 50,000 played no
/// better than level 4. Every level also stops at a time limit, which only a
/// slow machine reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaBetaLevel {
    pub limits: Limits,
    /// The largest error added to an evaluation, either way.
    pub noise: u32,
}

/// The alpha-beta plan of a level, 1 to [`MAX_LEVEL`].
pub fn alphabeta_level(level: u8) -> Option<AlphaBetaLevel> {
    let (depth, nodes, noise, millis) = match level {
        1 => (Some(1), None, 150, 1_000),
        2 => (Some(2), None, 80, 1_000),
        3 => (Some(3), None, 40, 1_000),
        4 => (Some(4), None, 15, 1_000),
        5 => (None, Some(100_000), 0, 1_000),
        6 => (None, Some(320_000), 0, 2_000),
        7 => (None, Some(1_000_000), 0, 5_000),
        8 => (None, Some(3_200_000), 0, 10_000),
        _ => return None,
    };
    Some(AlphaBetaLevel {
        limits: Limits {
            depth,
            nodes,
            time: Some(Duration::from_millis(millis)),
            target: None,
        },
        noise,
    })
}

/// Agent text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read player {text:?}: {reason}; expected random, computer, computer:LEVEL (1-{MAX_LEVEL}), or mcts:LIMITS, ismcts:LIMITS or ab:LIMITS where LIMITS are comma-separated: a number (iterations for mcts and ismcts, depth for ab), dDEPTH, nNODES, SECONDSs or MILLISECONDSms (and for ab, no-egtb: without the endgame databases), e.g. mcts:2000, ab:6, ab:d8,1.5s")]
pub struct AgentError {
    pub text: String,
    pub reason: String,
}

impl Agent {
    /// Alpha-beta search with these limits, using the endgame databases.
    pub fn alpha_beta(limits: Limits) -> Agent {
        Agent::AlphaBeta {
            limits,
            endgame_tables: true,
        }
    }

    /// The search limits this agent uses, if it searches; for a level, its Monte Carlo limits
    /// (a game that plays it with alpha-beta uses [`alphabeta_level`]).
    pub fn limits(&self) -> Option<Limits> {
        match *self {
            Agent::Random => None,
            Agent::Computer(level) => level_limits(level),
            Agent::Mcts(limits) | Agent::Ismcts(limits) | Agent::AlphaBeta { limits, .. } => {
                Some(limits)
            }
        }
    }
}

impl FromStr for Agent {
    type Err = AgentError;

    fn from_str(text: &str) -> Result<Agent, AgentError> {
        let bad = |reason: &str| AgentError {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let (kind, arg) = match text.split_once(':') {
            Some((kind, arg)) => (kind, Some(arg)),
            None => (text, None),
        };
        match (kind, arg) {
            ("random", None) => Ok(Agent::Random),
            ("computer", None) => Ok(Agent::Computer(3)),
            ("computer", Some(level)) => match level.parse::<u8>() {
                Ok(level) if (1..=MAX_LEVEL).contains(&level) => Ok(Agent::Computer(level)),
                _ => Err(bad(&format!("the level is a number from 1 to {MAX_LEVEL}"))),
            },
            ("mcts", Some(spec)) => parse_limits(spec, Bare::Nodes)
                .map(Agent::Mcts)
                .map_err(|r| bad(&r)),
            ("ismcts", Some(spec)) => parse_limits(spec, Bare::Nodes)
                .map(Agent::Ismcts)
                .map_err(|r| bad(&r)),
            ("ab", Some(spec)) => {
                let parts: Vec<&str> = spec.split(',').map(str::trim).collect();
                let kept: Vec<&str> = parts.iter().copied().filter(|&p| p != NO_EGTB).collect();
                if parts.len() - kept.len() > 1 {
                    return Err(bad(&format!("{NO_EGTB} is given twice")));
                }
                if kept.is_empty() {
                    return Err(bad("a search needs at least one limit"));
                }
                let endgame_tables = kept.len() == parts.len();
                parse_limits(&kept.join(","), Bare::Depth)
                    .map(|limits| Agent::AlphaBeta {
                        limits,
                        endgame_tables,
                    })
                    .map_err(|r| bad(&r))
            }
            ("mcts" | "ismcts" | "ab", None) => Err(bad("a search needs at least one limit")),
            _ => Err(bad("unknown kind of player")),
        }
    }
}

/// The word among alpha-beta's limits that switches its endgame databases off.
const NO_EGTB: &str = "no-egtb";

/// What a bare number means in a search's limits.
#[derive(Clone, Copy, PartialEq)]
enum Bare {
    Depth,
    Nodes,
}

fn parse_limits(spec: &str, bare: Bare) -> Result<Limits, String> {
    let mut limits = Limits::default();
    for part in spec.split(',') {
        let part = part.trim();
        if part == NO_EGTB {
            return Err(format!("{NO_EGTB} is for ab (alpha-beta) alone"));
        }
        if let Some(time) = parse_time(part)? {
            set_once(&mut limits.time, time, "time")?;
        } else if let Some(depth) = part.strip_prefix('d') {
            if bare == Bare::Nodes {
                return Err("Monte Carlo tree search has no depth limit".into());
            }
            set_once(&mut limits.depth, parse_depth(depth)?, "depth")?;
        } else if let Some(nodes) = part.strip_prefix('n') {
            set_once(&mut limits.nodes, parse_nodes(nodes)?, "nodes")?;
        } else if bare == Bare::Depth {
            set_once(&mut limits.depth, parse_depth(part)?, "depth")?;
        } else {
            set_once(&mut limits.nodes, parse_nodes(part)?, "nodes")?;
        }
    }
    Ok(limits)
}

fn set_once<T>(slot: &mut Option<T>, value: T, what: &str) -> Result<(), String> {
    if slot.is_some() {
        return Err(format!("the {what} is given twice"));
    }
    *slot = Some(value);
    Ok(())
}

fn parse_depth(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(d),
        _ => Err(format!("{text:?} is not a depth from 1 to {MAX_DEPTH}")),
    }
}

fn parse_nodes(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("{text:?} is not a positive number of nodes")),
    }
}

/// A time limit such as `2s`, `1.5s` or `300ms` (1 ms to [`MAX_TIME`]), rounded to whole
/// milliseconds.
pub fn parse_time_limit(text: &str) -> Result<Duration, String> {
    parse_time(text)?.ok_or_else(|| format!("{text:?} is not a time such as 2s, 1.5s or 300ms"))
}

/// A time such as `2s`, `1.5s` or `300ms`, rounded to whole milliseconds; `None` if the text is
/// not a time at all.
fn parse_time(text: &str) -> Result<Option<Duration>, String> {
    let (number, millis_per_unit) = if let Some(ms) = text.strip_suffix("ms") {
        (ms, 1.0)
    } else if let Some(s) = text.strip_suffix('s') {
        (s, 1000.0)
    } else {
        return Ok(None);
    };
    let millis = match number.parse::<f64>() {
        Ok(n) if n.is_finite() => (n * millis_per_unit).round(),
        _ => return Err(format!("{text:?} is not a time")),
    };
    if millis < 1.0 || millis > MAX_TIME.as_millis() as f64 {
        return Err(format!(
            "{text:?} is not a time from 1ms to {}s",
            MAX_TIME.as_secs()
        ));
    }
    Ok(Some(Duration::from_millis(millis as u64)))
}

/// Writes a time in whole seconds if it is, else in milliseconds (times are whole
/// milliseconds).
struct Time(Duration);

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let millis = self.0.as_millis();
        if millis % 1000 == 0 {
            write!(f, "{}s", millis / 1000)
        } else {
            write!(f, "{millis}ms")
        }
    }
}

fn write_limits(f: &mut fmt::Formatter<'_>, limits: &Limits, bare: Bare) -> fmt::Result {
    let mut parts = Vec::new();
    match bare {
        Bare::Nodes => {
            parts.extend(limits.nodes.map(|n| n.to_string()));
            parts.extend(limits.depth.map(|d| format!("d{d}")));
        }
        Bare::Depth => {
            parts.extend(limits.depth.map(|d| d.to_string()));
            parts.extend(limits.nodes.map(|n| format!("n{n}")));
        }
    }
    parts.extend(limits.time.map(|t| Time(t).to_string()));
    f.write_str(&parts.join(","))
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Agent::Random => f.write_str("random"),
            Agent::Computer(level) => write!(f, "computer:{level}"),
            Agent::Mcts(limits) => {
                f.write_str("mcts:")?;
                write_limits(f, limits, Bare::Nodes)
            }
            Agent::Ismcts(limits) => {
                f.write_str("ismcts:")?;
                write_limits(f, limits, Bare::Nodes)
            }
            Agent::AlphaBeta {
                limits,
                endgame_tables,
            } => {
                f.write_str("ab:")?;
                write_limits(f, limits, Bare::Depth)?;
                if !endgame_tables {
                    write!(f, ",{NO_EGTB}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn read(text: &str) -> Agent {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn agents_read_and_print() {
        assert_eq!(read("random"), Agent::Random);
        assert_eq!(read("computer"), Agent::Computer(3));
        assert_eq!(read("computer:1").to_string(), "computer:1");
        assert_eq!(read("mcts:250"), Agent::Mcts(Limits::nodes(250)));
        assert_eq!(read("mcts:250").to_string(), "mcts:250");
        assert_eq!(read("mcts:1.5s").to_string(), "mcts:1500ms");
        assert_eq!(read("mcts:20ms").to_string(), "mcts:20ms");
        assert_eq!(read("ab:5"), Agent::alpha_beta(Limits::depth(5)));
        assert_eq!(
            read("ab:no-egtb, 5"),
            Agent::AlphaBeta {
                limits: Limits::depth(5),
                endgame_tables: false
            }
        );
        assert_eq!(read("ab:5,no-egtb").to_string(), "ab:5,no-egtb");
        assert_eq!(read("ab:0.5s").to_string(), "ab:500ms");
        assert_eq!(read("ab:2000ms").to_string(), "ab:2s");
        assert_eq!(
            read("ab:d8, n100000, 1.5s"),
            Agent::alpha_beta(Limits {
                depth: Some(8),
                nodes: Some(100_000),
                time: Some(Duration::from_millis(1500)),
                target: None,
            })
        );
        assert_eq!(
            read("ab:d8,n100000,1.5s").to_string(),
            "ab:8,n100000,1500ms"
        );
        assert_eq!(read("mcts:n7,2s").to_string(), "mcts:7,2s");
        assert!("mcts:d3".parse::<Agent>().is_err(), "MCTS has no depth");
        for bad in [
            "ab:0",
            "ab:x",
            "ab:99",
            "ab",
            "ab:",
            "ab:5,6",
            "ab:1s,2s",
            "ab:no-egtb",
            "ab:5,no-egtb,no-egtb",
            "ab:5,no-egtbs",
            "mcts:5,no-egtb",
            "computer:0",
            "computer:99",
            "computer:x",
            "mcts",
            "mcts:0",
            "mcts:x",
            "mcts:-1s",
            "mcts:NaNs",
            "mcts:infs",
            "mcts:0.0001s",
            "mcts:7200s",
            "human",
            "",
            "random:1",
        ] {
            assert!(bad.parse::<Agent>().is_err(), "{bad}");
        }
        let error = |text: &str| text.parse::<Agent>().unwrap_err().to_string();
        assert!(error("ab:no-egtb").contains("at least one limit"));
        assert!(error("mcts:5,no-egtb").contains("for ab (alpha-beta) alone"));
        let error = error("ab:99");
        assert!(error.contains("depth from 1 to 64"), "{error}");
    }

    #[test]
    fn the_levels_are_searches_with_limits() {
        for level in 1..=MAX_LEVEL {
            let limits = Agent::Computer(level).limits().expect("a level searches");
            assert!(limits.nodes.is_some() && limits.time.is_some());
        }
        assert_eq!(level_limits(0), None);
        assert_eq!(level_limits(MAX_LEVEL + 1), None);
        assert_eq!(Agent::Random.limits(), None);
        // Alpha-beta levels: no smaller search with more noise, and every level stops in time.
        let plans: Vec<_> = (1..=MAX_LEVEL).filter_map(alphabeta_level).collect();
        assert_eq!(plans.len(), usize::from(MAX_LEVEL));
        let size = |p: &AlphaBetaLevel| {
            (
                p.limits.depth.is_none(),
                p.limits.nodes.is_none(),
                p.limits.depth.unwrap_or(0),
                p.limits.nodes.unwrap_or(0),
            )
        };
        for pair in plans.windows(2) {
            assert!(size(&pair[0]) <= size(&pair[1]) && pair[0].noise >= pair[1].noise);
            assert!(pair[0].limits != pair[1].limits || pair[0].noise > pair[1].noise);
        }
        assert!(plans.iter().all(|p| p.limits.time.is_some()));
        assert_eq!(plans[7].noise, 0);
        assert_eq!(
            (alphabeta_level(0), alphabeta_level(MAX_LEVEL + 1)),
            (None, None)
        );
    }

    fn limits() -> impl Strategy<Value = Limits> {
        (
            proptest::option::of(1..=MAX_DEPTH),
            proptest::option::of(1u64..=u64::MAX),
            proptest::option::of(1u64..=MAX_TIME.as_millis() as u64),
        )
            .prop_filter("a search needs a limit", |(d, n, t)| {
                d.is_some() || n.is_some() || t.is_some()
            })
            .prop_map(|(depth, nodes, time)| Limits {
                depth,
                nodes,
                time: time.map(Duration::from_millis),
                target: None,
            })
    }

    fn agents() -> impl Strategy<Value = Agent> {
        prop_oneof![
            Just(Agent::Random),
            (1..=MAX_LEVEL).prop_map(Agent::Computer),
            limits()
                .prop_filter("MCTS has no depth", |l| l.depth.is_none())
                .prop_map(Agent::Mcts),
            limits()
                .prop_filter("iterations or time", |l| l.depth.is_none())
                .prop_map(Agent::Ismcts),
            (limits(), any::<bool>()).prop_map(|(limits, endgame_tables)| Agent::AlphaBeta {
                limits,
                endgame_tables
            }),
        ]
    }

    proptest! {
        #[test]
        fn every_agent_reads_back_from_its_text(agent in agents()) {
            let text = agent.to_string();
            prop_assert_eq!(text.parse::<Agent>(), Ok(agent), "{}", text);
        }
    }
}

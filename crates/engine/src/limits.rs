//! When a search stops: one limits type for every search.

use std::time::Duration;

/// When a search stops: whichever limit is reached first. Each search reads the limits that
/// mean something to it: alpha-beta counts `depth` in plies and `nodes` as positions visited;
/// Monte Carlo tree search counts `nodes` as iterations (each adds a node to its tree) and has
/// no depth. With no time limit a search is deterministic for a given seed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
}

impl Limits {
    /// Search to this depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search this many nodes (MCTS iterations).
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Search for this long.
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// These limits with the time limit no longer than `most`, if given: the time a player on
    /// the clock can afford this turn.
    pub fn within(self, most: Option<Duration>) -> Limits {
        let time = match (self.time, most) {
            (Some(own), Some(most)) => Some(own.min(most)),
            (own, most) => own.or(most),
        };
        Limits { time, ..self }
    }

    /// Whether no limit is set (a search then uses its own default).
    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.time.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_within_bound_shortens_only_a_longer_limit() {
        let second = Duration::from_secs(1);
        let level = Limits {
            nodes: Some(100_000),
            time: Some(second),
            ..Limits::default()
        };
        let short = Duration::from_millis(300);
        assert_eq!(level.within(Some(short)).time, Some(short));
        assert_eq!(level.within(Some(short)).nodes, Some(100_000));
        assert_eq!(level.within(Some(second * 5)).time, Some(second));
        assert_eq!(level.within(None), level);
        assert_eq!(Limits::depth(4).within(Some(short)).time, Some(short));
    }
}

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

    /// Whether no limit is set (a search then uses its own default).
    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.time.is_none()
    }
}

//! Time management: when a search must stop, from its limits and the nodes it has visited.

use std::time::Instant;

use crate::Limits;

/// The clock of one search. The deadline is checked only every [`Clock::CHECK_EVERY`] nodes,
/// so reading the time costs nothing measurable.
#[derive(Clone, Debug)]
pub(crate) struct Clock {
    started: Instant,
    limits: Limits,
    /// Whether the deadline applies yet: alpha-beta always completes depth 1.
    armed: bool,
}

impl Clock {
    /// How many nodes pass between two looks at the time.
    pub(crate) const CHECK_EVERY: u64 = 1024;

    pub(crate) fn start(limits: Limits) -> Clock {
        Clock {
            started: Instant::now(),
            limits,
            armed: false,
        }
    }

    /// From now on the time and node limits stop the search.
    pub(crate) fn arm(&mut self) {
        self.armed = true;
    }

    /// Whether the search must stop now, having visited `nodes` nodes.
    pub(crate) fn must_stop(&self, nodes: u64) -> bool {
        if !self.armed {
            return false;
        }
        if self.limits.nodes.is_some_and(|n| nodes >= n) {
            return true;
        }
        nodes % Self::CHECK_EVERY == 0 && self.out_of_time()
    }

    /// Whether the time limit has passed.
    pub(crate) fn out_of_time(&self) -> bool {
        self.limits
            .time
            .is_some_and(|t| self.started.elapsed() >= t)
    }
}

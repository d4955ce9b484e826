//! Time management: when a search must stop, from its limits, the nodes visited and what the
//! other threads decided.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::Limits;

/// The clock of one search, shared by its threads. A time limit is a hard deadline; a new
/// iteration starts only while less than [`Clock::DEEPEN_BEFORE`] of it has passed, since the
/// next depth usually costs more than all the earlier ones together (an iteration cut short
/// still counts if a new best move finished). The deadline is read only every
/// [`Clock::CHECK_EVERY`] nodes, so reading the time costs nothing measurable.
#[derive(Debug)]
pub(crate) struct Clock {
    started: Instant,
    limits: Limits,
    /// Whether the limits apply yet: depth 1 always completes.
    armed: AtomicBool,
    stopped: AtomicBool,
    /// Nodes visited by every thread, added in batches.
    nodes: AtomicU64,
    /// Set from outside (a protocol's `stop`): read where the time is, every
    /// [`Clock::CHECK_EVERY`] nodes and before each new iteration.
    external_stop: Option<Arc<AtomicBool>>,
}

impl Clock {
    /// The share of the time limit after which no new iteration starts.
    pub(crate) const DEEPEN_BEFORE: f64 = 0.6;

    /// How many nodes a thread visits between two looks at the time and the node count.
    pub(crate) const CHECK_EVERY: u64 = 1024;

    pub(crate) fn start(limits: Limits) -> Clock {
        Clock {
            started: Instant::now(),
            limits,
            armed: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            external_stop: None,
        }
    }

    /// The clock also stops once `flag` is set (as the limits do: only after depth 1).
    pub(crate) fn with_external_stop(mut self, flag: Option<Arc<AtomicBool>>) -> Clock {
        self.external_stop = flag;
        self
    }

    /// Whether the flag set from outside asks the search to stop.
    fn stop_requested(&self) -> bool {
        self.external_stop
            .as_ref()
            .is_some_and(|flag| flag.load(Relaxed))
    }

    /// From now on the time and node limits stop the search.
    pub(crate) fn arm(&self) {
        self.armed.store(true, Relaxed);
    }

    /// Stops every thread of the search.
    pub(crate) fn stop(&self) {
        self.stopped.store(true, Relaxed);
    }

    pub(crate) fn stopped(&self) -> bool {
        self.stopped.load(Relaxed)
    }

    /// Adds a thread's batch of nodes and says whether the search must stop now.
    pub(crate) fn tick(&self, batch: u64) -> bool {
        let nodes = self.nodes.fetch_add(batch, Relaxed) + batch;
        if self.armed.load(Relaxed)
            && (self.limits.nodes.is_some_and(|n| nodes >= n)
                || self.past(1.0)
                || self.stop_requested())
        {
            self.stop();
        }
        self.stopped()
    }

    /// Nodes counted so far by every thread.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Whether another iteration may start: none of the limits is reached and less than
    /// [`Clock::DEEPEN_BEFORE`] of the time is gone.
    pub(crate) fn may_deepen(&self, depth_done: u32) -> bool {
        !self.stopped()
            && !self.stop_requested()
            && self.limits.depth.map_or(true, |d| depth_done < d)
            && !self.limits.nodes.is_some_and(|n| self.nodes() >= n)
            && !self.past(Self::DEEPEN_BEFORE)
    }

    /// Whether `fraction` of the time limit has passed.
    fn past(&self, fraction: f64) -> bool {
        self.limits
            .time
            .is_some_and(|t| self.started.elapsed().as_secs_f64() >= t.as_secs_f64() * fraction)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_apply_only_once_armed() {
        let clock = Clock::start(Limits::nodes(10));
        assert!(!clock.tick(50), "depth 1 is never cut off");
        assert!(!clock.may_deepen(1));
        clock.arm();
        assert!(clock.tick(1));
        assert!(clock.stopped());
    }

    #[test]
    fn an_external_stop_ends_the_search_once_armed() {
        let flag = Arc::new(AtomicBool::new(false));
        let clock = Clock::start(Limits::depth(60)).with_external_stop(Some(flag.clone()));
        assert!(clock.may_deepen(1));
        flag.store(true, Relaxed);
        assert!(!clock.may_deepen(1));
        assert!(!clock.tick(1), "depth 1 is never cut off");
        clock.arm();
        assert!(clock.tick(1));
    }

    #[test]
    fn a_depth_limit_ends_the_deepening() {
        let clock = Clock::start(Limits::depth(3));
        assert!(clock.may_deepen(2));
        assert!(!clock.may_deepen(3));
    }

    #[test]
    fn a_spent_time_limit_stops_at_the_next_look() {
        let clock = Clock::start(Limits::time(Duration::from_millis(1)));
        std::thread::sleep(Duration::from_millis(3));
        assert!(!clock.tick(1), "not armed yet");
        clock.arm();
        assert!(!clock.may_deepen(1));
        assert!(clock.tick(1));
    }
}

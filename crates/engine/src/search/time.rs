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
///
/// With a planned time ([`Limits::target`]) the search's own main thread moves both marks as
/// it learns how sure it is of its move ([`Clock::rescale`] by the factor of [`Unrest`]): no
/// new iteration after [`Clock::DEEPEN_BEFORE`] of the scaled target, none cut short before
/// [`Clock::FINISH_BY`] times it, and never past the hard limit.
#[derive(Debug)]
pub(crate) struct Clock {
    started: Instant,
    limits: Limits,
    /// From the start, in nanoseconds: no new iteration from then on (`u64::MAX`: none).
    deepen_until: AtomicU64,
    /// From the start, in nanoseconds: the search stops (`u64::MAX`: never).
    deadline: AtomicU64,
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

    /// How far past the planned time (scaled) an iteration already started may go on.
    pub(crate) const FINISH_BY: f64 = 2.0;

    pub(crate) fn start(limits: Limits) -> Clock {
        let clock = Clock {
            started: Instant::now(),
            limits,
            deepen_until: AtomicU64::new(u64::MAX),
            deadline: AtomicU64::new(u64::MAX),
            armed: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            external_stop: None,
        };
        clock.rescale(1.0);
        clock
    }

    /// Sets the marks for the planned time scaled by `factor` (without a planned time, for
    /// the time limit itself): see [`Clock`].
    pub(crate) fn rescale(&self, factor: f64) {
        let nanos = |d: Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        let hard = self.limits.time.map_or(u64::MAX, nanos);
        let (deepen, finish) = match (self.limits.target, self.limits.time) {
            (Some(target), _) => {
                let scaled = target.as_secs_f64() * factor;
                (scaled * Self::DEEPEN_BEFORE, scaled * Self::FINISH_BY)
            }
            (None, Some(time)) => (time.as_secs_f64() * Self::DEEPEN_BEFORE, f64::INFINITY),
            (None, None) => (f64::INFINITY, f64::INFINITY),
        };
        let mark = |seconds: f64| {
            Duration::try_from_secs_f64(seconds.max(0.0)).map_or(hard, |d| nanos(d).min(hard))
        };
        // However unsure, no new iteration once most of the hard limit is gone.
        let last_start = self
            .limits
            .time
            .map_or(u64::MAX, |t| nanos(t.mul_f64(Self::DEEPEN_BEFORE)));
        self.deepen_until
            .store(mark(deepen).min(last_start), Relaxed);
        self.deadline.store(mark(finish), Relaxed);
    }

    /// Whether the search has a planned time to manage.
    pub(crate) fn is_planned(&self) -> bool {
        self.limits.target.is_some()
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
                || self.past(&self.deadline)
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
            && !self.past(&self.deepen_until)
    }

    /// Whether the time of `mark` has passed.
    fn past(&self, mark: &AtomicU64) -> bool {
        let mark = mark.load(Relaxed);
        mark != u64::MAX && self.started.elapsed().as_nanos() >= u128::from(mark)
    }
}

/// How unsure the search is of its move, depth after depth: the factor its planned time is
/// scaled by. It grows when the best move changes (each change counted half as much one depth
/// later) and when the score falls, and shrinks when the same move has stayed best for many
/// depths in a row with a steady score.
#[derive(Clone, Debug, Default)]
pub(crate) struct Unrest {
    /// Changes of the best move, each halved at every depth since.
    changes: f64,
    /// The score's fall, in hundredths of a man, halved at every depth since.
    fall: f64,
    /// Depths in a row that kept the best move.
    same_best: u32,
}

impl Unrest {
    /// From this depth on a change of the best move counts: before, they come and go.
    pub(crate) const FROM_DEPTH: u32 = 4;
    /// What a change of the best move adds to the factor (halved at every depth since).
    pub(crate) const PER_CHANGE: f64 = 0.6;
    /// A fall of this much or more (hundredths of a man) multiplies the factor by
    /// `1 +` [`Unrest::MOST_FOR_FALL`].
    pub(crate) const FULL_FALL: f64 = 150.0;
    pub(crate) const MOST_FOR_FALL: f64 = 0.7;
    /// Depths in a row with the same best move after which the move counts as clear, and the
    /// factor then.
    pub(crate) const CLEAR_AFTER: u32 = 6;
    pub(crate) const CLEAR_FACTOR: f64 = 0.7;
    /// The factor's bounds.
    pub(crate) const LEAST: f64 = 0.5;
    pub(crate) const MOST: f64 = 3.0;

    /// Takes in a depth just completed, whose best move differs from the last depth's
    /// (`changed`) and whose score is `fell` below it (negative: it rose); the factor now.
    pub(crate) fn after_depth(&mut self, depth: u32, changed: bool, fell: i32) -> f64 {
        self.changes /= 2.0;
        self.fall /= 2.0;
        if depth < Self::FROM_DEPTH {
            self.same_best = if changed { 0 } else { self.same_best + 1 };
            return 1.0;
        }
        if changed {
            self.changes += 1.0;
            self.same_best = 0;
        } else {
            self.same_best += 1;
        }
        self.fall = self.fall.max(f64::from(fell.max(0)));
        let unsure = 1.0 + Self::PER_CHANGE * self.changes;
        let falling = 1.0 + Self::MOST_FOR_FALL * (self.fall / Self::FULL_FALL).min(1.0);
        let clear = if self.same_best >= Self::CLEAR_AFTER && self.fall < 1.0 {
            Self::CLEAR_FACTOR
        } else {
            1.0
        };
        (unsure * falling * clear).clamp(Self::LEAST, Self::MOST)
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

    /// A clock started `ago` before now.
    fn started_ago(limits: Limits, ago: Duration) -> Clock {
        let mut clock = Clock::start(limits);
        clock.started = Instant::now()
            .checked_sub(ago)
            .expect("the machine has run that long");
        clock.rescale(1.0);
        clock.arm();
        clock
    }

    #[test]
    fn a_planned_time_moves_with_the_factor_and_never_past_the_hard_limit() {
        let limits = Limits {
            time: Some(Duration::from_secs(10)),
            target: Some(Duration::from_secs(1)),
            ..Limits::default()
        };
        // 0.7 s gone: past 60 % of the target, so no new iteration; the one running goes on
        // until twice the target.
        let clock = started_ago(limits, Duration::from_millis(700));
        assert!(clock.is_planned());
        assert!(!clock.may_deepen(5));
        assert!(!clock.tick(1));
        // Unsure: twice the target, so another iteration may start.
        clock.rescale(2.0);
        assert!(clock.may_deepen(5));
        // 2.5 s gone: past twice the target, the search stops at once; at a factor of 3 it
        // finishes its iteration (until 6 s) but starts no new one (after 1.8 s).
        let late = started_ago(limits, Duration::from_millis(2_500));
        assert!(late.tick(1));
        let late = started_ago(limits, Duration::from_millis(2_500));
        late.rescale(3.0);
        assert!(!late.may_deepen(5));
        assert!(!late.tick(1));
        // However unsure, never past the hard limit.
        let past = started_ago(limits, Duration::from_millis(10_100));
        past.rescale(100.0);
        assert!(past.tick(1));
        // Without a plan the time is a fixed time per move, as before.
        let fixed = started_ago(
            Limits::time(Duration::from_secs(1)),
            Duration::from_millis(700),
        );
        assert!(!fixed.is_planned());
        assert!(!fixed.may_deepen(5));
        assert!(!fixed.tick(1), "an iteration runs on to the time limit");
    }

    #[test]
    fn unrest_grows_with_changes_and_falls_and_shrinks_when_steady() {
        let mut steady = Unrest::default();
        let factors: Vec<f64> = (1..=12).map(|d| steady.after_depth(d, false, 0)).collect();
        assert!(factors[..3].iter().all(|&f| f == 1.0), "{factors:?}");
        assert_eq!(factors[11], Unrest::CLEAR_FACTOR, "{factors:?}");
        // A change of the best move at depth 8, then none: 1.6, then 1.3, then 1.15.
        let mut changed = Unrest::default();
        for d in 1..8 {
            changed.after_depth(d, false, 0);
        }
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(close(changed.after_depth(8, true, 0), 1.6));
        assert!(close(changed.after_depth(9, false, 0), 1.3));
        assert!(close(changed.after_depth(10, false, 0), 1.15));
        // Changes at the shallow depths do not count.
        let mut shallow = Unrest::default();
        assert_eq!(shallow.after_depth(2, true, 0), 1.0);
        assert!(close(shallow.after_depth(4, false, 0), 1.0));
        // A fall of a man and a half: 1.7; half of it a depth later: 1.35.
        let mut falling = Unrest::default();
        assert!(close(falling.after_depth(5, false, 150), 1.7));
        assert!(close(falling.after_depth(6, false, -20), 1.35));
        // A rise is no fall; and the factor is bounded.
        assert!(close(Unrest::default().after_depth(5, false, -300), 1.0));
        let mut wild = Unrest::default();
        for d in 4..20 {
            let f = wild.after_depth(d, true, 500);
            assert!((Unrest::LEAST..=Unrest::MOST).contains(&f), "{f}");
        }
        assert_eq!(wild.after_depth(20, true, 500), Unrest::MOST);
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

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
    /// The hard limit: the search never runs longer.
    pub time: Option<Duration>,
    /// The time alpha-beta plans to spend, for a player on the clock ([`TimePlan`]): it stops
    /// sooner when the move is forced or the best move has stayed the same depth after depth,
    /// and goes on towards `time` when the best move changes or the score drops. `None`: the
    /// search spends `time` as a fixed time per move. The other searches ignore it: an agent on
    /// the clock ([`crate::dynamic::AnySession::choose_move_within`]) gives them the target
    /// as their time limit instead.
    pub target: Option<Duration>,
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

    /// These limits on the clock: the hard time limit no longer than the plan's `most`, and
    /// the planned time the plan's `target`. Where the plan leaves no room above its target
    /// (the hard limit, the agent's own or the plan's, is no longer than the target) the time
    /// is a fixed time, the hard limit alone, as a level with a short time of its own always
    /// spends it. `None` leaves the limits as they are.
    pub fn planned(self, plan: Option<TimePlan>) -> Limits {
        let Some(plan) = plan else {
            return self;
        };
        let time = self.within(Some(plan.most)).time;
        let target = Some(plan.target).filter(|&target| time.map_or(true, |t| target < t));
        Limits {
            time,
            target,
            ..self
        }
    }

    /// Whether no limit is set (a search then uses its own default).
    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.time.is_none() && self.target.is_none()
    }
}

/// How long a move on the clock may take: about `target`, and never more than `most`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    pub target: Duration,
    pub most: Duration,
}

/// A player's clock at the start of its turn: what [`TimeLeft::plan`] shares out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLeft {
    /// The time the player has for this move and the rest.
    pub left: Duration,
    /// The time added for each move to come.
    pub increment: Duration,
    /// The moves, this one included, until more time comes (`moves=` of a time control);
    /// `None` for the whole game (sudden death, with or without an increment).
    pub moves_to_go: Option<u32>,
    /// The player's own moves so far in the game: in sudden death, a game that has gone on
    /// longer has fewer moves left to plan for.
    pub moves_played: u32,
}

impl TimeLeft {
    /// In sudden death, the moves the time left is planned for at the start of a game: about
    /// what a game of draughts or chess still lasts after its opening.
    pub const SUDDEN_DEATH_MOVES: u32 = 35;
    /// In sudden death, the fewest moves the time left is planned for, however long the game
    /// has gone on: the game may last that much longer still.
    pub const LEAST_MOVES_TO_GO: u32 = 20;
    /// The share of the increment planned for each move.
    pub const INCREMENT_SHARE: f64 = 0.75;
    /// How far past its target a move may go when the search is unsure of it: at most this
    /// many times the target.
    pub const MOST_OVER_TARGET: u32 = 4;
    /// No move takes more than this share of the time left (with moves to come), so that a
    /// few troubled moves never leave the rest of the game short. The increment is not
    /// counted on: it comes only after the move.
    pub const MOST_SHARE: f64 = 0.3;
    /// The share of the time left kept back for the moves' own overhead (reading and writing
    /// the lines, the server's queue), at most [`TimeLeft::MOST_RESERVE`].
    pub const RESERVE_SHARE: f64 = 0.05;
    pub const MOST_RESERVE: Duration = Duration::from_millis(300);

    /// The time this move gets: the time left (less a reserve) shared over the moves to go,
    /// plus most of the increment, as the target; up to [`TimeLeft::MOST_OVER_TARGET`] times
    /// that and at most [`TimeLeft::MOST_SHARE`] of the time left as the most (the target no
    /// more than that either). On the last
    /// move before more time comes, half of the time left as the target and nearly all of it
    /// as the most.
    ///
    /// ```
    /// use std::time::Duration;
    /// use denkmeter_engine::TimeLeft;
    ///
    /// let clock = TimeLeft {
    ///     left: Duration::from_secs(70),
    ///     increment: Duration::ZERO,
    ///     moves_to_go: Some(20),
    ///     moves_played: 0,
    /// };
    /// let plan = clock.plan();
    /// // 70 s less a reserve of 0.3 s, over 20 moves; at most four times that.
    /// assert_eq!(plan.target, Duration::from_millis(3_485));
    /// assert_eq!(plan.most, Duration::from_millis(13_940));
    /// ```
    pub fn plan(&self) -> TimePlan {
        let reserve = self
            .left
            .mul_f64(Self::RESERVE_SHARE)
            .min(Self::MOST_RESERVE);
        let usable = self.left.saturating_sub(reserve);
        let moves_to_go = self
            .moves_to_go
            .unwrap_or_else(|| {
                Self::SUDDEN_DEATH_MOVES
                    .saturating_sub(self.moves_played / 2)
                    .max(Self::LEAST_MOVES_TO_GO)
            })
            .max(1);
        if moves_to_go == 1 {
            return TimePlan {
                target: usable / 2,
                most: usable.mul_f64(0.8),
            };
        }
        let increment = self.increment.mul_f64(Self::INCREMENT_SHARE);
        let target = (usable / moves_to_go).saturating_add(increment);
        // With two or three moves to go, a move may take its even share.
        let share = Self::MOST_SHARE.max(1.0 / f64::from(moves_to_go));
        let most = target
            .saturating_mul(Self::MOST_OVER_TARGET)
            .min(usable.mul_f64(share));
        TimePlan {
            target: target.min(most),
            most,
        }
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

    #[test]
    fn a_plan_bounds_the_time_and_sets_the_target() {
        let s = Duration::from_secs;
        let plan = TimePlan {
            target: s(2),
            most: s(8),
        };
        let level = Limits {
            nodes: Some(100_000),
            time: Some(s(5)),
            ..Limits::default()
        };
        let planned = level.planned(Some(plan));
        assert_eq!((planned.target, planned.time), (Some(s(2)), Some(s(5))));
        assert_eq!(planned.nodes, Some(100_000));
        // A level's own time no longer than the target: a fixed time, as off the clock.
        let quick = Limits::time(s(1)).planned(Some(plan));
        assert_eq!(quick, Limits::time(s(1)));
        let just = Limits::time(s(2)).planned(Some(plan));
        assert_eq!(just, Limits::time(s(2)));
        let open = Limits::depth(64).planned(Some(plan));
        assert_eq!((open.target, open.time), (Some(s(2)), Some(s(8))));
        // No room between target and most: a fixed time.
        let fixed = TimePlan {
            target: s(3),
            most: s(3),
        };
        assert_eq!(Limits::depth(64).planned(Some(fixed)).target, None);
        assert_eq!(Limits::depth(64).planned(Some(fixed)).time, Some(s(3)));
        assert_eq!(level.planned(None), level);
    }

    #[test]
    fn a_clock_is_planned_within_what_is_left() {
        let ms = Duration::from_millis;
        for left in [0, 1, 30, 500, 5_000, 60_000, 3_600_000] {
            for increment in [0, 100, 2_000] {
                for moves_to_go in [None, Some(1), Some(2), Some(3), Some(40)] {
                    for moves_played in [0, 10, 100] {
                        let clock = TimeLeft {
                            left: ms(left),
                            increment: ms(increment),
                            moves_to_go,
                            moves_played,
                        };
                        let plan = clock.plan();
                        assert!(plan.target <= plan.most, "{clock:?}: {plan:?}");
                        assert!(plan.most <= ms(left), "{clock:?}: {plan:?}");
                        // With moves to come, a move never takes more than its share of
                        // the time left: the increment comes only after it.
                        let share = match moves_to_go {
                            Some(1) => 0.8,
                            Some(2) => 0.5,
                            Some(3) => 1.0 / 3.0,
                            _ => TimeLeft::MOST_SHARE,
                        };
                        assert!(
                            plan.most.as_secs_f64() <= ms(left).as_secs_f64() * share + 1e-9,
                            "{clock:?}: {plan:?}"
                        );
                    }
                }
            }
        }
        // Later in a game of sudden death, a larger share of what is left.
        let at = |moves_played| {
            TimeLeft {
                left: ms(60_000),
                increment: Duration::ZERO,
                moves_to_go: None,
                moves_played,
            }
            .plan()
            .target
        };
        assert!(at(0) < at(20) && at(20) < at(30) && at(30) == at(300));
        // No overflow at the extremes.
        let huge = TimeLeft {
            left: Duration::MAX,
            increment: Duration::MAX,
            moves_to_go: None,
            moves_played: u32::MAX,
        };
        assert!(huge.plan().target <= huge.plan().most);
        let target_only = Limits {
            target: Some(ms(5)),
            ..Limits::default()
        };
        assert!(!target_only.is_unlimited());
    }
}

//! Time controls and clocks, as data: how much time the players have, and what a move or a
//! takeback does to it. The server keeps them (see `round::clock`).

use std::time::Duration;

use denkmeter_core::{ByPlayer, Player};
use denkmeter_engine::{TimeLeft, TimePlan};

/// The longest main time or time per move, and the largest increment, a game may have.
pub const MAX_MAIN_SECONDS: u64 = 24 * 60 * 60;
pub const MAX_INCREMENT_SECONDS: u64 = 60 * 60;

/// The shortest time a player is given for his first move, whatever the time control: the
/// first moves are not charged to the clocks (see [`is_opening`]), but a game whose player never
/// makes his first move still ends, lost on time.
pub const FIRST_MOVE_MIN_MS: i64 = 60_000;

/// Whether the turn at `ply` (moves made since the game began) is one of the two first moves,
/// one for each side: as on lidraughts and lichess, neither clock runs until both sides have
/// moved once, so nobody loses time while the other person is still finding the game.
pub const fn is_opening(ply: usize) -> bool {
    ply < 2
}

/// How much time the players have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Every move within this many milliseconds; the clock is full again after each move.
    PerMove { move_ms: i64 },
    /// A main time for the whole game, and an increment added after each move.
    Main { main_ms: i64, increment_ms: i64 },
}

impl TimeControl {
    /// The time control of `main_seconds` plus `increment_seconds` a move, or of
    /// `move_seconds` a move; an error names what is out of range.
    pub fn from_seconds(
        main_seconds: Option<u64>,
        increment_seconds: Option<u64>,
        move_seconds: Option<u64>,
    ) -> Result<TimeControl, String> {
        let ms = |s: u64| s as i64 * 1000;
        match (main_seconds, increment_seconds, move_seconds) {
            (None, None, Some(s)) if (1..=MAX_MAIN_SECONDS).contains(&s) => {
                Ok(TimeControl::PerMove { move_ms: ms(s) })
            }
            (None, None, Some(s)) => Err(format!(
                "clock.move_seconds: expected 1 to {MAX_MAIN_SECONDS}, found {s}"
            )),
            (Some(main), increment, None) => {
                let increment = increment.unwrap_or(0);
                if !(1..=MAX_MAIN_SECONDS).contains(&main) {
                    Err(format!(
                        "clock.main_seconds: expected 1 to {MAX_MAIN_SECONDS}, found {main}"
                    ))
                } else if increment > MAX_INCREMENT_SECONDS {
                    Err(format!(
                        "clock.increment_seconds: expected 0 to {MAX_INCREMENT_SECONDS}, found \
                         {increment}"
                    ))
                } else {
                    Ok(TimeControl::Main {
                        main_ms: ms(main),
                        increment_ms: ms(increment),
                    })
                }
            }
            _ => Err("clock: give main_seconds (and increment_seconds), or move_seconds".into()),
        }
    }

    /// A player's time after a move made with `left` milliseconds to spare: full again per
    /// move, or `left` plus the increment.
    pub fn refilled(self, left: i64) -> i64 {
        match self {
            TimeControl::PerMove { move_ms } => move_ms,
            TimeControl::Main { increment_ms, .. } => left + increment_ms,
        }
    }

    /// The time each player starts with.
    pub fn initial_ms(self) -> i64 {
        match self {
            TimeControl::PerMove { move_ms } => move_ms,
            TimeControl::Main { main_ms, .. } => main_ms,
        }
    }

    /// The stored form: the kind, the main time (or time per move) and the increment.
    pub fn columns(self) -> (&'static str, i64, i64) {
        match self {
            TimeControl::PerMove { move_ms } => ("per-move", move_ms, 0),
            TimeControl::Main {
                main_ms,
                increment_ms,
            } => ("main", main_ms, increment_ms),
        }
    }

    /// Reads the stored form back.
    pub fn from_columns(kind: &str, main_ms: i64, increment_ms: i64) -> Option<TimeControl> {
        match kind {
            "per-move" => Some(TimeControl::PerMove { move_ms: main_ms }),
            "main" => Some(TimeControl::Main {
                main_ms,
                increment_ms,
            }),
            _ => None,
        }
    }
}

/// A game's clocks: the time control, each player's time left when the current turn began,
/// and when it began (Unix milliseconds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub control: TimeControl,
    pub remaining: ByPlayer<i64>,
    pub turn_started: i64,
}

impl Clock {
    /// Both players' clocks full, the first turn beginning `now`.
    pub fn new(control: TimeControl, now: i64) -> Clock {
        Clock {
            control,
            remaining: ByPlayer::new(control.initial_ms(), control.initial_ms()),
            turn_started: now,
        }
    }

    /// `player`'s time left at `now` if it is `player`'s turn (the turn's time charged, unless
    /// the turn is one of the first moves, `opening`, which are not charged).
    pub fn left_at(&self, player: Player, opening: bool, now: i64) -> i64 {
        if opening {
            return self.remaining[player];
        }
        self.remaining[player] - now.saturating_sub(self.turn_started).max(0)
    }

    /// How long a player has for his first move: his whole initial time, at least
    /// [`FIRST_MOVE_MIN_MS`].
    pub fn first_move_ms(&self) -> i64 {
        self.control.initial_ms().max(FIRST_MOVE_MIN_MS)
    }

    /// When the turn of `player` (to move) runs out; a first move (`opening`) has
    /// [`Clock::first_move_ms`] from the start of its turn.
    pub fn deadline(&self, player: Player, opening: bool) -> i64 {
        let allowed = if opening {
            self.first_move_ms()
        } else {
            self.remaining[player]
        };
        self.turn_started.saturating_add(allowed)
    }

    /// The clocks after `mover` moved at `now`: the turn's time charged, the increment added
    /// (or the clock full again per move), the next turn beginning. A first move (`opening`)
    /// is charged nothing and earns no increment. `None` if `mover`'s time had run out.
    pub fn after_move(&self, mover: Player, opening: bool, now: i64) -> Option<Clock> {
        if now > self.deadline(mover, opening) {
            return None;
        }
        let mut next = *self;
        if !opening {
            next.remaining[mover] = self.control.refilled(self.left_at(mover, false, now));
        }
        next.turn_started = now;
        Some(next)
    }

    /// How long the computer, on `player`'s turn at `now` after `moves_played` of its own
    /// moves, may think: the engine's time manager plans its main time left
    /// ([`TimeLeft::plan`], sudden death with the increment); a time per move is half of what
    /// is left, a fixed time. Never more than half of what it has left, so that it keeps time for a search
    /// queued behind others. A first move (`opening`) is not charged, but is thought over as
    /// if it were.
    pub fn thinking_plan(
        &self,
        player: Player,
        opening: bool,
        now: i64,
        moves_played: u32,
    ) -> TimePlan {
        let left = Duration::from_millis(self.left_at(player, opening, now).max(0) as u64);
        let plan = match self.control {
            // Time not spent on a move is lost: a fixed time.
            TimeControl::PerMove { .. } => TimePlan {
                target: left / 2,
                most: left / 2,
            },
            TimeControl::Main { increment_ms, .. } => TimeLeft {
                left,
                increment: Duration::from_millis(increment_ms.max(0) as u64),
                moves_to_go: None,
                moves_played,
            }
            .plan(),
        };
        let most = plan.most.min(left / 2);
        TimePlan {
            target: plan.target.min(most),
            most,
        }
    }

    /// The clocks after a takeback at `now` back to before a move of `mover`: `mover` has the
    /// time it had left when it made that move (`mover_left`), less the time of the turn now
    /// running if it is `mover`'s own (`thinking`): neither its thinking nor the increment is
    /// given back. `other` has what it had before that move: the refill after its own last
    /// move before it, made with `other_left` to spare, or its initial time. Nobody's time
    /// changes where it is not known (a move brought in from a PDN game). The turn begins `now`. `None` if
    /// `mover` would be left with no time.
    pub fn taken_back(
        &self,
        mover: Player,
        thinking: bool,
        mover_left: Option<i64>,
        other_left: Option<Option<i64>>,
        now: i64,
    ) -> Option<Clock> {
        let mut next = *self;
        let spent = if thinking {
            now.saturating_sub(self.turn_started).max(0)
        } else {
            0
        };
        // Where the time left at that move is not known (a move brought in from a PDN game),
        // `mover` keeps what it has, still less its thinking on this turn.
        next.remaining[mover] = mover_left
            .unwrap_or(self.remaining[mover])
            .saturating_sub(spent);
        if next.remaining[mover] <= 0 {
            return None;
        }
        match other_left {
            None => next.remaining[!mover] = self.control.initial_ms(),
            Some(Some(left)) => next.remaining[!mover] = self.control.refilled(left),
            Some(None) => {}
        }
        next.turn_started = now;
        Some(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_charged_its_time_and_given_the_increment() {
        let control = TimeControl::Main {
            main_ms: 60_000,
            increment_ms: 2_000,
        };
        let clock = Clock::new(control, 1_000);
        let next = clock.after_move(Player::White, false, 11_000).unwrap();
        assert_eq!(next.remaining.white, 52_000);
        assert_eq!(next.remaining.black, 60_000);
        assert_eq!(next.turn_started, 11_000);
        assert_eq!(next.deadline(Player::Black, false), 71_000);
        // Out of time: no move.
        assert_eq!(next.after_move(Player::Black, false, 71_001), None);
        assert!(next.after_move(Player::Black, false, 71_000).is_some());
    }

    #[test]
    fn the_clocks_start_after_both_first_moves() {
        let control = TimeControl::Main {
            main_ms: 120_000,
            increment_ms: 2_000,
        };
        let clock = Clock::new(control, 0);
        // White's first move, after 50 s, costs nothing and earns no increment; so does Black's.
        assert!(is_opening(0) && is_opening(1) && !is_opening(2));
        assert_eq!(clock.left_at(Player::White, true, 50_000), 120_000);
        let after_white = clock.after_move(Player::White, true, 50_000).unwrap();
        assert_eq!(after_white.remaining, ByPlayer::new(120_000, 120_000));
        let after_black = after_white.after_move(Player::Black, true, 80_000).unwrap();
        assert_eq!(after_black.remaining, ByPlayer::new(120_000, 120_000));
        // From the second move on the clock runs.
        let next = after_black
            .after_move(Player::White, false, 90_000)
            .unwrap();
        assert_eq!(next.remaining.white, 112_000);
        // A first move still has a bound: the whole initial time, at least a minute.
        assert_eq!(clock.deadline(Player::White, true), 120_000);
        assert_eq!(clock.after_move(Player::White, true, 120_001), None);
        let short = Clock::new(TimeControl::PerMove { move_ms: 5_000 }, 0);
        assert_eq!(short.deadline(Player::White, true), FIRST_MOVE_MIN_MS);
        assert!(short.after_move(Player::White, true, 30_000).is_some());
        assert_eq!(
            short.after_move(Player::White, true, FIRST_MOVE_MIN_MS + 1),
            None
        );
    }

    #[test]
    fn the_computer_thinks_a_share_of_its_time_left() {
        let control = TimeControl::Main {
            main_ms: 300_000,
            increment_ms: 4_000,
        };
        let clock = Clock::new(control, 0);
        let ms = |d: Duration| d.as_millis() as i64;
        // 300 s left less a reserve of 0.3 s, over 35 moves, plus 3 s of the 4 s increment;
        // at most four times that.
        let plan = clock.thinking_plan(Player::Black, false, 0, 0);
        assert_eq!(ms(plan.target), 299_700 / 35 + 3_000);
        assert_eq!(plan.most, plan.target * 4);
        // Later in the game, over fewer moves.
        let later = clock.thinking_plan(Player::Black, false, 0, 30);
        assert_eq!(ms(later.target), 299_700 / 20 + 3_000);
        // 290 s into the turn, 10 s left: at most 30 % of it less the reserve (the increment
        // comes only after the move); 4 s left: the same; none left, none to think.
        let short = clock.thinking_plan(Player::Black, false, 290_000, 0);
        assert_eq!((ms(short.target), ms(short.most)), (2_910, 2_910));
        let shorter = clock.thinking_plan(Player::Black, false, 296_000, 0);
        assert_eq!((ms(shorter.target), ms(shorter.most)), (1_140, 1_140));
        let none = clock.thinking_plan(Player::Black, false, 400_000, 0);
        assert_eq!((none.target, none.most), (Duration::ZERO, Duration::ZERO));
        // A first move is not charged, but gets no more thought than any other.
        assert_eq!(clock.thinking_plan(Player::Black, true, 290_000, 0), plan);
        // A time per move: half of what is left, a fixed time.
        let per_move = Clock::new(TimeControl::PerMove { move_ms: 8_000 }, 0);
        let plan = per_move.thinking_plan(Player::White, false, 2_000, 0);
        assert_eq!((ms(plan.target), ms(plan.most)), (3_000, 3_000));
    }

    #[test]
    fn per_move_clocks_are_full_again_after_each_move() {
        let clock = Clock::new(TimeControl::PerMove { move_ms: 30_000 }, 0);
        let next = clock.after_move(Player::White, false, 29_000).unwrap();
        assert_eq!(next.remaining.white, 30_000);
        assert_eq!(next.deadline(Player::Black, false), 59_000);
    }

    #[test]
    fn a_takeback_gives_back_neither_the_thinking_nor_the_increment() {
        let control = TimeControl::Main {
            main_ms: 60_000,
            increment_ms: 5_000,
        };
        // White thinks 20 s and moves, with 40 s left; Black replies after 10 s; White thinks 4 s
        // more and takes back: 40 s less those 4 s, not 45 s.
        let start = Clock::new(control, 0);
        let after_white = start.after_move(Player::White, false, 20_000).unwrap();
        let white_left = start.left_at(Player::White, false, 20_000);
        let after_black = after_white
            .after_move(Player::Black, false, 30_000)
            .unwrap();
        assert_eq!(after_black.remaining, ByPlayer::new(45_000, 55_000));
        let back = after_black
            .taken_back(Player::White, true, Some(white_left), None, 34_000)
            .unwrap();
        assert_eq!(back.remaining, ByPlayer::new(36_000, 60_000));
        assert_eq!(back.turn_started, 34_000);
        // Asked during Black's turn (nothing of White's own to charge): 40 s.
        let back = after_white
            .taken_back(Player::White, false, Some(white_left), None, 25_000)
            .unwrap();
        assert_eq!(back.remaining.white, 40_000);
        // Black, had it moved before with some time to spare, would get that and the increment.
        let black_left = after_white.left_at(Player::Black, false, 30_000);
        let back = after_black
            .taken_back(
                Player::White,
                true,
                Some(white_left),
                Some(Some(black_left)),
                31_000,
            )
            .unwrap();
        assert_eq!(back.remaining.black, black_left + 5_000);
        // Per move: a move made after 29 s of 30, taken back after 0.5 s more, leaves 0.5 s; one
        // taken back after 2 s more would lose on the spot, so it is refused.
        let per_move = Clock::new(TimeControl::PerMove { move_ms: 30_000 }, 0);
        let moved = per_move.after_move(Player::White, false, 29_000).unwrap();
        let left = per_move.left_at(Player::White, false, 29_000);
        let mine = moved.after_move(Player::Black, false, 29_000).unwrap();
        let back = mine
            .taken_back(Player::White, true, Some(left), None, 29_500)
            .unwrap();
        assert_eq!(back.remaining.white, 500);
        assert_eq!(
            mine.taken_back(Player::White, true, Some(left), None, 31_000),
            None
        );
        // An other seat whose time at its move is not known keeps what it had.
        let back = moved
            .taken_back(Player::White, false, Some(left), Some(None), 29_500)
            .unwrap();
        assert_eq!(back.remaining.black, moved.remaining.black);
        // A move brought in from a PDN game has no recorded time left: taken back, the mover
        // keeps what it has, less its thinking on this turn, which is never given back.
        let main = Clock::new(
            TimeControl::Main {
                main_ms: 60_000,
                increment_ms: 0,
            },
            0,
        );
        let back = main
            .taken_back(Player::White, true, None, None, 10_000)
            .unwrap();
        assert_eq!(back.remaining.white, 50_000);
        let again = back
            .taken_back(Player::White, true, None, None, 15_000)
            .unwrap();
        assert_eq!(again.remaining.white, 45_000);
    }

    #[test]
    fn time_controls_are_checked_and_stored() {
        let main = TimeControl::from_seconds(Some(300), Some(2), None).unwrap();
        assert_eq!(main.columns(), ("main", 300_000, 2_000));
        let per_move = TimeControl::from_seconds(None, None, Some(30)).unwrap();
        for control in [main, per_move] {
            let (kind, a, b) = control.columns();
            assert_eq!(TimeControl::from_columns(kind, a, b), Some(control));
        }
        assert!(TimeControl::from_seconds(Some(0), None, None).is_err());
        assert!(TimeControl::from_seconds(Some(60), Some(3601), None).is_err());
        assert!(TimeControl::from_seconds(Some(60), None, Some(5)).is_err());
        assert!(TimeControl::from_seconds(None, None, Some(86_401)).is_err());
        assert!(TimeControl::from_seconds(None, Some(2), None).is_err());
    }
}

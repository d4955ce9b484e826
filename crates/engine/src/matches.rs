//! Matches: two players over many games, both colours, with score, Elo difference and its error
//! bar, draw rate and game length.

use std::fmt;

use denkmeter_core::{Outcome, Player, Reason, Status};

use crate::dynamic::AnyGame;
use crate::Agent;

/// The settings of a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub first: Agent,
    pub second: Agent,
    pub games: u32,
    /// Games longer than this many plies are adjudicated a draw (the rules have no such limit).
    pub max_plies: usize,
    pub seed: u64,
}

/// The results of a match, from the first agent's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchReport {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Of the draws, how many were adjudicated at the ply limit.
    pub adjudicated: u32,
    pub total_plies: u64,
}

impl MatchReport {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first agent's score, 0 to 1.
    pub fn score(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n
    }

    pub fn draw_rate(&self) -> f64 {
        f64::from(self.draws) / f64::from(self.games().max(1))
    }

    pub fn mean_length(&self) -> f64 {
        self.total_plies as f64 / f64::from(self.games().max(1))
    }

    /// The Elo difference (first minus second) and the half-width of its 95% interval.
    pub fn elo(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        let mean_sq = (f64::from(self.wins) + 0.25 * f64::from(self.draws)) / n;
        let deviation = ((mean_sq - s * s).max(0.0) / n).sqrt();
        let elo = elo_of(s);
        let low = elo_of(s - 1.96 * deviation);
        let high = elo_of(s + 1.96 * deviation);
        (elo, (high - low) / 2.0)
    }
}

fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (elo, error) = self.elo();
        let elo = if self.games() > 0 && (self.wins == self.games() || self.losses == self.games())
        {
            "Elo unbounded (one side won every game)".to_string()
        } else {
            format!("Elo {elo:+.0} ± {error:.0}")
        };
        write!(
            f,
            "+{} ={} -{} of {} games, score {:.1}%, {elo}, draws {:.1}% ({} at the ply limit), mean length {:.1} plies",
            self.wins,
            self.draws,
            self.losses,
            self.games(),
            100.0 * self.score(),
            100.0 * self.draw_rate(),
            self.adjudicated,
            self.mean_length()
        )
    }
}

/// Plays one game between two agents and returns its outcome and length.
pub fn play_game(
    game: &dyn AnyGame,
    white: Agent,
    black: Agent,
    max_plies: usize,
    seed: u64,
) -> (Outcome, usize) {
    let Ok(mut session) = game.new_game(None) else {
        return (Outcome::draw(Reason::NoMoves), 0);
    };
    let mut plies = 0;
    loop {
        if let Status::Over(outcome) = session.status() {
            return (outcome, plies);
        }
        if plies >= max_plies {
            return (Outcome::draw(Reason::MoveLimit), plies);
        }
        let agent = match session.to_move() {
            Player::White => white,
            Player::Black => black,
        };
        let seed = seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(plies as u64);
        let Some(mv) = session.choose_move(&agent, seed) else {
            return (Outcome::draw(Reason::NoMoves), plies);
        };
        if session.play(&mv).is_err() {
            // An agent that offers an illegal move loses; this never happens with our agents.
            let loser = session.to_move();
            return (Outcome::win(!loser, Reason::Resignation), plies);
        }
        plies += 1;
    }
}

/// Plays a match, the first agent taking White in even-numbered games. `progress` is called
/// after each game with the report so far.
pub fn play_match(
    game: &dyn AnyGame,
    config: &MatchConfig,
    mut progress: impl FnMut(&MatchReport),
) -> MatchReport {
    let mut report = MatchReport::default();
    for i in 0..config.games {
        let first_is_white = i % 2 == 0;
        let (white, black) = if first_is_white {
            (config.first, config.second)
        } else {
            (config.second, config.first)
        };
        let seed = config.seed.wrapping_add(u64::from(i));
        let (outcome, plies) = play_game(game, white, black, config.max_plies, seed);
        report.total_plies += plies as u64;
        let first = if first_is_white {
            Player::White
        } else {
            Player::Black
        };
        match outcome.winner {
            Some(w) if w == first => report.wins += 1,
            Some(_) => report.losses += 1,
            None => {
                report.draws += 1;
                if outcome.reason == Reason::MoveLimit {
                    report.adjudicated += 1;
                }
            }
        }
        progress(&report);
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_is_zero_at_even_score_and_grows_with_it() {
        let even = MatchReport {
            wins: 10,
            losses: 10,
            ..Default::default()
        };
        assert!(even.elo().0.abs() < 1e-9);
        let strong = MatchReport {
            wins: 18,
            draws: 2,
            ..Default::default()
        };
        let (elo, err) = strong.elo();
        assert!(elo > 300.0 && err > 0.0, "{elo} {err}");
    }
}

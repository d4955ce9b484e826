//! How a game ends: the winner (or a draw), the reason and any score.

use std::fmt;
use std::str::FromStr;

use crate::{ByPlayer, Player};

/// Why a game ended. The text form is stored in records (`[Termination]`) and databases, so a
/// variant's text never changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    Checkmate,
    Stalemate,
    /// A player cannot move: a loss for that player in some games, a draw when neither can
    /// move in others.
    NoMoves,
    /// The same position occurred for the third time.
    Repetition,
    Resignation,
    DrawAgreed,
    /// Adjudicated after a move limit that the rules themselves do not have.
    MoveLimit,
    /// Adjudicated on material after a move limit that the rules themselves do not have: the
    /// side ahead by a margin wins (a match's `--adjudicate-margin`).
    Adjudication,
    /// Decided by counting a score.
    Score,
    /// A king or piece reached its goal.
    Goal,
    /// The player to move has nothing left to play with.
    NoPieces,
    /// The player has too few pieces left to win (Fort Chitral: fewer than four).
    TooFewPieces,
    /// The player has no piece left that could ever win (Kamelen: no camel able to reach the
    /// enemy home-field).
    Powerless,
    /// A win that counts twice (Kamelen's camel on the enemy home-field); the score says 2-0.
    DoubleWin,
    /// Both kings have been taken, so neither player can win (Trangalla): a draw.
    NoKings,
    /// A player's clock ran out (a game with a time control).
    TimeForfeit,
    /// International draughts: 25 moves of each player with only kings moving and no capture.
    TwentyFiveMoveRule,
    /// International draughts: 16 moves of each player since a lone king faced three pieces,
    /// at least one of them a king.
    SixteenMoveRule,
    /// International draughts: 5 moves of each player since a lone king faced one or two
    /// pieces, at least one of them a king.
    FiveMoveRule,
    /// English checkers: 40 moves of each player without a man moving or a capture.
    FortyMoveRule,
}

impl Reason {
    const ALL: [Reason; 20] = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::NoMoves,
        Reason::Repetition,
        Reason::Resignation,
        Reason::DrawAgreed,
        Reason::MoveLimit,
        Reason::Adjudication,
        Reason::Score,
        Reason::Goal,
        Reason::NoPieces,
        Reason::TooFewPieces,
        Reason::Powerless,
        Reason::DoubleWin,
        Reason::NoKings,
        Reason::TimeForfeit,
        Reason::TwentyFiveMoveRule,
        Reason::SixteenMoveRule,
        Reason::FiveMoveRule,
        Reason::FortyMoveRule,
    ];

    /// The stable key of this reason.
    pub const fn key(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::NoMoves => "no moves",
            Reason::Repetition => "threefold repetition",
            Reason::Resignation => "resignation",
            Reason::DrawAgreed => "draw agreed",
            Reason::MoveLimit => "move limit",
            Reason::Adjudication => "adjudication on material",
            Reason::Score => "score",
            Reason::Goal => "goal reached",
            Reason::NoPieces => "no pieces",
            Reason::TooFewPieces => "too few pieces",
            Reason::Powerless => "no piece able to win",
            Reason::DoubleWin => "double win",
            Reason::NoKings => "no kings",
            Reason::TimeForfeit => "time forfeit",
            Reason::TwentyFiveMoveRule => "25-move rule",
            Reason::SixteenMoveRule => "16-move rule",
            Reason::FiveMoveRule => "5-move rule",
            Reason::FortyMoveRule => "40-move rule",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A result or termination that [`Outcome::from_result`] cannot read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResultError {
    #[error("unknown result {0:?}: expected 1-0, 0-1, 1/2-1/2 or *")]
    Result(String),
    #[error(transparent)]
    Termination(#[from] UnknownReason),
}

/// An unknown termination reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown termination reason {0:?}")]
pub struct UnknownReason(pub String);

impl FromStr for Reason {
    type Err = UnknownReason;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Reason::ALL
            .into_iter()
            .find(|r| r.key().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownReason(s.to_string()))
    }
}

/// Points counted at the end of a scored game, with a human-readable breakdown.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Score {
    pub white: i64,
    pub black: i64,
    pub breakdown: String,
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Player>,
    pub reason: Reason,
    pub score: Option<Score>,
}

impl Outcome {
    pub fn win(winner: Player, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
            score: None,
        }
    }

    pub fn draw(reason: Reason) -> Outcome {
        Outcome {
            winner: None,
            reason,
            score: None,
        }
    }

    /// The ending a result token (`1-0`, `0-1`, `1/2-1/2`, `*`) and an optional termination
    /// key describe, for a game whose board does not show it (records, stored games): `None`
    /// for `*`; without a termination, a win counts as a resignation and a draw as agreed.
    pub fn from_result(
        result: &str,
        termination: Option<&str>,
    ) -> Result<Option<Outcome>, ResultError> {
        let winner = match result {
            "*" => return Ok(None),
            "1-0" => Some(Player::White),
            "0-1" => Some(Player::Black),
            "1/2-1/2" => None,
            other => return Err(ResultError::Result(other.to_string())),
        };
        let reason = match termination {
            Some(text) => text.parse::<Reason>()?,
            None if winner.is_some() => Reason::Resignation,
            None => Reason::DrawAgreed,
        };
        Ok(Some(Outcome {
            winner,
            reason,
            score: None,
        }))
    }

    /// The PGN-style result token: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_token(&self) -> &'static str {
        match self.winner {
            Some(Player::White) => "1-0",
            Some(Player::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// 1.0 for a win of `player`, 0.0 for a loss, 0.5 for a draw.
    pub fn value_for(&self, player: Player) -> f64 {
        match self.winner {
            Some(w) if w == player => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

impl Outcome {
    /// The outcome in words, naming the players as `names` do (see
    /// [`crate::Facts::side_names`]); its `Display` names them White and Black.
    pub fn describe(&self, names: ByPlayer<&str>) -> String {
        Described(self, names).to_string()
    }
}

/// An outcome with the players' names.
struct Described<'a>(&'a Outcome, ByPlayer<&'a str>);

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Described(self, ByPlayer::new("White", "Black")).fmt(f)
    }
}

impl fmt::Display for Described<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Described(outcome, names) = *self;
        match (outcome.winner, outcome.reason) {
            (Some(p), Reason::NoMoves) => {
                write!(f, "{} wins: {} cannot move", names[p], names[!p])?
            }
            (Some(p), Reason::NoPieces) => {
                write!(f, "{} wins: {} has no pieces left", names[p], names[!p])?
            }
            (Some(p), Reason::TooFewPieces) => write!(
                f,
                "{} wins: {} has too few pieces left",
                names[p], names[!p]
            )?,
            (Some(p), Reason::Powerless) => write!(
                f,
                "{} wins: {} has no piece left that could win",
                names[p], names[!p]
            )?,
            (None, Reason::TooFewPieces) => write!(f, "draw: both have too few pieces left")?,
            (None, Reason::NoMoves) => write!(f, "draw: neither player can move")?,
            (None, Reason::NoKings) => write!(f, "draw: both kings have been taken")?,
            (
                None,
                reason @ (Reason::TwentyFiveMoveRule
                | Reason::SixteenMoveRule
                | Reason::FiveMoveRule
                | Reason::FortyMoveRule),
            ) => write!(f, "draw by the {reason}")?,
            (Some(p), Reason::TimeForfeit) => write!(
                f,
                "{} wins on time: {}'s clock ran out",
                names[p], names[!p]
            )?,
            (Some(p), reason) => write!(f, "{} wins by {reason}", names[p])?,
            (None, reason) => write!(f, "draw by {reason}")?,
        }
        if let Some(score) = &outcome.score {
            write!(f, " ({}-{}: {})", score.white, score.black, score.breakdown)?;
        }
        Ok(())
    }
}

/// The win-rate model: the expected score (0 to 1) of the side whose evaluation is `eval` (see
/// [`crate::Game::evaluate`]): the logistic curve `1 / (1 + e^(-eval / 200))`, 0.5 when even,
/// about 0.62 a man up and 0.82 three men up. Playouts cut off before the end are scored by it.
///
/// ```
/// assert_eq!(denkmeter_core::win_rate(0), 0.5);
/// assert!(denkmeter_core::win_rate(300) > 0.8);
/// assert!((denkmeter_core::win_rate(-100) + denkmeter_core::win_rate(100) - 1.0).abs() < 1e-12);
/// ```
pub fn win_rate(eval: i32) -> f64 {
    1.0 / (1.0 + (-f64::from(eval) / WIN_RATE_SCALE).exp())
}

/// The evaluation at which [`win_rate`] is `1 / (1 + e^-1)`, about 0.73.
pub const WIN_RATE_SCALE: f64 = 200.0;

/// Whether a game goes on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Ongoing,
    Over(Outcome),
}

impl Status {
    pub fn is_over(&self) -> bool {
        matches!(self, Status::Over(_))
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        match self {
            Status::Ongoing => None,
            Status::Over(o) => Some(o),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_round_trip_through_text() {
        for r in Reason::ALL {
            assert_eq!(r.key().parse::<Reason>(), Ok(r));
        }
        assert!("bored".parse::<Reason>().is_err());
    }

    #[test]
    fn result_tokens_and_values() {
        let o = Outcome::win(Player::Black, Reason::Checkmate);
        assert_eq!(o.result_token(), "0-1");
        assert_eq!(o.value_for(Player::Black), 1.0);
        assert_eq!(o.value_for(Player::White), 0.0);
        assert_eq!(o.to_string(), "Black wins by checkmate");
        assert_eq!(
            Outcome::draw(Reason::Stalemate).value_for(Player::White),
            0.5
        );
        assert_eq!(
            Outcome::win(Player::White, Reason::NoMoves).to_string(),
            "White wins: Black cannot move"
        );
        assert_eq!(
            Outcome::draw(Reason::NoMoves).to_string(),
            "draw: neither player can move"
        );
        assert_eq!(
            Outcome::win(Player::Black, Reason::TooFewPieces).to_string(),
            "Black wins: White has too few pieces left"
        );
        assert_eq!(
            Outcome::win(Player::White, Reason::Powerless).to_string(),
            "White wins: Black has no piece left that could win"
        );
        assert_eq!(
            Outcome::win(Player::Black, Reason::Adjudication).to_string(),
            "Black wins by adjudication on material"
        );
        assert_eq!(
            Outcome::draw(Reason::MoveLimit).to_string(),
            "draw by move limit"
        );
        assert_eq!(
            Outcome::draw(Reason::SixteenMoveRule).to_string(),
            "draw by the 16-move rule"
        );
        assert_eq!("40-move rule".parse::<Reason>(), Ok(Reason::FortyMoveRule));
        let checkers = ByPlayer::new("Black", "White");
        assert_eq!(
            Outcome::win(Player::White, Reason::NoMoves).describe(checkers),
            "Black wins: White cannot move"
        );
    }
}

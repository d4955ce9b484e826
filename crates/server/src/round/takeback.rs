//! Takebacks: a person takes back his last move, and whatever was played after it. Against the
//! computer it is granted at once; between people the other must accept, and the request stands
//! until it is answered, a move is played or the game ends.

use std::sync::Arc;

use denkmeter_core::Player;
use denkmeter_engine::dynamic::AnySession;

use super::json::{game_view, position_after, GameView};
use super::{now_ms, Credential, LiveGame, OfferAction, RoundError, Rounds};
use crate::store::OfferKind;

impl Rounds {
    /// Asks for, accepts or declines a takeback (see [`Rounds::offer`]).
    pub(super) async fn takeback_locked(
        &self,
        game: &mut LiveGame,
        who: &Credential,
        action: OfferAction,
    ) -> Result<GameView, RoundError> {
        let seat = game.require_seat(who)?;
        game.require_ongoing()?;
        // Trying a move and taking it back would show what is hidden (whether a piece jumped
        // is the king), and the computer grants every takeback.
        if game.ruleset.facts().hidden_information && game.seats[!seat].is_computer() {
            return Err(RoundError::NoTakebackHere);
        }
        // Against the computer, which grants every takeback, a rated game would be replayed
        // until won.
        if game.rated && game.seats[!seat].is_computer() {
            return Err(RoundError::NotInRatedGames(
                "takebacks against the computer",
            ));
        }
        match (action, game.takeback_offer) {
            (OfferAction::Offer, _) if game.seats[!seat].is_computer() => {
                self.take_back(game, seat).await?
            }
            (OfferAction::Offer, _) => {
                // Nothing is asked for that could not be granted. Asking again is written
                // again, so a game out of date in this process is noticed and reloaded.
                before_last_move(game, seat)?;
                self.set_takeback_offer(game, Some(seat)).await?
            }
            (OfferAction::Accept, Some(p)) if p != seat => self.take_back(game, p).await?,
            (OfferAction::Accept, _) => return Err(RoundError::NoTakebackOffer("accept")),
            (OfferAction::Decline, Some(p)) if p != seat => {
                self.set_takeback_offer(game, None).await?
            }
            (OfferAction::Decline, _) => return Err(RoundError::NoTakebackOffer("decline")),
        }
        game_view(game, Some(seat), None)
    }

    async fn set_takeback_offer(
        &self,
        game: &mut LiveGame,
        offer: Option<Player>,
    ) -> Result<(), RoundError> {
        let now = now_ms();
        self.store
            .set_offer(OfferKind::Takeback, &game.id, game.version, offer, now)
            .await?;
        game.version += 1;
        game.updated_at = now;
        game.takeback_offer = offer;
        Ok(())
    }

    /// Takes back `seat`'s last move and every move after it: stored first, then the game.
    async fn take_back(&self, game: &mut LiveGame, seat: Player) -> Result<(), RoundError> {
        let Rewound {
            keep,
            session,
            movers,
        } = before_last_move(game, seat)?;
        let now = now_ms();
        // Out of time is out of time: a takeback saves nobody whose flag is about to fall.
        if game.deadline().is_some_and(|deadline| now > deadline) {
            return Err(RoundError::TimeUp);
        }
        // `seat` gets back the time it had left when it made the move, less any time it has
        // been thinking since on its own turn; the other what it had before that move.
        let left = |ply: usize| game.lefts.get(ply).copied().flatten();
        let other_left = movers[..keep].iter().rposition(|&p| p == !seat).map(left);
        // A first move's thinking is not charged ([`LiveGame::is_opening`]).
        let thinking = game.session.to_move() == seat && !game.is_opening();
        let clock = match game.clock {
            None => None,
            // A takeback that would leave no time would lose the game on the spot: refused.
            Some(c) => Some(
                c.taken_back(seat, thinking, left(keep), other_left, now)
                    .ok_or(RoundError::NoTimeToTakeBack)?,
            ),
        };
        self.store
            .take_back(&game.id, game.version, keep, clock, now)
            .await?;
        tracing::debug!(game = %game.id, from = game.session.moves().len(), to = keep, "takeback");
        game.session = Arc::from(session);
        game.clock = clock;
        game.lefts.truncate(keep);
        game.version += 1;
        game.updated_at = now;
        game.draw_offer = None;
        game.takeback_offer = None;
        Ok(())
    }
}

/// A game as it was before a move: how many moves it keeps, its session replayed from the
/// start, and who made each move of the game as it was.
struct Rewound {
    keep: usize,
    session: Box<dyn AnySession>,
    movers: Vec<Player>,
}

/// The game as it was before `seat`'s last move, from one replay of its moves;
/// [`RoundError::NothingToTakeBack`] if `seat` has not moved.
fn before_last_move(game: &LiveGame, seat: Player) -> Result<Rewound, RoundError> {
    // Who made each move (the side to move before it), and the game before `seat`'s last.
    let mut session = position_after(game, 0)?;
    let mut last = None;
    let mut movers = Vec::new();
    for (ply, text) in game.session.moves().iter().enumerate() {
        if session.to_move() == seat {
            last = Some((ply, session.box_clone()));
        }
        movers.push(session.to_move());
        session
            .play(text)
            .map_err(|e| RoundError::Corrupt(format!("game {}: move {ply}: {e}", game.id)))?;
    }
    let (keep, session) = last.ok_or(RoundError::NothingToTakeBack)?;
    Ok(Rewound {
        keep,
        session,
        movers,
    })
}

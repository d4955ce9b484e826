//! The drawer: draw offers, and the one entry for offers of either kind (see `takeback`). A
//! draw offer stands until the other side accepts or declines it or a move is played; the
//! computer declines every offer at once.

use std::str::FromStr;
use std::sync::Arc;

use denkmeter_core::{Outcome, Reason};

use super::json::{game_view, GameView};
use super::{detached, now_ms, Credential, LiveGame, RoundError, Rounds};
use crate::store::OfferKind;

/// What a seat does about a draw or a takeback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferAction {
    Offer,
    Accept,
    Decline,
}

impl FromStr for OfferAction {
    type Err = RoundError;
    fn from_str(text: &str) -> Result<OfferAction, RoundError> {
        match text {
            "offer" => Ok(OfferAction::Offer),
            "accept" => Ok(OfferAction::Accept),
            "decline" => Ok(OfferAction::Decline),
            other => Err(RoundError::BadOfferAction(other.to_string())),
        }
    }
}

impl Rounds {
    /// Offers, accepts or declines a draw or a takeback (`kind`) for the seat of `token`.
    pub async fn offer(
        self: &Arc<Self>,
        id: &str,
        who: &Credential,
        kind: OfferKind,
        action: OfferAction,
    ) -> Result<GameView, RoundError> {
        let (rounds, id, who) = (self.clone(), id.to_owned(), who.clone());
        detached(async move {
            write_action!(rounds, &id, |game| match kind {
                OfferKind::Draw => rounds.draw_locked(&mut game, &who, action).await,
                OfferKind::Takeback => rounds.takeback_locked(&mut game, &who, action).await,
            })
        })
        .await
    }

    async fn draw_locked(
        &self,
        game: &mut LiveGame,
        who: &Credential,
        action: OfferAction,
    ) -> Result<GameView, RoundError> {
        let seat = game.require_seat(who)?;
        game.require_ongoing()?;
        let offer = match (action, game.draw_offer) {
            (OfferAction::Offer, Some(p)) if p == seat => Some(p),
            (OfferAction::Offer, _) if game.seats[!seat].is_computer() => None,
            (OfferAction::Offer, _) => Some(seat),
            (OfferAction::Accept, Some(p)) if p != seat => {
                self.finish(game, Outcome::draw(Reason::DrawAgreed)).await?;
                return game_view(game, Some(seat), None);
            }
            (OfferAction::Accept, _) => return Err(RoundError::NoDrawOffer("accept")),
            (OfferAction::Decline, Some(p)) if p != seat => None,
            (OfferAction::Decline, _) => return Err(RoundError::NoDrawOffer("decline")),
        };
        // An offer made again is written again, so that a game out of date in this process
        // (another server cleared the offer) is noticed and reloaded.
        if offer != game.draw_offer || offer == Some(seat) {
            let now = now_ms();
            self.store
                .set_offer(OfferKind::Draw, &game.id, game.version, offer, now)
                .await?;
            game.version += 1;
            game.updated_at = now;
            game.draw_offer = offer;
        }
        game_view(game, Some(seat), None)
    }
}

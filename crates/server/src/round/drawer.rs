//! The drawer: draw offers. An offer stands until the other side accepts or declines it or a
//! move is played; the computer declines every offer at once.

use std::str::FromStr;
use std::sync::Arc;

use denkmeter_core::{Outcome, Reason};

use super::json::{game_view, GameView};
use super::{detached, now_ms, LiveGame, RoundError, Rounds};

/// What a seat does about a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
}

impl FromStr for DrawAction {
    type Err = RoundError;
    fn from_str(text: &str) -> Result<DrawAction, RoundError> {
        match text {
            "offer" => Ok(DrawAction::Offer),
            "accept" => Ok(DrawAction::Accept),
            "decline" => Ok(DrawAction::Decline),
            other => Err(RoundError::BadDrawAction(other.to_string())),
        }
    }
}

impl Rounds {
    /// Offers, accepts or declines a draw for the seat of `token`.
    pub async fn draw(
        self: &Arc<Self>,
        id: &str,
        token: &str,
        action: DrawAction,
    ) -> Result<GameView, RoundError> {
        let (rounds, id, token) = (self.clone(), id.to_owned(), token.to_owned());
        detached(async move {
            write_action!(rounds, &id, |game| rounds
                .draw_locked(&mut game, &token, action)
                .await)
        })
        .await
    }

    async fn draw_locked(
        &self,
        game: &mut LiveGame,
        token: &str,
        action: DrawAction,
    ) -> Result<GameView, RoundError> {
        let seat = game.require_seat(token)?;
        game.require_ongoing()?;
        let offer = match (action, game.draw_offer) {
            (DrawAction::Offer, Some(p)) if p == seat => Some(p),
            (DrawAction::Offer, _) if game.seats[!seat].is_computer() => None,
            (DrawAction::Offer, _) => Some(seat),
            (DrawAction::Accept, Some(p)) if p != seat => {
                self.finish(game, Outcome::draw(Reason::DrawAgreed)).await?;
                return game_view(game, Some(seat), None);
            }
            (DrawAction::Accept, _) => return Err(RoundError::NoDrawOffer("accept")),
            (DrawAction::Decline, Some(p)) if p != seat => None,
            (DrawAction::Decline, _) => return Err(RoundError::NoDrawOffer("decline")),
        };
        if offer != game.draw_offer {
            let now = now_ms();
            self.store
                .set_draw_offer(&game.id, game.version, offer, now)
                .await?;
            game.version += 1;
            game.updated_at = now;
            game.draw_offer = offer;
        }
        game_view(game, Some(seat), None)
    }
}

//! The claimer: a friend who opens an invite link takes the seat with a token of his own. The
//! invite is then used up: whoever else presents it is told the seat is taken, so a link that
//! was forwarded, or is still in the creator's browser, no longer plays or sees for that seat.

use std::sync::Arc;

use denkmeter_core::Player;

use super::json::{game_view, GameView};
use super::{detached, now_ms, LiveGame, RoundError, Rounds};
use crate::seat::{new_token, TokenHash};
use crate::store::{SeatAccount, SeatClaim};

/// A claimed seat: which one, its new token (shown only now) and the game as its holder sees it.
#[derive(Debug, serde::Serialize)]
pub struct Claimed {
    pub seat: &'static str,
    pub token: String,
    pub view: GameView,
}

impl Rounds {
    /// Takes the seat held by the invite `token` for a new token; the invite holds nothing
    /// afterwards. Of two claims of one invite, on one server or several, exactly one wins;
    /// the other gets [`RoundError::InviteUsed`].
    /// Claims the seat of the invite `token`; a claimant signed in as `account` also puts the
    /// account in the seat (unless the seat has one, or the other seat is the same account).
    pub async fn claim(
        self: &Arc<Self>,
        id: &str,
        token: &str,
        account: Option<SeatAccount>,
    ) -> Result<Claimed, RoundError> {
        let (rounds, id, token) = (self.clone(), id.to_owned(), token.to_owned());
        detached(async move {
            write_action!(rounds, &id, |game| rounds
                .claim_locked(&mut game, &token, account.clone())
                .await)
        })
        .await
    }

    async fn claim_locked(
        &self,
        game: &mut LiveGame,
        token: &str,
        account: Option<SeatAccount>,
    ) -> Result<Claimed, RoundError> {
        let seat: Player = game.token_seat(token)?;
        if game.is_claimed(seat) {
            return Err(RoundError::AlreadyClaimed);
        }
        let account = account.filter(|mine| {
            game.accounts[seat].is_none()
                && game.accounts[!seat].as_ref().map(|a| &a.id) != Some(&mine.id)
        });
        let fresh = new_token();
        let (invite, hash) = (TokenHash::of(token), TokenHash::of(&fresh));
        let now = now_ms();
        self.store
            .claim_seat(
                &game.id,
                game.version,
                seat,
                SeatClaim {
                    invite: invite.clone(),
                    token: hash.clone(),
                    account: account.as_ref().map(|a| a.id.clone()),
                },
                now,
            )
            .await?;
        game.claimed(seat, invite, hash);
        if account.is_some() {
            game.accounts[seat] = account;
            // The claim is stored: a failure to read the ratings it shows loses nothing.
            if let Err(error) = game.load_ratings(&self.store).await {
                tracing::warn!(game = %game.id, %error, "cannot read the players' ratings");
            }
        }
        game.version += 1;
        game.updated_at = now;
        tracing::info!(game = %game.id, seat = seat.name(), "seat claimed");
        Ok(Claimed {
            seat: seat.name(),
            token: fresh,
            view: game_view(game, Some(seat), None)?,
        })
    }
}

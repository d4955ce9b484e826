//! The finisher: endings the board does not show (resignation, agreed draw), stored before
//! anyone is told.

use std::sync::Arc;

use denkmeter_core::{Outcome, Reason};

use super::json::{game_view, GameView};
use super::{detached, now_ms, Credential, LiveGame, RoundError, Rounds};

impl Rounds {
    /// Resigns for the seat of `token`.
    pub async fn resign(
        self: &Arc<Self>,
        id: &str,
        who: &Credential,
    ) -> Result<GameView, RoundError> {
        let (rounds, id, who) = (self.clone(), id.to_owned(), who.clone());
        detached(async move {
            write_action!(rounds, &id, |game| rounds
                .resign_locked(&mut game, &who)
                .await)
        })
        .await
    }

    async fn resign_locked(
        &self,
        game: &mut LiveGame,
        who: &Credential,
    ) -> Result<GameView, RoundError> {
        let seat = game.require_seat(who)?;
        self.finish(game, Outcome::win(!seat, Reason::Resignation))
            .await?;
        game_view(game, Some(seat), None)
    }

    /// Ends a game that is still going on with `outcome`.
    pub(super) async fn finish(
        &self,
        game: &mut LiveGame,
        outcome: Outcome,
    ) -> Result<(), RoundError> {
        game.require_ongoing()?;
        let mut next = game.session.box_clone();
        next.end(outcome.clone());
        let now = now_ms();
        let rated = game.rated_end(game.session.moves().len());
        let is_rated = rated.is_some();
        self.store
            .set_outcome(&game.id, game.version, &outcome, rated, now)
            .await?;
        game.session = Arc::from(next);
        game.version += 1;
        game.updated_at = now;
        game.draw_offer = None;
        game.takeback_offer = None;
        if is_rated {
            // The end is stored: a failure to read what it did to the ratings loses nothing.
            if let Err(error) = game.load_ratings(&self.store).await {
                tracing::warn!(game = %game.id, %error, "cannot read the rating changes");
            }
        }
        tracing::debug!(game = %game.id, %outcome, "ended");
        Ok(())
    }
}

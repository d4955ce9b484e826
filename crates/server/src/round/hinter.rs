//! The hinter: the move the computer would play for the seat to move, on request. It is
//! searched on the search pool from what that seat may see (in a game that hides something, the
//! seat's own observation, as the computer's own moves are), and changes nothing.

use std::sync::Arc;

use denkmeter_engine::Agent;
use serde::Serialize;

use super::{Credential, RoundError, Rounds};
use crate::search::Priority;

/// The level whose move a hint suggests: strong, and quick enough to wait for (320,000
/// positions or 2 seconds at most with alpha-beta).
pub const HINT_LEVEL: u8 = 6;

/// A suggested move for the position after `ply` moves.
#[derive(Debug, Serialize)]
pub struct Hint {
    /// The move, in the game's notation, as in `legal_moves[].text`.
    #[serde(rename = "move")]
    pub mv: String,
    pub ply: usize,
    pub level: u8,
}

impl Rounds {
    /// A hint for the seat of `token`, which must be to move in a game still going on. A game
    /// has at most one hint search at a time, queued behind the computer's own replies, and
    /// the answer is kept for the game's version: asking again costs nothing.
    pub async fn hint(self: &Arc<Self>, id: &str, who: &Credential) -> Result<Hint, RoundError> {
        // As the game is in the database now: another server may have moved it on.
        let proxy = self.fresh(id).await?;
        // A stranger is refused at once, not after a search under way.
        proxy.snapshot().require_seat(who)?;
        let mut kept = proxy.hint.lock().await;
        let (session, seed, ply, version) = {
            let game = proxy.snapshot();
            let seat = game.require_seat(who)?;
            game.require_ongoing()?;
            if game.rated {
                return Err(RoundError::NotInRatedGames("hints"));
            }
            let to_move = game.session.to_move();
            if to_move != seat {
                return Err(RoundError::NotYourTurn { to_move, seat });
            }
            let ply = game.session.moves().len();
            let seed = (game.seed as u64).wrapping_add(ply as u64);
            (game.session.box_clone(), seed, ply, game.version)
        };
        let mv = match kept.as_ref() {
            Some((at, mv)) if *at == version => mv.clone(),
            _ => {
                let mv = self
                    .pool
                    .search(
                        Priority::Watched,
                        session,
                        Agent::Computer(HINT_LEVEL),
                        seed,
                        None,
                    )
                    .await
                    .ok_or_else(|| {
                        RoundError::Internal("the hint's search found no move".into())
                    })?;
                *kept = Some((version, mv.clone()));
                mv
            }
        };
        Ok(Hint {
            mv,
            ply,
            level: HINT_LEVEL,
        })
    }
}

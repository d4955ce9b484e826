//! Clocks kept by the server: a flag watcher ends a timed game when the side to move runs
//! out, whether or not anyone is looking. The computer is on the clock too: it thinks a share
//! of its time left (`crate::clock::Clock::thinking_plan`), and loses on time like anyone.

use std::sync::{Arc, Weak};
use std::time::Duration;

use denkmeter_core::{Outcome, Reason};

use super::{now_ms, GameProxy, LiveGame, RoundError, Rounds};

impl LiveGame {
    /// The deadline of the side to move, if the game is timed and goes on. For a first move
    /// it bounds the wait, though the clock does not run ([`LiveGame::is_opening`]).
    pub fn deadline(&self) -> Option<i64> {
        let clock = self.clock.as_ref()?;
        if self.session.status().is_over() {
            return None;
        }
        Some(clock.deadline(self.session.to_move(), self.is_opening()))
    }

    /// Whether the turn now is one of the two first moves, which the clocks do not charge
    /// ([`crate::clock::is_opening`]).
    pub fn is_opening(&self) -> bool {
        crate::clock::is_opening(self.session.moves().len())
    }
}

impl Rounds {
    /// Watches a timed game's clock while it goes on: at the deadline of the person to move the
    /// game is lost on time. Every change to the game wakes it to look again. It holds the
    /// game in memory until the game ends, and stops if the server does.
    pub(super) fn watch_clock(self: &Arc<Self>, proxy: Arc<GameProxy>) {
        if proxy.snapshot().clock.is_none() || !proxy.start_clock_watch() {
            return;
        }
        let rounds = Arc::downgrade(self);
        tokio::spawn(async move {
            flag_watch(rounds, &proxy).await;
            proxy.end_clock_watch();
        });
    }

    /// Ends the game on time if the person to move is still out of time in this version.
    async fn flag(&self, proxy: &GameProxy, version: i64) -> Result<(), RoundError> {
        let mut game = proxy.lock().await;
        if game.version != version {
            return Ok(());
        }
        let Some(deadline) = game.deadline() else {
            return Ok(());
        };
        if now_ms() < deadline {
            return Ok(());
        }
        let loser = game.session.to_move();
        tracing::info!(game = %game.id, %loser, "lost on time");
        let result = self
            .finish(&mut game, Outcome::win(!loser, Reason::TimeForfeit))
            .await;
        match result {
            Err(RoundError::Store(crate::store::StoreError::Conflict)) => {
                // Another server moved the game on: look at it again.
                proxy.reload_locked(&mut game, &self.store, None).await?;
            }
            other => other?,
        }
        proxy.publish(&game);
        Ok(())
    }
}

async fn flag_watch(rounds: Weak<Rounds>, proxy: &GameProxy) {
    loop {
        let changed = proxy.clock_changed();
        tokio::pin!(changed);
        changed.as_mut().enable();
        let game = proxy.snapshot();
        if game.clock.is_none() || game.session.status().is_over() {
            return;
        }
        let Some(deadline) = game.deadline() else {
            return;
        };
        let wait = Duration::from_millis(deadline.saturating_sub(now_ms()).max(0) as u64);
        tokio::select! {
            () = tokio::time::sleep(wait) => {
                let Some(rounds) = rounds.upgrade() else { return };
                if let Err(error) = rounds.flag(proxy, game.version).await {
                    tracing::error!(game = %proxy.id, %error, "cannot end the game on time; retrying");
                    drop(rounds);
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
            () = &mut changed => {}
        }
    }
}

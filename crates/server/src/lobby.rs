//! The lobby's challenges as every lobby socket of this server sees them: one reader looks at
//! the database at once after a change made here, and every [`LOOK_EVERY`] for changes made by
//! other servers sharing it, and publishes what it found. Sockets filter it for their viewer.

use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::sync::{watch, Notify};

use crate::round::{now_ms, Rounds};
use crate::store::Challenge;

/// How often the lobby looks for changes other servers made.
pub const LOOK_EVERY: Duration = Duration::from_secs(2);
/// The least time between two looks: changes made here while the lobby looks are seen together
/// by the next look, so that a busy lobby costs the database at most a few reads a second.
pub const LOOK_GAP: Duration = Duration::from_millis(200);
/// How long a challenge that was accepted stays in what the lobby reads, so that
/// its challenger's socket hears of it: five looks at the least. Not longer: a busy lobby's
/// every look reads them all (a page that missed its word asks for its challenge by id).
pub const CLOSED_KEPT_MS: i64 = 10_000;
/// The most challenges the lobby reads.
pub const MAX_CHALLENGES: i64 = 500;

/// The lobby of one server.
#[derive(Debug)]
pub struct Lobby {
    snapshot: watch::Sender<Arc<Vec<Challenge>>>,
    poked: Notify,
}

impl Lobby {
    /// The lobby of `rounds`' database, read until `rounds` is gone.
    pub fn start(rounds: &Arc<Rounds>) -> Arc<Lobby> {
        let lobby = Arc::new(Lobby {
            snapshot: watch::channel(Arc::new(Vec::new())).0,
            poked: Notify::new(),
        });
        tokio::spawn(read(Arc::downgrade(rounds), lobby.clone()));
        lobby
    }

    /// Looks at the database again now (after a change to a challenge on this server).
    pub fn poke(&self) {
        self.poked.notify_one();
    }

    /// The challenges as last read, and every new reading.
    pub fn subscribe(&self) -> watch::Receiver<Arc<Vec<Challenge>>> {
        self.snapshot.subscribe()
    }
}

/// Reads the challenges until the server's games are gone (the server stopped).
async fn read(rounds: Weak<Rounds>, lobby: Arc<Lobby>) {
    loop {
        let Some(strong) = rounds.upgrade() else {
            return;
        };
        let now = now_ms();
        match strong
            .store
            .recent_challenges(now, now - CLOSED_KEPT_MS, MAX_CHALLENGES)
            .await
        {
            Ok(challenges) => {
                lobby.snapshot.send_if_modified(|old| {
                    let changed = **old != challenges;
                    if changed {
                        *old = Arc::new(challenges);
                    }
                    changed
                });
            }
            Err(error) => tracing::warn!(%error, "cannot read the lobby's challenges"),
        }
        drop(strong);
        let poked = lobby.poked.notified();
        tokio::pin!(poked);
        poked.as_mut().enable();
        let looked = tokio::time::Instant::now();
        tokio::select! {
            () = poked => tokio::time::sleep_until(looked + LOOK_GAP).await,
            () = tokio::time::sleep(LOOK_EVERY) => {}
        }
    }
}

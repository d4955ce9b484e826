//! The move player: a person's move, and the computer's. A move is played on a copy of the
//! game, stored, and only then becomes the game.

use std::sync::Arc;
use std::time::{Duration, Instant};

use denkmeter_core::Status;
use denkmeter_engine::dynamic::AnySession;
use denkmeter_engine::Agent;

use super::json::{game_view, GameView};
use super::{detached, now_ms, Credential, GameProxy, LiveGame, RoundError, Rounds};
use crate::search::{Priority, ThinkingTime};
use crate::store::{NewMove, StoreError};

/// A computer search handed to the pool.
struct Search {
    session: Box<dyn AnySession>,
    agent: Agent,
    seed: u64,
    /// The version the search started from; its move is dropped if the game moved on.
    version: i64,
    /// On the clock, the time the search may take (see
    /// [`crate::clock::Clock::thinking_plan`]).
    thinking: Option<ThinkingTime>,
    /// Both seats are the computer's.
    computer_only: bool,
    updated_at: i64,
}

impl Rounds {
    /// Plays `text` on a copy of the game, stores it, and only then makes the copy the game.
    async fn store_move(&self, game: &mut LiveGame, text: &str) -> Result<String, RoundError> {
        let mut next = game.session.box_clone();
        let written = next
            .play(text)
            .map_err(|e| RoundError::IllegalMove(e.to_string()))?;
        let ply = game.session.moves().len();
        let outcome = match next.status() {
            Status::Over(outcome) => Some(outcome),
            Status::Ongoing => None,
        };
        let now = now_ms();
        let mover = game.session.to_move();
        let opening = game.is_opening();
        let clock = match game.clock {
            None => None,
            Some(clock) => Some(
                clock
                    .after_move(mover, opening, now)
                    .ok_or(RoundError::TimeUp)?,
            ),
        };
        // The time the mover had left, kept with the move: a takeback gives back only that.
        let left_ms = game.clock.map(|clock| clock.left_at(mover, opening, now));
        let rated = outcome.as_ref().and_then(|_| game.rated_end(ply + 1));
        let is_rated = rated.is_some();
        self.store
            .append_move(
                &game.id,
                game.version,
                NewMove {
                    ply,
                    text: written.clone(),
                    outcome,
                    clock,
                    left_ms,
                    rated,
                },
                now,
            )
            .await?;
        game.session = Arc::from(next);
        game.clock = clock;
        game.lefts.push(left_ms);
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
        tracing::debug!(game = %game.id, ply, mv = %written, "move");
        Ok(written)
    }

    /// Plays a move for the seat of `token`; returns the game as that seat sees it after it.
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        who: &Credential,
        text: &str,
    ) -> Result<GameView, RoundError> {
        let (rounds, id, who, text) = (self.clone(), id.to_owned(), who.clone(), text.to_owned());
        detached(async move {
            write_action!(rounds, &id, |game| rounds
                .play_locked(&mut game, &who, &text)
                .await)
        })
        .await
    }

    async fn play_locked(
        &self,
        game: &mut LiveGame,
        who: &Credential,
        text: &str,
    ) -> Result<GameView, RoundError> {
        let seat = game.require_seat(who)?;
        game.require_ongoing()?;
        let to_move = game.session.to_move();
        if to_move != seat {
            return Err(RoundError::NotYourTurn { to_move, seat });
        }
        self.store_move(game, text).await?;
        game_view(game, Some(seat), None)
    }

    /// If the computer is to move, searches its move on the pool and plays it, and goes on
    /// while it is the computer's turn. A game has at most one search at a time.
    pub fn schedule_computer(self: &Arc<Self>, proxy: Arc<GameProxy>) {
        let rounds = self.clone();
        tokio::spawn(async move {
            while let Some(search) = rounds.begin_search(&proxy).await {
                let again = rounds.run_search(&proxy, search).await;
                if !again {
                    break;
                }
            }
        });
    }

    /// Marks the game as thinking and takes what the search needs; `None` if the computer is
    /// not to move or already thinking.
    async fn begin_search(&self, proxy: &GameProxy) -> Option<Search> {
        let mut game = proxy.lock().await;
        if game.thinking {
            return None;
        }
        let level = game.computer_to_move()?;
        let agent = Agent::Computer(level);
        agent.limits()?;
        game.thinking = true;
        proxy.count_search();
        proxy.publish(&game);
        let ply = game.session.moves().len();
        let now = now_ms();
        let own_moves = u32::try_from(ply / 2).unwrap_or(u32::MAX);
        let thinking = game.clock.map(|clock| ThinkingTime {
            asked: Instant::now(),
            plan: clock.thinking_plan(game.session.to_move(), game.is_opening(), now, own_moves),
        });
        Some(Search {
            session: game.session.box_clone(),
            agent,
            seed: (game.seed as u64).wrapping_add(ply as u64),
            version: game.version,
            thinking,
            computer_only: game.seats.white.is_computer() && game.seats.black.is_computer(),
            updated_at: game.updated_at,
        })
    }

    /// Searches and plays; returns whether the computer is to move again.
    async fn run_search(&self, proxy: &GameProxy, search: Search) -> bool {
        if search.computer_only {
            // Nobody watching: at most one move per interval, sooner if someone comes.
            let interval = self.config.unwatched_computer_interval;
            let due = search.updated_at + interval.as_millis() as i64;
            let wait = due.saturating_sub(now_ms());
            let arrival = proxy.watcher_arrival();
            tokio::pin!(arrival);
            arrival.as_mut().enable();
            if proxy.watchers() == 0 && wait > 0 {
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(wait as u64)) => {}
                    () = arrival => {}
                }
            }
        }
        let priority = if !search.computer_only {
            Priority::Player
        } else if proxy.watchers() > 0 {
            Priority::Watched
        } else {
            Priority::Background
        };
        let chosen = self
            .pool
            .search(
                priority,
                search.session,
                search.agent,
                search.seed,
                search.thinking,
            )
            .await;
        let mut game = proxy.lock().await;
        game.thinking = false;
        let outcome = if game.version != search.version {
            // Changed meanwhile (a resignation, another server): think again if still to move.
            Ok(())
        } else if let Some(text) = chosen {
            match self.store_move(&mut game, &text).await {
                Ok(_) => Ok(()),
                Err(RoundError::Store(StoreError::Conflict)) => proxy
                    .reload_locked(&mut game, &self.store, None)
                    .await
                    .map(|_| ()),
                Err(error) => Err(error),
            }
        } else {
            tracing::error!(game = %game.id, "the computer found no move");
            proxy.publish(&game);
            return false;
        };
        proxy.publish(&game);
        match outcome {
            Ok(()) => game.computer_to_move().is_some(),
            Err(error) => {
                tracing::error!(game = %game.id, %error, "computer move not stored; retrying");
                drop(game);
                tokio::time::sleep(Duration::from_secs(5)).await;
                true
            }
        }
    }
}

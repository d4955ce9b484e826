//! Ratings in the database: a rated game's end updates its players' ratings in the transaction
//! that stores its result, and the player pages and leaderboards read them.

use denkmeter_core::{ByPlayer, Outcome, Player};
use sqlx::Row;

use super::{Backend, Store, StoreError, Transaction};
use crate::rating::Rating;

/// Who sits in a seat of a rated game, for its rating.
#[derive(Clone, Debug, PartialEq)]
pub enum RatedSeat {
    /// An account, by id: its rating in the category moves.
    Account(String),
    /// The computer at a level: a fixed rating that does not move.
    Fixed(Rating),
}

/// What a rated game's end needs to rate it: its category and who sat where.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedEnd {
    pub category: String,
    pub seats: ByPlayer<RatedSeat>,
}

/// What a rated game did to one seat's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingChange {
    pub before: Rating,
    pub after: Rating,
}

/// The rating periods a rating ages by for each day without a rated game in its category: the
/// deviation grows back over about half a year away to a newcomer's.
const PERIODS_PER_DAY: f64 = 0.2;

const DAY_MS: f64 = 24.0 * 60.0 * 60.0 * 1000.0;

/// A stored rating, and when it last changed.
async fn rating_in(
    tx: &mut Transaction<'_>,
    backend: Backend,
    player: &str,
    category: &str,
    now: i64,
) -> Result<Option<(Rating, i64, i64)>, StoreError> {
    // On PostgreSQL the row is locked until the transaction ends: two games of one player
    // ending at once on two servers update it one after the other, never from one reading. A
    // player's first game in the category locks a newcomer's row made for it (a missing row
    // locks nothing); it is read back as no games, from a newcomer's rating.
    let lock = if backend == Backend::Postgres {
        let new = Rating::NEW;
        sqlx::query(
            "INSERT INTO ratings (player_id, category, rating, deviation, volatility, games, \
             updated_at) VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT DO NOTHING",
        )
        .bind(player)
        .bind(category)
        .bind(new.rating)
        .bind(new.deviation)
        .bind(new.volatility)
        .bind(now)
        .execute(&mut **tx)
        .await?;
        " FOR UPDATE"
    } else {
        ""
    };
    let row = sqlx::query(&format!(
        "SELECT rating, deviation, volatility, games, updated_at FROM ratings \
         WHERE player_id = $1 AND category = $2{lock}"
    ))
    .bind(player)
    .bind(category)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|row| {
        Ok((
            Rating {
                rating: row.try_get("rating")?,
                deviation: row.try_get("deviation")?,
                volatility: row.try_get("volatility")?,
            },
            row.try_get("games")?,
            row.try_get("updated_at")?,
        ))
    })
    .transpose()
}

/// Rates a game that just ended with `outcome` (its result was stored in `tx`): each account's
/// new rating from both sides' ratings before the game, stored with the change. Runs once per
/// game, because only the write that ends the game reaches it.
pub(super) async fn rate_game(
    tx: &mut Transaction<'_>,
    backend: Backend,
    game: &str,
    rated: &RatedEnd,
    outcome: &Outcome,
    now: i64,
) -> Result<(), StoreError> {
    let category = rated.category.as_str();
    // Both sides' ratings before the game, aged by the time since their last rated game; the
    // rows read (and on PostgreSQL locked) in the order of the players' ids, so that two games
    // of the same two players ending at once never wait for each other.
    let mut before: ByPlayer<Option<(Rating, i64)>> = ByPlayer::new(None, None);
    let mut order = Player::BOTH;
    order.sort_by_key(|&seat| match &rated.seats[seat] {
        RatedSeat::Account(player) => Some(player.clone()),
        RatedSeat::Fixed(_) => None,
    });
    let mut deleted = ByPlayer::new(false, false);
    for seat in order {
        if let RatedSeat::Account(player) = &rated.seats[seat] {
            deleted[seat] = is_deleted(tx, player).await?;
        }
        before[seat] = Some(match &rated.seats[seat] {
            RatedSeat::Fixed(rating) => (*rating, 0),
            RatedSeat::Account(_) if deleted[seat] => (Rating::NEW, 0),
            RatedSeat::Account(player) => {
                match rating_in(tx, backend, player, category, now).await? {
                    Some((rating, games, updated_at)) => {
                        let days = (now - updated_at).max(0) as f64 / DAY_MS;
                        (rating.aged(days * PERIODS_PER_DAY), games)
                    }
                    None => (Rating::NEW, 0),
                }
            }
        });
    }
    for seat in Player::BOTH {
        let RatedSeat::Account(player) = &rated.seats[seat] else {
            continue;
        };
        // A deleted account keeps no rating.
        if deleted[seat] {
            continue;
        }
        let (Some((mine, games)), Some((theirs, _))) = (before[seat], before[!seat]) else {
            continue;
        };
        let score = match outcome.winner {
            None => 0.5,
            Some(winner) if winner == seat => 1.0,
            Some(_) => 0.0,
        };
        let after = mine.after(&[(theirs, score)]);
        sqlx::query(
            "INSERT INTO ratings (player_id, category, rating, deviation, volatility, games, \
             updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (player_id, category) DO UPDATE SET rating = excluded.rating, \
             deviation = excluded.deviation, volatility = excluded.volatility, \
             games = excluded.games, updated_at = excluded.updated_at",
        )
        .bind(player)
        .bind(category)
        .bind(after.rating)
        .bind(after.deviation)
        .bind(after.volatility)
        .bind(games + 1)
        .bind(now)
        .execute(&mut **tx)
        .await?;
        sqlx::query(
            "INSERT INTO rating_changes (game_id, seat, player_id, category, rating_before, \
             deviation_before, rating_after, deviation_after, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(game)
        .bind(seat.name())
        .bind(player)
        .bind(category)
        .bind(mine.rating)
        .bind(mine.deviation)
        .bind(after.rating)
        .bind(after.deviation)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Whether account `player` was deleted.
async fn is_deleted(tx: &mut Transaction<'_>, player: &str) -> Result<bool, StoreError> {
    let row = sqlx::query("SELECT deleted_at FROM players WHERE id = $1")
        .bind(player)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(match row {
        Some(row) => row.try_get::<Option<i64>, _>("deleted_at")?.is_some(),
        None => true,
    })
}

/// A rating as a player page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct CategoryRating {
    pub category: String,
    pub rating: Rating,
    pub games: i64,
}

/// One point of a rating's history.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPoint {
    pub at: i64,
    pub rating: f64,
    pub game: String,
}

/// A place on a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked {
    pub name: String,
    pub rating: Rating,
    pub games: i64,
}

/// A game of a player, for the player's page.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    pub id: String,
    pub ruleset: String,
    pub seat: Player,
    pub opponent_kind: String,
    pub opponent_level: Option<i64>,
    pub opponent_name: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    pub rated: bool,
    /// The change this game made to the player's rating, if it was rated and is over.
    pub rating_change: Option<f64>,
    pub updated_at: i64,
}

fn rating_of(row: &sqlx::any::AnyRow) -> Result<Rating, StoreError> {
    Ok(Rating {
        rating: row.try_get("rating")?,
        deviation: row.try_get("deviation")?,
        volatility: row.try_get("volatility")?,
    })
}

impl Store {
    /// What a rated game did to its seats' ratings (nothing for a seat of the computer or
    /// without an account, or a game not rated or not over).
    pub async fn rating_changes(
        &self,
        game: &str,
    ) -> Result<ByPlayer<Option<RatingChange>>, StoreError> {
        let rows = sqlx::query(
            "SELECT seat, rating_before, deviation_before, rating_after, deviation_after \
             FROM rating_changes WHERE game_id = $1",
        )
        .bind(game)
        .fetch_all(&self.reader)
        .await?;
        let mut changes = ByPlayer::new(None, None);
        for row in rows {
            let seat: String = row.try_get("seat")?;
            let Some(seat) = super::player_from(&seat) else {
                continue;
            };
            let rating = |r: &str, d: &str| -> Result<Rating, StoreError> {
                Ok(Rating {
                    rating: row.try_get(r)?,
                    deviation: row.try_get(d)?,
                    volatility: 0.0,
                })
            };
            changes[seat] = Some(RatingChange {
                before: rating("rating_before", "deviation_before")?,
                after: rating("rating_after", "deviation_after")?,
            });
        }
        Ok(changes)
    }

    /// `player`'s rating in `category`, if the player has one.
    pub async fn rating(&self, player: &str, category: &str) -> Result<Option<Rating>, StoreError> {
        let row = sqlx::query(
            "SELECT rating, deviation, volatility FROM ratings \
             WHERE player_id = $1 AND category = $2",
        )
        .bind(player)
        .bind(category)
        .fetch_optional(&self.reader)
        .await?;
        row.as_ref().map(rating_of).transpose()
    }

    /// Every rating of `player`, by category.
    pub async fn ratings_of(&self, player: &str) -> Result<Vec<CategoryRating>, StoreError> {
        let rows = sqlx::query(
            "SELECT category, rating, deviation, volatility, games FROM ratings \
             WHERE player_id = $1 ORDER BY category",
        )
        .bind(player)
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(CategoryRating {
                    category: row.try_get("category")?,
                    rating: rating_of(row)?,
                    games: row.try_get("games")?,
                })
            })
            .collect()
    }

    /// The last `limit` points of `player`'s rating in `category`, oldest first.
    pub async fn rating_history(
        &self,
        player: &str,
        category: &str,
        limit: i64,
    ) -> Result<Vec<HistoryPoint>, StoreError> {
        let rows = sqlx::query(
            "SELECT created_at, rating_after, game_id FROM rating_changes \
             WHERE player_id = $1 AND category = $2 ORDER BY created_at DESC, game_id LIMIT $3",
        )
        .bind(player)
        .bind(category)
        .bind(limit)
        .fetch_all(&self.reader)
        .await?;
        let mut points = rows
            .iter()
            .map(|row| {
                Ok(HistoryPoint {
                    at: row.try_get("created_at")?,
                    rating: row.try_get("rating_after")?,
                    game: row.try_get("game_id")?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        points.reverse();
        Ok(points)
    }

    /// The `limit` best ratings in `category` whose deviation is at most `max_deviation` (the
    /// provisional left out), best first.
    pub async fn leaderboard(
        &self,
        category: &str,
        max_deviation: f64,
        limit: i64,
    ) -> Result<Vec<Ranked>, StoreError> {
        let rows = sqlx::query(
            "SELECT players.name AS name, rating, deviation, volatility, games FROM ratings \
             JOIN players ON players.id = ratings.player_id \
             WHERE category = $1 AND deviation <= $2 AND players.deleted_at IS NULL \
             ORDER BY rating DESC, players.name LIMIT $3",
        )
        .bind(category)
        .bind(max_deviation)
        .bind(limit)
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(Ranked {
                    name: row.try_get("name")?,
                    rating: rating_of(row)?,
                    games: row.try_get("games")?,
                })
            })
            .collect()
    }

    /// The categories with players on their leaderboard, and how many.
    pub async fn leaderboard_categories(
        &self,
        max_deviation: f64,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT category, COUNT(*) AS players FROM ratings \
             JOIN players ON players.id = ratings.player_id \
             WHERE deviation <= $1 AND players.deleted_at IS NULL \
             GROUP BY category ORDER BY category",
        )
        .bind(max_deviation)
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("category")?, row.try_get("players")?)))
            .collect()
    }

    /// How many finished games `player` played, by ruleset, seat and result (`1-0`, ...).
    pub async fn results_of(
        &self,
        player: &str,
    ) -> Result<Vec<(String, Player, String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT ruleset, result, \
             CASE WHEN white_player = $1 THEN 'white' ELSE 'black' END AS seat, \
             COUNT(*) AS n FROM games \
             WHERE (white_player = $1 OR black_player = $1) AND result <> '*' \
             GROUP BY ruleset, result, seat",
        )
        .bind(player)
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|row| {
                let seat: String = row.try_get("seat")?;
                Ok((
                    row.try_get("ruleset")?,
                    super::player_from(&seat).unwrap_or(Player::White),
                    row.try_get("result")?,
                    row.try_get("n")?,
                ))
            })
            .collect()
    }

    /// `player`'s last `limit` games, most recently changed first.
    pub async fn games_of(&self, player: &str, limit: i64) -> Result<Vec<PlayedGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, ruleset, result, rated, updated_at, \
             CASE WHEN white_player = $1 THEN 'white' ELSE 'black' END AS seat, \
             CASE WHEN white_player = $1 THEN black_kind ELSE white_kind END AS opponent_kind, \
             CASE WHEN white_player = $1 THEN black_level ELSE white_level END \
             AS opponent_level, \
             (SELECT name FROM players WHERE players.id = \
             CASE WHEN games.white_player = $1 THEN games.black_player \
             ELSE games.white_player END) AS opponent_name, \
             (SELECT rating_after - rating_before FROM rating_changes \
             WHERE rating_changes.game_id = games.id AND rating_changes.player_id = $1) \
             AS rating_change \
             FROM games WHERE white_player = $1 OR black_player = $1 \
             ORDER BY updated_at DESC, id LIMIT $2",
        )
        .bind(player)
        .bind(limit)
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|row| {
                let seat: String = row.try_get("seat")?;
                Ok(PlayedGame {
                    id: row.try_get("id")?,
                    ruleset: row.try_get("ruleset")?,
                    seat: super::player_from(&seat).unwrap_or(Player::White),
                    opponent_kind: row.try_get("opponent_kind")?,
                    opponent_level: row.try_get("opponent_level")?,
                    opponent_name: row.try_get("opponent_name")?,
                    result: row.try_get("result")?,
                    rated: row.try_get::<i64, _>("rated")? != 0,
                    rating_change: row.try_get("rating_change")?,
                    updated_at: row.try_get("updated_at")?,
                })
            })
            .collect()
    }

    /// The live account named (by key) `name_key`: its id, name and when it was made.
    pub async fn player_by_key(
        &self,
        name_key: &str,
    ) -> Result<Option<(String, String, i64)>, StoreError> {
        let row = sqlx::query(
            "SELECT id, name, created_at FROM players \
             WHERE name_key = $1 AND deleted_at IS NULL",
        )
        .bind(name_key)
        .fetch_optional(&self.reader)
        .await?;
        row.map(|row| {
            Ok((
                row.try_get("id")?,
                row.try_get("name")?,
                row.try_get("created_at")?,
            ))
        })
        .transpose()
    }
}

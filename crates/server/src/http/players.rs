//! Players' pages and the leaderboards: `GET /api/players/{name}`, `GET /api/leaderboard`.

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::Json;
use denkmeter_core::Player;
use serde::{Deserialize, Serialize};

use super::error::{ApiError, Params};
use crate::accounts::name_key;
use crate::ladder::{split_category, TimeClass};
use crate::rating::PROVISIONAL_DEVIATION;
use crate::round::RoundError;
use crate::store::PlayedGame;
use crate::AppState;

/// The most recent games a player's page lists.
const RECENT_GAMES: i64 = 20;
/// The most recent points of a rating history.
const HISTORY_POINTS: i64 = 200;
/// The places on a leaderboard.
const LEADERBOARD_PLACES: i64 = 100;

fn internal(error: crate::store::StoreError) -> ApiError {
    ApiError::from(RoundError::from(error))
}

/// A number to a tenth.
fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// A category's title for people: the family's name and the time class (`Chad blitz`).
fn category_title(state: &AppState, category: &str) -> String {
    let Some((pool, class)) = split_category(category) else {
        return category.to_string();
    };
    let name = state
        .registry
        .find(pool)
        .map_or_else(|| pool.to_string(), |game| game.facts().display_name());
    format!("{name} {}", class.name())
}

/// A rating pool's name for people: that of the ruleset it is named after.
fn family_title(state: &AppState, family: &str) -> String {
    state
        .registry
        .find(family)
        .map_or_else(|| family.to_string(), |game| game.facts().display_name())
}

#[derive(Debug, Serialize)]
pub struct PlayerPage {
    name: String,
    created_at: i64,
    ratings: Vec<RatingJson>,
    records: Vec<RecordJson>,
    recent: Vec<RecentJson>,
}

#[derive(Debug, Serialize)]
pub struct RatingJson {
    category: String,
    family: String,
    class: &'static str,
    title: String,
    rating: f64,
    deviation: f64,
    provisional: bool,
    games: i64,
    history: Vec<PointJson>,
}

#[derive(Debug, Serialize)]
pub struct PointJson {
    at: i64,
    rating: f64,
    game: String,
}

#[derive(Debug, Serialize, Default)]
pub struct RecordJson {
    family: String,
    title: String,
    wins: u64,
    draws: u64,
    losses: u64,
}

#[derive(Debug, Serialize)]
pub struct RecentJson {
    id: String,
    ruleset: String,
    display_name: String,
    colour: &'static str,
    opponent: Option<String>,
    result: &'static str,
    rated: bool,
    rating_change: Option<f64>,
    updated_at: i64,
}

/// The result of a game for the player in `seat`: `win`, `draw`, `loss` or `ongoing`.
fn result_for(token: &str, seat: Player) -> &'static str {
    match (token, seat) {
        ("1-0", Player::White) | ("0-1", Player::Black) => "win",
        ("1-0", Player::Black) | ("0-1", Player::White) => "loss",
        ("*", _) => "ongoing",
        _ => "draw",
    }
}

fn opponent(game: &PlayedGame) -> Option<String> {
    match (game.opponent_kind.as_str(), game.opponent_level) {
        ("computer", Some(level)) => Some(format!("Computer, level {level}")),
        _ => game.opponent_name.clone(),
    }
}

/// A player's page: ratings with their histories, W-D-L per family, recent games.
pub async fn player(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<PlayerPage>, ApiError> {
    let store = &state.rounds.store;
    let no_such = || ApiError::NotFound(format!("no such player: {name:?}"));
    if name.chars().count() > crate::accounts::NAME_MAX {
        return Err(no_such());
    }
    let (id, name, created_at) = store
        .player_by_key(&name_key(&name))
        .await
        .map_err(internal)?
        .ok_or_else(no_such)?;
    let mut ratings = Vec::new();
    for rating in store.ratings_of(&id).await.map_err(internal)? {
        let Some((pool, class)) = split_category(&rating.category) else {
            continue;
        };
        let history = store
            .rating_history(&id, &rating.category, HISTORY_POINTS)
            .await
            .map_err(internal)?;
        ratings.push(RatingJson {
            title: category_title(&state, &rating.category),
            family: pool.to_string(),
            class: class.name(),
            rating: tenth(rating.rating.rating),
            deviation: tenth(rating.rating.deviation),
            provisional: rating.rating.is_provisional(),
            games: rating.games,
            history: history
                .into_iter()
                .map(|p| PointJson {
                    at: p.at,
                    rating: tenth(p.rating),
                    game: p.game,
                })
                .collect(),
            category: rating.category,
        });
    }
    let mut records: BTreeMap<String, RecordJson> = BTreeMap::new();
    for (ruleset, seat, result, count) in store.results_of(&id).await.map_err(internal)? {
        // Per rating pool, as the ratings are: Scandinavian 8x8 apart from 10x10.
        let family = state.registry.find(&ruleset).map_or_else(
            || ruleset.clone(),
            |g| crate::ladder::pool(g.facts().name, g.facts().family),
        );
        let record = records.entry(family.clone()).or_insert_with(|| RecordJson {
            title: family_title(&state, &family),
            family,
            ..RecordJson::default()
        });
        let count = u64::try_from(count).unwrap_or(0);
        match result_for(&result, seat) {
            "win" => record.wins += count,
            "loss" => record.losses += count,
            "draw" => record.draws += count,
            _ => {}
        }
    }
    let games = store.games_of(&id, RECENT_GAMES).await.map_err(internal)?;
    let recent = games
        .iter()
        .map(|game| RecentJson {
            id: game.id.clone(),
            ruleset: game.ruleset.clone(),
            display_name: state
                .registry
                .find(&game.ruleset)
                .map_or_else(|| game.ruleset.clone(), |g| g.facts().display_name()),
            colour: game.seat.name(),
            opponent: opponent(game),
            result: result_for(&game.result, game.seat),
            rated: game.rated,
            rating_change: game.rating_change.map(tenth),
            updated_at: game.updated_at,
        })
        .collect();
    Ok(Json(PlayerPage {
        name,
        created_at,
        ratings,
        records: records.into_values().collect(),
        recent,
    }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderboardQuery {
    category: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct CategoryJson {
    category: String,
    title: String,
    players: i64,
}

#[derive(Debug, Serialize)]
pub struct PlaceJson {
    rank: usize,
    name: String,
    rating: f64,
    deviation: f64,
    games: i64,
}

/// The categories that have a leaderboard, or one category's leaderboard.
pub async fn leaderboard(
    State(state): State<AppState>,
    Params(query): Params<LeaderboardQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let store = &state.rounds.store;
    let Some(category) = query.category else {
        let categories: Vec<CategoryJson> = store
            .leaderboard_categories(PROVISIONAL_DEVIATION)
            .await
            .map_err(internal)?
            .into_iter()
            .map(|(category, players)| CategoryJson {
                title: category_title(&state, &category),
                category,
                players,
            })
            .collect();
        return Ok(Json(serde_json::json!({ "categories": categories })));
    };
    let known = split_category(&category).is_some_and(|(pool, class)| {
        TimeClass::ALL.contains(&class)
            && state.registry.rulesets().iter().any(|game| {
                let facts = game.facts();
                crate::ladder::pool(facts.name, facts.family) == pool
            })
    });
    if !known {
        return Err(ApiError::NotFound(format!(
            "no such category: {category:?} (expected POOL/CLASS, e.g. chad/blitz)"
        )));
    }
    let places: Vec<PlaceJson> = store
        .leaderboard(&category, PROVISIONAL_DEVIATION, LEADERBOARD_PLACES)
        .await
        .map_err(internal)?
        .into_iter()
        .enumerate()
        .map(|(i, ranked)| PlaceJson {
            rank: i + 1,
            name: ranked.name,
            rating: tenth(ranked.rating.rating),
            deviation: tenth(ranked.rating.deviation),
            games: ranked.games,
        })
        .collect();
    Ok(Json(serde_json::json!({
        "category": category,
        "title": category_title(&state, &category),
        "players": places,
    })))
}

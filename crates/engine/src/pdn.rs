//! PDN games to and from Denkmeter: which ruleset a PDN game is played under, its start
//! position from its FEN, its moves replayed through the rules; and a game written as PDN
//! (see [`denkmeter_core::pdn`] for the text format).

use std::sync::Arc;

use denkmeter_core::pdn::{result_from_pdn, result_to_pdn, PdnGame, PdnText, PdnType};
use denkmeter_core::{Player, PositionError, Record, RecordError};

use crate::dynamic::{AnyGame, AnySession};
use crate::Registry;

/// Why a PDN game could not be brought in.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("no [GameType] or [Ruleset] tag says which draughts it is: give the ruleset (record import --ruleset, or the ruleset chosen in the web page)")]
    NoRuleset,
    #[error("[GameType \"{0}\"] is not a game Denkmeter plays (it plays 20, International draughts, and 21, English checkers; the Scandinavian rulesets are named by a [Ruleset] tag)")]
    GameType(String),
    #[error("[Ruleset \"{0}\"] is not a draughts ruleset Denkmeter has")]
    Ruleset(String),
    #[error("{0} is not draughts: PDN holds draughts games only")]
    NotDraughts(String),
    #[error("[FEN]: {0}")]
    Fen(PositionError),
    #[error("[Result]: {0}")]
    Result(String),
    #[error("{0}")]
    Record(#[from] RecordError),
}

/// A PDN game brought in: its ruleset, the game replayed, and the record Denkmeter keeps.
#[derive(Debug)]
pub struct Imported {
    pub game: Arc<dyn AnyGame>,
    pub session: Box<dyn AnySession>,
    pub record: Record,
}

/// The tag that names a seat in PDN: the side's traditional name (English checkers' first
/// player is Black).
fn seat_tag(game: &dyn AnyGame, player: Player) -> &'static str {
    game.facts().side_names[player]
}

/// The tag that names a seat in a Denkmeter record: the rules' side.
fn record_seat_tag(player: Player) -> &'static str {
    match player {
        Player::White => "White",
        Player::Black => "Black",
    }
}

/// The ruleset a PDN game is played under: its `[Ruleset]` tag, else its `[GameType]`'s
/// number, else `default`.
pub fn ruleset_of(
    pdn: &PdnGame,
    registry: &Registry,
    default: Option<&str>,
) -> Result<Arc<dyn AnyGame>, ImportError> {
    let draughts = |game: Arc<dyn AnyGame>| {
        if game.facts().pdn.is_draughts() {
            Ok(game)
        } else {
            Err(ImportError::NotDraughts(game.name().to_string()))
        }
    };
    if let Some(name) = pdn.tag("Ruleset") {
        let game = registry
            .find(name.trim())
            .ok_or_else(|| ImportError::Ruleset(name.to_string()))?;
        return draughts(game);
    }
    if let Some(kind) = pdn.tag("GameType") {
        let number = kind.split(',').next().unwrap_or_default().trim();
        let wanted = number.parse::<u16>().ok().map(PdnType::GameType);
        return registry
            .rulesets()
            .iter()
            .find(|g| Some(g.facts().pdn) == wanted)
            .cloned()
            .ok_or_else(|| ImportError::GameType(kind.to_string()));
    }
    match default {
        Some(name) => draughts(
            registry
                .find(name)
                .ok_or_else(|| ImportError::Ruleset(name.to_string()))?,
        ),
        None => Err(ImportError::NoRuleset),
    }
}

/// Brings a PDN game in: the ruleset (see [`ruleset_of`]), the start position from its FEN,
/// every move replayed through the rules, and the record with its tags, comments and result.
pub fn import(
    pdn: &PdnGame,
    registry: &Registry,
    default: Option<&str>,
) -> Result<Imported, ImportError> {
    let game = ruleset_of(pdn, registry, default)?;
    let mut record = Record::default();
    record.set_tag("Game", game.facts().family);
    record.set_tag("Ruleset", game.name());
    for player in Player::BOTH {
        if let Some(name) = pdn.tag(seat_tag(&*game, player)) {
            record.set_tag(record_seat_tag(player), name);
        }
    }
    const HANDLED: [&str; 8] = [
        "White", "Black", "GameType", "FEN", "SetUp", "Result", "Ruleset", "Game",
    ];
    for (name, value) in &pdn.tags {
        // Other programs' terminations (`Normal`, `Time forfeit`) are kept only where they
        // name one of Denkmeter's reasons: the rest would make the result unreadable.
        let foreign = name == "Termination" && value.parse::<denkmeter_core::Reason>().is_err();
        if !HANDLED.contains(&name.as_str()) && !foreign {
            record.set_tag(name, value.clone());
        }
    }
    if let Some(fen) = pdn.tag("FEN").filter(|f| !f.trim().is_empty()) {
        let start = game.new_game(Some(fen)).map_err(ImportError::Fen)?;
        let position = start.position();
        if position != game.start_position() {
            record.set_tag("Position", position);
        }
    }
    let result = result_from_pdn(pdn.result()).map_err(ImportError::Result)?;
    record.result = result.to_string();
    record.set_tag("Result", result);
    record.moves = pdn.moves.clone();
    record.comments = pdn.comments.clone();
    let session = game.load_record(&record)?;
    // The moves as Denkmeter writes them (numbers where the ruleset numbers its squares).
    record.moves = session.moves().to_vec();
    Ok(Imported {
        game,
        session,
        record,
    })
}

/// A game as PDN: the seven standard tags first (`Event`, `Site`, `Date`, `Round`, the
/// players, `Result`), then `GameType` (or Denkmeter's `Ruleset` where PDN has no number),
/// `SetUp` and `FEN` for a game from another position (Denkmeter's `Position` where the
/// ruleset has no FEN), the record's other tags, and the moves with their comments.
pub fn export(game: &dyn AnyGame, record: &Record) -> Result<String, ImportError> {
    let kind = game.facts().pdn;
    if !kind.is_draughts() {
        return Err(ImportError::NotDraughts(game.name().to_string()));
    }
    let session = game.load_record(record)?;
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut push = |name: &str, value: &str| tags.push((name.to_string(), value.to_string()));
    for name in ["Event", "Site", "Date", "Round"] {
        push(name, record.tag(name).unwrap_or("?"));
    }
    // PDN lists the players White then Black, by the names the tradition gives them.
    let mut seats = Player::BOTH;
    seats.sort_by_key(|&p| seat_tag(game, p) != "White");
    for player in seats {
        push(
            seat_tag(game, player),
            record.tag(record_seat_tag(player)).unwrap_or("?"),
        );
    }
    let result = match session.status() {
        denkmeter_core::Status::Over(outcome) => outcome.result_token().to_string(),
        denkmeter_core::Status::Ongoing => "*".to_string(),
    };
    let result = result_to_pdn(&result, kind);
    push("Result", result);
    match kind {
        PdnType::GameType(number) => push("GameType", &number.to_string()),
        _ => push("Ruleset", game.name()),
    }
    if let Some(position) = record.tag("Position") {
        let start = game.new_game(Some(position)).map_err(ImportError::Fen)?;
        match start.fen() {
            Some(fen) => {
                push("SetUp", "1");
                push("FEN", &fen);
            }
            None => push("Position", position),
        }
    }
    const WRITTEN: [&str; 11] = [
        "Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "Ruleset",
        "Position", "Game",
    ];
    for (name, value) in &record.tags {
        if !WRITTEN.contains(&name.as_str()) {
            push(name, value);
        }
    }
    Ok(PdnText {
        tags: &tags,
        moves: session.moves(),
        comments: &record.comments,
        black_first: session.first_to_move() == Player::Black,
        result,
    }
    .to_string())
}

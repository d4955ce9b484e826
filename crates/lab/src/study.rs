//! What a study is: rulesets, players, games and openings, and the plan of its games.
//!
//! A study is identified by its definition: the same definition always has the same id, so a
//! study started again (after an interruption, or on another machine) is the same study and
//! goes on where it stopped.

use std::sync::Arc;

use denkmeter_engine::dynamic::AnyGame;
use denkmeter_engine::{Agent, Registry};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The most games a study may hold.
pub const MAX_STUDY_GAMES: u64 = 10_000_000;
/// The most rulesets a study may compare.
pub const MAX_RULESETS: usize = 64;
/// The most players (strengths) a study may compare.
pub const MAX_PLAYERS: usize = 16;
/// The longest game a study may ask for, in plies, before adjudication.
pub const MAX_PLIES: u32 = 2_000;
/// The most random plies an opening may have.
pub const MAX_OPENING_PLIES: u32 = 40;

/// A ruleset of a study, on its own board when its board is data (Schada's board files).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudyRuleset {
    /// The ruleset's name, e.g. `scandinavian-8x8`.
    pub ruleset: String,
    /// A board file for a ruleset whose board is data: its name (shown as `ruleset@name`) and
    /// its text, kept in the study so that every worker plays on the same board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardFile>,
}

/// A board file's name and text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardFile {
    pub name: String,
    pub text: String,
}

impl StudyRuleset {
    /// The ruleset as the study's tables name it: `schada`, or `schada@board` on a board file.
    pub fn label(&self) -> String {
        match &self.board {
            Some(board) => format!("{}@{}", self.ruleset, board.name),
            None => self.ruleset.clone(),
        }
    }
}

/// Where the games of a study start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum StudyOpenings {
    /// Every game from the start. Players whose search does not depend on a seed (alpha-beta
    /// to a depth) then play the same game every time: the report counts distinct games.
    Start,
    /// Each game from its own `plies` uniformly random legal plies, drawn from the study's
    /// seed, the ruleset and the game's number (the same openings for every player, so that
    /// strengths are compared on the same openings).
    RandomPlies { plies: u32 },
    /// As `RandomPlies`, keeping only openings that a short alpha-beta search scores within
    /// `margin` hundredths of the game's basic piece of even (the `--balanced` of `match`).
    Balanced { plies: u32, margin: u32 },
}

/// A study's definition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudySpec {
    pub rulesets: Vec<StudyRuleset>,
    /// Each player plays itself: the strengths compared, weakest first by convention.
    pub players: Vec<String>,
    /// Games for each ruleset and player.
    pub games: u32,
    pub openings: StudyOpenings,
    /// Games still going after this many plies from their opening are adjudicated.
    pub max_plies: u32,
    /// At the ply limit a material lead of at least this much wins (see
    /// [`denkmeter_engine::matches::adjudicate`]).
    pub adjudicate_margin: u32,
    pub seed: u64,
}

/// A study definition that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StudyError {
    #[error("a study needs at least one ruleset")]
    NoRulesets,
    #[error("a study compares at most {MAX_RULESETS} rulesets, not {0}")]
    TooManyRulesets(usize),
    #[error("a study needs at least one player")]
    NoPlayers,
    #[error("a study compares at most {MAX_PLAYERS} players, not {0}")]
    TooManyPlayers(usize),
    #[error("a study needs at least one game for each ruleset and player")]
    NoGames,
    #[error("the study would hold {0} games; the limit is {MAX_STUDY_GAMES}")]
    TooManyGames(u64),
    #[error("--max-plies must be from 1 to {MAX_PLIES}, not {0}")]
    MaxPlies(u32),
    #[error("openings of {0} random plies: the limit is {MAX_OPENING_PLIES}")]
    OpeningPlies(u32),
    #[error("unknown ruleset {0:?} (`denkmeter list` names them all)")]
    UnknownRuleset(String),
    #[error("{0} is listed twice")]
    Duplicate(String),
    #[error("{ruleset}: {reason}")]
    Board { ruleset: String, reason: String },
    #[error("player {player:?}: {reason}")]
    Player { player: String, reason: String },
}

/// One game of a study: which ruleset and player, and its number among the cell's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameSlot {
    /// The game's number in the study, from 0: the order in which games are handed out.
    pub number: u64,
    /// Index into [`StudySpec::rulesets`].
    pub ruleset: usize,
    /// Index into [`StudySpec::players`].
    pub player: usize,
    /// The game's number among its ruleset's and player's games, from 0.
    pub index: u32,
}

impl StudySpec {
    /// The study's id: the first 16 hex digits of the SHA-256 of its definition as JSON.
    pub fn id(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        let digest = Sha256::digest(json.as_bytes());
        digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
    }

    /// How many games the study holds.
    pub fn total_games(&self) -> u64 {
        self.rulesets.len() as u64 * self.players.len() as u64 * u64::from(self.games)
    }

    /// The game with this number. Numbers run over the games' indices first, then rulesets,
    /// then players, so that the first games handed out cover every ruleset and player and a
    /// study stopped early still compares them all.
    pub fn slot(&self, number: u64) -> Option<GameSlot> {
        if number >= self.total_games() {
            return None;
        }
        let players = self.players.len() as u64;
        let rulesets = self.rulesets.len() as u64;
        let player = (number % players) as usize;
        let ruleset = ((number / players) % rulesets) as usize;
        let index = u32::try_from(number / players / rulesets).ok()?;
        Some(GameSlot {
            number,
            ruleset,
            player,
            index,
        })
    }

    /// The agents, read from the players' text.
    pub fn agents(&self) -> Result<Vec<Agent>, StudyError> {
        self.players
            .iter()
            .map(|text| {
                text.parse::<Agent>().map_err(|error| StudyError::Player {
                    player: text.clone(),
                    reason: error.reason,
                })
            })
            .collect()
    }

    /// Checks the definition against the registry and returns the games to play, one per
    /// ruleset, on their board files.
    pub fn resolve(&self, registry: &Registry) -> Result<Vec<Arc<dyn AnyGame>>, StudyError> {
        if self.rulesets.is_empty() {
            return Err(StudyError::NoRulesets);
        }
        if self.rulesets.len() > MAX_RULESETS {
            return Err(StudyError::TooManyRulesets(self.rulesets.len()));
        }
        if self.players.is_empty() {
            return Err(StudyError::NoPlayers);
        }
        if self.players.len() > MAX_PLAYERS {
            return Err(StudyError::TooManyPlayers(self.players.len()));
        }
        if self.games == 0 {
            return Err(StudyError::NoGames);
        }
        if self.total_games() > MAX_STUDY_GAMES {
            return Err(StudyError::TooManyGames(self.total_games()));
        }
        if self.max_plies == 0 || self.max_plies > MAX_PLIES {
            return Err(StudyError::MaxPlies(self.max_plies));
        }
        match self.openings {
            StudyOpenings::RandomPlies { plies } | StudyOpenings::Balanced { plies, .. }
                if plies > MAX_OPENING_PLIES =>
            {
                return Err(StudyError::OpeningPlies(plies));
            }
            _ => {}
        }
        for (i, player) in self.players.iter().enumerate() {
            if self.players[..i].contains(player) {
                return Err(StudyError::Duplicate(format!("player {player}")));
            }
        }
        self.agents()?;
        let mut games = Vec::with_capacity(self.rulesets.len());
        for (i, entry) in self.rulesets.iter().enumerate() {
            if self.rulesets[..i]
                .iter()
                .any(|r| r.label() == entry.label())
            {
                return Err(StudyError::Duplicate(format!("ruleset {}", entry.label())));
            }
            let game = registry
                .find(&entry.ruleset)
                .ok_or_else(|| StudyError::UnknownRuleset(entry.ruleset.clone()))?;
            let game = match &entry.board {
                None => game,
                Some(board) => {
                    if game.board_file().is_none() {
                        return Err(StudyError::Board {
                            ruleset: entry.ruleset.clone(),
                            reason: "its board is not read from a file".to_string(),
                        });
                    }
                    if board.text.len() > denkmeter_core::MAX_BOARD_FILE {
                        return Err(StudyError::Board {
                            ruleset: entry.label(),
                            reason: format!(
                                "the board file is {} bytes; the limit is {}",
                                board.text.len(),
                                denkmeter_core::MAX_BOARD_FILE
                            ),
                        });
                    }
                    game.with_board_file(&board.name, &board.text)
                        .map_err(|error| StudyError::Board {
                            ruleset: entry.label(),
                            reason: error.to_string(),
                        })?
                }
            };
            games.push(game);
        }
        Ok(games)
    }
}

/// A seed mixed from a study's seed and labels (splitmix64 over an FNV-1a hash of the
/// labels), so that a game's seed depends on its ruleset's name and its index, not on where
/// the ruleset stands in the list: adding a ruleset to a study leaves the others' games alone.
pub fn mix_seed(seed: u64, label: &str, index: u64) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in label.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    let mut z = seed
        .wrapping_add(hash.rotate_left(17))
        .wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry() -> Registry {
        Registry::from_list(denkmeter_games::visit_rulesets)
    }

    fn spec() -> StudySpec {
        StudySpec {
            rulesets: vec![
                StudyRuleset {
                    ruleset: "scandinavian-8x8".to_string(),
                    board: None,
                },
                StudyRuleset {
                    ruleset: "chad".to_string(),
                    board: None,
                },
            ],
            players: vec![
                "ab:d1".to_string(),
                "ab:d2".to_string(),
                "random".to_string(),
            ],
            games: 4,
            openings: StudyOpenings::RandomPlies { plies: 2 },
            max_plies: 200,
            adjudicate_margin: 200,
            seed: 7,
        }
    }

    #[test]
    fn the_games_are_numbered_so_that_the_first_ones_cover_every_cell() {
        let spec = spec();
        assert_eq!(spec.total_games(), 24);
        let first: Vec<(usize, usize)> = (0..6)
            .filter_map(|n| spec.slot(n))
            .map(|s| (s.ruleset, s.player))
            .collect();
        assert_eq!(first, [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]);
        let mut seen = std::collections::HashSet::new();
        for n in 0..24 {
            let slot = spec.slot(n).expect("a game");
            assert!(slot.index < 4);
            assert!(seen.insert((slot.ruleset, slot.player, slot.index)));
        }
        assert_eq!(spec.slot(24), None);
    }

    #[test]
    fn a_study_is_named_by_its_definition() {
        let spec = spec();
        assert_eq!(spec.id(), spec.clone().id());
        assert_eq!(spec.id().len(), 16);
        let other = StudySpec {
            seed: 8,
            ..spec.clone()
        };
        assert_ne!(spec.id(), other.id());
    }

    #[test]
    fn bad_definitions_are_refused_with_reasons() {
        let registry = registry();
        assert!(spec().resolve(&registry).is_ok());
        let unknown = StudySpec {
            rulesets: vec![StudyRuleset {
                ruleset: "chess".to_string(),
                board: None,
            }],
            ..spec()
        };
        assert_eq!(
            unknown.resolve(&registry).err(),
            Some(StudyError::UnknownRuleset("chess".to_string()))
        );
        let bad_player = StudySpec {
            players: vec!["ab:zz".to_string()],
            ..spec()
        };
        assert!(matches!(
            bad_player.resolve(&registry),
            Err(StudyError::Player { .. })
        ));
        let twice = StudySpec {
            players: vec!["ab:d1".to_string(), "ab:d1".to_string()],
            ..spec()
        };
        assert!(matches!(
            twice.resolve(&registry),
            Err(StudyError::Duplicate(_))
        ));
        let no_games = StudySpec { games: 0, ..spec() };
        assert_eq!(no_games.resolve(&registry).err(), Some(StudyError::NoGames));
        let board = StudySpec {
            rulesets: vec![StudyRuleset {
                ruleset: "chad".to_string(),
                board: Some(BoardFile {
                    name: "x".to_string(),
                    text: "x".to_string(),
                }),
            }],
            ..spec()
        };
        assert!(matches!(
            board.resolve(&registry),
            Err(StudyError::Board { .. })
        ));
        let huge = StudySpec {
            games: u32::MAX,
            ..spec()
        };
        assert!(matches!(
            huge.resolve(&registry),
            Err(StudyError::TooManyGames(_))
        ));
    }

    #[test]
    fn seeds_depend_on_the_label_not_the_list() {
        assert_eq!(mix_seed(1, "chad", 3), mix_seed(1, "chad", 3));
        assert_ne!(mix_seed(1, "chad", 3), mix_seed(1, "chad", 4));
        assert_ne!(mix_seed(1, "chad", 3), mix_seed(1, "shakti", 3));
        assert_ne!(mix_seed(1, "chad", 3), mix_seed(2, "chad", 3));
    }
}

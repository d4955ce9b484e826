//! Playing one game of a study and measuring it.

use std::time::Instant;

use denkmeter_core::{ByPlayer, Player};
use denkmeter_engine::dynamic::AnyGame;
use denkmeter_engine::matches::{balanced_random_opening, play_on, random_opening, Opening};
use denkmeter_engine::Agent;
use serde::{Deserialize, Serialize};

use crate::study::{mix_seed, GameSlot, StudyOpenings, StudySpec};

/// A side of a game, named by who moves first under the rules, not by colour (in English
/// checkers Black moves first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    First,
    Second,
}

/// One game of a study as it is stored: its result and what was measured along it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameMeasure {
    /// The winner, `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended: the key of its [`denkmeter_core::Reason`] (`no moves`,
    /// `threefold repetition`, `adjudication on material`...).
    pub reason: String,
    /// For a game decided by a score whose breakdown names what ended it (Schada's five
    /// endings: home, blocked, repetition, shuffling, stuck), that cause, the players' names
    /// left out: `every high piece of a player stands on its goal line`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<String>,
    /// The points counted at the end of a game decided by a score: the first player's and the
    /// second's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<[i64; 2]>,
    /// Plies played from the start, the opening's included.
    pub plies: u32,
    /// Plies of the random opening.
    pub opening_plies: u32,
    /// Whether the game was stopped at the study's ply limit and adjudicated.
    #[serde(default)]
    pub adjudicated: bool,
    /// The number of legal moves before each ply from the start: the branching factor along the
    /// game (one number per ply played).
    pub branching: Vec<u32>,
    /// The game's moves from the start, separated by spaces.
    pub moves: String,
    /// The time the game took, opening search included, in milliseconds.
    pub millis: u64,
}

impl GameMeasure {
    /// The first player's result: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn first_score(&self) -> f64 {
        match self.winner {
            Some(Side::First) => 1.0,
            Some(Side::Second) => 0.0,
            None => 0.5,
        }
    }
}

/// Why a game of a study could not be played (an opening that cannot be found, a position
/// the rules refuse): the study's definition is at fault, not the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{ruleset}, game {index}: {reason}")]
pub struct PlayError {
    pub ruleset: String,
    pub index: u32,
    pub reason: String,
}

/// The opening of a game of a study: the same for every player of the ruleset.
pub fn study_opening(
    spec: &StudySpec,
    game: &dyn AnyGame,
    slot: GameSlot,
) -> Result<Opening, PlayError> {
    let label = spec.rulesets[slot.ruleset].label();
    let seed = mix_seed(
        spec.seed,
        &format!("opening {label}"),
        u64::from(slot.index),
    );
    let opening = match spec.openings {
        StudyOpenings::Start => Ok(Opening::default()),
        StudyOpenings::RandomPlies { plies } => random_opening(game, plies, seed),
        StudyOpenings::Balanced { plies, margin } => {
            balanced_random_opening(game, plies, margin, seed)
        }
    };
    opening.map_err(|error| PlayError {
        ruleset: label,
        index: slot.index,
        reason: error.to_string(),
    })
}

/// Plays game `slot` of `spec` on `game` (its ruleset, resolved) from `opening` (see
/// [`study_opening`]) with `agent` on both sides, and measures it. The same study and slot
/// always give the same game whenever the agent's limits do not depend on the clock.
pub fn play_slot(
    spec: &StudySpec,
    game: &dyn AnyGame,
    agent: Agent,
    slot: GameSlot,
    opening: &Opening,
) -> Result<GameMeasure, PlayError> {
    let started = Instant::now();
    let label = spec.rulesets[slot.ruleset].label();
    let failed = |reason: String| PlayError {
        ruleset: label.clone(),
        index: slot.index,
        reason,
    };
    let mut session = game.new_game(None).map_err(|e| failed(e.to_string()))?;
    let first = session.first_to_move();
    let mut branching = Vec::new();
    for text in &opening.moves {
        branching.push(count(session.legal_move_count()));
        session
            .play(text)
            .map_err(|e| failed(format!("opening move {text}: {e}")))?;
    }
    let opening_plies = count(opening.moves.len());
    let seed = mix_seed(
        spec.seed,
        &format!("game {label} {}", spec.players[slot.player]),
        u64::from(slot.index),
    );
    let played = play_on(
        session,
        ByPlayer::new(agent, agent),
        spec.max_plies as usize,
        spec.adjudicate_margin,
        seed,
        |session| branching.push(count(session.legal_move_count())),
    );
    let side = |player: Player| {
        if player == first {
            Side::First
        } else {
            Side::Second
        }
    };
    let outcome = &played.outcome;
    let score = outcome.score.as_ref().map(|score| {
        if first == Player::White {
            [score.white, score.black]
        } else {
            [score.black, score.white]
        }
    });
    let moves = played.session.moves().join(" ");
    // A game that ends with no move chosen (or a move refused) was observed once more than it
    // played.
    branching.truncate(played.session.moves().len());
    Ok(GameMeasure {
        winner: outcome.winner.map(side),
        reason: outcome.reason.key().to_string(),
        cause: outcome.score.as_ref().and_then(|s| cause(&s.breakdown)),
        score,
        plies: count(played.session.moves().len()),
        opening_plies,
        adjudicated: played.adjudicated,
        branching,
        moves,
        millis: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
    })
}

/// What ended a scored game, from its breakdown (`CAUSE; counts; verdict`), without the
/// players' names, so that the same ending counts once whoever it befell.
fn cause(breakdown: &str) -> Option<String> {
    let (cause, _) = breakdown.split_once(';')?;
    let cause = cause
        .trim()
        .replace("White's", "a player's")
        .replace("Black's", "a player's")
        .replace("White", "a player")
        .replace("Black", "a player");
    (!cause.is_empty()).then_some(cause)
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::StudyRuleset;
    use denkmeter_engine::Registry;

    fn spec(ruleset: &str, openings: StudyOpenings) -> StudySpec {
        StudySpec {
            rulesets: vec![StudyRuleset {
                ruleset: ruleset.to_string(),
                board: None,
            }],
            players: vec!["ab:d2".to_string(), "random".to_string()],
            games: 4,
            openings,
            max_plies: 300,
            adjudicate_margin: 200,
            seed: 3,
        }
    }

    fn play(spec: &StudySpec, number: u64) -> GameMeasure {
        let registry = Registry::from_list(denkmeter_games::visit_rulesets);
        let games = spec.resolve(&registry).expect("a good study");
        let agents = spec.agents().expect("players");
        let slot = spec.slot(number).expect("a game");
        let game = games[slot.ruleset].as_ref();
        let opening = study_opening(spec, game, slot).expect("an opening");
        play_slot(spec, game, agents[slot.player], slot, &opening).expect("a game")
    }

    #[test]
    fn a_game_is_measured_ply_by_ply_and_repeats_from_its_seed() {
        let spec = spec("scandinavian-8x8", StudyOpenings::RandomPlies { plies: 3 });
        let game = play(&spec, 0);
        assert_eq!(game.opening_plies, 3);
        assert_eq!(game.branching.len(), game.plies as usize);
        assert_eq!(game.moves.split(' ').count(), game.plies as usize);
        // Seven moves for the side to move at the start of 8x8 draughts.
        assert_eq!(game.branching[0], 7);
        assert!(game.branching.iter().all(|&n| n > 0));
        let again = play(&spec, 0);
        assert_eq!(
            GameMeasure { millis: 0, ..again },
            GameMeasure {
                millis: 0,
                ..game.clone()
            }
        );
        // Game 2 is the same player's next game: another opening.
        let next = play(&spec, 2);
        assert_ne!(next.moves, game.moves);
        // The random player of game 1 has the same opening as game 0.
        let random = play(&spec, 1);
        let opening = |g: &GameMeasure| g.moves.split(' ').take(3).collect::<Vec<_>>().join(" ");
        assert_eq!(opening(&random), opening(&game));
    }

    #[test]
    fn the_first_player_is_who_moves_first_under_the_rules() {
        // English checkers: Black moves first. Random players end their games with a winner
        // who made the last move; the side counted must agree with the number of plies.
        let spec = spec("english", StudyOpenings::Start);
        let mut stalled = 0;
        for number in [1, 3, 5, 7] {
            let game = play(&spec, number);
            if game.reason == "no moves" {
                stalled += 1;
                // The player to move after an odd number of plies is the second: he lost.
                let loser = if game.plies % 2 == 0 {
                    Side::First
                } else {
                    Side::Second
                };
                assert_ne!(game.winner, Some(loser), "{game:?}");
                assert!(game.winner.is_some());
            }
        }
        assert!(
            stalled > 0,
            "no game of random players ended with a player unable to move"
        );
    }

    #[test]
    fn a_scored_ending_keeps_its_cause_without_names() {
        assert_eq!(
            cause("Black's high pieces are blocked; goal line 1-2; Black wins"),
            Some("a player's high pieces are blocked".to_string())
        );
        assert_eq!(cause("Black's camel conquered White's home-field f1"), None);
        let spec = spec("schada", StudyOpenings::RandomPlies { plies: 2 });
        let scored: Vec<GameMeasure> = [1, 3, 5]
            .into_iter()
            .map(|n| play(&spec, n))
            .filter(|g| g.reason == "score")
            .collect();
        assert!(
            !scored.is_empty(),
            "no Schada game of random players was scored"
        );
        for game in scored {
            let cause = game.cause.expect("Schada says what ended the game");
            assert!(
                !cause.contains("White") && !cause.contains("Black"),
                "{cause}"
            );
        }
    }

    #[test]
    fn scored_games_keep_the_score_by_side() {
        let spec = spec("straat", StudyOpenings::Start);
        let game = play(&spec, 1);
        let [first, second] = game.score.expect("Straat is decided by a score");
        {
            match game.winner {
                Some(Side::First) => assert!(first > second, "{game:?}"),
                Some(Side::Second) => assert!(second > first, "{game:?}"),
                None => assert_eq!(first, second),
            }
        }
    }
}

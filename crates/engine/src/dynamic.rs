//! The object-safe layer over [`Game`]: what the command line and the server use to handle any
//! ruleset by name, with moves and positions as text.
//!
//! It lives in the engine crate rather than in core because it offers search (the computer's
//! move) and perft to its callers, and the engine must not depend on the games.

use std::fmt::Debug;
use std::sync::Arc;

use denkmeter_core::{
    Board, Game, MoveError, MoveView, Outcome, Player, Playthrough, PositionError, PositionView,
    Record, RecordError, Status, Viewer,
};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::alphabeta::{self, SearchLimits};
use crate::mcts::{self, Limits, MctsConfig};
use crate::perft;

/// A legal move as text with what a person clicks for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalMove {
    pub text: String,
    pub view: MoveView,
}

/// A ruleset, whatever its game.
pub trait AnyGame: Debug + Send + Sync {
    fn name(&self) -> &str;
    /// The game's module name, which names its rules page.
    fn family(&self) -> &'static str;
    fn description(&self) -> &str;
    fn board(&self) -> &Board;
    fn has_hidden_information(&self) -> bool;
    fn start_position(&self) -> String;
    /// A new game from the start or from a position string.
    fn new_game(&self, position: Option<&str>) -> Result<Box<dyn AnySession>, PositionError>;
    /// A game replayed from a record through the rules.
    fn load_record(&self, record: &Record) -> Result<Box<dyn AnySession>, RecordError>;
    /// `(depth, count)` for every depth from 1 to `depth`.
    fn perft(&self, position: Option<&str>, depth: u32) -> Result<Vec<(u32, u64)>, PositionError>;
}

/// A game being played, whatever its rules.
pub trait AnySession: Debug + Send + Sync {
    fn ruleset(&self) -> &str;
    fn position(&self) -> String;
    fn to_move(&self) -> Player;
    /// The status, counting repetition and endings by agreement.
    fn status(&self) -> Status;
    fn legal_moves(&self) -> Vec<LegalMove>;
    /// Plays a move given as text; returns its text as the game writes it.
    fn play(&mut self, text: &str) -> Result<String, MoveError>;
    /// The moves so far, as written.
    fn moves(&self) -> &[String];
    /// The moves so far as `viewer` may see them.
    fn moves_for(&self, viewer: Viewer) -> Vec<String>;
    /// The last move as `viewer` may see it.
    fn last_move(&self, viewer: Viewer) -> Option<LegalMove>;
    /// The start position's string.
    fn start_position(&self) -> String;
    /// Who moved first.
    fn first_to_move(&self) -> Player;
    fn view(&self, viewer: Viewer) -> PositionView;
    /// Ends the game by resignation, agreement or adjudication.
    fn end(&mut self, outcome: Outcome);
    /// The computer's choice for the side to move, as text; `None` if there is no move.
    /// For hidden-information games it searches a state sampled from what the mover sees.
    fn computer_move(&self, limits: Limits, seed: u64) -> Option<String>;
    /// The alpha-beta search's choice for the side to move, as text. For hidden-information
    /// games it searches a state sampled from what the mover sees.
    fn alphabeta_move(&self, limits: SearchLimits, seed: u64) -> Option<String>;
    /// A uniformly random legal move, as text.
    fn random_move(&self, seed: u64) -> Option<String>;
    fn record(&self, tags: &[(&str, &str)]) -> Record;
    fn box_clone(&self) -> Box<dyn AnySession>;
}

/// Wraps a [`Game`] as an [`AnyGame`].
#[derive(Clone, Debug)]
pub struct Ruleset<G: Game>(pub G);

impl<G: Game> Ruleset<G> {
    /// The ruleset behind a shared pointer, as registries hold it.
    pub fn shared(game: G) -> Arc<dyn AnyGame> {
        Arc::new(Ruleset(game))
    }

    fn state(&self, position: Option<&str>) -> Result<G::State, PositionError> {
        match position {
            Some(text) => self.0.parse_position(text),
            None => Ok(self.0.start()),
        }
    }
}

impl<G: Game> AnyGame for Ruleset<G> {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn family(&self) -> &'static str {
        self.0.family()
    }

    fn description(&self) -> &str {
        self.0.description()
    }

    fn board(&self) -> &Board {
        self.0.board()
    }

    fn has_hidden_information(&self) -> bool {
        self.0.has_hidden_information()
    }

    fn start_position(&self) -> String {
        self.0.position_text(&self.0.start())
    }

    fn new_game(&self, position: Option<&str>) -> Result<Box<dyn AnySession>, PositionError> {
        let state = self.state(position)?;
        Ok(Box::new(Session(Playthrough::from_state(
            self.0.clone(),
            state,
        ))))
    }

    fn load_record(&self, record: &Record) -> Result<Box<dyn AnySession>, RecordError> {
        Ok(Box::new(Session(record.replay(self.0.clone())?)))
    }

    fn perft(&self, position: Option<&str>, depth: u32) -> Result<Vec<(u32, u64)>, PositionError> {
        let state = self.state(position)?;
        Ok(perft::perft_table(&self.0, &state, depth))
    }
}

/// Wraps a [`Playthrough`] as an [`AnySession`].
#[derive(Clone, Debug)]
pub struct Session<G: Game>(pub Playthrough<G>);

impl<G: Game> AnySession for Session<G> {
    fn ruleset(&self) -> &str {
        self.0.game().name()
    }

    fn position(&self) -> String {
        self.0.game().position_text(self.0.state())
    }

    fn to_move(&self) -> Player {
        self.0.to_move()
    }

    fn status(&self) -> Status {
        self.0.status()
    }

    fn legal_moves(&self) -> Vec<LegalMove> {
        let game = self.0.game();
        let state = self.0.state();
        let mut moves = Vec::new();
        self.0.legal_moves(&mut moves);
        moves
            .into_iter()
            .map(|m| LegalMove {
                text: game.move_text(state, m),
                view: game.move_view(state, m),
            })
            .collect()
    }

    fn play(&mut self, text: &str) -> Result<String, MoveError> {
        self.0.play_text(text)?;
        Ok(self.0.move_texts().last().cloned().unwrap_or_default())
    }

    fn moves(&self) -> &[String] {
        self.0.move_texts()
    }

    fn moves_for(&self, viewer: Viewer) -> Vec<String> {
        let game = self.0.game();
        let first = game.to_move(self.0.start());
        self.0
            .move_texts()
            .iter()
            .enumerate()
            .map(|(ply, text)| {
                let mover = if ply % 2 == 0 { first } else { !first };
                game.move_text_for(text, mover, viewer)
            })
            .collect()
    }

    fn last_move(&self, viewer: Viewer) -> Option<LegalMove> {
        let game = self.0.game();
        let (before, mv) = self.0.last_move()?;
        let text = game.move_text(before, mv);
        Some(LegalMove {
            text: game.move_text_for(&text, game.to_move(before), viewer),
            view: game.move_view(before, mv),
        })
    }

    fn start_position(&self) -> String {
        self.0.game().position_text(self.0.start())
    }

    fn first_to_move(&self) -> Player {
        self.0.game().to_move(self.0.start())
    }

    fn view(&self, viewer: Viewer) -> PositionView {
        self.0.game().position_view(self.0.state(), viewer)
    }

    fn end(&mut self, outcome: Outcome) {
        self.0.end(outcome);
    }

    fn computer_move(&self, limits: Limits, seed: u64) -> Option<String> {
        let game = self.0.game();
        let mut legal = Vec::new();
        self.0.legal_moves(&mut legal);
        if legal.is_empty() {
            return None;
        }
        let mover = self.0.to_move();
        let state = if game.has_hidden_information() {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5eed);
            game.sample(&game.observe(self.0.state(), mover), &mut rng)
        } else {
            self.0.state().clone()
        };
        let report = mcts::search(game, &state, &MctsConfig::new(limits, seed))?;
        // The search ignores the game's history; never choose a move the repetition rule forbids.
        let best = if legal.contains(&report.best) {
            report.best
        } else {
            legal[0]
        };
        Some(game.move_text(self.0.state(), best))
    }

    fn alphabeta_move(&self, limits: SearchLimits, seed: u64) -> Option<String> {
        let game = self.0.game();
        let mut legal = Vec::new();
        self.0.legal_moves(&mut legal);
        let mover = self.0.to_move();
        let state = if game.has_hidden_information() {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5eed);
            game.sample(&game.observe(self.0.state(), mover), &mut rng)
        } else {
            self.0.state().clone()
        };
        let found = alphabeta::search(game, &state, limits)?;
        let best = if legal.contains(&found.best) {
            found.best
        } else {
            *legal.first()?
        };
        Some(game.move_text(self.0.state(), best))
    }

    fn random_move(&self, seed: u64) -> Option<String> {
        use rand::seq::SliceRandom;
        let mut legal = Vec::new();
        self.0.legal_moves(&mut legal);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mv = *legal.choose(&mut rng)?;
        Some(self.0.game().move_text(self.0.state(), mv))
    }

    fn record(&self, tags: &[(&str, &str)]) -> Record {
        Record::of(&self.0, tags)
    }

    fn box_clone(&self) -> Box<dyn AnySession> {
        Box::new(self.clone())
    }
}

/// Playing strength: level `n` searches a fixed number of iterations, stopping early at the
/// level's time limit. A seeded game is reproducible whenever the iterations finish within the
/// time limit (always for the low levels).
pub fn level_limits(level: u8) -> Option<Limits> {
    let (iterations, seconds) = match level {
        1 => (100, 1.0),
        2 => (400, 1.0),
        3 => (1_500, 2.0),
        4 => (5_000, 3.0),
        5 => (15_000, 5.0),
        6 => (50_000, 10.0),
        _ => return None,
    };
    Some(Limits {
        iterations: Some(iterations),
        time: Some(std::time::Duration::from_secs_f64(seconds)),
    })
}

/// The highest level.
pub const MAX_LEVEL: u8 = 6;

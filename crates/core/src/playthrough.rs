//! A game being played: the start, the moves so far, repetition tracking and endings that the
//! board alone does not show (resignation, agreement, adjudication). Common to every game.

use crate::{Game, MoveError, Outcome, Player, Reason, RepetitionRule, Status};

/// A game in progress or finished, with its history.
#[derive(Clone, Debug)]
pub struct Playthrough<G: Game> {
    game: G,
    start: G::State,
    state: G::State,
    moves: Vec<G::Move>,
    texts: Vec<String>,
    /// `hashes[i]` is the repetition hash ([`Game::repetition_hash`]) of the position after
    /// `i` moves.
    hashes: Vec<u64>,
    /// The position before the last move.
    previous: Option<G::State>,
    ended: Option<Outcome>,
}

impl<G: Game> Playthrough<G> {
    /// A game from the ruleset's start position.
    pub fn new(game: G) -> Self {
        let start = game.start();
        Self::from_state(game, start)
    }

    /// A game from any position.
    pub fn from_state(game: G, start: G::State) -> Self {
        let hash = game.repetition_hash(&start);
        Playthrough {
            state: start.clone(),
            start,
            game,
            moves: Vec::new(),
            texts: Vec::new(),
            hashes: vec![hash],
            previous: None,
            ended: None,
        }
    }

    pub fn game(&self) -> &G {
        &self.game
    }

    pub fn start(&self) -> &G::State {
        &self.start
    }

    pub fn state(&self) -> &G::State {
        &self.state
    }

    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The moves in notation, as they were written when played.
    pub fn move_texts(&self) -> &[String] {
        &self.texts
    }

    /// The last move and the position it was played in.
    pub fn last_move(&self) -> Option<(&G::State, G::Move)> {
        Some((self.previous.as_ref()?, *self.moves.last()?))
    }

    pub fn to_move(&self) -> Player {
        self.game.to_move(&self.state)
    }

    /// The repetition hashes ([`Game::repetition_hash`]) of every position so far, the start
    /// first and the current one last.
    pub fn repetition_hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// How often the current position has occurred, this time included.
    pub fn repetitions(&self) -> usize {
        let now = self.hashes[self.hashes.len() - 1];
        self.hashes.iter().filter(|&&h| h == now).count()
    }

    /// The status, counting repetition and endings by agreement.
    pub fn status(&self) -> Status {
        if let Some(outcome) = &self.ended {
            return Status::Over(outcome.clone());
        }
        let status = self.game.status(&self.state);
        if status.is_over() {
            return status;
        }
        if self.game.facts().repetition == RepetitionRule::DrawOnThird && self.repetitions() >= 3 {
            return Status::Over(self.game.ending_by_repetition(&self.state));
        }
        if let Some(outcome) = self.game.ending_by_history(&self.start, &self.moves) {
            return Status::Over(outcome);
        }
        status
    }

    /// The legal moves now, after the repetition rule; none once the game is over. When
    /// [`RepetitionRule::ForbidThird`] forbids every move, the game's pass (if it has one) is
    /// the only move.
    pub fn legal_moves(&self, moves: &mut Vec<G::Move>) {
        moves.clear();
        if self.status().is_over() {
            return;
        }
        self.game.legal_moves(&self.state, moves);
        if self.game.facts().repetition == RepetitionRule::ForbidThird && !moves.is_empty() {
            moves.retain(|&m| !forbidden_by_repetition(&self.game, &self.hashes, &self.state, m));
            if moves.is_empty() {
                moves.extend(self.game.pass(&self.state));
            }
        }
    }

    /// Plays a legal move; anything else is refused and changes nothing.
    pub fn play(&mut self, mv: G::Move) -> Result<(), MoveError> {
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let text = self.game.move_text(&self.state, mv);
        if !legal.contains(&mv) {
            let reason = if self.status().is_over() {
                "the game is over"
            } else {
                "not among the legal moves"
            };
            return Err(MoveError::illegal(&text, reason));
        }
        self.previous = Some(self.state.clone());
        self.game.play_unchecked(&mut self.state, mv);
        self.moves.push(mv);
        self.texts.push(text);
        self.hashes.push(self.game.repetition_hash(&self.state));
        Ok(())
    }

    /// Reads a move in the game's notation and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<G::Move, MoveError> {
        if let Status::Over(outcome) = self.status() {
            return Err(MoveError::illegal(
                text,
                format!("the game is over ({outcome})"),
            ));
        }
        let mv = match self.game.parse_move(&self.state, text) {
            Ok(mv) => mv,
            // A move that only the history makes legal: the pass the repetition ban forces.
            Err(error) => {
                let mut legal = Vec::new();
                self.legal_moves(&mut legal);
                legal
                    .into_iter()
                    .find(|&m| {
                        self.game
                            .move_text(&self.state, m)
                            .eq_ignore_ascii_case(text.trim())
                    })
                    .ok_or(error)?
            }
        };
        self.play(mv)?;
        Ok(mv)
    }

    /// Ends the game by something other than the board: resignation, agreement, adjudication.
    /// Does nothing if the game is already over.
    pub fn end(&mut self, outcome: Outcome) {
        if !self.status().is_over() {
            self.ended = Some(outcome);
        }
    }

    /// `player` resigns.
    pub fn resign(&mut self, player: Player) {
        self.end(Outcome::win(player.opponent(), Reason::Resignation));
    }
}

/// Whether `mv` from `state` is forbidden by [`RepetitionRule::ForbidThird`]: the game has that
/// rule and the position after it has occurred twice in `hashes`, the repetition hashes
/// ([`Game::repetition_hash`]) of the positions so far, `state`'s included.
pub fn forbidden_by_repetition<G: Game>(
    game: &G,
    hashes: &[u64],
    state: &G::State,
    mv: G::Move,
) -> bool {
    if game.facts().repetition != RepetitionRule::ForbidThird {
        return false;
    }
    let mut next = state.clone();
    game.play_unchecked(&mut next, mv);
    let h = game.repetition_hash(&next);
    hashes.iter().filter(|&&x| x == h).count() >= 2
}

//! The object-safe layer over [`Game`]: what the command line and the server use to handle any
//! ruleset by name, with moves and positions as text.
//!
//! It lives in the engine crate rather than in core because it offers search (the computer's
//! move) to its callers; the rules crate knows only core, and the engine wraps its rulesets
//! (see [`crate::Registry`]).

use std::fmt::Debug;
use std::sync::Arc;

use denkmeter_core::{
    editor, perft, Board, BoardFileError, Cell, EditorToken, Facts, Game, Highlight, MoveError,
    MoveView, Outcome, Player, Playthrough, PositionError, PositionView, Record, RecordError,
    SearchKind, Status, Viewer,
};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::agent::{alphabeta_level, level_limits};
use crate::endgame::{self, SolutionText, SolveError};
use crate::mcts::{self, MctsConfig};
use crate::puzzles::{self, FindLimits, PuzzleDefect};
use crate::search::{self, DepthReport, SearchOptions, SearchTable};
use crate::{ismcts, pimc};
use crate::{Agent, Limits, TimePlan};

/// One completed depth of an analysis, its line in the game's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisLine {
    pub depth: u32,
    /// For the side to move, in hundredths of the game's basic unit; see
    /// [`search::eval::score_text`].
    pub score: i32,
    pub nodes: u64,
    pub elapsed: std::time::Duration,
    /// The principal variation, the best move first.
    pub pv: Vec<String>,
}

/// A legal move as text with what a person clicks for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalMove {
    pub text: String,
    pub view: MoveView,
}

/// A ruleset, whatever its game.
pub trait AnyGame: Debug + Send + Sync {
    /// The ruleset's name, family, description, rules page and fixed parameters.
    fn facts(&self) -> &Facts;
    fn name(&self) -> &'static str {
        self.facts().name
    }
    fn board(&self) -> &Board;
    fn start_position(&self) -> String;
    /// A new game from the start or from a position string.
    fn new_game(&self, position: Option<&str>) -> Result<Box<dyn AnySession>, PositionError>;
    /// A game replayed from a record through the rules.
    fn load_record(&self, record: &Record) -> Result<Box<dyn AnySession>, RecordError>;
    /// `(depth, count)` for every depth from 1 to `depth`.
    fn perft(&self, position: Option<&str>, depth: u32) -> Result<Vec<(u32, u64)>, PositionError>;
    /// The exact value, every best move and a best line of a position (the start if `None`)
    /// at most `max_plies` plies from the end, within the node and time limits of `limits`
    /// (see [`endgame::solve`]).
    fn solve(
        &self,
        position: Option<&str>,
        max_plies: u32,
        limits: Limits,
    ) -> Result<SolutionText, SolveError>;
    /// The board file the ruleset is played on, `(name, text)`, if its board is data.
    fn board_file(&self) -> Option<(&str, &str)>;
    /// The same ruleset on the board a board file describes, named `name` in records.
    fn with_board_file(&self, name: &str, text: &str) -> Result<Arc<dyn AnyGame>, BoardFileError>;
    /// What may stand on a cell of a position set up by hand (see [`Game::editor_tokens`]).
    fn editor_tokens(&self) -> Vec<EditorToken>;
    /// The position with `placed` tokens on their cells and `to_move` to move, as the rules
    /// write it, or why the rules refuse it.
    fn compose_position(
        &self,
        placed: &[(Cell, String)],
        to_move: Player,
    ) -> Result<String, PositionError>;
    /// The token on each occupied cell of `position`, as the board editor shows it.
    fn position_grid(&self, position: &str) -> Result<Vec<(Cell, String)>, PositionError>;
    /// A puzzle at a position ([`puzzles::find`]): the winner's moves and the solution in the
    /// game's notation, or `None`.
    #[allow(clippy::type_complexity)]
    fn find_puzzle(
        &self,
        position: &str,
        limits: FindLimits,
        table: &mut SearchTable,
    ) -> Result<Option<(u32, Vec<String>)>, PositionError>;
    /// Proves a puzzle's solution with the mate solver ([`puzzles::check`]), each of the
    /// solver's questions within `nodes` positions ([`puzzles::check_line_within`]).
    fn check_puzzle(
        &self,
        position: &str,
        moves: u32,
        line: &[String],
        nodes: u64,
    ) -> Result<(), PuzzleDefect>;
}

/// A game being played, whatever its rules.
pub trait AnySession: Debug + Send + Sync {
    fn ruleset(&self) -> &str;
    fn position(&self) -> String;
    /// The position as a FEN, where the ruleset has one (see [`Game::fen`]).
    fn fen(&self) -> Option<String>;
    fn to_move(&self) -> Player;
    /// The status, counting repetition and endings by agreement.
    fn status(&self) -> Status;
    /// White's material minus Black's in hundredths of the game's basic piece, `None` for a
    /// game without material (see [`Game::material`]).
    fn material(&self) -> Option<i32>;
    fn legal_moves(&self) -> Vec<LegalMove>;
    /// How many legal moves the side to move has (0 when the game is over): the branching
    /// factor, without writing the moves out.
    fn legal_move_count(&self) -> usize;
    /// The legal moves as `viewer` may see them before they are made (see
    /// [`Game::move_view_for`]): what the player to move is offered.
    fn legal_moves_for(&self, viewer: Viewer) -> Vec<LegalMove>;
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
    /// The position seen from the back of a transparent board, in front coordinates; `None`
    /// for a board with one side (see [`Game::back_view`]).
    fn back_view(&self, viewer: Viewer) -> Option<PositionView>;
    /// The regions to point out on either side (see [`Game::highlights`]).
    fn highlights(&self, viewer: Viewer) -> Vec<Highlight>;
    /// Words asking for a secret, final choice now (see [`Game::secret_choice_prompt`]).
    fn secret_choice_prompt(&self) -> Option<&'static str>;
    /// What `player` alone knows now, in words (see [`Game::secret_note`]).
    fn secret_note(&self, player: Player) -> Option<String>;
    /// Ends the game by resignation, agreement or adjudication.
    fn end(&mut self, outcome: Outcome);
    /// The agent's choice for the side to move, as text; `None` if there is no move. A search
    /// is given only what the mover knows ([`Game::observation`]): in a game that hides
    /// something the computer runs information-set MCTS over it; `mcts:` and `ab:` search one
    /// state drawn from it. The same seed gives the same move whenever the agent's limits do
    /// not depend on the clock.
    fn choose_move(&self, agent: &Agent, seed: u64) -> Option<String> {
        self.choose_move_within(agent, seed, None, None)
    }
    /// [`AnySession::choose_move`] for a computer on the clock: the time this turn may take
    /// (`plan`, if given) bounds the agent's own time limit. Alpha-beta manages it (about
    /// the plan's target, up to its most when unsure, at once when the move is forced); the
    /// other searches spend the target.
    ///
    /// With `table`, an alpha-beta player ([`Agent::AlphaBeta`]) searches in that table, as
    /// an engine playing a game keeps one from move to move: it starts from what the searches
    /// of the earlier moves learnt, and pays for no new table's pages inside its search. The
    /// same seed and the same earlier searches in it give the same move. Without one every
    /// search builds its own, and so do the computer's levels always: they play as the
    /// server plays them (a search of its own a move), so that a level measured by `match`
    /// is the level the server rates, and a noisy level's scores stay its own.
    fn choose_move_within(
        &self,
        agent: &Agent,
        seed: u64,
        plan: Option<TimePlan>,
        table: Option<&mut SearchTable>,
    ) -> Option<String>;
    /// Searches the position with alpha-beta (`options.history` is ignored: the game's own
    /// history counts), calling `on_depth` after every completed depth; the last line, or
    /// `None` if the game is over. Like [`AnySession::choose_move`] it searches only what the
    /// side to move knows: where something is hidden, over drawings of it ([`crate::pimc`]),
    /// a line per pass with the mover's best move alone, never a guess at the hidden part.
    fn analyse(
        &self,
        options: &SearchOptions,
        on_depth: &mut dyn FnMut(&AnalysisLine),
    ) -> Option<AnalysisLine>;
    /// [`AnySession::analyse`] over the position as it really is, hidden parts included: the
    /// review of a finished game, where nothing is secret any more. In a game without secrets
    /// it is the same search.
    fn analyse_known(
        &self,
        options: &SearchOptions,
        on_depth: &mut dyn FnMut(&AnalysisLine),
    ) -> Option<AnalysisLine>;
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
    fn facts(&self) -> &Facts {
        self.0.facts()
    }

    fn board(&self) -> &Board {
        self.0.board()
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

    fn solve(
        &self,
        position: Option<&str>,
        max_plies: u32,
        limits: Limits,
    ) -> Result<SolutionText, SolveError> {
        let state = self.state(position)?;
        endgame::solve_text(&self.0, &state, max_plies, limits)
    }

    fn board_file(&self) -> Option<(&str, &str)> {
        self.0.board_file()
    }

    fn with_board_file(&self, name: &str, text: &str) -> Result<Arc<dyn AnyGame>, BoardFileError> {
        Ok(Ruleset::shared(self.0.with_board_file(name, text)?))
    }

    fn editor_tokens(&self) -> Vec<EditorToken> {
        self.0.editor_tokens()
    }

    fn compose_position(
        &self,
        placed: &[(Cell, String)],
        to_move: Player,
    ) -> Result<String, PositionError> {
        let rows = self.0.board().position_rows();
        let text = editor::compose(rows, &self.0.editor_tokens(), placed, to_move)?;
        let state = self.0.parse_position(&text)?;
        Ok(self.0.position_text(&state))
    }

    fn position_grid(&self, position: &str) -> Result<Vec<(Cell, String)>, PositionError> {
        // As the rules write it: a string typed by hand may be written differently.
        let state = self.0.parse_position(position)?;
        editor::decompose(
            self.0.board().position_rows(),
            &self.0.position_text(&state),
        )
    }

    fn find_puzzle(
        &self,
        position: &str,
        limits: FindLimits,
        table: &mut SearchTable,
    ) -> Result<Option<(u32, Vec<String>)>, PositionError> {
        let state = self.0.parse_position(position)?;
        let Some(found) = puzzles::find(&self.0, &state, limits, table) else {
            return Ok(None);
        };
        Ok(Some((found.moves, pv_texts(&self.0, &state, &found.line))))
    }

    fn check_puzzle(
        &self,
        position: &str,
        moves: u32,
        line: &[String],
        nodes: u64,
    ) -> Result<(), PuzzleDefect> {
        puzzles::check_line_within(&self.0, position, moves, line, nodes)
    }
}

/// Wraps a [`Playthrough`] as an [`AnySession`].
#[derive(Clone, Debug)]
pub struct Session<G: Game>(pub Playthrough<G>);

impl<G: Game> Session<G> {
    /// The repetition hashes of the positions before the current one, for a search.
    fn history(&self) -> Vec<u64> {
        let hashes = self.0.repetition_hashes();
        hashes[..hashes.len().saturating_sub(1)].to_vec()
    }

    /// Alpha-beta over `state` (the game's position, or a drawing of it) with the game's
    /// history, calling `on_depth` after every completed depth; the last line.
    fn search_state(
        &self,
        state: &G::State,
        options: &SearchOptions,
        on_depth: &mut dyn FnMut(&AnalysisLine),
    ) -> Option<AnalysisLine> {
        let game = self.0.game();
        let options = SearchOptions {
            history: self.history(),
            quiet_plies: match options.quiet_ply_limit {
                Some(_) => self.plies_since_gain(),
                None => 0,
            },
            ..options.clone()
        };
        let mut last = None;
        search::search_with(game, state, &options, &mut |report| {
            let l = AnalysisLine {
                depth: report.depth,
                score: report.score,
                nodes: report.nodes,
                elapsed: report.elapsed,
                pv: pv_texts(game, state, &report.pv),
            };
            on_depth(&l);
            last = Some(l);
        })?;
        last
    }

    /// The plies in a row, up to now, whose moves won nothing ([`Game::move_gain`] 0: no
    /// capture), replayed from the game's start.
    fn plies_since_gain(&self) -> u32 {
        let game = self.0.game();
        let mut state = self.0.start().clone();
        let mut quiet = 0;
        for &mv in self.0.moves() {
            quiet = if game.move_gain(&state, mv) > 0 {
                0
            } else {
                quiet + 1
            };
            game.play_unchecked(&mut state, mv);
        }
        quiet
    }
}

/// Which search an agent runs in a game, with its limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    MonteCarlo(Limits),
    InformationSet(Limits),
    /// `tables`: whether it uses the endgame databases ([`SearchOptions::endgame_tables`]).
    AlphaBeta {
        limits: Limits,
        noise: u32,
        tables: bool,
    },
    /// Alpha-beta over several drawings of what is hidden ([`crate::pimc`]).
    Sampled {
        limits: Limits,
        noise: u32,
        tables: bool,
    },
}

impl Plan {
    /// The computer's levels use the search the game plays best with ([`Facts::search`]),
    /// over drawings of the hidden part or information-set MCTS where something is hidden;
    /// `ismcts:` is plain MCTS where nothing is. `None` for an agent that does not search.
    fn of(agent: &Agent, facts: &Facts) -> Option<Plan> {
        let hidden = facts.hidden_information;
        Some(match *agent {
            Agent::Random => return None,
            Agent::Computer(level) => match facts.search {
                SearchKind::AlphaBeta => {
                    let plan = alphabeta_level(level)?;
                    Plan::alpha_beta(plan.limits, plan.noise, true, hidden)
                }
                SearchKind::MonteCarlo if hidden => Plan::InformationSet(level_limits(level)?),
                SearchKind::MonteCarlo => Plan::MonteCarlo(level_limits(level)?),
            },
            Agent::Ismcts(limits) if hidden => Plan::InformationSet(limits),
            Agent::Mcts(limits) | Agent::Ismcts(limits) => Plan::MonteCarlo(limits),
            Agent::AlphaBeta {
                limits,
                endgame_tables,
            } => Plan::alpha_beta(limits, 0, endgame_tables, hidden),
        })
    }

    /// Alpha-beta, over drawings of the hidden part where something is hidden.
    fn alpha_beta(limits: Limits, noise: u32, tables: bool, hidden: bool) -> Plan {
        if hidden {
            Plan::Sampled {
                limits,
                noise,
                tables,
            }
        } else {
            Plan::AlphaBeta {
                limits,
                noise,
                tables,
            }
        }
    }

    /// The plan on the clock's `plan`, if given: alpha-beta manages the time, the other
    /// searches spend the target.
    fn within(self, plan: Option<TimePlan>) -> Plan {
        let target = plan.map(|p| p.target);
        match self {
            Plan::MonteCarlo(limits) => Plan::MonteCarlo(limits.within(target)),
            Plan::InformationSet(limits) => Plan::InformationSet(limits.within(target)),
            Plan::AlphaBeta {
                limits,
                noise,
                tables,
            } => Plan::AlphaBeta {
                limits: limits.planned(plan),
                noise,
                tables,
            },
            Plan::Sampled {
                limits,
                noise,
                tables,
            } => Plan::Sampled {
                limits: limits.within(target),
                noise,
                tables,
            },
        }
    }

    /// An alpha-beta search's options within `limits`: the plan's noise and databases, the
    /// game's `history`, the move's `seed`.
    fn search_options(self, limits: Limits, history: Vec<u64>, seed: u64) -> SearchOptions {
        let (noise, endgame_tables) = match self {
            Plan::AlphaBeta { noise, tables, .. } | Plan::Sampled { noise, tables, .. } => {
                (noise, tables)
            }
            Plan::MonteCarlo(_) | Plan::InformationSet(_) => (0, true),
        };
        SearchOptions {
            history,
            noise,
            seed,
            endgame_tables,
            ..SearchOptions::new(limits)
        }
    }

    fn limits(self) -> Limits {
        match self {
            Plan::MonteCarlo(limits) | Plan::InformationSet(limits) => limits,
            Plan::AlphaBeta { limits, .. } | Plan::Sampled { limits, .. } => limits,
        }
    }
}

/// The moves of a line from `state` in the game's notation, up to the first that is not
/// legal (a line from a search is legal unless the table was fooled by a hash collision).
fn pv_texts<G: Game>(game: &G, state: &G::State, pv: &[G::Move]) -> Vec<String> {
    let mut state = state.clone();
    let mut texts = Vec::with_capacity(pv.len());
    for &mv in pv {
        let text = game.move_text(&state, mv);
        if game.play(&mut state, mv).is_err() {
            break;
        }
        texts.push(text);
    }
    texts
}

impl<G: Game> AnySession for Session<G> {
    fn ruleset(&self) -> &str {
        self.0.game().name()
    }

    fn position(&self) -> String {
        self.0.game().position_text(self.0.state())
    }

    fn fen(&self) -> Option<String> {
        self.0.game().fen(self.0.state())
    }

    fn to_move(&self) -> Player {
        self.0.to_move()
    }

    fn status(&self) -> Status {
        self.0.status()
    }

    fn material(&self) -> Option<i32> {
        self.0.game().material(self.0.state())
    }

    fn legal_moves(&self) -> Vec<LegalMove> {
        self.legal_moves_for(Viewer::Everyone)
    }

    fn legal_move_count(&self) -> usize {
        let mut moves = Vec::new();
        self.0.legal_moves(&mut moves);
        moves.len()
    }

    fn legal_moves_for(&self, viewer: Viewer) -> Vec<LegalMove> {
        let game = self.0.game();
        let state = self.0.state();
        let mut moves = Vec::new();
        self.0.legal_moves(&mut moves);
        moves
            .into_iter()
            .map(|m| LegalMove {
                text: game.move_text(state, m),
                view: game.move_view_for(state, m, viewer),
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
        let shown = game.move_text_for(&text, game.to_move(before), viewer);
        // A move whose text is hidden (a secret setup move) shows no cells either.
        let view = if shown == text {
            game.move_view(before, mv)
        } else {
            MoveView::default()
        };
        Some(LegalMove { text: shown, view })
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

    fn back_view(&self, viewer: Viewer) -> Option<PositionView> {
        self.0.game().back_view(self.0.state(), viewer)
    }

    fn highlights(&self, viewer: Viewer) -> Vec<Highlight> {
        self.0.game().highlights(self.0.state(), viewer)
    }

    fn secret_choice_prompt(&self) -> Option<&'static str> {
        self.0.game().secret_choice_prompt(self.0.state())
    }

    fn secret_note(&self, player: Player) -> Option<String> {
        self.0.game().secret_note(self.0.state(), player)
    }

    fn end(&mut self, outcome: Outcome) {
        self.0.end(outcome);
    }

    fn choose_move_within(
        &self,
        agent: &Agent,
        seed: u64,
        plan: Option<TimePlan>,
        table: Option<&mut SearchTable>,
    ) -> Option<String> {
        let game = self.0.game();
        let mut legal = Vec::new();
        self.0.legal_moves(&mut legal);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let chosen = match *agent {
            Agent::Random => {
                use rand::seq::SliceRandom;
                *legal.choose(&mut rng)?
            }
            Agent::Computer(_) | Agent::Mcts(_) | Agent::Ismcts(_) | Agent::AlphaBeta { .. } => {
                let plan = Plan::of(agent, game.facts())?.within(plan);
                let mover = self.0.to_move();
                // What the mover knows: the search is never given the true state.
                let observation = game.observation(self.0.state(), mover);
                let best = if let Plan::InformationSet(limits) = plan {
                    let config = MctsConfig::new(limits, seed);
                    ismcts::search(game, &observation, mover, &config)?.best
                } else if let Plan::Sampled { limits, .. } = plan {
                    let options = plan.search_options(limits, self.history(), seed);
                    pimc::search(game, &observation, mover, &options)?.best
                } else {
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5eed);
                    let state = game.determinize(&observation, mover, &mut rng);
                    // Near the end of a game that can be solved, a best move; else a search.
                    match endgame::agent_move(game, &state, plan.limits()) {
                        Ok(best) => best,
                        Err(limits) => match plan {
                            Plan::AlphaBeta { .. } => {
                                let options = plan.search_options(limits, self.history(), seed);
                                match table {
                                    Some(table) if matches!(agent, Agent::AlphaBeta { .. }) => {
                                        search::search_with_table(
                                            game,
                                            &state,
                                            &options,
                                            table,
                                            &mut |_| {},
                                        )?
                                        .best
                                    }
                                    _ => {
                                        search::search_with(game, &state, &options, &mut |_| {})?
                                            .best
                                    }
                                }
                            }
                            _ => mcts::search(game, &state, &MctsConfig::new(limits, seed))?.best,
                        },
                    }
                };
                // The search ignores the game's history; never choose a move the repetition
                // rule forbids.
                if legal.contains(&best) {
                    best
                } else {
                    *legal.first()?
                }
            }
        };
        Some(game.move_text(self.0.state(), chosen))
    }

    fn analyse(
        &self,
        options: &SearchOptions,
        on_depth: &mut dyn FnMut(&AnalysisLine),
    ) -> Option<AnalysisLine> {
        let game = self.0.game();
        let mut legal = Vec::new();
        self.0.legal_moves(&mut legal);
        if legal.is_empty() {
            return None;
        }
        let mover = self.0.to_move();
        let observation = game.observation(self.0.state(), mover);
        let line = |state: &G::State, report: &DepthReport<G::Move>| AnalysisLine {
            depth: report.depth,
            score: report.score,
            nodes: report.nodes,
            elapsed: report.elapsed,
            pv: pv_texts(game, state, &report.pv),
        };
        let mut last = None;
        if game.facts().hidden_information {
            // Over drawings of what the mover cannot see, as the computer plays: one drawing
            // alone would be searched as if its guess were known, and its line would name a
            // hidden piece. The line is the mover's move alone.
            let mut options = SearchOptions {
                history: self.history(),
                ..options.clone()
            };
            // Each answer is searched one ply less deep than the line's depth.
            options.limits.depth = options.limits.depth.map(|d| d.saturating_sub(1).max(1));
            let state = self.0.state();
            pimc::search_with(game, &observation, mover, &options, &mut |report| {
                let l = line(state, report);
                on_depth(&l);
                last = Some(l);
            })?;
            return last;
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5eed);
        let state = game.determinize(&observation, mover, &mut rng);
        self.search_state(&state, options, on_depth)
    }

    fn analyse_known(
        &self,
        options: &SearchOptions,
        on_depth: &mut dyn FnMut(&AnalysisLine),
    ) -> Option<AnalysisLine> {
        let mut legal = Vec::new();
        self.0.legal_moves(&mut legal);
        if legal.is_empty() {
            return None;
        }
        self.search_state(self.0.state(), options, on_depth)
    }

    fn record(&self, tags: &[(&str, &str)]) -> Record {
        Record::of(&self.0, tags)
    }

    fn box_clone(&self) -> Box<dyn AnySession> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use denkmeter_games::draughts::International;
    use std::time::Duration;

    #[test]
    fn an_alpha_beta_player_keeps_or_drops_the_endgame_databases() {
        let game = International::new();
        let plan = |text: &str| {
            let agent: Agent = text.parse().expect("agent");
            Plan::of(&agent, game.facts()).expect("a search")
        };
        // What the search is given: the databases used unless the player said no-egtb, and a
        // noisy level (which never uses them) its noise.
        let searched = |plan: Plan| {
            let options = plan.search_options(plan.limits(), vec![7], 5);
            assert_eq!((options.history, options.seed), (vec![7], 5));
            (options.endgame_tables, options.noise > 0)
        };
        assert_eq!(searched(plan("ab:3")), (true, false));
        assert_eq!(searched(plan("ab:3,no-egtb")), (false, false));
        assert_eq!(searched(plan("computer:8")), (true, false));
        assert_eq!(searched(plan("computer:1")), (true, true));
        let planned = plan("ab:d64,no-egtb").within(Some(TimePlan {
            target: Duration::from_millis(10),
            most: Duration::from_millis(20),
        }));
        assert_eq!(searched(planned), (false, false), "kept on the clock");
    }

    #[test]
    fn an_alpha_beta_player_searches_in_the_table_it_keeps_and_a_level_does_not() {
        let session = Ruleset(International::new())
            .new_game(None)
            .expect("the start");
        let agent = |text: &str| -> Agent { text.parse().expect("agent") };
        let mut table = SearchTable::new(1);
        assert_eq!(table.stored_entries(), 0);
        let first = session.choose_move_within(&agent("ab:d5"), 1, None, Some(&mut table));
        let filled = table.stored_entries();
        assert!(filled > 100, "{filled} entries after a search to depth 5");
        // From an empty table, the same move as a search in a table of its own.
        assert_eq!(first, session.choose_move(&agent("ab:d5"), 1));
        // A level (noisy or not) plays as on the server: in a table of its own.
        for level in ["computer:1", "computer:8"] {
            let mut untouched = SearchTable::new(1);
            session
                .choose_move_within(&agent(level), 1, None, Some(&mut untouched))
                .expect("a move");
            assert_eq!(untouched.stored_entries(), 0, "{level}");
        }
    }
}

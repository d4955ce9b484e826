//! Trangalla (Folke Eriksson, Swedish patent 1966): five pieces a side on a diamond lattice of
//! 25 points, one of them a king that only its owner knows. Pieces step forward or sideways and
//! jump over any piece, flipping enemy soldiers to their own side and taking the enemy king; a
//! king that reaches the far tip wins. The rules are in `shared/rules/trangalla.md` and the
//! rulings in `crates/games/tests/reference/rulings-trangalla.md`; the board is a
//! reconstruction.
//!
//! The game hides information: [`Game::observation`] gives what a player knows (the other
//! side's king hidden among its never-flipped pieces) and [`Game::determinize`] completes an
//! observation at random. A position is bit sets over the 25 points.
//!
//! ```
//! use denkmeter_core::Game;
//! use denkmeter_games::trangalla::Trangalla;
//!
//! let game = Trangalla::new();
//! let mut state = game.start();
//! let mut moves = Vec::new();
//! game.legal_moves(&state, &mut moves);
//! assert_eq!(moves.len(), 5);
//! for text in ["K@b2", "K@d4"] {
//!     let mv = game.parse_move(&state, text).unwrap();
//!     game.play_unchecked(&mut state, mv);
//! }
//! assert_eq!(game.position_text(&state), "2ss1/3ks/S3s/SK3/1SS2 w");
//! ```

mod movegen;
mod notation;
mod state;
#[cfg(test)]
mod tests;

use std::sync::LazyLock;

use denkmeter_core::{
    Board, CellInfo, CellStyle, Direction, DisplayName, Emblem, Facts, Game, MoveError, MoveView,
    Outcome, PieceShape, PieceStyle, PieceView, Player, PositionError, PositionView, Reason,
    RepetitionRule, RulesetVisitor, SearchKind, Shape, Status, Viewer,
};
use rand::RngCore;

pub use movegen::Move;
use state::{cell, coords, goal, point, points, DIRECTIONS, NEXT, NONE, POINTS};
pub use state::{Phase, State};

/// The start position: before the setup, White to choose his king.
pub const START: &str = "2ss1/3ss/S3s/SS3/1SS2 w setup";

/// The game's words for its pieces; `unknown` is a piece whose viewer may not know whether it
/// is the king.
pub const KING: &str = "king";
pub const SOLDIER: &str = "soldier";
pub const UNKNOWN: &str = "unknown";

/// How the two tips are drawn: each is one player's home and the other's goal.
pub const TIP_STYLE: CellStyle = CellStyle {
    class: "tip",
    fill: "#c9a66b",
    glyph: '+',
    words: "a home tip: the other player's goal",
};

/// The one Trangalla ruleset, for the registry.
pub fn rulesets(visitor: &mut impl RulesetVisitor) {
    visitor.visit(Trangalla::new());
}

/// Random playouts longer than this are cut off and scored by the evaluation.
const PLAYOUT_LIMIT: usize = 12;

const FACTS: Facts = Facts {
    title: DisplayName::new("Trangalla"),
    hidden_information: true,
    // Alpha-beta over drawings of the hidden kings: +203 Elo over information-set MCTS at
    // 1 s a move (docs/strength.md).
    search: SearchKind::AlphaBeta,
    repetition: RepetitionRule::ForbidThird,
    playout_limit: PLAYOUT_LIMIT,
    ..Facts::new(
        "trangalla",
        "trangalla",
        "Trangalla (1966): five pieces a side on a diamond of 25 points, jumps flip enemy \
         soldiers; bring your secret king to the far tip",
        include_str!("../../../../docs/rules/trangalla.md"),
    )
};

/// The distance between two rows of the drawing, so that neighbours are one unit apart.
const ROW_HEIGHT: f32 = 0.866_025_4;

fn build_board() -> Board {
    let cells = (0..POINTS as u8)
        .map(|p| {
            let (i, j) = coords(p);
            CellInfo {
                name: notation::point_name(p),
                x: (f32::from(i) - f32::from(j)) / 2.0 + 2.0,
                y: f32::from(8 - i - j) * ROW_HEIGHT,
                shape: Shape::Point,
                classes: Vec::new(),
            }
        })
        .collect();
    let directions = DIRECTIONS
        .iter()
        .map(|&(name, _, _)| Direction { name })
        .collect();
    let mut neighbours = Vec::with_capacity(POINTS * DIRECTIONS.len());
    let mut lines = Vec::new();
    for p in 0..POINTS as u8 {
        for (d, &to) in NEXT[p as usize].iter().enumerate() {
            let to = (to != NONE).then(|| cell(to));
            neighbours.push(to);
            if let Some(to) = to.filter(|_| d < 3) {
                lines.push((cell(p), to));
            }
        }
    }
    // Position strings write rank 5 first, each rank from file a.
    let position_rows = (0..5u8)
        .rev()
        .map(|j| (0..5u8).map(|i| cell(point(i, j))).collect())
        .collect();
    let mut board = Board::from_parts(cells, directions, neighbours, lines)
        .with_position_rows(position_rows)
        .with_pieces(&[
            PieceStyle {
                kind: KING,
                letter: 'K',
                shape: PieceShape::Crowned,
                emblem: Emblem::Crown,
            },
            PieceStyle {
                kind: SOLDIER,
                letter: 'S',
                shape: PieceShape::Disc,
                emblem: Emblem::Sword,
            },
            PieceStyle {
                kind: UNKNOWN,
                letter: 'P',
                shape: PieceShape::Disc,
                emblem: Emblem::Unknown,
            },
        ]);
    for player in Player::BOTH {
        board.paint(cell(goal(player)), TIP_STYLE);
    }
    board
}

static BOARD: LazyLock<Board> = LazyLock::new(build_board);

/// The game of Trangalla.
#[derive(Clone, Debug)]
pub struct Trangalla {
    board: &'static Board,
}

impl Trangalla {
    /// The ruleset `trangalla`.
    pub fn new() -> Trangalla {
        Trangalla { board: &BOARD }
    }

    /// The state as `viewer` may see it.
    fn seen(state: &State, viewer: Viewer) -> State {
        match viewer {
            Viewer::Everyone => state.clone(),
            Viewer::Player(player) => state.seen_by(Some(player)),
            Viewer::Spectator => state.seen_by(None),
        }
    }
}

impl Default for Trangalla {
    fn default() -> Trangalla {
        Trangalla::new()
    }
}

/// Evaluation weights: a piece is worth [`PIECE_VALUE`]; a side's king still on the board
/// [`KING_VALUE`] (without it the side can at best draw), plus [`KING_STEP_VALUE`] for every
/// step it has come nearer its goal.
const PIECE_VALUE: i32 = 100;
const KING_VALUE: i32 = 300;
const KING_STEP_VALUE: i32 = 40;

fn side_value(state: &State, player: Player) -> i32 {
    let mut value = state.pieces[player].count_ones() as i32 * PIECE_VALUE;
    if let Some(king) = state.king(player) {
        let (i, j) = coords(king.0 as u8);
        let travelled = match player {
            Player::White => i + j,
            Player::Black => 8 - i - j,
        };
        value += KING_VALUE + i32::from(travelled) * KING_STEP_VALUE;
    } else if state.has_king(player) {
        value += KING_VALUE;
    }
    value
}

impl Game for Trangalla {
    type Move = Move;
    type State = State;

    fn facts(&self) -> &Facts {
        &FACTS
    }

    fn board(&self) -> &Board {
        self.board
    }

    fn start(&self) -> State {
        State::start()
    }

    fn to_move(&self, state: &State) -> Player {
        state.to_move
    }

    fn legal_moves(&self, state: &State, moves: &mut Vec<Move>) {
        movegen::legal_moves(state, moves);
    }

    fn play_unchecked(&self, state: &mut State, mv: Move) {
        movegen::play(state, mv);
    }

    /// First that applies: a king on its goal has won; both kings gone is a draw; neither
    /// side able to step or jump is a draw. A player who cannot move passes.
    fn status(&self, state: &State) -> Status {
        movegen::ending(state).map_or(Status::Ongoing, Status::Over)
    }

    fn hash(&self, state: &State) -> u64 {
        state.hash()
    }

    /// What both players see: kings are not told from soldiers (see the rulings).
    fn repetition_hash(&self, state: &State) -> u64 {
        state.public_hash()
    }

    fn pass(&self, state: &State) -> Option<Move> {
        (state.phase == Phase::Play).then_some(Move::PASS)
    }

    /// Two passes in a row (the repetition ban left both players without a move) draw.
    fn ending_by_history(&self, _start: &State, moves: &[Move]) -> Option<Outcome> {
        match moves {
            [.., a, b] if a.is_pass() && b.is_pass() => Some(Outcome::draw(Reason::NoMoves)),
            _ => None,
        }
    }

    /// Material (100 a piece), the king (300 while on the board) and how far the king has
    /// come (40 a step): the side to move minus the opponent.
    fn evaluate(&self, state: &State) -> i32 {
        let me = state.to_move;
        side_value(state, me) - side_value(state, !me)
    }

    fn move_text(&self, state: &State, mv: Move) -> String {
        notation::move_text(state, mv)
    }

    fn parse_move(&self, state: &State, text: &str) -> Result<Move, MoveError> {
        let mut moves = Vec::new();
        self.legal_moves(state, &mut moves);
        notation::parse_move(state, text, &moves)
    }

    fn position_text(&self, state: &State) -> String {
        notation::position_text(state)
    }

    fn parse_position(&self, text: &str) -> Result<State, PositionError> {
        notation::parse_position(text)
    }

    /// Kings and soldiers (a hidden piece is only ever what a player is shown).
    fn editor_tokens(&self) -> Vec<denkmeter_core::EditorToken> {
        let mut tokens = denkmeter_core::editor::legend_tokens(self.board.legend());
        tokens.retain(|t| t.kind != UNKNOWN);
        tokens
    }

    /// A setup move is a click on the king's point; a step its two points; a jump its start,
    /// the landing points of its written route, its end. Jumped enemy kings are captured, jumped
    /// enemy soldiers flipped.
    fn move_view(&self, state: &State, mv: Move) -> MoveView {
        if mv.is_pass() {
            return MoveView::default();
        }
        if mv.is_setup() {
            return MoveView {
                to: Some(cell(mv.to)),
                ..MoveView::default()
            };
        }
        let route = notation::route(state, mv);
        let via = route
            .get(1..route.len().saturating_sub(1))
            .unwrap_or_default()
            .iter()
            .map(|&p| cell(p))
            .collect();
        let (captured, flipped): (Vec<u8>, Vec<u8>) =
            points(mv.jumped).partition(|&p| state.kings & 1 << p != 0);
        MoveView {
            from: Some(cell(mv.from)),
            via,
            to: Some(cell(mv.to)),
            captured: captured.into_iter().map(cell).collect(),
            flipped: flipped.into_iter().map(cell).collect(),
            ..MoveView::default()
        }
    }

    /// Before the move, a viewer who may not see the enemy king is told only that the jumped
    /// enemy pieces are flipped, or taken if one is the king: all of them are listed as
    /// flipped.
    fn move_view_for(&self, state: &State, mv: Move, viewer: Viewer) -> MoveView {
        let mut view = self.move_view(state, mv);
        let enemy = !state.to_move;
        if Self::seen(state, viewer).hides_king_of(enemy) {
            view.flipped.append(&mut view.captured);
            view.flipped.sort();
        }
        view
    }

    fn position_view(&self, state: &State, viewer: Viewer) -> PositionView {
        let seen = Self::seen(state, viewer);
        let mut pieces = Vec::new();
        for owner in Player::BOTH {
            let unknown = seen.hidden[owner] || seen.king_to_choose(owner);
            for p in points(seen.pieces[owner]) {
                let (kind, letter) = if seen.kings & 1 << p != 0 {
                    (KING, 'K')
                } else if unknown && seen.unflipped & 1 << p != 0 {
                    (UNKNOWN, 'P')
                } else {
                    (SOLDIER, 'S')
                };
                let letter = match owner {
                    Player::White => letter,
                    Player::Black => letter.to_ascii_lowercase(),
                };
                pieces.push(PieceView {
                    cell: cell(p),
                    owner,
                    kind,
                    letter,
                });
            }
        }
        PositionView {
            pieces,
            absent: Vec::new(),
            to_move: state.to_move,
        }
    }

    /// Each side's first move chooses its king, once and for all, and only its owner sees it.
    fn secret_choice_prompt(&self, state: &State) -> Option<&'static str> {
        state.king_to_choose(state.to_move()).then_some(
            "Choose your king: click the piece that will be your king (only you will see it)",
        )
    }

    /// Where `player`'s king stands, for him alone.
    fn secret_note(&self, state: &State, player: Player) -> Option<String> {
        let king = state.king(player)?;
        Some(format!(
            "Your king is on {}, crowned on your board: only you see it.",
            self.board.info(king).name
        ))
    }

    /// The other player's setup move names his king: others see `K@?`.
    fn move_text_for(&self, text: &str, mover: Player, viewer: Viewer) -> String {
        let sees = matches!(viewer, Viewer::Everyone) || viewer == Viewer::Player(mover);
        if !sees && text.starts_with("K@") {
            "K@?".to_string()
        } else {
            text.to_string()
        }
    }

    fn observation(&self, state: &State, player: Player) -> State {
        state.seen_by(Some(player))
    }

    /// Each hidden king is put on one of its side's never-flipped pieces, uniformly: every
    /// such piece may be the king as far as the observer knows.
    fn determinize(&self, observation: &State, _player: Player, rng: &mut dyn RngCore) -> State {
        let mut state = observation.clone();
        for side in Player::BOTH {
            if !state.hidden[side] {
                continue;
            }
            state.hidden[side] = false;
            let candidates: Vec<u8> = points(state.pieces[side] & state.unflipped).collect();
            if !candidates.is_empty() {
                let pick = candidates[rng.next_u32() as usize % candidates.len()];
                state.kings |= 1 << pick;
            }
        }
        state
    }
}

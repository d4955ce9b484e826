//! Fort Chitral (anonymous, c. 1895): 18 pieces a side on an 18x18 board race to occupy the
//! four squares of the Fort in the middle, moving one step or jumping over their own pieces as
//! in Halma and capturing by custodian. The rules are in `shared/rules/fort-chitral.md`; the
//! start position is a reconstruction. Three rulesets:
//!
//! - `fort-chitral`: captures along all eight lines; a player left with fewer than four pieces
//!   loses.
//! - `fort-chitral-orthogonal`: captures along ranks and files only.
//! - `fort-chitral-no-loss-at-three`: a player below four pieces plays on (and cannot win);
//!   once both are below four the game is drawn.
//!
//! The board is a padded mailbox of 20x20 bytes (the 18x18 board and a border), each side's
//! pieces also a set of squares; a move is its start and end square.
//!
//! ```
//! use denkmeter_core::Game;
//! use denkmeter_games::fort_chitral::FortChitral;
//!
//! let game = FortChitral::new();
//! let start = game.start();
//! let mut moves = Vec::new();
//! game.legal_moves(&start, &mut moves);
//! assert_eq!(moves.len(), 52);
//! let mv = game.parse_move(&start, "i1-i2").unwrap();
//! let mut next = start.clone();
//! game.play_unchecked(&mut next, mv);
//! assert_eq!(
//!     game.position_text(&next),
//!     "pppppppppppppppppp/18/18/18/18/18/18/18/18/18/18/18/18/18/18/18/8P9/PPPPPPPP1PPPPPPPPP b"
//! );
//! ```

mod movegen;
mod notation;
mod state;
#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::LazyLock;

use denkmeter_core::{
    Board, Cell, CellStyle, DisplayName, Emblem, Facts, Game, MoveError, MoveView, Outcome,
    PieceShape, PieceStyle, PieceView, Player, PositionError, PositionView, RulesetVisitor,
    SearchKind, Status, Viewer,
};

pub use state::State;
use state::{cell, FORT, FORT_DISTANCE, NO_SQUARE, SIZE};

/// The start position.
pub const START: &str =
    "pppppppppppppppppp/18/18/18/18/18/18/18/18/18/18/18/18/18/18/18/18/PPPPPPPPPPPPPPPPPP w";

/// The game's word for its one kind of piece.
pub const PIECE: &str = "piece";

/// How the four Fort squares are drawn.
pub const FORT_STYLE: CellStyle = CellStyle {
    class: "fort",
    fill: "#c9a66b",
    glyph: '+',
    words: "the Fort",
};

/// Every Fort Chitral ruleset, for the registry: `fort-chitral`, `fort-chitral-orthogonal`,
/// `fort-chitral-no-loss-at-three`.
pub fn rulesets(visitor: &mut impl RulesetVisitor) {
    for variant in Variant::ALL {
        visitor.visit(FortChitral::with_variant(variant));
    }
}

/// A Fort Chitral move: a piece going from one square to another by a step or a chain of jumps
/// (two chains with the same start and end are one move), or a pass. The pieces it captures
/// follow from the position and the end square.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// Padded squares (see the `state` module), or [`NO_SQUARE`] for the pass.
    from: u16,
    to: u16,
}

impl Move {
    /// The pass: the only move of a player who cannot move.
    pub const PASS: Move = Move {
        from: NO_SQUARE,
        to: NO_SQUARE,
    };

    #[inline(always)]
    pub(crate) const fn new(from: u16, to: u16) -> Move {
        Move { from, to }
    }

    /// Whether this is the pass.
    pub const fn is_pass(self) -> bool {
        self.from == NO_SQUARE
    }

    /// The square the piece leaves (`None` for a pass).
    pub fn from(self) -> Option<Cell> {
        (!self.is_pass()).then(|| cell(self.from))
    }

    /// The square the piece ends on (`None` for a pass).
    pub fn to(self) -> Option<Cell> {
        (!self.is_pass()).then(|| cell(self.to))
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({})", notation::move_text(*self))
    }
}

/// The three rulesets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `fort-chitral`: captures along ranks, files and diagonals; below four pieces loses.
    Standard,
    /// `fort-chitral-orthogonal`: captures along ranks and files only.
    Orthogonal,
    /// `fort-chitral-no-loss-at-three`: below four pieces a player plays on; both below four
    /// draw.
    NoLossAtThree,
}

impl Variant {
    /// Every variant, in the registry's order.
    pub const ALL: [Variant; 3] = [
        Variant::Standard,
        Variant::Orthogonal,
        Variant::NoLossAtThree,
    ];

    /// The stable ruleset name.
    /// The ruleset's name for people: the game's, and what this variant changes.
    pub const fn title(self) -> DisplayName {
        let variant = match self {
            Variant::Standard => "",
            Variant::Orthogonal => ", orthogonal captures",
            Variant::NoLossAtThree => ", no loss at three pieces",
        };
        DisplayName::from_parts(["Fort Chitral", variant, "", ""])
    }

    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "fort-chitral",
            Variant::Orthogonal => "fort-chitral-orthogonal",
            Variant::NoLossAtThree => "fort-chitral-no-loss-at-three",
        }
    }

    /// One line for `denkmeter list`.
    pub const fn description(self) -> &'static str {
        match self {
            Variant::Standard => {
                "Fort Chitral (c. 1895): Halma-like steps and own jumps on 18x18, custodian \
                 capture; occupy the four-square Fort to win, below four pieces loses"
            }
            Variant::Orthogonal => {
                "Fort Chitral with custodian captures along ranks and files only"
            }
            Variant::NoLossAtThree => {
                "Fort Chitral where a player below four pieces plays on; both below four is a draw"
            }
        }
    }

    /// Whether captures also run along diagonals.
    pub const fn captures_diagonally(self) -> bool {
        !matches!(self, Variant::Orthogonal)
    }

    /// Whether a player left with fewer than four pieces loses.
    pub const fn loses_below_four(self) -> bool {
        !matches!(self, Variant::NoLossAtThree)
    }

    /// The ruleset's facts.
    pub const fn facts(self) -> &'static Facts {
        const RULES: &str = include_str!("../../../../docs/rules/fort-chitral.md");
        const fn facts(variant: Variant) -> Facts {
            // Alpha-beta: it beats Monte Carlo tree search 20-0 at 0.3 s a move.
            Facts {
                playout_limit: PLAYOUT_LIMIT,
                search: SearchKind::AlphaBeta,
                title: variant.title(),
                ..Facts::new(variant.name(), "fort-chitral", variant.description(), RULES)
            }
        }
        const STANDARD: Facts = facts(Variant::Standard);
        const ORTHOGONAL: Facts = facts(Variant::Orthogonal);
        const NO_LOSS_AT_THREE: Facts = facts(Variant::NoLossAtThree);
        match self {
            Variant::Standard => &STANDARD,
            Variant::Orthogonal => &ORTHOGONAL,
            Variant::NoLossAtThree => &NO_LOSS_AT_THREE,
        }
    }
}

/// Random playouts stop after this many plies and are scored by the evaluation. Random play on
/// 324 squares wanders for a thousand plies and more before it fills the Fort or takes fifteen
/// pieces, and every random ply blurs the evaluation, so playouts are kept short: with 60 plies
/// MCTS (300 iterations) drew three games in four against a random player within 300 plies;
/// with 4 it wins every game in about 60.
const PLAYOUT_LIMIT: usize = 4;

/// The game of Fort Chitral in one of its three rulesets.
#[derive(Clone, Debug)]
pub struct FortChitral {
    variant: Variant,
    board: &'static Board,
}

fn build_board() -> Board {
    let mut board = Board::rectangle(SIZE, SIZE, false).with_pieces(&[PieceStyle {
        kind: PIECE,
        letter: 'P',
        shape: PieceShape::Disc,
        emblem: Emblem::Plain,
    }]);
    for sq in FORT {
        board.paint(cell(sq), FORT_STYLE);
    }
    board
}

/// The board, built once.
static BOARD: LazyLock<Board> = LazyLock::new(build_board);

impl FortChitral {
    /// The ruleset `fort-chitral`.
    pub fn new() -> FortChitral {
        FortChitral::with_variant(Variant::Standard)
    }

    /// The ruleset `fort-chitral-orthogonal`.
    pub fn orthogonal() -> FortChitral {
        FortChitral::with_variant(Variant::Orthogonal)
    }

    /// The ruleset `fort-chitral-no-loss-at-three`.
    pub fn no_loss_at_three() -> FortChitral {
        FortChitral::with_variant(Variant::NoLossAtThree)
    }

    /// The ruleset of `variant`.
    pub fn with_variant(variant: Variant) -> FortChitral {
        FortChitral {
            variant,
            board: &BOARD,
        }
    }

    /// This ruleset's variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    fn ending(&self, state: &State) -> Option<movegen::Ending> {
        if self.variant.loses_below_four() {
            movegen::ending::<true>(state)
        } else {
            movegen::ending::<false>(state)
        }
    }
}

impl Default for FortChitral {
    fn default() -> FortChitral {
        FortChitral::new()
    }
}

/// Evaluation weights: a piece is worth [`PIECE_VALUE`]; each king step a piece stands nearer
/// the Fort than the corners (8 steps away) earns [`STEP_VALUE`], and [`LEADER_STEP_VALUE`]
/// more for the four pieces nearest the Fort (those that would fill it); holding `k` Fort
/// squares while the opponent holds none earns `FORT_HELD[k]`.
const PIECE_VALUE: i32 = 100;
const STEP_VALUE: i32 = 2;
const LEADER_STEP_VALUE: i32 = 8;
const FORT_HELD: [i32; 5] = [0, 10, 30, 70, 0];

/// What a move that fills the Fort gains: the game.
const FORT_WIN: i32 = 10 * PIECE_VALUE;
/// The null move is offered to a side with at least this many pieces.
const NULL_MOVE_PIECES: u8 = 6;

/// The evaluation of `player`'s side: material, nearness to the Fort, Fort squares held.
fn side_value(state: &State, player: Player, fort_held: usize, enemy_fort_held: usize) -> i32 {
    // How many of the player's pieces stand at each distance from the Fort.
    let mut at_distance = [0i32; 9];
    for sq in state.pieces[player].iter() {
        at_distance[usize::from(FORT_DISTANCE[sq as usize])] += 1;
    }
    let mut nearness = 0;
    let mut leaders = 4;
    for (distance, &count) in at_distance.iter().enumerate() {
        let steps = 8 - distance as i32;
        let lead = count.min(leaders);
        leaders -= lead;
        nearness += steps * (count * STEP_VALUE + lead * LEADER_STEP_VALUE);
    }
    let fort = if enemy_fort_held == 0 {
        FORT_HELD[fort_held]
    } else {
        0
    };
    i32::from(state.counts[player]) * PIECE_VALUE + nearness + fort
}

impl Game for FortChitral {
    type Move = Move;
    type State = State;

    fn facts(&self) -> &Facts {
        self.variant.facts()
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
        if self.variant.loses_below_four() {
            movegen::legal_moves::<true>(state, moves);
        } else {
            movegen::legal_moves::<false>(state, moves);
        }
    }

    fn play_unchecked(&self, state: &mut State, mv: Move) {
        if self.variant.captures_diagonally() {
            movegen::play::<true>(state, mv);
        } else {
            movegen::play::<false>(state, mv);
        }
    }

    /// First that applies: a player holding all four Fort squares wins (goal reached); both
    /// players below four pieces is a draw; a player below four pieces loses (except in
    /// `fort-chitral-no-loss-at-three`). Otherwise the game goes on (a player who cannot move
    /// passes).
    fn status(&self, state: &State) -> Status {
        match self.ending(state) {
            None => Status::Ongoing,
            Some(ending) => {
                let (winner, reason) = ending.result();
                Status::Over(match winner {
                    Some(w) => Outcome::win(w, reason),
                    None => Outcome::draw(reason),
                })
            }
        }
    }

    fn hash(&self, state: &State) -> u64 {
        state.hash
    }

    /// A piece 100 (all pieces are alike).
    fn material(&self, state: &State) -> Option<i32> {
        Some(PIECE_VALUE * (state.count(Player::White) as i32 - state.count(Player::Black) as i32))
    }

    /// A piece (100) for each enemy piece the move sandwiches, and `FORT_WIN` when it takes
    /// the last Fort square.
    fn move_gain(&self, state: &State, mv: Move) -> i32 {
        if mv.is_pass() {
            return 0;
        }
        let diagonal = self.variant.captures_diagonally();
        let mut gain = PIECE_VALUE * movegen::capture_count(state, mv.from, mv.to, diagonal);
        let own = state::stone(state.to_move);
        if FORT.contains(&mv.to)
            && FORT
                .iter()
                .all(|&sq| sq == mv.to || (sq != mv.from && state.board[sq as usize] == own))
        {
            gain += FORT_WIN;
        }
        gain
    }

    /// Passing, for a side with pieces to spare: on 324 squares a piece always has a harmless
    /// step, so having the move is never a burden.
    fn null_move(&self, state: &State) -> Option<State> {
        if state.counts[state.to_move] < NULL_MOVE_PIECES {
            return None;
        }
        let mut passed = state.clone();
        self.play_unchecked(&mut passed, Move::PASS);
        Some(passed)
    }

    fn move_text(&self, _state: &State, mv: Move) -> String {
        notation::move_text(mv)
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

    fn move_view(&self, state: &State, mv: Move) -> MoveView {
        if mv.is_pass() {
            return MoveView::default();
        }
        MoveView {
            from: mv.from(),
            to: mv.to(),
            captured: movegen::captures(state, mv.from, mv.to, self.variant.captures_diagonally())
                .into_iter()
                .map(cell)
                .collect(),
            ..MoveView::default()
        }
    }

    fn position_view(&self, state: &State, _viewer: Viewer) -> PositionView {
        let mut pieces = Vec::new();
        for owner in Player::BOTH {
            let letter = match owner {
                Player::White => 'P',
                Player::Black => 'p',
            };
            pieces.extend(state.pieces(owner).map(|cell| PieceView {
                cell,
                owner,
                kind: PIECE,
                letter,
            }));
        }
        PositionView {
            pieces,
            absent: Vec::new(),
            to_move: state.to_move,
        }
    }

    /// Material (100 a piece), nearness to the Fort (2 a king step for every piece, 8 more for
    /// the four nearest) and Fort squares held while the opponent holds none: the side to move
    /// minus the opponent.
    fn evaluate(&self, state: &State) -> i32 {
        let me = state.to_move;
        let (mine, theirs) = (state.fort_squares_held(me), state.fort_squares_held(!me));
        side_value(state, me, mine, theirs) - side_value(state, !me, theirs, mine)
    }
}

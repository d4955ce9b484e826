//! Sjekkers (Fred Horn, 1982): draughts on the 61 crossings of a hexagon of side 5, in three
//! rulesets. The rules are in `shared/rules/sjekkers.md`.
//!
//! - `sjekkers`: disks step forward, jump over own pieces forward, and capture an adjacent
//!   enemy forward or backward, one jump a turn; Sjeks slide and capture flying along all six
//!   lines; capturing is compulsory; a player who cannot move passes; capturing every enemy
//!   piece wins.
//! - `sjekkers-sideways`: disks also capture along their row.
//! - `sjekkers-checkers`: English-checkers conventions on the same board (capture chains,
//!   short-range Sjeks, no own jumps, a player who cannot move loses).
//!
//! Pieces are bitboards over the 61 crossings (bit `sq` for crossing `sq`, a1 = 0 ... i9 = 60)
//! with per-crossing neighbour and ray tables computed at compile time.
//!
//! ```
//! use denkmeter_core::Game;
//! use denkmeter_games::sjekkers::Sjekkers;
//!
//! let game = Sjekkers::new();
//! let start = game.start();
//! let mut moves = Vec::new();
//! game.legal_moves(&start, &mut moves);
//! assert_eq!(moves.len(), 26);
//! let mv = game.parse_move(&start, "b1-d1").unwrap();
//! let mut next = start.clone();
//! game.play_unchecked(&mut next, mv);
//! assert_eq!(
//!     game.position_text(&next),
//!     "ddddd/dddddd/ddddddd/8/9/D7/DDDDDDD/1DDDDD/DDDDD b"
//! );
//! ```

mod board;
mod eval;
mod movegen;
mod notation;
mod state;
#[cfg(test)]
mod tests;

use std::fmt;

use denkmeter_core::{
    Board, Cell, DisplayName, Facts, Game, MoveError, MoveView, Outcome, PieceView, Player,
    PositionError, PositionView, Reason, RulesetVisitor, SearchKind, Status, Viewer,
};

use state::{bit, Crossings, FAR_ROW, NONE};
pub use state::{Piece, State};

/// The start position.
pub const START: &str = "ddddd/dddddd/ddddddd/8/9/8/DDDDDDD/DDDDDD/DDDDD w";

/// Every Sjekkers ruleset, for the registry: `sjekkers`, `sjekkers-sideways`,
/// `sjekkers-checkers`.
pub fn rulesets(visitor: &mut impl RulesetVisitor) {
    for variant in Variant::ALL {
        visitor.visit(Sjekkers::with_variant(variant));
    }
}

/// A Sjekkers move: a piece going from one crossing to another and the enemy pieces it
/// captures, or a pass. Two routes of a capture chain with the same start, end and captured
/// pieces are the same move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The captured pieces, one bit per crossing.
    captured: u64,
    from: u8,
    to: u8,
}

impl Move {
    /// The pass: the only move of a player who cannot move in `sjekkers` and
    /// `sjekkers-sideways` while the opponent can.
    pub const PASS: Move = Move {
        captured: 0,
        from: NONE,
        to: NONE,
    };

    #[inline]
    pub(crate) const fn new(from: u8, to: u8, captured: u64) -> Move {
        Move { captured, from, to }
    }

    /// Whether this is the pass.
    pub const fn is_pass(self) -> bool {
        self.from == NONE
    }

    /// The crossing the piece leaves (`None` for a pass).
    pub fn from(self) -> Option<Cell> {
        (!self.is_pass()).then_some(Cell(u16::from(self.from)))
    }

    /// The crossing the piece ends on (`None` for a pass).
    pub fn to(self) -> Option<Cell> {
        (!self.is_pass()).then_some(Cell(u16::from(self.to)))
    }

    /// The crossings of the captured pieces, lowest first.
    pub fn captured(self) -> impl Iterator<Item = Cell> {
        Crossings(self.captured).map(|sq| Cell(u16::from(sq)))
    }

    /// Whether the move captures.
    pub const fn is_capture(self) -> bool {
        self.captured != 0
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            return f.write_str("Move(pass)");
        }
        write!(
            f,
            "Move({}-{}",
            board::cell_name(self.from),
            board::cell_name(self.to)
        )?;
        for sq in Crossings(self.captured) {
            write!(f, " x{}", board::cell_name(sq))?;
        }
        f.write_str(")")
    }
}

/// The three rulesets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `sjekkers`: the rules of the source; disks capture along the four non-sideways lines.
    Standard,
    /// `sjekkers-sideways`: disks also capture along their row.
    Sideways,
    /// `sjekkers-checkers`: English-checkers conventions on the Sjekkers board.
    Checkers,
}

impl Variant {
    /// Every variant, in the registry's order.
    pub const ALL: [Variant; 3] = [Variant::Standard, Variant::Sideways, Variant::Checkers];

    /// The stable ruleset name.
    /// The ruleset's name for people: the game's, and what this variant changes.
    pub const fn title(self) -> DisplayName {
        let variant = match self {
            Variant::Standard => "",
            Variant::Sideways => ", sideways captures",
            Variant::Checkers => ", checkers rules",
        };
        DisplayName::from_parts(["Sjekkers", variant, "", ""])
    }

    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "sjekkers",
            Variant::Sideways => "sjekkers-sideways",
            Variant::Checkers => "sjekkers-checkers",
        }
    }

    /// The ruleset's facts. Alpha-beta beats Monte Carlo tree search in all three rulesets
    /// (`denkmeter match RULESET --first ab:0.3s --second mcts:0.3s --games 20`): +19 =1 -0
    /// in `sjekkers` and `sjekkers-sideways`, +13 =7 -0 in `sjekkers-checkers` (its draws
    /// all at the 300-ply limit).
    pub const fn facts(self) -> &'static Facts {
        const RULES: &str = include_str!("../../../../docs/rules/sjekkers.md");
        const fn facts(variant: Variant) -> Facts {
            Facts {
                search: SearchKind::AlphaBeta,
                title: variant.title(),
                ..Facts::new(variant.name(), "sjekkers", variant.description(), RULES)
            }
        }
        const STANDARD: Facts = facts(Variant::Standard);
        const SIDEWAYS: Facts = facts(Variant::Sideways);
        const CHECKERS: Facts = facts(Variant::Checkers);
        match self {
            Variant::Standard => &STANDARD,
            Variant::Sideways => &SIDEWAYS,
            Variant::Checkers => &CHECKERS,
        }
    }

    /// One line for `denkmeter list`.
    pub const fn description(self) -> &'static str {
        match self {
            Variant::Standard => {
                "Sjekkers (Horn, 1982): draughts on a 61-point hexagon; single jumps, jumps over \
                 own disks, flying Sjeks; capture all to win"
            }
            Variant::Sideways => "Sjekkers with disks also capturing sideways along their row",
            Variant::Checkers => {
                "Sjekkers board with English-checkers rules: capture chains, short-range Sjeks; \
                 no move loses"
            }
        }
    }
}

/// The game of Sjekkers in one of its three rulesets.
#[derive(Clone, Debug)]
pub struct Sjekkers {
    variant: Variant,
    board: &'static Board,
}

impl Sjekkers {
    /// The ruleset `sjekkers`.
    pub fn new() -> Sjekkers {
        Sjekkers::with_variant(Variant::Standard)
    }

    /// The ruleset `sjekkers-sideways`.
    pub fn sideways() -> Sjekkers {
        Sjekkers::with_variant(Variant::Sideways)
    }

    /// The ruleset `sjekkers-checkers`.
    pub fn checkers() -> Sjekkers {
        Sjekkers::with_variant(Variant::Checkers)
    }

    /// The ruleset of `variant`.
    pub fn with_variant(variant: Variant) -> Sjekkers {
        Sjekkers {
            variant,
            board: &board::BOARD,
        }
    }

    /// This ruleset's variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Whether `side` has a move (a pass not counted).
    fn has_move(&self, state: &State, side: Player) -> bool {
        match self.variant {
            Variant::Standard => movegen::flying_has_move::<false>(state, side),
            Variant::Sideways => movegen::flying_has_move::<true>(state, side),
            Variant::Checkers => movegen::checkers_has_move(state, side),
        }
    }
}

impl Default for Sjekkers {
    fn default() -> Sjekkers {
        Sjekkers::new()
    }
}

impl Game for Sjekkers {
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
        match self.variant {
            Variant::Standard => movegen::flying_legal_moves::<false>(state, moves),
            Variant::Sideways => movegen::flying_legal_moves::<true>(state, moves),
            Variant::Checkers => movegen::checkers_legal_moves(state, moves),
        }
    }

    fn play_unchecked(&self, state: &mut State, mv: Move) {
        movegen::play(state, mv);
    }

    /// A side without pieces has lost (its opponent captured them all). Otherwise, in
    /// `sjekkers` and `sjekkers-sideways` the game goes on while either side can move and is
    /// drawn when neither can; in `sjekkers-checkers` a side that cannot move has lost.
    fn status(&self, state: &State) -> Status {
        let side = state.to_move;
        if state.pieces[side] == 0 {
            return Status::Over(Outcome::win(!side, Reason::NoPieces));
        }
        if state.pieces[!side] == 0 {
            // Unreachable by play and refused by `parse_position`; read as a win all the same.
            return Status::Over(Outcome::win(side, Reason::NoPieces));
        }
        if self.has_move(state, side) {
            return Status::Ongoing;
        }
        match self.variant {
            Variant::Checkers => Status::Over(Outcome::win(!side, Reason::NoMoves)),
            _ if self.has_move(state, !side) => Status::Ongoing,
            _ => Status::Over(Outcome::draw(Reason::NoMoves)),
        }
    }

    fn hash(&self, state: &State) -> u64 {
        state.hash
    }

    /// A disk 100, a Sjek as [`Game::evaluate`] counts it (300 flying, 170 stepping).
    fn material(&self, state: &State) -> Option<i32> {
        let sjek = match self.variant {
            Variant::Checkers => eval::sjek::<false>(),
            _ => eval::sjek::<true>(),
        };
        let material = |p: Player| {
            state.count(p, Piece::Disk) as i32 * eval::DISK
                + state.count(p, Piece::Sjek) as i32 * sjek
        };
        Some(material(Player::White) - material(Player::Black))
    }

    fn move_text(&self, state: &State, mv: Move) -> String {
        notation::move_text(state, mv, self.variant)
    }

    fn parse_move(&self, state: &State, text: &str) -> Result<Move, MoveError> {
        let mut moves = Vec::new();
        self.legal_moves(state, &mut moves);
        notation::parse_move(state, text, self.variant, &moves)
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
        let mut via: Vec<Cell> = Vec::new();
        if self.variant == Variant::Checkers {
            let route = movegen::checkers_route(state, mv);
            if let Some((_, before)) = route.split_last() {
                via = before.iter().map(|&sq| Cell(u16::from(sq))).collect();
            }
        }
        let disk = state.sjeks & bit(mv.from) == 0;
        MoveView {
            from: mv.from(),
            via,
            to: mv.to(),
            captured: mv.captured().collect(),
            promotes: disk && FAR_ROW[state.to_move] & bit(mv.to) != 0,
            ..MoveView::default()
        }
    }

    fn position_view(&self, state: &State, _viewer: Viewer) -> PositionView {
        let mut pieces = Vec::new();
        for owner in Player::BOTH {
            for piece in [Piece::Disk, Piece::Sjek] {
                pieces.extend(state.cells_of(owner, piece).map(|cell| PieceView {
                    cell,
                    owner,
                    kind: piece.name(),
                    letter: piece.letter(owner),
                }));
            }
        }
        PositionView {
            pieces,
            absent: Vec::new(),
            to_move: state.to_move,
        }
    }

    /// See the `eval` module: material (a disk 100, a Sjek 300 where it flies, 170 where it steps),
    /// advancement, centre, the first row kept, backed disks, runaway disks and the Sjeks'
    /// mobility.
    fn evaluate(&self, state: &State) -> i32 {
        match self.variant {
            Variant::Checkers => eval::evaluate::<false>(state),
            _ => eval::evaluate::<true>(state),
        }
    }

    /// What the move captures, and a Sjek's worth over a disk's for a disk that reaches the
    /// far row.
    fn move_gain(&self, state: &State, mv: Move) -> i32 {
        match self.variant {
            Variant::Checkers => eval::move_gain::<false>(state, mv),
            _ => eval::move_gain::<true>(state, mv),
        }
    }

    /// Bound to capture: capturing is compulsory in every ruleset. (There is no null move:
    /// as in draughts, having to move is often the worse.)
    fn forcing(&self, state: &State) -> bool {
        match self.variant {
            Variant::Standard => movegen::flying_has_capture::<false>(state),
            Variant::Sideways => movegen::flying_has_capture::<true>(state),
            Variant::Checkers => movegen::checkers_has_capture(state),
        }
    }
}

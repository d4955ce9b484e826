//! Kamelen (Fred Horn, 1991): camels and dromedaries leap across a board of 11 files and 11,
//! 12 or 13 ranks among six rocks. A camel that reaches the enemy home-field wins double;
//! capturing every enemy camel that could ever get there wins. The rules are in
//! `docs/rules/kamelen.md`.
//!
//! - `kamelen`: the standard 11x11 board (two 11x5 halves and the 11x1 strip).
//! - `kamelen-11x12`: the halves and the 11x2 strip.
//! - `kamelen-11x13`: the halves and both strips.
//!
//! A camel's leap never changes the colour of its square, so only the camels standing on the
//! colour of the enemy home-field are "able" to conquer it; which they are depends on the board
//! and is computed from it ([`Kamelen::able_camels`]).
//!
//! The position is a mailbox of one byte per square with each side's animals and camels as
//! 143-bit sets; every leap, with the two squares it passes, is in a table per board computed
//! at compile time.
//!
//! ```
//! use denkmeter_core::Game;
//! use denkmeter_games::kamelen::Kamelen;
//!
//! let game = Kamelen::new();
//! let start = game.start();
//! let mut moves = Vec::new();
//! game.legal_moves(&start, &mut moves);
//! assert_eq!(moves.len(), 16);
//! let mv = game.parse_move(&start, "e1-h3").unwrap();
//! let mut next = start.clone();
//! game.play_unchecked(&mut next, mv);
//! assert_eq!(
//!     game.position_text(&next),
//!     "ddddd1ddddd/1cccc1cccc1/11/2X2X2X2/11/11/11/2X2X2X2/7D3/1CCCC1CCCC1/DDDD2DDDDD b"
//! );
//! ```

mod movegen;
mod notation;
mod state;
#[cfg(test)]
mod tests;

use std::fmt;

use denkmeter_core::{
    Board, Cell, CellStyle, DisplayName, Emblem, Facts, Game, MoveError, MoveView, Outcome,
    PieceShape, PieceStyle, PieceView, Player, PositionError, PositionView, Reason, RulesetVisitor,
    Score, SearchKind, Status, Viewer,
};

use state::{
    owner_bit, square_name, Tables, CAMEL, DROMEDARY, EMPTY, FILES, MAX_SQUARES, NONE, ROCK, WHITE,
};
pub use state::{Occupant, Piece, State};

/// A Kamelen move: an animal leaping from one square to another (capturing what stands
/// there, if anything), or a pass. Each start and end is joined by exactly one leap.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
}

impl Move {
    /// The pass: the only move of a player who cannot move while the game goes on.
    pub const PASS: Move = Move {
        from: NONE,
        to: NONE,
    };

    #[inline]
    pub(crate) const fn new(from: u8, to: u8) -> Move {
        Move { from, to }
    }

    /// Whether this is the pass.
    pub const fn is_pass(self) -> bool {
        self.from == NONE
    }

    /// The square the animal leaves (`None` for a pass).
    pub fn from(self) -> Option<Cell> {
        (!self.is_pass()).then_some(Cell(u16::from(self.from)))
    }

    /// The square the animal lands on (`None` for a pass).
    pub fn to(self) -> Option<Cell> {
        (!self.is_pass()).then_some(Cell(u16::from(self.to)))
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            return f.write_str("Move(pass)");
        }
        write!(
            f,
            "Move({}-{})",
            square_name(self.from),
            square_name(self.to)
        )
    }
}

/// The three rulesets: the board's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `kamelen`: 11x11, the standard board.
    Standard,
    /// `kamelen-11x12`: the 11x2 middle strip.
    Ranks12,
    /// `kamelen-11x13`: both middle strips.
    Ranks13,
}

impl Variant {
    /// Every variant, in the registry's order.
    pub const ALL: [Variant; 3] = [Variant::Standard, Variant::Ranks12, Variant::Ranks13];

    /// The stable ruleset name.
    /// The ruleset's name for people: the game's, and what this variant changes.
    pub const fn title(self) -> DisplayName {
        let variant = match self {
            Variant::Standard => "",
            Variant::Ranks12 => " 11x12",
            Variant::Ranks13 => " 11x13",
        };
        DisplayName::from_parts(["Kamelen", variant, "", ""])
    }

    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "kamelen",
            Variant::Ranks12 => "kamelen-11x12",
            Variant::Ranks13 => "kamelen-11x13",
        }
    }

    /// The board's number of ranks: 11, 12 or 13.
    pub const fn ranks(self) -> usize {
        match self {
            Variant::Standard => 11,
            Variant::Ranks12 => 12,
            Variant::Ranks13 => 13,
        }
    }

    /// One line for `denkmeter list`.
    pub const fn description(self) -> &'static str {
        match self {
            Variant::Standard => {
                "Kamelen (Horn, 1991): camels and dromedaries leap among rocks on 11x11; a camel \
                 on the enemy home-field wins double"
            }
            Variant::Ranks12 => "Kamelen on the 11x12 board (the two-rank middle strip)",
            Variant::Ranks13 => "Kamelen on the 11x13 board (both middle strips)",
        }
    }

    /// The ruleset's facts.
    pub const fn facts(self) -> &'static Facts {
        const RULES: &str = include_str!("../../../../docs/rules/kamelen.md");
        // Alpha-beta: it beats Monte Carlo tree search 20-0 at 0.3 s a move.
        const fn facts(variant: Variant) -> Facts {
            Facts {
                search: SearchKind::AlphaBeta,
                title: variant.title(),
                ..Facts::new(variant.name(), "kamelen", variant.description(), RULES)
            }
        }
        const STANDARD: Facts = facts(Variant::Standard);
        const RANKS_12: Facts = facts(Variant::Ranks12);
        const RANKS_13: Facts = facts(Variant::Ranks13);
        match self {
            Variant::Standard => &STANDARD,
            Variant::Ranks12 => &RANKS_12,
            Variant::Ranks13 => &RANKS_13,
        }
    }
}

/// Every Kamelen ruleset, for the registry: `kamelen`, `kamelen-11x12`, `kamelen-11x13`.
pub fn rulesets(visitor: &mut impl RulesetVisitor) {
    for variant in Variant::ALL {
        visitor.visit(Kamelen::with_variant(variant));
    }
}

/// White's (South's) home-field, f1.
pub const HOME_WHITE: CellStyle = CellStyle {
    class: "home-white",
    fill: "#7cc46a",
    glyph: '+',
    words: "White's home-field",
};
/// Black's (North's) home-field, on the f-file of the far rank.
pub const HOME_BLACK: CellStyle = CellStyle {
    class: "home-black",
    fill: "#6fb3d9",
    glyph: '*',
    words: "Black's home-field",
};
/// The middle strip between the two 11x5 halves (one, two or three ranks).
pub const STRIP: CellStyle = CellStyle {
    class: "strip",
    fill: "#e6d2a2",
    glyph: ':',
    words: "middle strip",
};

const PIECES: [PieceStyle; 3] = [
    PieceStyle {
        kind: Piece::Camel.name(),
        letter: Piece::Camel.letter(),
        shape: PieceShape::Triangle,
        emblem: Emblem::Plain,
    },
    PieceStyle {
        kind: Piece::Dromedary.name(),
        letter: Piece::Dromedary.letter(),
        shape: PieceShape::Diamond,
        emblem: Emblem::Plain,
    },
    PieceStyle {
        kind: Piece::Rock.name(),
        letter: Piece::Rock.letter(),
        shape: PieceShape::Stone,
        emblem: Emblem::Plain,
    },
];

/// The game of Kamelen on one of its three boards.
#[derive(Clone, Debug)]
pub struct Kamelen {
    variant: Variant,
    tables: &'static Tables,
    board: Board,
}

impl Kamelen {
    /// The ruleset `kamelen` (11x11).
    pub fn new() -> Kamelen {
        Kamelen::with_variant(Variant::Standard)
    }

    /// The ruleset of `variant`. Its board has the home-fields painted with [`HOME_WHITE`]
    /// and [`HOME_BLACK`] and the middle strip with [`STRIP`].
    pub fn with_variant(variant: Variant) -> Kamelen {
        let ranks = variant.ranks();
        let tables = Tables::of(ranks);
        let mut board = Board::rectangle(FILES, ranks, false).with_pieces(&PIECES);
        for rank in 5..ranks - 5 {
            for file in 0..FILES {
                board.paint(Cell((file + FILES * rank) as u16), STRIP);
            }
        }
        board.paint(Cell(u16::from(tables.home.white)), HOME_WHITE);
        board.paint(Cell(u16::from(tables.home.black)), HOME_BLACK);
        Kamelen {
            variant,
            tables,
            board,
        }
    }

    /// This ruleset's variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The board's number of ranks (11, 12 or 13).
    pub fn ranks(&self) -> usize {
        self.tables.ranks
    }

    /// `player`'s own home-field: f1 for White, f11, f12 or f13 for Black. The enemy's camel
    /// landing there wins double.
    pub fn home_field(&self, player: Player) -> Cell {
        Cell(u16::from(self.tables.home[player]))
    }

    /// Whether a camel of `player` on `cell` is able to conquer the enemy home-field: the cell
    /// has the colour (`(file + rank) mod 2`) of the enemy home-field. A camel's leap keeps
    /// the colour of its square, so no other camel can ever get there.
    pub fn is_able_square(&self, player: Player, cell: Cell) -> bool {
        cell.index() < self.tables.squares && self.tables.able[player].contains(cell.0 as u8)
    }

    /// The squares of `player`'s able camels, lowest first: the camels on the colour of the
    /// enemy home-field. Capturing all of them wins.
    pub fn able_camels<'a>(
        &'a self,
        state: &'a State,
        player: Player,
    ) -> impl Iterator<Item = Cell> + 'a {
        state.camels[player]
            .and(self.tables.able[player])
            .squares()
            .map(|sq| Cell(u16::from(sq)))
    }

    /// The fewest camel leaps from `cell` to `player`'s enemy home-field on an empty board,
    /// or `None` when a camel of `player` there can never reach it.
    pub fn camel_distance(&self, player: Player, cell: Cell) -> Option<u32> {
        let d = *self.tables.distance[player].get(cell.index())?;
        (d != NONE).then_some(u32::from(d))
    }

    /// Whether a camel of `player` could leap onto the enemy home-field now.
    fn threatens_home_field(&self, state: &State, player: Player) -> bool {
        let target = self.tables.home[!player];
        let cells = &state.cells;
        cells[target as usize] & owner_bit(player) == 0
            && self.tables.arrivals(CAMEL, target).iter().any(|leap| {
                cells[leap.to as usize] == owner_bit(player) | CAMEL
                    && cells[leap.a as usize] | cells[leap.b as usize] == EMPTY
            })
    }

    /// The double win of `winner`, whose camel stands on the enemy home-field.
    fn double_win(&self, winner: Player) -> Status {
        let (white, black) = match winner {
            Player::White => (2, 0),
            Player::Black => (0, 2),
        };
        let field = square_name(self.tables.home[!winner]);
        Status::Over(Outcome {
            winner: Some(winner),
            reason: Reason::DoubleWin,
            score: Some(Score {
                white,
                black,
                breakdown: format!(
                    "{winner}'s camel conquered {}'s home-field {field}",
                    !winner
                ),
            }),
        })
    }
}

impl Default for Kamelen {
    fn default() -> Kamelen {
        Kamelen::new()
    }
}

/// The evaluation's weights, in hundredths of a dromedary.
const DROMEDARY_VALUE: i32 = 100;
/// A camel that can never reach the enemy home-field still captures and blocks.
const IDLE_CAMEL_VALUE: i32 = 70;
/// The worth of a side's able camels by how many are left: the last ones weigh most, since
/// losing them all loses the game.
const ABLE_VALUE: [i32; 5] = [0, 320, 540, 700, 820];
/// An able camel's bonus by its camel leaps to the enemy home-field (1, 2, 3, 4 or more).
const NEAR_BONUS: [i32; 5] = [90, 40, 18, 6, 0];
/// The side to move can land a camel on the enemy home-field: a win next ply.
const WIN_NOW: i32 = 3_000;
/// The opponent could land a camel on our home-field unless we stop it.
const HOME_THREAT: i32 = 250;
/// The null move is offered to a side with at least this many animals.
const NULL_MOVE_ANIMALS: u32 = 4;
/// Each legal move more than the opponent has (leaping animals hem each other in, and a side
/// shut in must pass).
const MOBILITY: i32 = 10;

impl Game for Kamelen {
    type Move = Move;
    type State = State;

    fn facts(&self) -> &Facts {
        self.variant.facts()
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn start(&self) -> State {
        let ranks = self.tables.ranks;
        let mut cells = [EMPTY; MAX_SQUARES];
        for side in Player::BOTH {
            // Each player's half, counted from that player's own first rank.
            let rank = |r: usize| match side {
                Player::White => r,
                Player::Black => ranks - 1 - r,
            };
            let owner = owner_bit(side);
            for file in (0..FILES).filter(|&f| f != 5) {
                cells[file + FILES * rank(0)] = owner | DROMEDARY;
                if (1..=9).contains(&file) {
                    cells[file + FILES * rank(1)] = owner | CAMEL;
                }
            }
            for file in [2, 5, 8] {
                cells[file + FILES * rank(3)] = ROCK;
            }
        }
        State::from_cells(cells, Player::White)
    }

    fn to_move(&self, state: &State) -> Player {
        state.to_move
    }

    fn legal_moves(&self, state: &State, moves: &mut Vec<Move>) {
        movegen::legal_moves(self.tables, state, moves);
    }

    fn play_unchecked(&self, state: &mut State, mv: Move) {
        movegen::play(state, mv);
    }

    /// In this order: the player who has just moved has a camel on the enemy home-field (a
    /// double win for that player); the player to move has one there (a double win); the
    /// player to move has no able camel left (a loss); the player who has just moved has none
    /// (a win for the player to move). Otherwise the game goes on.
    fn status(&self, state: &State) -> Status {
        let t = self.tables;
        let side = state.to_move;
        let camel_on_enemy_home =
            |p: Player| state.cells[t.home[!p] as usize] == owner_bit(p) | CAMEL;
        if camel_on_enemy_home(!side) {
            self.double_win(!side)
        } else if camel_on_enemy_home(side) {
            self.double_win(side)
        } else if !movegen::has_able_camel(t, state, side) {
            Status::Over(Outcome::win(!side, Reason::Powerless))
        } else if !movegen::has_able_camel(t, state, !side) {
            Status::Over(Outcome::win(side, Reason::Powerless))
        } else {
            Status::Ongoing
        }
    }

    fn hash(&self, state: &State) -> u64 {
        state.hash
    }

    /// A dromedary 100, a camel 200 (only camels can win; rocks belong to nobody). The
    /// evaluation weighs camels by whether they can reach the enemy home-field; material does
    /// not look that far.
    fn material(&self, state: &State) -> Option<i32> {
        let material = |p: Player| {
            state.count(p, Piece::Dromedary) as i32 * DROMEDARY_VALUE
                + state.count(p, Piece::Camel) as i32 * 2 * DROMEDARY_VALUE
        };
        Some(material(Player::White) - material(Player::Black))
    }

    /// Material (a dromedary 100, a camel that can never conquer 70, the able camels more the
    /// fewer are left), how close the able camels are to the enemy home-field, threats (able
    /// camels the side to move can take or must save, camels one leap from a home-field) and
    /// mobility (10 a move).
    fn evaluate(&self, state: &State) -> i32 {
        let t = self.tables;
        let side = state.to_move;
        let mut score = 0;
        for (player, sign) in [(side, 1), (!side, -1)] {
            let camels = state.camels[player].count() as i32;
            let dromedaries = state.animals[player].count() as i32 - camels;
            let mut able = 0;
            let mut near = 0;
            let mut attacked = 0;
            for cell in self.able_camels(state, player) {
                able += 1;
                let d = t.distance[player][cell.index()];
                near += NEAR_BONUS[usize::from(d.clamp(1, 5)) - 1];
                if movegen::is_attacked(t, state, cell.0 as u8, !player) {
                    attacked += 1;
                }
            }
            let able_value = ABLE_VALUE[able.min(4)];
            // What losing one more able camel would cost.
            let loss = able_value - ABLE_VALUE[able.saturating_sub(1).min(4)];
            let threat = if player == side {
                // We move first and save one attacked camel; a second one is likely lost.
                loss * attacked.min(1) / 5 + loss * (attacked - 1).max(0) / 2
            } else {
                // We are to move and take one.
                loss * attacked.min(1) * 3 / 4
            };
            score += sign
                * (dromedaries * DROMEDARY_VALUE
                    + (camels - able as i32) * IDLE_CAMEL_VALUE
                    + able_value
                    + near
                    - threat);
        }
        score += MOBILITY
            * (movegen::count_moves(t, state, side) - movegen::count_moves(t, state, !side));
        if self.threatens_home_field(state, side) {
            score += WIN_NOW;
        } else if self.threatens_home_field(state, !side) {
            score -= HOME_THREAT;
        }
        score
    }

    /// What the animal landed on is worth: a dromedary 100, a camel that can never conquer 70,
    /// an able camel what losing it costs its side (`ABLE_VALUE`); a camel landing on the
    /// enemy home-field wins at once (`WIN_NOW`).
    fn move_gain(&self, state: &State, mv: Move) -> i32 {
        if mv.is_pass() {
            return 0;
        }
        let t = self.tables;
        let side = state.to_move;
        let target = state.cells[mv.to as usize];
        let mut gain = 0;
        if target & owner_bit(!side) != 0 {
            gain += if target & CAMEL == 0 {
                DROMEDARY_VALUE
            } else if t.able[!side].contains(mv.to) {
                let able = state.camels[!side].and(t.able[!side]).count() as usize;
                ABLE_VALUE[able.min(4)] - ABLE_VALUE[(able - 1).min(4)]
            } else {
                IDLE_CAMEL_VALUE
            };
        }
        if mv.to == t.home[!side] && state.cells[mv.from as usize] & CAMEL != 0 {
            gain += WIN_NOW;
        }
        gain
    }

    /// The opponent has a camel one free leap from our home-field: stop it or lose.
    fn forcing(&self, state: &State) -> bool {
        self.threatens_home_field(state, !state.to_move)
    }

    /// Passing, unless forcing or short of animals: leaping animals almost always have a
    /// harmless move, so having the move is no burden, and a side that has none passes anyway.
    fn null_move(&self, state: &State) -> Option<State> {
        let side = state.to_move;
        if state.animals[side].count() < NULL_MOVE_ANIMALS || self.forcing(state) {
            return None;
        }
        let mut passed = state.clone();
        movegen::play(&mut passed, Move::PASS);
        Some(passed)
    }

    fn move_text(&self, state: &State, mv: Move) -> String {
        notation::move_text(state, mv)
    }

    fn parse_move(&self, state: &State, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(self.tables, state, text)
    }

    fn position_text(&self, state: &State) -> String {
        notation::position_text(state, self.tables.ranks)
    }

    fn parse_position(&self, text: &str) -> Result<State, PositionError> {
        notation::parse_position(text, self.tables.ranks)
    }

    fn move_view(&self, state: &State, mv: Move) -> MoveView {
        if mv.is_pass() {
            return MoveView::default();
        }
        let captures = state.cells[mv.to as usize] & owner_bit(!state.to_move) != 0;
        MoveView {
            from: mv.from(),
            to: mv.to(),
            captured: if captures {
                mv.to().into_iter().collect()
            } else {
                Vec::new()
            },
            ..MoveView::default()
        }
    }

    /// Every piece: the animals with their owners, and the rocks, which belong to nobody,
    /// as White's (by convention; a stone's owner is ignored when drawn).
    fn position_view(&self, state: &State, _viewer: Viewer) -> PositionView {
        let mut pieces = Vec::new();
        for sq in 0..self.tables.squares {
            let (owner, piece) = match state.cells[sq] {
                EMPTY => continue,
                ROCK => (Player::White, Piece::Rock),
                c => (
                    if c & WHITE != 0 {
                        Player::White
                    } else {
                        Player::Black
                    },
                    if c & CAMEL != 0 {
                        Piece::Camel
                    } else {
                        Piece::Dromedary
                    },
                ),
            };
            pieces.push(PieceView {
                cell: Cell(sq as u16),
                owner,
                kind: piece.name(),
                letter: piece.letter_of(owner),
            });
        }
        PositionView {
            pieces,
            absent: Vec::new(),
            to_move: state.to_move,
        }
    }
}

//! Straat (Fred Schuurhof, 1984): two players lay 8 tiles each into a transparent 4x4 frame;
//! every tile is half black, half white on one face and solid in its owner's colour on the
//! other. When the frame is full, each player counts the streets of their colour (regions
//! joining opposite sides) on the front and, the frame turned over, on the back. The rules are
//! in `shared/rules/straat.md`; how the tiles look and how streets are counted are
//! reconstructions. Three rulesets:
//!
//! - `straat`: the half/half face is split straight and always lies up.
//! - `straat-diagonal`: the split runs corner to corner.
//! - `straat-flip`: straight split; a tile may also lie solid face up.
//!
//! A position keeps each face's colours as two 64-bit bitboards (quarter-cells, or triangles
//! for the diagonal front), updated as tiles are laid; streets are found by flood fill with
//! shifts (see [`Streets`] and [`Straat::streets`]).
//!
//! ```
//! use denkmeter_core::Game;
//! use denkmeter_games::straat::Straat;
//!
//! let game = Straat::new();
//! let start = game.start();
//! let mut moves = Vec::new();
//! game.legal_moves(&start, &mut moves);
//! assert_eq!(moves.len(), 64);
//! let mv = game.parse_move(&start, "b3n").unwrap();
//! let mut next = start.clone();
//! game.play_unchecked(&mut next, mv);
//! assert_eq!(game.position_text(&next), "4/1N2/4/4 b");
//! ```

mod notation;
mod state;
mod streets;
#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::LazyLock;

use denkmeter_core::{
    Board, Cell, DisplayName, Emblem, Facts, Game, Highlight, MoveError, MoveView, Outcome,
    PieceShape, PieceStyle, PieceView, Player, PositionError, PositionView, Reason, RepetitionRule,
    RulesetVisitor, Score, Status, Towards, Viewer,
};

pub use state::{Orientation, State, Tile};
pub use streets::{count as count_streets, Face, Layout, Street, StreetCount, Streets};

/// The start position: the empty frame, White to move.
pub const START: &str = "4/4/4/4 w";

/// Every Straat ruleset, for the registry: `straat`, `straat-diagonal`, `straat-flip`.
pub fn rulesets(visitor: &mut impl RulesetVisitor) {
    for variant in Variant::ALL {
        visitor.visit(Straat::with_variant(variant));
    }
}

/// A Straat move: the mover's tile laid on an empty cell, turned one of four ways, and (in
/// `straat-flip`) half/half or solid face up.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The cell, `file + 4 * rank`.
    cell: u8,
    /// The orientation's number, plus 4 if the solid face is up.
    face: u8,
}

impl Move {
    #[inline(always)]
    const fn new(cell: u8, orientation: Orientation, solid_up: bool) -> Move {
        Move {
            cell,
            face: orientation.index() | (solid_up as u8) << 2,
        }
    }

    /// The cell the tile is laid on.
    pub fn cell(self) -> Cell {
        Cell(u16::from(self.cell))
    }

    /// How the tile's half/half face is turned.
    pub fn orientation(self) -> Orientation {
        Orientation::from_index(self.face & 3)
    }

    /// Whether the tile lies solid face up.
    pub fn solid_up(self) -> bool {
        self.face & 4 != 0
    }

    /// The choice a person picks after clicking the cell: `n`, `e`, `s`, `w`, `n*`, ...
    pub fn choice(self) -> &'static str {
        const CHOICES: [&str; 8] = ["n", "e", "s", "w", "n*", "e*", "s*", "w*"];
        CHOICES[usize::from(self.face & 7)]
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
    /// `straat`: straight split, half/half face up.
    Straight,
    /// `straat-diagonal`: diagonal split, half/half face up.
    Diagonal,
    /// `straat-flip`: straight split; either face up.
    Flip,
}

impl Variant {
    /// Every variant, in the registry's order.
    pub const ALL: [Variant; 3] = [Variant::Straight, Variant::Diagonal, Variant::Flip];

    /// The stable ruleset name.
    /// The ruleset's name for people: the game's, and what this variant changes.
    pub const fn title(self) -> DisplayName {
        let variant = match self {
            Variant::Straight => "",
            Variant::Diagonal => ", diagonal tiles",
            Variant::Flip => ", tiles that flip",
        };
        DisplayName::from_parts(["Straat", variant, "", ""])
    }

    pub const fn name(self) -> &'static str {
        match self {
            Variant::Straight => "straat",
            Variant::Diagonal => "straat-diagonal",
            Variant::Flip => "straat-flip",
        }
    }

    /// One line for `denkmeter list`.
    pub const fn description(self) -> &'static str {
        match self {
            Variant::Straight => {
                "Straat (Schuurhof, 1984): lay half black, half white tiles in a 4x4 frame; \
                 count streets of your colour on the front and on the back"
            }
            Variant::Diagonal => "Straat with tiles split corner to corner",
            Variant::Flip => "Straat where a tile may also lie solid face up",
        }
    }

    /// How the front is divided: quarter-cells or triangles.
    pub const fn front_layout(self) -> Layout {
        match self {
            Variant::Diagonal => Layout::Triangles,
            Variant::Straight | Variant::Flip => Layout::Quarters,
        }
    }

    /// Whether a tile may lie solid face up.
    pub const fn flip(self) -> bool {
        matches!(self, Variant::Flip)
    }

    /// The ruleset's facts. A position never repeats (every move adds a tile). The computer
    /// plays the last placements perfectly: the last 9 in `straat`, 10 in `straat-diagonal`
    /// and 7 in `straat-flip`, where the slowest of 20 to 30 random positions solved in at most
    /// 0.18 s (one more placement costs about four times as much).
    pub const fn facts(self) -> &'static Facts {
        const RULES: &str = include_str!("../../../../docs/rules/straat.md");
        const fn facts(variant: Variant) -> Facts {
            Facts {
                repetition: RepetitionRule::Ignore,
                playout_limit: 16,
                players_at_ends: false,
                exact_endgame: match variant {
                    Variant::Straight => 9,
                    Variant::Diagonal => 10,
                    Variant::Flip => 7,
                },
                title: variant.title(),
                ..Facts::new(variant.name(), "straat", variant.description(), RULES)
            }
        }
        const STRAIGHT: Facts = facts(Variant::Straight);
        const DIAGONAL: Facts = facts(Variant::Diagonal);
        const FLIP: Facts = facts(Variant::Flip);
        match self {
            Variant::Straight => &STRAIGHT,
            Variant::Diagonal => &DIAGONAL,
            Variant::Flip => &FLIP,
        }
    }
}

/// The game's word for a tile's half/half face, per orientation (views and legend).
pub const TILE_KINDS: [&str; 4] = ["tile-n", "tile-e", "tile-s", "tile-w"];
/// The game's word for a tile's solid face, whatever its orientation.
pub const SOLID_KIND: &str = "solid";

/// The kind of the face of `tile` seen from the front: its half/half face by its orientation,
/// or `solid`.
pub fn tile_kind(tile: Tile) -> &'static str {
    if tile.solid_up {
        SOLID_KIND
    } else {
        TILE_KINDS[usize::from(tile.orientation.index())]
    }
}

/// The kind of the face of `tile` seen from the back, in front coordinates (a half/half face
/// keeps the orientation named from the front).
pub fn back_kind(tile: Tile) -> &'static str {
    tile_kind(Tile {
        solid_up: !tile.solid_up,
        ..tile
    })
}

/// The letter of a solid face in views (uppercase for White's): the orientation of a solid
/// face cannot be seen.
const SOLID_LETTER: char = 'O';

/// The letter of a face of `tile` in views, in its owner's case: the orientation of a
/// half/half face, or `O` for the solid face.
fn face_letter(tile: Tile, solid: bool) -> char {
    match (solid, tile.owner) {
        (false, _) => tile.letter(),
        (true, Player::White) => SOLID_LETTER,
        (true, Player::Black) => SOLID_LETTER.to_ascii_lowercase(),
    }
}

/// The board with its legend: the half/half faces split straight or corner to corner (the
/// black corner of an `n` tile is north-east), and the solid face.
fn build_board(layout: Layout) -> Board {
    let towards = |o: Orientation| match (layout, o) {
        (Layout::Quarters, Orientation::North) => Towards::North,
        (Layout::Quarters, Orientation::East) => Towards::East,
        (Layout::Quarters, Orientation::South) => Towards::South,
        (Layout::Quarters, Orientation::West) => Towards::West,
        (Layout::Triangles, Orientation::North) => Towards::NorthEast,
        (Layout::Triangles, Orientation::East) => Towards::SouthEast,
        (Layout::Triangles, Orientation::South) => Towards::SouthWest,
        (Layout::Triangles, Orientation::West) => Towards::NorthWest,
    };
    let pieces: Vec<PieceStyle> = Orientation::ALL
        .into_iter()
        .map(|o| PieceStyle {
            kind: TILE_KINDS[usize::from(o.index())],
            letter: o.letter().to_ascii_uppercase(),
            shape: PieceShape::SplitTile(towards(o)),
            emblem: Emblem::Plain,
        })
        .chain(std::iter::once(PieceStyle {
            kind: SOLID_KIND,
            letter: SOLID_LETTER,
            shape: PieceShape::Tile,
            emblem: Emblem::Plain,
        }))
        .collect();
    Board::rectangle(4, 4, false).with_pieces(&pieces)
}

/// The boards, built once: tiles split straight, and corner to corner.
static BOARD: LazyLock<Board> = LazyLock::new(|| build_board(Layout::Quarters));
static DIAGONAL_BOARD: LazyLock<Board> = LazyLock::new(|| build_board(Layout::Triangles));

/// The streets of a face whose every cell is one colour, by the set of that colour's cells
/// (bit `file + 4 * rank`): both directions together, as [`StreetCount::total`] gives them.
/// Built once; the endgame solver counts the back of every full frame it reaches this way.
static SOLID_BACK_STREETS: LazyLock<Vec<u8>> = LazyLock::new(|| {
    (0..=u16::MAX)
        .map(|cells| {
            let quarters = (0..16)
                .filter(|cell| cells & (1 << cell) != 0)
                .fold(0, |q, cell| q | Layout::Quarters.cell(cell));
            count_streets(Layout::Quarters, quarters).total() as u8
        })
        .collect()
});

/// The cells (bit `file + 4 * rank`) whose south-west quarter is in `quarters`: for a face of
/// solid cells, the cells of that colour.
#[inline]
fn cells_of_quarters(quarters: u64) -> u16 {
    // The south-west quarter of cell (file, rank) is bit 2 * file + 16 * rank: gather the four
    // of each rank into a nibble, then the four nibbles.
    let mut v = quarters & 0x0055_0055_0055_0055;
    v = (v | v >> 1) & 0x0033_0033_0033_0033;
    v = (v | v >> 2) & 0x000F_000F_000F_000F;
    v = (v | v >> 12) & 0x0000_00FF_0000_00FF;
    v = (v | v >> 24) & 0xFFFF;
    v as u16
}

/// The game of Straat in one of its three rulesets.
#[derive(Clone, Debug)]
pub struct Straat {
    variant: Variant,
    board: &'static Board,
}

impl Straat {
    /// The ruleset `straat`.
    pub fn new() -> Straat {
        Straat::with_variant(Variant::Straight)
    }

    /// The ruleset `straat-diagonal`.
    pub fn diagonal() -> Straat {
        Straat::with_variant(Variant::Diagonal)
    }

    /// The ruleset `straat-flip`.
    pub fn flip() -> Straat {
        Straat::with_variant(Variant::Flip)
    }

    /// The ruleset of `variant`.
    pub fn with_variant(variant: Variant) -> Straat {
        Straat {
            variant,
            board: match variant.front_layout() {
                Layout::Quarters => &BOARD,
                Layout::Triangles => &DIAGONAL_BOARD,
            },
        }
    }

    /// This ruleset's variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The colours of `face` as two sets (White's colour, Black's colour) of pieces in
    /// [`Straat::layout`]`(face)`. Empty cells are in neither set.
    pub fn colours(&self, state: &State, face: Face) -> [u64; 2] {
        match face {
            Face::Front => state.front,
            Face::Back => state.back,
        }
    }

    /// How `face` is divided into pieces: the front of `straat-diagonal` into triangles,
    /// every other face into quarter-cells.
    pub fn layout(&self, face: Face) -> Layout {
        match face {
            Face::Front => self.variant.front_layout(),
            Face::Back => Layout::Quarters,
        }
    }

    /// The streets of any position, full or not, per face, colour and direction.
    pub fn streets(&self, state: &State) -> Streets {
        let mut streets = Streets::default();
        for face in Face::BOTH {
            streets.counts[face as usize] =
                streets::face_counts(self.layout(face), self.colours(state, face));
        }
        streets
    }

    /// The result of a full frame: the scores and who wins.
    pub fn outcome(&self, state: &State) -> Outcome {
        let streets = self.streets(state);
        let (white, black) = (streets.score(Player::White), streets.score(Player::Black));
        let winner = match white.cmp(&black) {
            std::cmp::Ordering::Greater => Some(Player::White),
            std::cmp::Ordering::Less => Some(Player::Black),
            std::cmp::Ordering::Equal => None,
        };
        Outcome {
            winner,
            reason: Reason::Score,
            score: Some(Score {
                white: i64::from(white),
                black: i64::from(black),
                breakdown: streets.to_string(),
            }),
        }
    }

    /// What the evaluation sees of `player`'s colour: streets (100 each) and how far each
    /// region reaches across the frame, on both faces.
    fn promise(&self, state: &State, player: Player) -> i32 {
        Face::BOTH
            .into_iter()
            .map(|face| {
                streets::promise(self.layout(face), self.colours(state, face)[player.index()])
            })
            .sum()
    }
}

impl Default for Straat {
    fn default() -> Straat {
        Straat::new()
    }
}

impl Game for Straat {
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

    /// Every empty cell (from `a1` to `d4`), each with the orientations `n`, `e`, `s`, `w`
    /// and in `straat-flip` then `n*`, `e*`, `s*`, `w*`. None once the frame is full.
    #[inline]
    fn legal_moves(&self, state: &State, moves: &mut Vec<Move>) {
        moves.clear();
        let faces = if self.variant.flip() { 8 } else { 4 };
        let mut empty = state.empty;
        while empty != 0 {
            let cell = empty.trailing_zeros() as u8;
            empty &= empty - 1;
            for face in 0..faces {
                moves.push(Move { cell, face });
            }
        }
    }

    #[inline]
    fn play_unchecked(&self, state: &mut State, mv: Move) {
        let tile = Tile {
            owner: state.to_move,
            orientation: mv.orientation(),
            solid_up: mv.solid_up(),
        };
        state.put(usize::from(mv.cell), tile, self.variant.front_layout());
        state.switch_side();
    }

    /// Ongoing while a cell is empty; then over by score (the streets of both faces).
    fn status(&self, state: &State) -> Status {
        if state.is_full() {
            Status::Over(self.outcome(state))
        } else {
            Status::Ongoing
        }
    }

    fn hash(&self, state: &State) -> u64 {
        state.hash
    }

    /// The difference of the street counts for the side to move (100 a street) plus a reward
    /// for regions of one's colour that stretch towards opposite sides: per region and
    /// direction, (eighths of the frame reached - 1)^2 / 2.
    fn evaluate(&self, state: &State) -> i32 {
        let me = state.to_move;
        self.promise(state, me) - self.promise(state, !me)
    }

    /// The empty cells: every line of play fills them all, one a ply.
    fn plies_to_end(&self, state: &State) -> Option<u32> {
        Some(state.empty_cells())
    }

    /// White's streets minus Black's once the frame is full, counted without building the
    /// outcome's breakdown; a back made of solid faces alone is looked up in a table of every
    /// pattern of 16 cells.
    fn score_margin(&self, state: &State) -> Option<i64> {
        if !state.is_full() {
            return None;
        }
        let front = self.layout(Face::Front);
        let [white, black] = state.front;
        let mut margin = i64::from(count_streets(front, white).total())
            - i64::from(count_streets(front, black).total());
        if self.variant.flip() {
            let [white, black] = state.back;
            margin += i64::from(count_streets(Layout::Quarters, white).total())
                - i64::from(count_streets(Layout::Quarters, black).total());
        } else {
            let white = cells_of_quarters(state.back[0]);
            let table = &*SOLID_BACK_STREETS;
            margin += i64::from(table[usize::from(white)]) - i64::from(table[usize::from(!white)]);
        }
        Some(margin)
    }

    fn move_text(&self, _state: &State, mv: Move) -> String {
        notation::move_text(mv)
    }

    fn parse_move(&self, state: &State, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(state, text, self.variant.flip())
    }

    fn position_text(&self, state: &State) -> String {
        notation::position_text(state)
    }

    fn parse_position(&self, text: &str) -> Result<State, PositionError> {
        notation::parse_position(text, self.variant.flip(), self.variant.front_layout())
    }

    /// Each side's tiles by the side the black half faces, and in `straat-flip` each lying
    /// solid face up (`N*`).
    fn editor_tokens(&self) -> Vec<denkmeter_core::EditorToken> {
        let mut tokens = Vec::new();
        for owner in [Player::White, Player::Black] {
            for solid_up in [false, true] {
                if solid_up && !self.variant.flip() {
                    continue;
                }
                for orientation in Orientation::ALL {
                    let tile = Tile {
                        owner,
                        orientation,
                        solid_up,
                    };
                    let mut text = tile.letter().to_string();
                    if solid_up {
                        text.push('*');
                    }
                    tokens.push(denkmeter_core::EditorToken {
                        text,
                        owner: Some(owner),
                        kind: tile_kind(tile),
                        letter: face_letter(tile, solid_up),
                    });
                }
            }
        }
        tokens
    }

    /// A placement: no `from`; click the cell, then choose the orientation (`n`, ... `w*`).
    /// It places the face it lays up (`tile-n`, ... or `solid`).
    fn move_view(&self, state: &State, mv: Move) -> MoveView {
        let tile = Tile {
            owner: state.to_move,
            orientation: mv.orientation(),
            solid_up: mv.solid_up(),
        };
        MoveView {
            to: Some(mv.cell()),
            choice: Some(mv.choice().to_string()),
            places: Some(tile_kind(tile)),
            ..MoveView::default()
        }
    }

    /// One piece per placed tile: its owner, its kind (the face up: `tile-n`, ... or `solid`)
    /// and its letter in its owner's case: the orientation of a half/half face, `O` for a
    /// solid one.
    fn position_view(&self, state: &State, _viewer: Viewer) -> PositionView {
        PositionView {
            pieces: state
                .tiles()
                .map(|(cell, tile)| PieceView {
                    cell,
                    owner: tile.owner,
                    kind: tile_kind(tile),
                    letter: face_letter(tile, tile.solid_up),
                })
                .collect(),
            absent: Vec::new(),
            to_move: state.to_move,
        }
    }

    /// The frame turned over: every tile's other face on its cell as named from the front
    /// (`solid`, lettered `O` or `o`, or in `straat-flip` the half/half face of a tile laid
    /// solid face up, lettered by its orientation).
    fn back_view(&self, state: &State, _viewer: Viewer) -> Option<PositionView> {
        Some(PositionView {
            pieces: state
                .tiles()
                .map(|(cell, tile)| PieceView {
                    cell,
                    owner: tile.owner,
                    kind: back_kind(tile),
                    letter: face_letter(tile, !tile.solid_up),
                })
                .collect(),
            absent: Vec::new(),
            to_move: state.to_move,
        })
    }

    /// Once the frame is full, every street that scored, front and back, each in its colour's
    /// owner's name (nothing is hidden in Straat).
    fn highlights(&self, state: &State, _viewer: Viewer) -> Vec<Highlight> {
        if !state.is_full() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for face in Face::BOTH {
            let layout = self.layout(face);
            for player in Player::BOTH {
                for street in streets::streets(layout, self.colours(state, face)[player.index()]) {
                    let joins = match (street.north_south, street.west_east) {
                        (true, true) => "north to south and west to east",
                        (true, false) => "north to south",
                        _ => "west to east",
                    };
                    let mut parts = Vec::new();
                    let mut rest = street.pieces;
                    while rest != 0 {
                        parts.push(layout.outline(rest.trailing_zeros()));
                        rest &= rest - 1;
                    }
                    out.push(Highlight {
                        side: face.side(),
                        owner: player,
                        label: format!("{player}'s street on the {}, {joins}", face.name()),
                        value: street.value(),
                        parts,
                    });
                }
            }
        }
        out
    }
}

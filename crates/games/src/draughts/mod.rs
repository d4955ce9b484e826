//! Draughts on square boards: the twelve Scandinavian checkers rulesets (`scandinavian[-8x8]
//! [-medium|-weak][-free]`), International draughts (`international`) and English checkers
//! (`english`). The rules are in `shared/rules/scandinavian.md` and
//! `shared/rules/draughts-reference.md`.
//!
//! One engine serves them all: [`Draughts`] is generic over a [`Variant`] whose associated
//! constants (board size and colour, the men's capture directions, flying or short dames,
//! majority or free capture, English crowning) are settled when each ruleset is compiled.
//! Positions are bitboards over the dark squares in a padded layout where every direction,
//! diagonal or orthogonal (to the next dark square along a rank or file), is a fixed shift.
//!
//! A move is identified by its start, its end and the pieces it captures; two routes with the
//! same three are one move. Its text names every landing square: `c3-d4`, `c3xe5xg3`. The
//! rulesets whose squares players number (International 1 to 50, English 1 to 32) show moves
//! in numbers instead, as their players write them (`32-28`, `19x30`); every ruleset reads
//! both.
//!
//! International draughts and English checkers also end in a draw by their governing bodies'
//! move counts (the 25-, 16- and 5-move rules; the 40-move rule), kept in the [`State`] so that
//! the search sees them (see `draw`).
//!
//! ```
//! use denkmeter_core::Game;
//! use denkmeter_games::draughts::International;
//!
//! let game = International::new();
//! let start = game.start();
//! let mut moves = Vec::new();
//! game.legal_moves(&start, &mut moves);
//! assert_eq!(moves.len(), 9);
//! let mv = game.parse_move(&start, "b4-a5").unwrap();
//! assert_eq!(game.move_text(&start, mv), "31-26");
//! assert_eq!(game.parse_move(&start, "31-26"), Ok(mv));
//! ```

mod draw;
mod dxp;
pub mod egtb;
mod eval;
mod fen;
mod geometry;
mod hub;
mod movegen;
mod notation;
pub mod patterns;
mod state;
#[cfg(test)]
mod tests;
#[doc(hidden)]
pub mod tuning;
mod variant;

use std::fmt;
use std::marker::PhantomData;

use denkmeter_core::{
    Board, ByPlayer, Cell, Emblem, Facts, Game, MoveError, MoveView, Outcome, PieceShape,
    PieceStyle, PieceView, Player, PositionError, PositionView, Reason, RulesetVisitor, SearchKind,
    Status, TableResult, TableValue, Viewer,
};

use geometry::{bit, Squares};
use variant::geometry;

pub use dxp::{
    code as dxp_code, dxp_letter, DxpError, DxpMessage, DxpMove, DxpPosition, EndReason, GameReq,
    DXP_NAME_LEN, DXP_VERSION, MAX_DXP_MESSAGE_LEN,
};
pub use hub::{HubError, MAX_HUB_MOVE_LEN};
pub use state::{Kind, State};
pub use variant::{
    EnglishRules, InternationalRules, ScandinavianRules, Variant, MEDIUM, STRONG, WEAK,
};

/// A draughts move: the square it starts on, the square it ends on and the pieces it captures.
/// The route of a capture (where the piece lands between) is found again from the position when
/// it is written or shown.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The captured squares, as bits of the padded layout.
    captured: u64,
    from: u8,
    to: u8,
}

impl Move {
    /// Whether the move captures.
    pub const fn is_capture(self) -> bool {
        self.captured != 0
    }

    /// The number of pieces captured.
    pub const fn capture_count(self) -> u32 {
        self.captured.count_ones()
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({}->{}", self.from, self.to)?;
        if self.captured != 0 {
            write!(f, " x{:#x}", self.captured)?;
        }
        f.write_str(")")
    }
}

/// One draughts ruleset; see the aliases [`Scandinavian`], [`International`], [`English`] and
/// the other Scandinavian ones.
#[derive(Clone, Debug)]
pub struct Draughts<V: Variant> {
    board: Board,
    variant: PhantomData<V>,
}

/// Scandinavian checkers on 10x10 (`scandinavian`).
pub type Scandinavian = Draughts<ScandinavianRules<10, STRONG, true>>;
/// `scandinavian-free`.
pub type ScandinavianFree = Draughts<ScandinavianRules<10, STRONG, false>>;
/// `scandinavian-medium`.
pub type ScandinavianMedium = Draughts<ScandinavianRules<10, MEDIUM, true>>;
/// `scandinavian-medium-free`.
pub type ScandinavianMediumFree = Draughts<ScandinavianRules<10, MEDIUM, false>>;
/// `scandinavian-weak`.
pub type ScandinavianWeak = Draughts<ScandinavianRules<10, WEAK, true>>;
/// `scandinavian-weak-free`.
pub type ScandinavianWeakFree = Draughts<ScandinavianRules<10, WEAK, false>>;
/// `scandinavian-8x8`.
pub type Scandinavian8x8 = Draughts<ScandinavianRules<8, STRONG, true>>;
/// `scandinavian-8x8-free`.
pub type Scandinavian8x8Free = Draughts<ScandinavianRules<8, STRONG, false>>;
/// `scandinavian-8x8-medium`.
pub type Scandinavian8x8Medium = Draughts<ScandinavianRules<8, MEDIUM, true>>;
/// `scandinavian-8x8-medium-free`.
pub type Scandinavian8x8MediumFree = Draughts<ScandinavianRules<8, MEDIUM, false>>;
/// `scandinavian-8x8-weak`.
pub type Scandinavian8x8Weak = Draughts<ScandinavianRules<8, WEAK, true>>;
/// `scandinavian-8x8-weak-free`.
pub type Scandinavian8x8WeakFree = Draughts<ScandinavianRules<8, WEAK, false>>;
/// International draughts (`international`).
pub type International = Draughts<InternationalRules>;
/// English checkers (`english`).
pub type English = Draughts<EnglishRules>;

/// Calls the macro `$m` with the fourteen draughts rule types (the [`Variant`]s), in the order
/// `denkmeter list` shows them: the one list for every place that needs them all. The men's
/// strengths are written as numbers: 0 [`STRONG`], 1 [`MEDIUM`], 2 [`WEAK`].
#[doc(hidden)]
#[macro_export]
macro_rules! for_draughts_variants {
    ($m:ident) => {
        $m!(
            $crate::draughts::ScandinavianRules<10, 0, true>,
            $crate::draughts::ScandinavianRules<10, 0, false>,
            $crate::draughts::ScandinavianRules<10, 1, true>,
            $crate::draughts::ScandinavianRules<10, 1, false>,
            $crate::draughts::ScandinavianRules<10, 2, true>,
            $crate::draughts::ScandinavianRules<10, 2, false>,
            $crate::draughts::ScandinavianRules<8, 0, true>,
            $crate::draughts::ScandinavianRules<8, 0, false>,
            $crate::draughts::ScandinavianRules<8, 1, true>,
            $crate::draughts::ScandinavianRules<8, 1, false>,
            $crate::draughts::ScandinavianRules<8, 2, true>,
            $crate::draughts::ScandinavianRules<8, 2, false>,
            $crate::draughts::InternationalRules,
            $crate::draughts::EnglishRules
        )
    };
}

/// The names of the fourteen draughts rulesets.
pub(crate) const NAMES: [&str; 14] = {
    macro_rules! names {
        ($($v:ty),*) => {
            [$(<$v as Variant>::NAME),*]
        };
    }
    crate::for_draughts_variants!(names)
};

/// All fourteen draughts rulesets, in the order `denkmeter list` shows them.
pub fn rulesets(visitor: &mut impl RulesetVisitor) {
    macro_rules! visit {
        ($($v:ty),*) => {
            $(visitor.visit(Draughts::<$v>::new());)*
        };
    }
    crate::for_draughts_variants!(visit);
}

impl<V: Variant> Draughts<V> {
    /// The ruleset's facts.
    pub const FACTS: Facts = Facts {
        playout_limit: 300,
        search: SearchKind::AlphaBeta,
        side_names: if V::FIRST_PLAYER_DARK {
            ByPlayer::new("Black", "White")
        } else {
            ByPlayer::new("White", "Black")
        },
        pdn: V::PDN,
        title: V::TITLE,
        ..Facts::new(V::NAME, V::FAMILY, V::DESCRIPTION, V::RULES)
    };

    /// The ruleset of variant `V`. Its board marks the squares `dark` and `light`.
    pub fn new() -> Self {
        let board = Board::rectangle(V::SIZE, V::SIZE, false)
            .checkered(V::A1_DARK)
            .with_pieces(&[
                PieceStyle {
                    kind: "man",
                    letter: Kind::Man.letter(Player::White),
                    shape: PieceShape::Disc,
                    emblem: Emblem::Plain,
                },
                PieceStyle {
                    kind: V::DAME_WORD,
                    letter: Kind::Dame.letter(Player::White),
                    shape: PieceShape::Crowned,
                    emblem: Emblem::Crown,
                },
            ]);
        let board = board.with_numbers((1..=fen::square_count::<V>()).filter_map(|n| {
            let sq = fen::numbered::<V>(n)?;
            Some((Self::cell(sq), u16::try_from(n).ok()?))
        }));
        Draughts {
            board: if V::FIRST_PLAYER_DARK {
                board.with_first_player_dark()
            } else {
                board
            },
            variant: PhantomData,
        }
    }

    /// The move in numbers (`32-28`, `19x30`), for the rulesets that number their squares;
    /// `parse_move` reads it back.
    pub fn numeric_move_text(&self, state: &State, mv: Move) -> Option<String> {
        fen::numeric_move::<V>(state, mv)
    }

    /// The board cell of a square of the padded layout.
    fn cell(sq: u8) -> Cell {
        Cell(u16::from(geometry::<V>().cell[usize::from(sq)]))
    }

    /// The squares a capture lands on, in order (the last is its end), and the pieces it takes
    /// in the order it takes them, along the route its text names.
    fn route(state: &State, mv: Move) -> (Vec<u8>, Vec<u8>) {
        let g = geometry::<V>();
        let landings = notation::chosen_route::<V>(state, mv);
        let mut at = mv.from;
        let mut taken = Vec::with_capacity(landings.len());
        for &next in &landings {
            for d in 0..8 {
                let ray = g.ray[d][usize::from(at)];
                if ray & bit(next) != 0 {
                    let between = ray & !(g.ray[d][usize::from(next)] | bit(next));
                    taken.extend(Squares(between & mv.captured));
                }
            }
            at = next;
        }
        (landings, taken)
    }
}

impl<V: Variant> Default for Draughts<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Variant> Game for Draughts<V> {
    type Move = Move;
    type State = State;

    fn facts(&self) -> &Facts {
        &Self::FACTS
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn start(&self) -> State {
        let g = geometry::<V>();
        let rows = if V::SIZE == 10 { 4 } else { 3 };
        let mut pieces = ByPlayer::new(0, 0);
        for sq in Squares(g.valid) {
            let (_, rank) = g.file_rank(sq);
            if rank < rows {
                pieces.white |= bit(sq);
            } else if rank >= V::SIZE - rows {
                pieces.black |= bit(sq);
            }
        }
        State::new(pieces, 0, Player::White)
    }

    fn to_move(&self, state: &State) -> Player {
        state.to_move
    }

    /// None once the game is over, also by a draw rule's count.
    fn legal_moves(&self, state: &State, moves: &mut Vec<Move>) {
        if draw::counted_out::<V>(state) {
            moves.clear();
            return;
        }
        movegen::legal_moves::<V>(state, moves);
    }

    fn play_unchecked(&self, state: &mut State, mv: Move) {
        movegen::play::<V>(state, mv);
    }

    /// A player who cannot move has lost, even when the move that blocked him ran out a draw
    /// rule's count; otherwise the draw rules of the ruleset may end the game.
    fn status(&self, state: &State) -> Status {
        if !movegen::has_move::<V>(state) {
            Status::Over(Outcome::win(!state.to_move, Reason::NoMoves))
        } else if let Some(draw) = draw::outcome::<V>(state) {
            Status::Over(draw)
        } else {
            Status::Ongoing
        }
    }

    /// The pieces, the side to move and the draw rules' counts (two positions that differ
    /// only in how near such a draw is may not have the same value).
    fn hash(&self, state: &State) -> u64 {
        draw::hash(state)
    }

    /// The pieces and the side to move, without the draw rules' counts.
    fn repetition_hash(&self, state: &State) -> u64 {
        state.hash
    }

    /// The plies since a man moved or a capture was made, where a draw rule counts them
    /// (International, English): men move only forward and captures remove pieces, so no
    /// earlier position can come back.
    fn reversible_plies(&self, state: &State) -> Option<u32> {
        (V::QUIET_PLY_LIMIT > 0).then_some(u32::from(state.quiet))
    }

    /// A man 100, a dame the ruleset's customary worth (the hand-set evaluation's: 320 in
    /// international, 450 in the Scandinavian rulesets, 150 in english). Fixed, so that match
    /// adjudication does not move when the evaluation's weights are fitted again.
    fn material(&self, state: &State) -> Option<i32> {
        let w = const { eval::Group::of::<V>().hand_weights() };
        let material = |p: Player| {
            let (men, dames) = state.count(p);
            men as i32 * w[eval::MAN] + dames as i32 * w[eval::DAME]
        };
        Some(material(Player::White) - material(Player::Black))
    }

    /// In numbers where the ruleset numbers its squares (`32-28`, `19x30`), else by square
    /// names (`c3-d4`, `c3xe5xg3`); `parse_move` reads both.
    fn move_text(&self, state: &State, mv: Move) -> String {
        notation::shown_text::<V>(state, mv)
    }

    fn parse_move(&self, state: &State, text: &str) -> Result<Move, MoveError> {
        notation::parse_move::<V>(state, text)
    }

    fn position_text(&self, state: &State) -> String {
        notation::position_text::<V>(state)
    }

    /// `W:W31,32,K45:B1,2`, for the rulesets that number their squares.
    fn fen(&self, state: &State) -> Option<String> {
        fen::write::<V>(state)
    }

    /// A position string, or a FEN where the ruleset numbers its squares.
    fn parse_position(&self, text: &str) -> Result<State, PositionError> {
        if V::NUMBERED && fen::looks_like_fen(text) {
            fen::parse::<V>(text)
        } else {
            notation::parse_position::<V>(text)
        }
    }

    fn move_view(&self, state: &State, mv: Move) -> MoveView {
        let (landings, taken) = if mv.is_capture() {
            Self::route(state, mv)
        } else {
            (vec![mv.to], Vec::new())
        };
        let via = landings[..landings.len().saturating_sub(1)]
            .iter()
            .map(|&sq| Self::cell(sq))
            .collect();
        MoveView {
            from: Some(Self::cell(mv.from)),
            via,
            to: Some(Self::cell(mv.to)),
            captured: taken.into_iter().map(Self::cell).collect(),
            promotes: movegen::promotes::<V>(state, mv),
            ..MoveView::default()
        }
    }

    fn position_view(&self, state: &State, _viewer: Viewer) -> PositionView {
        let pieces = Player::BOTH
            .into_iter()
            .flat_map(|owner| {
                [Kind::Man, Kind::Dame].into_iter().flat_map(move |kind| {
                    Squares(state.squares(owner, kind)).map(move |sq| PieceView {
                        cell: Self::cell(sq),
                        owner,
                        kind: match kind {
                            Kind::Man => "man",
                            Kind::Dame => V::DAME_WORD,
                        },
                        letter: kind.letter(owner),
                    })
                })
            })
            .collect();
        PositionView {
            pieces,
            absent: Vec::new(),
            to_move: state.to_move,
        }
    }

    /// See the `eval` module: material with the ruleset's dame value and positional terms.
    fn evaluate(&self, state: &State) -> i32 {
        eval::evaluate::<V>(state)
    }

    /// What the move captures: a man 100, a dame the ruleset's dame value.
    fn move_gain(&self, state: &State, mv: Move) -> i32 {
        tuning::move_gain_with(state, mv, eval::weights::<V>())
    }

    /// Only captures win something, and they are compulsory.
    fn gains_only_when_forcing(&self) -> bool {
        true
    }

    /// Bound to capture: captures are compulsory.
    fn forcing(&self, state: &State) -> bool {
        movegen::has_capture::<V>(state)
    }

    /// The opponent would be bound to capture if it were to move.
    fn threatened(&self, state: &State) -> bool {
        let mut passed = state.clone();
        passed.to_move = !passed.to_move;
        movegen::has_capture::<V>(&passed)
    }

    /// From the databases [`egtb::install`] installed, if they hold the position.
    fn table_value(&self, state: &State, distance: bool) -> Option<TableValue> {
        let pieces = (state.pieces.white | state.pieces.black).count_ones() as usize;
        if pieces > egtb::installed_pieces() {
            return None;
        }
        // A distance is asked for at the root only: worth waiting for the file there; below
        // it the search does without a material not yet read.
        let tables = egtb::installed(V::NAME)?;
        let probe = if distance {
            tables.probe(state)?
        } else {
            tables.probe_loaded(state, false)?
        };
        let (wdl, plies) = (probe.wdl, distance.then_some(probe.plies));
        let result = match wdl {
            egtb::Wdl::Win => TableResult::Win,
            egtb::Wdl::Draw => TableResult::Draw,
            egtb::Wdl::Loss => TableResult::Loss,
        };
        Some(TableValue {
            result,
            plies,
            exact: result == TableResult::Draw || draw::table_result_stands::<V>(state, plies),
        })
    }
}

//! The rules that differ between the draughts rulesets, as associated constants of a type, so
//! that the move generator is compiled once per ruleset with every choice settled.

use std::fmt::Debug;

use denkmeter_core::pdn::PdnType;
use denkmeter_core::{DisplayName, Player, Reason};

use super::geometry::{dirs, Geometry, EIGHT_A1_DARK, EIGHT_A1_LIGHT, TEN_A1_DARK, TEN_A1_LIGHT};

/// Scandinavian men capture in all eight directions.
pub const STRONG: u8 = 0;
/// Scandinavian men capture in all directions but the three backward ones.
pub const MEDIUM: u8 = 1;
/// Scandinavian men capture only forward: straight and diagonally.
pub const WEAK: u8 = 2;

mod sealed {
    pub trait Sealed {}
}

/// The parameters of one draughts ruleset. Implemented by [`ScandinavianRules`],
/// [`InternationalRules`] and [`EnglishRules`] only.
pub trait Variant: sealed::Sealed + Copy + Default + Debug + Send + Sync + 'static {
    /// The stable ruleset name.
    const NAME: &'static str;
    /// The ruleset's name for people.
    const TITLE: DisplayName;
    /// The rules page's name.
    const FAMILY: &'static str;
    /// One line for `denkmeter list`.
    const DESCRIPTION: &'static str;
    /// The rules page, in Markdown.
    const RULES: &'static str;
    /// Files and ranks: 8 or 10.
    const SIZE: usize;
    /// Whether `a1` is a dark (playing) square.
    const A1_DARK: bool;
    /// The directions a White man captures in (direction `d` of the core's order is bit `d`);
    /// Black's are the same turned by half a circle.
    const MAN_CAPTURES: u8;
    /// The directions a dame slides and captures in.
    const DAME_DIRECTIONS: u8;
    /// Whether dames fly (slide and capture at a distance) rather than step.
    const FLYING: bool;
    /// Whether a capture must take the greatest number of pieces.
    const MAJORITY: bool;
    /// Whether a man that reaches the far row during a capture is crowned and stops there.
    const CROWNING_ENDS_MOVE: bool;
    /// The word for a promoted piece.
    const DAME_WORD: &'static str;
    /// Whether the first player's men are the dark ones, and that player is called Black (as
    /// in English checkers); otherwise White, with the light men, moves first.
    const FIRST_PLAYER_DARK: bool = false;
    /// Whether players number the dark squares (International draughts 1-50, English checkers
    /// 1-32) and write positions as FEN (see `fen`).
    const NUMBERED: bool = false;
    /// How PDN names the ruleset: a standard `GameType` number, else Denkmeter's `Ruleset`
    /// tag.
    const PDN: PdnType = PdnType::Ruleset;
    /// The plies (moves of either player) without a man moving and without a capture after
    /// which the game is drawn, for [`Variant::QUIET_REASON`]; 0 for no such rule.
    const QUIET_PLY_LIMIT: u8 = 0;
    /// The reason of the draw by [`Variant::QUIET_PLY_LIMIT`].
    const QUIET_REASON: Reason = Reason::MoveLimit;
    /// Whether the FMJD's 16-move and 5-move rules draw the endgames of a lone king (see
    /// `draw`).
    const ENDGAME_RULES: bool = false;
}

/// The tables of a variant's board.
#[inline(always)]
pub(crate) fn geometry<V: Variant>() -> &'static Geometry {
    match (V::SIZE, V::A1_DARK) {
        (8, true) => &EIGHT_A1_DARK,
        (8, false) => &EIGHT_A1_LIGHT,
        (_, true) => &TEN_A1_DARK,
        (_, false) => &TEN_A1_LIGHT,
    }
}

/// The directions a man of `player` captures in.
#[inline(always)]
pub(crate) fn man_captures<V: Variant>(player: Player) -> u8 {
    match player {
        Player::White => V::MAN_CAPTURES,
        Player::Black => dirs::turned(V::MAN_CAPTURES),
    }
}

/// The directions a man of `player` steps in: diagonally forward.
#[inline(always)]
pub(crate) fn man_steps(player: Player) -> u8 {
    match player {
        Player::White => dirs::NE | dirs::NW,
        Player::Black => dirs::SE | dirs::SW,
    }
}

/// Scandinavian checkers (ruleset `scandinavian[-8x8][-medium|-weak][-free]`): `SIZE` 10 or 8,
/// `MAN` one of [`STRONG`], [`MEDIUM`], [`WEAK`], and `MAJORITY` false for the free-line
/// variants. Only the twelve combinations of those values exist.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ScandinavianRules<const SIZE: usize, const MAN: u8, const MAJORITY: bool>;

const fn scandinavian_name(size: usize, man: u8, majority: bool) -> &'static str {
    match (size, man, majority) {
        (10, STRONG, true) => "scandinavian",
        (10, STRONG, false) => "scandinavian-free",
        (10, MEDIUM, true) => "scandinavian-medium",
        (10, MEDIUM, false) => "scandinavian-medium-free",
        (10, WEAK, true) => "scandinavian-weak",
        (10, WEAK, false) => "scandinavian-weak-free",
        (8, STRONG, true) => "scandinavian-8x8",
        (8, STRONG, false) => "scandinavian-8x8-free",
        (8, MEDIUM, true) => "scandinavian-8x8-medium",
        (8, MEDIUM, false) => "scandinavian-8x8-medium-free",
        (8, WEAK, true) => "scandinavian-8x8-weak",
        (8, WEAK, false) => "scandinavian-8x8-weak-free",
        // Rejects other parameters when the ruleset is compiled.
        _ => panic!("Scandinavian checkers: SIZE is 8 or 10 and MAN is STRONG, MEDIUM or WEAK"),
    }
}

const fn scandinavian_description(size: usize, man: u8, majority: bool) -> &'static str {
    match (size, man, majority) {
        (10, STRONG, true) => "Scandinavian checkers (makvaer, reconstr. Winther) 10x10: men capture in 8 directions, dames slide orthogonally too; capture the most",
        (10, STRONG, false) => "Scandinavian checkers 10x10, free line: men capture in 8 directions; any capture sequence may be chosen",
        (10, MEDIUM, true) => "Scandinavian checkers 10x10, medium men: men capture in all but the backward directions; capture the most",
        (10, MEDIUM, false) => "Scandinavian checkers 10x10, medium men, free line: men capture in all but the backward directions",
        (10, _, true) => "Scandinavian checkers 10x10, weak men: men capture only forward (N, NE, NW); capture the most",
        (10, _, false) => "Scandinavian checkers 10x10, weak men, free line: men capture only forward (N, NE, NW)",
        (_, STRONG, true) => "Scandinavian checkers 8x8: men capture in 8 directions, dames slide orthogonally too; capture the most",
        (_, STRONG, false) => "Scandinavian checkers 8x8, free line: men capture in 8 directions; any capture sequence may be chosen",
        (_, MEDIUM, true) => "Scandinavian checkers 8x8, medium men: men capture in all but the backward directions; capture the most",
        (_, MEDIUM, false) => "Scandinavian checkers 8x8, medium men, free line: men capture in all but the backward directions",
        (_, _, true) => "Scandinavian checkers 8x8, weak men: men capture only forward (N, NE, NW); capture the most",
        (_, _, false) => "Scandinavian checkers 8x8, weak men, free line: men capture only forward (N, NE, NW)",
    }
}

/// A Scandinavian ruleset's name for people, from its parameters: "Scandinavian checkers 8x8,
/// medium men, free line".
const fn scandinavian_title(size: usize, man: u8, majority: bool) -> DisplayName {
    DisplayName::from_parts([
        "Scandinavian checkers",
        if size == 8 { " 8x8" } else { " 10x10" },
        match man {
            STRONG => "",
            MEDIUM => ", medium men",
            _ => ", weak men",
        },
        if majority { "" } else { ", free line" },
    ])
}

impl<const SIZE: usize, const MAN: u8, const MAJORITY: bool> sealed::Sealed
    for ScandinavianRules<SIZE, MAN, MAJORITY>
{
}

impl<const SIZE: usize, const MAN: u8, const MAJORITY: bool> Variant
    for ScandinavianRules<SIZE, MAN, MAJORITY>
{
    const NAME: &'static str = scandinavian_name(SIZE, MAN, MAJORITY);
    const TITLE: DisplayName = scandinavian_title(SIZE, MAN, MAJORITY);
    const FAMILY: &'static str = "scandinavian";
    const RULES: &'static str = include_str!("../../../../docs/rules/scandinavian.md");
    const DESCRIPTION: &'static str = scandinavian_description(SIZE, MAN, MAJORITY);
    const SIZE: usize = SIZE;
    const A1_DARK: bool = false;
    const MAN_CAPTURES: u8 = match MAN {
        STRONG => dirs::ALL,
        MEDIUM => dirs::N | dirs::NE | dirs::E | dirs::W | dirs::NW,
        _ => dirs::N | dirs::NE | dirs::NW,
    };
    const DAME_DIRECTIONS: u8 = dirs::ALL;
    const FLYING: bool = true;
    const MAJORITY: bool = MAJORITY;
    const CROWNING_ENDS_MOVE: bool = false;
    const DAME_WORD: &'static str = "dame";
}

/// International draughts (ruleset `international`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InternationalRules;

impl sealed::Sealed for InternationalRules {}

impl Variant for InternationalRules {
    const NAME: &'static str = "international";
    const TITLE: DisplayName = DisplayName::new("International draughts");
    const PDN: PdnType = PdnType::GameType(20);
    const FAMILY: &'static str = "international";
    const RULES: &'static str = include_str!("../../../../docs/rules/international.md");
    const DESCRIPTION: &'static str =
        "International draughts 10x10: men capture backwards, flying kings; capture the most";
    const SIZE: usize = 10;
    const A1_DARK: bool = true;
    const MAN_CAPTURES: u8 = dirs::DIAGONAL;
    const DAME_DIRECTIONS: u8 = dirs::DIAGONAL;
    const FLYING: bool = true;
    const MAJORITY: bool = true;
    const CROWNING_ENDS_MOVE: bool = false;
    const DAME_WORD: &'static str = "king";
    const NUMBERED: bool = true;
    /// The FMJD's 25-move rule: 25 moves of each player with only kings moving.
    const QUIET_PLY_LIMIT: u8 = 50;
    const QUIET_REASON: Reason = Reason::TwentyFiveMoveRule;
    const ENDGAME_RULES: bool = true;
}

/// English checkers (ruleset `english`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EnglishRules;

impl sealed::Sealed for EnglishRules {}

impl Variant for EnglishRules {
    const NAME: &'static str = "english";
    const TITLE: DisplayName = DisplayName::new("English checkers");
    const PDN: PdnType = PdnType::GameType(21);
    const FAMILY: &'static str = "english";
    const RULES: &'static str = include_str!("../../../../docs/rules/english.md");
    const DESCRIPTION: &'static str =
        "English checkers (draughts) 8x8: men move and capture forward, kings step; any capture";
    const SIZE: usize = 8;
    const A1_DARK: bool = true;
    const MAN_CAPTURES: u8 = dirs::NE | dirs::NW;
    const DAME_DIRECTIONS: u8 = dirs::DIAGONAL;
    const FLYING: bool = false;
    const MAJORITY: bool = false;
    const CROWNING_ENDS_MOVE: bool = true;
    const DAME_WORD: &'static str = "king";
    const FIRST_PLAYER_DARK: bool = true;
    const NUMBERED: bool = true;
    /// The English Draughts Association's 40-move rule: 40 moves of each player without a
    /// man moving or a capture.
    const QUIET_PLY_LIMIT: u8 = 80;
    const QUIET_REASON: Reason = Reason::FortyMoveRule;
}

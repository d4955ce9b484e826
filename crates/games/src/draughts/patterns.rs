//! The evaluation's learned part: pattern tables over regions of the board.
//!
//! The board is covered by overlapping windows of 4x4 cells, whose corners lie on every other
//! file and rank (sixteen windows on 10x10, nine on 8x8). Each window holds eight dark squares,
//! and each square is empty, holds a man of one side or a man of the other (dames count as
//! empty: the hand-set terms value them), so a window shows one of 3^8 = 6,561 patterns. A table
//! gives every pattern of every window a value, learned from self-play games by the engine's
//! `texel` example (`fit-patterns`), and the positions' score adds up the patterns seen.
//!
//! Each side looks at the board from its own end: Black's view is the board turned half round
//! with the colours swapped, so one table serves both sides and the score is exactly symmetric
//! (White's patterns count for White, Black's against). Each pattern has two values, one for a
//! full board and one for a board with no men, blended by the men left.
//!
//! A window's eight squares are two adjacent bits on each of its four ranks in the board's bit
//! layout (see the `geometry` module), so reading a window takes four shifts for each side's
//! men, and turning them into the two sides' table indices four lookups of small tables.

use thiserror::Error;

use super::eval::Group;
use super::state::State;
use super::{Variant, NAMES};
use denkmeter_core::Player;

/// Squares in a window.
pub const SQUARES: usize = 8;
/// Patterns a window can show: 3^8.
pub const PATTERNS: usize = 6561;
/// The most windows a board has (10x10).
pub const MAX_WINDOWS: usize = 16;

/// The windows of a board: for each, the bit of the first of its two squares on each of its
/// four ranks, bottom to top.
#[derive(Debug)]
pub(crate) struct Layout {
    pub windows: usize,
    pub start: [[u8; 4]; MAX_WINDOWS],
}

impl Layout {
    /// The windows of a `size` x `size` board (8 or 10) whose `a1` is dark or light, numbered
    /// rank of corner first, then file. Window `windows - 1 - u` is window `u` turned half round.
    const fn new(size: usize, a1_dark: bool) -> Layout {
        let p = if a1_dark { 0 } else { 1 };
        let per_side = (size - 4) / 2 + 1;
        let mut layout = Layout {
            windows: per_side * per_side,
            start: [[0; 4]; MAX_WINDOWS],
        };
        let mut j = 0;
        while j < per_side {
            let mut i = 0;
            while i < per_side {
                let (file, rank) = (2 * i, 2 * j);
                let mut k = 0;
                while k < 4 {
                    let r = rank + k;
                    // The first dark file of the window on rank r: dark when (f + r + p) is even.
                    let f = if (file + r + p) % 2 == 0 {
                        file
                    } else {
                        file + 1
                    };
                    layout.start[j * per_side + i][k] = ((r * (size + 1) + f - p) / 2) as u8;
                    k += 1;
                }
                i += 1;
            }
            j += 1;
        }
        layout
    }
}

static EIGHT_A1_DARK: Layout = Layout::new(8, true);
static EIGHT_A1_LIGHT: Layout = Layout::new(8, false);
static TEN_A1_DARK: Layout = Layout::new(10, true);
static TEN_A1_LIGHT: Layout = Layout::new(10, false);

/// The windows of ruleset `V`'s board.
pub(crate) fn layout<V: Variant>() -> &'static Layout {
    match (V::SIZE, V::A1_DARK) {
        (8, true) => &EIGHT_A1_DARK,
        (8, false) => &EIGHT_A1_LIGHT,
        (_, true) => &TEN_A1_DARK,
        (_, false) => &TEN_A1_LIGHT,
    }
}

/// The number of windows of ruleset `V`'s board.
pub fn windows<V: Variant>() -> usize {
    layout::<V>().windows
}

/// `TERNARY[b]`: the eight bits of `b` as base-3 digits (bit k is digit k).
const TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let (mut v, mut k, mut power) = (0u16, 0, 1u16);
        while k < 8 {
            if b & (1 << k) != 0 {
                v += power;
            }
            power *= 3;
            k += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// `TERNARY_REVERSED[b]`: the same with the bits in the other order (bit k is digit 7 - k).
const TERNARY_REVERSED: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = TERNARY[(b as u8).reverse_bits() as usize];
        b += 1;
    }
    t
};

/// The eight squares of a window in `bits`, bottom rank first.
#[inline(always)]
fn window_bits(bits: u64, start: &[u8; 4]) -> usize {
    ((bits >> start[0]) & 3
        | ((bits >> start[1]) & 3) << 2
        | ((bits >> start[2]) & 3) << 4
        | ((bits >> start[3]) & 3) << 6) as usize
}

/// Men on the board at the start: the phase's full board.
pub(crate) const fn men_at_start<V: Variant>() -> u32 {
    let rows = if V::SIZE == 10 { 4 } else { 3 };
    (rows * V::SIZE) as u32
}

/// What the learned part of the evaluation sees of a position: for each window, the pattern
/// index in White's view and in Black's, and the men on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen {
    pub windows: usize,
    pub white: [u16; MAX_WINDOWS],
    pub black: [u16; MAX_WINDOWS],
    pub men: u32,
    /// Men at the start ([`Seen::men`] at a full board).
    pub full: u32,
}

/// The patterns of `state` (see [`Seen`]).
pub fn seen<V: Variant>(state: &State) -> Seen {
    let layout = layout::<V>();
    let men = state.pieces[Player::White] | state.pieces[Player::Black];
    let men = men & !state.dames;
    let (white_men, black_men) = (
        state.pieces[Player::White] & men,
        state.pieces[Player::Black] & men,
    );
    let w = layout.windows;
    let mut seen = Seen {
        windows: w,
        white: [0; MAX_WINDOWS],
        black: [0; MAX_WINDOWS],
        men: men.count_ones(),
        full: men_at_start::<V>(),
    };
    for u in 0..w {
        let (wb, bb) = (
            window_bits(white_men, &layout.start[u]),
            window_bits(black_men, &layout.start[u]),
        );
        seen.white[u] = TERNARY[wb] + 2 * TERNARY[bb];
        // Black's view of the window turned half round: the same squares in the other order,
        // Black's men its own.
        seen.black[w - 1 - u] = TERNARY_REVERSED[bb] + 2 * TERNARY_REVERSED[wb];
    }
    seen
}

/// A failure to read a pattern file.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PatternError {
    #[error("not a pattern file (no header)")]
    Header,
    #[error("the pattern file is for {found}, not {wanted}")]
    Group { found: String, wanted: String },
    #[error("the pattern file is damaged: {0}")]
    Damaged(&'static str),
}

/// The learned values of one group's patterns: for each window and pattern, a full-board and a
/// no-men value, in the evaluation's units (a man is 100).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Patterns {
    windows: usize,
    /// `values[window * PATTERNS + pattern]`: (full board, no men).
    values: Vec<[i16; 2]>,
}

const MAGIC: &[u8] = b"denkmeter patterns 1\n";

impl Patterns {
    /// All zero, for `windows` windows.
    pub fn zero(windows: usize) -> Patterns {
        Patterns {
            windows,
            values: vec![[0; 2]; windows * PATTERNS],
        }
    }

    pub fn windows(&self) -> usize {
        self.windows
    }

    /// The values of pattern `pattern` of window `window`: (full board, no men).
    pub fn get(&self, window: usize, pattern: usize) -> [i16; 2] {
        self.values[window * PATTERNS + pattern]
    }

    pub fn set(&mut self, window: usize, pattern: usize, value: [i16; 2]) {
        self.values[window * PATTERNS + pattern] = value;
    }

    /// The score for White of what [`seen`] found.
    #[inline(always)]
    pub fn white_score(&self, seen: &Seen) -> i32 {
        let (mut full, mut empty) = (0i32, 0i32);
        for u in 0..seen.windows {
            let base = u * PATTERNS;
            let [wf, we] = self.values[base + usize::from(seen.white[u])];
            let [bf, be] = self.values[base + usize::from(seen.black[u])];
            full += i32::from(wf) - i32::from(bf);
            empty += i32::from(we) - i32::from(be);
        }
        blend(full, empty, seen.men, seen.full)
    }

    /// The score for White of position `state` of ruleset `V`: what [`Patterns::white_score`]
    /// gives for [`seen`], without building it.
    #[inline(always)]
    pub fn score<V: Variant>(&self, state: &State) -> i32 {
        let layout = layout::<V>();
        let men = (state.pieces[Player::White] | state.pieces[Player::Black]) & !state.dames;
        let (white_men, black_men) = (
            state.pieces[Player::White] & men,
            state.pieces[Player::Black] & men,
        );
        debug_assert_eq!(self.windows, layout.windows, "tables of another board");
        let w = layout.windows;
        let (mut full, mut empty) = (0i32, 0i32);
        for u in 0..w {
            let (wb, bb) = (
                window_bits(white_men, &layout.start[u]),
                window_bits(black_men, &layout.start[u]),
            );
            let white = usize::from(TERNARY[wb] + 2 * TERNARY[bb]);
            let black = usize::from(TERNARY_REVERSED[bb] + 2 * TERNARY_REVERSED[wb]);
            let [wf, we] = self.values[u * PATTERNS + white];
            let [bf, be] = self.values[(w - 1 - u) * PATTERNS + black];
            full += i32::from(wf) - i32::from(bf);
            empty += i32::from(we) - i32::from(be);
        }
        blend(full, empty, men.count_ones(), men_at_start::<V>())
    }

    /// The file form: a header naming `group`, the window count, then the values (zigzag
    /// variable-length integers, runs of zeros as one count), and a 64-bit FNV-1a checksum.
    pub fn to_bytes(&self, group: Group) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(group_name(group).as_bytes());
        out.push(b'\n');
        out.push(self.windows as u8);
        let flat: Vec<i16> = self.values.iter().flatten().copied().collect();
        let mut i = 0;
        while i < flat.len() {
            let run = flat[i..].iter().take_while(|&&v| v == 0).count();
            if run > 0 {
                put_varint(&mut out, (run as u64) << 1 | 1);
                i += run;
            } else {
                let v = i64::from(flat[i]);
                put_varint(&mut out, ((v << 1) ^ (v >> 63)) as u64 * 2);
                i += 1;
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads the file form written by [`Patterns::to_bytes`], checking that it is `group`'s and
    /// has the windows of its board.
    pub fn from_bytes(bytes: &[u8], group: Group) -> Result<Patterns, PatternError> {
        let body = bytes.strip_prefix(MAGIC).ok_or(PatternError::Header)?;
        if bytes.len() < MAGIC.len() + 8 {
            return Err(PatternError::Damaged("too short"));
        }
        let (content, sum) = bytes.split_at(bytes.len() - 8);
        let mut expected = [0u8; 8];
        expected.copy_from_slice(sum);
        if fnv1a(content) != u64::from_le_bytes(expected) {
            return Err(PatternError::Damaged("checksum"));
        }
        let body = &body[..body.len() - 8];
        let newline = body
            .iter()
            .position(|&b| b == b'\n')
            .ok_or(PatternError::Header)?;
        let found = String::from_utf8_lossy(&body[..newline]).into_owned();
        if found != group_name(group) {
            return Err(PatternError::Group {
                found,
                wanted: group_name(group).to_string(),
            });
        }
        let rest = &body[newline + 1..];
        let (&windows, mut rest) = rest.split_first().ok_or(PatternError::Damaged("short"))?;
        let windows = usize::from(windows);
        if windows != group_windows(group) {
            return Err(PatternError::Damaged("window count"));
        }
        let total = windows * PATTERNS * 2;
        let mut flat: Vec<i16> = Vec::with_capacity(total);
        while !rest.is_empty() {
            let token = get_varint(&mut rest).ok_or(PatternError::Damaged("integer"))?;
            if token & 1 == 1 {
                let run = usize::try_from(token >> 1).map_err(|_| PatternError::Damaged("run"))?;
                if run > total - flat.len() {
                    return Err(PatternError::Damaged("too many values"));
                }
                flat.resize(flat.len() + run, 0);
            } else {
                let z = token >> 1;
                let v = (z >> 1) as i64 ^ -((z & 1) as i64);
                let v = i16::try_from(v).map_err(|_| PatternError::Damaged("value"))?;
                if flat.len() == total {
                    return Err(PatternError::Damaged("too many values"));
                }
                flat.push(v);
            }
        }
        if flat.len() != total {
            return Err(PatternError::Damaged("too few values"));
        }
        let values = flat.chunks_exact(2).map(|c| [c[0], c[1]]).collect();
        Ok(Patterns { windows, values })
    }
}

/// A full-board and a no-men score blended by the men on the board.
#[inline(always)]
pub fn blend(full: i32, empty: i32, men: u32, at_start: u32) -> i32 {
    let men = men.min(at_start) as i32;
    let at_start = at_start as i32;
    (full * men + empty * (at_start - men)) / at_start
}

/// The windows of the boards of `group`: 16 on 10x10, 9 on 8x8.
pub fn group_windows(group: Group) -> usize {
    match group {
        Group::International | Group::Scandinavian10 => 16,
        Group::Scandinavian8 | Group::English => 9,
    }
}

/// The group's name in a pattern file.
pub fn group_name(group: Group) -> &'static str {
    match group {
        Group::International => "international",
        Group::Scandinavian10 => "scandinavian-10x10",
        Group::Scandinavian8 => "scandinavian-8x8",
        Group::English => "english",
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(input: &mut &[u8]) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let (&b, rest) = input.split_first()?;
        *input = rest;
        v |= u64::from(b & 0x7F) << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The pattern tables shipped for ruleset `name`, learned from its own games: the file
/// `crates/games/data/patterns-RULESET.bin`, built into the program. A ruleset without (the
/// others of a group too: tables learned under one ruleset's capture rules are not shown to
/// help another's, see `docs/strength.md`) plays with the weighted terms alone.
pub fn shipped_bytes(name: &str) -> Option<&'static [u8]> {
    if !ships(name) {
        return None;
    }
    Some(match name {
        "international" => include_bytes!("../../data/patterns-international.bin"),
        "scandinavian" => include_bytes!("../../data/patterns-scandinavian.bin"),
        "scandinavian-free" => include_bytes!("../../data/patterns-scandinavian-free.bin"),
        "scandinavian-medium" => include_bytes!("../../data/patterns-scandinavian-medium.bin"),
        "scandinavian-medium-free" => {
            include_bytes!("../../data/patterns-scandinavian-medium-free.bin")
        }
        "scandinavian-weak" => include_bytes!("../../data/patterns-scandinavian-weak.bin"),
        "scandinavian-weak-free" => {
            include_bytes!("../../data/patterns-scandinavian-weak-free.bin")
        }
        _ => return None,
    })
}

/// The rulesets [`shipped_bytes`] has tables for.
const SHIPPED: [&str; 7] = [
    "international",
    "scandinavian",
    "scandinavian-free",
    "scandinavian-medium",
    "scandinavian-medium-free",
    "scandinavian-weak",
    "scandinavian-weak-free",
];

/// Whether `name` is one of [`SHIPPED`].
const fn ships(name: &str) -> bool {
    position(&SHIPPED, name).is_some()
}

/// The tables ruleset `V` plays with ([`shipped_bytes`]), read on first use; for a ruleset
/// without, `None` known when compiling.
#[inline(always)]
pub fn shipped_for<V: Variant>() -> Option<&'static Patterns> {
    use std::sync::OnceLock;
    if !const { ships(V::NAME) } {
        return None;
    }
    static TABLES: [OnceLock<Option<Patterns>>; NAMES.len()] =
        [const { OnceLock::new() }; NAMES.len()];
    TABLES[const { index_of(V::NAME) }]
        .get_or_init(|| {
            // A shipped file is checked by the tests; one that does not read is not used.
            shipped_bytes(V::NAME).and_then(|b| Patterns::from_bytes(b, Group::of::<V>()).ok())
        })
        .as_ref()
}

/// The place of ruleset `name` in [`NAMES`] (every draughts ruleset is there).
const fn index_of(name: &str) -> usize {
    match position(&NAMES, name) {
        Some(i) => i,
        None => panic!("a draughts ruleset missing from NAMES"),
    }
}

/// The place of `name` in `list`, if it is there.
const fn position(list: &[&str], name: &str) -> Option<usize> {
    let mut i = 0;
    while i < list.len() {
        if same(list[i].as_bytes(), name.as_bytes()) {
            return Some(i);
        }
        i += 1;
    }
    None
}

const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

//! The Kamelen position: one byte per square (a mailbox), each side's animals and camels as
//! sets of squares, the side to move and an incrementally kept Zobrist hash. Also the
//! per-board tables every rule reads (leaps, the home-fields, the able squares), computed at
//! compile time for each of the three boards.
//!
//! Square numbering: square `file + 11 * rank` (files a-k are 0-10, rank 1 is 0), so a1 is 0,
//! k1 is 10 and k13 is 142. The three boards differ only in their number of ranks.

use std::fmt;

use denkmeter_core::{zobrist, ByPlayer, Cell, Player};

/// Files of every board (a to k).
pub(crate) const FILES: usize = 11;
/// Ranks of the longest board (11x13).
pub(crate) const MAX_RANKS: usize = 13;
/// Squares of the longest board; every board numbers its squares from 0 below its own count.
pub(crate) const MAX_SQUARES: usize = FILES * MAX_RANKS;
/// Marks "no square" in the one-byte fields of moves and tables.
pub(crate) const NONE: u8 = u8::MAX;
/// The file of both home-fields (f).
pub(crate) const HOME_FILE: usize = 5;

// The contents of a square: nothing, a rock, or an animal (an owner bit and a kind bit).
/// An empty square.
pub(crate) const EMPTY: u8 = 0;
/// A rock: never moves, never captured, never passed or landed on.
pub(crate) const ROCK: u8 = 1;
/// Owner bit of White's animals.
pub(crate) const WHITE: u8 = 2;
/// Owner bit of Black's animals.
pub(crate) const BLACK: u8 = 4;
/// Kind bit of a camel.
pub(crate) const CAMEL: u8 = 8;
/// Kind bit of a dromedary.
pub(crate) const DROMEDARY: u8 = 16;

/// The owner bit of `side`'s animals.
#[inline]
pub(crate) const fn owner_bit(side: Player) -> u8 {
    match side {
        Player::White => WHITE,
        Player::Black => BLACK,
    }
}

/// A set of squares of the board, one bit per square (three words cover the 143 squares of
/// the longest board).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Set(pub(crate) [u64; 3]);

impl Set {
    /// The empty set.
    pub(crate) const EMPTY: Set = Set([0; 3]);

    #[inline]
    pub(crate) const fn contains(&self, sq: u8) -> bool {
        self.0[(sq >> 6) as usize] & (1 << (sq & 63)) != 0
    }

    #[inline]
    pub(crate) fn insert(&mut self, sq: u8) {
        self.0[(sq >> 6) as usize] |= 1 << (sq & 63);
    }

    #[inline]
    pub(crate) fn remove(&mut self, sq: u8) {
        self.0[(sq >> 6) as usize] &= !(1 << (sq & 63));
    }

    /// Adds `sq` in a constant expression.
    pub(crate) const fn with(mut self, sq: usize) -> Set {
        self.0[sq >> 6] |= 1 << (sq & 63);
        self
    }

    #[inline]
    pub(crate) const fn and(self, other: Set) -> Set {
        Set([
            self.0[0] & other.0[0],
            self.0[1] & other.0[1],
            self.0[2] & other.0[2],
        ])
    }

    #[inline]
    pub(crate) const fn is_empty(self) -> bool {
        self.0[0] | self.0[1] | self.0[2] == 0
    }

    #[inline]
    pub(crate) const fn count(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones()
    }

    /// The squares of the set, lowest first.
    #[inline]
    pub(crate) fn squares(self) -> Squares {
        Squares {
            words: self.0,
            at: 0,
        }
    }
}

impl fmt::Debug for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.squares().map(square_name))
            .finish()
    }
}

/// Iterates the squares of a [`Set`], lowest first.
#[derive(Clone, Debug)]
pub(crate) struct Squares {
    words: [u64; 3],
    at: usize,
}

impl Iterator for Squares {
    type Item = u8;

    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        while self.at < 3 {
            let word = self.words[self.at];
            if word != 0 {
                self.words[self.at] = word & (word - 1);
                return Some((self.at * 64) as u8 + word.trailing_zeros() as u8);
            }
            self.at += 1;
        }
        None
    }
}

/// The name of square `sq`, e.g. `f11`.
pub(crate) fn square_name(sq: u8) -> String {
    let file = (b'a' + sq % FILES as u8) as char;
    let rank = usize::from(sq) / FILES + 1;
    format!("{file}{rank}")
}

/// The colour of a square: `(file + rank) mod 2`. A camel's leap never changes it; a
/// dromedary's always does.
#[inline]
pub(crate) const fn colour(sq: usize) -> usize {
    (sq % FILES + sq / FILES) % 2
}

/// One leap of an animal: where it lands and the two squares it passes, which must be empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Leap {
    /// The landing square (or, in [`Tables::arrivals`], the square the leap starts from).
    pub to: u8,
    /// The first square passed.
    pub a: u8,
    /// The second square passed.
    pub b: u8,
}

const NO_LEAP: Leap = Leap {
    to: NONE,
    a: NONE,
    b: NONE,
};

/// The index of a kind in the tables: camel 0, dromedary 1.
pub(crate) const CAMEL_INDEX: usize = 0;
pub(crate) const DROMEDARY_INDEX: usize = 1;

/// The tables of one board.
#[derive(Debug)]
pub(crate) struct Tables {
    /// Ranks of the board (11, 12 or 13).
    pub ranks: usize,
    /// Squares of the board.
    pub squares: usize,
    /// `leaps[kind][sq]`: the leaps from `sq` that land on the board, the first
    /// `leap_count[kind][sq]` of them.
    pub leaps: [[[Leap; 8]; MAX_SQUARES]; 2],
    pub leap_count: [[u8; MAX_SQUARES]; 2],
    /// `arrivals[kind][sq]`: the leaps that land on `sq`, with [`Leap::to`] naming where each
    /// starts; the first `arrival_count[kind][sq]` of them.
    pub arrivals: [[[Leap; 8]; MAX_SQUARES]; 2],
    pub arrival_count: [[u8; MAX_SQUARES]; 2],
    /// Each player's own home-field: f1 for White, f-N for Black.
    pub home: ByPlayer<u8>,
    /// `able[player]`: the squares of the colour of the ENEMY home-field, where `player`'s
    /// camels are able to conquer it.
    pub able: ByPlayer<Set>,
    /// `distance[player][sq]`: the fewest camel leaps from `sq` to the enemy home-field of
    /// `player` on an empty board, or [`NONE`] when no camel on `sq` can get there.
    pub distance: ByPlayer<[u8; MAX_SQUARES]>,
}

/// The square at `file`, `rank` of a board of `ranks` ranks, if it is on the board.
const fn at(file: i32, rank: i32, ranks: usize) -> Option<u8> {
    if file < 0 || rank < 0 || file >= FILES as i32 || rank >= ranks as i32 {
        None
    } else {
        Some((file + rank * FILES as i32) as u8)
    }
}

/// The four orthogonal and four diagonal unit steps.
const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

impl Tables {
    /// The tables of the board with `ranks` ranks.
    const fn build(ranks: usize) -> Tables {
        let squares = FILES * ranks;
        let mut t = Tables {
            ranks,
            squares,
            leaps: [[[NO_LEAP; 8]; MAX_SQUARES]; 2],
            leap_count: [[0; MAX_SQUARES]; 2],
            arrivals: [[[NO_LEAP; 8]; MAX_SQUARES]; 2],
            arrival_count: [[0; MAX_SQUARES]; 2],
            home: ByPlayer::new(HOME_FILE as u8, (HOME_FILE + FILES * (ranks - 1)) as u8),
            able: ByPlayer::new(Set::EMPTY, Set::EMPTY),
            distance: ByPlayer::new([NONE; MAX_SQUARES], [NONE; MAX_SQUARES]),
        };
        let mut sq = 0;
        while sq < squares {
            let (file, rank) = ((sq % FILES) as i32, (sq / FILES) as i32);
            let mut i = 0;
            while i < 4 {
                // A camel: two squares orthogonally, then one diagonally further on, to
                // either side.
                let (df, dr) = ORTHOGONAL[i];
                let mut side = -1;
                while side <= 1 {
                    let (sf, sr) = (dr * side, df * side);
                    if let Some(to) = at(file + 3 * df + sf, rank + 3 * dr + sr, ranks) {
                        let (Some(a), Some(b)) = (
                            at(file + df, rank + dr, ranks),
                            at(file + 2 * df, rank + 2 * dr, ranks),
                        ) else {
                            panic!("the squares passed lie between two squares of the board")
                        };
                        t = t.add(CAMEL_INDEX, sq as u8, Leap { to, a, b });
                    }
                    side += 2;
                }
                // A dromedary: two squares diagonally, then one orthogonally further on,
                // along the file or along the rank.
                let (df, dr) = DIAGONAL[i];
                let mut along_file = 0;
                while along_file < 2 {
                    let (ef, er) = if along_file == 0 { (df, 0) } else { (0, dr) };
                    if let Some(to) = at(file + 2 * df + ef, rank + 2 * dr + er, ranks) {
                        let (Some(a), Some(b)) = (
                            at(file + df, rank + dr, ranks),
                            at(file + 2 * df, rank + 2 * dr, ranks),
                        ) else {
                            panic!("the squares passed lie between two squares of the board")
                        };
                        t = t.add(DROMEDARY_INDEX, sq as u8, Leap { to, a, b });
                    }
                    along_file += 1;
                }
                i += 1;
            }
            sq += 1;
        }
        // A player's camels are able where they stand on the colour of the enemy home-field.
        let white_target = colour(t.home.black as usize);
        let black_target = colour(t.home.white as usize);
        let mut sq = 0;
        while sq < squares {
            if colour(sq) == white_target {
                t.able.white = t.able.white.with(sq);
            }
            if colour(sq) == black_target {
                t.able.black = t.able.black.with(sq);
            }
            sq += 1;
        }
        t.distance.white = camel_distances(&t, t.home.black as usize);
        t.distance.black = camel_distances(&t, t.home.white as usize);
        t
    }

    /// The tables with a leap and its reverse recorded.
    const fn add(mut self, kind: usize, from: u8, leap: Leap) -> Tables {
        let n = self.leap_count[kind][from as usize] as usize;
        self.leaps[kind][from as usize][n] = leap;
        self.leap_count[kind][from as usize] += 1;
        let to = leap.to as usize;
        let n = self.arrival_count[kind][to] as usize;
        self.arrivals[kind][to][n] = Leap {
            to: from,
            a: leap.a,
            b: leap.b,
        };
        self.arrival_count[kind][to] += 1;
        self
    }

    /// The leaps of `kind` (a square's contents) from `sq`.
    #[inline(always)]
    pub(crate) fn leaps(&self, kind: u8, sq: u8) -> &[Leap] {
        let k = kind_index(kind);
        &self.leaps[k][sq as usize][..self.leap_count[k][sq as usize] as usize]
    }

    /// The leaps of `kind` that land on `sq`, each naming its start in [`Leap::to`].
    #[inline]
    pub(crate) fn arrivals(&self, kind: u8, sq: u8) -> &[Leap] {
        let k = kind_index(kind);
        &self.arrivals[k][sq as usize][..self.arrival_count[k][sq as usize] as usize]
    }

    /// The tables of the board with `ranks` ranks (11, 12 or 13).
    ///
    /// # Panics
    /// For any other number of ranks (a programming error).
    pub(crate) fn of(ranks: usize) -> &'static Tables {
        match ranks {
            11 => &TABLES[0],
            12 => &TABLES[1],
            13 => &TABLES[2],
            _ => panic!("Kamelen boards have 11, 12 or 13 ranks, not {ranks}"),
        }
    }
}

/// The table index of a square's animal kind.
#[inline(always)]
const fn kind_index(kind: u8) -> usize {
    if kind & CAMEL != 0 {
        CAMEL_INDEX
    } else {
        DROMEDARY_INDEX
    }
}

/// The fewest camel leaps from each square to `target` on an empty board (breadth first,
/// over the reversed leaps), or [`NONE`].
const fn camel_distances(t: &Tables, target: usize) -> [u8; MAX_SQUARES] {
    let mut dist = [NONE; MAX_SQUARES];
    let mut queue = [0u8; MAX_SQUARES];
    let (mut head, mut tail) = (0, 1);
    dist[target] = 0;
    queue[0] = target as u8;
    while head < tail {
        let sq = queue[head] as usize;
        head += 1;
        let mut i = 0;
        while i < t.arrival_count[CAMEL_INDEX][sq] as usize {
            let from = t.arrivals[CAMEL_INDEX][sq][i].to as usize;
            if dist[from] == NONE {
                dist[from] = dist[sq] + 1;
                queue[tail] = from as u8;
                tail += 1;
            }
            i += 1;
        }
    }
    dist
}

/// The tables of the 11x11, 11x12 and 11x13 boards.
static TABLES: [Tables; 3] = [Tables::build(11), Tables::build(12), Tables::build(13)];

/// Family number of Kamelen's Zobrist keys ("KAMELN" in ASCII).
const ZOBRIST_FAMILY: u64 = 0x4B41_4D45_4C4E;
/// Keys: per square a White camel, White dromedary, Black camel, Black dromedary and a rock;
/// then Black to move.
static KEYS: [u64; 5 * MAX_SQUARES + 1] = zobrist::table(ZOBRIST_FAMILY);
const BLACK_TO_MOVE_KEY: usize = 5 * MAX_SQUARES;

/// The key of a square's contents (not [`EMPTY`]).
#[inline(always)]
pub(crate) fn key(contents: u8, sq: u8) -> u64 {
    let table = match contents {
        ROCK => 4,
        c => usize::from(c & BLACK != 0) * 2 + usize::from(c & DROMEDARY != 0),
    };
    KEYS[table * MAX_SQUARES + sq as usize]
}

/// The key of Black to move.
#[inline(always)]
pub(crate) fn side_key() -> u64 {
    KEYS[BLACK_TO_MOVE_KEY]
}

/// A kind of piece on a Kamelen board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Piece {
    /// Leaps two squares orthogonally then one diagonally; only a camel conquers a home-field.
    Camel,
    /// Leaps two squares diagonally then one orthogonally.
    Dromedary,
    /// A neutral blocking piece: never moves, never captured.
    Rock,
}

impl Piece {
    /// Every kind, in the order of the enum.
    pub const ALL: [Piece; 3] = [Piece::Camel, Piece::Dromedary, Piece::Rock];

    /// The game's word for the piece: `camel`, `dromedary` or `rock`.
    pub const fn name(self) -> &'static str {
        match self {
            Piece::Camel => "camel",
            Piece::Dromedary => "dromedary",
            Piece::Rock => "rock",
        }
    }

    /// The piece's uppercase letter in position strings (`C`, `D`, `X`).
    pub const fn letter(self) -> char {
        match self {
            Piece::Camel => 'C',
            Piece::Dromedary => 'D',
            Piece::Rock => 'X',
        }
    }

    /// The piece's letter as written for `owner` (rocks are always `X`).
    pub const fn letter_of(self, owner: Player) -> char {
        match (self, owner) {
            (Piece::Rock, _) | (_, Player::White) => self.letter(),
            (_, Player::Black) => self.letter().to_ascii_lowercase(),
        }
    }

    /// The byte of a square holding this piece (a rock's owner is ignored).
    pub(crate) const fn contents(self, owner: Player) -> u8 {
        match self {
            Piece::Camel => owner_bit(owner) | CAMEL,
            Piece::Dromedary => owner_bit(owner) | DROMEDARY,
            Piece::Rock => ROCK,
        }
    }
}

/// What stands on a square: nothing, a rock, or an animal of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Occupant {
    /// A rock, which belongs to nobody.
    Rock,
    /// A camel or dromedary of `owner`.
    Animal(Player, Piece),
}

/// A Kamelen position on a board of 11, 12 or 13 ranks: what stands on each square, the
/// side to move and its Zobrist hash. Build one with [`crate::kamelen::Kamelen`]'s `start`
/// or `parse_position`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// The contents of each square ([`EMPTY`], [`ROCK`] or owner bit | kind bit); squares
    /// beyond the board's own count stay empty.
    pub(crate) cells: [u8; MAX_SQUARES],
    /// Each side's animals.
    pub(crate) animals: ByPlayer<Set>,
    /// Each side's camels.
    pub(crate) camels: ByPlayer<Set>,
    pub(crate) to_move: Player,
    pub(crate) hash: u64,
}

impl State {
    /// A state from its squares, with its sets and hash computed.
    pub(crate) fn from_cells(cells: [u8; MAX_SQUARES], to_move: Player) -> State {
        let mut animals = ByPlayer::new(Set::EMPTY, Set::EMPTY);
        let mut camels = ByPlayer::new(Set::EMPTY, Set::EMPTY);
        for (sq, &c) in cells.iter().enumerate() {
            for side in Player::BOTH {
                if c & owner_bit(side) != 0 {
                    animals[side].insert(sq as u8);
                    if c & CAMEL != 0 {
                        camels[side].insert(sq as u8);
                    }
                }
            }
        }
        let mut state = State {
            cells,
            animals,
            camels,
            to_move,
            hash: 0,
        };
        state.hash = state.compute_hash();
        state
    }

    /// The Zobrist hash computed from scratch (the kept one must always equal it).
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = self
            .cells
            .iter()
            .enumerate()
            .filter(|(_, &c)| c != EMPTY)
            .fold(0, |h, (sq, &c)| h ^ key(c, sq as u8));
        if self.to_move == Player::Black {
            h ^= side_key();
        }
        h
    }

    /// The side to move.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// What stands on `cell`, if anything.
    pub fn occupant(&self, cell: Cell) -> Option<Occupant> {
        let c = *self.cells.get(cell.index())?;
        match c {
            EMPTY => None,
            ROCK => Some(Occupant::Rock),
            _ => {
                let owner = if c & WHITE != 0 {
                    Player::White
                } else {
                    Player::Black
                };
                let piece = if c & CAMEL != 0 {
                    Piece::Camel
                } else {
                    Piece::Dromedary
                };
                Some(Occupant::Animal(owner, piece))
            }
        }
    }

    /// The squares of `owner`'s animals of kind `piece` (camel or dromedary; no rocks),
    /// lowest first.
    pub fn animals(&self, owner: Player, piece: Piece) -> impl Iterator<Item = Cell> + '_ {
        let wanted = piece.contents(owner);
        self.animals[owner]
            .squares()
            .filter(move |&sq| self.cells[sq as usize] == wanted)
            .map(|sq| Cell(u16::from(sq)))
    }

    /// The squares holding a rock, lowest first.
    pub fn rocks(&self) -> impl Iterator<Item = Cell> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, &c)| c == ROCK)
            .map(|(sq, _)| Cell(sq as u16))
    }

    /// The number of `owner`'s animals of kind `piece` (0 for rocks).
    pub fn count(&self, owner: Player, piece: Piece) -> usize {
        match piece {
            Piece::Camel => self.camels[owner].count() as usize,
            Piece::Dromedary => (self.animals[owner].count() - self.camels[owner].count()) as usize,
            Piece::Rock => 0,
        }
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State")
            .field("animals", &self.animals)
            .field("camels", &self.camels)
            .field("rocks", &self.rocks().collect::<Vec<_>>())
            .field("to_move", &self.to_move)
            .field("hash", &format_args!("{:#018x}", self.hash))
            .finish()
    }
}

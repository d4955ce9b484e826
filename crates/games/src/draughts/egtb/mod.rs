//! Endgame databases for the draughts rulesets: the value of every position with few pieces
//! (won, drawn or lost for the side to move, and in how many plies), built by retrograde
//! analysis (`build`), kept on disk compressed (`codec`), one file per material, and read back
//! for the search and the analysis.
//!
//! The values ignore the move-count draw rules (International draughts' 25-, 16- and 5-move
//! rules, English checkers' 40-move rule) and repetition: a side that cannot move, or has no
//! pieces, loses; the distances are plies to that end, the winner playing for the quickest win
//! and the loser for the longest game. A drawn value is exact under every rule (counting only
//! adds draws); a win is exact in the rulesets without counting, and elsewhere where the
//! distance is short enough that no count can run out first ([`denkmeter_core::TableValue::exact`]).
//!
//! ```
//! use denkmeter_core::Game;
//! use denkmeter_games::draughts::egtb::{self, Wdl};
//! use denkmeter_games::draughts::English;
//!
//! // Every English position with up to three pieces, in memory.
//! let tables = egtb::Tablebase::generate::<denkmeter_games::draughts::EnglishRules>(3, 1).unwrap();
//! let game = English::new();
//! // Two kings against one in the double corner: White, to move, wins in 11 plies.
//! let state = game.parse_position("8/8/8/8/8/8/5D1d/6D1 w").unwrap();
//! assert_eq!(tables.probe(&state), Some(egtb::Probe { wdl: Wdl::Win, plies: 11 }));
//! // A king against a king draws.
//! let state = game.parse_position("8/8/8/8/3d4/8/8/D7 w").unwrap();
//! assert_eq!(tables.wdl(&state), Some(Wdl::Draw));
//! ```

mod build;
mod codec;
pub(crate) mod index;

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::state::State;
use super::variant::{geometry, Variant};
use build::{Built, DRAW, INVALID};
use codec::{Compressed, BLOCK};
use index::{material_of, Board, Numbering};

pub use build::Tally;
pub use index::{Material, MAX_PIECES};

/// What can go wrong making or reading a database.
#[derive(Debug, thiserror::Error)]
pub enum EgtbError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("a database file is damaged: {0}")]
    Format(String),
    #[error("the database of {0} is missing (build the smaller ones first)")]
    Missing(Material),
    #[error("the database disagrees with the rules: {0}")]
    Inconsistent(String),
    #[error("no endgame databases for ruleset {0}: only the draughts rulesets have them")]
    UnknownRuleset(String),
    #[error("databases hold 2 to {MAX_PIECES} pieces, not {0}")]
    Pieces(usize),
    #[error("bad position: {0}")]
    Position(String),
    #[error(
        "building up to {pieces} pieces needs about {} GB of memory, more than the limit of {} GB \
         (raise it with --memory-gb if the machine has that much)",
        gigabytes(*needed),
        gigabytes(*limit)
    )]
    Memory {
        pieces: usize,
        needed: u64,
        limit: u64,
    },
}

/// Bytes in gigabytes (10^9), rounded up, for messages.
fn gigabytes(bytes: u64) -> u64 {
    bytes.div_ceil(1_000_000_000)
}

/// The memory a build may use unless told otherwise: 16 GB.
pub const DEFAULT_MEMORY_LIMIT: u64 = 16_000_000_000;

/// Won, drawn or lost, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wdl {
    Win,
    Draw,
    Loss,
}

/// A position's value in the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    pub wdl: Wdl,
    /// Plies to the end of the game with best play (0 for a draw).
    pub plies: u32,
}

/// The value a code stands for (an unused number reads as a draw).
fn probe_of(code: u16) -> Probe {
    match code {
        DRAW | INVALID => Probe {
            wdl: Wdl::Draw,
            plies: 0,
        },
        c if c & 1 == 1 => Probe {
            wdl: Wdl::Win,
            plies: u32::from(c - 3) / 2,
        },
        c => Probe {
            wdl: Wdl::Loss,
            plies: u32::from(c - 2) / 2,
        },
    }
}

/// What building one material (with its mirror) did.
#[derive(Clone, Debug)]
pub struct Report {
    pub material: Material,
    pub tally: Tally,
    /// Bytes on disk (0 when kept in memory only).
    pub bytes: u64,
    pub elapsed: Duration,
    /// Read from an earlier run's file rather than built.
    pub reused: bool,
}

/// One material's values, for probing: won, drawn or lost in two bits each in memory, and the
/// distances still compressed by block, in memory or read from the file when asked for.
#[derive(Debug)]
struct Slice {
    numbering: Numbering,
    wdl: Vec<u8>,
    offsets: Vec<u64>,
    distances: Distances,
}

/// Where a slice's compressed blocks are.
#[derive(Debug)]
enum Distances {
    Memory(Vec<u8>),
    File { path: PathBuf, start: u64 },
}

impl Slice {
    /// The slice of a file's values, which keeps only the block offsets of the file's data.
    fn from_file(
        numbering: Numbering,
        compressed: Compressed,
        path: PathBuf,
    ) -> Result<Slice, EgtbError> {
        let start = compressed.data_start;
        let mut slice = Slice::new(numbering, compressed)?;
        slice.distances = Distances::File { path, start };
        Ok(slice)
    }

    fn new(numbering: Numbering, compressed: Compressed) -> Result<Slice, EgtbError> {
        let mut wdl = vec![0u8; (numbering.len as usize).div_ceil(4)];
        let mut i = 0usize;
        compressed.for_each(|code| {
            let bits = match probe_of(code).wdl {
                Wdl::Draw => 0,
                Wdl::Loss => 1,
                Wdl::Win => 2,
            };
            wdl[i / 4] |= bits << (2 * (i % 4));
            i += 1;
        })?;
        Ok(Slice {
            numbering,
            wdl,
            offsets: compressed.offsets,
            distances: Distances::Memory(compressed.data),
        })
    }

    fn wdl(&self, index: u64) -> Wdl {
        let i = index as usize;
        match (self.wdl[i / 4] >> (2 * (i % 4))) & 3 {
            1 => Wdl::Loss,
            2 => Wdl::Win,
            _ => Wdl::Draw,
        }
    }

    fn probe(&self, index: u64) -> Result<Probe, EgtbError> {
        use std::io::{Read, Seek, SeekFrom};
        let i = index as usize;
        let b = i / BLOCK;
        let (from, to) = (self.offsets[b], self.offsets[b + 1]);
        let read;
        let bytes = match &self.distances {
            Distances::Memory(data) => &data[from as usize..to as usize],
            Distances::File { path, start } => {
                let mut file = fs::File::open(path)?;
                file.seek(SeekFrom::Start(start + from))?;
                let mut buffer = vec![0; (to - from) as usize];
                file.read_exact(&mut buffer)?;
                read = buffer;
                &read
            }
        };
        let mut block = Vec::with_capacity(BLOCK);
        codec::decompress_block(bytes, codec::block_len(self.numbering.len, b), &mut block)?;
        Ok(probe_of(block[i % BLOCK]))
    }
}

/// The materials of up to `pieces` pieces, in the order they are built: fewer pieces first,
/// then fewer men; each pair of mirrors once.
fn build_order(pieces: usize) -> Vec<Material> {
    let mut order: Vec<Material> = (2..=pieces)
        .flat_map(Material::all_with)
        .filter(|m| *m <= m.swapped())
        .collect();
    order.sort_by_key(|m| (m.pieces(), m.men(), *m));
    order
}

/// The endgame databases of one ruleset: read lazily from a directory, one material at a time
/// as the probes need them, or built in memory.
#[derive(Debug)]
pub struct Tablebase {
    ruleset: &'static str,
    board: Board,
    /// Every material of up to this many pieces is present.
    pieces: usize,
    dir: Option<PathBuf>,
    /// By [`Material::slot`].
    slices: Vec<OnceLock<Result<Slice, String>>>,
}

fn slots() -> Vec<OnceLock<Result<Slice, String>>> {
    (0..8 * 8 * 8 * 8).map(|_| OnceLock::new()).collect()
}

impl Tablebase {
    /// Builds every material of up to `pieces` pieces of ruleset `V` in memory on `threads`
    /// threads (for tests and small sets).
    pub fn generate<V: Variant>(pieces: usize, threads: usize) -> Result<Tablebase, EgtbError> {
        let built = generate::<V>(pieces, None, threads, DEFAULT_MEMORY_LIMIT, &mut |_| {})?;
        let slices = slots();
        for (slot, table) in built.tables.into_iter().enumerate() {
            if let Some((numbering, codes)) = table {
                let slice = Slice::new(numbering, Compressed::new(&codes))?;
                let _ = slices[slot].set(Ok(slice));
            }
        }
        Ok(Tablebase {
            ruleset: V::NAME,
            board: Board::new(geometry::<V>()),
            pieces,
            dir: None,
            slices,
        })
    }

    /// The databases of ruleset `V` in `dir/RULESET/`: every complete piece count found there
    /// (the files are read and checked when first probed). `None` if there is not even the
    /// set of two pieces.
    pub fn open<V: Variant>(dir: &Path) -> Option<Tablebase> {
        let folder = dir.join(V::NAME);
        let mut pieces = 1;
        while pieces < MAX_PIECES
            && Material::all_with(pieces + 1)
                .iter()
                .all(|m| folder.join(m.file_name()).is_file())
        {
            pieces += 1;
        }
        (pieces >= 2).then(|| Tablebase {
            ruleset: V::NAME,
            board: Board::new(geometry::<V>()),
            pieces,
            dir: Some(folder),
            slices: slots(),
        })
    }

    /// The ruleset's name.
    pub fn ruleset(&self) -> &'static str {
        self.ruleset
    }

    /// The most pieces of the positions it holds.
    pub fn pieces(&self) -> usize {
        self.pieces
    }

    /// The slice of a material, read on first use; `None` (with the reason kept) if its file
    /// cannot be read.
    fn slice(&self, material: Material) -> Option<&Slice> {
        self.slices[material.slot()]
            .get_or_init(|| {
                let dir = self.dir.as_ref().ok_or("not built")?;
                let numbering = Numbering::new(&self.board, material);
                let path = dir.join(material.file_name());
                let read = || -> Result<Slice, EgtbError> {
                    let mut file = fs::File::open(&path)?;
                    let compressed =
                        Compressed::read(self.ruleset, material, numbering.len, &mut file)?;
                    Slice::from_file(numbering, compressed, path.clone())
                };
                read().map_err(|e| format!("{}: {e}", path.display()))
            })
            .as_ref()
            .ok()
    }

    /// The problem met reading any material's file so far, if any.
    pub fn problem(&self) -> Option<String> {
        self.slices
            .iter()
            .find_map(|s| s.get().and_then(|r| r.as_ref().err().cloned()))
    }

    /// The slice of a material if it has been read already.
    fn loaded_slice(&self, material: Material) -> Option<&Slice> {
        self.slices[material.slot()].get()?.as_ref().ok()
    }

    /// Finds the position's slice (reading it first if `wait`, else only if already read)
    /// and number.
    fn locate(&self, state: &State, wait: bool) -> Option<(&Slice, u64)> {
        let pieces = (state.pieces.white | state.pieces.black).count_ones() as usize;
        if pieces > self.pieces || state.pieces.white == 0 || state.pieces.black == 0 {
            return None;
        }
        let material = material_of(state);
        let slice = if wait {
            self.slice(material)?
        } else {
            self.loaded_slice(material)?
        };
        Some((slice, slice.numbering.index(&self.board, state)))
    }

    /// Won, drawn or lost, if the position is in the databases (fast: no decompression; the
    /// first probe of a material reads its file).
    pub fn wdl(&self, state: &State) -> Option<Wdl> {
        let (slice, index) = self.locate(state, true)?;
        Some(slice.wdl(index))
    }

    /// The value and distance, if the position is in the databases.
    pub fn probe(&self, state: &State) -> Option<Probe> {
        let (slice, index) = self.locate(state, true)?;
        slice.probe(index).ok()
    }

    /// [`Tablebase::wdl`] and [`Tablebase::probe`] (with `distance`) for a search below the
    /// root, which must not wait for a file: `None` for a material not yet read.
    pub(crate) fn probe_loaded(&self, state: &State, distance: bool) -> Option<Probe> {
        let (slice, index) = self.locate(state, false)?;
        if distance {
            slice.probe(index).ok()
        } else {
            Some(Probe {
                wdl: slice.wdl(index),
                plies: 0,
            })
        }
    }

    /// Reads every material's file now.
    fn load_all(&self) {
        for pieces in 2..=self.pieces {
            for material in Material::all_with(pieces) {
                self.slice(material);
            }
        }
    }
}

/// Builds (or, from `dir`, reads what an earlier run built) every material of up to `pieces`
/// pieces of ruleset `V`, writing each new one to `dir/RULESET/` if given, and reporting each.
fn generate<V: Variant>(
    pieces: usize,
    dir: Option<&Path>,
    threads: usize,
    memory_limit: u64,
    on_material: &mut dyn FnMut(&Report),
) -> Result<Built, EgtbError> {
    if !(2..=MAX_PIECES).contains(&pieces) {
        return Err(EgtbError::Pieces(pieces));
    }
    let needed = memory_needed::<V>(pieces);
    if needed > memory_limit {
        return Err(EgtbError::Memory {
            pieces,
            needed,
            limit: memory_limit,
        });
    }
    let folder = dir.map(|d| d.join(V::NAME));
    if let Some(folder) = &folder {
        fs::create_dir_all(folder)?;
    }
    let mut built = Built::new::<V>();
    for material in build_order(pieces) {
        let start = Instant::now();
        let mirror = material.swapped();
        let mirrors: &[Material] = if mirror == material {
            &[material]
        } else {
            &[material, mirror]
        };
        // Reuse both files of an earlier run if they read back whole.
        let mut reused = Vec::new();
        if let Some(folder) = &folder {
            for &m in mirrors {
                let numbering = Numbering::new(&built.board, m);
                let Ok(mut file) = fs::File::open(folder.join(m.file_name())) else {
                    break;
                };
                let Ok(compressed) = Compressed::read(V::NAME, m, numbering.len, &mut file) else {
                    break;
                };
                let mut codes = Vec::with_capacity(numbering.len as usize);
                if compressed.for_each(|c| codes.push(c)).is_err() {
                    break;
                }
                // The file repeats a value for the numbers that are no position; mark them
                // again, for the tally.
                for (index, code) in codes.iter_mut().enumerate() {
                    if numbering.position(&built.board, index as u64).is_none() {
                        *code = INVALID;
                    }
                }
                let bytes = fs::metadata(folder.join(m.file_name())).map_or(0, |f| f.len());
                reused.push((m, numbering, codes, bytes));
            }
        }
        let fresh = reused.len() != mirrors.len();
        let results = if fresh {
            build::build_pair::<V>(&built, material, threads)?
                .into_iter()
                .map(|(m, n, codes)| (m, n, codes, 0))
                .collect()
        } else {
            reused
        };
        for (m, numbering, mut codes, mut bytes) in results {
            if fresh {
                if let Some(folder) = &folder {
                    // Unused numbers repeat the value before them, which compresses best.
                    let mut last = DRAW;
                    let mut stored = codes.clone();
                    for c in &mut stored {
                        if *c == INVALID {
                            *c = last;
                        }
                        last = *c;
                    }
                    let compressed = Compressed::new(&stored);
                    let path = folder.join(m.file_name());
                    let partial = path.with_extension("part");
                    let mut file = std::io::BufWriter::new(fs::File::create(&partial)?);
                    compressed.write(V::NAME, m, &mut file)?;
                    std::io::Write::flush(&mut file)?;
                    drop(file);
                    fs::rename(&partial, &path)?;
                    bytes = fs::metadata(&path)?.len();
                }
            }
            on_material(&Report {
                material: m,
                tally: Tally::of(&codes),
                bytes,
                elapsed: start.elapsed(),
                reused: !fresh,
            });
            codes.shrink_to_fit();
            built.tables[m.slot()] = Some((numbering, codes));
        }
    }
    Ok(built)
}

/// A draughts ruleset's generator, by name.
type Generator = fn(usize, &Path, usize, u64, &mut dyn FnMut(&Report)) -> Result<(), EgtbError>;
/// A draughts ruleset's opener, by name.
type Opener = fn(&Path) -> Option<Tablebase>;
/// A draughts ruleset's describer, by name.
type Describer = fn(&Tablebase, &str) -> Result<Description, EgtbError>;
/// A draughts ruleset's sampler, by name.
type Sampler = fn(&Tablebase, &Sampling) -> Result<Vec<(String, Probe)>, EgtbError>;

/// Which positions [`sample`] draws.
#[derive(Clone, Copy, Debug)]
pub struct Sampling {
    pub count: usize,
    pub seed: u64,
    /// Only wins and losses this many plies from the end at most.
    pub max_plies: u32,
    /// The share of draws among the samples, at most.
    pub draws: f64,
}

/// SplitMix64: the samples' own small random numbers.
fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn sampler<V: Variant>(
    tables: &Tablebase,
    how: &Sampling,
) -> Result<Vec<(String, Probe)>, EgtbError> {
    use denkmeter_core::{Game, Status};
    let game = super::Draughts::<V>::new();
    let materials: Vec<Material> = (2..=tables.pieces).flat_map(Material::all_with).collect();
    let mut random = how.seed;
    let mut found = Vec::new();
    let most_draws = (how.count as f64 * how.draws) as usize;
    let mut draws = 0;
    for _ in 0..how.count.saturating_mul(2000) {
        if found.len() >= how.count {
            break;
        }
        let material = materials[(next_random(&mut random) % materials.len() as u64) as usize];
        let numbering = Numbering::new(&tables.board, material);
        let index = next_random(&mut random) % numbering.len;
        let Some(mut state) = numbering.position(&tables.board, index) else {
            continue;
        };
        if next_random(&mut random) % 2 == 1 {
            state = tables.board.flipped(&state);
        }
        let state = State::new(state.pieces, state.dames, state.to_move);
        if matches!(game.status(&state), Status::Over(_)) {
            continue;
        }
        let Some(value) = tables.probe(&state) else {
            continue;
        };
        let wanted = match value.wdl {
            Wdl::Draw => draws < most_draws,
            _ => value.plies <= how.max_plies,
        };
        if wanted {
            draws += usize::from(value.wdl == Wdl::Draw);
            found.push((game.position_text(&state), value));
        }
    }
    if let Some(problem) = tables.problem() {
        return Err(EgtbError::Format(problem));
    }
    Ok(found)
}

/// Positions drawn at random from `tables` (of ruleset `name`) with their values, for checking
/// them by search: wins and losses near the end, and some draws.
pub fn sample(
    name: &str,
    tables: &Tablebase,
    how: &Sampling,
) -> Result<Vec<(String, Probe)>, EgtbError> {
    let (_, _, _, sample) = by_name(name).ok_or_else(|| EgtbError::UnknownRuleset(name.into()))?;
    sample(tables, how)
}

/// A position's value and every move's, from the databases ([`describe`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Description {
    /// The position's value; `None` if the databases do not hold it.
    pub value: Option<Probe>,
    /// Each legal move (in the ruleset's notation) with the value it gives the side to move,
    /// best first.
    pub moves: Vec<(String, Probe)>,
}

/// The value of a move that leads to a position of value `child` (for its side to move).
fn for_mover(child: Probe) -> Probe {
    Probe {
        wdl: match child.wdl {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        },
        plies: if child.wdl == Wdl::Draw {
            0
        } else {
            child.plies + 1
        },
    }
}

/// How good a value is for its side: quicker wins and slower losses first.
fn preference(p: Probe) -> (u8, i64) {
    match p.wdl {
        Wdl::Win => (0, i64::from(p.plies)),
        Wdl::Draw => (1, 0),
        Wdl::Loss => (2, -i64::from(p.plies)),
    }
}

fn describer<V: Variant>(tables: &Tablebase, position: &str) -> Result<Description, EgtbError> {
    use denkmeter_core::{Game, Status};
    let game = super::Draughts::<V>::new();
    let state = game
        .parse_position(position)
        .map_err(|e| EgtbError::Position(e.to_string()))?;
    let mut moves = Vec::new();
    game.legal_moves(&state, &mut moves);
    let mut described = Vec::new();
    for &mv in &moves {
        let mut child = state.clone();
        game.play_unchecked(&mut child, mv);
        let value = match game.status(&child) {
            Status::Over(outcome) if outcome.winner.is_some() => Some(Probe {
                wdl: Wdl::Loss,
                plies: 0,
            }),
            _ => tables.probe(&child),
        };
        if let Some(value) = value {
            described.push((game.move_text(&state, mv), for_mover(value)));
        }
    }
    described.sort_by_key(|(_, p)| preference(*p));
    let value = match game.status(&state) {
        Status::Over(outcome) if outcome.winner.is_some() => Some(Probe {
            wdl: Wdl::Loss,
            plies: 0,
        }),
        _ => tables.probe(&state),
    };
    Ok(Description {
        value,
        moves: described,
    })
}

/// The value of the position written `position` and of each of its moves, from `tables`
/// (of ruleset `name`).
pub fn describe(name: &str, tables: &Tablebase, position: &str) -> Result<Description, EgtbError> {
    let (_, _, describe, _) =
        by_name(name).ok_or_else(|| EgtbError::UnknownRuleset(name.into()))?;
    describe(tables, position)
}

fn generator<V: Variant>(
    pieces: usize,
    dir: &Path,
    threads: usize,
    memory_limit: u64,
    on_material: &mut dyn FnMut(&Report),
) -> Result<(), EgtbError> {
    generate::<V>(pieces, Some(dir), threads, memory_limit, on_material).map(|_| ())
}

/// An estimate of the memory, in bytes, of building every material of up to `pieces` pieces of
/// ruleset `V`: two bytes a position for every table built (they stay in memory for the larger
/// ones to read), and for the largest pair of mirrors being built, five bytes a position of
/// working arrays and eight for the queues of the backward pass. Not a bound: a position can
/// be queued twice, and queues grow by doubling; but the measured peaks have been about half
/// the estimate (International up to 5 pieces: 3.8 GB measured, 7 GB estimated).
fn memory_needed<V: Variant>(pieces: usize) -> u64 {
    let board = Board::new(geometry::<V>());
    let len = |m: Material| Numbering::new(&board, m).len;
    let mut tables = 0u64;
    let mut largest_pair = 0u64;
    for m in build_order(pieces) {
        let mirror = m.swapped();
        let pair = if mirror == m {
            len(m)
        } else {
            len(m) + len(mirror)
        };
        tables = tables.saturating_add(pair);
        largest_pair = largest_pair.max(pair);
    }
    tables
        .saturating_mul(2)
        .saturating_add(largest_pair.saturating_mul(13))
}

/// The generator and opener of each draughts ruleset.
fn by_name(name: &str) -> Option<(Generator, Opener, Describer, Sampler)> {
    macro_rules! pick {
        ($($v:ty),*) => {
            $(if name == <$v as Variant>::NAME {
                return Some((
                    generator::<$v>,
                    Tablebase::open::<$v>,
                    describer::<$v>,
                    sampler::<$v>,
                ));
            })*
        };
    }
    crate::for_draughts_variants!(pick);
    None
}

/// Builds the databases of ruleset `name` up to `pieces` pieces into `dir/RULESET/`, reusing
/// the files an earlier run left there, on `threads` threads; reports each material. Refuses
/// ([`EgtbError::Memory`]) a build whose estimated memory is over `memory_limit` bytes.
pub fn generate_ruleset(
    name: &str,
    pieces: usize,
    dir: &Path,
    threads: usize,
    memory_limit: u64,
    on_material: &mut dyn FnMut(&Report),
) -> Result<(), EgtbError> {
    let (generate, _, _, _) =
        by_name(name).ok_or_else(|| EgtbError::UnknownRuleset(name.into()))?;
    generate(pieces, dir, threads, memory_limit, on_material)
}

/// The databases of ruleset `name` in `dir`, if any.
pub fn open_ruleset(name: &str, dir: &Path) -> Result<Option<Tablebase>, EgtbError> {
    let (_, open, _, _) = by_name(name).ok_or_else(|| EgtbError::UnknownRuleset(name.into()))?;
    Ok(open(dir))
}

/// The databases the search and the analysis use, installed once per process.
static INSTALLED: OnceLock<HashMap<&'static str, Arc<Tablebase>>> = OnceLock::new();
/// Guards installing.
static INSTALLING: Mutex<()> = Mutex::new(());

/// Whether the installed databases' files have all been read.
static LOADED: AtomicBool = AtomicBool::new(false);

/// Makes the databases of every draughts ruleset found in `dir` the ones the rules report
/// ([`denkmeter_core::Game::table_value`]); returns the rulesets and piece counts found. Only
/// the first call in a process has an effect.
///
/// The files are read by a thread of their own, smallest first, so that a command starts at
/// once; until a material's file has been read, the search does without it rather than wait
/// (see [`installed_loaded`]).
pub fn install(dir: &Path) -> Vec<(&'static str, usize)> {
    install_only(dir, |_| true)
}

/// [`install`] for the rulesets `wanted` accepts (by name) alone: a command that plays one
/// ruleset reads neither the memory nor the time of the others' databases. As with
/// [`install`], only the first call in a process has an effect, whatever its filter.
pub fn install_only(dir: &Path, wanted: impl Fn(&str) -> bool) -> Vec<(&'static str, usize)> {
    let _guard = INSTALLING.lock();
    let tables = INSTALLED.get_or_init(|| {
        let mut found = HashMap::new();
        for name in super::NAMES.iter().filter(|name| wanted(name)) {
            if let Ok(Some(t)) = open_ruleset(name, dir) {
                found.insert(t.ruleset(), Arc::new(t));
            }
        }
        let most = found.values().map(|t| t.pieces()).max().unwrap_or(0);
        INSTALLED_PIECES.store(most, Ordering::Relaxed);
        let mut all: Vec<Arc<Tablebase>> = found.values().cloned().collect();
        all.sort_by_key(|t| t.pieces());
        let loader = std::thread::Builder::new()
            .name("egtb-loader".into())
            .spawn(move || {
                for tables in all {
                    tables.load_all();
                }
                LOADED.store(true, Ordering::Release);
            });
        if loader.is_err() {
            LOADED.store(true, Ordering::Release);
        }
        found
    });
    let mut list: Vec<_> = tables.values().map(|t| (t.ruleset(), t.pieces())).collect();
    list.sort();
    list
}

/// The most pieces of any installed database (0 before [`install`]): a probe of a position
/// with more costs one comparison.
static INSTALLED_PIECES: AtomicUsize = AtomicUsize::new(0);

/// The most pieces of any installed database.
#[inline(always)]
pub(crate) fn installed_pieces() -> usize {
    INSTALLED_PIECES.load(Ordering::Relaxed)
}

/// Whether every installed database's files have been read (at once if none are installed
/// or [`install`] was not called).
pub fn installed_loaded() -> bool {
    INSTALLED.get().is_none() || LOADED.load(Ordering::Acquire)
}

/// The installed databases of a ruleset, if any.
pub(crate) fn installed(name: &'static str) -> Option<&'static Tablebase> {
    INSTALLED.get()?.get(name).map(|t| &**t)
}

//! The transposition table: what earlier searches of a position found, by its hash, shared by
//! every thread of a search without locks.
//!
//! An entry is two 64-bit words: the data (score, depth, bound, best move, generation) and the
//! position's hash xored with the data. A reader accepts an entry only if the xor of the two
//! words gives back its hash, so an entry torn by two threads writing at once reads as absent
//! (the lockless scheme of Hyatt and Mann). The best move is stored as its index in the
//! position's list of legal moves, which every game generates in a fixed order; a reader checks
//! the index against the list before using it.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::eval::{is_decisive, WIN};

/// How a stored score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    /// The true value is at least the score (the search failed high).
    Lower,
    /// The true value is at most the score (the search failed low).
    Upper,
}

/// What the table holds for one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The score for the side to move, with wins and losses counted from this position.
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    /// The index of the best move among the position's legal moves.
    pub best: Option<u16>,
}

impl Entry {
    /// The score to use at `ply` plies from the root if it settles a search to `depth`
    /// within `(alpha, beta)`.
    pub(crate) fn cutoff(&self, depth: u32, ply: i32, alpha: i32, beta: i32) -> Option<i32> {
        if u32::from(self.depth) < depth {
            return None;
        }
        let score = score_from_table(self.score, ply);
        match self.bound {
            Bound::Exact => Some(score),
            Bound::Lower if score >= beta => Some(score),
            Bound::Upper if score <= alpha => Some(score),
            _ => None,
        }
    }
}

/// A win found `ply` plies from the root is stored as a win in so many plies from the
/// position itself, so that it reads right wherever the position recurs.
pub(crate) fn score_to_table(score: i32, ply: i32) -> i32 {
    if !is_decisive(score) {
        score
    } else if score > 0 {
        score + ply
    } else {
        score - ply
    }
}

fn score_from_table(score: i32, ply: i32) -> i32 {
    if !is_decisive(score) {
        score
    } else if score > 0 {
        score - ply
    } else {
        score + ply
    }
}

/// Entries per bucket: four entries of 16 bytes fill a cache line.
const BUCKET: usize = 4;

/// A table of buckets of [`BUCKET`] entries; a position may live in any entry of its bucket.
/// A new entry replaces the same position's, else the bucket's least valuable: the shallowest,
/// counting an entry from an earlier search as four plies shallower per search since.
#[derive(Debug)]
pub(crate) struct Table {
    words: Vec<AtomicU64>,
    /// The number of buckets minus one (a power of two minus one).
    mask: usize,
    generation: u8,
}

impl Table {
    /// The default size, in megabytes.
    pub(crate) const DEFAULT_MB: usize = 32;
    /// The largest size accepted, in megabytes.
    pub(crate) const MAX_MB: usize = 16_384;

    /// A table of at most `megabytes` (rounded down to a power of two; at least one bucket).
    pub(crate) fn new(megabytes: usize) -> Table {
        let bytes = megabytes.clamp(1, Self::MAX_MB) << 20;
        let buckets = (bytes / (BUCKET * 16)).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        let words = (0..buckets * BUCKET * 2)
            .map(|_| AtomicU64::new(0))
            .collect();
        Table {
            words,
            mask: buckets - 1,
            generation: 0,
        }
    }

    /// Marks the entries stored so far as older: the next search replaces them first.
    pub(crate) fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3f;
    }

    fn bucket(&self, hash: u64) -> usize {
        (hash as usize & self.mask) * BUCKET * 2
    }

    /// The entry stored for this hash, if any.
    pub(crate) fn probe(&self, hash: u64) -> Option<Entry> {
        let base = self.bucket(hash);
        (0..BUCKET).find_map(|i| {
            let check = self.words[base + 2 * i].load(Relaxed);
            let data = self.words[base + 2 * i + 1].load(Relaxed);
            (data != 0 && check ^ data == hash).then(|| unpack(data))
        })
    }

    /// Stores what a search of this position found; `score` is at `ply` from the root.
    pub(crate) fn store(
        &self,
        hash: u64,
        ply: i32,
        score: i32,
        depth: u32,
        bound: Bound,
        best: Option<u16>,
    ) {
        let data = pack(
            Entry {
                score: score_to_table(score, ply),
                depth: depth.min(255) as u8,
                bound,
                best,
            },
            self.generation,
        );
        let base = self.bucket(hash);
        let mut victim = 0;
        let mut lowest = i32::MAX;
        for i in 0..BUCKET {
            let check = self.words[base + 2 * i].load(Relaxed);
            let old = self.words[base + 2 * i + 1].load(Relaxed);
            if old == 0 || check ^ old == hash {
                victim = i;
                // Keep a deeper result's best move if this one has none.
                if best.is_none() && old != 0 && check ^ old == hash {
                    let kept = unpack(old).best;
                    let data = pack(
                        Entry {
                            score: score_to_table(score, ply),
                            depth: depth.min(255) as u8,
                            bound,
                            best: kept,
                        },
                        self.generation,
                    );
                    self.write(base + 2 * victim, hash, data);
                    return;
                }
                break;
            }
            let age = i32::from(self.generation.wrapping_sub(generation_of(old)) & 0x3f);
            let value = i32::from(unpack(old).depth) - 4 * age;
            if value < lowest {
                lowest = value;
                victim = i;
            }
        }
        self.write(base + 2 * victim, hash, data);
    }

    /// How many entries hold something (a pass over the whole table).
    pub(crate) fn stored_entries(&self) -> usize {
        self.words
            .chunks_exact(2)
            .filter(|entry| entry[1].load(Relaxed) != 0)
            .count()
    }

    fn write(&self, at: usize, hash: u64, data: u64) {
        self.words[at].store(hash ^ data, Relaxed);
        self.words[at + 1].store(data, Relaxed);
    }
}

// The data word: score (32 bits) | depth (8) | bound (2) | best move index + 1 (16) |
// generation (6).
fn pack(entry: Entry, generation: u8) -> u64 {
    let bound = match entry.bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    let best = entry.best.map_or(0, |i| u64::from(i) + 1) & 0xffff;
    u64::from(entry.score as u32)
        | u64::from(entry.depth) << 32
        | bound << 40
        | best << 42
        | u64::from(generation & 0x3f) << 58
}

fn unpack(data: u64) -> Entry {
    let bound = match (data >> 40) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    let best = ((data >> 42) & 0xffff) as u16;
    Entry {
        score: (data as u32) as i32,
        depth: (data >> 32) as u8,
        bound,
        best: best.checked_sub(1),
    }
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8
}

/// The largest score a table entry holds: every score the search makes fits.
const _: () = assert!(WIN < i32::MAX / 2);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_reads_back_as_stored() {
        let table = Table::new(1);
        let hash = 0x1234_5678_9abc_def0;
        assert_eq!(table.probe(hash), None);
        table.store(hash, 0, -321, 7, Bound::Lower, Some(12));
        let entry = table.probe(hash).expect("stored");
        assert_eq!(
            entry,
            Entry {
                score: -321,
                depth: 7,
                bound: Bound::Lower,
                best: Some(12)
            }
        );
        assert_eq!(entry.cutoff(7, 0, -400, -321), Some(-321));
        assert_eq!(
            entry.cutoff(7, 0, -400, -300),
            None,
            "a lower bound below beta"
        );
        assert_eq!(entry.cutoff(8, 0, -400, -321), None, "too shallow");
        assert_eq!(table.probe(hash ^ 1), None);
    }

    #[test]
    fn wins_are_stored_from_the_position_and_read_from_the_root() {
        let table = Table::new(1);
        // A win in 9 plies from the root, found 4 plies deep: a win in 5 from the position.
        table.store(7, 4, WIN - 9, 5, Bound::Exact, None);
        let entry = table.probe(7).expect("stored");
        assert_eq!(entry.score, WIN - 5);
        assert_eq!(entry.cutoff(5, 2, -WIN, WIN), Some(WIN - 7));
        table.store(8, 3, -(WIN - 6), 5, Bound::Exact, None);
        assert_eq!(
            table.probe(8).and_then(|e| e.cutoff(1, 1, -WIN, WIN)),
            Some(-(WIN - 4))
        );
    }

    #[test]
    fn the_deeper_entry_survives_a_full_bucket() {
        let table = Table::new(1);
        let buckets = table.mask as u64 + 1;
        // Five positions in one bucket: the shallowest of the four stored gives way.
        let hashes: Vec<u64> = (1..=5).map(|i| i * buckets + 3).collect();
        for (i, &h) in hashes.iter().take(4).enumerate() {
            table.store(h, 0, 10, [9, 2, 8, 7][i], Bound::Exact, None);
        }
        table.store(hashes[4], 0, 10, 5, Bound::Exact, None);
        assert!(
            table.probe(hashes[1]).is_none(),
            "the depth-2 entry was replaced"
        );
        for i in [0, 2, 3, 4] {
            assert!(table.probe(hashes[i]).is_some(), "entry {i} kept");
        }
    }

    #[test]
    fn a_new_result_for_the_same_position_keeps_its_best_move() {
        let table = Table::new(1);
        table.store(42, 0, 5, 6, Bound::Exact, Some(3));
        table.store(42, 0, 9, 7, Bound::Upper, None);
        let entry = table.probe(42).expect("stored");
        assert_eq!((entry.score, entry.depth, entry.best), (9, 7, Some(3)));
    }
}

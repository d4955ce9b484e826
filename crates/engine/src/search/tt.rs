//! The transposition table: what earlier searches of a position found, by its hash.

/// How a stored score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    /// The true value is at least the score (the search failed high).
    Lower,
    /// The true value is at most the score (the search failed low).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<M> {
    pub hash: u64,
    pub depth: u32,
    pub score: i32,
    pub bound: Bound,
    pub best: Option<M>,
}

impl<M> Entry<M> {
    /// The stored score if it settles a search to `depth` within `(alpha, beta)`.
    pub(crate) fn cutoff(&self, depth: u32, alpha: i32, beta: i32) -> Option<i32> {
        if self.depth < depth {
            return None;
        }
        match self.bound {
            Bound::Exact => Some(self.score),
            Bound::Lower if self.score >= beta => Some(self.score),
            Bound::Upper if self.score <= alpha => Some(self.score),
            _ => None,
        }
    }
}

/// A table of `2^bits` entries, indexed by the top bits of the hash; a new entry always
/// replaces the old one.
#[derive(Debug)]
pub(crate) struct Table<M> {
    entries: Vec<Option<Entry<M>>>,
    bits: u32,
}

impl<M: Copy> Table<M> {
    /// The table's size: 2^18 entries, a few megabytes for any game's moves.
    pub(crate) const BITS: u32 = 18;

    pub(crate) fn new() -> Table<M> {
        Table {
            entries: vec![None; 1 << Self::BITS],
            bits: Self::BITS,
        }
    }

    fn slot(&self, hash: u64) -> usize {
        (hash >> (64 - self.bits)) as usize
    }

    /// The entry stored for this hash, if any.
    pub(crate) fn probe(&self, hash: u64) -> Option<Entry<M>> {
        self.entries[self.slot(hash)].filter(|e| e.hash == hash)
    }

    pub(crate) fn store(&mut self, entry: Entry<M>) {
        let slot = self.slot(entry.hash);
        self.entries[slot] = Some(entry);
    }
}

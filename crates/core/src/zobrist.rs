//! Pseudo-random keys for Zobrist hashing, computed by a fixed function so that every build and
//! every platform agrees.

/// The key number `index` of the family `table`: SplitMix64 over both, never zero.
pub const fn key(table: u64, index: u64) -> u64 {
    let mut z = table
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index.wrapping_add(1).wrapping_mul(0xBF58_476D_1CE4_E5B9));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    if z == 0 {
        1
    } else {
        z
    }
}

/// A table of `N` keys of family `table`, for use in constants.
pub const fn table<const N: usize>(table: u64) -> [u64; N] {
    let mut keys = [0; N];
    let mut i = 0;
    while i < N {
        keys[i] = key(table, i as u64);
        i += 1;
    }
    keys
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_are_distinct() {
        let keys: [u64; 1000] = super::table(7);
        let mut sorted = keys.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 1000);
        assert_ne!(super::key(1, 0), super::key(2, 0));
    }
}

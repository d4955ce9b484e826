//! Sets of up to 64 cells as the bits of a `u64` (bitboards), shared by the games that use them.

/// Iterates over the set bits of a bitboard, lowest first, as bit numbers.
///
/// ```
/// let bits: Vec<u8> = denkmeter_core::Bits(0b1010_0001).collect();
/// assert_eq!(bits, [0, 5, 7]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u8;

    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(bit)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bits {}

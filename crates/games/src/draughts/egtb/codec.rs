//! The database files: each material's values in blocks, each block compressed on its own by
//! runs of equal values and literal runs of variable-length integers, so that one value is
//! found by decoding one block.
//!
//! A file holds: the magic `DENKEGTB`, the format version (u32), the ruleset's name (a length
//! byte and the bytes), the material (four bytes), the positions (u64), the blocks (u32), the
//! offset of each block and of the end in the data (u64 each), a checksum of every value
//! (FNV-1a over the values as little-endian u16), then the data. Integers are little-endian.

use std::io::{Read, Write};

use super::index::Material;
use super::EgtbError;

/// Values per block.
pub(crate) const BLOCK: usize = 4096;
const MAGIC: &[u8; 8] = b"DENKEGTB";
const VERSION: u32 = 1;

/// Appends `value` as a variable-length integer (7 bits a byte, low first).
fn put_varint(out: &mut Vec<u8>, mut value: u32) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads a variable-length integer at `*at`.
fn get_varint(data: &[u8], at: &mut usize) -> Result<u32, EgtbError> {
    let mut value = 0u32;
    for shift in (0..35).step_by(7) {
        let byte = *data
            .get(*at)
            .ok_or_else(|| EgtbError::Format("a block ends inside a number".into()))?;
        *at += 1;
        value |= u32::from(byte & 0x7F) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(EgtbError::Format("a number in a block is too long".into()))
}

/// Runs of equal values at least this long are written as runs.
const MIN_RUN: usize = 3;

/// One block's values, compressed: tokens `(count - 1) << 1 | kind`, kind 0 a run (one value
/// repeated `count` times), kind 1 `count` literal values.
pub(crate) fn compress_block(values: &[u16], out: &mut Vec<u8>) {
    let mut i = 0;
    let mut literal_start = 0;
    let flush_literals = |out: &mut Vec<u8>, from: usize, to: usize| {
        if to > from {
            put_varint(out, ((to - from - 1) as u32) << 1 | 1);
            for &v in &values[from..to] {
                put_varint(out, u32::from(v));
            }
        }
    };
    while i < values.len() {
        let mut j = i + 1;
        while j < values.len() && values[j] == values[i] {
            j += 1;
        }
        if j - i >= MIN_RUN {
            flush_literals(out, literal_start, i);
            put_varint(out, ((j - i - 1) as u32) << 1);
            put_varint(out, u32::from(values[i]));
            literal_start = j;
        }
        i = j;
    }
    flush_literals(out, literal_start, values.len());
}

/// Decodes one block of `len` values.
pub(crate) fn decompress_block(
    data: &[u8],
    len: usize,
    out: &mut Vec<u16>,
) -> Result<(), EgtbError> {
    out.clear();
    let mut at = 0;
    let bad = || EgtbError::Format("a block holds a value out of range".into());
    while out.len() < len {
        let token = get_varint(data, &mut at)?;
        let count = (token >> 1) as usize + 1;
        if out.len() + count > len {
            return Err(EgtbError::Format("a block holds too many values".into()));
        }
        if token & 1 == 0 {
            let v = u16::try_from(get_varint(data, &mut at)?).map_err(|_| bad())?;
            out.extend(std::iter::repeat(v).take(count));
        } else {
            for _ in 0..count {
                out.push(u16::try_from(get_varint(data, &mut at)?).map_err(|_| bad())?);
            }
        }
    }
    if at != data.len() {
        return Err(EgtbError::Format(
            "a block has bytes after its values".into(),
        ));
    }
    Ok(())
}

/// The number of values in block `b` of `len` values.
pub(crate) fn block_len(len: u64, b: usize) -> usize {
    (len as usize - b * BLOCK).min(BLOCK)
}

/// FNV-1a over values as little-endian u16.
pub(crate) fn checksum(values: impl Iterator<Item = u16>) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for v in values {
        for byte in v.to_le_bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// A material's values as read from a file: still compressed, by block.
#[derive(Debug)]
pub(crate) struct Compressed {
    pub len: u64,
    /// The start of each block in `data`, and the end.
    pub offsets: Vec<u64>,
    pub data: Vec<u8>,
    pub checksum: u64,
    /// Where the data starts in the file it was read from (0 when built in memory).
    pub data_start: u64,
}

impl Compressed {
    /// Compresses `values`.
    pub fn new(values: &[u16]) -> Compressed {
        let mut offsets = vec![0];
        let mut data = Vec::new();
        for block in values.chunks(BLOCK) {
            compress_block(block, &mut data);
            offsets.push(data.len() as u64);
        }
        Compressed {
            len: values.len() as u64,
            offsets,
            data,
            checksum: checksum(values.iter().copied()),
            data_start: 0,
        }
    }

    /// The number of blocks.
    pub fn blocks(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Decodes block `b` into `out`.
    pub fn block(&self, b: usize, out: &mut Vec<u16>) -> Result<(), EgtbError> {
        let start = self.offsets[b] as usize;
        let end = self.offsets[b + 1] as usize;
        decompress_block(&self.data[start..end], block_len(self.len, b), out)
    }

    /// Writes the file.
    pub fn write(
        &self,
        ruleset: &str,
        material: Material,
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        out.write_all(MAGIC)?;
        out.write_all(&VERSION.to_le_bytes())?;
        out.write_all(&[ruleset.len() as u8])?;
        out.write_all(ruleset.as_bytes())?;
        out.write_all(&[
            material.us_men,
            material.us_kings,
            material.them_men,
            material.them_kings,
        ])?;
        out.write_all(&self.len.to_le_bytes())?;
        out.write_all(&(self.blocks() as u32).to_le_bytes())?;
        for offset in &self.offsets {
            out.write_all(&offset.to_le_bytes())?;
        }
        out.write_all(&self.checksum.to_le_bytes())?;
        out.write_all(&self.data)
    }

    /// Reads a file written by [`Compressed::write`] for this ruleset and material, checking
    /// its header (not yet its values: see [`Compressed::verify`]).
    pub fn read(
        ruleset: &str,
        material: Material,
        expected_len: u64,
        input: &mut impl Read,
    ) -> Result<Compressed, EgtbError> {
        let mut bytes = Vec::new();
        input.read_to_end(&mut bytes)?;
        let mut at = 0usize;
        let mut take = |n: usize| -> Result<&[u8], EgtbError> {
            let slice = bytes
                .get(at..at + n)
                .ok_or_else(|| EgtbError::Format("the file is cut short".into()))?;
            at += n;
            Ok(slice)
        };
        let u64_of = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
        if take(8)? != MAGIC {
            return Err(EgtbError::Format("not a Denkmeter endgame database".into()));
        }
        let version = u32::from_le_bytes(take(4)?.try_into().unwrap_or([0; 4]));
        if version != VERSION {
            return Err(EgtbError::Format(format!(
                "format version {version}, this build reads {VERSION}"
            )));
        }
        let name_len = usize::from(take(1)?[0]);
        let name = take(name_len)?;
        if name != ruleset.as_bytes() {
            return Err(EgtbError::Format(format!(
                "made for ruleset {}, not {ruleset}",
                String::from_utf8_lossy(name)
            )));
        }
        let m = take(4)?;
        if m != [
            material.us_men,
            material.us_kings,
            material.them_men,
            material.them_kings,
        ] {
            return Err(EgtbError::Format(format!(
                "holds another material than {material}"
            )));
        }
        let len = u64_of(take(8)?);
        if len != expected_len {
            return Err(EgtbError::Format(format!(
                "holds {len} positions, {material} has {expected_len}"
            )));
        }
        let blocks = u32::from_le_bytes(take(4)?.try_into().unwrap_or([0; 4])) as usize;
        if blocks != (len as usize).div_ceil(BLOCK) {
            return Err(EgtbError::Format("the number of blocks is wrong".into()));
        }
        let mut offsets = Vec::with_capacity(blocks + 1);
        for _ in 0..=blocks {
            offsets.push(u64_of(take(8)?));
        }
        let checksum = u64_of(take(8)?);
        let data = bytes.split_off(at);
        if offsets.first() != Some(&0)
            || offsets.last() != Some(&(data.len() as u64))
            || offsets.windows(2).any(|w| w[0] > w[1])
        {
            return Err(EgtbError::Format(
                "the block offsets are inconsistent".into(),
            ));
        }
        Ok(Compressed {
            len,
            offsets,
            data,
            checksum,
            data_start: at as u64,
        })
    }

    /// Decodes every block, handing each value to `each` in order, and checks the checksum.
    pub fn for_each(&self, mut each: impl FnMut(u16)) -> Result<(), EgtbError> {
        let mut block = Vec::with_capacity(BLOCK);
        let mut values = 0u64;
        let mut fnv = 0xcbf2_9ce4_8422_2325u64;
        for b in 0..self.blocks() {
            self.block(b, &mut block)?;
            for &v in &block {
                for byte in v.to_le_bytes() {
                    fnv ^= u64::from(byte);
                    fnv = fnv.wrapping_mul(0x0100_0000_01b3);
                }
                each(v);
                values += 1;
            }
        }
        if values != self.len || fnv != self.checksum {
            return Err(EgtbError::Format(
                "the values do not match the checksum".into(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_decode_to_what_was_encoded() {
        let mut values: Vec<u16> = (0..10_000u32).map(|i| ((i * 7919) % 300) as u16).collect();
        values[100..900].fill(0);
        values[5000..5003].fill(9);
        values.push(u16::MAX);
        let packed = Compressed::new(&values);
        let mut file = Vec::new();
        let m = Material {
            us_men: 1,
            us_kings: 0,
            them_men: 0,
            them_kings: 1,
        };
        packed.write("english", m, &mut file).expect("written");
        let read = Compressed::read("english", m, values.len() as u64, &mut file.as_slice())
            .expect("read");
        let mut back = Vec::new();
        read.for_each(|v| back.push(v)).expect("checksum");
        assert_eq!(back, values);
        assert!(Compressed::read(
            "international",
            m,
            values.len() as u64,
            &mut file.as_slice()
        )
        .is_err());
        let mut cut = file.clone();
        cut.truncate(file.len() - 3);
        assert!(Compressed::read("english", m, values.len() as u64, &mut cut.as_slice()).is_err());
        let mut flipped = file.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 0x01;
        let bad = Compressed::read("english", m, values.len() as u64, &mut flipped.as_slice());
        assert!(bad.map_or(true, |c| c.for_each(|_| {}).is_err()));
    }
}

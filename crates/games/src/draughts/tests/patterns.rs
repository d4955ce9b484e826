//! The pattern tables of the learned evaluation: the windows cover the board and turn into each
//! other, the fused score agrees with the patterns seen, the score is symmetric, and the file
//! form reads back and refuses damage.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::super::eval::Group;
use super::super::patterns::{self, PatternError, Patterns, PATTERNS};
use super::super::tuning;
use super::super::variant::geometry;
use super::tuning::sample_positions;
use super::*;

/// Random tables, every value drawn from `-range..=range`.
fn random_tables(windows: usize, range: i16, seed: u64) -> Patterns {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut p = Patterns::zero(windows);
    for w in 0..windows {
        for i in 0..PATTERNS {
            p.set(
                w,
                i,
                [rng.gen_range(-range..=range), rng.gen_range(-range..=range)],
            );
        }
    }
    p
}

/// Each window holds eight squares of the board, every square is in some window, and window
/// `windows - 1 - u` holds the squares of window `u` turned half round, in the other order.
#[test]
fn the_windows_cover_the_board_and_turn_into_each_other() {
    fn check<V: Variant>() {
        let g = geometry::<V>();
        let layout = patterns::layout::<V>();
        let expected = if V::SIZE == 10 { 16 } else { 9 };
        assert_eq!(layout.windows, expected, "{}", V::NAME);
        let squares =
            |u: usize| -> Vec<u8> { layout.start[u].iter().flat_map(|&s| [s, s + 1]).collect() };
        let mut covered = 0u64;
        let cells = V::SIZE * V::SIZE;
        for u in 0..layout.windows {
            let sq = squares(u);
            let bits = sq.iter().fold(0u64, |acc, &s| acc | 1 << s);
            assert_eq!(bits.count_ones(), 8, "{} window {u}", V::NAME);
            assert_eq!(bits & !g.valid, 0, "{} window {u}", V::NAME);
            // The squares lie within a 4x4 block of cells.
            let files: Vec<usize> = sq
                .iter()
                .map(|&s| usize::from(g.cell[usize::from(s)]) % V::SIZE)
                .collect();
            let ranks: Vec<usize> = sq
                .iter()
                .map(|&s| usize::from(g.cell[usize::from(s)]) / V::SIZE)
                .collect();
            assert!(files.iter().max().unwrap() - files.iter().min().unwrap() <= 3);
            assert!(ranks.iter().max().unwrap() - ranks.iter().min().unwrap() <= 3);
            covered |= bits;
            let turned: Vec<u8> = sq
                .iter()
                .rev()
                .map(|&s| g.square[cells - 1 - usize::from(g.cell[usize::from(s)])])
                .collect();
            assert_eq!(
                turned,
                squares(layout.windows - 1 - u),
                "{} window {u}",
                V::NAME
            );
        }
        assert_eq!(covered, g.valid, "{}", V::NAME);
    }
    for_every_ruleset!(check);
}

/// The score added up from the patterns seen is the fused score; the board turned with the
/// colours swapped scores the opposite; and a pattern is what its squares hold.
#[test]
fn the_score_is_the_patterns_seen_and_symmetric() {
    fn check<V: Variant>() {
        let windows = patterns::layout::<V>().windows;
        let tables = random_tables(windows, 300, 3);
        let mut positions = 0;
        let mut nonzero = 0;
        sample_positions::<V>(21, |s| {
            let seen = patterns::seen::<V>(s);
            let score = tables.score::<V>(s);
            assert_eq!(score, tables.white_score(&seen), "{}", V::NAME);
            let turned = tuning::mirrored::<V>(s);
            assert_eq!(tables.score::<V>(&turned), -score, "{}", V::NAME);
            let turned_seen = patterns::seen::<V>(&turned);
            assert_eq!(turned_seen.white, seen.black, "{}", V::NAME);
            assert_eq!(turned_seen.black, seen.white, "{}", V::NAME);
            positions += 1;
            nonzero += usize::from(score != 0);
        });
        assert!(
            nonzero * 2 > positions,
            "{}: {nonzero} of {positions}",
            V::NAME
        );
    }
    for_every_ruleset!(check);

    // A White man on the first dark square of the board (a1): digit 0 of window 0 is 1 in
    // White's view.
    let s = Draughts::<InternationalRules>::new()
        .parse_position("W:W46:B5")
        .expect("a position");
    let seen = patterns::seen::<InternationalRules>(&s);
    assert_eq!(seen.men, 2);
    assert_eq!(seen.full, 40);
    let g = geometry::<InternationalRules>();
    let white_square = Squares(s.pieces[Player::White]).next().expect("a man");
    assert_eq!(g.cell[usize::from(white_square)], 0, "46 is a1");
    assert_eq!(seen.white[0], 1);
    // Black's man on 5 (j10, the top corner): digit 7 of the last window, an opponent's man,
    // in White's view; in Black's own view, digit 0 of the first window.
    assert_eq!(seen.white[15], 2 * 3u16.pow(7));
    assert_eq!(seen.black[0], 1);
    assert_eq!(seen.black[15], 2 * 3u16.pow(7));
}

#[test]
fn the_file_form_reads_back_and_refuses_damage() {
    let tables = random_tables(16, 40, 5);
    let mut sparse = tables.clone();
    for i in 0..PATTERNS {
        if i % 3 != 0 {
            sparse.set(2, i, [0, 0]);
        }
    }
    for t in [&tables, &sparse, &Patterns::zero(16)] {
        let bytes = t.to_bytes(Group::International);
        assert_eq!(
            Patterns::from_bytes(&bytes, Group::International).as_ref(),
            Ok(t)
        );
        assert_eq!(
            Patterns::from_bytes(&bytes, Group::Scandinavian10).err(),
            Some(PatternError::Group {
                found: "international".into(),
                wanted: "scandinavian-10x10".into()
            })
        );
        assert!(matches!(
            Patterns::from_bytes(&bytes, Group::English),
            Err(PatternError::Group { .. })
        ));
        let mut damaged = bytes.clone();
        let middle = damaged.len() / 2;
        damaged[middle] ^= 0x10;
        assert_eq!(
            Patterns::from_bytes(&damaged, Group::International),
            Err(PatternError::Damaged("checksum"))
        );
        assert!(Patterns::from_bytes(&bytes[..bytes.len() - 9], Group::International).is_err());
        assert_eq!(
            Patterns::from_bytes(b"hello", Group::International),
            Err(PatternError::Header)
        );
    }
    // Runs of zeros make an unlearned table small.
    assert!(Patterns::zero(16).to_bytes(Group::International).len() < 64);
    // Tables of the other board size are refused, whatever the checksum says.
    let english = random_tables(9, 40, 6);
    let bytes = english.to_bytes(Group::English);
    assert_eq!(Patterns::from_bytes(&bytes, Group::English), Ok(english));
    let mut renamed = bytes.clone();
    let at = renamed
        .windows(b"english".len())
        .position(|w| w == b"english")
        .expect("the name");
    let mut forged = renamed[..at].to_vec();
    forged.extend_from_slice(b"international");
    forged.extend_from_slice(&renamed[at + b"english".len()..renamed.len() - 8]);
    renamed = with_checksum(forged);
    assert_eq!(
        Patterns::from_bytes(&renamed, Group::International),
        Err(PatternError::Damaged("window count"))
    );
    // A whole checksum over too few or too many values.
    let header = {
        let mut h = b"denkmeter patterns 1\ninternational\n".to_vec();
        h.push(16);
        h
    };
    let mut short = header.clone();
    short.push(50 << 1 | 1);
    assert_eq!(
        Patterns::from_bytes(&with_checksum(short), Group::International),
        Err(PatternError::Damaged("too few values"))
    );
    let mut long = header.clone();
    // A run longer than the tables: 16 * 6561 * 2 + 1 zeros, as a variable-length integer.
    let mut run = ((16 * PATTERNS * 2 + 1) as u64) << 1 | 1;
    while run >= 0x80 {
        long.push((run as u8) | 0x80);
        run >>= 7;
    }
    long.push(run as u8);
    assert_eq!(
        Patterns::from_bytes(&with_checksum(long), Group::International),
        Err(PatternError::Damaged("too many values"))
    );
    // Arbitrary bytes after a good header never panic.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    for len in 0..200 {
        let mut junk = header.clone();
        junk.extend((0..len).map(|_| rng.gen::<u8>()));
        assert!(Patterns::from_bytes(&with_checksum(junk), Group::International).is_err());
    }
}

/// `content` with the FNV-1a checksum the file form ends with.
fn with_checksum(mut content: Vec<u8>) -> Vec<u8> {
    let sum = content.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    content.extend_from_slice(&sum.to_le_bytes());
    content
}

/// Every shipped table reads, fits its board, has learned something, and stays within a few
/// men of the weighted terms, so that no pattern outweighs the material on the board; and the
/// rulesets that ship tables play with them, the others without.
#[test]
fn the_shipped_tables_read_and_stay_in_bounds() {
    fn check<V: Variant>() {
        let Some(bytes) = patterns::shipped_bytes(V::NAME) else {
            assert!(patterns::shipped_for::<V>().is_none(), "{}", V::NAME);
            return;
        };
        let tables = patterns::shipped_for::<V>().expect("the shipped tables read");
        assert_eq!(
            Patterns::from_bytes(bytes, Group::of::<V>()).as_ref(),
            Ok(tables)
        );
        assert_eq!(tables.windows(), patterns::layout::<V>().windows);
        let (mut learned, mut largest) = (0, 0);
        for u in 0..tables.windows() {
            for i in 0..PATTERNS {
                let v = tables.get(u, i);
                learned += usize::from(v != [0, 0]);
                largest = largest.max(v[0].abs()).max(v[1].abs());
            }
        }
        assert!(learned > 1000, "{}: {learned} patterns learned", V::NAME);
        assert!(largest <= 200, "{}: a pattern worth {largest}", V::NAME);
        // Over the positions of games, the learned part stays within four men.
        sample_positions::<V>(31, |s| {
            let score = tables.score::<V>(s);
            assert!(score.abs() <= 400, "{}: {score}", V::NAME);
        });
    }
    for_every_ruleset!(check);
    let with_tables: Vec<&str> = super::super::NAMES
        .into_iter()
        .filter(|name| patterns::shipped_bytes(name).is_some())
        .collect();
    assert_eq!(
        with_tables,
        [
            "scandinavian",
            "scandinavian-free",
            "scandinavian-medium",
            "scandinavian-medium-free",
            "scandinavian-weak",
            "scandinavian-weak-free",
            "international"
        ]
    );
}

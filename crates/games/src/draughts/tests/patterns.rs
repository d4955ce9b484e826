//! The pattern tables of the learned evaluation: the windows cover the board and turn into each
//! other, the fused score agrees with the patterns seen, the score is symmetric, and the file
//! form reads back and refuses damage.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::super::eval::Group;
use super::super::patterns::{self, PatternError, Patterns, PATTERNS};
use super::super::tuning;
use super::super::variant::geometry;
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

/// Calls `check` on positions of random games and random positions.
fn sample_positions<V: Variant>(seed: u64, mut check: impl FnMut(&State)) {
    random_games::<V>(seed, 20, 200, |s, _| check(s));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..500 {
        check(&random_position::<V>(&mut rng));
    }
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
    for t in [&tables, &sparse, &Patterns::zero(9)] {
        let bytes = t.to_bytes(Group::International);
        assert_eq!(
            Patterns::from_bytes(&bytes, Group::International).as_ref(),
            Ok(t)
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
}

/// Every shipped table reads, fits its board, and keeps the start even.
#[test]
fn the_shipped_tables_read_and_keep_the_start_even() {
    fn check<V: Variant>() {
        let group = Group::of::<V>();
        if patterns::shipped_bytes(group).is_none() {
            return;
        }
        let tables = patterns::shipped(group).expect("the shipped tables read");
        assert_eq!(tables.windows(), patterns::layout::<V>().windows);
        let game = Draughts::<V>::new();
        assert_eq!(game.evaluate(&game.start()), 0, "{}", V::NAME);
    }
    for_every_ruleset!(check);
}

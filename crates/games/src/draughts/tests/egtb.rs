//! The endgame databases' parts: the numbering of positions, the turned board, and facts of
//! the values (the values themselves are checked against the rules as they are built, and
//! against an independent solver in `tests/egtb_reference.rs`).

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::super::egtb::index::{material_of, Board, Material, Numbering};
use super::super::egtb::{self, Tablebase, Wdl};
use super::super::variant::geometry;
use super::*;

/// Numbers to position and back, for every material of up to four pieces of a board; and the
/// positions are distinct and of the right material.
fn numbering_round_trips<V: Variant>() {
    let board = Board::new(geometry::<V>());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for pieces in 2..=4 {
        for material in Material::all_with(pieces) {
            let numbering = Numbering::new(&board, material);
            let mut seen = 0;
            for i in 0..2000u64 {
                let index = if i < 1000 {
                    i.min(numbering.len - 1)
                } else {
                    rng.gen_range(0..numbering.len)
                };
                let Some(state) = numbering.position(&board, index) else {
                    continue;
                };
                seen += 1;
                assert_eq!(material_of(&state), material, "{material} #{index}");
                assert_eq!(
                    numbering.index(&board, &state),
                    index,
                    "{material} #{index}"
                );
                let g = geometry::<V>();
                // Men never stand on their own far row.
                assert_eq!(state.squares(Player::White, Kind::Man) & g.far_row[0], 0);
                assert_eq!(state.squares(Player::Black, Kind::Man) & g.far_row[1], 0);
            }
            assert!(seen > 0, "{material}: no position numbered");
        }
    }
}

#[test]
fn every_board_numbers_its_positions_both_ways() {
    numbering_round_trips::<EnglishRules>();
    numbering_round_trips::<InternationalRules>();
    numbering_round_trips::<ScandinavianRules<8, STRONG, true>>();
    numbering_round_trips::<ScandinavianRules<10, WEAK, false>>();
}

/// Turning the board and swapping colours twice gives the position back, and the turned
/// position has the same moves (by count) and the same captures.
fn flipping_is_a_symmetry<V: Variant>() {
    let game = Draughts::<V>::new();
    let board = Board::new(geometry::<V>());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let (mut moves, mut turned_moves) = (Vec::new(), Vec::new());
    for _ in 0..40 {
        let mut state = game.start();
        for _ in 0..rng.gen_range(0..80) {
            game.legal_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.play_unchecked(&mut state, mv);
        }
        let fresh = State::bare(state.pieces, state.dames, state.to_move);
        let turned = board.flipped(&fresh);
        assert_eq!(board.flipped(&turned), fresh);
        assert_eq!(turned.to_move, !fresh.to_move);
        game.legal_moves(&fresh, &mut moves);
        game.legal_moves(&turned, &mut turned_moves);
        assert_eq!(
            moves.len(),
            turned_moves.len(),
            "{}",
            game.position_text(&fresh)
        );
        let captures = |m: &[Move]| m.iter().map(|m| m.capture_count()).sum::<u32>();
        assert_eq!(captures(&moves), captures(&turned_moves));
        // The side to move sees the same pieces on the same squares either way.
        assert_eq!(board.seen_by_mover(&fresh), board.seen_by_mover(&turned));
    }
}

#[test]
fn turning_the_board_is_a_symmetry_of_every_board() {
    flipping_is_a_symmetry::<EnglishRules>();
    flipping_is_a_symmetry::<InternationalRules>();
    flipping_is_a_symmetry::<ScandinavianRules<8, MEDIUM, true>>();
    flipping_is_a_symmetry::<ScandinavianRules<10, STRONG, false>>();
}

fn value(tables: &Tablebase, game: &impl Game<State = State>, position: &str) -> egtb::Probe {
    let state = game.parse_position(position).expect("position");
    tables.probe(&state).expect("in the tables")
}

#[test]
fn english_endings_have_their_known_values() {
    let tables = Tablebase::generate::<EnglishRules>(4, 2).expect("built");
    let game = English::new();
    // Two kings beat one, from the double corner too; the side to move there loses.
    assert_eq!(
        value(&tables, &game, "8/8/8/8/8/8/5D1d/6D1 w").wdl,
        Wdl::Win
    );
    let lost = value(&tables, &game, "8/8/8/8/8/8/5D1d/6D1 b");
    assert_eq!(
        lost,
        egtb::Probe {
            wdl: Wdl::Loss,
            plies: 2
        }
    );
    // A king against a king draws.
    assert_eq!(value(&tables, &game, "8/8/8/8/3d4/8/8/D7 w").wdl, Wdl::Draw);
    // A man that must take the last piece wins in one ply.
    assert_eq!(
        value(&tables, &game, "8/8/8/8/8/2d5/1M6/8 w"),
        egtb::Probe {
            wdl: Wdl::Win,
            plies: 1
        }
    );
    // A lone man that cannot move has lost.
    assert_eq!(
        value(&tables, &game, "8/8/8/8/8/2d5/1d6/M7 w"),
        egtb::Probe {
            wdl: Wdl::Loss,
            plies: 0
        }
    );
    assert_eq!(tables.pieces(), 4);
    // Five pieces are not there.
    let state = game
        .parse_position("8/8/8/8/8/2d1d3/1M1M4/4D3 w")
        .expect("position");
    assert_eq!(tables.probe(&state), None);
}

#[test]
fn a_lone_king_on_the_long_diagonal_holds_three_kings_in_international_draughts() {
    let tables = Tablebase::generate::<InternationalRules>(4, 2).expect("built");
    let game = International::new();
    // Black's king on the long diagonal (a1-j10) draws against three kings, whoever moves.
    for side in ["w", "b"] {
        let position = format!("10/10/10/D9/10/D9/10/D9/10/d9 {side}");
        assert_eq!(
            value(&tables, &game, &position).wdl,
            Wdl::Draw,
            "{position}"
        );
    }
    // One king against one draws unless one takes the other at once.
    assert_eq!(
        value(&tables, &game, "10/10/10/10/10/10/10/10/10/d1D7 w").wdl,
        Wdl::Draw
    );
}

#[test]
fn a_database_file_that_is_damaged_or_missing_is_refused_with_a_message() {
    let dir = std::env::temp_dir().join(format!("denkmeter-egtb-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut first_tallies = Vec::new();
    egtb::generate_ruleset(
        "english",
        3,
        &dir,
        1,
        egtb::DEFAULT_MEMORY_LIMIT,
        &mut |r| {
            first_tallies.push((r.material, r.tally.clone()));
        },
    )
    .expect("built");
    // Not the files of ruleset international: nothing to open.
    assert!(egtb::open_ruleset("international", &dir)
        .expect("known")
        .is_none());
    assert!(matches!(
        egtb::open_ruleset("chad", &dir),
        Err(egtb::EgtbError::UnknownRuleset(_))
    ));
    assert!(egtb::generate_ruleset(
        "english",
        9,
        &dir,
        1,
        egtb::DEFAULT_MEMORY_LIMIT,
        &mut |_| {}
    )
    .is_err());
    let tables = egtb::open_ruleset("english", &dir)
        .expect("known")
        .expect("found");
    assert_eq!(tables.pieces(), 3);
    let game = English::new();
    let state = game
        .parse_position("8/8/8/8/8/8/5D1d/6D1 w")
        .expect("position");
    assert_eq!(tables.wdl(&state), Some(Wdl::Win));
    // Damage one file: its material reads as missing, with the reason kept.
    let file = dir.join("english").join("0m1k-0m2k.egtb");
    let mut bytes = std::fs::read(&file).expect("read");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&file, &bytes).expect("written");
    let tables = egtb::open_ruleset("english", &dir)
        .expect("known")
        .expect("found");
    let state = game
        .parse_position("8/8/8/8/8/8/5d1D/6d1 w")
        .expect("position");
    assert_eq!(tables.wdl(&state), None);
    assert!(tables.problem().expect("a problem").contains("0m1k-0m2k"));
    // A second run rebuilds the damaged file and reuses the others, with the same tallies.
    let mut rebuilt = Vec::new();
    let mut tallies = Vec::new();
    egtb::generate_ruleset(
        "english",
        3,
        &dir,
        1,
        egtb::DEFAULT_MEMORY_LIMIT,
        &mut |r| {
            if !r.reused {
                rebuilt.push(r.material.to_string());
            }
            tallies.push((r.material, r.tally.clone()));
        },
    )
    .expect("rebuilt");
    assert_eq!(rebuilt, ["0m1k-0m2k", "0m2k-0m1k"]);
    assert_eq!(tallies, first_tallies);
    let tables = egtb::open_ruleset("english", &dir)
        .expect("known")
        .expect("found");
    assert_eq!(tables.wdl(&state), Some(Wdl::Loss));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_database_win_stands_only_where_no_count_can_run_out_first() {
    use super::super::draw::table_result_stands;
    let english = English::new();
    let mut state = english
        .parse_position("8/8/8/8/8/8/5D1d/6D1 w")
        .expect("position");
    assert!(table_result_stands::<EnglishRules>(&state, Some(11)));
    assert!(!table_result_stands::<EnglishRules>(&state, None));
    state.quiet = 69;
    assert!(!table_result_stands::<EnglishRules>(&state, Some(11)));
    state.quiet = 68;
    assert!(table_result_stands::<EnglishRules>(&state, Some(11)));
    // Without counting rules every result stands.
    assert!(table_result_stands::<ScandinavianRules<8, STRONG, true>>(
        &state, None
    ));
    // International draughts: a lone king against two kings counts five moves each.
    let international = International::new();
    let mut state = international
        .parse_position("10/10/10/D9/10/10/10/D9/10/d9 w")
        .expect("position");
    assert!(table_result_stands::<InternationalRules>(&state, Some(9)));
    assert!(!table_result_stands::<InternationalRules>(&state, Some(10)));
    state.endgame = 4;
    assert!(table_result_stands::<InternationalRules>(&state, Some(5)));
    assert!(!table_result_stands::<InternationalRules>(&state, Some(6)));
    // Against three pieces, sixteen moves each; but if the lone king takes the last king and a
    // man crowns later, a new 5-move count starts: only ten plies are sure.
    let state = international
        .parse_position("10/10/10/D9/10/M9/10/D9/10/d9 w")
        .expect("position");
    assert!(table_result_stands::<InternationalRules>(&state, Some(9)));
    assert!(!table_result_stands::<InternationalRules>(&state, Some(10)));
    // Outside those endgames a count may still start later: only wins shorter than the
    // 5-move rule's ten plies are sure.
    let state = international
        .parse_position("10/10/9m/D9/10/M9/10/D9/10/d9 w")
        .expect("position");
    assert!(table_result_stands::<InternationalRules>(&state, Some(9)));
    assert!(!table_result_stands::<InternationalRules>(&state, Some(10)));
}

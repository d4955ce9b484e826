//! The rulesets, the three boards with their home-fields, the start, the able camels and perft.

use denkmeter_core::{PieceShape, RepetitionRule};

use super::super::state::{colour, Tables, CAMEL, DROMEDARY};
use super::*;

#[test]
fn move_fits_in_two_bytes() {
    assert!(std::mem::size_of::<Move>() <= 2);
}

#[test]
fn three_rulesets_share_one_family() {
    let names: Vec<&str> = all_rulesets().iter().map(|g| g.name()).collect();
    assert_eq!(names, ["kamelen", "kamelen-11x12", "kamelen-11x13"]);
    for (g, ranks) in all_rulesets().iter().zip([11, 12, 13]) {
        assert_eq!(g.facts().family, "kamelen");
        assert!(!g.facts().description.is_empty());
        assert_eq!(g.facts().repetition, RepetitionRule::DrawOnThird);
        assert!(!g.facts().hidden_information);
        assert_eq!(g.ranks(), ranks);
        assert_eq!(g.board().len(), 11 * ranks);
        assert_eq!(g.board().name(Cell(0)), "a1");
        assert_eq!(
            g.board().name(Cell(11 * ranks as u16 - 1)),
            format!("k{ranks}")
        );
    }
    assert_eq!(Kamelen::default().variant(), Variant::Standard);
}

#[test]
fn home_fields_are_f1_and_the_f_square_of_the_far_rank() {
    for (g, far) in all_rulesets().iter().zip(["f11", "f12", "f13"]) {
        assert_eq!(g.board().name(g.home_field(Player::White)), "f1");
        assert_eq!(g.board().name(g.home_field(Player::Black)), far);
    }
}

#[test]
fn home_fields_are_painted_with_a_style_per_owner() {
    for g in all_rulesets() {
        let board = g.board();
        let white = board.style(g.home_field(Player::White));
        let black = board.style(g.home_field(Player::Black));
        assert_eq!(white, &HOME_WHITE);
        assert_eq!(black, &HOME_BLACK);
        assert_eq!(white.words, "White's home-field");
        assert_eq!(black.words, "Black's home-field");
        assert_ne!(white.fill, black.fill);
        assert_ne!(white.glyph, black.glyph);
        let legend = board.legend();
        assert!(legend.cells.contains(&HOME_WHITE) && legend.cells.contains(&HOME_BLACK));
        let homes = board
            .cell_ids()
            .filter(|&c| board.info(c).classes.iter().any(|k| k.starts_with("home")))
            .count();
        assert_eq!(homes, 2);
    }
}

#[test]
fn the_middle_strip_is_painted() {
    for (g, strip) in all_rulesets().iter().zip([&[6][..], &[6, 7], &[6, 7, 8]]) {
        let board = g.board();
        for cell in board.cell_ids() {
            let rank = cell.index() / FILES + 1;
            assert_eq!(
                board.info(cell).classes.contains(&"strip"),
                strip.contains(&rank),
                "{} {}",
                g.name(),
                board.name(cell)
            );
        }
        assert!(board.legend().cells.contains(&STRIP));
    }
}

#[test]
fn pieces_have_shapes_a_player_tells_apart() {
    let legend = game().board().legend().clone();
    let shape = |kind: &str| legend.piece(kind).unwrap().shape;
    assert_eq!(shape("camel"), PieceShape::Triangle);
    assert_eq!(shape("dromedary"), PieceShape::Diamond);
    assert_eq!(shape("rock"), PieceShape::Stone);
    assert_eq!(legend.piece("rock").unwrap().letter, 'X');
    assert_eq!(legend.piece("camel").unwrap().letter, 'C');
    assert_eq!(legend.piece("dromedary").unwrap().letter, 'D');
}

#[test]
fn start_position_of_the_standard_board_is_the_rules_string() {
    let g = game();
    let start = g.start();
    assert_eq!(g.position_text(&start), START);
    assert_eq!(pos(START), start);
    assert_eq!(g.to_move(&start), Player::White);
    assert_eq!(g.status(&start), Status::Ongoing);
}

#[test]
fn start_positions_of_the_longer_boards_widen_the_strip() {
    let strings = [
        START,
        "ddddd1ddddd/1cccc1cccc1/11/2X2X2X2/11/11/11/11/2X2X2X2/11/1CCCC1CCCC1/DDDDD1DDDDD w",
        "ddddd1ddddd/1cccc1cccc1/11/2X2X2X2/11/11/11/11/11/2X2X2X2/11/1CCCC1CCCC1/DDDDD1DDDDD w",
    ];
    for (g, text) in all_rulesets().iter().zip(strings) {
        let start = g.start();
        assert_eq!(g.position_text(&start), text);
        assert_eq!(pos_in(g, text), start);
    }
}

#[test]
fn each_side_has_ten_dromedaries_eight_camels_and_three_rocks_in_its_half() {
    for g in all_rulesets() {
        let start = g.start();
        let ranks = g.ranks();
        for side in Player::BOTH {
            assert_eq!(start.count(side, Piece::Camel), 8);
            assert_eq!(start.count(side, Piece::Dromedary), 10);
        }
        let rocks: Vec<Cell> = start.rocks().collect();
        assert_eq!(rocks.len(), 6);
        assert_eq!(
            names(&g, rocks.iter().copied().filter(|c| c.index() / FILES < 5)),
            ["c4", "f4", "i4"]
        );
        // Black's half is White's mirrored across the middle: rank r becomes N + 1 - r.
        let mirror =
            |c: Cell| Cell((c.index() % FILES + FILES * (ranks - 1 - c.index() / FILES)) as u16);
        for cell in g.board().cell_ids() {
            let mirrored = match start.occupant(cell) {
                Some(Occupant::Animal(owner, piece)) => Some(Occupant::Animal(!owner, piece)),
                other => other,
            };
            assert_eq!(
                start.occupant(mirror(cell)),
                mirrored,
                "{}",
                g.board().name(cell)
            );
        }
        assert_eq!(start.occupant(g.home_field(Player::White)), None);
        assert_eq!(start.occupant(g.home_field(Player::Black)), None);
    }
}

#[test]
fn fact_four_able_camels_a_side_on_each_board() {
    let expected = [
        (["c2", "e2", "g2", "i2"], ["c10", "e10", "g10", "i10"]),
        (["b2", "d2", "h2", "j2"], ["b11", "d11", "h11", "j11"]),
        (["c2", "e2", "g2", "i2"], ["c12", "e12", "g12", "i12"]),
    ];
    for (g, (white, black)) in all_rulesets().iter().zip(expected) {
        let start = g.start();
        assert_eq!(
            names(g, g.able_camels(&start, Player::White)),
            white,
            "{}",
            g.name()
        );
        assert_eq!(
            names(g, g.able_camels(&start, Player::Black)),
            black,
            "{}",
            g.name()
        );
    }
}

#[test]
fn able_squares_have_the_colour_of_the_enemy_home_field() {
    for g in all_rulesets() {
        for side in Player::BOTH {
            let home = g.home_field(!side).index();
            for cell in g.board().cell_ids() {
                let same = colour(cell.index()) == colour(home);
                assert_eq!(g.is_able_square(side, cell), same);
                assert_eq!(
                    g.camel_distance(side, cell).is_some(),
                    same,
                    "{}",
                    g.board().name(cell)
                );
            }
            assert_eq!(g.camel_distance(side, Cell(home as u16)), Some(0));
            assert!(!g.is_able_square(side, Cell(200)));
        }
    }
}

#[test]
fn a_camel_keeps_its_colour_and_a_dromedary_changes_it() {
    for ranks in [11, 12, 13] {
        let t = Tables::of(ranks);
        for sq in 0..t.squares as u8 {
            for leap in t.leaps(CAMEL, sq) {
                assert_eq!(colour(leap.to.into()), colour(sq.into()));
            }
            for leap in t.leaps(DROMEDARY, sq) {
                assert_ne!(colour(leap.to.into()), colour(sq.into()));
            }
        }
    }
}

#[test]
fn each_start_and_end_is_joined_by_one_leap() {
    for ranks in [11, 12, 13] {
        let t = Tables::of(ranks);
        for sq in 0..t.squares as u8 {
            for kind in [CAMEL, DROMEDARY] {
                let ends: BTreeSet<u8> = t.leaps(kind, sq).iter().map(|l| l.to).collect();
                assert_eq!(ends.len(), t.leaps(kind, sq).len());
                assert!(ends.iter().all(|&e| usize::from(e) < t.squares));
            }
        }
    }
}

/// c2 and i2 are shut in by the rocks on c4 and i4; the other camels leap north; the
/// dromedaries e1 and g1 leave through f2.
#[test]
fn fact_sixteen_moves_from_the_start() {
    let expected = [
        "b2-a5", "b2-c5", "d2-c5", "d2-e5", "e1-g4", "e1-h3", "e2-d5", "e2-f5", "g1-d3", "g1-e4",
        "g2-f5", "g2-h5", "h2-g5", "h2-i5", "j2-i5", "j2-k5",
    ];
    for g in all_rulesets() {
        assert_eq!(texts_in(&g, &g.start()), expected, "{}", g.name());
    }
}

#[test]
fn perft_from_the_start_of_each_board() {
    let expected: [&[u64]; 3] = [
        &[16, 256, 4898, 92804],
        &[16, 256, 4992, 96992],
        &[16, 256, 4992, 97276],
    ];
    for (g, counts) in all_rulesets().iter().zip(expected) {
        let start = g.start();
        let found: Vec<u64> = (1..=counts.len() as u32)
            .map(|d| perft(g, &start, d))
            .collect();
        assert_eq!(found, counts, "{}", g.name());
    }
}

/// Every line of `tests/perft/kamelen.txt`, checked up to depth 4 here to stay quick.
#[test]
fn perft_file_counts() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/kamelen.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = 0;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(fields.len(), 3, "{line}");
        let g = all_rulesets()
            .into_iter()
            .find(|g| g.name() == fields[0])
            .unwrap_or_else(|| panic!("unknown ruleset in {line}"));
        let state = if fields[1] == "start" {
            g.start()
        } else {
            pos_in(&g, fields[1])
        };
        for (depth, count) in fields[2].split_whitespace().enumerate().take(4) {
            let count: u64 = count.parse().unwrap();
            assert_eq!(perft(&g, &state, depth as u32 + 1), count, "{line}");
        }
        lines += 1;
    }
    assert!(lines >= 6);
}

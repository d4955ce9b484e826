//! Square numbers and FEN: the published start positions and first moves, round trips over
//! random games, and bad FENs refused with a reason.

use denkmeter_core::PositionError;

use super::*;

fn fen<V: Variant>(s: &State) -> String {
    Draughts::<V>::new()
        .fen(s)
        .expect("the ruleset numbers its squares")
}

#[test]
fn the_start_positions_are_the_published_fens() {
    // International: White on 31-50 moves first. English: Black, the first player, on 1-12.
    let international = Draughts::<InternationalRules>::new();
    let start = international.start();
    let listed = |from: usize, to: usize| {
        (from..=to)
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    assert_eq!(
        fen::<InternationalRules>(&start),
        format!("W:W{}:B{}", listed(31, 50), listed(1, 20))
    );
    assert_eq!(
        international.parse_position("W:W31-50:B1-20").as_ref(),
        Ok(&start)
    );
    let english = Draughts::<EnglishRules>::new();
    let start = english.start();
    assert_eq!(
        fen::<EnglishRules>(&start),
        format!("B:W{}:B{}", listed(21, 32), listed(1, 12))
    );
    assert_eq!(
        english.parse_position("B:W21-32:B1-12").as_ref(),
        Ok(&start)
    );
    // Inside a PDN tag, with spaces and a final full stop, as files write it.
    assert_eq!(
        english
            .parse_position(r#"[FEN "B:W21-32:B1-12."]"#)
            .as_ref(),
        Ok(&start)
    );
    // Scandinavian checkers has no customary numbers.
    assert!(Draughts::<Scandinavian8x8Rules>::new()
        .fen(&start)
        .is_none());
}

#[test]
fn square_numbers_match_the_published_openings() {
    // English checkers' `11-15` is c3-d4 here; International's `32-28` is d4-e5.
    let english = Draughts::<EnglishRules>::new();
    let after = play::<EnglishRules>(&english.start(), "c3-d4");
    assert_eq!(
        fen::<EnglishRules>(&after),
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
    );
    let international = Draughts::<InternationalRules>::new();
    let after = play::<InternationalRules>(&international.start(), "d4-e5");
    let moved = fen::<InternationalRules>(&after);
    assert!(moved.starts_with("B:W28,31,33,"), "{moved}");
    // Square 1 and the last square, one piece each: b10 and i1 in International, g1 and b8 in
    // English.
    let lone = |text: &str| position::<InternationalRules>(text);
    assert_eq!(
        lone("W:WK1:BK50"),
        position::<InternationalRules>("1D8/10/10/10/10/10/10/10/10/8d1 w")
    );
    assert_eq!(
        position::<EnglishRules>("W:WK32:BK1"),
        position::<EnglishRules>("1d6/8/8/8/8/8/8/6D1 b")
    );
}

#[test]
fn fens_round_trip_over_random_games() {
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        random_games::<V>(7, 20, 120, |s, _| {
            let text = fen::<V>(s);
            assert_eq!(game.parse_position(&text), Ok(uncounted(s)), "{text}");
        });
    }
    check::<InternationalRules>();
    check::<EnglishRules>();
}

#[test]
fn bad_fens_are_refused_with_a_reason() {
    let reason = |text: &str| match Draughts::<InternationalRules>::new().parse_position(text) {
        Err(PositionError::Invalid(reason)) => reason,
        other => panic!("{text}: expected a refusal, got {other:?}"),
    };
    assert!(reason("X:W31:B1").contains("side to move"));
    assert!(reason("W:W51:B1").contains("1 to 50"));
    assert!(reason("W:W0:B1").contains("1 to 50"));
    assert!(reason("W:W31,31:B1").contains("given twice"));
    assert!(reason("W:W31:B31").contains("given twice"));
    assert!(reason("W:W31:W32").contains("two lists"));
    assert!(reason("W:W40-31:B1").contains("upwards"));
    assert!(reason("W:Wx:B1").contains("square numbers"));
    assert!(reason("W:W031:B1").contains("square numbers"));
    assert!(reason("W:W+31:B1").contains("square numbers"));
    assert!(reason("W:Q31:B1").contains("starts with W or B"));
    // A white man on 1-5 (its promotion row) would have been crowned; a king may stand there.
    assert!(reason("W:W3:B40").contains("promotion row"));
    assert!(Draughts::<InternationalRules>::new()
        .parse_position("W:WK3:B40")
        .is_ok());
}

/// `text` (a move in algebraic notation) with every square written as its number.
fn numeric<V: Variant>(text: &str) -> String {
    let geo = geometry::<V>();
    let number = |name: &str| {
        let sq = Squares(geo.valid)
            .find(|&sq| super::super::notation::square_name(geo, sq) == name)
            .unwrap_or_else(|| panic!("{name} is not a dark square"));
        super::super::fen::number_of::<V>(sq)
            .expect("numbered")
            .to_string()
    };
    let separator = if text.contains('x') { "x" } else { "-" };
    text.split(['-', 'x'])
        .map(number)
        .collect::<Vec<_>>()
        .join(separator)
}

#[test]
fn moves_are_read_by_square_numbers_too() {
    // The published openings, and English checkers' forced capture c3xe5 as 11x18.
    let english = Draughts::<EnglishRules>::new();
    let start = english.start();
    assert_eq!(
        english.parse_move(&start, "11-15"),
        english.parse_move(&start, "c3-d4")
    );
    let capture = position::<EnglishRules>("8/8/8/8/3m4/2M5/8/M7 w");
    assert_eq!(
        english.parse_move(&capture, "11x18"),
        english.parse_move(&capture, "c3xe5")
    );
    let international = Draughts::<InternationalRules>::new();
    let start = international.start();
    assert_eq!(
        international.parse_move(&start, "32-28"),
        international.parse_move(&start, "d4-e5")
    );
    // Every legal move of random games, captures with all their landing squares included.
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        random_games::<V>(11, 12, 150, |s, moves| {
            for &mv in moves {
                let text = numeric::<V>(&super::super::notation::move_text::<V>(s, mv));
                assert_eq!(game.parse_move(s, &text), Ok(mv), "{text}");
            }
        });
    }
    check::<InternationalRules>();
    check::<EnglishRules>();
    // Written with numbers, the short way unless two captures share their start and end, and
    // read back as the same move.
    fn written<V: Variant>() {
        let game = Draughts::<V>::new();
        random_games::<V>(13, 30, 150, |s, moves| {
            for &mv in moves {
                let text = game.numeric_move_text(s, mv).expect("numbered");
                let parts = text.split(['-', 'x']).count();
                let shared = moves
                    .iter()
                    .any(|m| m.from == mv.from && m.to == mv.to && *m != mv);
                assert_eq!(parts > 2, shared, "{text}");
                assert_eq!(game.parse_move(s, &text), Ok(mv), "{text}");
            }
        });
    }
    written::<InternationalRules>();
    written::<EnglishRules>();
    // An English man on c3 (11) takes b4 and b6 or d4 and d6, landing on c7 (27) both ways:
    // the landing squares say which. (International men would go round and back to c3.)
    let both = position::<EnglishRules>("8/8/1m1m4/8/1m1m4/2M5/8/8 w");
    let mut texts: Vec<String> = legal::<EnglishRules>(&both)
        .into_iter()
        .filter_map(|mv| english.numeric_move_text(&both, mv))
        .collect();
    texts.sort();
    assert_eq!(texts, ["11x18x27", "11x20x27"]);
    let round = position::<InternationalRules>("10/10/10/10/1m1m6/10/1m1m6/2M7/10/10 w");
    let texts: Vec<String> = legal::<InternationalRules>(&round)
        .into_iter()
        .filter_map(|mv| international.numeric_move_text(&round, mv))
        .collect();
    assert_eq!(texts, ["37x37"]);
    // Numbers off the board are refused with the range; Scandinavian checkers has none.
    for text in ["51-46", "032-028", "0-28"] {
        let error = international
            .parse_move(&start, text)
            .unwrap_err()
            .to_string();
        assert!(error.contains("1 to 50"), "{text}: {error}");
    }
    let scandinavian = Draughts::<Scandinavian8x8Rules>::new();
    assert!(scandinavian
        .parse_move(&scandinavian.start(), "11-15")
        .is_err());
}

#[test]
fn every_dark_square_has_one_number() {
    fn check<V: Variant>(count: usize) {
        let geo = crate::draughts::variant::geometry::<V>();
        let squares: Vec<u8> = (1..=count)
            .map(|n| super::super::fen::numbered::<V>(n).expect("numbered"))
            .collect();
        for (i, &sq) in squares.iter().enumerate() {
            assert_eq!(super::super::fen::number_of::<V>(sq), Some(i + 1));
        }
        let all: u64 = squares
            .iter()
            .fold(0, |acc, &sq| acc | super::super::geometry::bit(sq));
        assert_eq!(all, geo.valid, "{}", V::NAME);
        assert_eq!(super::super::fen::numbered::<V>(0), None);
        assert_eq!(super::super::fen::numbered::<V>(count + 1), None);
    }
    check::<InternationalRules>(50);
    check::<EnglishRules>(32);
}

#[test]
fn move_counters_after_the_pieces_are_skipped() {
    let game = Draughts::<InternationalRules>::new();
    assert_eq!(
        game.parse_position("W:W31-50:B1-20:H0:F1"),
        Ok(game.start())
    );
    assert!(game.parse_position("W:W31-50:B1-20:Hx").is_err());
}

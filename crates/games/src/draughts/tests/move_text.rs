//! Move notation: the text format, the short form, parsing and its errors.

use super::*;

#[test]
fn move_text_format() {
    type V = Scandinavian8x8Rules;
    let game = Scandinavian8x8::new();
    let s = game.start();
    assert_eq!(
        texts::<V>(&s),
        sorted(&["b3-a4", "b3-c4", "d3-c4", "d3-e4", "f3-e4", "f3-g4", "h3-g4"])
    );
    let s = state::<V>("M:d1 m:d3 m:e6", 'w');
    assert_eq!(texts::<V>(&s), ["d1xd5xf7"]);
    // 10x10 names: j10.
    let s = state::<InternationalRules>("D:a1 m:i9 m:b10", 'w');
    assert!(texts::<InternationalRules>(&s).contains(&"a1xj10".to_string()));
}

#[test]
fn numbered_rulesets_show_numbers_and_the_others_names() {
    let english = English::new();
    let start = english.start();
    let shown: BTreeSet<String> = legal::<EnglishRules>(&start)
        .into_iter()
        .map(|m| english.move_text(&start, m))
        .collect();
    let expected = ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"];
    assert_eq!(shown, expected.iter().map(|s| s.to_string()).collect());
    let international = International::new();
    let start = international.start();
    let mv = international.parse_move(&start, "d4-e5").unwrap();
    assert_eq!(international.move_text(&start, mv), "32-28");
    let scandinavian = Scandinavian8x8::new();
    let start = scandinavian.start();
    let mv = scandinavian.parse_move(&start, "b3-a4").unwrap();
    assert_eq!(scandinavian.move_text(&start, mv), "b3-a4");
}

#[test]
fn parse_accepts_the_full_and_the_unambiguous_short_form() {
    type V = Scandinavian8x8Rules;
    let game = Scandinavian8x8::new();
    let s = state::<V>("M:d1 m:d3 m:e6", 'w');
    let full = game.parse_move(&s, "d1xd5xf7").unwrap();
    assert_eq!(game.parse_move(&s, "d1xf7"), Ok(full));
    assert_eq!(game.parse_move(&s, " D1XD5XF7 "), Ok(full));
    assert_eq!(game.parse_move(&s, "d1-f7"), Ok(full));
    // A complete route must be written in full or not at all.
    assert!(matches!(
        game.parse_move(&s, "d1xd5"),
        Err(MoveError::Illegal { .. })
    ));
    assert!(matches!(
        game.parse_move(&s, "d1xd5xf7xh5"),
        Err(MoveError::Illegal { .. })
    ));
    // The alphabetically first route is the text of a move with several.
    type I = InternationalRules;
    let s = state::<I>("M:c3 m:d4 m:f4 m:f2 m:d2", 'w');
    let international = International::new();
    let mv = international.parse_move(&s, "c3xe5xg3xe1xc3").unwrap();
    assert_eq!(international.parse_move(&s, "c3xe1xg3xe5xc3"), Ok(mv));
    assert_eq!(international.parse_move(&s, "c3xc3"), Ok(mv));
    assert_eq!(
        super::super::notation::move_text::<I>(&s, mv),
        "c3xe1xg3xe5xc3"
    );
    // Shown in numbers: a round capture from 37 (c3) back to itself.
    assert_eq!(international.move_text(&s, mv), "37x37");
}

#[test]
fn ambiguous_short_form_names_the_candidates() {
    // English: c3 to c7 over d4 and d6, or over b4 and b6.
    type E = EnglishRules;
    let game = English::new();
    let s = state::<E>("M:c3 m:d4 m:d6 m:b4 m:b6", 'w');
    assert_eq!(texts::<E>(&s), sorted(&["c3xa5xc7", "c3xe5xc7"]));
    match game.parse_move(&s, "c3xc7") {
        Err(MoveError::Illegal { reason, .. }) => {
            assert!(reason.contains("ambiguous"), "{reason}");
            // Named as English checkers shows them, in numbers: c3xe5xc7 and c3xa5xc7.
            assert!(
                reason.contains("11x18x27") && reason.contains("11x20x27"),
                "{reason}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(game.parse_move(&s, "c3xe5xc7").is_ok());
    assert!(game.parse_move(&s, "c3xa5xc7").is_ok());
}

#[test]
fn syntax_errors_are_not_illegal_moves() {
    let game = Scandinavian8x8::new();
    let s = game.start();
    for text in [
        "", "   ", "b3", "b3-", "-c4", "b3c4", "b3--c4", "b3-c9", "b3-i4", "b0-c4", "b03-c4",
        "b3-c4!", "pass", "33-44", "b3-c4-", "é3-c4",
    ] {
        assert!(
            matches!(game.parse_move(&s, text), Err(MoveError::Syntax { .. })),
            "{text:?}: {:?}",
            game.parse_move(&s, text)
        );
    }
    for (text, why) in [
        ("b3-b4", "light"),
        ("a4-b5", "no piece"),
        ("a6-b5", "not the mover"),
        ("b3-d5", "no legal move"),
        ("a2-b3", "no legal move"),
    ] {
        match game.parse_move(&s, text) {
            Err(MoveError::Illegal { reason, .. }) => {
                assert!(reason.contains(why), "{text}: {reason}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn every_legal_move_text_parses_back() {
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        random_games::<V>(4, 6, 150, |s, moves| {
            for &mv in moves {
                let text = game.move_text(s, mv);
                assert_eq!(game.parse_move(s, &text), Ok(mv), "{text}");
                // The short form names the move when no other shares its start and end.
                if mv.is_capture() {
                    let (from, to) = (
                        text.split('x').next().unwrap(),
                        text.rsplit('x').next().unwrap(),
                    );
                    let short = format!("{from}x{to}");
                    let same = moves
                        .iter()
                        .filter(|m| m.from == mv.from && m.to == mv.to)
                        .count();
                    // A one-capture move written in full takes precedence over a short form.
                    let full = moves.iter().find(|&&m| game.move_text(s, m) == short);
                    match (game.parse_move(s, &short), full) {
                        (Ok(found), Some(&m)) => assert_eq!(found, m, "{short}"),
                        (Ok(found), None) => assert!(same == 1 && found == mv, "{short}"),
                        (Err(MoveError::Illegal { reason, .. }), None) => {
                            assert!(
                                same > 1 && reason.contains("ambiguous"),
                                "{short}: {reason}"
                            )
                        }
                        (other, _) => panic!("{short}: {other:?}"),
                    }
                }
            }
        });
    }
    for_every_ruleset!(check);
}

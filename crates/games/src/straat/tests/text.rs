//! Notation: move texts, position strings, and refusals of bad input.

use super::*;

#[test]
fn a_move_is_the_cell_then_the_orientation_then_a_star_if_solid_face_up() {
    let g = flip();
    let start = g.start();
    let next = played(&g, &start, "b3n");
    assert_eq!(g.position_text(&next), "4/1N2/4/4 b");
    let next = played(&g, &next, "c1W*");
    assert_eq!(g.position_text(&next), "4/1N2/4/2w*1 w");
    assert!(next.tile(sq("c1")).unwrap().solid_up);
    assert_eq!(next.tile(sq("c1")).unwrap().orientation, Orientation::West);
}

#[test]
fn move_texts_are_read_in_any_case_with_blanks_around() {
    let g = straight();
    let start = g.start();
    let mv = g.parse_move(&start, " D4S ").unwrap();
    assert_eq!(g.move_text(&start, mv), "d4s");
}

#[test]
fn bad_moves_are_refused_with_a_reason_and_change_nothing() {
    let g = straight();
    let state = played(&g, &g.start(), "a1n");
    let before = state.clone();
    for bad in [
        "", "a1", "e1n", "a5n", "a1x", "a1nn", "a1n**", "pass", "a1-a2", "b2n+",
    ] {
        assert!(
            matches!(g.parse_move(&state, bad), Err(MoveError::Syntax { .. })),
            "{bad:?}"
        );
    }
    for illegal in ["a1e", "b2n*"] {
        assert!(
            matches!(
                g.parse_move(&state, illegal),
                Err(MoveError::Illegal { .. })
            ),
            "{illegal:?}"
        );
    }
    assert_eq!(state, before);
    let full = pos(&g, "NnNn/nNnN/NnNn/nNnN w");
    assert!(matches!(
        g.parse_move(&full, "a1n"),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn position_strings_write_runs_of_empty_cells_as_digits() {
    let g = flip();
    let text = "N*3/1e2/2W1/3s* w";
    let state = pos(&g, text);
    assert_eq!(g.position_text(&state), text);
    assert_eq!(state.tile(sq("a4")).unwrap().letter(), 'N');
    assert_eq!(state.tile(sq("d1")).unwrap().owner, Player::Black);
    assert_eq!(g.position_text(&pos(&g, "  4/4/4/4 w ")), START);
}

#[test]
fn bad_positions_are_refused_naming_what_and_where() {
    use denkmeter_core::PositionError as E;
    let g = straight();
    type Check = fn(&E) -> bool;
    let cases: [(&str, Check); 12] = [
        ("", |e| matches!(e, E::Empty)),
        ("4/4/4/4", |e| matches!(e, E::SideToMove(_))),
        ("4/4/4/4 x", |e| matches!(e, E::SideToMove(_))),
        ("4/4/4/4 w b", |e| matches!(e, E::SideToMove(_))),
        ("4/4/4 w", |e| {
            matches!(
                e,
                E::RowCount {
                    expected: 4,
                    found: 3
                }
            )
        }),
        ("4/3/4/4 w", |e| matches!(e, E::RowLength { row: 2, .. })),
        ("4/5/4/4 w", |e| matches!(e, E::BadNumber { row: 2, .. })),
        ("4/NNNNN/4/4 w", |e| {
            matches!(e, E::RowLength { row: 2, .. })
        }),
        ("4/4/1x2/4 w", |e| {
            matches!(e, E::BadCharacter { row: 3, found: 'x' })
        }),
        ("4/4/4/N*3 b", |e| matches!(e, E::Invalid(_))),
        ("4/4/4/N3 w", |e| matches!(e, E::Invalid(_))),
        ("4/4/4/n3 b", |e| matches!(e, E::Invalid(_))),
    ];
    for (text, expected) in cases {
        let err = g.parse_position(text).unwrap_err();
        assert!(expected(&err), "{text:?}: {err}");
    }
    assert!(flip().parse_position("4/4/4/N*3 b").is_ok());
    assert!(flip().parse_position("4/4/4/*3 b").is_err());
    assert!(flip().parse_position("4/4/4/N**3 b").is_err());
}

#[test]
fn random_text_never_panics() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(99);
    let alphabet: Vec<char> = "nesw NESW*/0123456789wbx-".chars().collect();
    for g in all_rulesets() {
        let start = g.start();
        for _ in 0..3000 {
            let len = rng.gen_range(0..20);
            let text: String = (0..len)
                .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                .collect();
            if let Ok(state) = g.parse_position(&text) {
                assert_eq!(pos(&g, &g.position_text(&state)), state);
            }
            let _ = g.parse_move(&start, &text);
        }
    }
}

proptest::proptest! {
    /// No string makes the position or move readers panic, in any ruleset.
    #[test]
    fn no_string_makes_the_readers_panic(text in "[nesw NESW*/0-9wbx-]{0,24}|\\PC{0,24}") {
        for g in all_rulesets() {
            let _ = g.parse_position(&text);
            let _ = g.parse_move(&g.start(), &text);
        }
    }
}

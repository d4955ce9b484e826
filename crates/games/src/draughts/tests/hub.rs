//! The Hub protocol's formats: the start positions, the published example moves, round trips
//! of positions and of every legal move over random games, and bad input refused with a reason.

use super::*;

/// Every legal move of `s` written in Hub form and read back, also with the captured squares
/// in descending order and with `-` for `x`.
fn check_moves_round_trip<V: Variant>(s: &State, moves: &[Move]) {
    let game = Draughts::<V>::new();
    for &mv in moves {
        let text = game.hub_move(mv).expect("a numbered ruleset");
        assert_eq!(game.parse_hub_move(s, &text), Ok(mv), "{text}");
        let parts: Vec<&str> = text.split(['x', '-']).collect();
        if mv.is_capture() {
            assert_eq!(parts.len(), 2 + mv.capture_count() as usize, "{text}");
            let captured: Vec<usize> = parts[2..].iter().map(|p| p.parse().unwrap()).collect();
            assert!(captured.windows(2).all(|w| w[0] < w[1]), "{text}");
            let mut reversed = parts[..2].to_vec();
            reversed.extend(parts[2..].iter().rev());
            let reversed = reversed.join("x");
            assert_eq!(game.parse_hub_move(s, &reversed), Ok(mv), "{reversed}");
            let dashed = text.replace('x', "-");
            assert_eq!(game.parse_hub_move(s, &dashed), Ok(mv), "{dashed}");
        } else {
            assert_eq!(parts.len(), 2, "{text}");
            assert!(text.contains('-'), "{text}");
        }
    }
}

fn check_round_trips<V: Variant>() {
    let game = Draughts::<V>::new();
    random_games::<V>(11, 20, 150, |s, moves| {
        let text = game.hub_position(s).expect("a numbered ruleset");
        assert_eq!(Some(text.len()), game.hub_position_len());
        assert_eq!(game.parse_hub_position(&text), Ok(uncounted(s)), "{text}");
        check_moves_round_trip::<V>(s, moves);
    });
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for _ in 0..300 {
        let s = random_position::<V>(&mut rng);
        let text = game.hub_position(&s).expect("a numbered ruleset");
        assert_eq!(game.parse_hub_position(&text).as_ref(), Ok(&s), "{text}");
        check_moves_round_trip::<V>(&s, &legal::<V>(&s));
    }
}

#[test]
fn positions_and_moves_round_trip_over_random_games() {
    check_round_trips::<InternationalRules>();
    check_round_trips::<EnglishRules>();
}

#[test]
fn the_start_positions_in_hub_form() {
    let international = Draughts::<InternationalRules>::new();
    let start = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
    assert_eq!(
        international.hub_position(&international.start()),
        Some(start.clone())
    );
    assert_eq!(
        international.parse_hub_position(&start),
        Ok(international.start())
    );
    // English: Black, the first player, has the dark men on 1-12 and moves first.
    let english = Draughts::<EnglishRules>::new();
    let start = format!("B{}{}{}", "b".repeat(12), "e".repeat(8), "w".repeat(12));
    assert_eq!(english.hub_position(&english.start()), Some(start.clone()));
    assert_eq!(english.parse_hub_position(&start), Ok(english.start()));
    assert!(Draughts::<Scandinavian8x8Rules>::new()
        .hub_position(&english.start())
        .is_none());
}

#[test]
fn the_published_example_moves() {
    // 32-28 19-23 28x19x23, then both recaptures as Scan and pydraughts write them.
    let game = Draughts::<InternationalRules>::new();
    let mut s = game.start();
    for text in ["32-28", "19-23", "28x19x23"] {
        let mv = game.parse_hub_move(&s, text).expect(text);
        assert_eq!(game.hub_move(mv).as_deref(), Some(text));
        game.play_unchecked(&mut s, mv);
    }
    let mut replies: Vec<String> = legal::<InternationalRules>(&s)
        .into_iter()
        .filter_map(|m| game.hub_move(m))
        .collect();
    replies.sort();
    assert_eq!(replies, ["13x24x19", "14x23x19"]);
    // A capture named by its start and end alone, when only one capture has them.
    let short = game.parse_hub_move(&s, "14x23").expect("14x23");
    assert_eq!(game.hub_move(short).as_deref(), Some("14x23x19"));
    // English: 11-15 is the first move of a common opening (Black's men on 1-12).
    let english = Draughts::<EnglishRules>::new();
    let mv = english
        .parse_hub_move(&english.start(), "11-15")
        .expect("11-15");
    assert_eq!(english.hub_move(mv).as_deref(), Some("11-15"));
}

#[test]
fn a_capture_named_by_its_ends_alone_must_be_the_only_one() {
    // Random positions until two legal captures share their start and end.
    let game = Draughts::<InternationalRules>::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut found = 0;
    for _ in 0..200_000 {
        let s = random_position::<InternationalRules>(&mut rng);
        let moves = legal::<InternationalRules>(&s);
        let Some((a, b)) = moves.iter().enumerate().find_map(|(i, a)| {
            moves[i + 1..]
                .iter()
                .find(|b| a.from == b.from && a.to == b.to)
                .map(|b| (*a, *b))
        }) else {
            continue;
        };
        let ends = {
            let text = game.hub_move(a).expect("numbered");
            let parts: Vec<&str> = text.split('x').collect();
            format!("{}x{}", parts[0], parts[1])
        };
        assert!(
            matches!(game.parse_hub_move(&s, &ends), Err(HubError::Ambiguous(_))),
            "{ends}"
        );
        for mv in [a, b] {
            let text = game.hub_move(mv).expect("numbered");
            assert_eq!(game.parse_hub_move(&s, &text), Ok(mv), "{text}");
        }
        found += 1;
        if found == 5 {
            return;
        }
    }
    panic!("only {found} positions with two captures sharing their ends");
}

#[test]
fn bad_positions_are_refused_with_a_reason() {
    let game = Draughts::<InternationalRules>::new();
    let start = game.hub_position(&game.start()).expect("numbered");
    let with = |i: usize, c: char| {
        let mut chars: Vec<char> = start.chars().collect();
        chars[i] = c;
        chars.into_iter().collect::<String>()
    };
    assert_eq!(
        game.parse_hub_position(&start[..33]),
        Err(HubError::PositionLength {
            expected: 51,
            found: 33
        })
    );
    assert_eq!(
        game.parse_hub_position(""),
        Err(HubError::PositionLength {
            expected: 51,
            found: 0
        })
    );
    assert_eq!(
        game.parse_hub_position(&format!("{start}e")),
        Err(HubError::PositionLength {
            expected: 51,
            found: 52
        })
    );
    assert_eq!(
        game.parse_hub_position(&with(0, 'X')),
        Err(HubError::SideToMove('X'))
    );
    assert_eq!(
        game.parse_hub_position(&with(0, 'w')),
        Err(HubError::SideToMove('w'))
    );
    assert_eq!(
        game.parse_hub_position(&with(25, 'q')),
        Err(HubError::SquareLetter {
            square: 25,
            found: 'q'
        })
    );
    // A multi-byte character counts as one, and is refused as a letter.
    assert!(matches!(
        game.parse_hub_position(&with(7, 'é')),
        Err(HubError::SquareLetter { square: 7, .. })
    ));
    // A white man on 3 (its promotion row) would have been crowned; a king may stand there.
    assert_eq!(
        game.parse_hub_position(&with(3, 'w')),
        Err(HubError::ManOnPromotionRow(3))
    );
    assert!(game.parse_hub_position(&with(3, 'W')).is_ok());
    // An English position is 33 characters.
    let english = Draughts::<EnglishRules>::new();
    assert!(matches!(
        english.parse_hub_position(&start),
        Err(HubError::PositionLength { expected: 33, .. })
    ));
}

#[test]
fn bad_moves_are_refused_with_a_reason() {
    let game = Draughts::<InternationalRules>::new();
    let start = game.start();
    let syntax = |text: &str| match game.parse_hub_move(&start, text) {
        Err(HubError::MoveSyntax { reason, .. }) => reason,
        other => panic!("{text}: expected a syntax error, got {other:?}"),
    };
    assert!(syntax("").contains("joined by"));
    assert!(syntax("32").contains("joined by"));
    assert!(syntax("32-").contains("square number"));
    assert!(syntax("0-28").contains("1 to 50"));
    assert!(syntax("32-51").contains("1 to 50"));
    assert!(syntax("+32-28").contains("square number"));
    assert!(syntax("32 - 28").contains("square number"));
    assert!(syntax("d4-e5").contains("square number"));
    assert!(syntax(&"1".repeat(MAX_HUB_MOVE_LEN + 1)).contains("longer than"));
    assert!(syntax(&format!("32-{}", "9".repeat(40))).contains("square number"));
    assert!(syntax("28x19x23x23").contains("twice"));
    // Well formed but not legal: a wrong direction, a capture that is not there, and a
    // capture missing one of its captured squares.
    assert_eq!(
        game.parse_hub_move(&start, "33-27"),
        Err(HubError::Illegal("33-27".to_string()))
    );
    assert_eq!(
        game.parse_hub_move(&start, "28x19x23"),
        Err(HubError::Illegal("28x19x23".to_string()))
    );
    let mut s = start.clone();
    for text in ["32-28", "19-23"] {
        let mv = game.parse_hub_move(&s, text).expect(text);
        game.play_unchecked(&mut s, mv);
    }
    assert!(matches!(
        game.parse_hub_move(&s, "28x19x24"),
        Err(HubError::Illegal(_))
    ));
    assert!(matches!(
        game.parse_hub_move(&s, "32-28"),
        Err(HubError::Illegal(_))
    ));
}

proptest::proptest! {
    #[test]
    fn arbitrary_hub_text_never_panics(text in "\\PC{0,80}") {
        let international = Draughts::<InternationalRules>::new();
        let english = Draughts::<EnglishRules>::new();
        let _ = international.parse_hub_position(&text);
        let _ = english.parse_hub_position(&text);
        let _ = international.parse_hub_move(&international.start(), &text);
        let _ = english.parse_hub_move(&english.start(), &text);
    }

    #[test]
    fn move_like_text_never_panics(text in "[0-9]{0,3}([-xX][0-9]{0,4}){0,6}") {
        let international = Draughts::<InternationalRules>::new();
        let english = Draughts::<EnglishRules>::new();
        let _ = international.parse_hub_move(&international.start(), &text);
        let _ = english.parse_hub_move(&english.start(), &text);
    }

    #[test]
    fn position_like_text_never_panics(text in "[WBx][wbWBe]{30,52}") {
        let _ = Draughts::<InternationalRules>::new().parse_hub_position(&text);
        let _ = Draughts::<EnglishRules>::new().parse_hub_position(&text);
    }
}

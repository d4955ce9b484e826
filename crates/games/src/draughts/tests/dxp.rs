//! DXP: every message type written and read back, the messages pydraughts writes, positions
//! and every legal move over random games, and malformed input refused without a panic.

use proptest::prelude::*;

use super::*;

type Intl = Draughts<InternationalRules>;

fn round_trip(message: &DxpMessage) {
    let text = message.to_text();
    assert!(text.len() <= MAX_DXP_MESSAGE_LEN, "{text}");
    assert_eq!(
        DxpMessage::parse(text.as_bytes()).as_ref(),
        Ok(message),
        "{text}"
    );
}

#[test]
fn every_message_type_round_trips() {
    let game = Intl::new();
    let start = game.dxp_position(&game.start());
    let messages = [
        DxpMessage::GameReq(GameReq {
            version: 1,
            name: "Tornado voor Windows 4.0".into(),
            follower_colour: Player::White,
            time_minutes: 60,
            moves: 65,
            position: None,
        }),
        DxpMessage::GameReq(GameReq {
            version: 1,
            name: "DXP Client".into(),
            follower_colour: Player::Black,
            time_minutes: 0,
            moves: 0,
            position: Some(start),
        }),
        DxpMessage::GameAcc {
            name: "denkmeter".into(),
            code: dxp_code::ACCEPTED,
        },
        DxpMessage::GameAcc {
            name: String::new(),
            code: dxp_code::NOT_THIS_GAME,
        },
        DxpMessage::Move(DxpMove {
            time_seconds: 12,
            from: 5,
            to: 25,
            captured: vec![4, 22, 12, 23, 20],
        }),
        DxpMessage::Move(DxpMove {
            time_seconds: 9999,
            from: 32,
            to: 28,
            captured: vec![],
        }),
        DxpMessage::GameEnd {
            reason: EndReason::Draw,
            stop: true,
        },
        DxpMessage::GameEnd {
            reason: EndReason::Unknown,
            stop: false,
        },
        DxpMessage::Chat("What do you think about move 35?".into()),
        DxpMessage::Chat(String::new()),
        DxpMessage::BackReq {
            move_number: 5,
            colour: Player::Black,
        },
        DxpMessage::BackAcc {
            code: dxp_code::BACK_NOT_SUPPORTED,
        },
    ];
    for message in &messages {
        round_trip(message);
    }
}

#[test]
fn the_published_and_pydraughts_examples_read() {
    let req = DxpMessage::parse(b"R01Tornado voor Windows 4.0        W060065A").unwrap();
    let DxpMessage::GameReq(req) = req else {
        panic!("{req:?}")
    };
    assert_eq!(req.name, "Tornado voor Windows 4.0");
    assert_eq!(req.follower_colour, Player::White);
    assert_eq!((req.time_minutes, req.moves, req.position), (60, 65, None));
    assert_eq!(
        DxpMessage::parse(b"M001205250422122320"),
        Ok(DxpMessage::Move(DxpMove {
            time_seconds: 12,
            from: 5,
            to: 25,
            captured: vec![22, 12, 23, 20],
        }))
    );
    assert_eq!(
        DxpMessage::parse(b"B005Z"),
        Ok(DxpMessage::BackReq {
            move_number: 5,
            colour: Player::Black
        })
    );
    // pydraughts' request from the start, follower White.
    let text = format!(
        "R01{:32}W000000BW{}{}{}",
        "DXP Client",
        "z".repeat(20),
        "e".repeat(10),
        "w".repeat(20)
    );
    let DxpMessage::GameReq(req) = DxpMessage::parse(text.as_bytes()).unwrap() else {
        panic!()
    };
    let game = Intl::new();
    assert_eq!(
        game.dxp_state(req.position.as_ref().unwrap()),
        Ok(game.start())
    );
}

#[test]
fn positions_and_moves_round_trip_over_random_games() {
    let game = Intl::new();
    let mut check = |s: &State, moves: &[Move]| {
        let position = game.dxp_position(s);
        assert_eq!(game.dxp_state(&position), Ok(uncounted(s)));
        for &mv in moves {
            let mut dxp = game.dxp_move(mv, 3);
            round_trip(&DxpMessage::Move(dxp.clone()));
            assert_eq!(game.resolve_dxp_move(s, &dxp), Ok(mv));
            dxp.captured.reverse();
            assert_eq!(game.resolve_dxp_move(s, &dxp), Ok(mv));
            if let Some(&first) = dxp.captured.first() {
                // A capture named without all its captured squares is not this move.
                dxp.captured.pop();
                assert_ne!(game.resolve_dxp_move(s, &dxp), Ok(mv));
                dxp.captured.push(first);
                dxp.captured.push(first);
                assert!(game.resolve_dxp_move(s, &dxp).is_err());
            }
        }
    };
    random_games::<InternationalRules>(17, 20, 200, &mut check);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    for _ in 0..300 {
        let s = random_position::<InternationalRules>(&mut rng);
        check(&s, &legal::<InternationalRules>(&s));
    }
}

#[test]
fn illegal_moves_and_bad_positions_are_refused() {
    let game = Intl::new();
    let start = game.start();
    let mv = |from, to, captured: Vec<u8>| DxpMove {
        time_seconds: 0,
        from,
        to,
        captured,
    };
    assert!(matches!(
        game.resolve_dxp_move(&start, &mv(32, 23, vec![])),
        Err(DxpError::Illegal(_))
    ));
    assert!(matches!(
        game.resolve_dxp_move(&start, &mv(0, 28, vec![])),
        Err(DxpError::Square(_))
    ));
    assert!(matches!(
        game.resolve_dxp_move(&start, &mv(32, 28, vec![51])),
        Err(DxpError::Square(_))
    ));
    assert!(game.resolve_dxp_move(&start, &mv(32, 28, vec![])).is_ok());
    // A white man on white's promotion row.
    let squares = format!("w{}", "e".repeat(49));
    let position = DxpPosition::new(Player::White, &squares).unwrap();
    assert!(matches!(
        game.dxp_state(&position),
        Err(DxpError::Position(_))
    ));
    assert!(DxpPosition::new(Player::White, "eee").is_err());
    assert!(DxpPosition::new(Player::White, &"b".repeat(50)).is_err());
}

#[test]
fn malformed_messages_are_refused_with_a_reason() {
    let long = vec![b'C'; MAX_DXP_MESSAGE_LEN + 1];
    for bad in [
        &b""[..],
        b"X",
        b"M00123228",
        b"M0012322801",
        b"M00123228011",
        b"E4",
        b"E41",
        b"E02",
        b"K",
        b"Kx",
        b"B05Z",
        b"B005Q",
        b"R01",
        b"R01Tornado voor Windows 4.0        Q060065A",
        b"R01Tornado voor Windows 4.0        W060065C",
        b"R01Tornado voor Windows 4.0        W060065Ax",
        b"R01Tornado voor Windows 4.0        W060065BW",
        b"C\xff",
        b"M\x000123228",
        &long,
    ] {
        DxpMessage::parse(bad).expect_err(&String::from_utf8_lossy(bad));
    }
}

fn colour() -> impl Strategy<Value = Player> {
    prop_oneof![Just(Player::White), Just(Player::Black)]
}

fn message() -> impl Strategy<Value = DxpMessage> {
    let name = "[ -~]{0,32}".prop_map(|n: String| n.trim_end().to_string());
    let squares = "[ewzWZ]{50}";
    prop_oneof![
        (
            0u8..100,
            name.clone(),
            colour(),
            0u16..1000,
            0u16..1000,
            proptest::option::of((colour(), squares))
        )
            .prop_map(|(version, name, follower_colour, time_minutes, moves, p)| {
                DxpMessage::GameReq(GameReq {
                    version,
                    name,
                    follower_colour,
                    time_minutes,
                    moves,
                    position: p.map(|(c, s)| DxpPosition::new(c, &s).unwrap()),
                })
            }),
        (name, 0u8..10).prop_map(|(name, code)| DxpMessage::GameAcc { name, code }),
        (
            0u16..10_000,
            0u8..100,
            0u8..100,
            proptest::collection::vec(0u8..100, 0..20)
        )
            .prop_map(
                |(time_seconds, from, to, captured)| DxpMessage::Move(DxpMove {
                    time_seconds,
                    from,
                    to,
                    captured
                })
            ),
        (0u8..4, any::<bool>()).prop_map(|(r, stop)| DxpMessage::GameEnd {
            reason: [
                EndReason::Unknown,
                EndReason::ILose,
                EndReason::Draw,
                EndReason::IWin
            ][usize::from(r)],
            stop
        }),
        "[ -~]{0,200}".prop_map(DxpMessage::Chat),
        (0u16..1000, colour()).prop_map(|(move_number, colour)| DxpMessage::BackReq {
            move_number,
            colour
        }),
        (0u8..10).prop_map(|code| DxpMessage::BackAcc { code }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn any_message_round_trips(message in message()) {
        round_trip(&message);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..1100)) {
        let game = Intl::new();
        if let Ok(DxpMessage::Move(mv)) = DxpMessage::parse(&bytes) {
            let _ = game.resolve_dxp_move(&game.start(), &mv);
        }
        if let Ok(DxpMessage::GameReq(GameReq { position: Some(p), .. })) = DxpMessage::parse(&bytes) {
            let _ = game.dxp_state(&p);
        }
    }

    #[test]
    fn mangled_messages_never_panic(message in message(), at in 0usize..120, byte in any::<u8>()) {
        let mut text = message.to_text().into_bytes();
        if !text.is_empty() {
            let i = at % text.len();
            text[i] = byte;
        }
        let game = Intl::new();
        if let Ok(DxpMessage::Move(mv)) = DxpMessage::parse(&text) {
            let _ = game.resolve_dxp_move(&game.start(), &mv);
        }
        let _ = DxpMessage::parse(&text[..at.min(text.len())]);
    }
}

//! The end of the game: the double win, the capture of the able camels, the order of the
//! checks, passing and repetition.

use denkmeter_core::{Outcome, Playthrough, Reason, Score};

use super::*;

/// An able camel for each side far from the action, per board (the able colours differ).
const KEEP: [&str; 3] = ["Cc2 cc10", "Cb2 cb11", "Cc2 cc12"];

fn double_win(winner: Player) -> (Option<Player>, Reason, i64, i64) {
    match winner {
        Player::White => (Some(winner), Reason::DoubleWin, 2, 0),
        Player::Black => (Some(winner), Reason::DoubleWin, 0, 2),
    }
}

fn summary(status: &Status) -> (Option<Player>, Reason, i64, i64) {
    let outcome = status.outcome().expect("the game is over");
    let score = outcome.score.clone().expect("a double win has a score");
    (outcome.winner, outcome.reason, score.white, score.black)
}

#[test]
fn white_camel_on_blacks_home_field_wins_double() {
    for (g, keep) in all_rulesets().iter().zip(KEEP) {
        // Three ranks below Black's home-field, one file aside: e8, e9 or e10.
        let from = format!("e{}", g.ranks() - 3);
        let home = g.board().name(g.home_field(Player::Black)).to_string();
        let state = setup_in(g, &format!("C{from} {keep}"), 'w');
        assert_eq!(g.status(&state), Status::Ongoing);
        let after = played_in(g, &state, &format!("{from}-{home}"));
        let status = g.status(&after);
        assert_eq!(summary(&status), double_win(Player::White), "{}", g.name());
        let outcome = status.outcome().unwrap();
        assert!(outcome.score.as_ref().unwrap().breakdown.contains(&home));
        assert!(moves_in(g, &after).is_empty());
        assert_eq!(
            g.parse_move(&after, "pass"),
            Err(MoveError::illegal("pass", "the game is over"))
        );
    }
}

#[test]
fn black_camel_on_whites_home_field_wins_double() {
    for (g, keep) in all_rulesets().iter().zip(KEEP) {
        let state = setup_in(g, &format!("ce4 {keep}"), 'b');
        let after = played_in(g, &state, "e4-f1");
        assert_eq!(
            summary(&g.status(&after)),
            double_win(Player::Black),
            "{}",
            g.name()
        );
        assert_eq!(
            g.status(&after).outcome().unwrap().score,
            Some(Score {
                white: 0,
                black: 2,
                breakdown: "Black's camel conquered White's home-field f1".to_string()
            })
        );
    }
}

#[test]
fn a_camel_conquers_the_home_field_by_capturing_its_occupant() {
    let state = setup("Ce8 df11 Cc2 cc10", 'w');
    assert!(texts(&state).contains(&"e8xf11".to_string()));
    let after = played(&state, "e8xf11");
    assert_eq!(summary(&game().status(&after)), double_win(Player::White));
}

#[test]
fn fact_the_home_field_is_reached_from_four_squares() {
    let g = game();
    let home = g.home_field(Player::Black);
    let mut from = Vec::new();
    for cell in g.board().cell_ids() {
        if cell == home || cell == sq("c2") {
            continue;
        }
        let name = g.board().name(cell).to_string();
        let state = setup(&format!("C{name} Cc2 cd1"), 'w');
        if moves_of(&state).iter().any(|m| m.to() == Some(home)) {
            from.push(name);
        }
    }
    from.sort();
    assert_eq!(from, ["c10", "e8", "g8", "i10"]);
    // At the start Black's camels on e10 and g10 close every way.
    let blocked = setup("Ce8 Cg8 Cc10 ce10 cg10", 'w');
    assert!(moves_of(&blocked).iter().all(|m| m.to() != Some(home)));
}

#[test]
fn a_dromedary_on_the_enemy_home_field_does_not_win() {
    let state = setup("Dd8 Cc2 cc10", 'w');
    let after = played(&state, "d8-f11");
    assert_eq!(game().status(&after), Status::Ongoing);
    assert!(!moves_of(&after).is_empty());
}

#[test]
fn a_camel_on_its_own_home_field_does_not_win() {
    let state = setup("Ce4 Cc2 cc10", 'w');
    let after = played(&state, "e4-f1");
    assert_eq!(game().status(&after), Status::Ongoing);
    let state = setup("ce8 Cc2 cc10", 'b');
    let after = played(&state, "e8-f11");
    assert_eq!(game().status(&after), Status::Ongoing);
}

#[test]
fn capturing_the_last_able_camel_wins() {
    // Black's c10 is able, d10 (the other colour) is not.
    let state = setup("Cb7 cc10 cd10", 'w');
    assert_eq!(
        names(&game(), game().able_camels(&state, Player::Black)),
        ["c10"]
    );
    let after = played(&state, "b7xc10");
    assert_eq!(after.count(Player::Black, Piece::Camel), 1);
    assert_eq!(
        game().status(&after),
        Status::Over(Outcome::win(Player::White, Reason::Powerless))
    );
    assert!(moves_of(&after).is_empty());
}

#[test]
fn capturing_a_camel_that_is_not_able_does_not_win() {
    // g9 has the other colour than f1: that camel could never conquer White's home-field.
    let state = setup("De6 cg9 cc10 Cc2", 'w');
    assert!(!game().is_able_square(Player::Black, sq("g9")));
    let after = played(&state, "e6xg9");
    assert_eq!(after.count(Player::Black, Piece::Camel), 1);
    assert_eq!(game().status(&after), Status::Ongoing);
}

#[test]
fn a_side_with_only_dromedaries_and_idle_camels_has_lost() {
    let state = setup("Dd1 Cd2 Cc2 cc10", 'b');
    assert_eq!(game().status(&state), Status::Ongoing);
    let state = setup("Dd1 Cd2 cc10", 'w');
    assert_eq!(
        game().status(&state),
        Status::Over(Outcome::win(Player::Black, Reason::Powerless))
    );
}

#[test]
fn status_order_the_mover_s_conquest_comes_first() {
    // Both camels stand on the enemy home-fields: the player who has just moved wins.
    let both = "Cf11 cf1 Cc2 cc10";
    assert_eq!(
        summary(&game().status(&setup(both, 'b'))),
        double_win(Player::White)
    );
    assert_eq!(
        summary(&game().status(&setup(both, 'w'))),
        double_win(Player::Black)
    );
    // The mover conquered, and the player to move has no able camel: a double win all the same.
    let state = setup("Cf11 cd10", 'b');
    assert_eq!(summary(&game().status(&state)), double_win(Player::White));
}

#[test]
fn status_order_a_conquest_of_the_player_to_move_comes_before_the_capture_win() {
    let state = setup("Cf11 cd10", 'w');
    assert_eq!(summary(&game().status(&state)), double_win(Player::White));
}

#[test]
fn status_order_the_player_to_move_without_able_camels_loses_first() {
    // Neither side has an able camel: the player to move loses.
    let state = setup("Cd2 cd10", 'w');
    assert_eq!(
        game().status(&state),
        Status::Over(Outcome::win(Player::Black, Reason::Powerless))
    );
    let state = setup("Cd2 cd10", 'b');
    assert_eq!(
        game().status(&state),
        Status::Over(Outcome::win(Player::White, Reason::Powerless))
    );
    // Only the player who has just moved lacks them: the player to move wins.
    let state = setup("Cc2 cd10", 'w');
    assert_eq!(
        game().status(&state),
        Status::Over(Outcome::win(Player::White, Reason::Powerless))
    );
}

#[test]
fn a_player_who_cannot_move_passes() {
    // White's only animal, the camel on a2, is shut in by the rocks on a3 and b2.
    let state = setup("Ca2 Xa3 Xb2 cj11", 'w');
    assert_eq!(moves_of(&state), [Move::PASS]);
    assert_eq!(texts(&state), ["pass"]);
    assert_eq!(game().status(&state), Status::Ongoing);
    let after = played(&state, "PASS");
    assert_eq!(after.to_move(), Player::Black);
    assert_eq!(
        game().position_text(&after),
        "9c1/11/11/11/11/11/11/11/X10/CX9/11 b"
    );
    assert_eq!(texts(&after), ["j11-g10", "j11-i8", "j11-k8"]);
    let counts: Vec<u64> = (1..=3).map(|d| perft(&game(), &state, d)).collect();
    assert_eq!(counts, [1, 3, 3]);
}

#[test]
fn passing_is_refused_while_a_move_exists() {
    let start = game().start();
    assert_eq!(
        game().parse_move(&start, "pass"),
        Err(MoveError::illegal(
            "pass",
            "White has a move and may not pass"
        ))
    );
}

#[test]
fn a_finished_game_has_no_moves_not_even_a_pass() {
    // White's camel on f11 has won; Black to move could not move anyway.
    let state = setup("Cf11 Cc2 ca2 Xa3 Xb2", 'b');
    assert!(game().status(&state).is_over());
    assert!(moves_of(&state).is_empty());
    assert!(matches!(
        game().parse_move(&state, "a2-b5"),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn the_third_repetition_is_a_draw() {
    let mut play = Playthrough::new(game());
    for _ in 0..2 {
        for text in ["b2-a5", "b10-a7", "a5-b2", "a7-b10"] {
            assert_eq!(play.status(), Status::Ongoing);
            play.play_text(text).unwrap();
        }
    }
    assert_eq!(play.repetitions(), 3);
    assert_eq!(
        play.status(),
        Status::Over(Outcome::draw(Reason::Repetition))
    );
}

#[test]
fn status_agrees_with_the_legal_moves_in_random_games() {
    let mut finished = [0; 2];
    let mut passes = 0;
    for (g, state) in random_states(14, 20, 600) {
        let moves = moves_in(&g, &state);
        let status = g.status(&state);
        assert_eq!(
            status.is_over(),
            moves.is_empty(),
            "{}",
            g.position_text(&state)
        );
        if moves == [Move::PASS] {
            passes += 1;
        }
        assert!(moves.len() == 1 || !moves.contains(&Move::PASS));
        let Status::Over(outcome) = status else {
            continue;
        };
        let winner = outcome.winner.expect("Kamelen has no drawn position");
        match outcome.reason {
            Reason::DoubleWin => {
                finished[0] += 1;
                assert_eq!(
                    state.occupant(g.home_field(!winner)),
                    Some(Occupant::Animal(winner, Piece::Camel))
                );
            }
            Reason::Powerless => {
                finished[1] += 1;
                assert_eq!(g.able_camels(&state, !winner).count(), 0);
            }
            other => panic!("unexpected reason {other}"),
        }
    }
    assert!(finished[0] > 0 && finished[1] > 0, "{finished:?}");
    let _ = passes;
}

/// The double win is written as one in the game's record, and reads back as one.
#[test]
fn the_double_win_is_recorded_as_a_double_win() {
    let g = &all_rulesets()[0];
    let state = setup_in(g, &format!("Ce8 {}", KEEP[0]), 'w');
    let mut play = Playthrough::from_state(g.clone(), state);
    play.play_text("e8-f11").unwrap();
    let record = denkmeter_core::Record::of(&play, &[]);
    let text = record.to_string();
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(text.contains("[Termination \"double win\"]"), "{text}");
    let read: denkmeter_core::Record = text.parse().unwrap();
    let replayed = read.replay(g.clone()).unwrap();
    let outcome = replayed.status().outcome().cloned().expect("over");
    assert_eq!(outcome.reason, Reason::DoubleWin);
    assert_eq!(outcome.score.map(|s| (s.white, s.black)), Some((2, 0)));
}

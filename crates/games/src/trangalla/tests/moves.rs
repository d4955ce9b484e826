//! Steps, jumps and their effects, the goal, passes and the endings.

use denkmeter_core::{Game, Outcome, Playthrough, Reason, Status};

use super::{after, game, moves, position};

#[test]
fn the_rules_file_example_has_these_moves() {
    // White: soldiers a2, b1, a3, c1 and the king on b2; counted by hand (see the rulings):
    // a2 and b1 only jump (every step is blocked); b2 and a3 step forward; c1 steps forward.
    assert_eq!(
        moves("2ss1/3ks/S3s/SK3/1SS2 w"),
        [
            "a2xa4", "a2xc2", "a3-a4", "a3-b3", "b1xb3", "b1xd1", "b2-b3", "b2-c2", "c1-c2",
            "c1-d1"
        ]
    );
}

#[test]
fn steps_go_forward_or_sideways_never_backward() {
    // A lone White soldier on c3 steps to d3, c4 (forward), d2, b4 (sideways), not b3 or c2.
    assert_eq!(
        moves("k4/5/2S2/5/4K w")
            .into_iter()
            .filter(|m| m.starts_with("c3"))
            .collect::<Vec<_>>(),
        ["c3-b4", "c3-c4", "c3-d2", "c3-d3"]
    );
    // Black's forward is White's backward.
    assert_eq!(
        moves("k4/5/2s2/5/4K b")
            .into_iter()
            .filter(|m| m.starts_with("c3"))
            .collect::<Vec<_>>(),
        ["c3-b3", "c3-b4", "c3-c2", "c3-d2"]
    );
}

#[test]
fn a_jump_flips_an_enemy_soldier_and_leaves_an_own_piece_alone() {
    // White's soldier on c2 jumps Black's soldier on c3 to c4, then its own soldier on d4 to e4.
    let text = "k4/3S1/2s2/2S2/4K w";
    assert!(moves(text).contains(&"c2xc4xe4".to_string()));
    assert_eq!(after(text, "c2xc4xe4"), "k4/3SS/2S2/5/4K b");
}

#[test]
fn a_jumped_king_is_removed_at_once() {
    // White's soldier on c2 jumps Black's king on c3; Black keeps a soldier on a5.
    let text = "s4/5/2k2/2S2/4K w";
    assert_eq!(after(text, "c2xc4"), "s4/2S2/5/5/4K b");
    let state = position(&after(text, "c2xc4"));
    assert_eq!(
        game().status(&state),
        Status::Ongoing,
        "Black plays on without a king"
    );
}

#[test]
fn a_route_may_pass_through_its_own_home_but_not_stop_there() {
    // c1 jumps b1 to a1 (White's home), then a2 to a3.
    let text = "2k2/5/5/s4/1sS1K w";
    let list = moves(text);
    assert!(list.contains(&"c1xa1xa3".to_string()), "{list:?}");
    assert!(!list.iter().any(|m| m.ends_with("a1")), "{list:?}");
    assert_eq!(after(text, "c1xa1xa3"), "2k2/5/S4/S4/1S2K b");
}

#[test]
fn reaching_the_goal_ends_the_route_a_soldier_leaves_a_king_wins() {
    // White's soldier on c5 jumps d5 to e5 (White's goal) and could jump on over e4, but the
    // route ends there; the soldier leaves the board.
    let text = "2Ss1/4s/5/k4/4K w";
    let list = moves(text);
    assert!(list.contains(&"c5xe5".to_string()), "{list:?}");
    assert!(!list.iter().any(|m| m.starts_with("c5xe5x")), "{list:?}");
    assert_eq!(after(text, "c5xe5"), "3S1/4s/5/k4/4K b");
    // The same with the king: it stays on e5 and wins.
    let text = "2Ks1/4s/5/k4/4S w";
    let won = position(&after(text, "c5xe5"));
    assert_eq!(
        game().status(&won),
        Status::Over(Outcome::win(denkmeter_core::Player::White, Reason::Goal))
    );
    assert!(moves(&after(text, "c5xe5")).is_empty(), "a finished game");
}

#[test]
fn two_routes_with_the_same_end_and_effects_are_one_move() {
    // From c1 to e3 over own pieces only: by c2 then d3 (c1xc3xe3), or by d1 then e2
    // (c1xe1xe3). One move, written with the smaller list of landing points.
    let text = "k4/5/3K1/2S1S/2SS1 w";
    let to_e3: Vec<String> = moves(text)
        .into_iter()
        .filter(|m| m.starts_with("c1") && m.ends_with("e3"))
        .collect();
    assert_eq!(to_e3, ["c1xc3xe3"]);
    let g = game();
    let state = position(text);
    assert_eq!(
        g.parse_move(&state, "c1xe1xe3"),
        g.parse_move(&state, "c1xc3xe3"),
        "either route names the move"
    );
    assert!(g.parse_move(&state, "c1xe3").is_ok(), "short when unique");
}

#[test]
fn there_is_no_straight_ahead_line() {
    // The rules file: with lines straight ahead, a king on a3 would win by a3-a1-c3-e5. Here
    // a3 and c1 have no line to b2's far side, so no such route exists.
    let text = "2ss1/3ks/K3s/SS3/1SS2 w";
    let list = moves(text);
    assert!(!list.iter().any(|m| m.ends_with("e5")), "{list:?}");
    assert!(game().parse_move(&position(text), "a3xa1xc3xe5").is_err());
}

#[test]
fn a_player_who_cannot_move_passes() {
    // Black's king on e1: Black's steps go to d1 and d2 (both taken); its only jump, over d2,
    // lands on c3 (taken too).
    let text = "5/5/2S2/3S1/2SSk b";
    assert_eq!(moves(text), ["pass"]);
    assert_eq!(after(text, "pass"), "5/5/2S2/3S1/2SSk w");
    assert!(!moves("5/5/2S2/3S1/2SSk w").contains(&"pass".to_string()));
}

#[test]
fn both_kings_gone_is_a_draw() {
    let state = position("2s2/5/2S2/5/1S3 w");
    assert_eq!(
        game().status(&state),
        Status::Over(Outcome::draw(Reason::NoKings))
    );
}

#[test]
fn a_move_may_not_repeat_a_position_a_third_time() {
    let g = game();
    // The kings shuffle sideways and back; the start position has been seen twice after
    // eight plies, so the eighth ply may not bring it about a third time.
    let start = position("5/2k2/5/2K2/5 w");
    let mut play = Playthrough::from_state(g.clone(), start);
    for text in [
        "c2-d1", "c4-b5", "d1-c2", "b5-c4", "c2-d1", "c4-b5", "d1-c2",
    ] {
        play.play_text(text).expect("legal so far");
    }
    let mut legal = Vec::new();
    play.legal_moves(&mut legal);
    let texts: Vec<String> = legal
        .iter()
        .map(|&m| g.move_text(play.state(), m))
        .collect();
    assert!(!texts.contains(&"b5-c4".to_string()), "{texts:?}");
    // Black's other moves stay legal: the king on b5 may still step to a5.
    assert!(texts.contains(&"b5-a5".to_string()), "{texts:?}");
    assert!(play.play_text("b5-c4").is_err());
}

/// A random game (seeded search) in which the repetition ban leaves White without a move.
const BANNED: [&str; 46] = [
    "K@c1",
    "K@e4",
    "a2xa4",
    "d5xb5",
    "a4xa2",
    "d4-c4",
    "c1-d1",
    "b5-a5",
    "a3-a4",
    "a5xa3xc1xe1",
    "a2xc2",
    "e1-d2",
    "b2-c1",
    "e4-d5",
    "b1xd1",
    "a4-a3",
    "c2xe2xe4",
    "c5xc3xe1",
    "c1-c2",
    "a3-b2",
    "e3-d4",
    "e1xc1",
    "c2xe2",
    "c1xe1xc3xc5xe5xe3",
    "e2xc2xa2",
    "d5xd3",
    "a2-a3",
    "e4-d5",
    "a3xc1xe1xc3",
    "d3xb5",
    "c3xc5xe5",
    "e3xc5xc3xe1xc1",
    "b2-c2",
    "c1xe1xc3",
    "d5xd3",
    "c3xe3xc5",
    "c2-c3",
    "d1-c1",
    "c3-b4",
    "c4xe4",
    "b4-c3",
    "e4xc4",
    "c3-b4",
    "d2-e1",
    "b4-a5",
    "e1-d2",
];

#[test]
fn when_the_ban_forbids_every_move_the_player_passes_and_two_passes_draw() {
    let g = game();
    let mut play = Playthrough::new(g.clone());
    for text in BANNED {
        play.play_text(text).expect("legal");
    }
    let mut raw = Vec::new();
    g.legal_moves(play.state(), &mut raw);
    assert!(
        !raw.iter().any(|m| m.is_pass()),
        "the position alone has moves"
    );
    let mut legal = Vec::new();
    play.legal_moves(&mut legal);
    assert_eq!(
        legal,
        [crate::trangalla::Move::PASS],
        "every move is banned"
    );
    play.play_text("pass").expect("the pass");
    assert_eq!(play.status(), Status::Ongoing);
    // Two passes in a row end the game in a draw.
    let pass = crate::trangalla::Move::PASS;
    assert_eq!(
        g.ending_by_history(&g.start(), &[pass, pass]),
        Some(Outcome::draw(Reason::NoMoves))
    );
    assert_eq!(g.ending_by_history(&g.start(), &[pass]), None);
}

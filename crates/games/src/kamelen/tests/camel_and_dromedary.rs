//! How camels and dromedaries leap, what blocks them, rocks, and captures.

use super::*;

/// Each test position gives both sides an able camel far away,
/// so that the game goes on (White's on c2, Black's on c10 on the 11x11 board).
const KEEP: &str = "Cc2 cc10";

#[test]
fn fact_camel_from_f6_reaches_eight_squares() {
    let state = setup(&format!("Cf6 {KEEP}"), 'w');
    assert_eq!(
        destinations(&state, "f6"),
        ["c5", "c7", "e3", "e9", "g3", "g9", "i5", "i7"]
    );
}

#[test]
fn fact_dromedary_from_f6_reaches_eight_squares() {
    let state = setup(&format!("Df6 {KEEP}"), 'w');
    assert_eq!(
        destinations(&state, "f6"),
        ["c4", "c8", "d3", "d9", "h3", "h9", "i4", "i8"]
    );
}

#[test]
fn black_animals_leap_the_same_way() {
    let state = setup(&format!("cf6 db6 {KEEP}"), 'b');
    assert_eq!(
        destinations(&state, "f6"),
        ["c5", "c7", "e3", "e9", "g3", "g9", "i5", "i7"]
    );
    assert_eq!(destinations(&state, "b6"), ["d3", "d9", "e4", "e8"]);
}

#[test]
fn camel_is_blocked_by_anything_on_either_square_it_passes() {
    // North of f6 the camel passes f7 and f8 on its way to e9 and g9.
    for blocker in ["Df7", "Df8", "df7", "df8", "Xf7", "Xf8", "Cf8", "cf7"] {
        let state = setup(&format!("Cf6 {blocker} {KEEP}"), 'w');
        assert_eq!(
            destinations(&state, "f6"),
            ["c5", "c7", "e3", "g3", "i5", "i7"],
            "{blocker}"
        );
    }
    // East: g6 and h6 on the way to i5 and i7.
    let state = setup(&format!("Cf6 dh6 {KEEP}"), 'w');
    assert_eq!(
        destinations(&state, "f6"),
        ["c5", "c7", "e3", "e9", "g3", "g9"]
    );
}

#[test]
fn camel_passes_nothing_on_its_diagonal_step() {
    // Pieces beside the camel's way (e7, g7, e8, g8) do not block it.
    let state = setup(&format!("Cf6 De7 dg7 Xe8 Xg8 {KEEP}"), 'w');
    assert_eq!(
        destinations(&state, "f6"),
        ["c5", "c7", "e3", "e9", "g3", "g9", "i5", "i7"]
    );
}

#[test]
fn dromedary_is_blocked_by_anything_on_either_diagonal_square() {
    // North-east of f6 the dromedary passes g7 and h8 on its way to h9 and i8.
    for blocker in ["Cg7", "Ch8", "cg7", "ch8", "Xg7", "Xh8"] {
        let state = setup(&format!("Df6 {blocker} {KEEP}"), 'w');
        assert_eq!(
            destinations(&state, "f6"),
            ["c4", "c8", "d3", "d9", "h3", "i4"],
            "{blocker}"
        );
    }
}

#[test]
fn dromedary_passes_nothing_on_its_straight_step() {
    // f7, g6, g8, h7 and i9 lie beside or beyond the dromedary's ways and do not block it.
    let state = setup(&format!("Df6 Cf7 cg6 Xg8 Xh7 di9 {KEEP}"), 'w');
    assert_eq!(
        destinations(&state, "f6"),
        ["c4", "c8", "d3", "d9", "h3", "h9", "i4", "i8"]
    );
}

#[test]
fn leaps_off_the_board_are_no_moves() {
    let state = setup(&format!("Ca1 {KEEP}"), 'w');
    assert_eq!(destinations(&state, "a1"), ["b4", "d2"]);
    let state = setup(&format!("Da1 {KEEP}"), 'w');
    assert_eq!(destinations(&state, "a1"), ["c4", "d3"]);
    let state = setup(&format!("Dk11 {KEEP}"), 'w');
    assert_eq!(destinations(&state, "k11"), ["h9", "i8"]);
    // On the longer boards the far corner is k12 or k13.
    let g = Kamelen::with_variant(Variant::Ranks13);
    let state = setup_in(&g, "Ck13 Cc2 cc12", 'w');
    let moves: Vec<String> = texts_in(&g, &state)
        .into_iter()
        .filter(|m| m.starts_with("k13"))
        .collect();
    assert_eq!(moves, ["k13-h12", "k13-j10"]);
}

#[test]
fn an_animal_never_lands_on_a_rock() {
    let state = setup(&format!("Cf6 De1 Xe9 Xi5 Xh3 {KEEP}"), 'w');
    assert_eq!(
        destinations(&state, "f6"),
        ["c5", "c7", "e3", "g3", "g9", "i7"]
    );
    assert_eq!(destinations(&state, "e1"), ["b3", "c4", "g4"]);
    assert!(matches!(
        game().parse_move(&state, "f6-e9"),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn an_animal_never_lands_on_its_own_side() {
    let state = setup(&format!("Cf6 De9 Cg3 {KEEP}"), 'w');
    assert_eq!(
        destinations(&state, "f6"),
        ["c5", "c7", "e3", "g9", "i5", "i7"]
    );
}

#[test]
fn rocks_never_move() {
    let state = setup(&format!("Xf6 {KEEP}"), 'w');
    assert!(destinations(&state, "f6").is_empty());
    let Err(MoveError::Illegal { reason, .. }) = game().parse_move(&state, "f6-e9") else {
        panic!("a rock moved");
    };
    assert!(reason.contains("rock"), "{reason}");
}

#[test]
fn rocks_stay_put_and_are_never_captured_in_random_games() {
    for (g, state) in random_states(41, 6, 300) {
        let rocks: Vec<Cell> = g.start().rocks().collect();
        assert_eq!(
            state.rocks().collect::<Vec<_>>(),
            rocks,
            "{}",
            g.position_text(&state)
        );
        for mv in moves_in(&g, &state) {
            if let Some(to) = mv.to() {
                assert_ne!(state.occupant(to), Some(Occupant::Rock));
                assert_ne!(state.occupant(mv.from().unwrap()), Some(Occupant::Rock));
            }
        }
    }
}

#[test]
fn landing_on_an_enemy_animal_captures_it() {
    let state = setup(&format!("Cf6 dg9 ce9 {KEEP}"), 'w');
    assert!(texts(&state).contains(&"f6xg9".to_string()));
    let after = played(&state, "f6xg9");
    assert_eq!(
        after.occupant(sq("g9")),
        Some(Occupant::Animal(Player::White, Piece::Camel))
    );
    assert_eq!(after.occupant(sq("f6")), None);
    assert_eq!(after.count(Player::Black, Piece::Dromedary), 0);
    assert_eq!(after.count(Player::Black, Piece::Camel), 2);
    // A dromedary captures a camel just as well.
    let state = setup(&format!("Df6 ch9 {KEEP}"), 'w');
    let after = played(&state, "f6xh9");
    assert_eq!(after.count(Player::Black, Piece::Camel), 1);
}

#[test]
fn capturing_is_optional() {
    // White's camel may take g9 or go anywhere else; other animals may move instead too.
    let state = setup(&format!("Cf6 dg9 Da1 {KEEP}"), 'w');
    let all = texts(&state);
    assert!(all.contains(&"f6xg9".to_string()));
    assert!(all.contains(&"f6-e9".to_string()));
    assert!(all.contains(&"a1-d3".to_string()));
    let after = played(&state, "a1-d3");
    assert_eq!(
        after.occupant(sq("g9")),
        Some(Occupant::Animal(Player::Black, Piece::Dromedary))
    );
}

#[test]
fn the_squares_passed_may_not_hold_the_captured_animal_s_friends() {
    // Capturing does not jump: an enemy on f7 blocks the capture on g9 just like a friend.
    let state = setup(&format!("Cf6 df7 dg9 {KEEP}"), 'w');
    assert!(!texts(&state).contains(&"f6xg9".to_string()));
    let Err(MoveError::Illegal { reason, .. }) = game().parse_move(&state, "f6xg9") else {
        panic!("f6xg9 should be illegal");
    };
    assert!(reason.contains("f7"), "{reason}");
}

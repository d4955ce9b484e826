//! Promotion on the far row.

use super::*;

#[test]
fn a_man_ending_on_the_far_row_becomes_a_dame() {
    type V = Scandinavian8x8Rules;
    let s = state::<V>("M:b7 m:a2", 'w');
    let after = play::<V>(&s, "b7-c8");
    assert_eq!(after, state::<V>("D:c8 m:a2", 'b'));
    let game = Scandinavian8x8::new();
    let mv = game.parse_move(&s, "b7-c8").unwrap();
    assert!(game.move_view(&s, mv).promotes);
    // Black promotes on rank 1.
    let s = state::<V>("M:h7 m:c2", 'b');
    assert_eq!(play::<V>(&s, "c2-b1"), state::<V>("M:h7 d:b1", 'w'));
    // By a capture ending there.
    let s = state::<V>("M:c6 m:d7 m:a2", 'w');
    assert_eq!(texts::<V>(&s), ["c6xe8"]);
    assert_eq!(play::<V>(&s, "c6xe8"), state::<V>("D:e8 m:a2", 'b'));
}

#[test]
fn no_promotion_in_passing_during_a_capture() {
    // International: d8 over e9 to f10 (the far row), then over g9 to h8: still a man.
    type I = InternationalRules;
    let s = state::<I>("M:d8 m:e9 m:g9", 'w');
    assert_eq!(texts::<I>(&s), ["d8xf10xh8"]);
    let game = International::new();
    let mv = game.parse_move(&s, "d8xf10xh8").unwrap();
    assert!(!game.move_view(&s, mv).promotes);
    assert_eq!(play::<I>(&s, "d8xf10xh8"), state::<I>("M:h8", 'b'));
    // Scandinavian: the man reaches the far row on e8 over d7 and goes on backwards over f7
    // to g6, still a man.
    type V = Scandinavian8x8Rules;
    let s = state::<V>("M:c6 m:d7 m:f7 m:a2", 'w');
    assert_eq!(texts::<V>(&s), ["c6xe8xg6"]);
    assert_eq!(play::<V>(&s, "c6xe8xg6"), state::<V>("M:g6 m:a2", 'b'));
}

#[test]
fn english_crowning_ends_the_move() {
    // b6 over c7 reaches d8 and is crowned: the move ends although a king could go on over e7.
    type E = EnglishRules;
    let s = state::<E>("M:b6 m:c7 m:e7", 'w');
    assert_eq!(texts::<E>(&s), ["b6xd8"]);
    let after = play::<E>(&s, "b6xd8");
    assert_eq!(after, state::<E>("D:d8 m:e7", 'b'));
    let game = English::new();
    let mv = game.parse_move(&s, "b6xd8").unwrap();
    assert!(game.move_view(&s, mv).promotes);
    // A king already crowned goes on capturing through the far row.
    let s = state::<E>("D:b6 m:c7 m:e7", 'w');
    assert_eq!(texts::<E>(&s), ["b6xd8xf6"]);
}

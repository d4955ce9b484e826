//! Dames: slides and captures at a distance; English kings.

use super::*;

#[test]
fn dame_slides_orthogonally_over_dark_squares_only() {
    type V = Scandinavian8x8Rules;
    let s = state::<V>("D:d3 m:h7", 'w');
    let moves = texts::<V>(&s);
    for text in [
        // orthogonal: to the next dark squares along the file and the rank
        "d3-d5", "d3-d7", "d3-d1", "d3-b3", "d3-f3", "d3-h3", // diagonal
        "d3-c4", "d3-b5", "d3-a6", "d3-e4", "d3-f5", "d3-g6", "d3-c2", "d3-b1", "d3-e2", "d3-f1",
    ] {
        assert!(moves.contains(&text.to_string()), "{text} in {moves:?}");
    }
    assert_eq!(moves.len(), 16, "{moves:?}");
    // Light squares are never reached: d4 and e3 are light.
    let game = Scandinavian8x8::new();
    assert!(matches!(
        game.parse_move(&s, "d3-d4"),
        Err(MoveError::Illegal { .. })
    ));
    // A piece on d5 blocks the file beyond it.
    let s = state::<V>("D:d3 M:d5 m:h7", 'w');
    let moves = texts::<V>(&s);
    assert!(!moves.contains(&"d3-d7".to_string()) && !moves.contains(&"d3-d5".to_string()));
    // International and English kings move diagonally only.
    let s = state::<InternationalRules>("D:e5 m:a9", 'w');
    assert!(texts::<InternationalRules>(&s)
        .iter()
        .all(|t| t != "e5-e7" && t != "e5-g5"));
}

#[test]
fn dame_captures_at_a_distance_in_eight_directions() {
    type V = Scandinavian8x8Rules;
    // Along the file over the empty d3 to d5, landing on d7 (d9 is off the board); along the
    // rank over f1 to h1.
    let s = state::<V>("D:d1 m:d5", 'w');
    assert_eq!(texts::<V>(&s), ["d1xd7"]);
    let s = state::<V>("D:b1 d:f1", 'w');
    assert_eq!(texts::<V>(&s), ["b1xh1"]);
    // Diagonally at a distance, landing on any empty square beyond.
    let s = state::<V>("D:b1 m:e4", 'w');
    assert_eq!(texts::<V>(&s), sorted(&["b1xf5", "b1xg6", "b1xh7"]));
    // A victim on the edge leaves no landing square.
    let s = state::<V>("D:b1 m:h7", 'w');
    assert!(legal::<V>(&s).iter().all(|m| !m.is_capture()));
    // Two pieces in a row cannot be jumped.
    let s = state::<V>("D:b1 m:e4 m:f5", 'w');
    assert!(legal::<V>(&s).iter().all(|m| !m.is_capture()));
    // International kings capture at a distance diagonally, never orthogonally.
    let s = state::<InternationalRules>("D:a1 m:d4 m:a5", 'w');
    assert_eq!(
        texts::<InternationalRules>(&s),
        sorted(&["a1xe5", "a1xf6", "a1xg7", "a1xh8", "a1xi9", "a1xj10"])
    );
}

#[test]
fn dame_chooses_a_landing_square_that_lets_it_go_on_capturing() {
    type V = Scandinavian8x8Rules;
    // b1 over d3 lands on e4, f5, g6 or h7; from e4 (along the file), f5 (diagonally) and g6
    // (along the rank) the dame can take e6 too, landing on any square beyond it.
    let s = state::<V>("D:b1 m:d3 m:e6", 'w');
    let two = ["b1xe4xe8", "b1xf5xc8", "b1xf5xd7", "b1xg6xa6", "b1xg6xc6"];
    assert_eq!(texts::<V>(&s), sorted(&two));
    // Without the majority rule the dame may also stop on h7, where it cannot go on; landing on
    // e4, f5 or g6 it must go on.
    type F = ScandinavianRules<8, STRONG, false>;
    let s = state::<F>("D:b1 m:d3 m:e6", 'w');
    let mut free = two.to_vec();
    free.push("b1xh7");
    assert_eq!(texts::<F>(&s), sorted(&free));
}

#[test]
fn english_kings_step_and_capture_one_square() {
    type E = EnglishRules;
    let s = state::<E>("D:d4 m:h8", 'w');
    assert_eq!(
        texts::<E>(&s),
        sorted(&["d4-c3", "d4-c5", "d4-e3", "d4-e5"])
    );
    // Short captures in all four diagonal directions, not at a distance.
    let s = state::<E>("D:d4 m:c3 m:g7", 'w');
    assert_eq!(texts::<E>(&s), ["d4xb2"]);
    let s = state::<E>("D:d4 m:b2 m:g7", 'w');
    assert!(legal::<E>(&s).iter().all(|m| !m.is_capture()));
    // A king goes on capturing backwards.
    let s = state::<E>("D:a3 m:b4 m:d4", 'w');
    assert_eq!(texts::<E>(&s), ["a3xc5xe3"]);
}

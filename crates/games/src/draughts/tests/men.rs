//! Men: steps and capture directions, compulsory and continued captures.

use super::*;

#[test]
fn men_step_diagonally_forward_only() {
    type V = Scandinavian8x8Rules;
    let s = state::<V>("M:d3 m:e6", 'w');
    assert_eq!(texts::<V>(&s), sorted(&["d3-c4", "d3-e4"]));
    let s = state::<V>("M:d3 m:e6", 'b');
    assert_eq!(texts::<V>(&s), sorted(&["e6-d5", "e6-f5"]));
    // The same in International and English.
    let s = state::<InternationalRules>("M:c3 m:f8", 'w');
    assert_eq!(texts::<InternationalRules>(&s), sorted(&["c3-b4", "c3-d4"]));
    let s = state::<EnglishRules>("M:a1 m:h8", 'b');
    assert_eq!(texts::<EnglishRules>(&s), ["h8-g7"]);
}

#[test]
fn orthogonal_man_capture_lands_four_squares_away() {
    type V = Scandinavian8x8Rules;
    // Over the man on the next dark square of the file (d5, two squares away) to d7.
    let s = state::<V>("M:d3 m:d5", 'w');
    assert_eq!(texts::<V>(&s), ["d3xd7"]);
    let next = play::<V>(&s, "d3xd7");
    assert_eq!(next, state::<V>("M:d7", 'b'));
    // Along the rank: b3 over d3 to f3; the light square between is ignored.
    let s = state::<V>("M:b3 m:d3 m:h7", 'w');
    assert_eq!(texts::<V>(&s), ["b3xf3"]);
    // The landing square four away must be empty.
    let s = state::<V>("M:b3 m:d3 m:f3", 'w');
    assert_eq!(texts::<V>(&s), sorted(&["b3-a4", "b3-c4"]));
    // International men never capture orthogonally.
    let s = state::<InternationalRules>("M:c3 m:c5 m:j10", 'w');
    assert_eq!(texts::<InternationalRules>(&s), sorted(&["c3-b4", "c3-d4"]));
}

/// A man of `player` on f5 (White) or e6 (Black) of the 10x10 board and one enemy man on the
/// next dark square in direction `dir` (with the square beyond it empty): whether it captures.
fn captures_towards<V: Variant>(player: Player, dir: usize) -> bool {
    // (file, rank) steps to the next dark square in the core's direction order.
    const STEPS: [(i32, i32); 8] = [
        (0, 2),
        (1, 1),
        (2, 0),
        (1, -1),
        (0, -2),
        (-1, -1),
        (-2, 0),
        (-1, 1),
    ];
    let (home, enemy) = match player {
        Player::White => ((5, 4), 'm'),
        Player::Black => ((4, 5), 'M'),
    };
    let (df, dr) = STEPS[dir];
    let name = |f: i32, r: i32| format!("{}{}", (b'a' + f as u8) as char, r + 1);
    let own = if player == Player::White { 'M' } else { 'm' };
    let pieces = format!(
        "{own}:{} {enemy}:{}",
        name(home.0, home.1),
        name(home.0 + df, home.1 + dr)
    );
    let s = state::<V>(&pieces, player.letter());
    legal::<V>(&s).iter().any(|m| m.is_capture())
}

#[test]
fn strong_medium_and_weak_men_capture_directions() {
    // Directions of the core's order as seen by White: N, NE, E, SE, S, SW, W, NW.
    let strong = [true; 8];
    let medium = [true, true, true, false, false, false, true, true];
    let weak = [true, true, false, false, false, false, false, true];
    fn check<V: Variant>(expected: [bool; 8]) {
        for (dir, &allowed) in expected.iter().enumerate() {
            assert_eq!(
                captures_towards::<V>(Player::White, dir),
                allowed,
                "{} White direction {dir}",
                V::NAME
            );
            // Black's forward is south: its directions are White's turned by half a circle.
            assert_eq!(
                captures_towards::<V>(Player::Black, (dir + 4) % 8),
                allowed,
                "{} Black direction {}",
                V::NAME,
                (dir + 4) % 8
            );
        }
    }
    check::<ScandinavianRules<10, STRONG, true>>(strong);
    check::<ScandinavianRules<10, MEDIUM, true>>(medium);
    check::<ScandinavianRules<10, WEAK, true>>(weak);
    check::<ScandinavianRules<10, STRONG, false>>(strong);
    check::<ScandinavianRules<10, MEDIUM, false>>(medium);
    check::<ScandinavianRules<10, WEAK, false>>(weak);
}

#[test]
fn english_men_capture_forward_only() {
    type E = EnglishRules;
    let s = state::<E>("M:d4 m:c5", 'w');
    assert_eq!(texts::<E>(&s), ["d4xb6"]);
    // Never backwards: c3 is behind the white man and in front of the black one.
    let s = state::<E>("M:d4 m:c3", 'w');
    assert_eq!(texts::<E>(&s), sorted(&["d4-c5", "d4-e5"]));
    let s = state::<E>("M:d4 m:c3", 'b');
    assert_eq!(texts::<E>(&s), sorted(&["c3-b2", "c3-d2"]));
}

#[test]
fn capture_is_compulsory() {
    type V = Scandinavian8x8Rules;
    let s = state::<V>("M:b3 M:h1 m:c4", 'w');
    assert_eq!(texts::<V>(&s), ["b3xd5"]);
    let game = Scandinavian8x8::new();
    match game.parse_move(&s, "h1-g2") {
        Err(MoveError::Illegal { reason, .. }) => {
            assert!(
                reason.contains("compulsory") && reason.contains("b3xd5"),
                "{reason}"
            )
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_capture_continues_while_the_piece_can_capture() {
    type V = Scandinavian8x8Rules;
    // d1 over d3 to d5, then over e6 to f7: stopping at d5 is not a move, even without the
    // majority rule.
    let s = state::<V>("M:d1 m:d3 m:e6", 'w');
    assert_eq!(texts::<V>(&s), ["d1xd5xf7"]);
    let s = state::<ScandinavianRules<8, STRONG, false>>("M:d1 m:d3 m:e6", 'w');
    assert_eq!(
        texts::<ScandinavianRules<8, STRONG, false>>(&s),
        ["d1xd5xf7"]
    );
}

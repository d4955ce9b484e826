//! Custodian capture: along each line, several at once, only single pieces, only by the piece
//! that moved, safe entry, the orthogonal option.

use super::*;

/// The square `k` steps from `name` along `(df, dr)`.
fn offset(name: &str, df: i32, dr: i32, k: i32) -> String {
    let cell = sq(name).index() as i32;
    let (file, rank) = (cell % 18 + df * k, cell / 18 + dr * k);
    standard()
        .board()
        .name(Cell((file + 18 * rank) as u16))
        .to_string()
}

/// White steps onto h6 from the square behind it on the line, next to a Black piece with a
/// White piece beyond: captured along every line in `fort-chitral` and
/// `fort-chitral-no-loss-at-three`, along ranks and files only in `fort-chitral-orthogonal`.
#[test]
fn custodian_capture_along_each_line() {
    for &(name, df, dr) in denkmeter_core::SQUARE_DIRECTIONS.iter() {
        let diagonal = df != 0 && dr != 0;
        let (from, enemy, beyond) = (
            offset("h6", df, dr, -1),
            offset("h6", df, dr, 1),
            offset("h6", df, dr, 2),
        );
        let text = setup(&format!("P{from} p{enemy} P{beyond} {FILL}"), 'w');
        for g in all_rulesets() {
            let state = pos(&text);
            let after = played(&g, &state, &format!("{from}-h6"));
            let taken = !diagonal || g.variant().captures_diagonally();
            assert_eq!(
                after.piece_at(sq(&enemy)).is_none(),
                taken,
                "{} {name}",
                g.name()
            );
            assert_eq!(after.count(Player::Black), if taken { 4 } else { 5 });
            assert_eq!(after.piece_at(sq("h6")), Some(Player::White));
            assert_eq!(after.piece_at(sq(&beyond)), Some(Player::White));
        }
    }
}

#[test]
fn black_captures_the_same_way() {
    let g = standard();
    let state = filled("pe7 Pe5 pe4", 'b');
    let after = played(&g, &state, "e7-e6");
    assert_eq!(after.piece_at(sq("e5")), None);
    assert_eq!(after.count(Player::White), 4);
}

#[test]
fn several_pieces_are_captured_at_once() {
    // White steps to h6, sandwiching g6 (west), h7 (north) and i5 (south-east).
    for g in [standard(), no_loss()] {
        let state = filled("Ph5 pg6 Pf6 ph7 Ph8 pi5 Pj4", 'w');
        let after = played(&g, &state, "h5-h6");
        for taken in ["g6", "h7", "i5"] {
            assert_eq!(after.piece_at(sq(taken)), None, "{taken}");
        }
        assert_eq!(after.count(Player::Black), 4);
    }
    // In the orthogonal ruleset the diagonal one stays.
    let state = filled("Ph5 pg6 Pf6 ph7 Ph8 pi5 Pj4", 'w');
    let after = played(&orthogonal(), &state, "h5-h6");
    assert_eq!(squares_of(&after, Player::Black).len(), 5);
    assert_eq!(after.piece_at(sq("i5")), Some(Player::Black));
}

#[test]
fn two_enemy_pieces_in_a_row_are_not_captured() {
    for g in all_rulesets() {
        let state = filled("Ph5 ph7 ph8 Ph9", 'w');
        let after = played(&g, &state, "h5-h6");
        assert_eq!(after.piece_at(sq("h7")), Some(Player::Black));
        assert_eq!(after.piece_at(sq("h8")), Some(Player::Black));
        assert_eq!(after.count(Player::Black), 6);
    }
}

#[test]
fn a_piece_may_move_safely_between_two_enemies() {
    for g in all_rulesets() {
        // White steps from h5 to h6 between g6 and i6 (and between g7 and i5 on a diagonal).
        let state = filled("Ph5 pg6 pi6 pg7 pi5", 'w');
        let after = played(&g, &state, "h5-h6");
        assert_eq!(after.piece_at(sq("h6")), Some(Player::White));
        assert_eq!(after.count(Player::White), 5);
        assert_eq!(after.count(Player::Black), 8);
    }
}

#[test]
fn only_the_piece_that_moved_captures() {
    // A sandwich standing on the board (c3 between b3 and d3) is not removed by a move
    // elsewhere, nor by a move of the piece on its end that lands elsewhere.
    let g = standard();
    let state = filled("Pb3 pc3 Pd3 Pm10", 'w');
    let after = played(&g, &state, "m10-m11");
    assert_eq!(after.piece_at(sq("c3")), Some(Player::Black));
    let after = played(&g, &state, "d3-e4");
    assert_eq!(after.piece_at(sq("c3")), Some(Player::Black));
    // Own pieces are never captured by one's own move.
    let state = filled("Pe5 Pe6 pe7 Pg6", 'w');
    let after = played(&g, &state, "g6-f6");
    assert_eq!(after.count(Player::White), 7);
}

#[test]
fn captures_come_from_the_end_square_only() {
    // e5 jumps over e6 to e7 and on over f8 to g9. On e7 it would have caught d7 (c7 beyond);
    // the chain only passes there, so d7 stays. Ending on e7 catches it.
    let g = standard();
    let state = filled("Pe5 Pe6 Pf8 pd7 Pc7", 'w');
    let through = played(&g, &state, "e5-g9");
    assert_eq!(through.piece_at(sq("d7")), Some(Player::Black));
    let stop = played(&g, &state, "e5-e7");
    assert_eq!(stop.piece_at(sq("d7")), None);
}

#[test]
fn the_square_just_left_does_not_capture() {
    // e5 -> e7 (over e6) -> g7 (over f7) -> g5 (over g6): f5 lies between g5 and e5, but e5
    // is empty once the piece has left it.
    let g = standard();
    let state = filled("Pe5 Pe6 Pf7 Pg6 pf5", 'w');
    let mv = g.parse_move(&state, "e5-g5").unwrap();
    assert!(g.move_view(&state, mv).captured.is_empty());
    let after = played(&g, &state, "e5-g5");
    assert_eq!(after.piece_at(sq("f5")), Some(Player::Black));
}

#[test]
fn pieces_in_the_fort_are_captured_like_any_other() {
    let g = standard();
    // Black on i9 (a Fort square), White on j9; White steps g9-h9.
    let state = filled("pi9 Pj9 Pg9", 'w');
    let after = played(&g, &state, "g9-h9");
    assert_eq!(after.piece_at(sq("i9")), None);
    assert_eq!(after.count(Player::Black), 4);
}

#[test]
fn capture_is_written_nowhere_but_shown_in_the_view() {
    let g = standard();
    let state = filled("Ph5 pg6 Pf6 ph7 Ph8", 'w');
    let mv = g.parse_move(&state, "h5-h6").unwrap();
    assert_eq!(g.move_text(&state, mv), "h5-h6");
    assert_eq!(g.parse_move(&state, "h5xh6"), Ok(mv));
    let mut captured = g.move_view(&state, mv).captured;
    captured.sort();
    assert_eq!(captured, [sq("g6"), sq("h7")]);
}

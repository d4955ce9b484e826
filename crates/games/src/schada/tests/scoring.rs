//! The score that decides every ending, and its tie-breaks in order.

use super::*;

fn outcome(text: &str) -> Outcome {
    scored(&position(text), "test", Reason::Score)
}

#[test]
fn goal_line_points_decide_first() {
    // White: Field Officer on c8 (2). Black: Officer on a1 (1), Field Officer off goal.
    let o = outcome("2F5/8/8/3f4/8/8/8/o7 w");
    assert_eq!(o.winner, Some(Player::White));
    let score = o.score.unwrap();
    assert_eq!((score.white, score.black), (2, 1));
    assert_eq!(
        score.breakdown,
        "test; goal line 2-1, off the goal line 0-2, advancement in sevenths 0-6; \
         White wins on the goal-line points"
    );
}

#[test]
fn equal_goal_lines_compare_the_high_pieces_off_the_goal_line() {
    // Goal lines 1-1; off the goal line White has a Field Officer (2), Black an Officer (1).
    let o = outcome("O7/8/8/3o4/3F4/8/8/7o w");
    assert_eq!(o.winner, Some(Player::White));
    assert_eq!(
        o.score.unwrap().breakdown,
        "test; goal line 1-1, off the goal line 2-1, advancement in sevenths 6-3; \
         White wins on the off-goal pieces"
    );
}

#[test]
fn then_the_advancement_in_sevenths() {
    // Goal 1-1, off-goal 1-1; White's Officer on d4 has come 3 ranks, Black's on d6 2 ranks.
    let o = outcome("O7/8/3o4/8/3O4/8/8/7o w");
    assert_eq!(o.winner, Some(Player::White));
    assert_eq!(
        o.score.unwrap().breakdown,
        "test; goal line 1-1, off the goal line 1-1, advancement in sevenths 3-2; \
         White wins on the advancement"
    );
    // A Field Officer's ranks count twice (equal off-goal material needs two Field Officers).
    let fo = outcome("O7/8/8/3f4/8/3F4/8/7o b");
    // White's Field Officer has come 2 ranks (4 sevenths), Black's 3 ranks (6 sevenths).
    assert_eq!(fo.winner, Some(Player::Black));
    assert!(fo
        .score
        .unwrap()
        .breakdown
        .ends_with("advancement in sevenths 4-6; Black wins on the advancement"));
}

#[test]
fn all_equal_is_a_draw() {
    let o = outcome("O7/8/8/3o4/3O4/8/8/7o w");
    assert_eq!(o.winner, None);
    assert_eq!(
        o.score.unwrap().breakdown,
        "test; goal line 1-1, off the goal line 1-1, advancement in sevenths 3-3; \
         all equal: a draw"
    );
}

#[test]
fn pawns_never_score() {
    let o = outcome("PPPPPPPP/8/8/8/8/8/8/pppppppp w");
    assert_eq!(o.winner, None);
    assert_eq!(
        tally(&position("PPPPPPPP/8/8/8/8/8/8/8 w"), Player::White).goal_line,
        0
    );
}

//! Captures: the majority rule, captured pieces and duplicate routes.

use super::*;

#[test]
fn majority_rule_against_free_line() {
    // b3 over b5 to b7 (one piece), or over c4 to d5 and over e6 to f7 (two pieces).
    type V = Scandinavian8x8Rules;
    type F = ScandinavianRules<8, STRONG, false>;
    let s8 = "M:b3 m:c4 m:e6 m:b5";
    let majority = texts::<V>(&state::<V>(s8, 'w'));
    let free = texts::<F>(&state::<F>(s8, 'w'));
    assert_eq!(majority, ["b3xd5xf7"]);
    assert_eq!(free, sorted(&["b3xb7", "b3xd5xf7"]));
    // International: the greatest number too.
    let s = state::<InternationalRules>("M:c3 m:d4 m:f6 m:b4", 'w');
    assert_eq!(texts::<InternationalRules>(&s), ["c3xe5xg7"]);
}

#[test]
fn majority_counts_men_and_dames_the_same() {
    type V = Scandinavian8x8Rules;
    type F = ScandinavianRules<8, STRONG, false>;
    // d3 over the dame c4 to b5 (one piece) or over e4 and g6 to h7 (two men): a dame counts
    // one, like a man.
    let pieces = "M:d3 d:c4 m:e4 m:g6";
    assert_eq!(texts::<V>(&state::<V>(pieces, 'w')), ["d3xf5xh7"]);
    assert_eq!(
        texts::<F>(&state::<F>(pieces, 'w')),
        sorted(&["d3xb5", "d3xf5xh7"])
    );
    // A dame and a man against two men: equal, both allowed.
    let pieces = "M:d3 d:c4 m:c6 m:e4 m:g6";
    assert_eq!(
        texts::<V>(&state::<V>(pieces, 'w')),
        sorted(&["d3xb5xd7", "d3xf5xh7"])
    );
}

#[test]
fn captured_pieces_cannot_be_jumped_twice() {
    type V = Scandinavian8x8Rules;
    // After d3xd7 the man would jump d5 again back to d3: not allowed.
    let s = state::<V>("M:d3 m:d5", 'w');
    assert_eq!(texts::<V>(&s), ["d3xd7"]);
    // A dame does not capture the same piece back either.
    let s = state::<V>("D:c4 m:d5", 'w');
    assert_eq!(texts::<V>(&s), sorted(&["c4xe6", "c4xf7", "c4xg8"]));
}

#[test]
fn captured_pieces_block_lines_until_the_move_ends() {
    type V = Scandinavian8x8Rules;
    // c4 over b5 to a6; from a6 the line back to e2 crosses b5, still on the board: the dame
    // cannot pass it. Were b5 removed at once, c4xa6xf1 would capture both.
    let s = position::<V>("8/8/8/1m6/2D5/8/4m3/8 w");
    assert_eq!(texts::<V>(&s), sorted(&["c4xa6", "c4xf1"]));
    // International: the same with a king (from the search for such positions).
    let s = position::<InternationalRules>("10/6m3/10/4D5/10/10/1m8/10/10/10 w");
    assert_eq!(
        texts::<InternationalRules>(&s),
        sorted(&["e7xa3", "e7xh10"])
    );
}

#[test]
fn capturing_piece_may_pass_over_and_end_on_its_start() {
    // International: a man takes four men around a square and ends where it started.
    type I = InternationalRules;
    let s = state::<I>("M:c3 m:d4 m:f4 m:f2 m:d2", 'w');
    assert_eq!(texts::<I>(&s), ["c3xe1xg3xe5xc3"]);
    let after = play::<I>(&s, "c3xe1xg3xe5xc3");
    assert_eq!(after, state::<I>("M:c3", 'b'));
    // Scandinavian: the dame leaves d3, takes d5 and f7, and comes back along the diagonal
    // through its empty start square to take c2.
    type V = Scandinavian8x8Rules;
    let s = state::<V>("D:d3 m:d5 m:f7 m:c2", 'w');
    assert_eq!(texts::<V>(&s), ["d3xd7xh7xb1"]);
}

#[test]
fn duplicate_routes_are_one_move() {
    // Clockwise and anticlockwise round the square: same start, end and captured pieces.
    type I = InternationalRules;
    let s = state::<I>("M:c3 m:d4 m:f4 m:f2 m:d2", 'w');
    assert_eq!(legal::<I>(&s).len(), 1);
    assert_eq!(perft_counts::<I>(&s, 1), [1]);
    let routes = notation::routes::<I>(&s, legal::<I>(&s)[0]);
    assert_eq!(routes.len(), 2, "two routes, one move");
    // A dame reaching the same end over the same pieces by different landing squares.
    type V = Scandinavian8x8Rules;
    let s = state::<V>("D:b1 m:d3 m:f3", 'w');
    let moves = legal::<V>(&s);
    let keys: BTreeSet<(u8, u8, u64)> = moves.iter().map(|m| (m.from, m.to, m.captured)).collect();
    assert_eq!(keys.len(), moves.len());
}

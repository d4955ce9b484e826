//! Moving: steps to the eight neighbours, jumps over own pieces, chains of jumps.

use super::*;

#[test]
fn step_to_each_of_the_eight_neighbours() {
    for g in all_rulesets() {
        let state = filled("Pe5", 'w');
        assert_eq!(
            destinations(&g, &state, "e5"),
            ["d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6"]
        );
    }
}

#[test]
fn steps_stay_on_the_board() {
    let g = standard();
    let state = filled("Pa1 pr18", 'w');
    assert_eq!(destinations(&g, &state, "a1"), ["a2", "b1", "b2"]);
    let state = filled("Pa9", 'w');
    assert_eq!(
        destinations(&g, &state, "a9"),
        ["a10", "a8", "b10", "b8", "b9"]
    );
}

#[test]
fn a_step_needs_an_empty_square() {
    // e6 holds an own piece (jumped over instead), f6 an enemy one (neither stepped on nor
    // jumped).
    let g = standard();
    let state = filled("Pe5 Pe6 pf6", 'w');
    assert_eq!(
        destinations(&g, &state, "e5"),
        ["d4", "d5", "d6", "e4", "e7", "f4", "f5"]
    );
}

#[test]
fn jump_over_an_own_piece_in_each_of_the_eight_directions() {
    // e5 is ringed by its own pieces; it jumps over each to the empty square behind, and no
    // chain goes further (from every landing, the only own neighbour leads back to e5).
    let g = standard();
    let state = filled("Pe5 Pd4 Pd5 Pd6 Pe4 Pe6 Pf4 Pf5 Pf6", 'w');
    assert_eq!(
        destinations(&g, &state, "e5"),
        ["c3", "c5", "c7", "e3", "e7", "g3", "g5", "g7"]
    );
}

#[test]
fn jumping_over_an_enemy_piece_is_refused() {
    for g in all_rulesets() {
        let state = filled("Pe5 pe6 pf6 pf5", 'w');
        let all = destinations(&g, &state, "e5");
        assert!(!all.contains(&"e7".to_string()), "{all:?}");
        assert!(!all.contains(&"g7".to_string()), "{all:?}");
        assert!(!all.contains(&"g5".to_string()), "{all:?}");
        assert!(!is_legal(&g, &state, "e5-e7"));
    }
}

#[test]
fn a_jump_needs_an_empty_landing_square_on_the_board() {
    let g = standard();
    // e7 is taken (by either side): no jump over e6.
    for blocker in ["Pe7", "pe7"] {
        let state = filled(&format!("Pe5 Pe6 {blocker}"), 'w');
        assert!(!destinations(&g, &state, "e5").contains(&"e7".to_string()));
    }
    // Over a1 from b1 or b2 there is no square behind (b1 still jumps north over b2).
    let state = filled("Pa1 Pb1 Pb2", 'w');
    assert_eq!(destinations(&g, &state, "b1"), ["a2", "b3", "c1", "c2"]);
    assert_eq!(
        destinations(&g, &state, "b2"),
        ["a2", "a3", "b3", "c1", "c2", "c3"]
    );
}

#[test]
fn only_an_adjacent_piece_is_jumped() {
    // e7 is two squares away, with e6 empty between: e5 steps to e6 and jumps nowhere.
    let g = standard();
    let state = filled("Pe5 Pe7", 'w');
    let all = destinations(&g, &state, "e5");
    assert!(all.contains(&"e6".to_string()));
    assert!(!all.contains(&"e9".to_string()) && !all.contains(&"e8".to_string()));
}

#[test]
fn jumps_chain_and_change_direction() {
    // e5 over e6 to e7, then east over f7 to g7, then north-east over h8 to i9: each landing,
    // the first included, is a move of its own.
    let g = standard();
    let state = filled("Pe5 Pe6 Pf7 Ph8", 'w');
    let all = destinations(&g, &state, "e5");
    for landing in ["e7", "g7", "i9"] {
        assert!(all.contains(&landing.to_string()), "{landing}: {all:?}");
    }
    let after = played(&g, &state, "e5-i9");
    assert_eq!(after.piece_at(sq("i9")), Some(Player::White));
    assert_eq!(after.piece_at(sq("e5")), None);
    assert_eq!(after.count(Player::White), 8);
}

#[test]
fn a_long_chain_crosses_the_board() {
    // Own pieces on every other square of the a-file: a1 jumps up to a17 in eight jumps.
    let g = standard();
    let state = at_setup(
        "Pa1 Pa2 Pa4 Pa6 Pa8 Pa10 Pa12 Pa14 Pa16 pr18 pq18 pp18 po18",
        'w',
    );
    let all = destinations(&g, &state, "a1");
    for rank in [3, 5, 7, 9, 11, 13, 15, 17] {
        assert!(all.contains(&format!("a{rank}")), "a{rank}: {all:?}");
    }
    assert!(is_legal(&g, &state, "a1-a17"));
}

#[test]
fn a_chain_never_returns_to_its_start() {
    // e5 -> e7 (over e6) -> g7 (over f7) -> e5 (over f6) would close a loop: e5 is no
    // destination, and g7, reached two ways, is one move.
    let g = standard();
    let state = filled("Pe5 Pe6 Pf7 Pf6", 'w');
    let moves: Vec<Move> = moves_of(&g, &state)
        .into_iter()
        .filter(|m| m.from() == Some(sq("e5")))
        .collect();
    assert!(moves.iter().all(|m| m.to() != Some(sq("e5"))));
    assert_eq!(moves.iter().filter(|m| m.to() == Some(sq("g7"))).count(), 1);
    assert!(!is_legal(&g, &state, "e5-e5"));
}

#[test]
fn a_chain_never_lands_twice_so_each_end_is_one_move() {
    // e5 ringed by its own pieces: the landings reach each other by many routes, and each end
    // square is listed once.
    let g = standard();
    let state = filled("Pe5 Pd6 Pe6 Pf6 Pd4 Pe4 Pf4 Pd5 Pf5 Pc8 Pg8", 'w');
    let moves = moves_of(&g, &state);
    let ends: BTreeSet<(Cell, Cell)> = moves
        .iter()
        .map(|m| (m.from().unwrap(), m.to().unwrap()))
        .collect();
    assert_eq!(ends.len(), moves.len(), "no move is listed twice");
    // The chains go on from c7 over c8 to c9 and from g7 over g8 to g9; c5, e3, e7 and g5
    // are each reached by several routes.
    let all = destinations(&g, &state, "e5");
    assert!(all.contains(&"c9".to_string()) && all.contains(&"g9".to_string()));
}

#[test]
fn a_move_is_its_start_and_end_whatever_the_route() {
    // From e5 to g7 directly over f6, or via e7 and f7: one move, e5-g7.
    let g = standard();
    let state = filled("Pe5 Pe6 Pf7 Pf6", 'w');
    let mv = g.parse_move(&state, "e5-g7").unwrap();
    assert_eq!(mv.from(), Some(sq("e5")));
    assert_eq!(mv.to(), Some(sq("g7")));
    assert_eq!(g.move_text(&state, mv), "e5-g7");
}

#[test]
fn black_moves_the_same_way() {
    let g = standard();
    let state = filled("pe5 pe4 pe2 Pd3", 'b');
    let all = destinations(&g, &state, "e5");
    assert!(all.contains(&"e3".to_string()) && all.contains(&"e1".to_string()));
    assert!(!all.contains(&"c1".to_string()), "d3 is White's: {all:?}");
}

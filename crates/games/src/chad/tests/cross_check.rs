//! The fast move generator and the status, checked against the slow reference.

use super::*;

#[test]
fn fast_generator_agrees_with_the_slow_one() {
    let check = |s: &State, moves: &[Move]| {
        let fast: HashSet<_> = moves
            .iter()
            .map(|m| {
                (
                    m.start_index(),
                    m.end_index(),
                    m.is_capture(),
                    m.is_promotion(),
                )
            })
            .collect();
        assert_eq!(fast.len(), moves.len(), "no duplicates: {s:?}");
        assert_eq!(fast, slow::moves(s), "{s:?}");
    };
    random_games(5, 12, 250, check);
    for text in [EXAMPLE_WHITE, EXAMPLE_BLACK] {
        let s = position(text);
        check(&s, &legal(&s));
    }
}

#[test]
fn status_agrees_with_the_move_list() {
    let game = chad();
    random_games(9, 20, 300, |s, moves| {
        assert_eq!(game.status(s).is_over(), moves.is_empty(), "{s:?}");
    });
}

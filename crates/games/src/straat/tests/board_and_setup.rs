//! The frame, the start, who places what and when the game ends.

use super::*;

#[test]
fn the_frame_is_four_by_four_and_starts_empty_with_white_to_move() {
    for g in all_rulesets() {
        assert_eq!(g.board().len(), 16);
        let start = g.start();
        assert_eq!(g.position_text(&start), START);
        assert_eq!(g.to_move(&start), Player::White);
        assert_eq!(g.status(&start), Status::Ongoing);
        assert_eq!(start, pos(&g, START));
    }
}

#[test]
fn every_empty_cell_takes_a_tile_in_four_orientations() {
    let g = straight();
    let list = texts(&g, &g.start());
    assert_eq!(list.len(), 64);
    assert_eq!(&list[..5], ["a1n", "a1e", "a1s", "a1w", "b1n"]);
    assert_eq!(list[63], "d4w");
    assert_eq!(texts(&diagonal(), &g.start()).len(), 64);
}

#[test]
fn with_flip_a_tile_may_also_lie_solid_face_up() {
    let g = flip();
    let list = texts(&g, &g.start());
    assert_eq!(list.len(), 128);
    assert_eq!(
        &list[..8],
        ["a1n", "a1e", "a1s", "a1w", "a1n*", "a1e*", "a1s*", "a1w*"]
    );
}

#[test]
fn an_occupied_cell_takes_no_tile() {
    let g = straight();
    let state = played(&g, &g.start(), "b3n");
    let list = texts(&g, &state);
    assert_eq!(list.len(), 60);
    assert!(list.iter().all(|m| !m.starts_with("b3")));
    assert!(g.parse_move(&state, "b3e").is_err());
}

#[test]
fn players_alternate_and_lay_their_own_tiles() {
    let g = straight();
    let s1 = played(&g, &g.start(), "a1n");
    assert_eq!(g.to_move(&s1), Player::Black);
    let s2 = played(&g, &s1, "a2e");
    assert_eq!(g.to_move(&s2), Player::White);
    assert_eq!(g.position_text(&s2), "4/4/e3/N3 w");
    assert_eq!(s2.tile(sq("a1")).unwrap().owner, Player::White);
    assert_eq!(s2.tile(sq("a2")).unwrap().owner, Player::Black);
    assert_eq!((s2.placed(Player::White), s2.placed(Player::Black)), (1, 1));
}

#[test]
fn after_sixteen_placements_the_game_is_over_and_there_is_never_a_pass() {
    for g in all_rulesets() {
        for state in random_states(&g, 11, 5) {
            let n = moves_of(&g, &state).len() as u32;
            let per_cell = if g.variant().flip() { 8 } else { 4 };
            assert_eq!(n, state.empty_cells() * per_cell);
            assert_eq!(g.status(&state).is_over(), state.is_full());
            if state.is_full() {
                assert_eq!(
                    (state.placed(Player::White), state.placed(Player::Black)),
                    (8, 8)
                );
                assert_eq!(g.to_move(&state), Player::White);
            }
        }
    }
}

#[test]
fn perft_from_the_start_counts_every_cell_and_orientation() {
    assert_eq!(perft(&straight(), &straight().start(), 2), 64 * 60);
    assert_eq!(perft(&diagonal(), &diagonal().start(), 2), 64 * 60);
    assert_eq!(perft(&flip(), &flip().start(), 2), 128 * 120);
}

#[test]
fn the_legend_names_every_tile_kind() {
    use denkmeter_core::{PieceShape, Towards};
    for g in all_rulesets() {
        let kinds: Vec<&str> = g.board().legend().pieces.iter().map(|p| p.kind).collect();
        assert_eq!(kinds, ["tile-n", "tile-e", "tile-s", "tile-w", "solid"]);
        let solid = g.board().legend().piece("solid").copied().unwrap();
        assert_eq!(solid.shape, PieceShape::Tile);
    }
    let tile = straight()
        .board()
        .legend()
        .piece("tile-e")
        .copied()
        .unwrap();
    assert_eq!(tile.letter, 'E');
    assert_eq!(tile.shape, PieceShape::SplitTile(Towards::East));
    // Diagonal: an `n` tile is black on its north and east triangles.
    let shape = |g: &Straat, kind| g.board().legend().piece(kind).unwrap().shape;
    assert_eq!(
        shape(&diagonal(), "tile-n"),
        PieceShape::SplitTile(Towards::NorthEast)
    );
    assert_eq!(
        shape(&diagonal(), "tile-w"),
        PieceShape::SplitTile(Towards::NorthWest)
    );
    assert_eq!(
        shape(&flip(), "tile-s"),
        PieceShape::SplitTile(Towards::South)
    );
}

//! Counting streets: hand-made positions for each ruling of the counting.

use super::*;

#[test]
fn half_black_north_tiles_make_four_west_east_streets_of_each_colour_on_the_front() {
    let g = straight();
    let state = pos(&g, "NnNn/nNnN/NnNn/nNnN w");
    // Front: quarter rows alternate white (south halves) and black (north halves). Back: a
    // chequer of solid faces, cells touching at corners only.
    assert_eq!(street_table(&g, &state), [(0, 4), (0, 4), (0, 0), (0, 0)]);
}

#[test]
fn a_region_joining_both_pairs_of_sides_counts_twice() {
    let g = straight();
    // White's solid faces on the back: rank 2 and file b (a cross) and d4 alone.
    let state = pos(&g, "nNnN/nNnn/NNNN/nNnn w");
    let [_, _, back_white, back_black] = street_table(&g, &state);
    assert_eq!(back_white, (1, 1));
    assert_eq!(back_black, (0, 0));
    assert_eq!(g.streets(&state).score(Player::White), 4 + 2);
}

#[test]
fn regions_join_through_edges_never_through_corners() {
    let g = straight();
    // The back: White's solid faces on the diagonal a1, b2, c3, d4 touch at corners only.
    let state = pos(&g, "n2N/2N1/1N2/N1nn b");
    assert_eq!(street_table(&g, &state)[2], (0, 0));
}

#[test]
fn the_back_counts_the_solid_faces_of_a_partial_frame() {
    let g = straight();
    // White's tiles fill file a, Black's file d: a street of each behind. In front, the
    // halves of file a and of file d make a white and a black street each.
    let state = pos(&g, "E2w/E2w/E2w/E2w w");
    assert_eq!(street_table(&g, &state), [(2, 0), (2, 0), (1, 0), (1, 0)]);
    // One cell short on each file: no street anywhere (empty cells belong to no region).
    let state = pos(&g, "3w/E2w/E2w/E3 w");
    assert_eq!(street_table(&g, &state), [(0, 0); 4]);
}

#[test]
fn diagonal_streets_zig_zag_between_two_rows() {
    let g = diagonal();
    // The black halves a1 W+N, a2 E+S, b2 S+W, b1 N+E, ... join the west side to the east side.
    let state = pos(&g, "4/4/eSeS/WnWn w");
    assert_eq!(street_table(&g, &state)[1], (0, 1));
    // From a1's south triangle up to c4's north triangle.
    let state = pos(&g, "2nS/2Ew/1Ew1/Ew2 w");
    assert_eq!(street_table(&g, &state)[1], (1, 0));
    // The straight split of the same letters makes no black street.
    assert_eq!(
        street_table(&straight(), &pos(&straight(), "4/4/eSeS/WnWn w"))[1],
        (0, 0)
    );
}

#[test]
fn a_triangle_touches_only_the_side_of_its_outer_edge() {
    let g = diagonal();
    // As above but d1 black on S+W: the region reaches the south-east corner through d1's
    // south triangle, which touches the south side only.
    let state = pos(&g, "4/4/eSeS/WnWs w");
    assert_eq!(street_table(&g, &state)[1], (0, 0));
}

#[test]
fn a_tile_solid_face_up_shows_its_colour_in_front_and_its_halves_behind() {
    let g = flip();
    // White's tiles on file a lie solid face up, black half east: a white street in front;
    // behind, file a is split into a white and a black column. Black's tiles on file d lie
    // half/half face up (black north halves in front, solid black behind).
    let state = pos(&g, "E*2n/E*2n/E*2n/E*2n w");
    assert_eq!(street_table(&g, &state), [(1, 0), (0, 0), (1, 0), (2, 0)]);
    let streets = g.streets(&state);
    assert_eq!(
        (streets.score(Player::White), streets.score(Player::Black)),
        (2, 2)
    );
    // Solid face up with black north halves behind: streets in front only.
    let state = pos(&g, "N*2n*/N*2n*/N*2n*/N*2n* w");
    assert_eq!(street_table(&g, &state), [(1, 0), (1, 0), (0, 0), (0, 0)]);
}

#[test]
fn the_street_counter_is_public_for_any_set_of_pieces() {
    // A full row of quarter-cells, and the whole grid (both pairs of sides).
    assert_eq!(count_streets(Layout::Quarters, 0xFF).west_east, 1);
    let all = count_streets(Layout::Quarters, u64::MAX);
    assert_eq!((all.north_south, all.west_east, all.total()), (1, 1, 2));
    assert_eq!(count_streets(Layout::Triangles, u64::MAX).total(), 2);
    assert_eq!(count_streets(Layout::Triangles, 0).total(), 0);
}

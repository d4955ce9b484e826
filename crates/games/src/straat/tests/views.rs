//! What the browser is given.

use super::*;

#[test]
fn a_move_is_a_click_on_the_cell_and_a_choice_of_orientation() {
    let g = flip();
    let start = g.start();
    let mv = g.parse_move(&start, "b3w*").unwrap();
    let view = g.move_view(&start, mv);
    assert_eq!(view.from, None);
    assert_eq!(view.to, Some(sq("b3")));
    assert_eq!(view.choice.as_deref(), Some("w*"));
    assert!(view.captured.is_empty() && view.via.is_empty());
    let mv = g.parse_move(&start, "a1n").unwrap();
    assert_eq!(g.move_view(&start, mv).choice.as_deref(), Some("n"));
}

#[test]
fn a_move_says_which_face_it_lays_up_for_the_preview() {
    let g = flip();
    let start = g.start();
    let places = |text| {
        g.move_view(&start, g.parse_move(&start, text).unwrap())
            .places
    };
    assert_eq!(places("b3w*"), Some("solid"));
    assert_eq!(places("a1n"), Some("tile-n"));
    assert_eq!(places("d4e"), Some("tile-e"));
}

#[test]
fn every_placed_tile_is_one_piece_with_its_owner_and_orientation() {
    let g = flip();
    let state = pos(&g, "4/1s*2/4/N3 w");
    let view = g.position_view(&state, denkmeter_core::Viewer::Everyone);
    assert_eq!(view.to_move, Player::White);
    assert_eq!(view.pieces.len(), 2);
    let a1 = &view.pieces[0];
    assert_eq!(
        (a1.cell, a1.owner, a1.kind, a1.letter),
        (sq("a1"), Player::White, "tile-n", 'N')
    );
    let b3 = &view.pieces[1];
    assert_eq!(
        (b3.cell, b3.owner, b3.kind, b3.letter),
        (sq("b3"), Player::Black, "solid", 'o')
    );
    assert!(view.absent.is_empty());
}

#[test]
fn the_back_shows_every_tiles_other_face_on_its_cell() {
    let view = |g: &Straat, text| {
        g.back_view(&pos(g, text), denkmeter_core::Viewer::Everyone)
            .unwrap()
    };
    let seen = |v: &PositionView| -> Vec<(Cell, Player, &str, char)> {
        v.pieces
            .iter()
            .map(|p| (p.cell, p.owner, p.kind, p.letter))
            .collect()
    };
    // Half/half face up: the back is solid in the owner's colour.
    assert_eq!(
        seen(&view(&straight(), "4/1s2/4/N3 w")),
        [
            (sq("a1"), Player::White, "solid", 'O'),
            (sq("b3"), Player::Black, "solid", 'o'),
        ]
    );
    // Solid face up: the back shows the half/half face, named from the front.
    assert_eq!(
        seen(&view(&flip(), "4/1s*2/4/E3 w")),
        [
            (sq("a1"), Player::White, "solid", 'O'),
            (sq("b3"), Player::Black, "tile-s", 's'),
        ]
    );
    assert!(view(&diagonal(), "4/4/4/4 w").pieces.is_empty());
}

#[test]
fn a_full_frame_points_out_each_street_on_its_side() {
    use denkmeter_core::Side;
    let g = straight();
    // White's solid faces make a cross on the back joining all four sides: one street that
    // counts twice; the front has no street of White's colour.
    let state = pos(&g, "nNnN/nNnn/NNNN/nNnn w");
    let lights = g.highlights(&state, denkmeter_core::Viewer::Everyone);
    let back: Vec<_> = lights
        .iter()
        .filter(|h| h.side == Side::Back && h.owner == Player::White)
        .collect();
    assert_eq!(back.len(), 1, "{lights:?}");
    assert_eq!(back[0].value, 2);
    assert_eq!(
        back[0].label,
        "White's street on the back, north to south and west to east"
    );
    // The cross: rank 2 and file b, 7 cells of 4 quarters each.
    assert_eq!(back[0].parts.len(), 7 * 4);
    assert!(back[0]
        .parts
        .contains(&vec![(0.0, 2.0), (0.5, 2.0), (0.5, 2.5), (0.0, 2.5)]));
    // Its outline runs around the cross, 4 cells wide and high: 16 cell sides, in half-cell
    // edges.
    assert_eq!(back[0].outline().len(), 32);
    // No highlight before the frame is full.
    let open = pos(&g, "nNnN/nNnn/NNNN/nNn1 b");
    assert!(g
        .highlights(&open, denkmeter_core::Viewer::Everyone)
        .is_empty());
}

#[test]
fn highlights_add_up_to_the_street_counts_and_tile_their_regions() {
    for g in all_rulesets() {
        for state in random_states(&g, 0x5717, 40) {
            let lights = g.highlights(&state, denkmeter_core::Viewer::Everyone);
            if !state.is_full() {
                assert!(lights.is_empty());
                continue;
            }
            let streets = g.streets(&state);
            for face in Face::BOTH {
                for player in Player::BOTH {
                    let side = face.side();
                    let mine = lights
                        .iter()
                        .filter(|h| h.side == side && h.owner == player);
                    let total: u32 = mine.clone().map(|h| h.value).sum();
                    assert_eq!(total, streets.get(face, player).total());
                    // Each part is a quarter-cell (1/4) or a triangle (1/4) inside the frame.
                    for h in mine {
                        for part in &h.parts {
                            assert!(part.iter().all(
                                |&(x, y)| (0.0..=4.0).contains(&x) && (0.0..=4.0).contains(&y)
                            ));
                            let area: f32 = (0..part.len())
                                .map(|i| {
                                    let (a, b) = (part[i], part[(i + 1) % part.len()]);
                                    a.0 * b.1 - b.0 * a.1
                                })
                                .sum::<f32>()
                                / 2.0;
                            assert!((area - 0.25).abs() < 1e-6, "{part:?}");
                        }
                    }
                }
            }
        }
    }
}

//! The evaluation and the search hooks: no captures, no forced replies, no null move; the
//! evaluation is symmetric under swapping the colours and ranks positions with streets right.

use super::*;

/// The position with every tile's owner and colours swapped: the other player's tile, turned
/// half round (its black half where the white half was), and the other side to move. Not a
/// position the game can reach (Black would have moved first), but one the evaluation must
/// score alike.
fn swapped(g: &Straat, state: &State) -> State {
    let mut swap = State::start();
    for (cell, tile) in state.tiles() {
        let turned = match tile.orientation.letter() {
            'n' => 's',
            's' => 'n',
            'e' => 'w',
            _ => 'e',
        };
        let tile = Tile {
            owner: !tile.owner,
            orientation: Orientation::from_letter(turned).unwrap(),
            solid_up: tile.solid_up,
        };
        swap.put(cell.index(), tile, g.variant.front_layout());
    }
    if swap.to_move() == state.to_move() {
        swap.switch_side();
    }
    swap
}

#[test]
fn the_search_hooks_are_the_defaults() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(31);
    for g in all_rulesets() {
        for _ in 0..30 {
            let mut state = g.start();
            loop {
                let moves = moves_of(&g, &state);
                if moves.is_empty() {
                    break;
                }
                assert!(!g.forcing(&state));
                assert!(g.null_move(&state).is_none());
                for &mv in &moves {
                    assert_eq!(g.move_gain(&state, mv), 0);
                }
                let swap = swapped(&g, &state);
                let mut other = state.clone();
                other.switch_side();
                assert_eq!(g.evaluate(&state), -g.evaluate(&other));
                assert_eq!(
                    g.evaluate(&state),
                    g.evaluate(&swap),
                    "{}: {}",
                    g.name(),
                    g.position_text(&state)
                );
                g.play_unchecked(&mut state, moves[rng.gen_range(0..moves.len())]);
            }
        }
    }
}

#[test]
fn the_evaluation_ranks_streets_first() {
    let g = straight();
    assert_eq!(g.evaluate(&g.start()), 0);
    // White's tiles in a column, black halves east: their west halves make a White street
    // north to south on the front (the east halves a Black one), and their solid faces a
    // White one on the back. Scattered along a diagonal they make none. Black's three tiles make none.
    let street = pos(&g, "E3/Ew2/E2w/E2w b");
    let scattered = pos(&g, "E3/1Ew1/2Ew/w2E b");
    assert!(
        g.evaluate(&street) < g.evaluate(&scattered),
        "{} {}",
        g.evaluate(&street),
        g.evaluate(&scattered)
    );
    assert!(g.evaluate(&street) <= -100, "{}", g.evaluate(&street));
}

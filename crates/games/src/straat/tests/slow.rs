//! Cross-checks over random games: a slow street counter built from the geometry of the
//! rulings (pieces with coordinates, neighbours found by comparing them, breadth-first
//! search), position and move texts read back, the hash.

use std::collections::{HashMap, VecDeque};

use super::*;

/// A piece of a face: where it is, its colour (0 White's, 1 Black's) and the sides of the
/// frame its outer edge lies on.
#[derive(Clone, Debug)]
struct Piece {
    key: (i32, i32, i32),
    colour: usize,
    sides: Vec<char>,
}

/// Whether the quarter `(dx, dy)` of a cell (0 left/bottom, 1 right/top) is in the black half
/// of orientation `o`.
fn quarter_black(o: Orientation, dx: i32, dy: i32) -> bool {
    match o {
        Orientation::North => dy == 1,
        Orientation::East => dx == 1,
        Orientation::South => dy == 0,
        Orientation::West => dx == 0,
    }
}

/// The triangles' names: N E S W.
const TRIANGLES: [char; 4] = ['N', 'E', 'S', 'W'];

/// Whether triangle `t` is black for orientation `o`: `n` N+E, `e` E+S, `s` S+W, `w` W+N.
fn triangle_black(o: Orientation, t: char) -> bool {
    let pair = match o {
        Orientation::North => "NE",
        Orientation::East => "ES",
        Orientation::South => "SW",
        Orientation::West => "WN",
    };
    pair.contains(t)
}

fn quarter_pieces(
    out: &mut Vec<Piece>,
    file: i32,
    rank: i32,
    colour_of: impl Fn(i32, i32) -> usize,
) {
    for dy in 0..2 {
        for dx in 0..2 {
            let (x, y) = (2 * file + dx, 2 * rank + dy);
            let mut sides = Vec::new();
            if y == 7 {
                sides.push('N');
            }
            if y == 0 {
                sides.push('S');
            }
            if x == 0 {
                sides.push('W');
            }
            if x == 7 {
                sides.push('E');
            }
            out.push(Piece {
                key: (x, y, -1),
                colour: colour_of(dx, dy),
                sides,
            });
        }
    }
}

/// The pieces of one face.
fn pieces(g: &Straat, state: &State, face: Face) -> Vec<Piece> {
    let mut out = Vec::new();
    for (cell, tile) in state.tiles() {
        let (file, rank) = ((cell.index() % 4) as i32, (cell.index() / 4) as i32);
        let owner = tile.owner.index();
        let half_up = (face == Face::Front) != tile.solid_up;
        if !half_up {
            quarter_pieces(&mut out, file, rank, |_, _| owner);
        } else if g.variant() == Variant::Diagonal {
            for (t, name) in TRIANGLES.into_iter().enumerate() {
                let touches = match name {
                    'N' => rank == 3,
                    'S' => rank == 0,
                    'W' => file == 0,
                    _ => file == 3,
                };
                out.push(Piece {
                    key: (file, rank, t as i32),
                    colour: usize::from(triangle_black(tile.orientation, name)),
                    sides: if touches { vec![name] } else { Vec::new() },
                });
            }
        } else {
            quarter_pieces(&mut out, file, rank, |dx, dy| {
                usize::from(quarter_black(tile.orientation, dx, dy))
            });
        }
    }
    out
}

/// Whether two pieces share an edge.
fn adjacent(a: (i32, i32, i32), b: (i32, i32, i32)) -> bool {
    match (a.2, b.2) {
        (-1, -1) => (a.0 - b.0).abs() + (a.1 - b.1).abs() == 1,
        (-1, _) | (_, -1) => false,
        (ta, tb) => {
            if (a.0, a.1) == (b.0, b.1) {
                (ta - tb).rem_euclid(4) == 1 || (tb - ta).rem_euclid(4) == 1
            } else {
                // N (0) meets the S (2) of the cell above; E (1) the W (3) of the cell right.
                let step = |t| match t {
                    0 => (0, 1),
                    1 => (1, 0),
                    2 => (0, -1),
                    _ => (-1, 0),
                };
                (tb - ta).rem_euclid(4) == 2 && (a.0 + step(ta).0, a.1 + step(ta).1) == (b.0, b.1)
            }
        }
    }
}

/// The streets of one face and colour, counted the slow way: `(N-S, W-E)`.
fn slow_streets(pieces: &[Piece], colour: usize) -> (u32, u32) {
    let mine: Vec<&Piece> = pieces.iter().filter(|p| p.colour == colour).collect();
    let mut region_of: HashMap<usize, usize> = HashMap::new();
    let (mut ns, mut we) = (0, 0);
    for start in 0..mine.len() {
        if region_of.contains_key(&start) {
            continue;
        }
        let mut sides = Vec::new();
        let mut queue = VecDeque::from([start]);
        region_of.insert(start, start);
        while let Some(i) = queue.pop_front() {
            sides.extend(mine[i].sides.iter().copied());
            for j in 0..mine.len() {
                if !region_of.contains_key(&j) && adjacent(mine[i].key, mine[j].key) {
                    region_of.insert(j, start);
                    queue.push_back(j);
                }
            }
        }
        if sides.contains(&'N') && sides.contains(&'S') {
            ns += 1;
        }
        if sides.contains(&'W') && sides.contains(&'E') {
            we += 1;
        }
    }
    (ns, we)
}

#[test]
fn the_street_counter_agrees_with_a_slow_one_built_from_the_geometry() {
    for g in all_rulesets() {
        for state in random_states(&g, 21, 40) {
            let mut slow = Vec::new();
            for face in Face::BOTH {
                let pieces = pieces(&g, &state, face);
                slow.push(slow_streets(&pieces, 0));
                slow.push(slow_streets(&pieces, 1));
            }
            assert_eq!(
                street_table(&g, &state).to_vec(),
                slow,
                "{} {}",
                g.name(),
                g.position_text(&state)
            );
        }
    }
}

#[test]
fn positions_and_moves_read_back_and_the_hash_is_kept_up_to_date() {
    for g in all_rulesets() {
        for state in random_states(&g, 7, 20) {
            let text = g.position_text(&state);
            let back = pos(&g, &text);
            assert_eq!(back, state, "{text}");
            assert_eq!(g.hash(&state), state.fresh_hash(), "{text}");
            for mv in moves_of(&g, &state) {
                let mv_text = g.move_text(&state, mv);
                assert_eq!(g.parse_move(&state, &mv_text), Ok(mv));
                assert_eq!(g.parse_move(&state, &mv_text.to_uppercase()), Ok(mv));
            }
        }
    }
    assert_ne!(State::side_key(), 0);
}

#[test]
fn different_positions_have_different_hashes() {
    let g = flip();
    let mut seen = HashMap::new();
    for state in random_states(&g, 3, 30) {
        let text = g.position_text(&state);
        if let Some(other) = seen.insert(g.hash(&state), text.clone()) {
            assert_eq!(other, text);
        }
    }
}

//! The board as core draws it: 61 points named `a1` to `i9`, laid out on a triangular lattice
//! (rows horizontal, each half a unit to the side of the next, rows `sqrt(3)/2` apart, so that
//! neighbours are one unit apart), six named directions and a line between every two
//! neighbours.

use std::sync::LazyLock;

use denkmeter_core::{
    Board, Cell, CellInfo, Direction, Emblem, PieceShape, PieceStyle, Player, Shape,
};

use super::state::{
    coords, next, Piece, CELLS, DIRECTIONS, E, NE, NONE, NW, ROWS, ROW_LEN, ROW_START,
};

/// The distance between two rows in the drawing.
const ROW_HEIGHT: f32 = 0.866_025_4;

/// The name of crossing `sq`: its row letter and number, e.g. `e5`.
pub(crate) fn cell_name(sq: u8) -> String {
    let (r, n) = coords(sq);
    format!("{}{n}", (b'a' + r as u8) as char)
}

fn build() -> Board {
    let cells = (0..CELLS as u8)
        .map(|sq| {
            let (r, n) = coords(sq);
            CellInfo {
                name: cell_name(sq),
                x: f32::from(n) - r as f32 / 2.0 + 1.0,
                y: (8 - r) as f32 * ROW_HEIGHT,
                shape: Shape::Point,
                classes: Vec::new(),
            }
        })
        .collect();
    let directions = DIRECTIONS
        .iter()
        .map(|&(name, _, _)| Direction { name })
        .collect();
    let mut neighbours = Vec::with_capacity(CELLS * DIRECTIONS.len());
    let mut lines = Vec::new();
    for sq in 0..CELLS as u8 {
        for d in 0..DIRECTIONS.len() {
            let to = next(sq, d);
            let to = (to != NONE).then(|| Cell(u16::from(to)));
            neighbours.push(to);
            if let Some(to) = to.filter(|_| [NE, E, NW].contains(&d)) {
                lines.push((Cell(u16::from(sq)), to));
            }
        }
    }
    // Position strings write row i first, each row's crossings by ascending number.
    let position_rows = (0..ROWS)
        .rev()
        .map(|r| {
            (0..ROW_LEN[r])
                .map(|i| Cell(u16::from(ROW_START[r] + i)))
                .collect()
        })
        .collect();
    Board::from_parts(cells, directions, neighbours, lines)
        .with_position_rows(position_rows)
        .with_pieces(&[
            PieceStyle {
                kind: Piece::Disk.name(),
                letter: Piece::Disk.letter(Player::White),
                shape: PieceShape::Disc,
                emblem: Emblem::Plain,
            },
            PieceStyle {
                kind: Piece::Sjek.name(),
                letter: Piece::Sjek.letter(Player::White),
                shape: PieceShape::Stacked,
                emblem: Emblem::Plain,
            },
        ])
}

/// The board, built once.
pub(crate) static BOARD: LazyLock<Board> = LazyLock::new(build);

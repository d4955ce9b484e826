//! One SVG renderer for every board, drawn from the board's description and a position view.

use std::fmt::Write;

use crate::{Board, Cell, PieceShape, Player, PositionView, Shape, PALETTE};

const UNIT: f32 = 40.0;
const MARGIN: f32 = 24.0;

/// Draws `view` on `board` as a standalone SVG document; `marked` cells (the last move) are
/// outlined.
pub fn diagram(board: &Board, view: &PositionView, marked: &[Cell]) -> String {
    let (w, h) = board.extent();
    let width = w * UNIT + 2.0 * MARGIN;
    let height = h * UNIT + 2.0 * MARGIN;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" font-family="sans-serif">"#
    );
    let _ = writeln!(
        out,
        r#"<rect width="{width}" height="{height}" fill="{}"/>"#,
        PALETTE.background
    );
    let centre = |cell: Cell| {
        let info = board.info(cell);
        (
            MARGIN + (info.x + 0.5) * UNIT,
            MARGIN + (info.y + 0.5) * UNIT,
        )
    };
    for &(a, b) in board.lines() {
        let ((x1, y1), (x2, y2)) = (centre(a), centre(b));
        let _ = writeln!(
            out,
            r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{}" stroke-width="2"/>"#,
            PALETTE.line
        );
    }
    for cell in board.cell_ids() {
        let info = board.info(cell);
        let (cx, cy) = centre(cell);
        if view.absent.contains(&cell) {
            if info.shape == Shape::Square {
                let _ = writeln!(
                    out,
                    r#"<rect x="{}" y="{}" width="{UNIT}" height="{UNIT}" fill="{}"><title>{}</title></rect>"#,
                    cx - UNIT / 2.0,
                    cy - UNIT / 2.0,
                    PALETTE.absent,
                    info.name
                );
            }
            continue;
        }
        let stroke = if marked.contains(&cell) {
            format!(r#"stroke="{}" stroke-width="3""#, PALETTE.marked)
        } else {
            format!(r#"stroke="{}" stroke-width="1""#, PALETTE.edge)
        };
        match info.shape {
            Shape::Square => {
                let _ = writeln!(
                    out,
                    r#"<rect x="{}" y="{}" width="{UNIT}" height="{UNIT}" fill="{}" {stroke}><title>{}</title></rect>"#,
                    cx - UNIT / 2.0,
                    cy - UNIT / 2.0,
                    board.style(cell).fill,
                    info.name
                );
            }
            Shape::Point => {
                let _ = writeln!(
                    out,
                    r#"<circle cx="{cx}" cy="{cy}" r="5" fill="{}" {stroke}><title>{}</title></circle>"#,
                    PALETTE.line, info.name
                );
            }
        }
    }
    for piece in &view.pieces {
        let (cx, cy) = centre(piece.cell);
        let shape = board
            .legend()
            .piece(piece.kind)
            .map_or(PieceShape::Disc, |p| p.shape);
        let (fill, ink) = match piece.owner {
            _ if shape.is_neutral() => (PALETTE.stone, PALETTE.stone_ink),
            Player::White => (PALETTE.white_piece, PALETTE.white_ink),
            Player::Black => (PALETTE.black_piece, PALETTE.black_ink),
        };
        let radius = UNIT * 0.38;
        let body = match shape.outline() {
            None => format!(r#"<circle cx="{cx}" cy="{cy}" r="{radius}""#),
            Some(outline) => {
                // Black's triangles point the other way: away from their owner.
                let flip = if piece.owner == Player::Black && shape == PieceShape::Triangle {
                    -1.0
                } else {
                    1.0
                };
                let points: Vec<String> = outline
                    .iter()
                    .map(|&(x, y)| format!("{:.1},{:.1}", cx + x * radius, cy + flip * y * radius))
                    .collect();
                format!(r#"<polygon points="{}""#, points.join(" "))
            }
        };
        let ring = if shape == PieceShape::Crowned {
            format!(
                r#"<circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="{ink}" stroke-width="1.5"/>"#,
                UNIT * 0.3
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            r#"{body} fill="{fill}" stroke="{}" stroke-width="1.5"><title>{}</title></{}>{ring}<text x="{cx}" y="{}" text-anchor="middle" font-size="{}" font-weight="bold" fill="{ink}">{}</text>"#,
            PALETTE.piece_edge,
            piece.kind,
            if shape.outline().is_some() {
                "polygon"
            } else {
                "circle"
            },
            cy + UNIT * 0.14,
            UNIT * 0.4,
            piece.letter.to_ascii_uppercase()
        );
    }
    // Markings printed on the cells, over the pieces so that they can always be read.
    for mark in board.marks() {
        let (cx, cy) = centre(mark.cell);
        let at = |&(x, y): &(f32, f32)| (cx + x * UNIT, cy + y * UNIT);
        let mut path = format!("M{cx:.1} {cy:.1}");
        for p in &mark.points {
            let (x, y) = at(p);
            let _ = write!(path, "L{x:.1} {y:.1}");
        }
        let _ = write!(
            out,
            r#"<path d="{path}" fill="none" stroke="{}" stroke-width="1" stroke-opacity="0.45"/>"#,
            PALETTE.line
        );
        for p in &mark.points {
            let (x, y) = at(p);
            let _ = write!(
                out,
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="2" fill="{}"/>"#,
                PALETTE.line
            );
        }
        out.push('\n');
    }
    // Coordinates along the bottom and the left edge.
    for label in board.column_labels() {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle" font-size="12" fill="{}">{}</text>"#,
            MARGIN + (label.at + 0.5) * UNIT,
            height - 8.0,
            PALETTE.line,
            label.text
        );
    }
    for label in board.row_labels() {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle" font-size="12" fill="{}">{}</text>"#,
            MARGIN / 2.0,
            MARGIN + (label.at + 0.5) * UNIT + 4.0,
            PALETTE.line,
            label.text
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CellStyle, PieceStyle, PieceView};

    #[test]
    fn cells_and_pieces_are_drawn_from_the_legend() {
        let castle = CellStyle {
            class: "castle",
            fill: "#123456",
            glyph: '+',
            words: "castle",
        };
        let mut board = Board::rectangle(2, 1, false).with_pieces(&[PieceStyle {
            kind: "queen",
            letter: 'Q',
            shape: PieceShape::Crowned,
        }]);
        board.paint(Cell(0), castle);
        let view = PositionView {
            pieces: vec![PieceView {
                cell: Cell(0),
                owner: Player::White,
                kind: "queen",
                letter: 'Q',
            }],
            absent: vec![Cell(1)],
            to_move: Player::White,
        };
        let svg = diagram(&board, &view, &[]);
        assert!(svg.contains(r##"fill="#123456""##), "{svg}");
        assert!(
            svg.contains(&format!(r#"fill="{}""#, PALETTE.absent)),
            "{svg}"
        );
        assert!(
            !svg.contains(CellStyle::PLAIN.fill),
            "no plain cell is left"
        );
        assert_eq!(
            svg.matches("<circle").count(),
            2,
            "a crowned disc has a ring"
        );
    }

    #[test]
    fn every_shape_is_drawn_distinctly_and_stones_in_stone_colour() {
        let mut seen = Vec::new();
        for shape in PieceShape::ALL {
            let board = Board::rectangle(1, 1, false).with_pieces(&[PieceStyle {
                kind: "thing",
                letter: 'T',
                shape,
            }]);
            let view = PositionView {
                pieces: vec![PieceView {
                    cell: Cell(0),
                    owner: Player::Black,
                    kind: "thing",
                    letter: 't',
                }],
                absent: vec![],
                to_move: Player::White,
            };
            let svg = diagram(&board, &view, &[]);
            let piece = svg
                .lines()
                .find(|l| l.contains("<title>thing</title>"))
                .expect("the piece is drawn")
                .to_string();
            assert_eq!(
                svg.contains(&format!(r#"fill="{}""#, PALETTE.stone)),
                shape == PieceShape::Stone,
                "{shape:?}"
            );
            assert!(!seen.contains(&piece), "{shape:?} looks like another shape");
            seen.push(piece);
        }
    }
}

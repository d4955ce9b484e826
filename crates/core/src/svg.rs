//! One SVG renderer for every board, drawn from the board's description and a position view.

use std::fmt::Write;

use crate::{Board, Cell, Player, PositionView, Shape};

const UNIT: f32 = 40.0;
const MARGIN: f32 = 24.0;

fn fill_for(classes: &[&str]) -> &'static str {
    if classes.contains(&"castle-white") || classes.contains(&"castle-black") {
        "#c9a66b"
    } else if classes.contains(&"wall-white") || classes.contains(&"wall-black") {
        "#e2cfa3"
    } else if classes.contains(&"dark") {
        "#8b5a2b"
    } else {
        "#f3e6c8"
    }
}

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
        r##"<rect width="{width}" height="{height}" fill="#fbf7ee"/>"##
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
            r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#555" stroke-width="2"/>"##
        );
    }
    for cell in board.cell_ids() {
        if view.absent.contains(&cell) {
            continue;
        }
        let info = board.info(cell);
        let (cx, cy) = centre(cell);
        let stroke = if marked.contains(&cell) {
            r##"stroke="#d33" stroke-width="3""##
        } else {
            r##"stroke="#6b5a3e" stroke-width="1""##
        };
        match info.shape {
            Shape::Square => {
                let _ = writeln!(
                    out,
                    r#"<rect x="{}" y="{}" width="{UNIT}" height="{UNIT}" fill="{}" {stroke}><title>{}</title></rect>"#,
                    cx - UNIT / 2.0,
                    cy - UNIT / 2.0,
                    fill_for(&info.classes),
                    info.name
                );
            }
            Shape::Point => {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{cx}" cy="{cy}" r="5" fill="#555" {stroke}><title>{}</title></circle>"##,
                    info.name
                );
            }
        }
    }
    for piece in &view.pieces {
        let (cx, cy) = centre(piece.cell);
        let (fill, ink) = match piece.owner {
            Player::White => ("#fff", "#000"),
            Player::Black => ("#222", "#fff"),
        };
        let _ = writeln!(
            out,
            r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="{fill}" stroke="#000" stroke-width="1.5"/><text x="{cx}" y="{}" text-anchor="middle" font-size="{}" font-weight="bold" fill="{ink}">{}</text>"##,
            UNIT * 0.38,
            cy + UNIT * 0.14,
            UNIT * 0.4,
            piece.letter.to_ascii_uppercase()
        );
    }
    // Coordinates along the bottom and the left edge.
    for label in board.column_labels() {
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" text-anchor="middle" font-size="12" fill="#555">{}</text>"##,
            MARGIN + (label.at + 0.5) * UNIT,
            height - 8.0,
            label.text
        );
    }
    for label in board.row_labels() {
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" text-anchor="middle" font-size="12" fill="#555">{}</text>"##,
            MARGIN / 2.0,
            MARGIN + (label.at + 0.5) * UNIT + 4.0,
            label.text
        );
    }
    out.push_str("</svg>\n");
    out
}

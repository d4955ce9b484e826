//! One SVG renderer for every board, drawn from the board's description and a position view.

use std::fmt::Write;

use crate::{
    Board, Cell, Emblem, Highlight, Legend, PieceShape, PieceView, Player, PositionView, Shape,
    PALETTE, TILE_SCALE,
};

const UNIT: f32 = 40.0;
const MARGIN: f32 = 24.0;

/// What a diagram shows besides the board and its pieces.
#[derive(Clone, Copy, Debug, Default)]
pub struct Extras<'a> {
    /// Cells to outline (the last move).
    pub marked: &'a [Cell],
    /// The board seen from its back: the picture mirrored left to right (the view's pieces are
    /// the back's, in front coordinates; see [`crate::Side::Back`]).
    pub mirrored: bool,
    /// Regions to point out on the side drawn.
    pub highlights: &'a [Highlight],
}

/// Draws `view` on `board` as a standalone SVG document; `marked` cells (the last move) are
/// outlined.
pub fn diagram(board: &Board, view: &PositionView, marked: &[Cell]) -> String {
    diagram_with(
        board,
        view,
        &Extras {
            marked,
            ..Extras::default()
        },
    )
}

/// Draws `view` on `board` as a standalone SVG document with `extras`: the last move, the
/// back's mirror image, highlighted regions.
pub fn diagram_with(board: &Board, view: &PositionView, extras: &Extras<'_>) -> String {
    let marked = extras.marked;
    let (w, h) = board.extent();
    // Seen from the back, x runs the other way.
    let across = |x: f32| if extras.mirrored { w - x } else { x };
    let sign = if extras.mirrored { -1.0 } else { 1.0 };
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
            MARGIN + across(info.x + 0.5) * UNIT,
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
        if shape.fills_cell() {
            out.push_str(&tile(cx, cy, sign, shape, piece.owner, piece.kind));
        } else {
            let _ = writeln!(out, "{}", piece_figure(board.legend(), piece, cx, cy));
        }
    }
    // Highlighted regions over the pieces: a tint over each part, the outline around them.
    for highlight in extras.highlights {
        let colour = match highlight.owner {
            Player::White => PALETTE.white_highlight,
            Player::Black => PALETTE.black_highlight,
        };
        let at = |(x, y): (f32, f32)| (MARGIN + across(x) * UNIT, MARGIN + y * UNIT);
        let mut area = String::new();
        for part in &highlight.parts {
            for (i, &p) in part.iter().enumerate() {
                let (x, y) = at(p);
                let _ = write!(area, "{}{x:.1} {y:.1}", if i == 0 { "M" } else { "L" });
            }
            area.push('Z');
        }
        let mut edges = String::new();
        for [a, b] in highlight.outline() {
            let ((x1, y1), (x2, y2)) = (at(a), at(b));
            let _ = write!(edges, "M{x1:.1} {y1:.1}L{x2:.1} {y2:.1}");
        }
        let _ = writeln!(
            out,
            r#"<g class="highlight"><title>{}</title><path d="{area}" fill="{colour}" fill-opacity="0.35"/><path d="{edges}" fill="none" stroke="{colour}" stroke-width="3" stroke-linecap="round"/></g>"#,
            highlight.label
        );
    }
    // Markings printed on the cells, over the pieces so that they can always be read.
    for mark in board.marks() {
        let (cx, cy) = centre(mark.cell);
        let at = |&(x, y): &(f32, f32)| (cx + sign * x * UNIT, cy + y * UNIT);
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
            MARGIN + across(label.at + 0.5) * UNIT,
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

/// One piece that stands on its cell, centred at (`cx`, `cy`): its body in its shape (a
/// stacked piece is two discs, the upper one a little higher), a ring inside if crowned, and its
/// emblem in its owner's ink, titled with its kind. A kind the legend does not know is a disc
/// bearing its letter.
fn piece_figure(legend: &Legend, piece: &PieceView, cx: f32, cy: f32) -> String {
    let (shape, emblem) = legend
        .piece(piece.kind)
        .map_or((PieceShape::Disc, Emblem::Letter), |p| (p.shape, p.emblem));
    let (owner, kind) = (piece.owner, piece.kind);
    let (fill, ink) = if shape.is_neutral() {
        (PALETTE.stone, PALETTE.stone_ink)
    } else {
        legend.piece_colours(owner)
    };
    let radius = UNIT * 0.38;
    let paint = format!(
        r#"fill="{fill}" stroke="{}" stroke-width="1.5""#,
        PALETTE.piece_edge
    );
    let mut out = String::new();
    // The centre of the face that bears the ring and the emblem.
    let mut face = cy;
    match shape.outline() {
        None if shape == PieceShape::Stacked => {
            let lift = radius * 0.12;
            face = cy - lift;
            let _ = write!(
                out,
                r#"<circle cx="{cx}" cy="{}" r="{radius}" {paint}/><circle cx="{cx}" cy="{face}" r="{radius}" {paint}><title>{kind}</title></circle>"#,
                cy + lift
            );
        }
        None => {
            let _ = write!(
                out,
                r#"<circle cx="{cx}" cy="{cy}" r="{radius}" {paint}><title>{kind}</title></circle>"#
            );
        }
        Some(outline) => {
            // Black's triangles point the other way: away from their owner.
            let flip = if owner == Player::Black && shape == PieceShape::Triangle {
                -1.0
            } else {
                1.0
            };
            let points: Vec<String> = outline
                .iter()
                .map(|&(x, y)| format!("{:.1},{:.1}", cx + x * radius, cy + flip * y * radius))
                .collect();
            let _ = write!(
                out,
                r#"<polygon points="{}" {paint}><title>{kind}</title></polygon>"#,
                points.join(" ")
            );
        }
    }
    if shape == PieceShape::Crowned {
        let _ = write!(
            out,
            r#"<circle cx="{cx}" cy="{face}" r="{}" fill="none" stroke="{ink}" stroke-width="1.5"/>"#,
            UNIT * 0.3
        );
    }
    if let Some(path) = emblem.path() {
        let _ = write!(
            out,
            r#"<path d="{path}" transform="translate({cx} {face}) scale({radius})" fill="{ink}"/>"#
        );
    }
    if let Some(text) = emblem.text(piece.letter) {
        let _ = write!(
            out,
            r#"<text x="{cx}" y="{}" text-anchor="middle" font-size="{}" font-weight="bold" fill="{ink}">{text}</text>"#,
            face + UNIT * 0.14,
            UNIT * 0.4,
        );
    }
    out
}

/// A tile filling the cell centred at `(cx, cy)`: its owner's colour, or split into White's
/// colour and Black's half with a disc of its owner's colour at the centre. `sign` is -1 when
/// the picture is mirrored.
fn tile(cx: f32, cy: f32, sign: f32, shape: PieceShape, owner: Player, kind: &str) -> String {
    let side = UNIT * TILE_SCALE;
    let (own, ink) = match owner {
        Player::White => (PALETTE.white_piece, PALETTE.white_ink),
        Player::Black => (PALETTE.black_piece, PALETTE.black_ink),
    };
    let Some(half) = shape.dark_half() else {
        return format!(
            r#"<g><title>{kind}</title><rect x="{:.1}" y="{:.1}" width="{side:.1}" height="{side:.1}" fill="{own}" stroke="{}" stroke-width="1"/></g>
"#,
            cx - side / 2.0,
            cy - side / 2.0,
            PALETTE.piece_edge
        );
    };
    let points: Vec<String> = half
        .iter()
        .map(|&(x, y)| format!("{:.1},{:.1}", cx + sign * x * side, cy + y * side))
        .collect();
    format!(
        r#"<g><title>{kind}</title><rect x="{:.1}" y="{:.1}" width="{side:.1}" height="{side:.1}" fill="{}" stroke="{}" stroke-width="1"/><polygon points="{}" fill="{}"/><circle cx="{cx}" cy="{cy}" r="{:.1}" fill="{own}" stroke="{ink}" stroke-width="1.5"/></g>
"#,
        cx - side / 2.0,
        cy - side / 2.0,
        PALETTE.white_piece,
        PALETTE.piece_edge,
        points.join(" "),
        PALETTE.black_piece,
        UNIT * 0.11
    )
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
            emblem: Emblem::Letter,
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

    /// The points of the first polygon in `svg`.
    fn first_polygon(svg: &str) -> Vec<(f32, f32)> {
        let marker = "<polygon points=\"";
        let at = svg.find(marker).expect("a polygon") + marker.len();
        let end = at + svg[at..].find('"').unwrap();
        svg[at..end]
            .split(' ')
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect()
    }

    #[test]
    fn a_split_tile_fills_its_cell_in_both_colours_and_mirrors_with_the_board() {
        use crate::{Highlight, Side, Towards};
        let board = Board::rectangle(2, 1, false).with_pieces(&[PieceStyle {
            kind: "tile-e",
            letter: 'E',
            shape: PieceShape::SplitTile(Towards::East),
            emblem: Emblem::Plain,
        }]);
        let view = PositionView {
            pieces: vec![PieceView {
                cell: Cell(0),
                owner: Player::Black,
                kind: "tile-e",
                letter: 'e',
            }],
            absent: vec![],
            to_move: Player::White,
        };
        let front = diagram(&board, &view, &[]);
        let tile = front
            .lines()
            .find(|l| l.contains("<title>tile-e</title>"))
            .expect("the tile is drawn");
        assert!(
            tile.contains(&format!(r#"fill="{}""#, PALETTE.white_piece)),
            "{tile}"
        );
        assert!(
            tile.contains(&format!(r#"fill="{}""#, PALETTE.black_piece)),
            "{tile}"
        );
        assert!(!tile.contains("<text"), "a tile bears no letter: {tile}");
        // a1 is the left cell: its centre at x = 24 + 20; Black's half lies east of it.
        let (cx, side) = (MARGIN + UNIT / 2.0, UNIT * TILE_SCALE);
        let half = first_polygon(&front);
        assert!(half.iter().all(|&(x, _)| x >= cx - 0.1), "{half:?}");
        assert!(
            half.iter().any(|&(x, _)| x >= cx + side / 2.0 - 0.1),
            "{half:?}"
        );

        // Seen from the back, a1 is the right cell and the half lies west.
        let street = Highlight {
            side: Side::Back,
            owner: Player::Black,
            label: "Black's street".into(),
            value: 1,
            parts: vec![vec![(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]],
        };
        let back = diagram_with(
            &board,
            &view,
            &Extras {
                mirrored: true,
                highlights: std::slice::from_ref(&street),
                ..Extras::default()
            },
        );
        let cx = MARGIN + 1.5 * UNIT;
        let half = first_polygon(&back);
        assert!(half.iter().all(|&(x, _)| x <= cx + 0.1), "{half:?}");
        assert!(
            half.iter().any(|&(x, _)| x <= cx - side / 2.0 + 0.1),
            "{half:?}"
        );
        assert!(back.contains("<title>Black's street</title>"), "{back}");
        assert!(
            back.contains(&format!(r#"fill="{}""#, PALETTE.black_highlight)),
            "{back}"
        );
        assert!(
            back.contains("M104.0 24.0L64.0 24.0"),
            "mirrored outline: {back}"
        );
    }

    /// A diagram of one black piece of `shape` bearing `emblem` (its letter `t`), and the
    /// piece's line in it.
    fn one_black_piece(shape: PieceShape, emblem: Emblem) -> (String, String) {
        let board = Board::rectangle(1, 1, false).with_pieces(&[PieceStyle {
            kind: "thing",
            letter: 'T',
            shape,
            emblem,
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
        (svg, piece)
    }

    #[test]
    fn every_shape_is_drawn_distinctly_and_stones_in_stone_colour() {
        let mut seen = Vec::new();
        for shape in PieceShape::ALL {
            let (svg, piece) = one_black_piece(shape, Emblem::Plain);
            assert_eq!(
                svg.contains(&format!(r#"fill="{}""#, PALETTE.stone)),
                shape == PieceShape::Stone,
                "{shape:?}"
            );
            assert!(!seen.contains(&piece), "{shape:?} looks like another shape");
            seen.push(piece);
        }
    }

    #[test]
    fn every_emblem_is_drawn_distinctly_in_its_owners_ink() {
        let mut seen = Vec::new();
        for emblem in Emblem::ALL {
            let (_, piece) = one_black_piece(PieceShape::Disc, emblem);
            let inked = format!(r#"fill="{}""#, PALETTE.black_ink);
            assert_eq!(
                piece.contains(&inked),
                emblem != Emblem::Plain,
                "{emblem:?} bears its figure in Black's ink: {piece}"
            );
            assert_eq!(piece.contains(">T</text>"), emblem == Emblem::Letter);
            assert_eq!(piece.contains(">?</text>"), emblem == Emblem::Unknown);
            assert!(!seen.contains(&piece), "{emblem:?} looks like another");
            seen.push(piece);
        }
    }
}

//! A text drawing of any board, from its description: cells placed by their drawing
//! coordinates and drawn by their legend's glyphs, pieces by their letters, the last move's
//! cells in brackets, and a key made from the legend.

use std::collections::BTreeMap;

use denkmeter_core::{Board, Cell, CellStyle, PositionView, Shape};

/// Draws the board with White at the bottom, or turned round (`turned`: Black at the bottom,
/// labels and all). `marked` cells (the last move) are bracketed. Coordinates are doubled so
/// that boards with rows offset by half a cell (hexagonal lattices) line up.
pub fn board(board: &Board, view: &PositionView, marked: &[Cell], turned: bool) -> String {
    let sign = if turned { -1 } else { 1 };
    let twice = |v: f32| sign * (v * 2.0).round() as i64;
    let mut grid: BTreeMap<(i64, i64), String> = BTreeMap::new();
    for cell in board.cell_ids() {
        let info = board.info(cell);
        let piece = view
            .pieces
            .iter()
            .find(|p| p.cell == cell)
            .map(|p| p.letter);
        let mark = if view.absent.contains(&cell) {
            ' '
        } else {
            piece.unwrap_or_else(|| board.style(cell).glyph)
        };
        // An empty square of a board whose players number them shows its number (draughts'
        // 1 to 50), which is how they name it in a move.
        let number = board.number(cell).filter(|_| piece.is_none());
        let text = match number {
            Some(n) if !marked.contains(&cell) => format!(" {n:<2}"),
            _ if marked.contains(&cell) => format!("({mark})"),
            _ => format!(" {mark} "),
        };
        grid.insert((twice(info.y), twice(info.x)), text);
    }
    let rows: BTreeMap<i64, String> = board
        .row_labels()
        .into_iter()
        .map(|l| (twice(l.at), l.text))
        .collect();
    let columns: BTreeMap<i64, String> = board
        .column_labels()
        .into_iter()
        .map(|l| (twice(l.at), l.text))
        .collect();
    let xs: Vec<i64> = grid.keys().map(|&(_, x)| x).collect();
    let min_x = xs.iter().copied().min().unwrap_or(0);
    let max_x = xs.iter().copied().max().unwrap_or(0);
    let ys: std::collections::BTreeSet<i64> = grid.keys().map(|&(y, _)| y).collect();
    let width = rows.values().map(String::len).max().unwrap_or(0);
    // Cells two half-units apart take three characters; a half-unit step takes a fraction.
    let step = |x: i64| usize::try_from(x - min_x).unwrap_or(0) * 3 / 2;
    // On boards of points the numbering along a row is not obvious: name each row's ends.
    let mut row_ends: BTreeMap<i64, (i64, String, i64, String)> = BTreeMap::new();
    for cell in board.cell_ids() {
        let info = board.info(cell);
        if info.shape != denkmeter_core::Shape::Point {
            continue;
        }
        let (y, x) = (twice(info.y), twice(info.x));
        let ends = row_ends
            .entry(y)
            .or_insert((x, info.name.clone(), x, info.name.clone()));
        if x < ends.0 {
            (ends.0, ends.1) = (x, info.name.clone());
        }
        if x > ends.2 {
            (ends.2, ends.3) = (x, info.name.clone());
        }
    }
    let mut out = String::new();
    for y in ys {
        let mut line = format!("{:>width$} ", rows.get(&y).map_or("", String::as_str));
        let start = line.len();
        for x in min_x..=max_x {
            if let Some(text) = grid.get(&(y, x)) {
                let at = start + step(x);
                while line.len() < at {
                    line.push(' ');
                }
                line.push_str(text);
            }
        }
        let mut line = line.trim_end().to_string();
        if let Some((_, first, _, last)) = row_ends.get(&y) {
            let pad = (start + step(max_x) + 3).saturating_sub(line.len());
            line.push_str(&format!("{}   {first}-{last}", " ".repeat(pad)));
        }
        out.push_str(&line);
        out.push('\n');
    }
    if !columns.is_empty() {
        let mut line = " ".repeat(width + 1);
        let start = line.len();
        for (&x, text) in &columns {
            let at = start + step(x) + 1;
            while line.len() < at {
                line.push(' ');
            }
            line.push_str(text);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&key(board));
    out
}

/// The key under a drawing: what each glyph of an empty cell means, and the pieces.
fn key(board: &Board) -> String {
    let squares: Vec<Cell> = board
        .cell_ids()
        .filter(|&c| board.info(c).shape == Shape::Square)
        .collect();
    let plain = squares
        .iter()
        .any(|&c| board.style(c) == &CellStyle::PLAIN)
        .then_some(&CellStyle::PLAIN);
    let mut styles: Vec<&CellStyle> = Vec::new();
    for style in plain.into_iter().chain(&board.legend().cells) {
        if !styles
            .iter()
            .any(|s| (s.glyph, s.words) == (style.glyph, style.words))
        {
            styles.push(style);
        }
    }
    let numbered = |style: &CellStyle| {
        board
            .cell_ids()
            .any(|c| board.number(c).is_some() && board.style(c) == style)
    };
    let mut parts: Vec<String> = styles
        .iter()
        .map(|s| match s.glyph {
            ' ' => format!("blank {}", s.words),
            _ if numbered(s) => format!(
                "numbers empty {}s, numbered as moves name them ({} where the last move left one)",
                s.words, s.glyph
            ),
            glyph => format!("{glyph} {}", s.words),
        })
        .collect();
    if let Some(words) = board.legend().absent {
        parts.push(format!("blank {words}"));
    }
    let pieces: Vec<String> = board
        .legend()
        .pieces
        .iter()
        .map(|p| format!("{} {}", p.letter, p.kind))
        .collect();
    let mut out = String::new();
    if !parts.is_empty() {
        out.push_str(&format!("Cells: {}. ", parts.join(", ")));
    }
    if !pieces.is_empty() {
        // Upper case is the rules' first player, whom checkers calls Black (the dark men).
        let cases = if board.legend().first_player_dark {
            "Black, who moves first, upper case; White lower"
        } else {
            "White upper case, Black lower"
        };
        out.push_str(&format!("Pieces: {} ({cases}). ", pieces.join(", ")));
    }
    out.push_str("Last move in brackets.\n");
    out
}

//! A text drawing of any board, from its description: cells placed by their drawing
//! coordinates, pieces by their letters, the last move's cells in brackets.

use std::collections::BTreeMap;

use denkmeter_core::{Board, Cell, PositionView};

/// The character of an empty cell, from its drawing classes.
fn empty_mark(classes: &[&str]) -> char {
    if classes.iter().any(|c| c.starts_with("castle")) {
        '+'
    } else if classes.iter().any(|c| c.starts_with("wall")) {
        '-'
    } else {
        '.'
    }
}

/// Draws the board with White at the bottom. `marked` cells (the last move) are bracketed.
pub fn board(board: &Board, view: &PositionView, marked: &[Cell]) -> String {
    let mut grid: BTreeMap<(i64, i64), String> = BTreeMap::new();
    let mut row_labels: BTreeMap<i64, String> = BTreeMap::new();
    let mut col_labels: BTreeMap<i64, (i64, String)> = BTreeMap::new();
    for cell in board.cell_ids() {
        let info = board.info(cell);
        let (x, y) = ((info.x * 2.0).round() as i64, (info.y * 2.0).round() as i64);
        let (letters, digits) = info.name_parts();
        row_labels.entry(y).or_insert_with(|| digits.to_string());
        let label = col_labels.entry(x).or_insert((y, letters.to_string()));
        if y > label.0 {
            *label = (y, letters.to_string());
        }
        let piece = view
            .pieces
            .iter()
            .find(|p| p.cell == cell)
            .map(|p| p.letter);
        let mark = if view.absent.contains(&cell) {
            ' '
        } else {
            piece.unwrap_or_else(|| empty_mark(&info.classes))
        };
        let text = if marked.contains(&cell) {
            format!("({mark})")
        } else {
            format!(" {mark} ")
        };
        grid.insert((y, x), text);
    }
    let xs: Vec<i64> = col_labels.keys().copied().collect();
    let (min_x, max_x) = (
        xs.first().copied().unwrap_or(0),
        xs.last().copied().unwrap_or(0),
    );
    let width = row_labels.values().map(String::len).max().unwrap_or(1);
    let mut out = String::new();
    for (&y, label) in &row_labels {
        out.push_str(&format!("{label:>width$} "));
        let mut x = min_x;
        while x <= max_x {
            match grid.get(&(y, x)) {
                Some(text) => out.push_str(text),
                None if col_labels.contains_key(&x) => out.push_str("   "),
                None => {}
            }
            x += 1;
        }
        out.push('\n');
    }
    out.push_str(&" ".repeat(width + 1));
    for (_, (_, letters)) in col_labels {
        out.push_str(&format!(" {letters:<2}"));
    }
    out.push('\n');
    let has = |prefix: &str| {
        board
            .cell_ids()
            .any(|c| board.info(c).classes.iter().any(|k| k.starts_with(prefix)))
    };
    if has("castle") || has("wall") {
        out.push_str("Empty squares: . open, + castle, - wall. Last move in brackets.\n");
    } else if !view.absent.is_empty() {
        out.push_str("Empty squares: . tile, blank: no tile. Last move in brackets.\n");
    }
    out
}
